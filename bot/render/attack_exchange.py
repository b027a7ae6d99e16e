"""What every system's attack-exchange message draws alike: the secret note and the Health
line. Names typed by users are escaped: they never ping or format."""

from __future__ import annotations

from bot.i18n import N_, _
from bot.services.sheets import ResourceChange
from bot.text import number

#: Marked only: shown through ``_()`` where drawn (the language is the reader's).
SECRET_NOTE = N_("🔒 rolled in secret (the GM has the dice)")


def health_line(change: ResourceChange) -> str:
    """``❤️ Draco's Health: 10 → **6**/10``."""
    before = number(change.before.current) if change.before else "?"
    cap = f"/{number(change.after.max)}" if change.after.max is not None else ""
    return "❤️ " + _(
        "{character}'s {resource}: {before} → **{after}**{cap}",
        character=change.character,
        resource=change.resource,
        before=before,
        after=number(change.after.current),
        cap=cap,
    )
