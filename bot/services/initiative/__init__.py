"""Initiative encounters per channel: one use case per ``/init`` subcommand and tracker button.

The encounter lives in one row as ``engine.initiative.to_dict()``. Every change reads the
row locked, applies one engine event and writes the result back in the same transaction, so
a reply only ever reports a state that is on disk. Whoever starts an encounter is a GM of
the channel while it runs (DESIGN.md). Who may do what: the GM runs everything; a player may
join, and may ``delay`` or ``next`` only while the current turn is their own combatant's.

This face is the package's API; its modules are private, one job each:

- :mod:`bot.services.initiative._outcome`: what the use cases return (a view, an outcome);
- :mod:`bot.services.initiative._store`: the encounter's row (locked, viewed, saved, its
  last committed state kept parsed) and its starter as a GM;
- :mod:`bot.services.initiative._reading`: ``show``, the tracker's read, autocomplete;
- :mod:`bot.services.initiative._rolls`: how an encounter rolls initiative and logs it;
- :mod:`bot.services.initiative._joining`: start, a player's join, the GM's NPCs;
- :mod:`bot.services.initiative._changes`: one event under the permission rules: turn
  moves, undo, end;
- :mod:`bot.services.initiative._combatants`: conditions, CODA actions, an NPC's Health.
"""

from __future__ import annotations

from bot.services.initiative._changes import Then as Then
from bot.services.initiative._changes import act as act
from bot.services.initiative._changes import check_end as check_end
from bot.services.initiative._changes import defend as defend
from bot.services.initiative._changes import delay as delay
from bot.services.initiative._changes import end as end
from bot.services.initiative._changes import next_turn as next_turn
from bot.services.initiative._changes import prev_turn as prev_turn
from bot.services.initiative._changes import remove as remove
from bot.services.initiative._changes import reveal as reveal
from bot.services.initiative._changes import undo as undo
from bot.services.initiative._combatants import add_condition as add_condition
from bot.services.initiative._combatants import remove_condition as remove_condition
from bot.services.initiative._combatants import set_health as set_health
from bot.services.initiative._combatants import spend_action as spend_action
from bot.services.initiative._joining import GENERIC as GENERIC
from bot.services.initiative._joining import add as add
from bot.services.initiative._joining import join as join
from bot.services.initiative._joining import start as start
from bot.services.initiative._outcome import EncounterView as EncounterView
from bot.services.initiative._outcome import InitOutcome as InitOutcome
from bot.services.initiative._outcome import Joined as Joined
from bot.services.initiative._reading import latest as latest
from bot.services.initiative._reading import names as names
from bot.services.initiative._reading import show as show
from bot.services.initiative._rolls import MAX_COUNT as MAX_COUNT
from bot.services.initiative._store import current_player as current_player
from bot.services.initiative._store import encounter_starter as encounter_starter
from bot.services.initiative._store import set_tracker as set_tracker
