"""What sits between discord.py and the cogs for every interaction.

Every interaction is first counted against the rate limits by one hook on discord.py's
INTERACTION_CREATE (``_interactions``), on the raw payload; then commands go through the command
tree (``_tree``: the deadline guard, the interaction's language, write tracking and the
truthful error answer), and component and modal presses get their language and write record
from the same hook; admission answers "very busy" past capacity
(``_admission``); the deadline defers what would miss Discord's 3 s (``_deadline``); rate
limits and fair shares (``_ratelimit``); lazy callback responses (``_lazy_callback``); the
REST and gateway proxy (``_proxy``); the events that change a guild's roles and channels
(``_guild_state``); the language of a table's public messages
(``_public_language``); and the command-line reader that macros and the console share
(``_commandline``). Every discord.py internal these touch is reached through
:mod:`bot.internals`. This face is the API.
"""

from __future__ import annotations

from bot.gateway._admission import VERY_BUSY as VERY_BUSY
from bot.gateway._admission import Admission as Admission
from bot.gateway._commandline import CommandLine as CommandLine
from bot.gateway._commandline import CommandLineError as CommandLineError
from bot.gateway._commandline import Kind as Kind
from bot.gateway._commandline import Placeholder as Placeholder
from bot.gateway._commandline import check_limits as check_limits
from bot.gateway._commandline import convert as convert
from bot.gateway._commandline import fill as fill
from bot.gateway._commandline import find_leaf as find_leaf
from bot.gateway._commandline import parse_values as parse_values
from bot.gateway._commandline import placeholders as placeholders
from bot.gateway._commandline import read_words as read_words
from bot.gateway._commandline import split_line as split_line
from bot.gateway._commandline import split_words as split_words
from bot.gateway._deadline import ANSWERED_PRIVATELY as ANSWERED_PRIVATELY
from bot.gateway._deadline import DeadlineResponse as DeadlineResponse
from bot.gateway._guild_state import GUILD_STATE_EVENTS as GUILD_STATE_EVENTS
from bot.gateway._guild_state import on_guild_state_change as on_guild_state_change
from bot.gateway._interactions import install_interaction_hook as install_interaction_hook
from bot.gateway._lazy_callback import install_lazy_callbacks as install_lazy_callbacks
from bot.gateway._public_language import public_language as public_language
from bot.gateway._ratelimit import Rate as Rate
from bot.gateway._ratelimit import RateLimiter as RateLimiter
from bot.gateway._ratelimit import Standings as Standings
from bot.gateway._ratelimit import forget_standing as forget_standing
from bot.gateway._tree import GENERIC_FAILURE as GENERIC_FAILURE
from bot.gateway._tree import SAVED_BUT_FAILED as SAVED_BUT_FAILED
from bot.gateway._tree import NarratorTree as NarratorTree
from bot.gateway._tree import failure_message as failure_message
from bot.gateway._tree import send_ephemeral as send_ephemeral
from bot.gateway._tree import user_message as user_message
