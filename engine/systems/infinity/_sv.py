"""Infinity CodeOne's bounds, its error and the Success Value (RULES.md section 3): the MOD
cap, every input's range and how an attribute and its MODs make the SV a d20 must roll
under, with the arithmetic spelled out for the embed.

It exists as the bottom of the Infinity modules: rolling
(:mod:`engine.systems.infinity._rolls`), saving rolls (:mod:`engine.systems.infinity._save`)
and the chances (:mod:`engine.systems.infinity._odds`) all check their inputs and read the
SV here.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.errors import N_, InputError

D20 = 20
MOD_CAP = 12
"""The sum of MODs on any roll is clamped to -12..+12 (seed 002, "Modificador Máximo")."""
COVER_MOD = -3
"""Partial cover lowers the attack damage of a saving roll by 3 (RULES.md, saving roll)."""

ATTRIBUTE_RANGE = (0, 40)
MODS_RANGE = (-50, 50)
BURST_RANGE = (1, 10)
HITS_RANGE = (1, 20)
DAMAGE_RANGE = (0, 40)
ARMOR_RANGE = (0, 40)


Translate = Callable[..., str]
"""A message's English template and its parameters in, the text to show out (the bot passes
its ``_`` so the arithmetic reads in the player's language; the engine cannot import it)."""


def plain(template: str, /, **params: object) -> str:
    """The English text: ``template`` filled with ``params`` (the default :data:`Translate`)."""
    return template.format_map(params) if params else template


class InfinityError(InputError):
    """An input the rules (or the bot's bounds) do not allow; the message is shown to users.

    Raised with an English template and its parameters (see :class:`InputError`) so the bot
    can show it in the player's language. ``field`` names the offending input (``"burst"``,
    ``"b_attribute"``…) so a front end can rephrase it in its own vocabulary.
    """

    def __init__(self, message: str, /, *, field: str, value: object, **params: object) -> None:
        super().__init__(message, **params)
        self.field = field
        self.value = value


_LABELS = {
    "attribute": N_("attribute"),
    "mods": N_("MODs"),
    "burst": N_("burst"),
    "hits": N_("hits"),
    "damage": N_("damage"),
    "armor": N_("armor"),
}


def check_range(field: str, value: object, bounds: tuple[int, int], side: str = "") -> int:
    """Refuse anything but a whole number within ``bounds``: bounds keep every roll small."""
    low, high = bounds
    name = f"{side}{field}"
    what = _LABELS[field]
    if isinstance(value, bool) or not isinstance(value, int):
        if side:
            raise InfinityError(
                N_("side {side} {what} must be a whole number, not {got}"),
                field=name,
                value=value,
                side=side[0].upper(),
                what=what,
                got=repr(value),
            )
        raise InfinityError(
            N_("{what} must be a whole number, not {got}"),
            field=name,
            value=value,
            what=what,
            got=repr(value),
        )
    if not low <= value <= high:
        params = {"what": what, "low": low, "high": high, "got": value}
        if side:
            raise InfinityError(
                N_("side {side} {what} must be between {low} and {high} (got {got})"),
                field=name,
                value=value,
                side=side[0].upper(),
                **params,
            )
        raise InfinityError(
            N_("{what} must be between {low} and {high} (got {got})"),
            field=name,
            value=value,
            **params,
        )
    return value


def fmt_signed(n: int) -> str:
    """Signed with a real minus sign, as the rulebook prints MODs (+3, −12)."""
    return f"+{n}" if n >= 0 else f"−{-n}"


def fmt_int(n: int) -> str:
    return str(n) if n >= 0 else f"−{-n}"


# --------------------------------------------------------------------------- Success Value


def clamp_mods(mods: int) -> int:
    """The MOD sum that actually applies: anything beyond ±12 is ignored."""
    return max(-MOD_CAP, min(MOD_CAP, mods))


def success_value(*, attribute: int, mods: int = 0) -> int:
    """SV = attribute + clamped MODs; may be below 1 (automatic failure) or above 20."""
    return _sv(attribute, mods)


def _sv(attribute: int, mods: int, side: str = "") -> int:
    check_range("attribute", attribute, ATTRIBUTE_RANGE, side)
    check_range("mods", mods, MODS_RANGE, side)
    return attribute + clamp_mods(mods)


def rolling_sv(attribute: int, mods: int, burst: int, side: str = "") -> int:
    """Check everything one side rolls with (``side`` "a_"/"b_" names it) and give its SV."""
    sv = _sv(attribute, mods, side)
    check_range("burst", burst, BURST_RANGE, side)
    return sv


def describe_sv(attribute: int, mods: int, name: str = "", tr: Translate = plain) -> str:
    """The SV arithmetic as a player checks it, the MOD cap and the above-20 rule spelled out.

    ``BS 13 + MOD −15 (clamped to −12) = SV 1`` — the embed shows this so nobody has to ask
    why a −15 only cost 12. ``tr`` writes the words in the player's language.
    """
    applied = clamp_mods(mods)
    sv = attribute + applied
    shown_sv = tr(N_("SV {sv}"), sv=fmt_int(sv))
    if name or mods:
        text = f"{name} {attribute}" if name else f"{attribute}"
        if mods:
            text += f" + MOD {fmt_signed(mods)}"
            if applied != mods:
                text += " " + tr(N_("(clamped to {mods})"), mods=fmt_signed(applied))
        text += f" = {shown_sv}"
    else:
        text = shown_sv  # a bare number: nothing to add up
    if sv < 1:
        text += " — " + tr(N_("automatic failure, no dice rolled"))
    elif sv > D20:
        text += " — " + tr(
            N_("SV 20, {excess} to every die, Critical on {face}+"),
            excess=fmt_signed(sv - D20),
            face=crit_from(sv),
        )
    return text


def crit_from(sv: int) -> int | None:
    """The lowest face that is a Critical (None when SV < 1: nothing is rolled).

    At SV ≤ 20 only the face equal to SV; above 20, any face whose value (face + excess)
    reaches 20 — so CC 23 crits on 17+.
    """
    if sv < 1:
        return None
    if sv <= D20:
        return sv
    return max(1, D20 - (sv - D20))
