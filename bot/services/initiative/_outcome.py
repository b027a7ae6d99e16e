"""What the initiative use cases return: an encounter as a command shows it, a combatant that
joined, and what one change did.

These are the types the renderer and the cogs read; they hold no database access, so every
use-case module and the renderer share them without importing each other.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Any

from bot.i18n import _
from bot.text import UserText
from engine import initiative as ini
from engine.initiative.rolls import InitiativeRoll
from engine.systems import SYSTEMS

#: ``Goblin 3``: a numbered NPC's base name and number (``/init add count:``).
NUMBERED = re.compile(r"^(.*) (\d+)$")


@dataclass(frozen=True, slots=True)
class EncounterView:
    """An encounter as a command shows it; ``gm`` says whether the caller may see hidden ones."""

    state: ini.Encounter
    channel_id: int
    started_by: int
    attribute: str | None
    dice: str | None
    tracker_message_id: int | None
    status: str
    gm: bool = False
    #: Health (current, max) of the combatants played from a sheet that has it, by name.
    health: tuple[tuple[str, int, int | None], ...] = ()
    #: Its starter's language: the tracker's when the channel has none
    #: (bot.gateway._public_language).
    language: str | None = None
    #: The encounter's row and the revision of its state this view shows: the tracker never
    #: replaces a view with an older revision of its encounter (docs/decisions/many-processes.md).
    encounter_id: int = 0
    revision: int = 0

    def health_of(self, name: str) -> tuple[int, int | None] | None:
        return next(((cur, top) for n, cur, top in self.health if n == name), None)

    @property
    def system(self) -> str:
        return self.state.system

    @property
    def system_title(self) -> str:
        return SYSTEMS.get(self.state.system) or _("d20 (any system)")


@dataclass(frozen=True, slots=True)
class Joined:
    """One combatant that entered: its rolled initiative (None for a total the GM gave)."""

    name: UserText
    total: int
    roll: InitiativeRoll | None
    hidden: bool
    owner_id: int | None = None


@dataclass(frozen=True, slots=True)
class InitOutcome:
    """What one change did, for the reply and the tracker.

    ``action`` is the event's kind (``start``, ``add``, ``next``…); ``subject`` the
    combatant it named; ``before`` the state it changed; ``undone`` the event that undo
    reverted. ``turn_changed`` says a new turn started (its player is mentioned).
    """

    view: EncounterView
    action: str
    before: ini.Encounter | None = None
    subject: str | None = None
    joined: tuple[Joined, ...] = ()
    undone: ini.Event | None = None
    summary: ini.Summary | None = None
    #: What a ``then`` step of the change returned (e.g. a CODA test waiting to be rolled).
    extra: Any = None

    @property
    def tracker(self) -> EncounterView:
        """The channel's tracker as this change left it: exactly what :func:`latest` reads
        right after the commit (everyone's view, the current state without its history), so
        the tracker is refreshed without a second transaction (docs/decisions/hot-path.md)."""
        return dataclasses.replace(self.view, gm=False, state=self.view.state.core())

    @property
    def initiator_warning(self) -> str | None:
        """Why nobody will lose round 1's action, when the initiator names no combatant.

        Said after adding numbered NPCs that share the initiator's name (``initiator:Goblin``
        then ``count:3`` gives ``Goblin 1…3``, none of them ``Goblin``) and when round 1
        starts, so a GM never finds out only from the tracker.
        """
        state = self.view.state
        initiator = state.initiator
        if not initiator or state.ended or any(c.initiator for c in state.combatants):
            return None
        key = initiator.casefold()
        numbered = [
            str(j.name)
            for j in self.joined
            if (match := NUMBERED.match(j.name.raw)) and match.group(1).casefold() == key
        ]
        if self.action == "add" and numbered:
            return "⚠️ " + _(
                "The initiator is `{initiator}`, and {names} are other names: nobody loses "
                "their round-1 action. To strike the one who initiated, `/init remove` it and "
                "add it again alone as `{initiator}` (without `count`).",
                initiator=UserText(initiator),
                names=", ".join(numbered),
            )
        starting = self.before is not None and not self.before.started and state.started
        if self.action == "next" and starting:
            return "⚠️ " + _(
                "No combatant is called `{initiator}` (the initiator): nobody loses their "
                "round-1 action.",
                initiator=UserText(initiator),
            )
        return None

    @property
    def turn_changed(self) -> bool:
        before, after = self.before, self.view.state
        if before is None or after.current is None or after.ended:
            return False
        now = (after.round, after.current.name)
        then = None if before.current is None else (before.round, before.current.name)
        return now != then
