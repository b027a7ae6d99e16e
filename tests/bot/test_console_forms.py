"""Forms in the console, as a user types them: ``/sheet edit`` then ``/submit``."""

from __future__ import annotations

import json
from pathlib import Path

from tests.bot.test_console import run_console


def test_a_sheet_filled_in_through_the_console(tmp_path: Path) -> None:
    result = run_console(
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
        tmp_path / "console.db",
        "--json",
    )
    assert result.returncode == 0, result.stderr
    replies = [json.loads(line) for line in result.stdout.splitlines()]
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
