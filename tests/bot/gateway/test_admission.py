"""bot.gateway._admission's decision: how long an interaction waited, above what is usual here."""

from __future__ import annotations

from bot.gateway import Admission
from bot.gateway._admission import DISCORD_EPOCH_MS, AgeFloor, busy_payload, created_at


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
    assert not gate.behind(fresh)
    gate.started()
    assert gate.behind(fresh)
    gate.finished()
    assert not gate.behind(fresh)


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
