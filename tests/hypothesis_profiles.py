"""Hypothesis' profiles for the two test tiers (see the Makefile).

- ``fast`` (``make test``, and plain ``pytest``): each test draws the examples it asks for.
- ``check`` (``make check``: ``--hypothesis-profile=check``): five times as many, for a
  longer hunt before a change lands.

Neither has a deadline: a test never fails because a loaded machine was slow (speed is
measured in benchmarks/, not in tests).
"""

from __future__ import annotations

from hypothesis import settings

FAST_EXAMPLES = 100
CHECK_EXAMPLES = 5 * FAST_EXAMPLES

settings.register_profile("fast", max_examples=FAST_EXAMPLES, deadline=None)
settings.register_profile("check", max_examples=CHECK_EXAMPLES, deadline=None)
settings.load_profile("fast")  # pytest's --hypothesis-profile, read after this, overrides it


def examples(count: int) -> int:
    """``count`` examples in the fast tier, scaled as the loaded profile says (x5 in check)."""
    return max(1, count * settings.default.max_examples // FAST_EXAMPLES)
