"""deploy/narrator.service and narrator-web.service: hardened as docs/hosting.md says, and
valid for systemd."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

DEPLOY = Path(__file__).parents[1] / "deploy"
UNIT = DEPLOY / "narrator.service"
WEB_UNIT = DEPLOY / "narrator-web.service"


def directives(unit: Path = UNIT) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for line in unit.read_text().splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, value = line.split("=", 1)
            found.setdefault(key.strip(), []).append(value.strip())
    return found


def test_the_unit_is_hardened() -> None:
    unit = directives()
    assert unit["User"] == ["narrator"] and unit["Group"] == ["narrator"]
    assert unit["NoNewPrivileges"] == ["yes"]
    assert unit["ProtectSystem"] == ["strict"]
    assert unit["StateDirectory"] == ["narrator"]
    assert unit["ReadWritePaths"] == ["/var/lib/narrator"] == unit["WorkingDirectory"]
    assert unit["Restart"] == ["on-failure"]
    assert unit["RestartPreventExitStatus"] == ["2"]  # a bad setting: restarting won't help
    assert unit["ExecStart"] == ["/opt/narrator/bin/narrator run"]
    assert unit["CapabilityBoundingSet"] == [""]


def test_the_web_unit_is_the_bots_hardening_running_narrator_web() -> None:
    bot, web = directives(), directives(WEB_UNIT)
    assert web["ExecStart"] == ["/opt/narrator/bin/narrator web"]
    assert {k: v for k, v in web.items() if k not in ("ExecStart", "Description", "After")} == {
        k: v for k, v in bot.items() if k not in ("ExecStart", "Description", "After")
    }


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze here")
@pytest.mark.parametrize("unit", [UNIT, WEB_UNIT], ids=lambda unit: unit.name)
def test_systemd_analyze_verify(tmp_path: Path, unit: Path) -> None:
    # The program is not installed under /opt here: point ExecStart at an executable that is.
    narrator = Path(sys.executable).with_name("narrator")
    text = unit.read_text().replace("/opt/narrator/bin/narrator", str(narrator))
    copy = tmp_path / unit.name
    copy.write_text(text)
    result = subprocess.run(
        ["systemd-analyze", "verify", str(copy)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    # verify also prints (and exits 0 on) unknown keys and bad values: demand silence.
    assert result.returncode == 0 and result.stdout + result.stderr == "", result.stderr
