"""Issue 15's two fights, typed into the console line by line (a scripted console session).

The console runs the real bot in SimCord; these drive it one line at a time and read what each
line printed, so a whole CODA fight and a Hogwarts 1990 skirmish run start to finish with
nobody counting by hand. Dice are seeded, so every run plays the same fight.
"""

from __future__ import annotations

from typing import Any

import simcord

from bot.app import create_bot
from bot.config import Settings
from bot.console import Console
from engine.dice import SeededDice


async def play(settings: Settings, script: str, seed: int = 15) -> list[tuple[str, str]]:
    """Each line of ``script`` with everything it printed (replies, edited tracker), as text."""
    bot = create_bot(settings, dice=SeededDice(seed), sync_globally=True)
    seen: list[tuple[str, str]] = []
    async with simcord.run(bot, check_errors=False, settle_timeout=30.0) as env:
        printed: list[dict[str, Any]] = []
        console = Console(env=env, bot=bot, emit=printed.append)
        console.setup()
        for line in filter(None, (raw.strip() for raw in script.splitlines())):
            printed.clear()
            await console.run_line(line)
            seen.append((line, "\n".join(_text(payload) for payload in printed)))
    return seen


def _text(payload: dict[str, Any]) -> str:
    parts = [("[only you] " if payload.get("ephemeral") else "") + (payload.get("content") or "")]
    for embed in payload.get("embeds", []):
        parts += [embed.get("title") or "", embed.get("description") or ""]
        parts += [f"{f['name']} {f['value']}" for f in embed.get("fields", [])]
    return "\n".join(parts)


def after(seen: list[tuple[str, str]], line: str, nth: int = 1) -> str:
    """What the ``nth`` occurrence of ``line`` printed."""
    found = [text for typed, text in seen if typed == line]
    return found[nth - 1]


CODA_FIGHT = """
/as alice
/sheet create name:Ron system:coda
/sheet set attribute:Swiftness value:2
/as bob
/sheet create name:Hermione system:coda
/sheet set attribute:Swiftness value:3
/as carol
/sheet create name:Neville system:coda
/sheet set attribute:Swiftness value:1
/as gm
/init start system:coda reroll:true
/as alice
/init join
/as bob
/init join
/as carol
/init join stress:true
/as gm
/init add name:Goblin count:3 stress:true
/init add name:Troll hidden:true modifier:2
/init next
/init condition add target:"Goblin 1" name:Stunned rounds:1
/init next
/init next
/init next
/init next
/init next
/init next
/init next
/init condition add target:Ron name:Prone note:"knocked down"
/init next
/init undo
/init next
/init end
/click End the encounter
"""


async def test_a_coda_fight_runs_start_to_finish(settings: Settings) -> None:
    seen = await play(settings, CODA_FIGHT)
    assert not any("Traceback" in text or "went wrong" in text for _, text in seen)
    # Swiftness by default; the surprised Neville and goblins act after everyone else.
    assert "**Ron** joins: 2d6 (2, 1) + 2 = **5**" in after(seen, "/init join", 1)
    first = after(seen, "/init next", 1)
    assert "Round 1 · **Hermione**'s turn" in first
    assert first.index("Ron — 5") < first.index("Goblin 3 — 8")  # surprised act later
    assert "Round 1 · the GM's turn." in after(seen, "/init next", 2)  # the hidden Troll
    assert "1 action (surprised)" in after(seen, "/init next", 4)
    # The condition counted down at Goblin 1's turn and wore off.
    assert "⌛ **Goblin 1**: Stunned wears off." in after(seen, "/init next", 7)
    # Round 2 re-rolls everyone; the hidden Troll's roll reaches the GM alone.
    round2 = after(seen, "/init next", 8)
    assert "🎲 Round 2: everyone re-rolls initiative — **Ron** 11" in round2
    public = round2.split("[only you]")[0]
    assert "Troll" not in public and "**Troll** 9" in round2
    assert "🩹 **Ron** is Prone — knocked down." in after(
        seen, '/init condition add target:Ron name:Prone note:"knocked down"'
    )
    assert "Undid a Next" in after(seen, "/init undo")
    ended = after(seen, "/click End the encounter")
    assert "Encounter ended." in ended and "Initiative — ended" in ended
    assert "▶" not in ended.split("Initiative — ended")[1]


H90_SKIRMISH = """
/as alice
/sheet create name:Hermione system:h90
/sheet set attribute:Humor value:3
/as bob
/sheet create name:Harry system:h90
/sheet set attribute:Humor value:2
/as gm
/init start system:h90 initiator:Harry attribute:Humor
/as alice
/init join
/as bob
/init join
/as gm
/init add name:Slytherin roll:12
/init add name:Goyle roll:5 stress:true
/init next
/init next
/init delay
/init next
/init defend name:Hermione protects:Harry
/init next
/init next
/init delay
/init next
/init next
/init next
/init end
/click End the encounter
"""


async def test_a_hogwarts_1990_skirmish_with_delays_and_a_dodge_for_a_friend(
    settings: Settings,
) -> None:
    seen = await play(settings, H90_SKIRMISH)
    assert not any("Traceback" in text or "went wrong" in text for _, text in seen)
    start = after(seen, "/init next", 1)
    assert "Round 1 · **Slytherin**'s turn." in start
    assert "~~Harry~~ — 19 · *no action in round 1 (initiated)*" in start
    delayed = after(seen, "/init delay", 1)
    assert "⏸️ **Hermione** delays." in delayed and "⏸️ Hermione — 10 · *delaying*" in delayed
    assert "Delayed (act with `/init act`) Hermione — 10" in delayed
    dodged = after(seen, "/init defend name:Hermione protects:Harry")
    assert "**Hermione** dodges on behalf of **Harry** from their delay" in dodged
    assert "Delayed" not in dodged
    # Her place in round 2 is still hers: she takes that turn.
    assert "Round 2 · **Hermione**'s turn" in after(seen, "/init next", 5)
    # Delaying again, her place comes round in round 3: the delay ends with a notice.
    notice = after(seen, "/init next", 8)
    assert "**Hermione**'s place came round again: the delay ends" in notice
    assert "Round 3 · **Hermione**'s turn" in notice
    summary = after(seen, "/click End the encounter")
    assert "Encounter over after 3 rounds" in summary and "Delayed" not in summary
