"""Errors whose message is meant for the user, answered ephemerally and never as a traceback.

Their messages are written with :func:`bot.i18n._` where they are raised, inside the
interaction, so they are already in the user's language.
"""

from bot.i18n import _


class UserError(Exception):
    """Something the user can fix: unknown name, missing sheet value, a rule that refuses."""


class NoSuchCharacter(UserError):
    """No character the caller can use goes by that name (a side may then be an NPC's)."""


class PermissionDenied(UserError):
    """The user may not do this here; the message says who may."""


class StorageBusy(UserError):
    """A command waited too long for the database (a lock held elsewhere) and was rolled back."""

    def __init__(self) -> None:
        super().__init__(
            _(
                "The database was busy and this command waited too long, so it was stopped: "
                "nothing was saved. Please try again in a moment."
            )
        )
