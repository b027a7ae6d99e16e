"""Run Alembic migrations from code: at bot start-up, by ``narrator migrate`` and in tests."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config

PROJECT_ROOT = Path(__file__).resolve().parents[2]


def alembic_config(url: str) -> Config:
    config = Config(str(PROJECT_ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(PROJECT_ROOT / "migrations"))
    # Percent signs in passwords would otherwise be read as interpolation.
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    config.attributes["configure_logger"] = False
    return config


def upgrade_to_head(url: str) -> None:
    """Upgrade to every head: features add migrations on branches of their own."""
    command.upgrade(alembic_config(url), "heads")
