"""Where a database's schema stands against the migrations this version ships."""

from __future__ import annotations

from dataclasses import dataclass

from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.storage.migrate import alembic_config


@dataclass(frozen=True)
class SchemaState:
    current: frozenset[str]
    heads: frozenset[str]
    known: frozenset[str]
    #: Migrations this version ships that the database has not had.
    pending: int = 0

    @property
    def at_head(self) -> bool:
        return self.current == self.heads

    @property
    def empty(self) -> bool:
        return not self.current

    @property
    def newer(self) -> frozenset[str]:
        """Revisions in the database that this version does not know (a newer version ran)."""
        return self.current - self.known

    def describe(self) -> str:
        """One line: up to date, N migrations behind, empty, or newer than this version."""
        if self.at_head:
            return f"up to date: at the newest schema ({len(self.known)} migrations)"
        if self.empty:
            return "empty (no schema yet): run narrator migrate (narrator run also does)"
        if self.newer:
            return (
                "migrated by a newer Narrator (revisions this version does not know): "
                "upgrade Narrator"
            )
        plural = "migration" if self.pending == 1 else "migrations"
        return f"{self.pending} {plural} behind: run narrator migrate"


async def schema_state(engine: AsyncEngine) -> SchemaState:
    script = ScriptDirectory.from_config(alembic_config(""))
    async with engine.connect() as connection:
        current = await connection.run_sync(
            lambda sync: MigrationContext.configure(sync).get_current_heads()
        )
    revisions = {revision.revision: revision for revision in script.walk_revisions()}
    applied: set[str] = set()
    waiting = [name for name in current if name in revisions]
    while waiting:  # the current revisions and everything under them
        name = waiting.pop()
        if name not in applied:
            applied.add(name)
            down = revisions[name].down_revision
            waiting.extend((down,) if isinstance(down, str) else down or ())
    return SchemaState(
        current=frozenset(current),
        heads=frozenset(script.get_heads()),
        known=frozenset(revisions),
        pending=len(revisions) - len(applied),
    )
