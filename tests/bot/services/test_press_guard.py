"""The attack exchange's PressGuard: who memory alone refuses, and when it stops trusting
its memory (no clock: its time is moved by hand)."""

from __future__ import annotations

import pytest

from bot.actor import Actor
from bot.errors import PermissionDenied
from bot.services import attack_exchange
from bot.services.attack_exchange import KnownExchange, PressGuard

KEY = ("coda", 7)
DEFENDER, GM_ROLE, STARTER = 20, 900, 30


def guard_at(now: list[float], monkeypatch: pytest.MonkeyPatch) -> PressGuard:
    monkeypatch.setattr(attack_exchange.time, "monotonic", lambda: now[0])
    guard = PressGuard(seconds=60.0)
    known = KnownExchange(
        DEFENDER, "Draco", frozenset({GM_ROLE}), frozenset({STARTER}), now[0] + guard.seconds
    )
    guard.remember(KEY, known)
    return guard


def press(user: int, *, roles: frozenset[int] = frozenset(), gm: bool = False) -> Actor:
    return Actor(user_id=user, channel_id=1, guild_id=2, gm_role=gm, role_ids=roles)


def test_only_someone_who_can_be_neither_defender_nor_gm_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    guard = guard_at([100.0], monkeypatch)
    with pytest.raises(PermissionDenied, match="answers this attack on Draco"):
        guard.refuse_early(press(99), KEY)
    # The database decides for each of these (nothing raised here).
    guard.refuse_early(press(DEFENDER), KEY)
    guard.refuse_early(press(99, gm=True), KEY)
    guard.refuse_early(press(99, roles=frozenset({GM_ROLE})), KEY)
    guard.refuse_early(press(STARTER), KEY)
    guard.refuse_early(press(99), ("coda", 8))  # an exchange it never saw


def test_past_its_time_the_memory_is_dropped_and_the_database_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    now = [100.0]
    guard = guard_at(now, monkeypatch)
    now[0] += 61.0  # a GM made meanwhile is no longer refused from old facts
    guard.refuse_early(press(99), KEY)
    assert KEY not in guard
    # And an answered exchange is forgotten at once.
    guard = guard_at(now, monkeypatch)
    guard.forget(KEY)
    guard.refuse_early(press(99), KEY)


def test_it_keeps_a_bounded_number_of_exchanges() -> None:
    guard = PressGuard(entries=2)
    for number in range(3):
        guard.remember(("coda", number), KnownExchange(None, "x", frozenset(), frozenset(), 1e18))
    assert ("coda", 0) not in guard and ("coda", 2) in guard


def test_a_gm_change_made_here_distrusts_every_memory_even_a_read_in_flight(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    now = [100.0]
    guard = guard_at(now, monkeypatch)
    # Another exchange's facts were read just before the change, and land just after it.
    in_flight = KnownExchange(None, "Ron", frozenset(), frozenset(), now[0] + 60.0)
    guard.gm_changed()  # /settings gm-role, /init start or /quidditch new committed
    guard.refuse_early(press(99), KEY)  # the database decides now
    guard.remember(("coda", 8), in_flight)
    assert KEY not in guard and ("coda", 8) not in guard
    # Facts read after the change are trusted again.
    guard.remember(KEY, KnownExchange(DEFENDER, "Draco", frozenset(), frozenset(), 1e18, 1))
    with pytest.raises(PermissionDenied):
        guard.refuse_early(press(99), KEY)


def test_a_delayers_button_is_its_players_or_the_gms(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(attack_exchange.time, "monotonic", lambda: 100.0)
    guard = PressGuard()
    covers = (("Draco", 21), ("Filch", None))
    guard.remember(
        KEY, KnownExchange(DEFENDER, "Harry", frozenset(), frozenset(), 160.0, covers=covers)
    )
    guard.refuse_early(press(21), KEY, cover="Draco")
    with pytest.raises(PermissionDenied, match="Only Draco's player \\(or the GM\\) answers"):
        guard.refuse_early(press(DEFENDER), KEY, cover="Draco")  # the target is not Draco
    with pytest.raises(PermissionDenied, match="Only the GM answers this attack on Harry"):
        guard.refuse_early(press(21), KEY, cover="Filch")  # an NPC delayer: the GM's
    guard.refuse_early(press(99, gm=True), KEY, cover="Filch")
    guard.refuse_early(press(99), KEY, cover="Goyle")  # a delayer it never saw: the database
