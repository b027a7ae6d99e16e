"""Language choices by scope (``user``/``channel``) and Discord id: read both in one query."""

from __future__ import annotations

from sqlalchemy import and_, delete, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.storage.models import LanguageChoice
from bot.storage.models.base import utcnow
from bot.storage.repositories._atomic import upsert


async def read(session: AsyncSession, keys: list[tuple[str, int]]) -> dict[tuple[str, int], str]:
    """The chosen language of each ``(scope, target_id)`` that has one, in one query: one
    ``IN`` list per scope, so the statement's shape (and SQLAlchemy's compiled form of it)
    is the same whatever the number of keys (a hundred ``AND`` pairs took milliseconds to
    build and compile, on the event loop)."""
    if not keys:
        return {}
    by_scope: dict[str, list[int]] = {}
    for scope, target_id in keys:
        by_scope.setdefault(scope, []).append(target_id)
    query = select(LanguageChoice.scope, LanguageChoice.target_id, LanguageChoice.language).where(
        or_(
            *(
                and_(LanguageChoice.scope == scope, LanguageChoice.target_id.in_(targets))
                for scope, targets in sorted(by_scope.items())
            )
        )
    )
    return {(scope, target): language for scope, target, language in await session.execute(query)}


async def choose(
    session: AsyncSession, scope: str, target_id: int, language: str, set_by: int
) -> None:
    """Set the choice (one row per scope and id: concurrent choices, the last one wins)."""
    await upsert(
        session,
        LanguageChoice,
        ("scope", "target_id"),
        ("language", "set_by", "updated_at"),
        scope=scope,
        target_id=target_id,
        language=language,
        set_by=set_by,
        updated_at=utcnow(),
    )


async def forget(session: AsyncSession, scope: str, target_id: int) -> None:
    """Remove the choice: back to the default."""
    await session.execute(
        delete(LanguageChoice).where(
            LanguageChoice.scope == scope, LanguageChoice.target_id == target_id
        )
    )
