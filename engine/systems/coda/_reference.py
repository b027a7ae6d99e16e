"""CODA's reference tables (seed 000: 9-1 and 9-5 to 9-13), word for word, as data.

RULES.md §1 asks for these "shown on request as seed 000 gives them". The modifier tables
a test can *apply* (9-2 to 9-4, 9-12, 9-13) live in :mod:`engine.systems.coda._tables`;
9-12 and 9-13 are here as well, as the seed prints them, and a test checks that the two
agree. Two tables also compute: movement for Titanic +X (9-7) and the encumbrance bounds
for a Strength (9-8).

The seed's text is kept as printed, "See Table 9-x" included (it means table 9-7).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import N_, InputError

# Titanic +X: bounded so every number stays short.
MAX_TITANIC_X = 1000
MIN_STRENGTH, MAX_STRENGTH = 1, 1000


class ReferenceError(InputError):
    """A table name the seed does not have; the message is for the user."""


@dataclass(frozen=True, slots=True)
class Section:
    """A run of rows under one heading (9-13 has three); ``heading`` "" for none."""

    heading: str
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True, slots=True)
class ReferenceTable:
    number: str
    title: str
    columns: tuple[str, ...]
    sections: tuple[Section, ...]
    notes: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        """What autocomplete offers and the embed's title: "Table 9-7: Movement Based on Size"."""
        return f"Table {self.number}: {self.title}"

    @property
    def rows(self) -> tuple[tuple[str, ...], ...]:
        return tuple(row for section in self.sections for row in section.rows)


def _table(
    number: str,
    title: str,
    columns: tuple[str, ...],
    *rows: tuple[str, ...],
    notes: tuple[str, ...] = (),
) -> ReferenceTable:
    return ReferenceTable(number, title, columns, (Section("", tuple(rows)),), notes)


REFERENCE_TABLES: tuple[ReferenceTable, ...] = (
    _table(
        "9-1",
        "Standard Target Number",
        ("Difficulty Category", "Base TN"),
        ("Routine", "5"),
        ("Standard", "10"),
        ("Challenging", "15"),
        ("Difficult", "20"),
        ("Virtually Impossible", "25"),
    ),
    _table(
        "9-5",
        "Degree of Success",
        ("Test Result", "Degree of Success or Failure", "Time Modifier"),
        ("11+ below TN", "Disastrous Failure – Attempt may make matters worse", "x1.5"),
        (
            "6-10 below TN",
            "Complete Failure – Attempt fails and may prevent future attempts",
            "x1",
        ),
        (
            "1-5 below TN",
            "Failure – Attempt fails but may attempt again with a cumulative –2 penalty",
            "x1",
        ),
        (
            "Equal to TN",
            "Marginal Success – Basic goal achieved, possibly with minor setbacks",
            "x1",
        ),
        ("1-5 above TN", "Complete Success – Achieves goal with no setbacks", "x0.75"),
        (
            "6-10 above TN",
            "Superior Success – Performs beyond expectation, possibly gaining a small advantage "
            "such as reduced test duration",
            "x0.5",
        ),
        (
            "11+ above TN",
            "Extraordinary Success – Performs far beyond expectation, gains an advantage such as "
            "bonus to initiative or maybe an additional action at a reduced action cost",
            "x0.25",
        ),
    ),
    _table(
        "9-6",
        "Sample Opposed Tests",
        ("Situation", "Character’s Test", "Opponent’s Test"),
        ("Acting in disguise", "Disguise", "Observe (Spot) or Wisdom"),
        ("Bargaining", "Persuade (Negotiate)", "Persuade (Negotiate)"),
        ("Competing at games", "Games", "Games"),
        ("Dodging spells", "Ranged Combat", "Swiftness"),
        ("Foot race", "Athletics: Run", "Athletics: Run"),
        ("Hiding", "Stealth (Hide)", "Observe (Spot)"),
        ("Searching", "Observe (Spot) or Search", "Stealth (Hide) or Conceal"),
    ),
    _table(
        "9-7",
        "Movement Based on Size",
        ("Size", "Walk Distance Per Action", "Walk Distance Per Hour"),
        ("Miniscule or smaller", "1 inch", "100 yards"),
        ("Tiny", "1 foot", "250 yards"),
        ("Little", "1 yard", "1 mile"),
        ("Small", "3 yards", "2 miles"),
        ("Medium", "6 yards", "3 miles"),
        ("Large", "12 yards", "10 miles"),
        ("Huge", "24 yards", "25 miles"),
        ("Mammoth", "48 yards", "50 miles"),
        ("Gigantic", "96 yards", "100 miles"),
        ("Titanic", "180 yards", "200 miles"),
        ("Titanic +X", "180 + X*180 yards", "200 + X*200 miles"),
    ),
    _table(
        "9-8",
        "Encumbrance",
        ("Load (lbs.)", "Movement Penalty"),
        ("Average burden (up to Strength x 5)", "None"),
        ("Moderate burden (Strength x 6-10)", "¾ normal pace, rounded down; cannot Sprint"),
        ("Heavy burden (Strength x 10-20)", "½ normal pace, rounded down; cannot Run"),
        ("Very Heavy burden (Strength x 21-30)", "¼ normal pace, rounded down; cannot Jog"),
        ("Extreme burden (Strength x 31+)", "Cannot walk"),
    ),
    _table(
        "9-9",
        "Sample Movement Actions",
        ("Action", "Cost", "Effect", "Test"),
        ("Walk", "1", "See Table 9-x", "**"),
        ("Crawl/Step", "1", "½ Walk effect", "**"),
        ("Jog", "1", "½ Run effect", "**"),
        ("Run", "2", "*", "**"),
        ("Sprint", "Full Round", "Run effect x 1.5", "N/A"),
        ("Swim", "1", "*", "**"),
        ("Jump", "1", "*", "**"),
        ("Climb", "1", "*", "**"),
        ("Drop prone", "1", "Lay prone on the ground", "**"),
        ("Stand from prone", "1", "Get up from prone", "**"),
        notes=(
            "* - See Athletics skill description",
            "** - Attribute test equal to the test penalty is required if performed after action "
            "allowance is used",
        ),
    ),
    _table(
        "9-10",
        "Sample Free Actions",
        ("Action***", "Effect"),
        ("Command", "Issue a command of <=10 words"),
        ("Drop Object", "Drop item/weapon to the ground"),
        ("Target", "Acquire a new target in combat"),
        ("Warn/Alert", "Shout a warning or alert"),
        notes=(
            "*** - Environmental factors (noise, smoke, etc.) may warrant a test for specific "
            "actions",
        ),
    ),
    _table(
        "9-11",
        "Sample Full-Round and Extended Actions",
        ("Action", "Effect", "Test"),
        ("Hide", "Hide in cover or shadows", "Stealth (TN variable)"),
        ("Inspirational Speech", "Inspire others with words", "Inspire (TN variable)"),
        ("Perform Healing", "Treat Wounds", "First Aid (TN variable)"),
        ("Repair Weapon", "Fix damaged weapon", "Craft (TN variable)"),
        ("Search", "Search 1 yd x 1 yd area", "Search (TN variable)"),
    ),
    _table(
        "9-12",
        "Melee Combat Modifiers",
        ("Situation", "Modifier"),
        ("Defender prone", "-5 TN"),
        ("Attacker in advantageous position", "-1 to -3 TN"),
        ("Defender in advantageous position", "+1 to +3 TN"),
        ("Off-hand penalty", "+8 TN"),
    ),
    ReferenceTable(
        "9-13",
        "Ranged Combat Modifiers",
        ("Condition", "Modifier"),
        (
            Section(
                "Range Category",
                (
                    ("Point Blank range", "-2 TN"),
                    ("Short range", "±0 TN"),
                    ("Medium range", "+2 TN"),
                    ("Long range", "+4 TN"),
                    ("Extended range", "+6 TN"),
                    ("Extended +X range", "6+(X*2) TN"),
                ),
            ),
            Section(
                "Situation",
                (
                    ("Defender prone", "+5 TN"),
                    ("Attacker in advantageous position", "-1 to -5 TN"),
                    ("Defender in advantageous position", "+1 to +5 TN"),
                    ("Attacker on horseback", "+4 TN"),
                ),
            ),
            Section(
                "Target Motion",
                (
                    ("Pace is 3-6 yd/round", "+2 TN"),
                    ("Pace is 7-12 yd/round", "+4 TN"),
                ),
            ),
        ),
    ),
)

_BY_NUMBER = {table.number: table for table in REFERENCE_TABLES}


def table_names() -> tuple[str, ...]:
    """Every table's full name, in the seed's order (for autocomplete)."""
    return tuple(table.name for table in REFERENCE_TABLES)


def find_table(name: str) -> ReferenceTable:
    """A table by number ("9-7", "table 9-7"), full name, or a word of its title."""
    wanted = " ".join(name.split()).casefold()
    if wanted.startswith("table "):
        wanted = wanted.removeprefix("table ")
    number = wanted.split(":", 1)[0].strip()
    if number in _BY_NUMBER:
        return _BY_NUMBER[number]
    found = [t for t in REFERENCE_TABLES if wanted and wanted in t.title.casefold()]
    if len(found) == 1:
        return found[0]
    listing = ", ".join(t.number for t in REFERENCE_TABLES)
    if found:
        raise ReferenceError(
            N_("Several tables match `{name}`: {found}."),
            name=name.strip(),
            found=", ".join(t.name for t in found),
        )
    raise ReferenceError(
        N_("There is no reference table `{name}`; tables: {listing}."),
        name=name.strip(),
        listing=listing,
    )


def titanic_walk(x: int) -> tuple[int, int]:
    """Table 9-7's Titanic +X: (yards per action, miles per hour) = 180 + 180X, 200 + 200X."""
    if isinstance(x, bool) or not isinstance(x, int) or not 0 <= x <= MAX_TITANIC_X:
        raise ReferenceError(
            N_("X for Titanic +X must be a whole number from 0 to {most}."), most=MAX_TITANIC_X
        )
    return 180 + 180 * x, 200 + 200 * x


@dataclass(frozen=True, slots=True)
class Burden:
    """One row of table 9-8 for a given Strength: loads above ``above`` up to ``up_to`` lbs."""

    name: str
    above: int | None
    up_to: int | None
    penalty: str


# Each burden's top multiple of Strength; the seed's rows overlap at ×10 ("6-10", "10-20").
# Decision: each row covers the loads above the previous row's top, so ×10 is Moderate.
_BURDEN_TOPS = (
    ("Average burden", 5),
    ("Moderate burden", 10),
    ("Heavy burden", 20),
    ("Very Heavy burden", 30),
    ("Extreme burden", None),
)


def burdens(strength: int) -> tuple[Burden, ...]:
    """Table 9-8's rows as pounds for this Strength."""
    if (
        isinstance(strength, bool)
        or not isinstance(strength, int)
        or not MIN_STRENGTH <= strength <= MAX_STRENGTH
    ):
        raise ReferenceError(
            N_("Strength must be a whole number from {low} to {high}."),
            low=MIN_STRENGTH,
            high=MAX_STRENGTH,
        )
    rows = _BY_NUMBER["9-8"].rows
    result: list[Burden] = []
    above: int | None = None
    for (name, top), (_, penalty) in zip(_BURDEN_TOPS, rows, strict=True):
        up_to = None if top is None else top * strength
        result.append(Burden(name, above, up_to, penalty))
        above = up_to
    return tuple(result)
