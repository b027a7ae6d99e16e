"""The limiter's two limits are each on or off by their own figures (a burst of 0 turns one
off), whichever the other is: the limiter reads whether each is on once, when it is built."""

from __future__ import annotations

import math
import random

import pytest

from bot.gateway import Rate, RateLimiter


def frozen_clock() -> float:
    return 100.0


def test_a_user_limit_alone_refuses_that_user_and_no_one_else() -> None:
    limiter = RateLimiter(Rate(1, 1.0), Rate(0, 0), clock=frozen_clock)
    assert limiter.check(1, 10) == 0
    assert limiter.check(1, 10) == 1.0  # a token back in a second
    assert limiter.check(1, 11) == 1.0  # in any channel
    for user in range(2, 50):  # the channel has no limit: forty-eight others in the same one
        assert limiter.check(user, 10) == 0


def test_a_channel_limit_alone_refuses_the_channel_and_not_the_user_elsewhere() -> None:
    limiter = RateLimiter(Rate(0, 0), Rate(3, 1.0), clock=frozen_clock)
    assert [limiter.check(user, 10) for user in (1, 2, 3)] == [0, 0, 0]
    assert limiter.check(4, 10) is None  # crowded: only admission can tell (a GM or not)
    assert limiter.check(4, 10, privileged=False) > 0
    for channel in range(20, 40):  # the user has no limit of their own: other channels serve
        assert limiter.check(1, channel) == 0


class Reference:
    """The limits as written before each bucket's count was read once: every wait read and
    every take read again, in the order the rules give (user, channel, the user's share)."""

    def __init__(self, limiter: RateLimiter) -> None:
        self.limiter = limiter
        self.state: dict[tuple[str, object], tuple[float, float]] = {}

    def tokens(self, kind: str, rate: Rate, key: object, now: float) -> float:
        tokens, then = self.state.get((kind, key), (rate.burst, now))
        return min(rate.burst, tokens + (now - then) * rate.per_second)

    def wait(self, kind: str, rate: Rate, key: object, now: float, need: float = 1.0) -> float:
        missing = need - self.tokens(kind, rate, key, now)
        return 0.0 if missing <= 0 else missing / rate.per_second

    def take(self, kind: str, rate: Rate, key: object, now: float, floor: float) -> None:
        self.state[(kind, key)] = (max(floor, self.tokens(kind, rate, key, now) - 1), now)

    def check(self, user: int, channel: int, now: float, privileged: bool | None) -> float | None:
        limiter = self.limiter
        share = (channel, user)
        if limiter.user.enabled:
            wait = self.wait("user", limiter.user, user, now)
            if wait > 0:
                self.take("share", limiter.share, share, now, 0.0)
                return wait
        if limiter.channel.enabled:
            quiet = self.tokens("share", limiter.share, share, now) >= limiter.share.burst / 2
            need = 1.0 if quiet else 1.0 + limiter.reserve
            wait = self.wait("channel", limiter.channel, channel, now, need)
            if wait > 0:
                if privileged is None:
                    return None
                if not privileged:
                    self.take("share", limiter.share, share, now, 0.0)
                    return wait
            self.take("channel", limiter.channel, channel, now, 0.0)
            self.take("share", limiter.share, share, now, 0.0)
        if limiter.user.enabled:
            self.take("user", limiter.user, user, now, -math.inf)
        return 0.0


@pytest.mark.parametrize(
    ("user", "channel"),
    [(Rate(10, 2.0), Rate(30, 5.0)), (Rate(3, 1.0), Rate(6, 2.0)), (Rate(0, 0), Rate(6, 2.0))],
)
def test_every_answer_and_count_is_the_rules_own(user: Rate, channel: Rate) -> None:
    """A long mixed flood (users, channels, GMs, time passing): the limiter answers exactly as
    the rules read bucket by bucket, to the last digit of every wait."""
    now = [0.0]
    limiter = RateLimiter(user, channel, clock=lambda: now[0])
    reference = Reference(limiter)
    draw = random.Random(20261127)
    answers = set()
    for _ in range(4000):
        now[0] += draw.choice((0.0, 0.0, 0.01, 0.05, 0.3))
        who, where = draw.randint(1, 8), draw.randint(1, 3)
        expected = reference.check(who, where, now[0], None)
        assert limiter.check(who, where) == expected
        if expected is None:  # crowded: asked again with the standing, as admit() does
            gm = draw.random() < 0.3
            expected = reference.check(who, where, now[0], gm)
            assert limiter.check(who, where, privileged=gm) == expected
        answers.add("go" if expected == 0 else "wait")
    assert answers == {"go", "wait"}  # both kinds of answer were compared
