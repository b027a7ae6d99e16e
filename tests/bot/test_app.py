"""The bot factory: one bot for run, console and tests; sync only where it is asked for."""

from __future__ import annotations

import gc
from unittest.mock import AsyncMock

import discord
import pytest

from bot.app import GC_GEN0_THRESHOLD, NarratorBot, create_bot, freeze_long_lived_objects
from bot.cogs import EXTENSIONS
from bot.gateway import NarratorTree
from bot.hosting.config import Settings
from engine.dice import ScriptedDice, SecureDice


def _bot(settings: Settings, **kwargs: object) -> NarratorBot:
    bot = create_bot(settings, **kwargs)  # type: ignore[arg-type]
    bot.db.upgrade_async = AsyncMock()  # type: ignore[method-assign]
    bot.load_extension = AsyncMock()  # type: ignore[method-assign]
    bot.tree.sync = AsyncMock(return_value=[])  # type: ignore[method-assign]
    return bot


def test_defaults_to_secure_dice_and_our_tree(settings: Settings) -> None:
    bot = create_bot(settings)
    assert isinstance(bot.dice, SecureDice)
    assert isinstance(bot.tree, NarratorTree)
    assert bot.intents.members and not bot.intents.message_content
    scripted = ScriptedDice([1])
    assert create_bot(settings, dice=scripted).dice is scripted


async def test_start_migrates_loads_every_cog_and_does_not_sync_globally(
    settings: Settings,
) -> None:
    bot = _bot(settings)
    await bot.setup_hook()
    bot.db.upgrade_async.assert_awaited_once()
    assert [call.args[0] for call in bot.load_extension.await_args_list] == list(EXTENSIONS)
    bot.tree.sync.assert_not_awaited()


async def test_dev_guild_gets_an_instant_sync_and_nothing_else(settings: Settings) -> None:
    bot = _bot(settings.model_copy(update={"dev_guild_id": 42}))
    await bot.setup_hook()
    bot.tree.sync.assert_awaited_once()
    guild = bot.tree.sync.await_args.kwargs["guild"]
    assert isinstance(guild, discord.Object) and guild.id == 42


@pytest.mark.parametrize("extension", EXTENSIONS)
def test_every_extension_is_importable(extension: str) -> None:
    import importlib

    assert callable(importlib.import_module(extension).setup)


async def test_freezing_at_ready_freezes_the_heap_and_collects_young_objects_less_often() -> None:
    """``narrator run``'s READY listener: the heap alive then out of the collector's walk,
    the young generation collected every GC_GEN0_THRESHOLD net new objects, not 700."""
    threshold = gc.get_threshold()
    try:
        await freeze_long_lived_objects()
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold() == (GC_GEN0_THRESHOLD, *threshold[1:])
        assert threshold[0] < GC_GEN0_THRESHOLD
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)
