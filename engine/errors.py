"""The engine's one error type for bad input: its message is written for the player.

The bot shows these messages as they are (ephemerally); any other exception is a bug,
logged with context and answered with a generic apology.
"""


class InputError(ValueError):
    """Input a rule cannot accept (a burst of 50, a TN of 1000, an empty expression…)."""
