"""``/settings language`` (a GM, for a channel) and ``/settings my-language`` (anyone, for
themselves): stored, cached, and applied to every later interaction."""

from __future__ import annotations

import asyncio
import math
from typing import Any

import pytest

from bot.errors import UserError
from bot.services import languages
from bot.services.languages import REFRESH_BATCH, LanguageChoices
from bot.storage import Database
from bot.storage.models.languages import CHANNEL, USER
from bot.storage.repositories import languages as repository
from tests.conftest import Table, embed_of, text_of


async def test_my_language_answers_me_in_spanish_everywhere_until_default(table: Table) -> None:
    chosen = await table.alice.slash(table.channel, "settings my-language", language="es")
    assert chosen.response.ephemeral
    assert "El bot te responde ahora en Español" in text_of(chosen)
    assert embed_of(chosen).title == "Idioma"
    assert "Configuración del canal" in text_of(
        await table.alice.slash(table.channel, "settings show")
    )
    other = table.guild.create_text_channel("elsewhere")
    assert "Configuración del canal" in text_of(await table.alice.slash(other, "settings show"))
    # Nobody else is affected.
    assert "Channel settings" in text_of(await table.bob.slash(table.channel, "settings show"))

    back = await table.alice.slash(table.channel, "settings my-language", language="default")
    assert "The bot now answers you in the channel's language" in text_of(back)
    assert "Channel settings" in text_of(await table.alice.slash(table.channel, "settings show"))


async def test_my_language_beats_a_spanish_client(table: Table, as_spanish: Any) -> None:
    as_spanish(table.alice)
    assert "Configuración" in text_of(await table.alice.slash(table.channel, "settings show"))
    chosen = await table.alice.slash(table.channel, "settings my-language", language="en")
    assert "The bot now answers you in English, everywhere." in text_of(chosen)
    assert "Channel settings" in text_of(await table.alice.slash(table.channel, "settings show"))


async def test_a_gm_sets_the_channels_language_for_everyone_without_a_choice(
    table: Table,
) -> None:
    await table.alice.slash(table.channel, "settings my-language", language="en")
    set_ = await table.gm.slash(table.channel, "settings language", language="es")
    assert not set_.response.ephemeral  # the table sees it
    assert "El bot responde ahora en Español en este canal." in text_of(set_)
    assert "Configuración del canal" in text_of(
        await table.bob.slash(table.channel, "settings show")
    )
    # Alice chose English for herself: her choice comes first.
    shown = text_of(await table.alice.slash(table.channel, "settings show"))
    assert "Channel settings" in shown
    assert "This channel: Español · you: English" in shown
    # Another channel is not affected.
    other = table.guild.create_text_channel("elsewhere")
    assert "Channel settings" in text_of(await table.bob.slash(other, "settings show"))

    back = await table.gm.slash(table.channel, "settings language", language="default")
    assert "each user in their own Discord language" in text_of(back)
    assert "Channel settings" in text_of(await table.bob.slash(table.channel, "settings show"))


async def test_only_a_gm_sets_the_channels_language(table: Table, as_spanish: Any) -> None:
    refused = await table.bob.slash(table.channel, "settings language", language="es")
    assert refused.response.ephemeral
    assert "Only the channel's GM can set the channel's language" in text_of(refused)
    as_spanish(table.carol)
    refused = await table.carol.slash(table.channel, "settings language", language="en")
    assert "Solo el DJ del canal puede fijar el idioma del canal" in text_of(refused)
    # Nothing changed.
    assert "Channel settings" in text_of(await table.bob.slash(table.channel, "settings show"))


async def test_the_choices_offered_are_every_catalog_language(table: Table) -> None:
    command = next(c for c in table.bot.tree.get_commands() if c.name == "settings")
    for name in ("language", "my-language"):
        option = command.get_command(name).parameters[0]  # type: ignore[union-attr]
        values = [choice.value for choice in option.choices]
        assert values == ["en", "es", "default"]
        assert [choice.name for choice in option.choices][:2] == ["English (en)", "Español (es)"]


@pytest.mark.parametrize("language", ["xx", "ES", "es-ES", "", "en\x00", "'; DROP TABLE x; --"])
async def test_the_service_refuses_unknown_languages(db: Database, language: str) -> None:
    with pytest.raises(UserError, match="Unknown language"):
        await languages.set_user_language(db, LanguageChoices(db), 1, language)


# --- storage and cache -------------------------------------------------------------------


async def test_one_query_reads_both_choices_and_hits_are_free(any_db: Database) -> None:
    cache = LanguageChoices(any_db)
    await languages.set_user_language(any_db, cache, 10, "es")
    async with any_db.unit_of_work() as session:
        await repository.choose(session, CHANNEL, 20, "en", 99)
    assert await cache.choices(20, 10) == ("en", "es")
    assert cache.queries == 1
    assert await cache.choices(20, 10) == ("en", "es")
    assert cache.cached(20, 10) == ("en", "es")
    assert cache.queries == 1
    assert await cache.choices(21, 11) == (None, None)  # "not chosen" is cached too
    assert await cache.choices(21, 11) == (None, None)
    assert cache.queries == 2


async def test_a_change_here_is_seen_at_once_and_elsewhere_within_the_ttl(
    any_db: Database,
) -> None:
    now = [0.0]
    here = LanguageChoices(any_db, ttl=60, clock=lambda: now[0])
    other_process = LanguageChoices(any_db, ttl=60, clock=lambda: now[0])
    assert await here.choices(None, 5) == (None, None)
    assert await other_process.choices(None, 5) == (None, None)
    await languages.set_user_language(any_db, here, 5, "es")
    assert await here.choices(None, 5) == (None, "es")  # forgotten and read again
    assert await other_process.choices(None, 5) == (None, None)  # stale, documented
    now[0] = 61
    assert await other_process.choices(None, 5) == (None, "es")


async def _refreshed(cache: LanguageChoices) -> None:
    """Wait for the background re-read that :meth:`LanguageChoices.cached` started."""
    for _ in range(100):
        await asyncio.sleep(0)
        refreshing = cache._refreshing
        if refreshing is not None:
            await refreshing
            return


async def test_an_expired_choice_still_answers_and_is_read_again_beside_it(
    any_db: Database,
) -> None:
    now = [0.0]
    cache = LanguageChoices(any_db, ttl=60, clock=lambda: now[0], gather=0)
    assert await cache.choices(20, 5) == (None, None)
    async with any_db.unit_of_work() as session:  # another process's change
        await repository.choose(session, USER, 5, "es", 99)
    assert cache.cached(20, 5) == (None, None)
    queries = cache.queries
    now[0] = 61  # past every entry's life
    assert cache.cached(20, 5) == (None, None)  # the interaction is not held up
    await _refreshed(cache)
    assert cache.queries == queries + 1  # both keys in one query
    assert cache.cached(20, 5) == (None, "es")
    assert cache.queries == queries + 1


async def _all_expired(db: Database, users: int, gather: float) -> tuple[LanguageChoices, int]:
    """A cache that read ``users`` users' choices, now past their lives; its queries so far."""
    now = [0.0]
    cache = LanguageChoices(db, ttl=60, clock=lambda: now[0], gather=gather)
    for user in range(users):
        await cache.choices(None, user)
    now[0] = 61
    return cache, cache.queries


async def test_expired_choices_are_read_again_in_batches(db: Database) -> None:
    cache, queries = await _all_expired(db, 250, gather=0)
    for user in range(250):
        assert cache.cached(None, user) == (None, None)
    await _refreshed(cache)
    assert cache.queries == queries + math.ceil(250 / REFRESH_BATCH)
    assert all(cache._cache[(USER, user)][0] > 61 for user in range(250))


async def test_choices_expiring_one_by_one_wait_to_be_read_together(db: Database) -> None:
    """Their lives are spread apart, so entries are found expired a few at a time: each must
    not cost a query of its own (440 queries in 1,000 commands, measured), but wait for the
    gathering, and all be read in one query then."""
    cache, queries = await _all_expired(db, 40, gather=3600)
    for user in range(40):  # one interaction at a time, the loop running between them
        assert cache.cached(None, user) == (None, None)
        await asyncio.sleep(0)
    assert cache.queries == queries  # gathering: nothing read one by one
    refreshing = cache._refreshing
    assert refreshing is not None
    refreshing.cancel()  # the gathering ends now rather than in an hour
    cache.gather = 0
    await cache._refresh()
    assert cache.queries == queries + 1
    assert all(cache._cache[(USER, user)][0] > 61 for user in range(40))


async def test_a_choice_changed_here_during_a_re_read_is_not_overwritten(db: Database) -> None:
    now = [0.0]
    cache = LanguageChoices(db, ttl=60, clock=lambda: now[0], gather=0)
    assert await cache.choices(None, 5) == (None, None)
    now[0] = 61
    assert cache.cached(None, 5) == (None, None)  # the re-read starts (not yet run)
    await languages.set_user_language(db, cache, 5, "es")  # forgets the entry
    await _refreshed(cache)
    assert cache.cached(None, 5) is None  # nothing stale put back: read when needed
    assert await cache.choices(None, 5) == (None, "es")


async def test_entries_cached_together_do_not_all_expire_together(db: Database) -> None:
    cache = LanguageChoices(db, ttl=60, clock=lambda: 0.0)
    for user in range(200):
        await cache.choices(None, user)
    lives = [cache._cache[(USER, user)][0] for user in range(200)]
    assert all(45 <= life <= 60 for life in lives)
    assert max(lives) - min(lives) > 5  # spread over the last quarter of the ttl


async def test_the_cache_is_bounded(db: Database) -> None:
    cache = LanguageChoices(db, size=3)
    for user in range(10):
        await cache.choices(None, user)
    assert len(cache._cache) == 3


async def test_concurrent_choices_leave_one_row_the_last_wins(any_db: Database) -> None:
    cache = LanguageChoices(any_db)
    await asyncio.gather(
        *(languages.set_user_language(any_db, cache, 7, language) for language in ["es", "en"] * 5)
    )
    async with any_db.unit_of_work(read_only=True) as session:
        stored = await repository.read(session, [(USER, 7)])
    assert stored[(USER, 7)] in {"es", "en"}
    await languages.set_user_language(any_db, cache, 7, "default")
    async with any_db.unit_of_work(read_only=True) as session:
        assert await repository.read(session, [(USER, 7)]) == {}


async def test_the_scope_is_checked_by_the_database(any_db: Database) -> None:
    from sqlalchemy.exc import IntegrityError

    with pytest.raises(IntegrityError):
        async with any_db.unit_of_work() as session:
            await repository.choose(session, "guild", 1, "es", 1)
