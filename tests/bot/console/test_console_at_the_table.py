"""The console as a process: buttons after a private reply, readable mentions and
times, a closed pipe, line editing at a terminal, and saving the files the bot sends."""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import time
from pathlib import Path

from bot.console._text import readable
from tests.bot.console.test_console import NARRATOR, run_console


def replies(result: subprocess.CompletedProcess[str]) -> list[dict]:
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_click_finds_the_button_past_a_private_reply(tmp_path: Path) -> None:
    result = run_console(
        [
            "/init start",
            "/sheet create name:X system:coda",
            "/sheet delete character:X",  # a private reply with Delete / Cancel
            "/click Next",  # the tracker's button, on an older, public message
            "/click Cancel",  # and the private one still works
        ],
        tmp_path / "click.db",
        "--json",
    )
    shown = replies(result)
    assert "error" not in shown[-2], shown[-2]
    assert "Nobody is in the encounter yet" in shown[-2]["content"]
    assert "error" not in shown[-1], shown[-1]


def test_click_names_the_labels_when_none_matches(tmp_path: Path) -> None:
    result = run_console(["/init start", "/click Onwards"], tmp_path / "none.db", "--json")
    last = replies(result)[-1]
    assert last.get("error") and "Next" in last["content"]


def test_text_shows_mentions_as_names_and_times_as_times(tmp_path: Path) -> None:
    result = run_console(
        [
            "/as alice",
            "/sheet create name:William system:drama",
            "/as gm",
            "/penalty add character:William amount:1",
            "/penalty show character:William",
            "/sheet show character:William",
        ],
        tmp_path / "names.db",
    )
    assert result.returncode == 0, result.stderr
    assert "<@" not in result.stdout and "<t:" not in result.stdout
    assert "by @gm" in result.stdout and "played by @alice" in result.stdout
    assert "seconds ago" in result.stdout or "second ago" in result.stdout


def test_readable_formats_every_kind_of_markup() -> None:
    from datetime import UTC, datetime

    now = datetime(2026, 11, 23, 12, tzinfo=UTC)
    names = {1: "@alice", 2: "#table", 3: "@GM"}
    then = int(datetime(2026, 11, 23, 11, 57, tzinfo=UTC).timestamp())
    text = f"<@1> <@!1> <#2> <@&3> <@9> <t:{then}:R> <t:{then}:f> <t:{then + 7200}:R>"
    assert readable(text, names, now) == (
        "@alice @alice #table @GM @unknown-user 3 minutes ago 2026-11-23 11:57 UTC in 1 hour"
    )


def test_piping_into_head_ends_quietly(tmp_path: Path) -> None:
    lines = "\n".join(["/roll expression:2d6"] * 40) + "\n"
    database = tmp_path / "pipe.db"
    command = (
        f"'{NARRATOR}' console --db 'sqlite+aiosqlite:///{database}' 2>'{tmp_path}/err' | head -n 2"
    )
    result = subprocess.run(
        ["bash", "-c", command], input=lines, capture_output=True, text=True, timeout=120
    )
    assert len(result.stdout.splitlines()) == 2
    errors = (tmp_path / "err").read_text()
    assert "BrokenPipeError" not in errors and "Traceback" not in errors, errors


def test_save_files_lets_an_export_be_imported_back(tmp_path: Path) -> None:
    saved = tmp_path / "sheets"
    result = run_console(
        [
            "/as alice",
            "/sheet create name:Hermione system:coda",
            "/sheet set attribute:Wits value:3",
            "/sheet export",
            "/sheet set attribute:Wits value:1",
            f"/sheet import file:{saved / 'Hermione.json'} replace:true",
            "/sheet show",
        ],
        tmp_path / "files.db",
        "--json",
        "--save-files",
        str(saved),
    )
    shown = replies(result)
    assert shown[3]["attachments"] == ["Hermione.json"]
    assert shown[3]["saved"] == [str(saved / "Hermione.json")]
    assert json.loads((saved / "Hermione.json").read_text())["attributes"] == {"Wits": 3}
    assert "Wits **3**" in json.dumps(shown[-1], ensure_ascii=False)


class _Terminal:
    """What the console wrote to the pseudo-terminal, read as it comes. Each wait looks for
    its text after what earlier waits consumed, in everything read so far: one read can hold
    a reply and the next prompt, and a prompt read with the reply is not waited for again
    (which cost a full timeout)."""

    def __init__(self, fd: int) -> None:
        self.fd, self.seen, self.consumed = fd, b"", 0

    def until(self, wanted: bytes, timeout: float = 60.0) -> bytes:
        deadline = time.monotonic() + timeout
        while wanted not in self.seen[self.consumed :] and time.monotonic() < deadline:
            ready, _, _ = select.select([self.fd], [], [], 0.5)
            if ready:
                try:
                    chunk = os.read(self.fd, 4096)
                except OSError:
                    break
                if not chunk:
                    break
                self.seen += chunk
        start = self.consumed
        found = self.seen.find(wanted, start)
        self.consumed = len(self.seen) if found < 0 else found + len(wanted)
        return self.seen[start : self.consumed]


def test_a_terminal_gets_line_editing_and_history(tmp_path: Path) -> None:
    history = tmp_path / "history"
    controller, terminal = pty.openpty()
    process = subprocess.Popen(
        [str(NARRATOR), "console", "--db", f"sqlite+aiosqlite:///{tmp_path / 'tty.db'}"],
        stdin=terminal,
        stdout=terminal,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "NARRATOR_HISTORY": str(history), "TERM": "xterm"},
        close_fds=True,
    )
    os.close(terminal)
    try:
        screen = _Terminal(controller)
        assert b"gm@#table> " in screen.until(b"gm@#table> ")
        os.write(controller, b"/whoi\x1b[Dam\r")  # a letter put back with the arrow keys
        first = screen.until(b"(GM) in #table.")
        assert b"You are gm (GM) in #table." in first
        screen.until(b"gm@#table> ")  # the next prompt (read with the reply, often)
        os.write(controller, b"\x1b[A\r")  # up arrow: the last line again
        again = screen.until(b"(GM) in #table.")
        assert b"You are gm (GM) in #table." in again
        os.write(controller, b"/quit\r")
        assert process.wait(timeout=60) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(controller)
    assert "/whoami" in history.read_text()
