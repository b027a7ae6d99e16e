"""Safe in a public server (issue 12), as players would try it: names that try to ping or
restyle, hidden combatants that must not leak, floods and costly rolls."""

from __future__ import annotations

from typing import Any

from engine.dice import ScriptedDice
from tests.conftest import Table, embed_of, text_of


def _stored(table: Table, message: Any) -> Any:
    """SimCord's record of a message: its mention policy and whom it really pinged."""
    return table.env.backend.get_message(message.channel.id, message.id)


def _pinged(table: Table) -> dict[int, list[Any]]:
    """Every channel message's pings (users, roles, @everyone), by message id."""
    pings = {}
    for message in table.channel.history():
        stored = _stored(table, message)
        pinged = [*stored.ping_user_ids, *stored.ping_role_ids]
        if stored.mention_everyone:
            pinged.append("everyone")
        pings[message.id] = pinged
    return pings


async def test_hostile_names_ping_nobody_and_render_literally(table: Table) -> None:
    hostile = f"<@{table.bob.id}> @everyone **B** ||x||"
    await table.alice.slash(table.channel, "sheet create", name=hostile, system="h90")
    await table.gm.slash(table.channel, "init start", system="h90")
    table.bot.dice = ScriptedDice([7, 14])
    joined = await table.alice.slash(table.channel, "init join")
    assert not joined.ephemeral
    npc = f"<@&{table.gm_role.id}> [x](https://e.io) # `T`"
    await table.gm.slash(table.channel, "init add", name=npc, roll=1)
    turn = await table.gm.slash(table.channel, "init next")
    # The turn line pings its player, and only them; the name in it pings nobody.
    assert turn.response.content.endswith(f"'s turn — <@{table.alice.id}>.")
    assert _stored(table, turn.response.message).ping_user_ids == [table.alice.id]
    pings = _pinged(table)
    assert pings.pop(turn.response.id) == [table.alice.id]
    assert all(pinged == [] for pinged in pings.values()), pings
    # Rendered literally: every markdown and mention character is escaped.
    text = text_of(joined)
    assert f"\\<@\u200b{table.bob.id}\\>" in text
    assert "@\u200beveryone" in text
    assert "\\*\\*B\\*\\* \\|\\|x\\|\\|" in text
    tracker = embed_of(await table.gm.slash(table.channel, "init show")).description
    assert f"\\<@\u200b&{table.gm_role.id}\\> \\[x\\](https\\://e.io) \\# \\`T\\`" in tracker


async def test_a_label_and_a_penalty_reason_are_escaped(table: Table) -> None:
    table.bot.dice = ScriptedDice([4])
    result = await table.alice.slash(
        table.channel, "roll", expression="1d6", label=f"<@{table.bob.id}> ~~x~~"
    )
    assert embed_of(result).title.endswith(f"— \\<@\u200b{table.bob.id}\\> \\~\\~x\\~\\~")
    assert _stored(table, result.response.message).ping_user_ids == []


async def test_a_hidden_npc_name_clash_reveals_nothing(table: Table) -> None:
    await table.alice.slash(table.channel, "sheet create", name="Spy", system="h90")
    await table.gm.slash(table.channel, "init start", system="h90")
    hidden = await table.gm.slash(table.channel, "init add", name="Spy", roll=10, hidden=True)
    assert hidden.ephemeral
    table.bot.dice = ScriptedDice([7, 14])
    joined = await table.alice.slash(table.channel, "init join")
    assert not joined.ephemeral  # no "'Spy' is already in the encounter"
    assert "hidden" not in text_of(joined).lower()
    shown = text_of(await table.alice.slash(table.channel, "init show"))
    assert "Spy" in shown and "hidden" not in shown.lower()
    # The GM sees both: the hidden one renamed.
    gm_view = text_of(await table.gm.slash(table.channel, "init show"))
    assert "Spy (hidden)" in gm_view
    # Undo replays the same rename: the player's Spy leaves, the hidden one keeps its name.
    await table.gm.slash(table.channel, "init undo")
    assert "Spy (hidden)" not in text_of(await table.gm.slash(table.channel, "init show"))
