"""The engine's one error type for bad input: its message is written for the player.

The bot shows these messages as they are (ephemerally); any other exception is a bug,
logged with context and answered with a generic apology.
"""


def N_(message: str) -> str:
    """Mark an English message for extraction; the bot translates it when it is shown."""
    return message


class InputError(ValueError):
    """Input a rule cannot accept (a burst of 50, a TN of 1000, an empty expression…).

    Raised as ``InputError(N_("TN must be at most {high}."), high=30)``: the English template
    and its parameters are kept (``template``, ``params``) so that the bot can show the
    message in the player's language; ``str()`` is the English text.
    """

    def __init__(self, message: str = "", /, **params: object) -> None:
        self.template = message
        self.params = params
        super().__init__(message.format_map(params) if params else message)

    def __reduce__(self) -> tuple[object, ...]:
        # Pickled whole (a worker process raises it in the bot's), template and parameters
        # included, so that it is still shown in the player's language.
        return (_rebuilt, (type(self), self.template, self.params))


def _rebuilt(kind: type[InputError], template: str, params: dict[str, object]) -> InputError:
    return kind(template, **params)


def whole_number(
    value: object, what: str, low: int, high: int, *, error: type[InputError] = InputError
) -> int:
    """``value`` as a bounded int, or ``error`` with a message the player can act on.

    ``bool`` is an int in Python, but a ``True`` where a number belongs is a bug, not a 1.
    Rolls check every input, so the common case (a plain int in bounds) is tested first.
    """
    if value.__class__ is int and low <= value <= high:
        return value
    if isinstance(value, bool) or not isinstance(value, int):
        raise error(N_("{what} must be a whole number, not {value}."), what=what, value=repr(value))
    if not low <= value <= high:
        raise error(
            N_("{what} must be between {low} and {high}, not {value}."),
            what=what,
            low=low,
            high=high,
            value=value,
        )
    return value
