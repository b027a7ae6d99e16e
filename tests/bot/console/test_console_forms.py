"""Forms in the console, as a user types them: ``/sheet edit`` then ``/submit``."""

from __future__ import annotations

import json
from pathlib import Path

from tests.bot.console.test_console import run_console


def replies_to(lines: list[str], tmp_path: Path) -> list[dict]:
    """Run the console on ``lines`` (JSON output) and return its replies."""
    result = run_console(lines, tmp_path / "console.db", "--json")
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_a_sheet_filled_in_through_the_console(tmp_path: Path) -> None:
    replies = replies_to(
        [
            "/submit",
            "/as alice",
            "/sheet create name:Hermione system:coda",
            "/sheet edit",
            '/submit group0:"Wits 3\\nStrength 1" resources:"Health 8/10" nonsense:1',
            '/submit group0:"Wits 3\\nStrength 1" resources:"Health 8/10"',
            "/sheet edit part:skills",
            '/submit skills0:"Potions 3 Wits Brewing\\nCharms 2 Wist"',
            "/click Fix it",
            '/submit skills0:"Potions 3 Wits Brewing\\nCharms 2 Wits"',
            "/sheet edit",
            "/submit",
        ],
        tmp_path,
    )
    assert replies[0]["error"] and "No form is open for you" in replies[0]["content"]
    form = replies[3]
    assert form["ephemeral"] and form["content"].startswith("(a form opened: Hermione: attributes)")
    assert "  group1 — Reactions and Defence:\n    Stamina" in form["content"]
    assert replies[4]["error"] and "no field `nonsense`" in replies[4]["content"]
    saved = json.dumps(replies[5]["embeds"])
    assert "Wits **3**" in saved and "Health **8/10**" in saved
    assert replies[6]["content"].startswith("(a form opened: Hermione: skills)")
    assert replies[7]["content"].startswith("Nothing was saved. Skills, line 2 (`Charms 2 Wist`)")
    assert replies[7]["buttons"] == ["Fix it"]
    assert "Charms 2 Wist" in replies[8]["content"]  # reopened with what was typed
    assert "Charms **2** (Wits)" in json.dumps(replies[9]["embeds"])
    # /submit alone sends the form as shown: nothing is lost.
    unchanged = json.dumps(replies[11]["embeds"])
    assert "Wits **3**" in unchanged and "Health **8/10**" in unchanged


def test_a_quidditch_evening_through_the_console(tmp_path: Path) -> None:
    """A GM enters both teams in forms, corrects a player, plays to the first snitch phase,
    takes a turn back and plays on; players look on. Dice are random: the checks are not."""
    home = (
        'chaser:"Angelina 5 3 3 3\\nAlicia 5 3 3 3\\nKatie 5 3 3 3" '
        'beater:"Fred 4 3 3 4\\nGeorge 4 3 3 4" keeper:"Oliver 2 2 8 3" seeker:"Harry 2 5 2 4"'
    )
    away = (
        'chaser:"Flint 4 3 3 3\\nMontague 4 3 3 3\\nWarrington 4 3 3 3" '
        'beater:"Crabbe 3 3 3 4\\nGoyle 3 3 3 4" keeper:"Bletchley 2 3 8 3" seeker:"Malfoy 2 4 2 4"'
    )
    replies = replies_to(
        [
            "/quidditch new home:Gryffindor away:Slytherin home_house:Gryffindor "
            "away_house:Slytherin",
            "/quidditch team team:Gryffindor",
            f"/submit {home}",
            "/quidditch team team:away",
            '/submit chaser:"Flint 4 3 3"',
            "/click Fix it",
            f"/submit {away}",
            "/quidditch player team:home position:seeker name:Harry dexterity:6",
            "/as alice",
            "/quidditch undo",
            "/quidditch status",
            "/as gm",
            # Both seekers interfere: nobody catches the snitch, so the match goes on.
            "/quidditch snitch team:home",
            "/quidditch snitch team:away",
            "/quidditch turn until:snitch penalties:all",
            "/quidditch undo",
            "/quidditch turn penalties:all",
            "/quidditch status",
        ],
        tmp_path,
    )
    assert replies[0]["embeds"][0]["title"] == "🧹 Gryffindor vs Slytherin"
    assert replies[1]["content"].startswith("(a form opened: Gryffindor — home team)")
    roster = replies[2]
    assert not roster["ephemeral"] and roster["embeds"][0]["title"].endswith("— rosters")
    assert replies[4]["content"].startswith("Nothing was saved. Chasers (3), line 1")
    assert "Flint 4 3 3" in replies[5]["content"]  # the form again, as typed
    # The second team and the correction edit the one roster message.
    assert replies[6]["content"] == "Slytherin: 7 players entered. The roster message is updated."
    assert replies[7]["channel_message"] == "edited"
    assert replies[8]["content"].startswith("Harry updated (seeker).")
    assert replies[9]["channel_message"] == "edited"
    assert "Seeker **Harry** — S 2 · D 6" in json.dumps(replies[9]["embeds"], ensure_ascii=False)
    rest = replies[10:]
    assert "Only the channel's GM can undo a quidditch turn" in rest[1]["content"]
    assert "not started" in rest[2]["embeds"][0]["description"]
    # until:snitch: a summary of up to ten turns, then the last turn in full.
    summary, last = rest[6], rest[7]
    assert summary["embeds"][0]["title"].startswith("🧹 10 turns")
    assert summary["embeds"][0]["footer"]["text"] == "Stopped after the snitch phase."
    assert len(summary["embeds"][0]["description"].splitlines()) == 10
    assert last["embeds"][0]["title"].startswith("🧹 Turn 10")
    assert "interferes" in json.dumps(last["embeds"], ensure_ascii=False)
    undone = rest[8]["embeds"][0]["description"]
    assert undone.startswith("Turn 10 is undone") and "after turn 9" in undone
    assert rest[9]["embeds"][0]["title"].startswith("🧹 Turn 10")
    assert "after turn 10" in rest[10]["embeds"][0]["description"]
