"""Errors whose message is meant for the user, answered ephemerally and never as a traceback."""


class UserError(Exception):
    """Something the user can fix: unknown name, missing sheet value, a rule that refuses."""


class PermissionDenied(UserError):
    """The user may not do this here; the message says who may."""
