"""The "roll your side" request as the channel sees it: one line that pings exactly the
player asked, then what it says once it lapsed."""

from __future__ import annotations

from typing import Any

from bot.i18n import N_, _
from bot.render.limits import MESSAGE, clip
from bot.services.side_requests import WINDOW, Challenge, PartsRequest
from bot.text import UserText

BUTTON_LABEL = N_("Roll my side")


def challenge_text(challenge: Challenge) -> str:
    """``<@bob>: Hermione · Stealth (Wits) challenges **Ron** (Stealth) — roll your side``:
    the mention is the message's only ping (the reply allows that user alone)."""
    minutes = int(WINDOW.total_seconds() // 60)
    challenger, rolls = challenge.challenger, challenge.rolls
    if challenge.opponent:
        what = _(
            "{challenger} challenges **{opponent}** ({rolls})",
            challenger=challenger,
            opponent=challenge.opponent,
            rolls=rolls,
        )
    else:
        what = _("{challenger} challenges you ({rolls})", challenger=challenger, rolls=rolls)
    if challenge.label:
        what += f" — {challenge.label}"
    return clip(
        f"<@{challenge.addressed_id}>: "
        + _(
            "{what} — roll your side with **{button}** (within {minutes} minutes); the result "
            "appears when both sides have rolled.",
            what=what,
            button=_(BUTTON_LABEL),
            minutes=minutes,
        ),
        MESSAGE,
    )


def lapsed_text(original: str, *, parts: bool = False) -> str:
    """The request's message once nobody can answer it any more."""
    minutes = int(WINDOW.total_seconds() // 60)
    if parts:
        note = _("Lapsed: not every part was rolled within {minutes} minutes.", minutes=minutes)
    else:
        note = _("Lapsed: the other side was not rolled within {minutes} minutes.", minutes=minutes)
    note = "⌛ " + note
    return clip(f"{original}\n{note}", MESSAGE)


PART_LABEL = N_("Roll my part")


def said(text: str, params: dict[str, Any] | None) -> str:
    """A stored template (``N_``) in the present language; plain text (params None) as is."""
    return text if params is None else _(text, **params)


def parts_text(request: PartsRequest) -> str:
    """``<@bob> <@carol>: Hermione asks for a resisted action (Stealth) — roll your part…``,
    then who has rolled and who is awaited. Only the first line's mentions ping (the reply
    allows exactly the asked players; an edit pings nobody)."""
    minutes = int(WINDOW.total_seconds() // 60)
    pings = " ".join(f"<@{user}>" for user in request.asked)
    what = _(
        "{roller} asks for {what} ({rolls})",
        roller=request.roller,
        # The roll's words hold the players' names (filled in from their parameters), so
        # the whole is shown as user text, as it was typed.
        what=UserText(said(request.what, request.what_params)),
        rolls=UserText(said(request.rolls, request.rolls_params)),
    )
    if request.label:
        what += f" — {request.label}"
    lines = [
        f"{pings}: {what} — "
        + _(
            "each of you rolls your part from your own sheet with **{button}** (within {minutes} "
            "minutes); the result appears when every part is in.",
            button=_(PART_LABEL),
            minutes=minutes,
        )
    ]
    params = request.answered_params or (None,) * len(request.answered)
    lines += [
        f"✅ <@{user}>: **{name}** {said(shown, shown_params)}"
        for (user, name, shown), shown_params in zip(request.answered, params, strict=True)
    ]
    waiting = request.waiting_for
    if waiting and request.answered:
        lines.append(
            "⏳ " + _("Waiting for {players}.", players=", ".join(f"<@{user}>" for user in waiting))
        )
    return clip("\n".join(lines), MESSAGE)
