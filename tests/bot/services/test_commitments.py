"""Commitments survive the database: on SQLite and PostgreSQL, what is revealed is what was
committed to, the record's time is the row's, and public rolls carry none."""

from __future__ import annotations

import hashlib
import json
from datetime import datetime

import pytest

from bot.actor import Actor
from bot.errors import PermissionDenied
from bot.services import commitments, rolls
from bot.storage import Database
from engine.dice import ScriptedDice

ALICE = Actor(user_id=1, channel_id=10, guild_id=100)
BOB = Actor(user_id=2, channel_id=10, guild_id=100)


async def test_a_commitment_round_trips(any_database_url: str) -> None:
    db = Database(any_database_url)
    try:
        outcome = await rolls.roll_notation(
            db, ScriptedDice([6, 1]), ALICE, expression="2d6", label="Bob's", secret=True
        )
        (seal,) = outcome.secrecy.seals
        public = await rolls.roll_notation(
            db, ScriptedDice([2]), ALICE, expression="1d6", label=None, secret=False
        )
        assert public.secrecy.seals == ()
        opened = await commitments.reveal(db, ALICE, roll_id=seal.roll_id)
        assert opened.commitment == seal.commitment
        assert hashlib.sha256(f"{opened.salt}.{opened.record}".encode()).hexdigest() == (
            seal.commitment
        )
        record = json.loads(opened.record)
        assert (record["faces"], record["outcome"], record["label"]) == ([6, 1], "7", "Bob's")
        history = await rolls.history(db, ALICE, count=5)
        row = next(entry for entry in history.entries if entry.id == seal.roll_id)
        assert datetime.fromisoformat(record["time"]) == row.created_at
        with pytest.raises(PermissionDenied):
            await commitments.reveal(db, BOB, roll_id=seal.roll_id)
    finally:
        await db.dispose()
