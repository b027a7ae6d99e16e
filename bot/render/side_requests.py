"""The "roll your side" request as the channel sees it: one line that pings exactly the
player asked, then what it says once it lapsed."""

from __future__ import annotations

from bot.i18n import N_, _
from bot.render.limits import MESSAGE, clip
from bot.services.side_requests import WINDOW, Challenge
from bot.text import escape

BUTTON_LABEL = N_("Roll my side")


def challenge_text(challenge: Challenge) -> str:
    """``<@bob>: Hermione · Stealth (Wits) challenges **Ron** (Stealth) — roll your side``:
    the mention is the message's only ping (the reply allows that user alone)."""
    minutes = int(WINDOW.total_seconds() // 60)
    challenger, rolls = escape(challenge.challenger), escape(challenge.rolls)
    if challenge.opponent:
        what = _(
            "{challenger} challenges **{opponent}** ({rolls})",
            challenger=challenger,
            opponent=escape(challenge.opponent),
            rolls=rolls,
        )
    else:
        what = _("{challenger} challenges you ({rolls})", challenger=challenger, rolls=rolls)
    if challenge.label:
        what += f" — {escape(challenge.label)}"
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


def lapsed_text(original: str) -> str:
    """The request's message once nobody can answer it any more."""
    minutes = int(WINDOW.total_seconds() // 60)
    note = "⌛ " + _(
        "Lapsed: the other side was not rolled within {minutes} minutes.", minutes=minutes
    )
    return clip(f"{original}\n{note}", MESSAGE)
