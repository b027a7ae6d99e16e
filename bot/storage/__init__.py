"""Persistence: SQLAlchemy 2 async models and repositories. Nothing above this layer writes SQL."""

from bot.storage.db import Database

__all__ = ["Database"]
