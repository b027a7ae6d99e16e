"""``narrator console`` gives every pooled connection back before it returns.

SimCord's shutdown does not close the bot, and the one-statement layer keeps connections
checked out between statements (``Database.held``): unless the console closes the pool, they
are left to the garbage collector, which warns (SQLAlchemy's "non-checked-in connection")
in whatever test it happens to run during.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import event
from sqlalchemy.pool import Pool

from bot.console import run_console
from bot.hosting.config import Settings


@pytest.fixture
def checked_out() -> Iterator[set[int]]:
    """The connection records checked out of any pool and not yet back, while the test runs."""
    out: set[int] = set()

    def checkout(_dbapi: Any, record: Any, _proxy: Any) -> None:
        out.add(id(record))

    def checkin(_dbapi: Any, record: Any) -> None:
        out.discard(id(record))

    event.listen(Pool, "checkout", checkout)
    event.listen(Pool, "checkin", checkin)
    try:
        yield out
    finally:
        event.remove(Pool, "checkout", checkout)
        event.remove(Pool, "checkin", checkin)


async def test_the_console_returns_every_connection_when_it_ends(
    settings: Settings, checked_out: set[int]
) -> None:
    stdin = io.StringIO("/roll expression:d6\n/roll expression:2d6 label:again\n")
    stdout = io.StringIO()
    assert await run_console(settings, stdin=stdin, stdout=stdout) == 0
    assert "1d6" in stdout.getvalue()
    assert not checked_out
