"""The engine's one error type for bad input: its message is written for the player.

The bot shows these messages as they are (ephemerally); any other exception is a bug,
logged with context and answered with a generic apology.
"""


class InputError(ValueError):
    """Input a rule cannot accept (a burst of 50, a TN of 1000, an empty expression…)."""


def whole_number(
    value: object, what: str, low: int, high: int, *, error: type[InputError] = InputError
) -> int:
    """``value`` as a bounded int, or ``error`` with a message the player can act on.

    ``bool`` is an int in Python, but a ``True`` where a number belongs is a bug, not a 1.
    Rolls check every input, so the common case (a plain int in bounds) is tested first.
    """
    if value.__class__ is int and low <= value <= high:  # type: ignore[operator]
        return value  # type: ignore[return-value]
    if isinstance(value, bool) or not isinstance(value, int):
        raise error(f"{what} must be a whole number, not {value!r}.")
    if not low <= value <= high:
        raise error(f"{what} must be between {low} and {high}, not {value}.")
    return value
