"""A local stand-in for Discord's REST API and gateway, for end-to-end tests (test code only).

Usage::

    async with FakeDiscord(channels=20) as fake:
        bot = BotProcess(fake, database_url, workdir)   # tests/e2e/process.py
        try:
            await bot.start()                  # narrator run; waits for READY + GUILD_CREATE
            result = await fake.interact("roll", user="alice", expression="2d6")
            assert result.embeds
            start = await fake.interact("init start", user="gm")
            pressed = await fake.click(start.message, user="gm", label="Next")  # a button
            await fake.disconnect(4000)        # the bot RESUMEs; missed events are replayed
        finally:
            await bot.kill()
"""

from tests.e2e.fake_discord.server import FakeDiscord, InteractionResult, Request

__all__ = ["FakeDiscord", "InteractionResult", "Request"]
