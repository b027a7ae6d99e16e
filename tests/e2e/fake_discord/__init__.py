"""A local stand-in for Discord's REST API and gateway, for end-to-end tests (test code only).

Usage::

    async with FakeDiscord(channels=20) as fake:
        bot = BotProcess(fake, database_url)   # tests/e2e/process.py
        ...
        await fake.wait_ready()
        result = await fake.interact("roll", expression="2d6")
        assert result.embeds
"""

from tests.e2e.fake_discord.server import FakeDiscord, InteractionResult, Request

__all__ = ["FakeDiscord", "InteractionResult", "Request"]
