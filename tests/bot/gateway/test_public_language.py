"""The table's language (``bot.gateway.public_language``) costs no query on a redraw's way."""

from __future__ import annotations

from types import SimpleNamespace

from bot.gateway import public_language
from bot.services.languages import LanguageChoices
from bot.storage import Database
from bot.storage.models.languages import CHANNEL
from bot.storage.repositories import languages as repository


async def test_an_expired_channel_language_still_draws_without_a_query(db: Database) -> None:
    """Every ``/init next`` redraws the tracker in the channel's language: an entry past its
    life must answer (read again beside it), not cost that command a query of its own, as
    the interaction's own language does (measured: a third of the re-reads at 200/s)."""
    now = [0.0]
    cache = LanguageChoices(db, ttl=60, clock=lambda: now[0], gather=0)
    async with db.unit_of_work() as session:
        await repository.choose(session, CHANNEL, 20, "es", 1)
    client = SimpleNamespace(languages=cache)
    assert await public_language(client, 20, None) == "es"
    assert cache.queries == 1
    assert await public_language(client, 21, "es") == "es"  # never read: read now, unset
    assert cache.queries == 2
    now[0] = 61  # past both entries' lives
    assert await public_language(client, 20, None) == "es"
    assert cache.queries == 2
