"""The tracker shows each committed state, never going back (docs/decisions/many-processes.md).

A change's reply and its tracker edit are not one step: two changes committing close
together may reach the tracker in either order. The tracker must end on the newest state,
without re-reading the encounter after every change.
"""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

import pytest

from bot.actor import Actor
from bot.cogs.initiative import _tracker as tracker_module
from bot.cogs.initiative import edit_tracker
from bot.render import initiative as render
from bot.services import initiative
from bot.services.initiative import EncounterView, InitOutcome
from engine.dice import ScriptedDice
from tests.bot.cogs.initiative.test_initiative import (
    add,
    gm_next,
    ok,
    start,
    tracker,
    tracker_text,
    trio,
)
from tests.conftest import Table


def count_reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every ``initiative.latest`` call (the tracker's re-read), by channel id."""
    reads: list[int] = []
    latest = initiative.latest

    async def counted(db: Any, channel_id: int) -> EncounterView | None:
        reads.append(channel_id)
        return await latest(db, channel_id)

    monkeypatch.setattr(initiative, "latest", counted)
    return reads


async def shown_state(table: Table) -> EncounterView:
    view = await initiative.latest(table.bot.db, table.channel.id)
    assert view is not None
    return view


async def test_changes_refresh_the_tracker_without_reading_the_encounter_again(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    reads = count_reads(monkeypatch)
    await trio(table)
    await gm_next(table)
    await gm_next(table)
    assert "▶ **Bob**" in tracker_text(table) and "Round 1" in tracker_text(table)
    assert reads == []  # /init start told the cog what its tracker shows


def channel(table: Table) -> Any:
    """The channel as discord.py holds it (what the cog is given)."""
    return table.bot.get_channel(table.channel.id)


def gm(table: Table) -> Actor:
    """The GM as the services see it (whoever started the encounter is one)."""
    return Actor(table.gm.id, table.channel.id, table.guild.id, display_name="gm")


async def two_nexts_refreshed_newest_first(table: Table) -> list[EncounterView]:
    """Two nexts commit; their tracker refreshes then run newest first, as when the older
    change's reply was slower: the older view reaches the tracker last."""
    db = table.bot.db
    outcomes = await asyncio.gather(
        initiative.next_turn(db, gm(table)), initiative.next_turn(db, gm(table))
    )
    views = sorted((o.tracker for o in outcomes), key=lambda v: -v.revision)
    cog = table.bot.get_cog("InitiativeCog")
    # gather starts them in order: the first takes the channel's lock, the second waits.
    await asyncio.gather(*(cog.refresh_tracker(channel(table), table.channel.id, v) for v in views))
    return views


def trackers(channel: Any) -> list[Any]:
    """Every message of the channel that carries the tracker's Next button."""
    return [
        m
        for m in channel.history()
        if any(getattr(c, "label", None) == "Next" for row in m.components for c in row.children)
    ]


async def test_an_older_change_reaching_the_tracker_last_is_not_shown(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    await trio(table)
    reads = count_reads(monkeypatch)
    newer, older = await two_nexts_refreshed_newest_first(table)
    assert (newer.revision, older.revision) == (5, 4)
    assert (newer.state.current.name, older.state.current.name) == ("Bob", "Alice")
    assert "▶ **Bob**" in tracker_text(table)  # not Alice's turn: the older state
    assert reads == []


async def test_racing_changes_after_the_tracker_was_deleted_post_one_new_tracker(
    table: Table,
) -> None:
    """The newer change posts a new tracker; the older one must edit it, not post again."""
    await trio(table)
    await tracker(table).delete()
    await two_nexts_refreshed_newest_first(table)
    assert len(trackers(table.channel)) == 1
    assert "▶ **Bob**" in tracker_text(table)
    await gm_next(table)
    assert len(trackers(table.channel)) == 1 and "▶ **Carl**" in tracker_text(table)


async def test_a_view_older_than_the_shown_one_never_replaces_it(table: Table) -> None:
    await trio(table)
    cog = table.bot.get_cog("InitiativeCog")
    arrived: list[EncounterView] = []
    refresh = cog.refresh_tracker

    async def keep(channel: Any, channel_id: int, view: Any = None) -> None:
        arrived.append(view)
        await refresh(channel, channel_id, view)

    cog.refresh_tracker = keep
    try:
        await gm_next(table)  # Alice
        await gm_next(table)  # Bob
    finally:
        del cog.refresh_tracker
    old = arrived[0]
    assert old.state.current.name == "Alice"
    await cog.refresh_tracker(channel(table), table.channel.id, old)
    assert "▶ **Bob**" in tracker_text(table)
    # A view of another encounter proves nothing about this one: re-read, newest state.
    stranger = dataclasses.replace(old, encounter_id=old.encounter_id + 1, revision=99)
    await cog.refresh_tracker(channel(table), table.channel.id, stranger)
    assert "▶ **Bob**" in tracker_text(table)


async def test_a_forgotten_channel_re_reads_once_then_uses_the_views(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After a restart (or the channel was forgotten) nothing is known: one re-read."""
    await trio(table)
    cog = table.bot.get_cog("InitiativeCog")
    cog._shown.clear()
    reads = count_reads(monkeypatch)
    await gm_next(table)
    await gm_next(table)
    assert reads == [table.channel.id]
    assert "▶ **Bob**" in tracker_text(table)


async def test_coda_trackers_share_one_view_per_language_and_every_button_works(
    table: Table,
) -> None:
    other = table.guild.create_text_channel("other-table")
    cog = table.bot.get_cog("InitiativeCog")
    for channel in (table.channel, other):
        await ok(await table.gm.slash(channel, "init start", system="coda"))
        for name, roll in (("Goblin", 9), ("Orc", 4)):
            await ok(await table.gm.slash(channel, "init add", name=name, roll=roll))
    view = await shown_state(table)
    assert cog._buttons(view) is cog._buttons(view)
    pressed = await ok(await table.gm.click(tracker(table), label="Next"))
    assert "**Goblin**'s turn" in pressed.response.content
    walked = await ok(await table.gm.click(tracker(table), label="Walk"))
    assert "**Goblin**: Walk" in walked.response.content
    assert "1 of 2 actions left" in tracker_text(table)
    # The other channel's tracker carries the same buttons and answers for its own fight.
    (other_tracker,) = trackers(other)
    moved = await ok(await table.gm.click(other_tracker, label="Next"))
    assert "**Goblin**'s turn" in moved.response.content
    assert (await initiative.latest(table.bot.db, other.id)).state.round == 1
    undone = await ok(await table.gm.click(tracker(table), label="Undo"))
    assert "Undid" in undone.response.content


async def test_ending_shows_the_ended_tracker_and_a_new_encounter_starts_fresh(
    table: Table,
) -> None:
    await trio(table)
    await gm_next(table)
    asked = await table.gm.click(tracker(table), label="End")
    await table.gm.click(asked.response, label="End the encounter")
    ended = [m for m in table.channel.history() if m.embeds and "ended" in m.embeds[0].title]
    assert ended and not ended[-1].components
    await start(table)
    await ok(await add(table, "Zed", 3))
    assert "Zed" in tracker_text(table) and "Alice" not in tracker_text(table)


async def test_a_change_committed_before_start_stored_its_tracker_edits_that_tracker(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``/init start``'s reply is the tracker, stored after the reply: a change committed in
    between carries no tracker id, yet must edit that tracker rather than post a second."""
    committed: list[InitOutcome] = []
    set_tracker = initiative.set_tracker

    async def change_first(db: Any, channel_id: int, message_id: int) -> None:
        committed.append(await initiative.add(db, ScriptedDice([]), gm(table), name="Zed", roll=5))
        await set_tracker(db, channel_id, message_id)

    monkeypatch.setattr(initiative, "set_tracker", change_first)
    await start(table)
    (added,) = committed
    assert added.tracker.tracker_message_id is None
    cog = table.bot.get_cog("InitiativeCog")
    await cog.refresh_tracker(channel(table), table.channel.id, added.tracker)
    assert len(trackers(table.channel)) == 1 and "Zed — 5" in tracker_text(table)


async def test_the_lean_edit_sends_what_partial_message_edit_sends(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    await trio(table, system="coda")
    await gm_next(table)
    cog = table.bot.get_cog("InitiativeCog")
    view = await shown_state(table)
    embed, buttons = render.tracker_embed(view), cog._buttons(view)
    sent: list[Any] = []
    http = table.bot._connection.http
    edit_message = http.edit_message

    async def spy(channel_id: int, message_id: int, *, params: Any) -> Any:
        sent.append((channel_id, message_id, params.payload, params.multipart, params.files))
        return await edit_message(channel_id, message_id, params=params)

    monkeypatch.setattr(http, "edit_message", spy)
    message = channel(table).get_partial_message(tracker(table).id)
    await edit_tracker(message, embed=embed, view=buttons)
    await message.edit(content=None, embed=embed, view=buttons)
    lean, eager = sent
    assert lean == eager and lean[2]["components"] and "content" in lean[2]
    # The view is tracked for the message as discord.py's edit tracks it: presses answer.
    store = table.bot._connection._view_store
    assert store._synced_message_views[message.id] is buttons
    monkeypatch.undo()
    pressed = await ok(await table.gm.click(tracker(table), label="Walk"))
    assert "**Alice**: Walk" in pressed.response.content


async def test_an_edit_with_the_buttons_it_shows_already_leaves_them_out_and_keeps_them(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``stored``: the same request without ``components`` (Discord keeps a message's
    components when an edit does not name them); the buttons stay and still answer."""
    await trio(table, system="coda")
    await gm_next(table)
    cog = table.bot.get_cog("InitiativeCog")
    view = await shown_state(table)
    embed, buttons = render.tracker_embed(view), cog._buttons(view)
    sent: list[dict[str, Any]] = []
    http = table.bot._connection.http
    edit_message = http.edit_message

    async def spy(channel_id: int, message_id: int, *, params: Any) -> Any:
        sent.append(params.payload)
        return await edit_message(channel_id, message_id, params=params)

    monkeypatch.setattr(http, "edit_message", spy)
    message = channel(table).get_partial_message(tracker(table).id)
    shown = [c.label for row in tracker(table).components for c in row.children]
    await edit_tracker(message, embed=embed, view=buttons)
    await edit_tracker(message, embed=embed, view=buttons, stored=True)
    full, lean = sent
    assert "components" not in lean
    assert lean == {key: value for key, value in full.items() if key != "components"}
    assert [c.label for row in tracker(table).components for c in row.children] == shown
    monkeypatch.undo()
    pressed = await ok(await table.gm.click(tracker(table), label="Walk"))
    assert "**Alice**: Walk" in pressed.response.content


async def test_the_tracker_buttons_are_stored_once_per_message_and_keep_answering(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Edits with the buttons the message carries already leave the view store as it is (it
    holds them); other buttons (another language) are stored as ``message.edit`` would."""
    state = table.bot._connection
    stored: list[tuple[Any, int | None]] = []
    store_view = state.store_view

    def spy(view: Any, message_id: int | None = None) -> None:
        stored.append((view, message_id))
        store_view(view, message_id)

    monkeypatch.setattr(state, "store_view", spy)
    await trio(table)  # /init start posts the tracker, three adds edit it
    message_id = tracker(table).id
    english = table.bot.get_cog("InitiativeCog").buttons_for()
    assert stored[-1] == (english, message_id)
    before = len(stored)
    for _ in range(3):
        await gm_next(table)
    assert len(stored) == before  # the store holds them for this message already
    assert state._view_store._synced_message_views[message_id] is english
    pressed = await ok(await table.gm.click(tracker(table), label="Next"))
    assert "**Alice**'s turn" in pressed.response.content
    # The channel's table turns Spanish: the Spanish buttons replace the English ones.
    await table.gm.slash(table.channel, "settings language", language="es")
    await ok(await table.gm.slash(table.channel, "init next"))
    (spanish, where) = stored[-1]
    assert spanish is not english and where == message_id
    assert state._view_store._synced_message_views[message_id] is spanish
    assert next(c.label for row in tracker(table).components for c in row.children) == "Siguiente"
    pressed = await ok(await table.gm.click(tracker(table), label="Siguiente"))
    assert "**Carl**" in pressed.response.content


async def test_states_waiting_behind_a_newer_one_are_not_drawn(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Latest wins: while one edit is on its way, of the changes that queue behind it only
    the newest is drawn (two edits for three changes), and the tracker ends on it."""
    await trio(table)
    db = table.bot.db
    views = [(await initiative.next_turn(db, gm(table))).tracker for _ in range(3)]
    assert [v.revision for v in views] == [views[0].revision + i for i in range(3)]
    drawn: list[str] = []
    entered, release = asyncio.Event(), asyncio.Event()

    async def slow_first_edit(message: Any, *, embed: Any, **options: Any) -> None:
        drawn.append(str(embed.description))
        if len(drawn) == 1:
            entered.set()
            await release.wait()
        await edit_tracker(message, embed=embed, **options)

    monkeypatch.setattr(tracker_module, "edit_tracker", slow_first_edit)
    cog = table.bot.get_cog("InitiativeCog")

    def refresh(view: EncounterView) -> asyncio.Task[None]:
        return asyncio.create_task(cog.refresh_tracker(channel(table), table.channel.id, view))

    first = refresh(views[0])
    await entered.wait()  # the first edit is on its way, the channel's lock held
    queued = [refresh(views[1]), refresh(views[2])]
    for _ in range(5):
        await asyncio.sleep(0)  # both wait for the lock
    release.set()
    await asyncio.gather(first, *queued)
    assert len(drawn) == 2, drawn
    current = views[2].state.current
    assert current is not None and f"▶ **{current.name}**" in drawn[1]
    assert f"▶ **{current.name}**" in tracker_text(table)
    assert not cog._newest  # nothing is left waiting
