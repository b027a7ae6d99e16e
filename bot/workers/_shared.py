"""The process's one pool: sized by the settings when the bot is built, its workers started
by the first job that needs one, ended with the bot."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from bot.workers._pool import WorkerPool, default_size

T = TypeVar("T")

_pool: WorkerPool | None = None


def configure(size: int | None) -> None:
    """Use ``size`` workers (None: :func:`default_size`); no process starts yet."""
    global _pool
    size = size or default_size()
    if _pool is None:
        _pool = WorkerPool(size)
    elif _pool.size != size:
        _pool.resize(size)


def install(pool: WorkerPool | None) -> WorkerPool | None:
    """Make ``pool`` the process's pool (tests: a pool whose jobs hang); the previous one."""
    global _pool
    previous, _pool = _pool, pool
    return previous


def shared() -> WorkerPool:
    """The process's pool (of :func:`default_size` workers unless configured)."""
    if _pool is None:
        configure(None)
    assert _pool is not None
    return _pool


async def run(
    work: Callable[..., T],
    kwargs: Mapping[str, Any],
    *,
    budget: float,
    user: int | None = None,
    channel: int | None = None,
    cache: bool = False,
    what: str = "",
) -> T:
    """:meth:`WorkerPool.run` on the process's pool."""
    return await shared().run(
        work, kwargs, budget=budget, user=user, channel=channel, cache=cache, what=what
    )


async def shutdown() -> None:
    """End the pool's workers (a later job starts new ones)."""
    if _pool is not None:
        await _pool.shutdown()
