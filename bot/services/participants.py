"""Who may roll a channel's shared task (a CODA extended test, an RPS sustained action).

Whoever started it, the players named when it started (``participants:``) and the channel's
GM; anyone else is refused, so a passer-by cannot sink a task others are working on. The
rules of what each of them may type when rolling are the tasks' own (docs/rules.md,
"Shared tasks").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from sqlalchemy.ext.asyncio import AsyncSession

from bot.actor import Actor
from bot.errors import PermissionDenied, UserError
from bot.i18n import _
from bot.services.permissions import is_gm
from bot.text import UserText

#: Players a task may name besides its starter.
MAX_PARTICIPANTS = 20
#: The longest ``participants:`` text (20 mentions with their separators fit easily).
PARTICIPANTS_LENGTH = 1000
_MENTION = re.compile(r"<@!?(\d+)>")
#: User ids are stored in signed 64-bit columns: a typed mention beyond that names nobody.
_LARGEST_ID = 2**63 - 1


def parse_participants(text: str | None, *, starter: int) -> list[int]:
    """The user ids of the mentions in ``text`` ("<@1> <@2>", commas allowed), in order,
    without repeats or the starter; anything else in the text is refused."""
    if not text or not text.strip():
        return []
    if len(text) > PARTICIPANTS_LENGTH:
        raise UserError(_("The list is at most {count} characters.", count=PARTICIPANTS_LENGTH))
    leftover = _MENTION.sub(" ", text).replace(",", " ").replace(";", " ").split()
    if leftover:
        raise UserError(
            _(
                "`{item}` is not a player: name the participants with mentions, e.g. "
                "`@alice @bob`.",
                item=UserText(leftover[0][:40]),
            )
        )
    found: list[int] = []
    for match in _MENTION.finditer(text):
        user_id = int(match.group(1))
        if not 0 < user_id <= _LARGEST_ID:
            raise UserError(
                _(
                    "`{text}` mentions nobody: pick a member from the list.",
                    text=UserText(match[0][:40]),
                )
            )
        if user_id != starter and user_id not in found:
            found.append(user_id)
    if len(found) > MAX_PARTICIPANTS:
        raise UserError(_("A task names at most {count} participants.", count=MAX_PARTICIPANTS))
    return found


async def may_roll(
    session: AsyncSession, actor: Actor, *, started_by: int, participants: Sequence[int]
) -> bool:
    """Refuse anyone but the starter, a participant or a GM; True for a GM (who may roll
    any numbers: an NPC's part, a ruling), False for the starter or a participant."""
    if await is_gm(session, actor):
        return True
    if actor.user_id == started_by or actor.user_id in participants:
        return False
    raise PermissionDenied(
        _(
            "Only its starter ({who}), the participants they named or the channel's GM "
            "may roll this task.",
            who=f"<@{started_by}>",
        )
    )
