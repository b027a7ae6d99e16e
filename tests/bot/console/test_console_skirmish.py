"""A Hogwarts 1990 skirmish start to finish through the console: initiative from
the sheets, the initiator's lost round-1 action, delays, attacks with the defender's buttons
pressed in the console (a dodge on one's own turn refused, a delayer dodging for a friend,
an NPC's dodge that uses up its turn), damage taken from Health, rounds ending.

Nobody counts by hand: every number below is one the bot printed, and each step asserts the
state the table would see then (the exchange's message, the tracker). Dice are seeded, so
every run plays the same skirmish.
"""

from __future__ import annotations

from bot.hosting.config import Settings
from tests.bot.console.test_console_fights import after, play

H90_SKIRMISH = """
/as alice
/sheet create name:Hermione system:h90
/sheet set attribute:Humor value:3
/sheet set attribute:Dexterity value:4
/sheet resource name:Health current:5 max:5
/as bob
/sheet create name:Harry system:h90
/sheet set attribute:Humor value:2
/sheet set attribute:Strength value:3
/sheet set attribute:Dexterity value:2
/sheet resource name:Health current:5 max:5
/as carol
/sheet create name:Ron system:h90
/sheet set attribute:Humor value:1
/sheet set attribute:Strength value:4
/sheet set attribute:Dexterity value:1
/sheet resource name:Health current:5 max:5
/as gm
/init start system:h90 initiator:Goyle attribute:Humor
/as alice
/init join
/as bob
/init join
/as carol
/init join
/as gm
/init add name:Goyle roll:14
/init add name:Crabbe roll:6
/init next
/as bob
/h90 attack target:Crabbe difficulty:8 attribute:Strength npc_dodge:1
/init next
/as alice
/init delay
/as carol
/h90 attack target:Goyle difficulty:10 attribute:Strength damage:2
/click Take it
/as gm
/click Dodge
/click Take it
/as carol
/init next
/as gm
/h90 attack target:Ron difficulty:7 bonus:2 attacker:Crabbe damage:2
/as carol
/click Dodge
/as alice
/click Hermione dodges for them
/as gm
/init next
/as bob
/h90 attack target:Goyle difficulty:9 attribute:Strength npc_dodge:3
/as gm
/click Dodge
/as bob
/init next
/as alice
/h90 attack target:Crabbe difficulty:9 attribute:Dexterity
/as gm
/click Take it
/as alice
/init next
/as carol
/init delay
/as gm
/h90 attack target:Hermione difficulty:6 bonus:2 attacker:Crabbe
/as alice
/click Dodge
/as carol
/click Ron dodges for them
/as gm
/init next
/init end
/click End the encounter
"""


def tracker(text: str) -> str:
    """The tracker as a line printed it (the last one when it printed several)."""
    return text.rsplit("⚔️ Initiative", 1)[1]


async def test_a_hogwarts_1990_skirmish_with_attacks_and_dodges(settings: Settings) -> None:
    seen = await play(settings, H90_SKIRMISH)
    assert not any("Traceback" in text or "went wrong" in text for _, text in seen)

    # Initiative: standard rolls + Humor from the sheets; Goyle initiated.
    assert "**Harry** joins: 2d20 (17, 2) keep higher 17 + 2 = **19**" in after(
        seen, "/init join", 2
    )
    start = tracker(after(seen, "/init next", 1))
    assert "Round 1 · **Harry**'s turn" in start
    assert "~~Goyle~~ — 14 · *no action in round 1 (initiated)*" in start

    # Harry misses Crabbe: no buttons, nothing waits.
    miss = after(seen, "/h90 attack target:Crabbe difficulty:8 attribute:Strength npc_dodge:1")
    assert "⚔️ Harry attacks Crabbe: a miss" in miss
    assert "2 + 3 (Strength) = **5** vs 8: **Failure**" in miss

    # Next skips the initiator; Hermione delays.
    assert "Round 1 · **Hermione**'s turn" in after(seen, "/init next", 2)
    delayed = after(seen, "/init delay", 1)
    assert "⏸️ **Hermione** delays." in delayed and "Round 1 · **Ron**'s turn" in delayed

    # Ron hits Goyle; the NPC is the GM's to answer (Ron's press is refused). Goyle's turn
    # has passed (and he initiated): no dodge. The GM takes it.
    hit = after(seen, "/h90 attack target:Goyle difficulty:10 attribute:Strength damage:2")
    assert "⚔️ Ron hits Goyle: dodge?" in hit
    assert "12 + 4 (Strength) = **16** vs 10: **Success**" in hit
    assert "A delayer may dodge for Goyle instead: **Hermione**." in hit
    assert "[only you] Only the GM answers this attack on Goyle." in after(
        seen, "/click Take it", 1
    )
    assert "[only you] Goyle's turn this round has passed." in after(seen, "/click Dodge", 1)
    taken = after(seen, "/click Take it", 2)
    assert "💥 Ron hits Goyle: −2 Health" in taken
    assert "The NPC has no sheet nor Health on the tracker: the GM keeps its Health" in taken

    # Crabbe hits Ron, who has acted: his own dodge is refused. Hermione, delaying, dodges
    # for her friend: 7 + her Dexterity 4 = 11 beats Crabbe's 10.
    assert "Round 1 · **Crabbe**'s turn" in after(seen, "/init next", 3)
    on_ron = after(seen, "/h90 attack target:Ron difficulty:7 bonus:2 attacker:Crabbe damage:2")
    assert "⚔️ Crabbe hits Ron: dodge?" in on_ron and "8 + 2 = **10** vs 7" in on_ron
    assert "[only you] Ron's turn this round has passed." in after(seen, "/click Dodge", 2)
    saved = after(seen, "/click Hermione dodges for them")
    assert "🛡️ Hermione dodges for Ron: Crabbe misses" in saved
    assert "difficulty 7 + Dexterity 4 = **11**; the attack now misses." in saved
    assert "The dodge spends Hermione's delayed action; Hermione keeps the place." in saved
    board = tracker(saved)
    assert "✓ ~~Hermione~~ — 10 · *defended this round* · ❤️ 5/5" in board
    assert "Ron — 9 · ❤️ 5/5" in board and "Delayed" not in board

    # Round 2: everyone in the same order; Hermione's place is hers again.
    round2 = tracker(after(seen, "/init next", 4))
    assert "Round 2 · **Harry**'s turn" in round2
    assert "\nGoyle — 14\n" in round2  # the initiator's round-1 mark is gone

    # Harry hits Goyle; the GM dodges for Goyle (+3): still a hit, and Goyle's turn is used up.
    dodged = after(seen, "/click Dodge", 3)
    assert "difficulty 9 + dodge 3 = **12**; the attack still hits." in dodged
    assert "The dodge uses up Goyle's turn this round." in dodged
    assert "~~Goyle~~ — 14 · *defended this round*" in tracker(dodged)
    assert "Round 2 · **Hermione**'s turn" in after(seen, "/init next", 5)  # Goyle skipped

    # Hermione hits Crabbe; then Ron delays, and Crabbe hits Hermione: Ron dodges for her
    # from his delay (his Dexterity 1 is not enough), and her Health drops on the tracker.
    assert "💥 Hermione hits Crabbe: −1 Health" in after(seen, "/click Take it", 3)
    assert "⏸️ **Ron** delays." in after(seen, "/init delay", 2)
    on_hermione = after(seen, "/h90 attack target:Hermione difficulty:6 bonus:2 attacker:Crabbe")
    assert "A delayer may dodge for Hermione instead: **Ron**." in on_hermione
    assert "[only you] Hermione's turn this round has passed." in after(seen, "/click Dodge", 4)
    hurt = after(seen, "/click Ron dodges for them")
    assert "💥 Crabbe hits Hermione: −1 Health" in hurt
    assert "difficulty 6 + Dexterity 1 = **7**; the attack still hits." in hurt
    assert "❤️ Hermione's Health: 5 → **4**/5" in hurt
    board = tracker(hurt)
    assert "Hermione — 10 · ❤️ 4/5" in board and "✓ ~~Ron~~ — 9 · *defended this round*" in board

    # Round 3 comes round with everyone back in place; the encounter ends with a summary.
    round3 = tracker(after(seen, "/init next", 7))
    assert "Round 3 · **Harry**'s turn" in round3 and "Ron — 9 · ❤️ 5/5" in round3
    ended = after(seen, "/click End the encounter")
    assert "Encounter over after 3 rounds" in ended
    assert "Hermione — 10 · ❤️ 4/5" in tracker(ended)
