"""``/odds``: the exact distribution of a roll before it is made, per system.

Every number comes from the engine's exact chance functions (``degree_chances``,
``hogwarts1990.odds``, ``ftf_odds``, ``success_levels``, ``net_distribution``,
``outcome_chances``); nothing here knows a rule, so a rule fixed in the engine shows here
unchanged. The only arithmetic is splitting nested chances into disjoint bars (a Hogwarts
1990 success that is not exceptional = success − exceptional). The engine's functions are
cached; past a cost estimate (big Drama pools, many Infinity Burst combinations, the four
Hogwarts 1990 variants) they run in a worker process under a budget (:func:`offload.table`):
each table's numbers come from one call of :mod:`engine.odds_tables`, and the words are put
on them here, in the player's language.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.actor import Actor
from bot.i18n import N_, _
from bot.services import channel_settings, offload
from bot.storage import Database
from bot.text import signed
from engine import odds_tables
from engine.systems import coda, drama, rps

#: Infinity: Burst combinations drawn are 1..a × 1..b, each side at most this.
MAX_FTF_BURST = 5
#: Drama: nets whose chance is below this (with and without criticals) are left off the bars.
DRAMA_SHOWN = 0.001
#: Infinity: up to this many Burst combinations are drawn inline (each costs up to ~1 ms).
INLINE_FTF_COMBINATIONS = 4


@dataclass(frozen=True, slots=True)
class Series:
    name: str
    values: tuple[float, ...]  # one chance per category


@dataclass(frozen=True, slots=True)
class Note:
    """A number beside the bars: a chance, or an average (``chance=False``)."""

    label: str
    value: float
    chance: bool = True


@dataclass(frozen=True, slots=True)
class OddsTable:
    """A distribution as bars: categories along, one series per variant (or stacked parts)."""

    system: str
    title: str
    categories: tuple[str, ...]
    series: tuple[Series, ...]
    stacked: bool = False
    notes: tuple[Note, ...] = ()
    # Categories of chance 0 are there to space the bars on a numeric scale (RPS levels):
    # the text leaves them out.
    gaps: bool = False


async def coda_odds(
    db: Database, actor: Actor, *, modifier: int, tn: int, penalty: int = 0
) -> OddsTable:
    """P(each degree) of a CODA test, with the channel's ``coda.ones`` rule."""
    async with db.unit_of_work(read_only=True) as session:
        ones = (await channel_settings.read(session, actor.channel_id)).rule("coda.ones")
    # Microseconds: a 2d6 table.
    chances = coda.degree_chances(modifier=modifier, tn=tn, penalty=penalty, ones=ones)
    success = coda.chance(modifier=modifier, tn=tn, penalty=penalty, ones=ones)
    penalty_text = f" − {penalty}" if penalty else ""
    return OddsTable(
        system="coda",
        title=_(
            "CODA 2d6 {modifier}{penalty} vs TN {tn}",
            modifier=signed(modifier),
            penalty=penalty_text,
            tn=tn,
        ),
        categories=tuple(_(degree.label) for degree in chances),
        series=(Series(_("chance"), tuple(chances.values())),),
        notes=(Note(_("success (≥ TN; ones rule {ones})", ones=ones), success),),
    )


#: Drama's outcomes as the notes name them.
DRAMA_OUTCOMES = {"success": N_("success"), "yes-but": N_("yes-but"), "failure": N_("failure")}

#: Hogwarts 1990 variants: (name, stress, advantage).
H90_VARIANTS = (
    (N_("plain"), False, False),
    (N_("stress"), True, False),
    (N_("advantage"), False, True),
    (N_("stress + advantage"), True, True),
)
H90_PARTS = (N_("critical failure"), N_("failure"), N_("success"), N_("exceptional"))


async def h90_odds(actor: Actor, *, bonus: int, difficulty: int) -> OddsTable:
    """Critical failure / failure / success / exceptional, plain and with stress, advantage."""
    # Four variants: up to ~7 ms the first time (cached after), so a worker's.
    variants = await offload.table(
        odds_tables.h90_variants,
        actor=actor,
        heavy=True,
        bonus=bonus,
        difficulty=difficulty,
        variants=tuple((stress, advantage) for _name, stress, advantage in H90_VARIANTS),
    )
    series = tuple(
        Series(
            _(name),
            (
                odds.critical_failure,
                odds.failure - odds.critical_failure,
                odds.success - odds.exceptional,
                odds.exceptional,
            ),
        )
        for (name, _s, _a), odds in zip(H90_VARIANTS, variants, strict=True)
    )
    return OddsTable(
        system="h90",
        title=_(
            "Hogwarts 1990 d20 {bonus} vs difficulty {difficulty}",
            bonus=signed(bonus),
            difficulty=difficulty,
        ),
        categories=tuple(_(part) for part in H90_PARTS),
        series=series,
        notes=tuple(
            Note(_("{variant}: success", variant=s.name), s.values[2] + s.values[3]) for s in series
        ),
    )


async def infinity_odds(
    actor: Actor,
    *,
    a_attribute: int,
    a_mods: int = 0,
    a_burst: int = 1,
    b_attribute: int,
    b_mods: int = 0,
    b_burst: int = 1,
) -> OddsTable:
    """A face to face per Burst combination (1..a_burst × 1..b_burst): who wins, and the
    hits each side lands on average."""
    a_burst, b_burst = min(a_burst, MAX_FTF_BURST), min(b_burst, MAX_FTF_BURST)
    grid = await offload.table(
        odds_tables.ftf_grid,
        actor=actor,
        heavy=a_burst * b_burst > INLINE_FTF_COMBINATIONS,
        a_attribute=a_attribute,
        a_mods=a_mods,
        a_burst=a_burst,
        b_attribute=b_attribute,
        b_mods=b_mods,
        b_burst=b_burst,
    )
    rows = [(f"B{i} v B{j}", odds) for i, j, odds in grid]
    return OddsTable(
        system="infinity",
        title=_(
            "Infinity face to face: A {a_attribute} ({a_mods}) v B {b_attribute} ({b_mods})",
            a_attribute=a_attribute,
            a_mods=signed(a_mods),
            b_attribute=b_attribute,
            b_mods=signed(b_mods),
        ),
        categories=tuple(name for name, _odds in rows),
        series=(
            Series(_("A wins"), tuple(odds.a_wins for _name, odds in rows)),
            Series(_("B wins"), tuple(odds.b_wins for _name, odds in rows)),
            Series(_("neither"), tuple(odds.neither for _name, odds in rows)),
        ),
        stacked=True,
        notes=tuple(
            note
            for name, odds in rows
            for note in (
                Note(
                    _("{combination}: A's expected hits", combination=name),
                    odds.a_expected_hits,
                    chance=False,
                ),
                Note(
                    _("{combination}: B's expected hits", combination=name),
                    odds.b_expected_hits,
                    chance=False,
                ),
            )
        ),
    )


async def rps_odds(*, base: int) -> OddsTable:
    """P(SL = s) of one RPS check at this Base, every level from the lowest to the highest
    (a level no roll gives has chance 0: the bars keep their distance, SL 9 to SL 15)."""
    # At most ~2 ms the first time (Base 200), then cached: inline.
    chances = dict(rps.success_levels(base))
    success = rps.chance(base=base)
    levels = range(min(chances), max(chances) + 1)
    return OddsTable(
        system="rps",
        title=_("RPS check at Base {base}", base=base),
        categories=tuple(_("SL {level}", level=level) for level in levels),
        series=(Series(_("chance"), tuple(chances.get(level, 0.0) for level in levels)),),
        gaps=True,
        notes=(Note(_("success (SL ≥ 1)"), success),),
    )


async def drama_odds(
    actor: Actor, *, base: int, resistance: int = 0, drama_dice: int = 0
) -> OddsTable:
    """P(net = n) with and without the criticals rule, and each outcome's chance."""
    (plain, critical), chances = await offload.table(
        odds_tables.drama_nets,
        actor=actor,
        heavy=offload.drama_heavy(drama.Pools(base, resistance, drama_dice)),
        base=base,
        resistance=resistance,
        drama_dice=drama_dice,
    )
    shown = [
        n
        for n in sorted({*plain, *critical})
        if max(plain.get(n, 0), critical.get(n, 0)) >= DRAMA_SHOWN
    ]
    nets = range(shown[0], shown[-1] + 1) if shown else range(0)
    return OddsTable(
        system="drama",
        title=_(
            "Drama {base}d − {resistance}d resistance, {drama} drama dice",
            base=base,
            resistance=resistance,
            drama=drama_dice,
        ),
        categories=tuple(signed(n) for n in nets),
        series=(
            Series(_("criticals off"), tuple(plain.get(n, 0.0) for n in nets)),
            Series(_("criticals on"), tuple(critical.get(n, 0.0) for n in nets)),
        ),
        notes=tuple(
            Note(_(rule, outcome=_(DRAMA_OUTCOMES.get(outcome.value, outcome.value))), p)
            for rule, table in zip(
                (N_("criticals off: {outcome}"), N_("criticals on: {outcome}")),
                chances,
                strict=True,
            )
            for outcome, p in table.items()
        ),
    )
