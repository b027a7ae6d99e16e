"""Quidditch matches per channel, one use case per ``/quidditch`` subcommand: the match
(``_match``), the roster (``_team``) and undoing a turn (``_undo``).

This face is the package's API; its modules are private.
"""

from __future__ import annotations

from bot.services.quidditch._match import MAX_UNDO as MAX_UNDO
from bot.services.quidditch._match import NO_MATCH as NO_MATCH
from bot.services.quidditch._match import ODDS_BATCH as ODDS_BATCH
from bot.services.quidditch._match import ODDS_BUDGET as ODDS_BUDGET
from bot.services.quidditch._match import ODDS_MATCHES as ODDS_MATCHES
from bot.services.quidditch._match import STATS as STATS
from bot.services.quidditch._match import HouseRow as HouseRow
from bot.services.quidditch._match import MatchView as MatchView
from bot.services.quidditch._match import OddsOutcome as OddsOutcome
from bot.services.quidditch._match import PlayerOutcome as PlayerOutcome
from bot.services.quidditch._match import TurnOutcome as TurnOutcome
from bot.services.quidditch._match import end as end
from bot.services.quidditch._match import gm_match as gm_match
from bot.services.quidditch._match import houses as houses
from bot.services.quidditch._match import match_starter as match_starter
from bot.services.quidditch._match import match_view as match_view
from bot.services.quidditch._match import new_match as new_match
from bot.services.quidditch._match import odds as odds
from bot.services.quidditch._match import peek as peek
from bot.services.quidditch._match import penalty as penalty
from bot.services.quidditch._match import play_turn as play_turn
from bot.services.quidditch._match import play_turns as play_turns
from bot.services.quidditch._match import remove_player as remove_player
from bot.services.quidditch._match import resolve_side as resolve_side
from bot.services.quidditch._match import score_text as score_text
from bot.services.quidditch._match import set_interference as set_interference
from bot.services.quidditch._match import set_player as set_player
from bot.services.quidditch._match import show as show
from bot.services.quidditch._team import LINE_HINT as LINE_HINT
from bot.services.quidditch._team import TeamForm as TeamForm
from bot.services.quidditch._team import roster_message_id as roster_message_id
from bot.services.quidditch._team import set_roster_message as set_roster_message
from bot.services.quidditch._team import set_team as set_team
from bot.services.quidditch._team import team_form as team_form
from bot.services.quidditch._undo import UndoOutcome as UndoOutcome
from bot.services.quidditch._undo import undo as undo
