"""The offline console as a user runs it: the installed ``narrator`` program, fed by a pipe."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

NARRATOR = Path(sys.executable).with_name("narrator")


def run_console(lines: list[str], database: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    assert NARRATOR.exists(), "the narrator console script is not installed"
    return subprocess.run(
        [str(NARRATOR), "console", "--db", f"sqlite+aiosqlite:///{database}", *extra],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=120,
        cwd=database.parent,
    )


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[dict], Path]:
    database = tmp_path_factory.mktemp("console") / "console.db"
    result = run_console(
        [
            '/roll expression:"4d6kh3 + 2" label:strength',
            "/roll expression:1000001d6",
            "/as alice",
            "/settings system name:coda",
            "/as gm",
            "/settings system name:coda",
            "/in other",
            "/settings show",
            "/nonsense",
            "/roll wrong:1",
            "/history count:abc",
            "/as bob",
            "/roll expression:2d6 secret:true",
            "/as gm",
            '/settings system name:"hogwarts 1990"',
            "/settings system name:dnd",
        ],
        database,
        "--json",
    )
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()], database


def test_every_line_gets_one_json_reply(session: tuple[list[dict], Path]) -> None:
    replies, _ = session
    assert len(replies) == 18
    assert replies[12]["ephemeral"] and replies[12]["content"].startswith("🔒 Secret roll.\n")
    # The table's notice with the roll's commitment, then the GM's copy, shown where it went.
    assert not replies[13]["ephemeral"] and "made a secret roll" in replies[13]["content"]
    assert replies[13]["buttons"] == ["Full commitment"]
    assert replies[14]["where"] == "direct message to gm"
    assert replies[14]["content"].startswith("🔒 Secret roll by")


def test_choices_are_picked_by_name_or_value(session: tuple[list[dict], Path]) -> None:
    replies, _ = session
    assert replies[16]["embeds"][0]["title"] == "Channel settings — system set to Hogwarts 1990"
    assert replies[17]["content"].startswith("Option `name` is one of: CODA (Harry Potter RPG),")


def test_a_roll_reply_is_what_discord_would_receive(session: tuple[list[dict], Path]) -> None:
    replies, _ = session
    roll = replies[0]
    assert roll["ephemeral"] is False
    assert roll["embeds"][0]["title"].endswith("— strength")
    assert "4d6kh3" in roll["embeds"][0]["description"]


def test_bad_input_gets_the_same_messages_as_discord(session: tuple[list[dict], Path]) -> None:
    replies, _ = session
    assert replies[1] == {
        "ephemeral": True,
        "content": "1000001d6: at most 250 dice per roll",
        "embeds": [],
        # Every message says whom it may ping: nobody, by default.
        "allowed_mentions": {"everyone": False, "users": [], "roles": [], "pinged": []},
    }
    assert "Only the channel's GM can" in replies[3]["content"]
    assert replies[5]["embeds"][0]["title"].startswith("Channel settings")
    assert "Unknown command /nonsense" in replies[8]["content"]
    assert "no option `wrong`" in replies[9]["content"]
    assert "takes a number" in replies[10]["content"]


def test_channels_are_separate(session: tuple[list[dict], Path]) -> None:
    replies, _ = session
    shown = json.dumps(replies[7])
    assert "not set" in shown  # the new channel has no system yet


def test_text_mode_and_persistence(session: tuple[list[dict], Path]) -> None:
    _, database = session
    result = run_console(["/history count:5"], database)
    assert result.returncode == 0, result.stderr
    assert "== Roll history ==" in result.stdout
    assert "4d6kh3 + 2" in result.stdout  # the rolls of the earlier session are still there
    assert "(only you can see this)" in result.stdout


def test_new_channels_and_users_are_the_same_in_every_session(tmp_path: Path) -> None:
    database = tmp_path / "identity.db"
    first = run_console(
        ["/in alpha", "/settings system name:rps", "/as dave", "/sheet create name:D system:rps"],
        database,
        "--json",
    )
    assert first.returncode == 0, first.stderr
    # Introduced in another order, in another session: beta and erin are new, alpha and dave
    # are who they were.
    second = run_console(
        [
            "/in beta",
            "/settings show",
            "/as erin",
            "/sheet list",
            "/in alpha",
            "/settings show",
            "/as dave",
            "/sheet list",
        ],
        database,
        "--json",
    )
    assert second.returncode == 0, second.stderr
    replies = [json.loads(line) for line in second.stdout.splitlines()]
    beta, erin, alpha, dave = (json.dumps(replies[i]) for i in (1, 3, 5, 7))
    assert "not set" in beta and "RPS" in alpha
    assert "(0)" in erin and "**D**" in dave


def test_click_presses_a_button_the_current_user_can_see(tmp_path: Path) -> None:
    result = run_console(
        [
            "/as alice",
            "/sheet create name:X system:coda",
            "/sheet delete character:X",
            "/as gm",
            "/click Delete",
        ],
        tmp_path / "click.db",
        "--json",
    )
    replies = [json.loads(line) for line in result.stdout.splitlines()]
    assert (
        replies[-1]["error"]
        and "No message with buttons that you can see" in replies[-1]["content"]
    )


@pytest.mark.slow  # seconds; make check runs it
def test_save_files_writes_each_chart_under_its_name(tmp_path: Path) -> None:
    charts = tmp_path / "charts"
    result = run_console(
        [
            "/odds coda modifier:3 tn:11",
            "/odds coda modifier:3 tn:11",
            "/roll expression:3d6",
            "/dice stats",
        ],
        tmp_path / "charts.db",
        "--json",
        "--save-files",
        str(charts),
    )
    assert result.returncode == 0, result.stderr
    replies = [json.loads(line) for line in result.stdout.splitlines()]
    saved = [path for reply in replies for path in reply.get("saved", [])]
    assert [Path(path).name for path in saved] == [
        "coda-2d6-3-vs-tn-11.png",
        "coda-2d6-3-vs-tn-11-2.png",  # never overwritten
        "dice-of-table.png",
    ]
    for path in saved:
        assert Path(path).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    text = run_console(["/odds rps base:12"], tmp_path / "charts.db", "--save-files", str(charts))
    assert f"saved: {charts / 'rps-check-at-base-12.png'}" in text.stdout


def test_the_second_rules_pass_commands_run_in_the_console(tmp_path: Path) -> None:
    result = run_console(
        [
            "/coda table name:9-8 strength:3",
            '/h90 defended defense:"8 + 3" bonus:2',
            '/infinity roll attribute:12 cover:true range:"40:+3,80:-3" distance:60',
            "/infinity ftf active_attribute:13 active_burst:3 reactive_attribute:11 "
            'targets:"Warband:1:13"',
            "/as gm gm",
            "/rps check base:3 automatic:true",
        ],
        tmp_path / "console.db",
        "--json",
    )
    assert result.returncode == 0, result.stderr
    replies = [json.loads(line) for line in result.stdout.splitlines()]
    titles = [r["embeds"][0]["title"] if r.get("embeds") else r.get("content") for r in replies]
    assert titles[0] == "Table 9-8: Encumbrance"
    assert "Defended: the difficulty is 8 + 3 = 11" in replies[1]["embeds"][0]["description"]
    assert (
        "**MODs:** Range 60 (up to 80) −3 · Cover −3 = −6"
        in (replies[2]["embeds"][0]["description"])
    )
    assert titles[3].startswith("🎯 Burst split among 2 targets")
    assert "Automatic success" in replies[5]["embeds"][0]["description"]


def test_macros_forms_and_panels_run_as_in_discord(tmp_path: Path) -> None:
    brew = "coda skill skill:Potions difficulty:{difficulty:Challenging} label:brew"
    result = run_console(
        [
            "/as alice",
            "/sheet create name:Hermione system:coda",
            "/sheet set attribute:Wits value:3",
            "/sheet skill name:Potions ranks:2 attribute:Wits",
            f'/macro save name:brew command:"{brew}" scope:character',
            "/macro run name:brew",
            "/submit nope:1",
            "/submit difficulty:Routine",
            "/sheet panel",
            "/as bob",
            "/click brew",
            "/submit difficulty:Routine",
            "/as gm",
            '/macro save name:"Perception check" command:"roll expression:d20" scope:channel',
            "/as bob",
            '/macro run name:"perception check"',
        ],
        tmp_path / "macros.db",
        "--json",
    )
    assert result.returncode == 0, result.stderr
    replies = [json.loads(line) for line in result.stdout.splitlines()]
    form = replies[5]["content"]
    assert "(a form opened: Macro: brew)" in form and "difficulty:\n    Challenging" in form
    assert "no field `nope`" in replies[6]["content"]
    assert replies[7]["embeds"][0]["title"].endswith("— brew")
    assert any("Routine" in f["value"] for f in replies[7]["embeds"][0]["fields"])
    assert replies[8]["buttons"] == ["brew"]
    assert replies[10]["content"] == "Only Hermione's player or a GM can use this panel."
    assert "No form is open for you" in replies[11]["content"]
    assert replies[-1]["embeds"][0]["title"].startswith("🎲")
