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
        if self.at_head:
            return f"at the newest schema ({', '.join(sorted(self.heads))})"
        if self.empty:
            return "empty (no schema yet): run narrator migrate (narrator run also does)"
        if self.newer:
            return (
                f"at {', '.join(sorted(self.newer))}, which this version does not know: "
                "a newer Narrator migrated it; upgrade Narrator"
            )
        return (
            f"behind ({', '.join(sorted(self.current))}; newest "
            f"{', '.join(sorted(self.heads))}): run narrator migrate"
        )


async def schema_state(engine: AsyncEngine) -> SchemaState:
    script = ScriptDirectory.from_config(alembic_config(""))
    async with engine.connect() as connection:
        current = await connection.run_sync(
            lambda sync: MigrationContext.configure(sync).get_current_heads()
        )
    return SchemaState(
        current=frozenset(current),
        heads=frozenset(script.get_heads()),
        known=frozenset(revision.revision for revision in script.walk_revisions()),
    )
