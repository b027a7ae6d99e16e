"""A unit of work that is exactly one statement (an INSERT or a SELECT, autocommitted), or
one row read locked and written back (:func:`locked_row`).

Most commands write one row and nothing else (a public ``/roll`` logs its entry). Through
:meth:`~bot.storage.db.Database.unit_of_work` that costs about 0.45 ms of CPU on the 2-core
machine the benchmarks run on (docs/performance.md): SQLAlchemy's async session, connection and
execution context, three greenlet switches and two trips to the driver (the statement, then
``COMMIT``), before the statement does anything. A single statement outside an explicit
transaction is a transaction of its own on both databases (SQLite and PostgreSQL commit it
when it ends, all or nothing), so :func:`insert_one` runs it that way on a connection from
the same pool: one trip to SQLite's thread, one round trip to PostgreSQL.

What stays the same as a unit of work:

- the SQL and every bound value come from SQLAlchemy's compiler and the column types' own
  bind processors for the engine's dialect (:class:`PreparedInsert`), so the row stored is the
  row the ORM would store (JSON through :mod:`bot.storage.json_codec`, timestamps as the
  ``DateTime`` columns write them);
- on SQLite the statement waits its turn in this process's writer queue and then for the
  file's lock for at most ``lock_timeout``; on PostgreSQL the connection's own lock and
  statement timeouts apply. Giving up raises :class:`~bot.errors.StorageBusy` (nothing saved);
- the interaction's write record (:func:`~bot.storage.db.tracked_writes`) counts the commit,
  or marks it *in doubt* when the outcome is unknown (the connection lost mid-statement, the
  task cancelled while the statement ran), so error messages stay true;
- the connections are the pool's, kept checked out between statements
  (:class:`~bot.storage.db.HeldConnections`, at most two idle, the pool made that much
  larger): no checkout and checkin per statement. The pool's checkout check is repeated on
  them, so connections a restarted PostgreSQL closed are replaced; a connection whose state
  is unknown after a failure is invalidated, never reused; every connection goes back to
  them (or the pool), on cancellation too, and to the pool when the database is disposed of.

:func:`locked_row` is the same for a change of one row: read it locked (``BEGIN IMMEDIATE``
on SQLite, ``SELECT … FOR UPDATE`` on PostgreSQL), compute, then write it and commit. A
unit of work around those two statements cost about 1 ms of CPU more than the statements
(the session, its connection, two execution contexts, three trips to SQLite's thread); here
it is two trips on SQLite (``BEGIN IMMEDIATE`` + ``SELECT``, then ``UPDATE`` + ``COMMIT``),
with the same locks, timeouts, write record and connection hygiene as above.

On SQLite, single statements that find the writer turn taken wait for it together and are
written in one trip and one commit (:class:`GroupCommit`, docs/decisions/transactions.md).

This face is the package's API; its modules are private, one job each:

- :mod:`bot.storage.one_statement._prepared`: statements compiled once per dialect;
- :mod:`bot.storage.one_statement._write`: one SELECT, INSERT or ``UPDATE … RETURNING``;
- :mod:`bot.storage.one_statement._group`: SQLite's group commit of those writes;
- :mod:`bot.storage.one_statement._locked`: one row read locked and written back;
- :mod:`bot.storage.one_statement._sqlite`: what runs on SQLite's thread, and what every
  path shares (a write's connection, telling a refusal from an unknown outcome).
"""

from __future__ import annotations

from bot.storage.one_statement._group import GroupCommit as GroupCommit
from bot.storage.one_statement._group import group_of as group_of
from bot.storage.one_statement._locked import LockedRow as LockedRow
from bot.storage.one_statement._locked import locked_row as locked_row
from bot.storage.one_statement._prepared import PreparedInsert as PreparedInsert
from bot.storage.one_statement._prepared import PreparedSelect as PreparedSelect
from bot.storage.one_statement._prepared import PreparedUpdate as PreparedUpdate
from bot.storage.one_statement._write import insert_one as insert_one
from bot.storage.one_statement._write import select_rows as select_rows
from bot.storage.one_statement._write import update_returning as update_returning
