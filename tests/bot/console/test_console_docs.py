"""Every console line of the documentation runs: the ``text`` blocks of README.md and
docs/*.md that hold console lines are typed into a fresh console each (fresh database), in
order, and none may be refused or fail, unless the block shows that very refusal under it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.bot.console.inprocess import console_session

# Slow tier: a console per docs block; the fast tier runs the console itself (test_console*).
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[3]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_FENCE = re.compile(r"^```text\n(.*?)^```", re.S | re.M)
_PROMPT = re.compile(r"^\w+@#[\w-]+> ")


def console_lines(block: str) -> list[tuple[str, str]]:
    """The lines typed in a block: those starting with / (after a ``user@#channel>``
    prompt, if shown), without the notes written beside them after two spaces; each with
    the reply the block shows under it."""
    lines: list[tuple[str, str]] = []
    for raw in block.splitlines():
        line = _PROMPT.sub("", raw)
        if line.startswith("/"):
            lines.append((re.split(r"\s{2,}", line.rstrip(), maxsplit=1)[0], ""))
        elif lines:  # a reply shown under the line typed
            lines[-1] = (lines[-1][0], f"{lines[-1][1]}\n{line}")
    return lines


def shown(why: str, reply: str) -> bool:
    """Whether the block shows this refusal (its first words) under the line."""
    return why[:40] in reply


def blocks() -> list[pytest.ParameterSet]:
    found = []
    for document in DOCUMENTS:
        text = document.read_text(encoding="utf-8")
        for match in _FENCE.finditer(text):
            lines = console_lines(match.group(1))
            if lines:
                where = f"{document.name}:{text[: match.start()].count(chr(10)) + 1}"
                found.append(pytest.param(lines, id=where))
    return found


def test_the_documents_have_console_examples() -> None:
    assert len(blocks()) >= 10


@pytest.mark.parametrize("lines", blocks())
async def test_every_console_line_of_the_docs_runs(
    lines: list[tuple[str, str]],
    migrated_template: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    warm_charts: None,
) -> None:
    failed = []
    async with console_session(migrated_template, tmp_path, monkeypatch) as session:
        for line, reply in lines:
            failures = await session.failures(line)
            failed += [f"{line}\n    → {why}" for why in failures if not shown(why, reply)]
    assert not failed, "\n".join(failed)
