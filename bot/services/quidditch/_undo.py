"""``/quidditch undo``: take back the last turn, even the catch that ended the match.

Every turn keeps the state before it in the match row (:func:`bot.services.quidditch.
play_turns`, at most :data:`~bot.services.quidditch.MAX_UNDO`); undo restores the newest.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from bot.actor import Actor
from bot.errors import UserError
from bot.i18n import _
from bot.services.permissions import require_gm
from bot.services.quidditch._match import MAX_UNDO, NO_MATCH, MatchView, match_view, score_text
from bot.storage import Database
from bot.storage.models import QuidditchMatch
from bot.storage.repositories import quidditch as matches
from bot.storage.repositories import rolls as roll_log
from engine import quidditch as q


async def _undoable_match(
    session: AsyncSession, actor: Actor
) -> tuple[QuidditchMatch, q.MatchState, tuple[str, int] | None]:
    """The running match, or the one the snitch just ended (reopened, its house points
    taken back) when no other has started since; its GM: a GM, or whoever started it."""
    match = await matches.latest(session, actor.channel_id, for_update=True)
    if match is None or match.status not in ("active", "finished"):
        raise UserError(_(NO_MATCH))
    if not (actor.gm_role or actor.user_id == match.started_by):
        await require_gm(session, actor, _("undo a quidditch turn"))
    state = q.MatchState.from_dict(match.state)
    taken_back: tuple[str, int] | None = None
    if match.status == "finished":
        if not match.undo_states:
            raise UserError(_(NO_MATCH))
        result = q.match_result(state)
        taken_back = ("", 0)
        if result.house and result.house_points > 0:
            await matches.award(
                session, actor.guild_id or 0, result.house, -result.house_points, wins=-1
            )
            taken_back = (result.house, result.house_points)
        matches.reopen(match)
        try:
            await session.flush()
        except IntegrityError:
            raise UserError(_("Another match has started in this channel since.")) from None
    return match, state, taken_back


@dataclass(frozen=True, slots=True)
class UndoOutcome:
    view: MatchView
    undone: int
    """The turn taken back."""
    snitch_only: bool = False
    """It was the snitch phase of that turn (the turn itself stands)."""
    reopened: tuple[str, int] | None = None
    """The turn had ended the match: (house, points) its win earned and lost again; an
    empty house name when the winner played for none."""


async def undo(db: Database, actor: Actor) -> UndoOutcome:
    """Take back the last turn played: the match is as it was before it, penalty shots and
    snitch choices made since included. The turn's dice stay in the roll log, with a line
    saying it was undone."""
    async with db.unit_of_work() as session:
        match, state, taken_back = await _undoable_match(session, actor)
        stack = list(match.undo_states or ())
        if not stack:
            raise UserError(
                _(
                    "There is no turn to undo: none was played yet, or the last {count} were "
                    "undone already.",
                    count=MAX_UNDO,
                )
            )
        before = q.MatchState.from_dict(stack.pop())
        match.undo_states = stack
        match.state = before.to_dict()
        snitch_only = before.snitch_pending
        undone = state.turn
        roll_log.add(
            session,
            actor,
            system="quidditch",
            input=f"undo {'snitch' if snitch_only else 'turn'} {undone}",
            faces=[],
            outcome=score_text(before),
        )
        return UndoOutcome(match_view(match, before), undone, snitch_only, taken_back)
