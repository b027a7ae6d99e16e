"""``/penalty add|recover|rest|show``: who may change whose pool, floors, levels, the log."""

from __future__ import annotations

import pytest
from simcord.backend.errors import OptionError

from bot.app import create_bot
from tests.conftest import Table, embed_of, text_of


async def characters(table: Table) -> None:
    await table.alice.slash(table.channel, "sheet create", name="William", system="drama")
    await table.bob.slash(table.channel, "sheet create", name="Peter", system="drama")
    # The GM sees characters used in this channel: each player uses theirs here.
    await table.alice.slash(table.channel, "sheet use", character="William")
    await table.bob.slash(table.channel, "sheet use", character="Peter")


async def test_gm_adds_with_a_reason_and_the_level_change_is_announced(table: Table) -> None:
    await characters(table)
    result = await table.gm.slash(
        table.channel, "penalty add", character="William", amount=4, reason="a long march"
    )
    assert not result.ephemeral
    embed = embed_of(result)
    assert embed.title == "😟 Penalty pool — William"
    assert "+4 penalty dice added: 0 → **4** (shaken)" in embed.description
    assert "Reason: a long march" in embed.description
    assert "**William** is now **shaken** (was none)" in embed.description
    same_level = await table.gm.slash(table.channel, "penalty add", character="William", amount=1)
    assert "is now" not in embed_of(same_level).description


async def test_a_player_adds_to_their_own_but_not_to_others(table: Table) -> None:
    await characters(table)
    own = await table.alice.slash(table.channel, "penalty add", character="william", amount=1)
    assert "0 → **1** (distracted)" in embed_of(own).description
    other = await table.alice.slash(table.channel, "penalty add", character="Peter", amount=1)
    assert other.ephemeral
    assert "no character called `Peter` that you can use" in other.response.content


async def test_recover_is_for_the_gm_and_stops_at_zero(table: Table) -> None:
    await characters(table)
    await table.gm.slash(table.channel, "penalty add", character="William", amount=2)
    refused = await table.alice.slash(
        table.channel, "penalty recover", character="William", amount=1
    )
    assert refused.ephemeral and "Only the channel's GM can remove penalty dice" in (
        refused.response.content
    )
    result = await table.gm.slash(table.channel, "penalty recover", character="William", amount=5)
    description = embed_of(result).description
    assert "−2 penalty dice recovered: 2 → **0** (none) — the pool stops at 0" in description
    assert "**William** is free of penalty dice" in description


async def test_rest_recovers_one_per_three_full_hours(table: Table) -> None:
    await characters(table)
    await table.gm.slash(table.channel, "penalty add", character="William", amount=5)
    result = await table.alice.slash(table.channel, "penalty rest", character="William", hours=8.5)
    assert "−2 penalty dice recovered by 8.5 hours of rest: 5 → **3**" in text_of(result)
    short = await table.alice.slash(table.channel, "penalty rest", character="William", hours=2)
    assert "Less than 3 full hours of rest recovers nothing" in text_of(short)
    assert "No change: the pool stays at **3**" in text_of(short)
    refused = await table.bob.slash(table.channel, "penalty rest", character="William", hours=9)
    assert refused.ephemeral
    gm = await table.gm.slash(table.channel, "penalty rest", character="William", hours=24)
    assert "3 → **0**" in text_of(gm) and "the pool stops at 0" in text_of(gm)
    empty = await table.alice.slash(table.channel, "penalty rest", character="William", hours=6)
    assert "6 hours of rest: there was nothing to recover." in text_of(empty)


async def test_show_the_pool_level_and_log_and_it_survives_a_restart(table: Table) -> None:
    await characters(table)
    empty = await table.alice.slash(table.channel, "penalty show")
    assert "**0 penalty dice** · level **none**" in embed_of(empty).description
    assert "None yet." in text_of(empty)
    await table.gm.slash(
        table.channel, "penalty add", character="William", amount=10, reason="rout"
    )
    await table.env.restart_bot(create_bot(table.bot.settings, sync_globally=True))
    shown = await table.alice.slash(table.channel, "penalty show")
    assert "**10 penalty dice** · level **broken**" in embed_of(shown).description
    assert f"added: 0 → 10 by <@{table.gm.id}> — rout" in text_of(shown)
    by_gm = await table.gm.slash(table.channel, "penalty show", character="Peter")
    assert "Peter" in embed_of(by_gm).title
    refused = await table.bob.slash(table.channel, "penalty show", character="William")
    assert refused.ephemeral


async def test_penalty_pools_are_for_drama_characters(table: Table) -> None:
    await table.carol.slash(table.channel, "sheet create", name="Harry", system="coda")
    result = await table.carol.slash(table.channel, "penalty add", character="Harry", amount=1)
    assert result.ephemeral and "needs Drama in History" in result.response.content
    none = await table.bob.slash(table.channel, "penalty show")
    assert "You have no character here" in none.response.content


async def test_option_limits(table: Table) -> None:
    with pytest.raises(OptionError):
        await table.gm.slash(table.channel, "penalty add", character="William", amount=0)
    with pytest.raises(OptionError):
        await table.gm.slash(table.channel, "penalty rest", character="William", hours=-1)


async def test_the_pool_has_a_ceiling(table: Table) -> None:
    await characters(table)
    for _ in range(9):
        await table.gm.slash(table.channel, "penalty add", character="William", amount=100)
    result = await table.gm.slash(table.channel, "penalty add", character="William", amount=100)
    assert result.ephemeral and "at most 999" in result.response.content


async def test_character_autocomplete(table: Table) -> None:
    await characters(table)
    choices = await table.alice.autocomplete(table.channel, "penalty add", "character", "Wi")
    assert [c["value"] for c in choices] == ["William"]
