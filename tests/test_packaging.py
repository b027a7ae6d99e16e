"""The shipped package: a wheel installed in a fresh virtual environment works from anywhere.

The wheel is built offline from a copy of the sources; the fresh venv gets it with
``--no-deps`` and borrows the project venv's dependencies through a ``.pth`` line (a plain
path: the project's editable install is not activated there), so the test needs no network
and proves that nothing outside the wheel (alembic.ini, migrations/, the clone) is needed.
"""

from __future__ import annotations

import json
import os
import shutil
import site
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.process import BotProcess

ROOT = Path(__file__).parents[1]
# e2e too: its wheel's bot answers the stand-in in real time, so make check runs it with the
# end-to-end tests, not beside CPU-heavy ones.
pytestmark = [pytest.mark.slow, pytest.mark.e2e]


def _run(args: list[str], cwd: Path, **kwargs: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
        **kwargs,  # type: ignore[arg-type]
    )


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with the built wheel in it; returns its bin directory."""
    base = tmp_path_factory.mktemp("packaging")
    source = base / "source"
    source.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in ("bot", "engine"):
        shutil.copytree(ROOT / name, source / name, ignore=ignore)
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy(ROOT / name, source / name)
    wheels = base / "wheels"
    built = _run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(wheels),
            str(source),
        ],
        cwd=base,
    )
    assert built.returncode == 0, built.stderr
    (wheel,) = wheels.glob("narrator-*.whl")

    venv = base / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], cwd=base).check_returncode()
    (venv_site,) = (venv / "lib").glob("python3*/site-packages")
    (venv_site / "_project_dependencies.pth").write_text(site.getsitepackages()[0] + "\n")
    pip = _run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(venv / "bin" / "python"),
            "install",
            "--no-deps",
            "-q",
            str(wheel),
        ],
        cwd=base,
    )
    assert pip.returncode == 0, pip.stderr
    return venv / "bin"


def clean_env(**extra: str) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DISCORD_", "DATABASE_", "DEV_GUILD", "METRICS_", "PYTHON"))
    }
    env.update(extra)
    return env


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    """Somewhere far from the clone, with no .env."""
    path = tmp_path / "elsewhere"
    path.mkdir()
    return path


def test_the_wheel_carries_compiled_translations(installed: Path, workdir: Path) -> None:
    """The build compiles each ``.po`` into a ``.mo`` (never committed), and the installed bot
    reads it: Spanish from the compiled catalog, whatever order the install wrote the files
    in, not from the ``.po`` compiled in memory."""
    code = (
        "from bot.i18n import _catalogs, use_language, _\n"
        "po, mo = _catalogs.catalog_paths('es')\n"
        "print(mo.is_file(), _catalogs.catalog('es').pgettext("
        "_catalogs.DIGEST_CONTEXT, _catalogs.DIGEST_ID) == _catalogs.po_digest(po))\n"
        "_catalogs.compile_po = None  # the .mo must be enough\n"
        "with use_language('es'):\n"
        "    print(_('Channel settings'))\n"
    )
    shown = _run([str(installed / "python"), "-c", code], cwd=workdir, env=clean_env())
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.split("\n")[:2] == ["True True", "Configuración del canal"]


def test_the_wheel_carries_its_migrations_and_runs_them(installed: Path, workdir: Path) -> None:
    where = _run(
        [
            str(installed / "python"),
            "-c",
            "import bot.storage.migrate as m; print(m.__file__); print(m.MIGRATIONS)",
        ],
        cwd=workdir,
        env=clean_env(),
    )
    module, migrations = where.stdout.split()
    assert module.startswith(str(installed.parent)), module  # not the clone's sources
    assert (Path(migrations) / "versions" / "0001_foundation.py").is_file()

    migrated = _run([str(installed / "narrator"), "migrate"], cwd=workdir, env=clean_env())
    assert migrated.returncode == 0, migrated.stderr
    assert migrated.stderr == ""  # no alembic INFO chatter
    assert migrated.stdout == "sqlite+aiosqlite:///data/narrator.db is at the newest schema\n"
    assert (workdir / "data" / "narrator.db").is_file()


def test_console_roll(installed: Path, workdir: Path) -> None:
    result = _run(
        [str(installed / "narrator"), "console", "--json"],
        cwd=workdir,
        env=clean_env(),
        input="/roll expression:2d6+3\n",
    )
    assert result.returncode == 0, result.stderr
    (reply,) = [json.loads(line) for line in result.stdout.splitlines()]
    assert reply["embeds"] and "2d6" in reply["embeds"][0]["description"]


def test_host_commands_as_documented(installed: Path, workdir: Path) -> None:
    narrator = str(installed / "narrator")
    env = clean_env(DISCORD_CLIENT_ID="123456789012345678")
    invite = _run([narrator, "invite"], cwd=workdir, env=env)
    assert invite.stdout.startswith("https://discord.com/oauth2/authorize?client_id=1234")

    assert _run([narrator, "migrate"], cwd=workdir, env=env).returncode == 0
    doctor = _run(
        [narrator, "doctor"],
        cwd=workdir,
        env=env
        | {
            "DISCORD_TOKEN": "MTIzNDU2Nzg5MDEyMzQ1Njc4.GhIjKl." + "x" * 38,
            "DISCORD_API_BASE": "http://127.0.0.1:1/api/v10",
            "DISCORD_GATEWAY_URL": "ws://127.0.0.1:1",
        },
    )
    assert doctor.returncode == 0, doctor.stdout + doctor.stderr
    assert "could not reach Discord" in doctor.stdout

    backup = _run([narrator, "backup", "backups/narrator-1.db"], cwd=workdir, env=env)
    assert backup.returncode != 0  # the directory does not exist: one line, no traceback
    assert "Traceback" not in backup.stderr and backup.stderr.count("\n") == 1
    (workdir / "backups").mkdir()
    backup = _run([narrator, "backup", "backups/narrator-1.db"], cwd=workdir, env=env)
    assert backup.returncode == 0, backup.stderr
    restore = _run([narrator, "restore", "backups/narrator-1.db"], cwd=workdir, env=env)
    assert restore.returncode == 0, restore.stderr

    copy = _run(
        [narrator, "copy-db", "--to", "sqlite+aiosqlite:///data/copy.db"], cwd=workdir, env=env
    )
    assert copy.returncode == 0, copy.stderr
    assert "every table's row count matches" in copy.stdout


@pytest.mark.asyncio
async def test_run_and_sync_from_the_wheel(installed: Path, workdir: Path) -> None:
    async with FakeDiscord(channels=2) as fake:
        sync = await _async_run(
            [str(installed / "narrator"), "sync"],
            cwd=workdir,
            env=clean_env(**{k: v for k, v in fake.bot_env().items() if k != "DEV_GUILD_ID"}),
        )
        assert sync[0] == 0, sync[1]
        assert "synced" in sync[1] and fake.has_command("roll")
        bot = BotProcess(
            fake,
            f"sqlite+aiosqlite:///{workdir / 'run.db'}",
            workdir,
            script=installed / "narrator",
            env={"PYTHONPATH": ""},
        )
        try:
            await bot.start()
            result = await fake.interact("roll", channel=fake.channel(1), expression="1d6")
            assert result.embeds
        finally:
            await bot.stop()


async def _async_run(args: list[str], cwd: Path, env: dict[str, str]) -> tuple[int, str]:
    import asyncio

    process = await asyncio.create_subprocess_exec(
        *args,
        cwd=cwd,
        env=env,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    output, _ = await asyncio.wait_for(process.communicate(), 120)
    return process.returncode or 0, output.decode()
