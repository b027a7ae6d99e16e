"""The engine is a library: importable and usable without discord, SQLAlchemy or I/O."""

from __future__ import annotations

import pkgutil
import subprocess
import sys
from pathlib import Path

import engine

FORBIDDEN = ("discord", "sqlalchemy", "aiosqlite", "asyncpg", "alembic", "bot")


def test_engine_imports_nothing_from_discord_or_the_database() -> None:
    modules = [info.name for info in pkgutil.walk_packages(engine.__path__, prefix="engine.")]
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}: importlib.import_module(name)\n"
        f"bad = sorted(m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r})\n"
        "print(','.join(bad))\n"
    )
    root = Path(engine.__file__).resolve().parents[1]
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=root, check=True
    )
    assert modules, "no engine modules found"
    assert result.stdout.strip() == ""
