"""``kill -9`` in the middle of a burst loses no acknowledged change and half-applies none.

The bot answers only after its unit of work committed, so every interaction whose callback
reached Discord must be in the database after a crash, and a change either happened whole
or not at all. The stand-in sends state-changing commands across 20 channels to a process
that SIGKILLs itself (no clean-up, no flush) just before its next durable write once a third
of the burst was written (a test hook in tests/e2e/netaudit/sitecustomize.py: the kill is
timed by the bot's own progress, not by what an observer saw, so it lands mid-burst however
loaded the machine). It is then restarted on the same database, which is checked against the
callbacks.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import signal
import sqlite3
import time
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from bot.gateway import ANSWERED_PRIVATELY, VERY_BUSY
from tests.e2e.conftest import migrated_copy
from tests.e2e.fake_discord import FakeDiscord, InteractionResult
from tests.e2e.fake_discord.payloads import DISCORD_EPOCH_MS
from tests.e2e.fake_discord.results import EPHEMERAL
from tests.e2e.process import BotProcess

ROUNDS = 10  # commands per channel
CODA_ONES = ("fumble", "failure", "complete-failure")
HEALTH = 500
RETRIES = 20  # rounds of retrying the commands turned away as "very busy"
FAILSAFE = 120.0  # seconds a wait lasts before the test gives up (never reached when it works)
KILL_HOOK = "NARRATOR_TEST_KILL_AFTER_WRITES"  # see tests/e2e/netaudit/sitecustomize.py

pytestmark = pytest.mark.e2e


def _db(bot: BotProcess) -> sqlite3.Connection:
    path = bot.database_url.removeprefix("sqlite+aiosqlite:///")
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True)


async def _setup(fake: FakeDiscord, channels: list[int], kinds: list[str]) -> None:
    """Characters with Health and an encounter per channel, for the kinds that exist."""
    for index, channel in enumerate(channels):
        if "resource" in kinds:
            await _done(
                fake,
                "sheet create",
                channel=channel,
                user="alice",
                name=f"Hero {index}",
                system="coda",
            )
            await _done(
                fake,
                "sheet resource",
                channel=channel,
                user="alice",
                name="Health",
                current=HEALTH,
                max=1000,
            )
        if "init" in kinds:
            await _done(fake, "init start", channel=channel, user="gm", system="coda")
            boss = await _done(fake, "init add", channel=channel, user="gm", name="Boss", roll=20)
            assert not boss.ephemeral, boss.callback


async def _done(fake: FakeDiscord, command: str, /, **options: object) -> InteractionResult:
    """A set-up command, answered at once or (on a loaded machine) deferred and followed up."""
    result = await fake.interact(command, **options)  # type: ignore[arg-type]
    if result.callback_type == 5:
        await result.wait(FAILSAFE, followups=1)
    assert result.callback_status == 200, result.callback
    answer = result.data if result.callback_type == 4 else result.followups[0]
    assert answer.get("embeds") or answer.get("content"), result.callback
    return result


def _plan(fake: FakeDiscord, channels: list[int], kinds: list[str]) -> list[tuple[str, dict]]:
    """(kind, INTERACTION_CREATE) in sending order: round by round over the channels."""
    plan: list[tuple[str, dict]] = []
    for round_ in range(ROUNDS):
        for index, channel in enumerate(channels):
            number = len(plan)
            if round_ == 0:
                kind, payload = (
                    "rule",
                    fake.command_payload(
                        "settings rule",
                        channel=channel,
                        user="gm",
                        name="coda.ones",
                        value=CODA_ONES[index % 3],
                    ),
                )
            elif round_ == 1:
                kind, payload = (
                    "rule2",
                    fake.command_payload(
                        "settings rule",
                        channel=channel,
                        user="gm",
                        name="drama.criticals",
                        value="on",
                    ),
                )
            else:
                kind = kinds[(round_ + index) % len(kinds)]
                if kind == "roll":
                    payload = fake.command_payload(
                        "roll", channel=channel, expression="3d6", label=f"crash-{number}"
                    )
                elif kind == "resource":
                    payload = fake.command_payload(
                        "sheet resource", channel=channel, user="alice", name="Health", change=-1
                    )
                elif kind == "init":
                    payload = fake.command_payload(
                        "init add", channel=channel, user="gm", name=f"Mook {number}", roll=10
                    )
                else:
                    payload = fake.command_payload("init next", channel=channel, user="gm")
            plan.append((kind, payload))
    return plan


@pytest.mark.asyncio
async def test_kill_9_mid_burst_keeps_every_acknowledged_change(
    tmp_path: Path, migrated_template: Path
) -> None:
    async with FakeDiscord(channels=20) as fake:
        # The most patient admission (bot.gateway._admission): on a loaded machine a lagging
        # bot would turn more of the burst away as "very busy" (such answers save nothing).
        bot = BotProcess(
            fake,
            migrated_copy(migrated_template, tmp_path),
            tmp_path,
            name="crash",
            env={"BUSY_AFTER": "2.5"},
        )
        try:
            await bot.start()
            channels = fake.table.channel_ids
            kinds = ["roll"]
            if fake.has_command("sheet create") and fake.has_command("sheet resource"):
                kinds.append("resource")
            if fake.has_command("init start") and fake.has_command("init add"):
                kinds.append("init")
                if fake.has_command("init next"):
                    kinds.append("next")
            await _setup(fake, channels, kinds)
            plan = _plan(fake, channels, kinds)

            # Same database, a process armed to kill itself before its (kill_after + 1)-th
            # durable write: every command of the burst writes once, so the kill lands with
            # about three quarters of the burst neither written nor answered.
            await bot.stop()
            kill_after = len(plan) // 4
            bot.extra_env[KILL_HOOK] = str(kill_after)
            await bot.start()

            def alive() -> bool:
                return bot.process is not None and bot.process.returncode is None

            sent: dict[int, tuple[str, InteractionResult]] = {}
            for index, (kind, payload) in enumerate(plan):
                if not alive():
                    break
                sent[index] = (kind, fake.send(_sent_now(payload), kind))
                await asyncio.sleep(0.002)
            # A command turned away ("very busy": a loaded machine fell behind) writes
            # nothing; its user tries again, as a player would, until the kill has landed.
            for _ in range(RETRIES):
                await fake._wait_state(
                    lambda: (
                        not alive() or all(r.callback_status is not None for _k, r in sent.values())
                    ),
                    FAILSAFE,
                    "the burst's answers",
                )
                if not alive():
                    break
                for index, (kind, result) in list(sent.items()):
                    if turned_away(result):
                        sent[index] = (kind, fake.send(_sent_now(plan[index][1]), kind))
            # A failsafe only: the process kills itself as soon as it made its writes.
            returncode = await asyncio.wait_for(bot.process.wait(), FAILSAFE)  # type: ignore[union-attr]
            assert returncode == -signal.SIGKILL, bot.log_tail()
            del bot.extra_env[KILL_HOOK]
            # Nothing can be acknowledged past the kill's write. (On a loaded machine the
            # commands written before it may all still be waiting for their answers.)
            burst = list(sent.values())
            assert sum(_acknowledged(r) for _k, r in burst) < len(plan)

            await bot.start()  # same database: SQLite recovers its WAL
            on_disk = _check_database(bot, fake, burst)
            assert 0 < on_disk < len(plan), f"the kill landed mid-burst: {on_disk} written"

            after = await fake.interact("roll", channel=channels[0], expression="1d6")
            assert after.callback_status == 200 and after.embeds
            assert bot.foreign_contacts({fake.port}) == set()
            assert fake.unknown == [] and fake.rejected == []
        finally:
            await bot.kill()


def _check_database(
    bot: BotProcess, fake: FakeDiscord, sent: list[tuple[str, InteractionResult]]
) -> int:
    """Check the database against the callbacks; the number of the burst's changes in it."""
    with _db(bot) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        rolls = {
            label: (expr, faces, outcome)
            for label, expr, faces, outcome in db.execute(
                "SELECT label, input, faces, outcome FROM roll_log WHERE label LIKE 'crash-%'"
            )
        }
        labels = Counter(
            row[0] for row in db.execute("SELECT label FROM roll_log WHERE label LIKE 'crash-%'")
        )
        rules = {
            int(channel): json.loads(text)
            for channel, text in db.execute("SELECT channel_id, rules FROM channel_settings")
        }
        health: dict[int, int] = {}
        if any(kind == "resource" for kind, _ in sent):
            for channel, resources in db.execute(
                "SELECT a.channel_id, c.resources FROM active_characters a "
                "JOIN characters c ON c.id = a.character_id WHERE a.user_id = ?",
                (fake.user_id("alice"),),
            ):
                health[int(channel)] = int(json.loads(resources)["Health"]["current"])
        encounters: dict[int, str] = {}
        if any(kind in ("init", "next") for kind, _ in sent):
            for channel, state in db.execute(
                "SELECT channel_id, state FROM initiative_encounters WHERE status = 'active'"
            ):
                encounters[int(channel)] = state

    assert all(count == 1 for count in labels.values()), "a roll was logged twice"
    for label, (expression, faces, outcome) in rolls.items():
        assert expression and outcome and json.loads(faces), f"half-written roll {label}"

    # Changes that add up: per channel, applied must lie between answered and sent.
    counted_sent: dict[tuple[str, int], int] = defaultdict(int)
    counted_acked: dict[tuple[str, int], int] = defaultdict(int)
    for kind, result in sent:
        channel = int(result.payload["channel_id"])
        options = {o["name"]: o.get("value") for o in _leaf_options(result.payload)}
        ok = _acknowledged(result)
        if kind == "roll":
            label = options["label"]
            if turned_away(result):
                assert label not in rolls, f"{label} was turned away, yet it is in the roll log"
            if ok:
                assert label in rolls, f"acknowledged {label} is not in the roll log"
                title = _answer(result)["embeds"][0].get("title") or ""
                assert re.findall(r"-?\d+", title)[0] == rolls[label][2], title
        elif kind == "rule" and ok:
            assert rules[channel]["coda.ones"] == options["value"]
        elif kind == "rule2" and ok:
            assert rules[channel]["drama.criticals"] == "on"
        elif kind in ("resource", "next"):
            counted_sent[kind, channel] += 1
            counted_acked[kind, channel] += ok
        elif kind == "init" and ok:
            assert options["name"] in encounters[channel], f"acknowledged {options['name']} lost"
    on_disk = len(rolls)
    on_disk += sum("coda.ones" in r for r in rules.values())
    on_disk += sum(r.get("drama.criticals") == "on" for r in rules.values())
    on_disk += sum(len(set(re.findall(r"Mook \d+", state))) for state in encounters.values())
    for (kind, channel), count in counted_sent.items():
        if kind == "resource":
            applied = HEALTH - health[channel]
        else:
            log = json.loads(encounters[channel]).get("log", [])
            applied = sum(1 for event in log if event.get("type") == "next")
        assert counted_acked[kind, channel] <= applied <= count, (kind, channel, applied, count)
        on_disk += applied
    return on_disk


def _sent_now(payload: dict) -> dict:
    """``payload`` as if Discord created it now (a new id and token): the plan is built before
    the burst, and a retry is a new interaction."""
    ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
    interaction_id = (ms << 22) | (next(_SEQUENCE) & 0x3FFFFF)
    secret = payload["token"].split(".", 1)[1]
    return {**payload, "id": str(interaction_id), "token": f"{interaction_id}.{secret}"}


_SEQUENCE = itertools.count(1)


def _acknowledged(result: InteractionResult) -> bool:
    """The user was told the outcome: a message callback, or a deferral's follow-up.

    A bare deferral ("thinking…", sent when a command has not answered within 1.5 s) says
    nothing about the change yet: it may or may not have been committed before the kill.
    """
    if result.callback_status != 200 or turned_away(result):
        return False
    answers = [result.data] if result.callback_type == 4 else result.followups
    # An error is private ("waited too long... nothing was saved", after a deferral's
    # neutral public line): not an acknowledgement of a change.
    return bool(answers) and not any(
        int(answer.get("flags") or 0) & EPHEMERAL or answer.get("content") == ANSWERED_PRIVATELY
        for answer in answers
    )


def turned_away(result: InteractionResult) -> bool:
    """Answered "very busy, try again" (docs/decisions/admission.md): the command never ran."""
    return result.callback_type == 4 and result.content == VERY_BUSY


def _answer(result: InteractionResult) -> dict:
    return result.data if result.callback_type == 4 else result.followups[0]


def _leaf_options(payload: dict) -> list[dict]:
    options = payload["data"].get("options") or []
    while options and options[0]["type"] in (1, 2):
        options = options[0].get("options") or []
    return options
