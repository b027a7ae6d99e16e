"""The live pages' broker: one read of every watched channel's mark per poll, shared by all
streams; a stream wakes only when its channel's mark differs from the one its page shows;
streams are bounded per viewer and address. No sleeps: polls are driven by hand or by a fake
sleep that counts."""

from __future__ import annotations

import asyncio
from collections.abc import Collection

from bot.web._events import ChannelWatch, StreamLimits, TooManyStreams


class FakeMarks:
    """Channel marks the test sets, and every read the watch made."""

    def __init__(self) -> None:
        self.marks: dict[int, str] = {}
        self.reads: list[list[int]] = []

    async def __call__(self, channel_ids: Collection[int]) -> dict[int, str]:
        self.reads.append(sorted(channel_ids))
        return {cid: self.marks.get(cid, "0") for cid in channel_ids}


async def _never(_seconds: float) -> None:
    await asyncio.Event().wait()  # the background loop polls once, then waits forever


def _ready(subscription: object) -> bool:
    return subscription._changed.is_set()  # type: ignore[attr-defined]


async def test_one_read_per_poll_for_every_stream_of_every_channel() -> None:
    marks = FakeMarks()
    watch = ChannelWatch(marks, sleep=_never)
    async with (
        watch.subscribe(1, seen="0") as a,
        watch.subscribe(1, seen="0") as b,
        watch.subscribe(2, seen="0") as c,
    ):
        await watch.poll_once()
        assert marks.reads[-1] == [1, 2]
        assert not any(_ready(s) for s in (a, b, c))  # nothing changed since the pages
        marks.marks[1] = "1"
        reads = len(marks.reads)
        await watch.poll_once()
        assert len(marks.reads) == reads + 1  # one read, three streams
        assert _ready(a) and _ready(b) and not _ready(c)
        assert await a.changed() == "1" and await b.changed() == "1"
        await watch.poll_once()
        assert not _ready(a)  # the same mark does not wake it twice
    assert watch.channels == frozenset()
    await watch.poll_once()  # nothing watched: no read at all
    assert marks.reads[-1] == [1, 2]
    await watch.close()


async def test_a_change_before_the_stream_opened_is_not_missed() -> None:
    marks = FakeMarks()
    marks.marks[5] = "7"
    watch = ChannelWatch(marks, sleep=_never)
    async with watch.subscribe(5, seen="6") as stale:  # the page was drawn at mark 6
        await watch.poll_once()
        assert await stale.changed() == "7"
        async with watch.subscribe(5, seen="6") as late:  # the mark is known: woken at once
            assert _ready(late)
    await watch.close()


async def test_the_loop_polls_only_while_a_stream_is_open() -> None:
    marks = FakeMarks()
    sleeps: list[float] = []
    resume, slept = asyncio.Event(), asyncio.Event()

    async def sleep(seconds: float) -> None:
        sleeps.append(seconds)
        resume.clear()
        slept.set()
        await resume.wait()

    watch = ChannelWatch(marks, interval=0.25, sleep=sleep)
    async with watch.subscribe(3, seen="0") as stream:
        await slept.wait()  # the first poll ran, then the loop slept
        assert marks.reads == [[3]] and sleeps == [0.25]
        marks.marks[3] = "9"
        resume.set()
        assert await stream.changed() == "9"
    resume.set()
    for _ in range(5):
        await asyncio.sleep(0)
    assert watch._task is not None and watch._task.done()  # no stream: the loop ended
    await watch.close()


async def test_a_failed_read_is_retried_next_poll() -> None:
    calls = 0

    async def flaky(channel_ids: Collection[int]) -> dict[int, str]:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise OSError("database restarting")
        return {cid: "2" for cid in channel_ids}

    watch = ChannelWatch(flaky, sleep=_never)
    async with watch.subscribe(8, seen="1") as stream:
        await watch.poll_once()
        await watch.poll_once()
        assert await stream.changed() == "2"
    await watch.close()


def test_streams_are_bounded_per_viewer_and_address() -> None:
    limits = StreamLimits(per_viewer=2, per_address=3, total=10)

    def refused(viewer: int, address: str) -> bool:
        try:
            with limits.hold(viewer=viewer, address=address):
                return False
        except TooManyStreams:
            return True

    with limits.hold(viewer=1, address="a"), limits.hold(viewer=1, address="a"):
        assert refused(1, "b")  # viewer 1 holds two
        with limits.hold(viewer=2, address="a"):
            assert refused(3, "a")  # address a holds three
        assert not refused(3, "a")
    assert not refused(1, "a")  # released: room again
    limits = StreamLimits(per_viewer=5, per_address=5, total=1)
    with limits.hold(viewer=1, address="a"):
        assert refused(2, "b")  # the process holds its total


async def test_closing_the_watch_ends_every_open_stream() -> None:
    """At shutdown the server must not wait for open pages: each stream's wait ends."""
    watch = ChannelWatch(FakeMarks(), sleep=_never)
    async with watch.subscribe(4, seen="0") as stream:
        waiting = asyncio.ensure_future(stream.changed())
        await watch.close()
        assert await waiting is None
