"""The numbers behind ``/odds``'s tables, one call per table.

Each function gathers what one table shows from the systems' exact chances, so the bot can
hand a whole table to a worker process as one job (``bot/services/offload.py``). They live
in the engine because a worker imports the module of the job it runs: the engine imports
in milliseconds, the bot's services (SQLAlchemy, Babel) in seconds.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.systems import drama, infinity
from engine.systems import hogwarts1990 as h90


def h90_variants(
    *, bonus: int, difficulty: int, variants: Sequence[tuple[bool, bool]]
) -> tuple[h90.Odds, ...]:
    """Hogwarts 1990 odds for each ``(stress, advantage)`` variant, in order."""
    return tuple(
        h90.odds(bonus=bonus, difficulty=difficulty, stress=stress, advantage=advantage)
        for stress, advantage in variants
    )


def ftf_grid(
    *, a_attribute: int, a_mods: int, a_burst: int, b_attribute: int, b_mods: int, b_burst: int
) -> tuple[tuple[int, int, infinity.FaceToFaceOdds], ...]:
    """Infinity face to face odds for every Burst combination 1..a_burst × 1..b_burst."""
    return tuple(
        (
            i,
            j,
            infinity.ftf_odds(
                a_attribute=a_attribute,
                a_mods=a_mods,
                a_burst=i,
                b_attribute=b_attribute,
                b_mods=b_mods,
                b_burst=j,
            ),
        )
        for i in range(1, a_burst + 1)
        for j in range(1, b_burst + 1)
    )


def drama_nets(
    *, base: int, resistance: int, drama_dice: int
) -> tuple[tuple[dict[int, float], ...], tuple[dict[drama.Outcome, float], ...]]:
    """A Drama test's net distribution and outcome chances, criticals off then on."""
    pools = {"base": base, "resistance": resistance, "drama": drama_dice}
    return (
        tuple(drama.net_distribution(**pools, criticals=c) for c in (False, True)),
        tuple(drama.outcome_chances(**pools, criticals=c) for c in (False, True)),
    )
