"""The "roll your side" request as the channel sees it: one line that pings exactly the
player asked, then what it says once it lapsed."""

from __future__ import annotations

from bot.render.limits import MESSAGE, clip
from bot.services.side_requests import WINDOW, Challenge, PartsRequest
from bot.text import escape

BUTTON_LABEL = "Roll my side"


def challenge_text(challenge: Challenge) -> str:
    """``<@bob>: Hermione · Stealth (Wits) challenges **Ron** (Stealth) — roll your side``:
    the mention is the message's only ping (the reply allows that user alone)."""
    minutes = int(WINDOW.total_seconds() // 60)
    opponent = f"**{escape(challenge.opponent)}**" if challenge.opponent else "you"
    what = f"{escape(challenge.challenger)} challenges {opponent} ({escape(challenge.rolls)})"
    if challenge.label:
        what += f" — {escape(challenge.label)}"
    return clip(
        f"<@{challenge.addressed_id}>: {what} — roll your side with **{BUTTON_LABEL}** "
        f"(within {minutes} minutes); the result appears when both sides have rolled.",
        MESSAGE,
    )


def lapsed_text(original: str, *, parts: bool = False) -> str:
    """The request's message once nobody can answer it any more."""
    minutes = int(WINDOW.total_seconds() // 60)
    missing = "not every part was" if parts else "the other side was not"
    note = f"⌛ Lapsed: {missing} rolled within {minutes} minutes."
    return clip(f"{original}\n{note}", MESSAGE)


PART_LABEL = "Roll my part"


def parts_text(request: PartsRequest) -> str:
    """``<@bob> <@carol>: Hermione asks for a resisted action (Stealth) — roll your part…``,
    then who has rolled and who is awaited. Only the first line's mentions ping (the reply
    allows exactly the asked players; an edit pings nobody)."""
    minutes = int(WINDOW.total_seconds() // 60)
    pings = " ".join(f"<@{user}>" for user in request.asked)
    what = f"{escape(request.roller)} asks for {escape(request.what)} ({escape(request.rolls)})"
    if request.label:
        what += f" — {escape(request.label)}"
    lines = [
        f"{pings}: {what} — each of you rolls your part from your own sheet with "
        f"**{PART_LABEL}** (within {minutes} minutes); the result appears when every part "
        "is in."
    ]
    lines += [f"✅ <@{user}>: **{escape(name)}** {shown}" for user, name, shown in request.answered]
    waiting = request.waiting_for
    if waiting and request.answered:
        lines.append("⏳ Waiting for " + ", ".join(f"<@{user}>" for user in waiting) + ".")
    return clip("\n".join(lines), MESSAGE)
