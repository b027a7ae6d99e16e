"""Every ``/help`` example runs when typed into the console: each command's examples in a
fresh console, after the lines that set its scene (sheets, an export to import). Each must be
read, its options converted and run without a bug; a refusal that only says the scene lacks
something (no encounter, no match, no such sheet) is left to ``SCENES`` to provide."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.render.help_examples import EXAMPLES
from tests.bot.console.inprocess import console_session

HERMIONE = [
    "/as alice",
    "/sheet create name:Hermione system:coda",
    "/sheet set attribute:Wits value:3",
    "/sheet skill name:Potions ranks:3 attribute:Wits specialty:Brewing",
]
SCENES: dict[str, list[str]] = {
    "": [*HERMIONE, "/as gm"],
    "sheet import": [*HERMIONE, "/sheet export character:Hermione"],
}


def scene(command: str) -> list[str]:
    """The lines before ``command``'s examples: the longest matching prefix's."""
    prefix = max((p for p in SCENES if command.startswith(p)), key=len)
    return SCENES[prefix]


@pytest.mark.parametrize("command", sorted(EXAMPLES))
async def test_every_help_example_runs_in_the_console(
    command: str,
    migrated_template: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    warm_charts: None,
) -> None:
    monkeypatch.chdir(tmp_path)  # where the scene's exports are saved
    failed = []
    async with console_session(migrated_template, tmp_path, monkeypatch) as session:
        for line in scene(command):
            assert await session.failures(line) == [], line
        for typed, _ in EXAMPLES[command]:
            failures = await session.failures(typed, bugs_only=True)
            failed += [f"{typed}\n    → {why}" for why in failures]
    assert not failed, "\n".join(failed)
