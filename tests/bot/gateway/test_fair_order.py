"""Fair order at the gateway (bot.gateway._fair): when many interactions arrive at once, one
user's burst does not hold back another user's command. discord.py parses every event waiting
in its socket's buffer in one step of the event loop; here the bot's gateway hook is handed a
burst the same way (SimCord's payloads, held back then delivered together), and the order the
command tree starts the commands in is what decides who waits (no clock involved)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from types import SimpleNamespace
from typing import Any

import pytest

from bot.gateway import Admission, install_interaction_hook
from bot.gateway import _admission as admission_module
from bot.gateway._admission import DISCORD_EPOCH_MS
from bot.gateway._fair import LINE_PATIENCE, FairDispatch
from bot.internals import gateway_parsers
from bot.services.languages import LanguageChoices
from tests.conftest import Table, embed_of


@contextmanager
def held(table: Table) -> Iterator[list[dict[str, Any]]]:
    """The INTERACTION_CREATE payloads SimCord sends meanwhile, kept from the bot."""
    parsers = gateway_parsers(table.bot)
    hook = parsers["INTERACTION_CREATE"]
    payloads: list[dict[str, Any]] = []
    parsers["INTERACTION_CREATE"] = payloads.append
    try:
        yield payloads
    finally:
        parsers["INTERACTION_CREATE"] = hook


@contextmanager
def started(table: Table) -> Iterator[list[tuple[int, int]]]:
    """(user id, interaction id) of each command the tree starts, in the order it starts them."""
    order: list[tuple[int, int]] = []
    tree = table.bot.tree
    check = tree.interaction_check

    async def recorded(interaction: Any) -> bool:
        order.append((interaction.user.id, interaction.id))
        return await check(interaction)

    tree.interaction_check = recorded  # type: ignore[method-assign]
    try:
        yield order
    finally:
        del tree.interaction_check


async def deliver_at_once(table: Table, payloads: list[dict[str, Any]]) -> None:
    """The burst in one step of the event loop, as discord.py parses a buffered socket."""
    for payload in payloads:  # SimCord's gateway hands each to the bot's hook, in order
        table.env.backend.emit("INTERACTION_CREATE", payload)
    await table.env.settle()


async def test_a_burst_does_not_hold_back_another_users_roll(table: Table) -> None:
    with held(table) as burst:
        sent = [await table.alice.slash(table.channel, "roll", expression="1d6") for _ in range(10)]
        sent.append(await table.bob.slash(table.channel, "roll", expression="1d20"))
    with started(table) as order:
        await deliver_at_once(table, burst)
    users = [user for user, _interaction in order]
    # Bob's roll arrived last, behind Alice's ten: it starts third (after her first, handed
    # over at once, and her second), not eleventh.
    assert len(users) == 11 and users.index(table.bob.id) <= 2, users
    # Nothing was dropped or refused: every roll is answered in public.
    assert all(result.acknowledged and not result.ephemeral for result in sent)
    assert str(embed_of(sent[-1]).title).startswith("🎲")


async def test_each_users_commands_start_in_the_order_they_were_sent(table: Table) -> None:
    with held(table) as burst:
        for _ in range(5):
            for player in (table.alice, table.alice, table.bob, table.carol):
                await player.slash(table.channel, "roll", expression="1d6")
    with started(table) as order:
        await deliver_at_once(table, burst)
    assert len(order) == 20
    for player in (table.alice, table.bob, table.carol):
        theirs = [interaction for user, interaction in order if user == player.id]
        assert theirs == sorted(theirs)  # snowflakes grow in the order they were sent
    # And the users take turns: Alice's backlog does not put her ahead of Bob and Carol.
    first_round = {user for user, _interaction in order[1:4]}
    assert first_round == {table.alice.id, table.bob.id, table.carol.id}


def test_a_line_left_on_a_closed_event_loop_does_not_stop_the_next_loop() -> None:
    """The console and a restarted bot bring a new event loop: what waited on the old one is
    gone with it, and the first interaction on the new one goes through at once."""
    fair = FairDispatch()
    ran: list[str] = []

    async def burst_then_stop() -> None:
        fair.submit(1, lambda: ran.append("first"))
        fair.submit(1, lambda: ran.append("queued"))  # same step: lines up, never served

    abandoned = asyncio.new_event_loop()
    abandoned.run_until_complete(burst_then_stop())
    abandoned.close()  # its line is never served

    async def next_loop() -> None:
        fair.submit(2, lambda: ran.append("new loop"))

    asyncio.run(next_loop())
    assert ran == ["first", "new loop"]


async def test_a_backlog_in_the_fair_line_is_told_very_busy(monkeypatch: Any) -> None:
    """``narrator run``'s admission decides as each interaction leaves the fair line, so the
    time it waited there counts: a backlog that waited past BUSY_AGE is told "very busy",
    never handed to discord.py late (decided on arrival, such a backlog went past Discord's
    3 s unanswered). The clock is the test's: no timing involved."""
    seen: list[dict[str, Any]] = []
    parsers: dict[str, Any] = {"INTERACTION_CREATE": seen.append}
    client = SimpleNamespace(_connection=SimpleNamespace(parsers=parsers))
    start = 1_800_000_000.0
    now = [start]
    admission = Admission(wall_clock=lambda: now[0], monotonic=lambda: now[0])
    told: list[int] = []

    async def answered(_bot: Any, interaction_id: int, _token: str, _body: Any) -> None:
        told.append(interaction_id)

    monkeypatch.setattr(admission_module, "post_interaction_callback", answered)
    install_interaction_hook(client, LanguageChoices(None), admission=admission)  # type: ignore[arg-type]
    snowflake = (int(start * 1000) - DISCORD_EPOCH_MS) << 22
    burst = [
        {"type": 2, "id": str(snowflake + n), "token": "t", "channel_id": "7", "user": {"id": "1"}}
        for n in range(3)
    ]
    for payload in burst:  # one step of the loop, as discord.py parses a buffered socket
        parsers["INTERACTION_CREATE"](payload)
    assert seen == burst[:1]  # the first at once; the other two wait in line
    now[0] = start + admission.busy_age + 1  # the line moves only after they waited too long
    for _ in range(10):
        await asyncio.sleep(0)
    assert seen == burst[:1]
    assert admission.turned_away == 2 and sorted(told) == [snowflake + 1, snowflake + 2]


async def test_interactions_turned_away_do_not_use_up_a_step_of_the_line() -> None:
    """Past capacity most of the line is told "very busy" as it leaves (cheap: no command).
    Those do not count as the step's one hand-over: the next admitted one goes in the same
    step. (With one per step whatever the fate, a full loop drained the line so slowly that
    the "very busy" answers themselves went past Discord's 3 s.) Steps are counted by a
    callback that runs once per loop iteration: no clock involved."""
    fair = FairDispatch()
    loop = asyncio.get_running_loop()
    step = [0]
    ticking = [True]

    def tick() -> None:
        step[0] += 1
        if ticking[0]:
            loop.call_soon(tick)

    loop.call_soon(tick)
    handed: list[tuple[str, int]] = []

    def admitted(name: str) -> Any:
        return lambda: handed.append((name, step[0])) or True

    def turned_away(name: str) -> Any:
        return lambda: handed.append((name, step[0])) is not None

    fair.submit(1, admitted("first"))  # nothing waits: at once
    for user in (2, 3, 4, 5):
        fair.submit(user, turned_away(f"busy {user}"))
    fair.submit(6, admitted("six"))
    fair.submit(7, admitted("seven"))
    for _ in range(20):
        await asyncio.sleep(0)
    ticking[0] = False
    names = [name for name, _step in handed]
    assert names == ["first", "busy 2", "busy 3", "busy 4", "busy 5", "six", "seven"]
    steps = dict(handed)
    # The four turned away and the next admitted one in one step; the one after, a step later.
    assert {steps[f"busy {user}"] for user in (2, 3, 4, 5)} == {steps["six"]}
    assert steps["seven"] > steps["six"]


@pytest.mark.parametrize(
    ("waited", "expected"),
    [
        (0.0, ["first", "a1", "b1", "c1", "a2", "a3"]),  # users in turn
        (LINE_PATIENCE + 0.1, ["first", "a1", "a2", "a3", "b1", "c1"]),  # oldest first
    ],
)
async def test_an_interaction_that_waited_too_long_goes_out_of_turn_oldest_first(
    waited: float, expected: list[str]
) -> None:
    """Users in turn, until one has waited in the line longer than LINE_PATIENCE: then the
    oldest go first, so that admission judges a long backlog while its "very busy" can still
    reach Discord in time. The line's clock is the test's."""
    now = [100.0]
    fair = FairDispatch(clock=lambda: now[0])
    handed: list[str] = []

    def admitted(name: str) -> Any:
        return lambda: handed.append(name) or True

    fair.submit(1, admitted("first"))  # nothing waits: at once
    for user, name in ((1, "a1"), (1, "a2"), (1, "a3"), (2, "b1"), (3, "c1")):
        fair.submit(user, admitted(name))
    now[0] += waited
    for _ in range(20):
        await asyncio.sleep(0)
    assert handed == expected


async def test_with_no_room_the_line_holds_its_turns_until_a_command_finishes() -> None:
    """With admission's bound full (``room`` false) nothing is handed over in turn: a burst
    past the bound waits in the line instead of being told "very busy" at once, and goes on,
    users in turn, as soon as there is room. Loop steps and the test's clock only."""
    now = [100.0]
    room = [True]
    fair = FairDispatch(clock=lambda: now[0], room=lambda: room[0])
    handed: list[str] = []

    def admitted(name: str) -> Any:
        return lambda: handed.append(name) or True

    fair.submit(1, admitted("first"))  # room, nothing waits: at once
    room[0] = False
    for user, name in ((1, "a1"), (1, "a2"), (2, "b1")):
        fair.submit(user, admitted(name))
    fair.submit(3, admitted("c1"))  # nothing would be handed at once either
    for _ in range(20):
        await asyncio.sleep(0)
    assert handed == ["first"]
    room[0] = True
    fair.room_made()  # a command finished (admission tells the line)
    for _ in range(20):
        await asyncio.sleep(0)
    assert handed == ["first", "a1", "b1", "c1", "a2"]


async def test_with_no_room_one_that_waited_past_patience_is_handed_over_to_be_judged() -> None:
    """The line holds for room only until LINE_PATIENCE: then the oldest are handed over out
    of turn, room or not, and admission answers them "very busy" (here: turned away, so the
    line goes on to the next in the same step) while that still reaches the user in time."""
    now = [100.0]
    fair = FairDispatch(clock=lambda: now[0], room=lambda: False)
    handed: list[str] = []

    def turned_away(name: str) -> Any:
        return lambda: handed.append(name) is not None

    for user, name in ((1, "a1"), (2, "b1")):
        fair.submit(user, turned_away(name))
    # No command finishes. The line's first step sees them past their patience already, so
    # the timer it sets for that patience is due at once (no real time is waited for).
    now[0] += LINE_PATIENCE + 0.1
    for _ in range(10):
        await asyncio.sleep(0)
    assert handed == ["a1", "b1"]
