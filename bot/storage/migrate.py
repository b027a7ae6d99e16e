"""Run Alembic migrations from code: at bot start-up, by ``narrator migrate`` and in tests."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from alembic import command
from alembic.config import Config

# The migrations ship inside the package (package data), so an installed wheel finds them
# wherever it lives; no alembic.ini is needed at run time.
MIGRATIONS = Path(str(files("bot.storage") / "migrations"))


def alembic_config(url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    # Percent signs in passwords would otherwise be read as interpolation.
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    config.attributes["configure_logger"] = False
    return config


def upgrade_to_head(url: str) -> None:
    """Upgrade to every head: features add migrations on branches of their own."""
    command.upgrade(alembic_config(url), "heads")
