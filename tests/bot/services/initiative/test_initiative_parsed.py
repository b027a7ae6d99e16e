"""A change reuses the state this process committed last only while the row still holds it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bot.actor import Actor
from bot.errors import UserError
from bot.services import initiative
from bot.storage import Database
from bot.storage.db import track_writes
from bot.storage.repositories import initiative as encounters
from engine import initiative as ini
from engine.dice import ScriptedDice
from engine.initiative import machine
from tests.conftest import sqlite_url

CHANNEL = 556
GM = Actor(user_id=1, channel_id=CHANNEL, guild_id=9, display_name="gm", gm_role=True)


async def _three(db: Database) -> None:
    await initiative.start(db, GM)
    for name, total in (("Alice", 18), ("Bob", 12), ("Carl", 7)):
        await initiative.add(db, ScriptedDice([]), GM, name=name, roll=total)


async def _stored(db: Database) -> dict:
    async with db.unit_of_work(read_only=True) as session:
        row = await encounters.active(session, CHANNEL)
        assert row is not None
        return row.state


async def test_a_state_written_by_another_path_is_read_from_the_row(any_db: Database) -> None:
    await _three(any_db)
    await initiative.next_turn(any_db, GM)  # Alice; this process remembers that state
    # Another writer (another process, or a feature that writes the ORM row) removes Bob.
    async with any_db.unit_of_work() as session:
        row = await encounters.active(session, CHANNEL, for_update=True)
        assert row is not None
        encounters.store(row, ini.to_dict(ini.apply(ini.from_dict(row.state), ini.Remove("Bob"))))
    outcome = await initiative.next_turn(any_db, GM)
    assert outcome.view.state.current.name == "Carl"  # not Bob: the row was read again
    assert [e.kind for e in ini.from_dict(await _stored(any_db)).log][-2:] == ["remove", "next"]


async def test_the_history_written_on_is_the_one_a_full_write_stores(any_db: Database) -> None:
    await _three(any_db)
    for _ in range(7):
        outcome = await initiative.next_turn(any_db, GM)
    stored = await _stored(any_db)
    state = ini.from_dict(stored)
    assert stored == ini.to_dict(state)
    assert state == outcome.view.state
    assert [e.kind for e in state.log].count("next") == 7
    undone = await initiative.undo(any_db, GM)
    assert (undone.view.state.round, undone.view.state.current.name) == (2, "Carl")


async def test_a_full_history_folds_into_its_base_as_a_full_write_does(
    any_db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(machine, "MAX_HISTORY", 5)
    await _three(any_db)  # 3 additions in the history
    for count in range(1, 9):
        outcome = await initiative.next_turn(any_db, GM)
        stored = await _stored(any_db)
        state = ini.from_dict(stored)
        assert stored == ini.to_dict(state) and state == outcome.view.state
        assert len(state.log) == min(3 + count, 5)
    assert state.base is not None and state.base.round == 1  # 3 additions and 3 turns folded
    for _ in range(5):
        await initiative.undo(any_db, GM)
    with pytest.raises(ini.NothingToUndo):
        await initiative.undo(any_db, GM)


# A GM's change is applied to the remembered state and written only if the row is still at
# its revision (one compare-and-set); otherwise the row is read locked and the change redone.


async def test_a_refusal_is_never_told_from_a_remembered_state(any_db: Database) -> None:
    await _three(any_db)
    await initiative.next_turn(any_db, GM)  # remembered: Alice, Bob, Carl
    await initiative.add(any_db, ScriptedDice([]), GM, name="Dora", roll=15)  # not remembered
    writes = track_writes()
    removed = await initiative.remove(any_db, GM, name="Dora")
    assert removed.subject == "Dora"
    assert "Dora" not in [c.name for c in removed.view.state.combatants]
    assert (writes.committed, writes.in_doubt) == (1, False)
    state = ini.from_dict(await _stored(any_db))
    assert [e.kind for e in state.log][-2:] == ["add", "remove"]


async def test_a_change_reports_the_row_as_it_is_now(any_db: Database) -> None:
    await _three(any_db)
    await initiative.next_turn(any_db, GM)
    await initiative.set_tracker(any_db, CHANNEL, 4242)  # a column, the state unchanged
    outcome = await initiative.next_turn(any_db, GM)
    assert outcome.view.tracker_message_id == 4242
    assert outcome.view.revision == (await initiative.show(any_db, GM)).revision


async def test_an_ended_encounter_is_not_changed_from_memory(any_db: Database) -> None:
    await _three(any_db)
    await initiative.next_turn(any_db, GM)
    await initiative.end(any_db, GM)
    with pytest.raises(UserError, match="No encounter is running"):
        await initiative.next_turn(any_db, GM)
    async with any_db.unit_of_work(read_only=True) as session:
        assert await encounters.active(session, CHANNEL) is None


async def test_the_same_revision_of_another_encounter_is_not_overwritten(
    db: Database, tmp_path: Path, migrated_template: Path
) -> None:
    """A restored database, or an id SQLite reused, can hold another state under the same
    encounter id, channel and revision: the write checks the time of the one remembered."""
    shutil.copy(migrated_template, tmp_path / "other.db")
    other = Database(sqlite_url(tmp_path / "other.db"))
    try:
        await _three(db)
        await initiative.start(other, GM)
        for name, total in (("Xena", 18), ("Yuri", 12), ("Zed", 7)):
            await initiative.add(other, ScriptedDice([]), GM, name=name, roll=total)
        await initiative.next_turn(db, GM)
        await initiative.next_turn(other, GM)  # remembered last: same id, channel, revision
        outcome = await initiative.next_turn(db, GM)
        assert outcome.view.state.current.name == "Bob"
        assert [c.name for c in ini.from_dict(await _stored(db)).order] == ["Alice", "Bob", "Carl"]
    finally:
        await other.dispose()
