"""RPS resisted actions: every party's check, roll-offs among those tied for highest, and
the exact chance of each party winning; with the clearing of every RPS cache.

It exists to keep contests between parties apart from a single check
(:mod:`engine.systems.rps._checks`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from engine.dice import Dice
from engine.errors import N_
from engine.systems.rps._checks import (
    DIE_SIDES,
    MAX_BASE,
    MAX_NAME_LENGTH,
    MAX_PARTIES,
    MAX_ROUNDS,
    MIN_BASE,
    CheckResult,
    RpsError,
    check,
    checked_int,
    evaluate,
    success_count,
)


def clear_caches() -> None:
    """Forget the cached counts (for benchmarks that time the counting)."""
    for cached in (success_count, success_levels, _top_sets, _resisted_wins):
        cached.cache_clear()


# --- Resisted actions -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PartyCheck:
    """One party's check in one round of a resisted action."""

    name: str
    check: CheckResult


@dataclass(frozen=True, slots=True)
class ResistedResult:
    """A resisted action: every round rolled, the winner and the winner's new SL.

    ``winner`` is None when the parties still tied for highest after :data:`MAX_ROUNDS`;
    ``tied`` then names them. The new SL is the highest minus the second highest of the
    deciding round (a roll-off round counts only the parties who rolled in it).
    """

    parties: tuple[tuple[str, int], ...]
    rounds: tuple[tuple[PartyCheck, ...], ...]
    winner: str | None
    success_level: int | None
    tied: tuple[str, ...]

    @property
    def roll_offs(self) -> int:
        return len(self.rounds) - 1


def _parties(parties: Iterable[tuple[str, int]]) -> tuple[tuple[str, int], ...]:
    checked: list[tuple[str, int]] = []
    seen: set[str] = set()
    for name, base in parties:
        name = str(name).strip()
        if not name:
            raise RpsError(N_("Every party in a resisted action needs a name."))
        if len(name) > MAX_NAME_LENGTH:
            raise RpsError(N_("Party names are at most {high} characters."), high=MAX_NAME_LENGTH)
        if name.casefold() in seen:
            raise RpsError(N_("{name} is named twice; each party rolls once per round."), name=name)
        seen.add(name.casefold())
        checked.append((name, checked_int(base, f"{name}'s Base", MIN_BASE, MAX_BASE)))
    if not 2 <= len(checked) <= MAX_PARTIES:
        raise RpsError(
            N_("A resisted action needs 2 to {high} parties, not {count}."),
            high=MAX_PARTIES,
            count=len(checked),
        )
    return tuple(checked)


def check_parties(parties: Sequence[tuple[str, int]]) -> tuple[tuple[str, int], ...]:
    """The parties of a resisted action, checked as :func:`resisted` checks them (count,
    names, Bases), without a die: a roll waiting for some parties is refused up front."""
    return _parties(parties)


def resisted(dice: Dice, *, parties: Sequence[tuple[str, int]]) -> ResistedResult:
    """Every party checks in the order given; ties for highest roll off among themselves."""
    checked = _parties(parties)
    bases = dict(checked)
    rolling = [name for name, _ in checked]
    rounds: list[tuple[PartyCheck, ...]] = []
    while True:
        this_round = tuple(PartyCheck(name, check(dice, base=bases[name])) for name in rolling)
        rounds.append(this_round)
        levels = sorted((p.check.success_level for p in this_round), reverse=True)
        top = [p.name for p in this_round if p.check.success_level == levels[0]]
        if len(top) == 1:
            return ResistedResult(
                parties=checked,
                rounds=tuple(rounds),
                winner=top[0],
                success_level=levels[0] - levels[1],
                tied=(),
            )
        if len(rounds) >= MAX_ROUNDS:
            return ResistedResult(
                parties=checked,
                rounds=tuple(rounds),
                winner=None,
                success_level=None,
                tied=tuple(top),
            )
        rolling = top


# Exact resisted chances enumerate every set of parties that can tie for highest, which
# doubles with each party; beyond this many parties no chance is offered.
MAX_CHANCE_PARTIES = 5


@lru_cache(maxsize=512)
def success_levels(base: int) -> tuple[tuple[int, float], ...]:
    """P(SL = s) for every s one check at this Base can give (doubles included)."""
    counts: dict[int, int] = {}
    for first in range(1, DIE_SIDES + 1):
        for second in range(1, DIE_SIDES + 1):
            level = evaluate(base, first, second).success_level
            counts[level] = counts.get(level, 0) + 1
    return tuple((level, n / DIE_SIDES**2) for level, n in sorted(counts.items()))


@dataclass(frozen=True, slots=True)
class ResistedChances:
    """Each party's exact chance to win (roll-offs included), and of a tie after 20 rounds."""

    wins: dict[str, float]
    tie: float


def resisted_chances(*, parties: Sequence[tuple[str, int]]) -> ResistedChances | None:
    """Exact chances of a resisted action, or None above :data:`MAX_CHANCE_PARTIES` parties."""
    checked = _parties(parties)
    if len(checked) > MAX_CHANCE_PARTIES:
        return None
    bases = tuple(base for _, base in checked)
    *wins, tie = _resisted_wins(bases, tuple(range(len(bases))), MAX_ROUNDS)
    return ResistedChances(wins={name: wins[i] for i, (name, _) in enumerate(checked)}, tie=tie)


@lru_cache(maxsize=4096)
def _top_sets(
    bases: tuple[int, ...], rolling: tuple[int, ...]
) -> tuple[tuple[tuple[int, ...], float], ...]:
    """P(exactly these parties share the highest SL) in one round of ``rolling``."""
    dists = {i: dict(success_levels(bases[i])) for i in rolling}
    levels = sorted({level for i in rolling for level in dists[i]})
    below = {i: 0.0 for i in rolling}  # P(SL_i < level), growing as levels rise
    result: dict[tuple[int, ...], float] = {}
    for level in levels:
        for size in range(1, len(rolling) + 1):
            for top in combinations(rolling, size):
                p = 1.0
                for i in rolling:
                    p *= dists[i].get(level, 0.0) if i in top else below[i]
                if p:
                    result[top] = result.get(top, 0.0) + p
        for i in rolling:
            below[i] += dists[i].get(level, 0.0)
    return tuple(result.items())


@lru_cache(maxsize=4096)
def _resisted_wins(
    bases: tuple[int, ...], rolling: tuple[int, ...], rounds: int
) -> tuple[float, ...]:
    """P(party i wins) when ``rolling`` roll with ``rounds`` rounds left (indexes into bases),
    and last P(still tied when the rounds run out)."""
    wins = [0.0] * (len(bases) + 1)
    for top, p in _top_sets(bases, rolling):
        if len(top) == 1:
            wins[top[0]] += p
        elif rounds > 1:
            for i, w in enumerate(_resisted_wins(bases, top, rounds - 1)):
                wins[i] += p * w
        else:
            wins[-1] += p
    return tuple(wins)
