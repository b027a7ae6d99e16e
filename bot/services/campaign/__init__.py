"""A channel's campaign as the web shows it (``/channels/{id}``): read models only, frozen
dataclasses built through the same services and visibility rules as the bot's commands, for
an :class:`~bot.actor.Actor` the web rebuilt from the bot's records
(:func:`bot.services.access.channel_for` decides who may open a channel).

- :mod:`bot.services.campaign._turns`: the turn order (hidden combatants and NPCs' Health
  only for a GM), through ``initiative.show``;
- :mod:`bot.services.campaign._log`: the roll log filtered and paged, secret rolls only for
  their roller and GMs, each commitment checked;
- :mod:`bot.services.campaign._tasks`: extended tests, the sustained action, the match score;
- :mod:`bot.services.campaign._roster`: the GM's view of every character of the channel;
- :mod:`bot.services.campaign._marks`: a mark per channel that moves when its page would
  change, read for many channels at once (the live page's poll);
- :mod:`bot.services.campaign._page`: all of it for one viewer.
"""

from __future__ import annotations

from bot.services.campaign._log import MAX_PAGE_SIZE as MAX_PAGE_SIZE
from bot.services.campaign._log import PAGE_SIZE as PAGE_SIZE
from bot.services.campaign._log import LogEntry as LogEntry
from bot.services.campaign._log import LogFilter as LogFilter
from bot.services.campaign._log import LogPage as LogPage
from bot.services.campaign._log import Sealed as Sealed
from bot.services.campaign._log import roll_log_page as roll_log_page
from bot.services.campaign._marks import marks as marks
from bot.services.campaign._page import CampaignPage as CampaignPage
from bot.services.campaign._page import campaign_page as campaign_page
from bot.services.campaign._roster import People as People
from bot.services.campaign._roster import Roster as Roster
from bot.services.campaign._roster import people as people
from bot.services.campaign._roster import roster as roster
from bot.services.campaign._tasks import Extended as Extended
from bot.services.campaign._tasks import Score as Score
from bot.services.campaign._tasks import Sustained as Sustained
from bot.services.campaign._tasks import Tasks as Tasks
from bot.services.campaign._tasks import tasks as tasks
from bot.services.campaign._turns import Combatant as Combatant
from bot.services.campaign._turns import TurnOrder as TurnOrder
from bot.services.campaign._turns import turn_order as turn_order
