"""Every interaction is answered in its language: commands, views, dynamic items, modals.

The probes below answer with the language the bot's code sees (``current_language()``), so
each entry point is checked on its own, whatever the other areas have translated yet.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.cogs import KindView
from bot.gateway import install_interaction_hook as install
from bot.i18n import current_language
from bot.services.languages import LanguageChoices
from tests.conftest import Table, text_of


class Probe(KindView):
    """A button that answers with the language, and one that opens a form that does."""

    def __init__(self) -> None:
        super().__init__(timeout=60)

    @discord.ui.button(label="which", custom_id="probe:which")
    async def which(self, interaction: discord.Interaction, _b: discord.ui.Button) -> None:
        await interaction.response.send_message(f"lang={current_language()}", ephemeral=True)

    @discord.ui.button(label="form", custom_id="probe:form")
    async def form(self, interaction: discord.Interaction, _b: discord.ui.Button) -> None:
        await interaction.response.send_modal(ProbeForm())


class ProbeForm(discord.ui.Modal, title="probe"):
    text: discord.ui.TextInput[Any] = discord.ui.TextInput(label="text", custom_id="text")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"lang={current_language()}", ephemeral=True)


class ProbeItem(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"probe-dynamic:(?P<n>[0-9]+)"
):
    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label="dynamic", custom_id=f"probe-dynamic:{n}"))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> ProbeItem:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"lang={current_language()}", ephemeral=True)


async def probe_message(table: Table) -> discord.Message:
    table.bot.add_dynamic_items(ProbeItem)
    view = Probe()
    view.add_item(ProbeItem(7))
    channel = table.bot.get_channel(table.channel.id)
    message = await channel.send("probe", view=view)
    await table.env.settle()
    return message


async def test_the_fixture_gives_that_user_a_spanish_client_and_nobody_else(
    table: Table, as_spanish: Any
) -> None:
    as_spanish(table.alice)
    spanish = await table.alice.slash(table.channel, "settings show")
    english = await table.bob.slash(table.channel, "settings show")
    assert "Configuración del canal" in text_of(spanish)
    assert "Channel settings" in text_of(english)
    assert "Configuración" not in text_of(english)


async def test_latin_american_spanish_is_spanish(table: Table, as_spanish: Any) -> None:
    as_spanish(table.alice, locale="es-419")
    result = await table.alice.slash(table.channel, "settings show")
    assert "Configuración del canal" in text_of(result)


@pytest.mark.parametrize("label", ["which", "dynamic"])
async def test_buttons_and_dynamic_items_answer_in_the_pressers_language(
    table: Table, as_spanish: Any, label: str
) -> None:
    message = await probe_message(table)
    as_spanish(table.alice)
    assert text_of(await table.alice.click(message, label=label)) == "lang=es"
    assert text_of(await table.bob.click(message, label=label)) == "lang=en"


async def test_forms_answer_in_the_submitters_language(table: Table, as_spanish: Any) -> None:
    message = await probe_message(table)
    as_spanish(table.alice)
    shown = await table.alice.click(message, label="form")
    assert text_of(await table.alice.submit_modal(shown, {"text": "hola"})) == "lang=es"
    shown = await table.bob.click(message, label="form")
    assert text_of(await table.bob.submit_modal(shown, {"text": "hi"})) == "lang=en"


async def test_a_users_choice_reaches_buttons_too(table: Table) -> None:
    message = await probe_message(table)
    await table.alice.slash(table.channel, "settings my-language", language="es")
    assert text_of(await table.alice.click(message, label="which")) == "lang=es"
    assert text_of(await table.alice.click(message, label="dynamic")) == "lang=es"


async def test_the_gateway_task_keeps_no_language(table: Table, as_spanish: Any) -> None:
    """The language is set around a dispatch only: later events start from English."""
    message = await probe_message(table)
    as_spanish(table.alice)
    await table.alice.click(message, label="which")
    assert current_language() == "en"


async def test_a_component_on_a_cold_cache_waits_for_one_lookup(table: Table) -> None:
    """A miss reads both choices in one query, then the dispatch runs with the language."""
    message = await probe_message(table)
    await table.alice.slash(table.channel, "settings my-language", language="es")
    choices: LanguageChoices = table.bot.languages  # type: ignore[attr-defined]
    choices._cache.clear()
    before = choices.queries
    assert text_of(await table.alice.click(message, label="which")) == "lang=es"
    assert choices.queries == before + 1
    assert text_of(await table.alice.click(message, label="which")) == "lang=es"
    assert choices.queries == before + 1  # cached


async def test_a_database_failure_falls_back_to_the_client_language(
    table: Table, as_spanish: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    message = await probe_message(table)
    as_spanish(table.alice)
    choices: LanguageChoices = table.bot.languages  # type: ignore[attr-defined]
    choices._cache.clear()

    async def broken(*_args: Any) -> Any:
        raise OSError("database down")

    monkeypatch.setattr(choices, "choices", broken)
    assert text_of(await table.alice.click(message, label="which")) == "lang=es"


def test_install_keeps_the_other_events(monkeypatch: pytest.MonkeyPatch) -> None:
    """A payload nobody is limited for (a ping) reaches discord.py unchanged and at once;
    commands, presses and modals go through the gate (tests/bot/gateway/test_command_limits)."""
    seen: list[dict[str, Any]] = []

    parsers: dict[str, Any] = {"INTERACTION_CREATE": seen.append}
    client = SimpleNamespace(_connection=SimpleNamespace(parsers=parsers))
    install(client, LanguageChoices(None))  # type: ignore[arg-type]
    ping = {"type": 1, "locale": "es-ES", "channel_id": "1", "user": {"id": "2"}}
    parsers["INTERACTION_CREATE"](ping)
    assert seen == [ping]
