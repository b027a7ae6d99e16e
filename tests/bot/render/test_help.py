"""``/help command:<name>`` in English and Spanish: every option whole (over more fields when
they need them), within Discord's limits, two hand-written examples, and notes."""

from __future__ import annotations

import pytest

from bot.i18n import _, use_language
from bot.render.help import command_embed
from bot.render.limits import FIELD_VALUE, FIELDS, TOTAL, TRUNCATED_NOTE
from tests.conftest import Table, embed_of, text_of


@pytest.mark.parametrize("language", ["en", "es"])
async def test_every_option_is_listed_whole(table: Table, language: str) -> None:
    with use_language(language):
        for command in table.bot.tree.walk_commands():
            if not hasattr(command, "parameters"):
                continue
            embed = command_embed(command)
            name = command.qualified_name
            assert len(embed) <= TOTAL and len(embed.fields) <= FIELDS, name
            assert TRUNCATED_NOTE not in (embed.footer.text or ""), name
            values = [f.value or "" for f in embed.fields]
            assert all(len(v) <= FIELD_VALUE for v in values), name
            shown = "\n".join(values)
            for option in command.parameters:  # its name and its whole description
                assert f"`{option.name}`" in shown, (name, option.name)
                assert f" — {_(option.description)}" in shown, (name, option.name)
                assert all(str(c.value) in shown for c in option.choices), (name, option.name)


async def test_drama_test_shows_its_last_options(table: Table, as_spanish: object) -> None:
    result = await table.alice.slash(table.channel, "help", command="drama test")
    text = text_of(result)
    for option in ("hand", "helpers", "risk", "character", "secret"):
        assert f"`{option}`" in text
    assert "optio…" not in text


async def test_coda_damage_says_the_seed_gives_no_numbers_by_degree(
    table: Table, as_spanish: object
) -> None:
    result = await table.alice.slash(table.channel, "help", command="coda damage")
    assert "no damage numbers by degree" in text_of(result)
    as_spanish(table.alice)  # type: ignore[operator]
    spanish = await table.alice.slash(table.channel, "help", command="coda damage")
    assert "no da cifras de daño por grado" in text_of(spanish)


async def test_init_start_says_the_initiator_loses_round_one(table: Table) -> None:
    result = await table.alice.slash(table.channel, "help", command="init start")
    examples = next(f.value for f in embed_of(result).fields if f.name == "Examples")
    assert "no action in round 1" in examples and "Hermione first" not in examples
