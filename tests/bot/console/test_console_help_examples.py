"""Every ``/help`` example runs when typed into the console: each example in a fresh console,
after the lines that set its scene (the sheets it names, an encounter, a match), typed by
alice, a player who is also a GM (so "a GM…" examples run too). It must be read, its
options converted, and run without a refusal or a bug."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.render.help_examples import EXAMPLES
from tests.bot.console.inprocess import console_session

# Slow tier: a console per example (minutes); the fast tier checks the examples' shape
# (test_at_the_table).
pytestmark = pytest.mark.slow


def sheet(owner: str, name: str, system: str, *entries: str) -> list[str]:
    """``owner`` creates ``name`` and sets its entries (``Wits 3``, or a ``skill …`` or
    ``resource …`` line)."""
    who = f"/as {owner} gm" if owner == "alice" else f"/as {owner}"
    lines = [who, f"/sheet create name:{name} system:{system}"]
    for entry in entries:
        if entry.startswith(("skill ", "resource ")):
            lines.append(f"/sheet {entry}")
        else:
            attribute, value = entry.split()
            lines.append(f"/sheet set attribute:{attribute} value:{value}")
    return lines


ALICE = ["/as alice gm"]  # she types every example
CODA = [
    *sheet(
        "bob",
        "Ron",
        "coda",
        "Wits 2",
        "Willpower 2",
        "Swiftness 0",
        "skill name:Perception ranks:2 attribute:Wits",
        "skill name:Potions ranks:1 attribute:Wits",
    ),
    *sheet("carol", "Draco", "coda", "Wits 2", "Defence 11", "Swiftness 0"),
    *sheet(
        "alice",
        "Hermione",
        "coda",
        "Wits 3",
        "Willpower 3",
        "Swiftness 0",
        "skill name:Potions ranks:3 attribute:Wits specialty:Brewing",
        "skill name:Stealth ranks:2 attribute:Wits",
        "skill name:Charms ranks:2 attribute:Wits",
        "skill name:Archery ranks:1 attribute:Wits",
    ),
]
H90 = [
    *sheet("bob", "Ron", "h90", "Finesse 2", "Humor 2", "Dexterity 2", "Toughness 3"),
    *sheet("carol", "Draco", "h90", "Dexterity 3", "Toughness 2", "Strength 2"),
    *sheet("alice", "Harry", "h90", "Finesse 3", "Humor 1", "Strength 2", "Dexterity 4"),
]
DRAMA = [
    *sheet("bob", "Tom", "drama", "Physical 2", "skill name:Riding ranks:2 attribute:Physical"),
    *sheet(
        "alice",
        "William",
        "drama",
        "Physical 3",
        "Social 2",
        "skill name:Athletics ranks:1 attribute:Physical",
    ),
]
RPS = [
    *sheet("bob", "Franky", "rps", "Agility 5", "skill name:Stealth ranks:3 attribute:Agility"),
    *sheet(
        "alice",
        "Johnny",
        "rps",
        "Agility 6",
        "skill name:Athletics ranks:2 attribute:Agility",
        "skill name:Research ranks:2 attribute:Agility",
        "skill name:Stealth ranks:1 attribute:Agility",
    ),
]
INFINITY = [*sheet("alice", "Fusilier", "infinity", "BS 12", "PH 10")]
ENCOUNTER = [
    *CODA,
    "/init start system:coda",
    "/init join",
    "/as bob",
    "/init join",
    "/as alice gm",
    "/init add name:Troll modifier:2 hidden:true",
    "/init add name:Goblin count:3",
]
MATCH = [
    *sheet(
        "carol",
        "Draco",
        "h90",
        "Strength 3",
        "Dexterity 4",
        "Toughness 3",
        "resource name:Health current:8 max:8",
    ),
    "/as alice gm",
    "/quidditch new home:Gryffindor away:Slytherin",
    "/quidditch team team:home",
    '/submit chaser:"Angelina 5 3 3 3\\nAlicia 4 3 3 3\\nKatie 4 4 3 3" '
    'beater:"Fred 5 2 4 3\\nGeorge 5 2 4 3" keeper:"Oliver 2 2 8 3" seeker:"Harry 2 6 3 3"',
    "/quidditch team team:away",
    '/submit chaser:"Flint 5 3 3 3\\nPucey 4 3 3 3\\nMontague 4 4 3 3" '
    'beater:"Crabbe 5 2 4 3\\nGoyle 5 2 4 3" keeper:"Bletchley 2 2 8 3" seeker:"Malfoy 2 5 3 3"',
]
MACROS = [
    *CODA,
    '/macro save name:brew command:"/coda skill skill:Potions tn:{tn}"',
    '/macro save name:heal command:"/roll expression:2d6" scope:channel',
]

#: The scene of each command (the longest prefix that matches); "" for every other one.
SCENES: dict[str, list[str]] = {
    "": CODA,
    "coda extended ": [*CODA, "/coda extended start name:Brew stages:15,15,20"],
    "coda extended start": CODA,
    "h90": H90,
    "drama": DRAMA,
    "penalty": [
        *DRAMA,
        *sheet("bob", "Hermione", "drama"),
        "/as alice gm",
        "/penalty add character:William amount:3",
    ],
    "rps": RPS,
    "rps sustained ": [*RPS, "/rps sustained start goal:10"],
    "rps sustained start": RPS,
    "infinity": INFINITY,
    "init": ENCOUNTER,
    "init start": CODA,
    # With these dice the order is Goblin 3, Troll, Hermione…: the Troll and Hermione delay.
    "init act": [*ENCOUNTER, "/init next", "/init next", "/init delay", "/init delay"],
    "init defend": [*ENCOUNTER, "/init next"],
    "init delay": [*ENCOUNTER, "/init next"],
    "init prev": [*ENCOUNTER, "/init next", "/init next"],
    "init add": [*CODA, "/init start system:coda"],
    "init join": [*CODA, "/init start system:coda"],
    "init reveal": [
        *CODA,
        "/init start system:coda",
        "/init add name:Troll hidden:true",
        "/init add name:Goblin count:3 hidden:true",
    ],
    "init condition": [
        *ENCOUNTER,
        '/init condition add target:"Goblin 1" name:Stunned',
        "/init condition add target:Troll name:Burning",
    ],
    "init condition add": ENCOUNTER,
    "quidditch": MATCH,
    "quidditch new": [],
    "quidditch player": [*MATCH[:-4]],
    "quidditch penalty": [*MATCH, "/quidditch turn"],
    "quidditch undo": [*MATCH, "/quidditch turn"],
    "quidditch snitch": [*MATCH, "/quidditch turn until:snitch"],
    "macro": MACROS,
    "macro save": CODA,
    "sheet create": [],
    "sheet resource": [*CODA, "/sheet resource name:Health current:18 max:20"],
    "sheet import": [
        *CODA,
        "/sheet export character:Hermione",
        "/sheet delete character:Hermione",
        "/click Delete",
    ],
    "sheet panel": [
        *CODA,
        '/macro save name:brew command:"/coda skill skill:Potions tn:{tn}" scope:character',
    ],
    "sheet delete": [*CODA, *sheet("alice", "William", "drama")],
    "sheet copy": [*CODA, *sheet("alice", "William", "drama")],
    "sheet rename": [*CODA, *sheet("alice", "William", "drama")],
    "sheet use": [*CODA, *sheet("alice", "William", "drama")],
    "sheet export": CODA,
    "settings gm-role remove": [],
}


#: Examples whose scene the dice decide (a foul comes only with them): these must be read,
#: converted and run without a bug, and may be refused.
DICE_DECIDE = {"quidditch penalty"}


def scene(command: str) -> list[str]:
    """The lines before ``command``'s examples: the longest matching prefix's, then alice."""
    prefix = max((p for p in SCENES if command.startswith(p)), key=len)
    return [*SCENES[prefix], *ALICE]


EXAMPLE_LINES = [
    pytest.param(typed, scene(command), command in DICE_DECIDE, id=f"{command}-{index}")
    for command, examples in sorted(EXAMPLES.items())
    for index, (typed, _what) in enumerate(examples)
]


@pytest.mark.parametrize(("typed", "lines", "dice_decide"), EXAMPLE_LINES)
async def test_every_help_example_runs_in_the_console(
    typed: str,
    lines: list[str],
    dice_decide: bool,
    migrated_template: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    warm_charts: None,
) -> None:
    monkeypatch.chdir(tmp_path)  # where the scene's exports are saved
    async with console_session(migrated_template, tmp_path, monkeypatch) as session:
        for line in lines:
            assert await session.failures(line) == [], line
        failures = await session.failures(typed, bugs_only=dice_decide)
    assert not failures, f"{typed}\n    → " + "\n    → ".join(failures)
