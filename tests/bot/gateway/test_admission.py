"""bot.gateway._admission's decision: how long an interaction waited, above what is usual here."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import discord
import pytest

from bot.gateway import Admission, DeadlineResponse
from bot.gateway._admission import (
    DISCORD_EPOCH_MS,
    MIN_LIMIT,
    WINDOW,
    AgeFloor,
    busy_payload,
    created_at,
)
from bot.gateway._deadline import answer_in_time


def snowflake_at(unix_seconds: float) -> int:
    return (int(unix_seconds * 1000) - DISCORD_EPOCH_MS) << 22


class Clocks:
    def __init__(self) -> None:
        self.wall = 1_800_000_000.0
        self.mono = 100.0


def admission(clocks: Clocks, **kwargs: object) -> Admission:
    return Admission(wall_clock=lambda: clocks.wall, monotonic=lambda: clocks.mono, **kwargs)  # type: ignore[arg-type]


def test_created_at_reads_the_snowflake() -> None:
    assert abs(created_at(snowflake_at(1_800_000_000.25)) - 1_800_000_000.25) < 0.001


def test_a_skewed_clock_cancels_out_and_a_long_wait_does_not() -> None:
    clocks = Clocks()
    gate = admission(clocks, busy_age=1.0)
    # This host's clock runs 5 s ahead of Discord's: every interaction looks 5 s old.
    for _ in range(3):
        assert not gate.behind(snowflake_at(clocks.wall - 5.0))
        clocks.wall += 0.1
        clocks.mono += 0.1
    assert not gate.behind(snowflake_at(clocks.wall - 5.8))  # 0.8 s more than usual
    assert gate.behind(snowflake_at(clocks.wall - 6.5))  # 1.5 s more than usual
    assert 1.4 < gate.waited(snowflake_at(clocks.wall - 6.5)) < 1.6


def test_the_in_flight_bound() -> None:
    clocks = Clocks()
    gate = admission(clocks, max_in_flight=2)
    fresh = snowflake_at(clocks.wall)
    gate.started()
    assert not gate.behind(fresh) and gate.room()
    gate.started()
    assert gate.behind(fresh) and not gate.room()  # the fair line holds the next one
    gate.finished()
    assert not gate.behind(fresh) and gate.room()


def test_room_comes_back_to_the_ceiling_when_the_bot_is_idle() -> None:
    clocks = Clocks()
    gate = shrunk(clocks)  # cut to 75, 99 of its 100 still running
    assert not gate.room()
    for _ in range(99):
        gate.finished()
    assert gate.room() and gate.limit == 75  # answered within the window: still cut
    clocks.mono += WINDOW
    assert gate.room() and gate.limit == gate.max_in_flight


def test_the_floor_forgets_after_two_windows() -> None:
    floor = AgeFloor(window=10)
    assert floor.waited(0.05, now=0) == 0
    assert floor.waited(2.0, now=5) > 1.9
    floor.waited(2.0, now=11)  # a new window: the old floor is still remembered
    assert floor.above(2.0) > 1.9
    floor.waited(2.0, now=22)  # two windows later, 2 s is what "usual" looks like now
    assert floor.above(2.0) == 0


def test_the_busy_reply_is_private_and_pings_nobody() -> None:
    reply = busy_payload(2)
    assert reply["type"] == 4
    assert reply["data"]["flags"] == 64 and reply["data"]["allowed_mentions"] == {"parse": []}
    assert busy_payload(4) == {"type": 8, "data": {"choices": []}}  # autocomplete: no choices


def run_up_to(gate: Admission, clocks: Clocks, running: int) -> list[int]:
    """``running`` fresh commands admitted and started (each created a millisecond apart)."""
    ids = []
    for _ in range(running):
        clocks.wall += 0.001
        interaction_id = snowflake_at(clocks.wall)
        assert not gate.behind(interaction_id)
        gate.started()
        ids.append(interaction_id)
    return ids


def shrunk(clocks: Clocks, running: int = 100) -> Admission:
    """A gate whose bound was cut: one of ``running`` commands answered 2.5 s after creation."""
    gate = admission(clocks, max_in_flight=512)
    ids = run_up_to(gate, clocks, running)
    clocks.wall += 2.5  # the loop is far behind: the first answer goes out late
    clocks.mono += 2.5
    gate.answered(ids[0])
    gate.finished()
    return gate


def test_late_answers_shrink_the_bound_below_max_in_flight() -> None:
    clocks = Clocks()
    gate = shrunk(clocks)
    # A quarter fewer than were running (100) when the late answer went out.
    assert gate.limit == 75
    assert gate.in_flight == 99 < gate.max_in_flight
    assert gate.behind(snowflake_at(clocks.wall))  # told "very busy": 99 running ≥ 75
    # The rest of that backlog answering late cuts nothing more: its lateness was the old
    # bound's, answered already.
    gate.answered(snowflake_at(clocks.wall - 3.0))
    assert gate.limit == 75
    # Once the old ones are done, fewer than the bound run: admitted again.
    for _ in range(30):
        gate.finished()
    assert not gate.behind(snowflake_at(clocks.wall))


def test_a_late_answer_under_the_new_bound_cuts_again_but_never_below_the_floor() -> None:
    clocks = Clocks()
    gate = shrunk(clocks, running=10)
    assert gate.limit == MIN_LIMIT  # 0.75 × 10 is below the floor
    for _ in range(9):
        gate.finished()
    (late,) = run_up_to(gate, clocks, 1)
    clocks.wall += 2.5
    clocks.mono += 2.5
    gate.answered(late)  # created after the cut, late all the same
    assert gate.limit == MIN_LIMIT


def test_in_time_answers_grow_the_bound_back_to_max_in_flight() -> None:
    clocks = Clocks()
    gate = shrunk(clocks)
    for _ in range(99):
        gate.finished()
    previous = gate.limit
    windows = 0
    while gate.limit < gate.max_in_flight:
        (fast,) = run_up_to(gate, clocks, 1)  # answers 0.1 s after it was created
        clocks.wall += 0.1
        clocks.mono += WINDOW
        gate.answered(fast)
        gate.finished()
        assert gate.limit >= previous
        previous = gate.limit
        windows += 1
        assert windows < 100, "the bound never grew back"
    assert gate.limit == gate.max_in_flight
    assert windows > 10  # gradually, window by window, not at once


def test_an_idle_bot_takes_a_burst_up_to_max_in_flight_even_after_a_cut() -> None:
    clocks = Clocks()
    gate = shrunk(clocks)
    for _ in range(99):
        gate.finished()
    assert gate.limit == 75
    clocks.mono += WINDOW  # nothing runs, nothing answers, for a window
    clocks.wall += WINDOW
    burst = run_up_to(gate, clocks, gate.max_in_flight)  # each one admitted
    assert len(burst) == gate.in_flight == 512
    assert gate.behind(snowflake_at(clocks.wall))  # the hard ceiling still holds


def test_the_age_rule_holds_whatever_the_bound() -> None:
    clocks = Clocks()
    gate = admission(clocks, busy_age=1.0)
    (first,) = run_up_to(gate, clocks, 1)
    gate.answered(first)  # in time: the bound stays at its ceiling
    gate.finished()
    assert gate.limit == gate.max_in_flight and gate.in_flight == 0
    assert gate.behind(snowflake_at(clocks.wall - 1.5))  # waited 1.5 s more than usual
    assert not gate.behind(snowflake_at(clocks.wall - 0.5))
    cut = shrunk(clocks)  # a cut bound with room under it: the age still decides
    for _ in range(90):
        cut.finished()
    assert cut.in_flight < cut.limit < cut.max_in_flight
    assert cut.behind(snowflake_at(clocks.wall - 1.5))
    assert not cut.behind(snowflake_at(clocks.wall - 0.5))


def interaction(interaction_id: int, kind: discord.InteractionType) -> discord.Interaction:
    return SimpleNamespace(id=interaction_id, type=kind)  # type: ignore[return-value]


async def test_the_deadline_tells_an_undeferred_first_answer_when_the_command_ends() -> None:
    """An autocomplete is never deferred: its first answer is its end."""
    told: list[int] = []
    autocomplete = interaction(42, discord.InteractionType.autocomplete)
    async with answer_in_time(autocomplete, after=0.0, answered=told.append):
        await asyncio.sleep(0)
        assert told == []
    assert told == [42]


async def test_the_deadline_tells_a_deferral_once_not_the_later_end(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A deferred command's first answer is its deferral: what it does afterwards (a lock,
    a worker) is not the loop's lateness, and is not told again at its end."""
    deferred: list[int] = []

    async def auto_defer(self: DeadlineResponse) -> None:
        deferred.append(self.interaction.id)

    monkeypatch.setattr(DeadlineResponse, "auto_defer", auto_defer)
    told: list[int] = []
    command = interaction(7, discord.InteractionType.application_command)
    async with answer_in_time(command, after=0.0, answered=told.append):  # due at once
        assert told == [7]
        await asyncio.sleep(0)
        assert deferred == [7]
    assert told == [7]
