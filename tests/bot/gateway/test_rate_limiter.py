"""The limiter's two limits are each on or off by their own figures (a burst of 0 turns one
off), whichever the other is: the limiter reads whether each is on once, when it is built."""

from __future__ import annotations

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
