"""Issue 15's two fights, typed into the console line by line (a scripted console session).

The console runs the real bot in SimCord; these drive it one line at a time and read what each
line printed, so a whole CODA fight and a Hogwarts 1990 skirmish run start to finish with
nobody counting by hand. Dice are seeded, so every run plays the same fight.
"""

from __future__ import annotations

from typing import Any

from bot.app import create_bot
from bot.console import Console, in_simcord
from bot.hosting.config import Settings
from engine.dice import SeededDice


async def play(settings: Settings, script: str, seed: int = 15) -> list[tuple[str, str]]:
    """Each line of ``script`` with everything it printed (replies, edited tracker), as text."""
    bot = create_bot(settings, dice=SeededDice(seed), sync_globally=True)
    seen: list[tuple[str, str]] = []
    async with in_simcord(bot) as env:
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
    # Stunned for 1 round: Goblin 1's turn begins under it, its last (it wears off as the
    # next one starts).
    stunned = after(seen, "/init next", 7)
    assert "Round 1 · **Goblin 1**'s turn" in stunned and "wears off" not in stunned
    assert "Stunned (last turn, ends as its next turn starts)" in stunned
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


CODA_ATTACKS = """
/as alice
/sheet create name:Ron system:coda
/sheet set attribute:Swiftness value:2
/sheet set attribute:Strength value:3
/sheet set attribute:Nimbleness value:2
/sheet set attribute:Defence value:7
/sheet skill name:Melee ranks:2 attribute:Strength
/sheet skill name:Dodge ranks:2 attribute:Nimbleness
/sheet resource name:Health current:12 max:12
/as bob
/sheet create name:Hermione system:coda
/sheet set attribute:Swiftness value:3
/sheet set attribute:Strength value:1
/sheet set attribute:Nimbleness value:3
/sheet set attribute:Defence value:8
/sheet skill name:Melee ranks:1 attribute:Strength
/sheet skill name:Dodge ranks:3 attribute:Nimbleness
/sheet resource name:Health current:10 max:10
/as carol
/sheet create name:Neville system:coda
/sheet set attribute:Swiftness value:1
/sheet set attribute:Strength value:2
/sheet set attribute:Nimbleness value:1
/sheet set attribute:Defence value:7
/sheet skill name:Melee ranks:1 attribute:Strength
/sheet skill name:Dodge ranks:1 attribute:Nimbleness
/sheet resource name:Health current:11 max:11
/as gm
/sheet create name:Monster system:coda
/sheet set attribute:Strength value:4
/sheet skill name:Melee ranks:3 attribute:Strength
/init start system:coda reroll:true
/as alice
/init join
/as bob
/init join
/as carol
/init join stress:true
/as gm
/init add name:Goblin count:3 stress:true health:8
/init add name:Troll hidden:true modifier:2 health:20
/init next
/as bob
/coda attack skill:Melee target:"Goblin 3" defence:6 npc_defend:1 modifier:1
/as gm
/click Dodge
/as bob
/init action kind:Walk
/init next
/as gm
/init condition add target:Ron name:Stunned rounds:1
/coda attack skill:Melee target:Ron character:Monster dice:2 modifier:1
/as alice
/click Dodge
/as gm
/init next
/as alice
/coda attack skill:Melee target:"Goblin 2" defence:6 npc_defend:1 dice:2
/as gm
/click Take it
/as alice
/click Walk
/click Roll the test (TN 5)
/init next
/as gm
/coda attack skill:Melee target:Hermione character:Monster dice:2
/as bob
/click Dodge
/as gm
/init next
/init next
/as carol
/coda attack skill:Melee target:"Goblin 1" defence:5 dice:2 modifier:2
/as gm
/click Take it
/init next
/coda attack skill:Melee target:Neville character:Monster dice:1 modifier:1
/as carol
/click Take it
/as gm
/init next
/init remove name:"Goblin 2"
/init condition add target:"Goblin 3" name:Bleeding rounds:2 tick:end
/as alice
/coda attack skill:Melee target:"Goblin 3" defence:6 npc_defend:1 dice:2
/as gm
/click Dodge
/as alice
/init next
/as carol
/coda skill skill:Melee tn:10
/init next
/as bob
/coda skill skill:Melee tn:10
/init next
/as gm
/coda attack skill:Melee target:Hermione character:Monster dice:2 modifier:1
/as bob
/click Dodge
/as gm
/init next
/init next
/init next
/init undo
/init next
/init end
/click End the encounter
"""


def tracker_line(text: str, name: str) -> str:
    """The tracker's line of ``name`` in what a console line printed (its last tracker)."""
    tracker = text.rsplit("⚔️ Initiative", 1)[1]
    return next(
        line
        for line in tracker.splitlines()
        if f"{name}** —" in line or line.lstrip("✓▶ ").startswith(f"{name} —")
    )


async def test_a_coda_fight_with_attacks_dodges_and_health_through_the_console(
    settings: Settings,
) -> None:
    """Three players, four NPCs (one hidden), surprise, attacks answered with the buttons,
    damage to sheets' and NPCs' Health, conditions ticking, re-rolls: nobody counts actions."""
    seen = await play(settings, CODA_ATTACKS)
    assert not any("Traceback" in text or "went wrong" in text for _, text in seen)
    assert not any("No button" in text for _, text in seen)  # every button was there
    # Surprise: the surprised goblins and Neville act after the rest, with one action.
    first = after(seen, "/init next", 1)
    assert "Round 1 · **Hermione**'s turn" in first
    assert first.index("Ron — 5") < first.index("Goblin 3 — 8") < first.index("Neville — 4")
    # Hermione's attack is her 1st action; the GM dodges for Goblin 3: its only action.
    attack = after(
        seen, '/coda attack skill:Melee target:"Goblin 3" defence:6 npc_defend:1 modifier:1'
    )
    assert "🏃 Hermione's 1st action this round · 1 of 2 left on the tracker." in attack
    dodged = after(seen, "/click Dodge", 1)
    assert "🛡️ Goblin 3 dodges Hermione's attack" in dodged
    assert "🏃 Goblin 3's 1st action this round · 0 of 1 left on the tracker." in dodged
    assert "🏃 0 of 1 actions left (surprised) · next −5" in tracker_line(dodged, "Goblin 3")
    # The hidden Troll's turn: the GM's attack spends the Troll's action, never naming it.
    troll = after(seen, "/coda attack skill:Melee target:Ron character:Monster dice:2 modifier:1")
    assert "⚔️ Monster hits Ron: defend?" in troll and "Troll" not in troll
    hurt = after(seen, "/click Dodge", 2)
    assert "❤️ Ron's Health: 12 → **6**/12" in hurt
    assert "🏃 Ron's 1st action this round · 1 of 2 left on the tracker." in hurt
    assert tracker_line(hurt, "Ron").endswith(
        "🏃 1 of 2 actions left · 🩹 Stunned (1 round, ticks at start) · ❤️ 6/12"
    )
    # Ron's turn begins under the condition, its last; his dodge left him one action.
    ron = after(seen, "/init next", 3)
    assert "wears off" not in ron and "Stunned (last turn, ends as its next turn starts)" in ron
    assert "Round 1 · **Ron**'s turn" in ron and "1 of 2 actions left." in ron
    swing = after(seen, '/coda attack skill:Melee target:"Goblin 2" defence:6 npc_defend:1 dice:2')
    assert "🏃 Ron's 2nd action this round · 0 of 2 left on the tracker." in swing
    taken = after(seen, "/click Take it", 1)
    assert "❤️ Goblin 2's Health: 8 → **−1**/8" in taken
    assert tracker_line(taken, "Goblin 2").endswith("❤️ −1/8")
    # A third action without a test of its own: the Nimbleness test, rolled from the sheet.
    walked = after(seen, "/click Walk")
    assert "Walk (1 action): **−5**" in walked and "**TN 5 Nimbleness test**" in walked
    rolled = after(seen, "/click Roll the test (TN 5)")
    assert "Walk beyond the allowance" in rolled
    assert "2d6 (7) + 2 (Nimbleness) = **9** vs TN 5" in rolled
    # Goblin 3 attacks with its second action (−5); Hermione's dodge is her third (−5).
    goblin = after(seen, "/coda attack skill:Melee target:Hermione character:Monster dice:2")
    assert "− 5 (extra action, 2nd)" in goblin
    assert "🏃 Goblin 3's 2nd action this round (−5) · 0 of 1 left" in goblin
    late = after(seen, "/click Dodge", 3)
    assert "− 5 (extra action, 3rd)" in late
    assert "❤️ Hermione's Health: 10 → **1**/10" in late
    neville = after(seen, '/coda attack skill:Melee target:"Goblin 1" defence:5 dice:2 modifier:2')
    assert "🏃 Neville's 1st action this round · 0 of 1 left on the tracker." in neville
    assert "❤️ Goblin 1's Health: 8 → **−2**/8" in after(seen, "/click Take it", 2)
    assert "❤️ Neville's Health: 11 → **6**/11" in after(seen, "/click Take it", 3)
    # Round 2 re-rolls everyone (the Troll's to the GM alone) and gives the actions back.
    round2 = after(seen, "/init next", 8)
    public = round2.split("[only you]")[0]
    assert "🎲 Round 2: everyone re-rolls initiative — **Goblin 2** 13" in public
    assert "Troll" not in public and "**Troll** 5" in round2
    assert "🏃" not in round2.rsplit("⚔️ Initiative", 1)[1]
    gone = after(seen, '/init remove name:"Goblin 2"')
    assert "🚪 **Goblin 2** leaves the encounter." in gone and "Round 2 · **Ron**'s turn" in gone
    assert "Goblin 2" not in gone.rsplit("⚔️ Initiative", 1)[1]
    assert "❤️ Goblin 3's Health: 8 → **1**/8" in after(seen, "/click Dodge", 4)
    # A test on your own turn is an action too (Neville's, then Hermione's).
    assert "🏃 Neville's 1st action this round" in after(seen, "/coda skill skill:Melee tn:10", 1)
    assert "🏃 Hermione's 1st action this round" in after(seen, "/coda skill skill:Melee tn:10", 2)
    saved = after(seen, "/click Dodge", 5)
    assert "🛡️ Hermione dodges Monster's attack" in saved
    assert "🏃 Hermione's 2nd action this round · 0 of 2 left on the tracker." in saved
    # Bleeding counted down at the end of Goblin 3's turn.
    assert "🩹 Bleeding (1 round, ticks at end)" in tracker_line(
        after(seen, "/init next", 12), "Goblin 3"
    )
    # Round 3 re-rolled, undone, re-rolled again: undo is exact, the new roll is new dice.
    assert "🎲 Round 3: everyone re-rolls initiative — **Goblin 3** 10" in after(
        seen, "/init next", 14
    )
    undone = after(seen, "/init undo")
    assert "↩️ Undid a Next." in undone and "Round 2 · the GM's turn." in undone
    assert "🎲 Round 3: everyone re-rolls initiative — **Hermione** 12" in after(
        seen, "/init next", 15
    )
    summary = after(seen, "/click End the encounter")
    assert "Encounter over after 3 rounds" in summary
    assert "Hermione — 12 · ❤️ 1/10" in summary and "Goblin 3 — 5 · ❤️ 1/8" in summary
