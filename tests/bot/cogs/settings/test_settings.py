"""``/settings``: everyone reads, only GMs change, every value validated."""

from __future__ import annotations

import discord
import pytest
from simcord.backend.errors import OptionError

from bot.services.channel_settings import RULE_VALUES
from tests.conftest import Table, embed_of, text_of


async def test_show_lists_every_setting_with_defaults(table: Table) -> None:
    result = await table.alice.slash(table.channel, "settings show")
    assert result.ephemeral
    text = text_of(result)
    for expected in (
        "Default system",
        "not set",
        "`gm`",
        "coda.ones",
        "**off**",
        "drama.criticals",
    ):
        assert expected in text


async def test_gm_sets_system_rule_secret_mode_and_gm_channel(table: Table) -> None:
    secret_channel = table.guild.create_text_channel("gm-only")
    await table.gm.slash(table.channel, "settings system", name="coda")
    await table.gm.slash(table.channel, "settings rule", name="coda.ones", value="fumble")
    await table.gm.slash(table.channel, "settings secret", mode="open")
    changed = await table.gm.slash(table.channel, "settings gm-channel", channel=secret_channel)
    assert "secret rolls go to #gm-only" in embed_of(changed).title
    text = text_of(await table.alice.slash(table.channel, "settings show"))
    assert "CODA (Harry Potter RPG)" in text
    assert "`coda.ones` = **fumble**" in text
    assert "`open`" in text
    assert f"<#{secret_channel.id}>" in text
    # Settings are per channel.
    other = table.guild.create_text_channel("other")
    assert "**fumble**" not in text_of(await table.alice.slash(other, "settings show"))


async def test_secret_rolls_go_to_the_gm_channel_when_set(table: Table) -> None:
    secret_channel = table.guild.create_text_channel("gm-only")
    await table.gm.slash(table.channel, "settings gm-channel", channel=secret_channel)
    await table.alice.slash(table.channel, "roll", expression="1d20", secret=True)
    assert "Secret roll by" in secret_channel.last_message.content
    assert table.gm.user.dm_channel.last_message is None


@pytest.mark.parametrize(
    ("command", "options"),
    [
        ("settings system", {"name": "rps"}),
        ("settings rule", {"name": "drama.criticals", "value": "on"}),
        ("settings secret", {"mode": "off"}),
        ("settings gm-channel", {}),
    ],
)
async def test_players_cannot_change_settings(table: Table, command: str, options: dict) -> None:
    result = await table.alice.slash(table.channel, command, **options)
    assert result.ephemeral
    assert "Only the channel's GM can" in result.response.content
    assert "**off**" in text_of(await table.alice.slash(table.channel, "settings show"))


async def test_manage_channels_makes_a_gm(table: Table) -> None:
    moderators = table.guild.create_role(
        "Mods", permissions=discord.Permissions(manage_channels=True)
    )
    mod = table.guild.add_member(table.env.create_user("mod"), roles=[moderators])
    result = await mod.slash(table.channel, "settings system", name="drama")
    assert not result.ephemeral


async def test_rule_values_are_checked_and_offered(table: Table) -> None:
    result = await table.gm.slash(
        table.channel, "settings rule", name="coda.ones", value="sometimes"
    )
    assert result.ephemeral and "`coda.ones` takes one of: off, fumble" in result.response.content
    choices = await table.gm.autocomplete(
        table.channel, "settings rule", "value", "fa", name="coda.ones"
    )
    assert [c["value"] for c in choices] == ["failure", "complete-failure"]


async def test_a_rule_value_has_a_length_limit_discord_enforces(table: Table) -> None:
    longest = max((v for vs in RULE_VALUES.values() for v in vs), key=len)
    with pytest.raises(OptionError):
        await table.gm.slash(table.channel, "settings rule", name="coda.ones", value="x" * 33)
    result = await table.gm.slash(table.channel, "settings rule", name="coda.ones", value=longest)
    assert not result.ephemeral


async def test_unknown_choices_are_refused_by_discord(table: Table) -> None:
    with pytest.raises(OptionError):
        await table.gm.slash(table.channel, "settings system", name="d&d")
