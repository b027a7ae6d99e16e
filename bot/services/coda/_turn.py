"""CODA rolls and the channel's tracker: actions spent, NPCs' Health.

RULES.md §1: a combatant has two actions a round; an attack, a defence and any other test
is one of them, and each action beyond the allowance takes a cumulative −5. So a CODA roll
made on the roller's own turn, and a Dodge or Parry at any time, spends one action of the
combatant on the tracker and takes the penalty that action carries, named in the embed.
An NPC without a sheet keeps its Health on the tracker: damage from ``/coda attack`` is
taken from there (:func:`bot.services.attack_exchange.hurt_npc`, every system's).

Every function runs inside the caller's unit of work and locks the encounter row, so the
roll, its log entry and the action it spent commit together (or not at all).

Precedence (documented in docs/players.md): an ``extra_actions`` given on the command is the
player counting by hand; it is used as given and nothing is spent on the tracker.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncSession

from bot.actor import Actor
from bot.errors import UserError
from bot.i18n import N_, _, translate_error
from bot.services.permissions import is_gm
from bot.services.sheets import name_key
from bot.storage.models import InitiativeEncounter
from bot.storage.repositories import initiative as encounters
from bot.text import UserText
from engine import initiative as ini
from engine.systems.coda import Part, Spend

CODA = "coda"


@dataclass(frozen=True, slots=True)
class TurnSpend:
    """One action a roll spent on the tracker, and the penalty it carries."""

    combatant: str
    hidden: bool
    spend: Spend

    @property
    def ordinal(self) -> str:
        """``3rd`` (``3.ª``), in the reader's language."""
        return ordinal(self.spend.first)

    @property
    def part(self) -> Part | None:
        """The named penalty (``− 5 (extra action, 3rd)``), or None within the allowance."""
        if not self.spend.penalty:
            return None
        # English when stored; shown in the reader's language by ``coda.part_label``
        return Part(f"extra action, {_english_ordinal(self.spend.first)}", self.spend.penalty)

    @property
    def penalties(self) -> tuple[Part, ...]:
        return () if self.part is None else (self.part,)

    @property
    def note(self) -> UserText | None:
        """``🏃 Ron's 3rd action this round (−5) · 0 of 2 left on the tracker.`` (None when hidden:
        a public embed must not name a hidden combatant). It names the combatant, so the whole
        line is user text (an attack exchange keeps it as typed, shown escaped)."""
        if self.hidden:
            return None
        penalty = f" (−{self.spend.penalty})" if self.spend.penalty else ""
        left = self.spend.left
        return UserText(
            _(
                "🏃 {combatant}'s {ordinal} action this round{penalty} · "
                "{left} of {allowance} left on the tracker.",
                combatant=self.combatant,
                ordinal=self.ordinal,
                penalty=penalty,
                left=left,
                allowance=self.spend.allowance,
            )
        )


#: English ordinal suffixes as messages: each language writes its own ordinal (``3.ª``).
_ORDINALS = {1: N_("{number}st"), 2: N_("{number}nd"), 3: N_("{number}rd")}
_NTH = N_("{number}th")


def _ordinal_template(n: int) -> str:
    return _NTH if 10 <= n % 100 <= 20 else _ORDINALS.get(n % 10, _NTH)


def _english_ordinal(n: int) -> str:
    return _ordinal_template(n).format(number=n)


def ordinal(n: int) -> str:
    """``3rd`` in English, ``3.ª`` in Spanish (an action: feminine)."""
    return _(_ordinal_template(n), number=n)


async def _running(
    session: AsyncSession, channel_id: int
) -> tuple[InitiativeEncounter, ini.Encounter] | None:
    """The channel's CODA encounter while a round is under way, locked; else None."""
    row = await encounters.active(session, channel_id, for_update=True)
    if row is None:
        return None
    state = ini.from_dict(row.state)
    if state.system != CODA or not state.started or state.ended:
        return None
    return row, state


def _spend(
    row: InitiativeEncounter, state: ini.Encounter, combatant: ini.Combatant, action: str
) -> TurnSpend:
    """Spend ``action`` for ``combatant`` and store the encounter (an ordinary, undoable step)."""
    try:
        cost = ini.action_spend(state, combatant, action, None)
        new = ini.apply(state, ini.SpendAction(combatant.name, action=action))
    except ini.InitiativeError as error:
        raise UserError(
            _(
                "{error} (give `extra_actions` to roll without the tracker)",
                error=translate_error(error),
            )
        ) from None
    encounters.store(row, ini.to_dict(new))  # bumps the revision the tracker compares
    return TurnSpend(combatant.name, combatant.hidden, cost)


def played_by(state: ini.Encounter, owner_id: int, character: str) -> ini.Combatant | None:
    """The combatant a player's character plays in the encounter (one, or None)."""
    key = name_key(character)
    found = [
        c
        for c in state.combatants
        if c.owner_id == owner_id and c.character and name_key(c.character) == key
    ]
    return found[0] if len(found) == 1 else None


async def spend_on_turn(
    session: AsyncSession,
    actor: Actor,
    *,
    character: str | None,
    action: str,
    owner_id: int | None = None,
    npc: str | None = None,
) -> TurnSpend | None:
    """A CODA roll made on the roller's own turn spends one action of that turn.

    Whose turn: the current combatant is the actor's character (a roll from another of
    their sheets is not this turn's), or an NPC (no player) and the actor is a GM, rolling
    no player's sheet (``owner_id``, the rolled sheet's player) and naming no other NPC
    (``npc``, an attacker named without a sheet). ``None``: no CODA round is under way, or
    it is not the roller's turn; nothing is spent.
    """
    running = await _running(session, actor.channel_id)
    if running is None:
        return None
    row, state = running
    current = state.current
    if current is None:
        return None
    if current.owner_id is None:
        others = (owner_id is not None and owner_id != actor.user_id) or (
            npc is not None and name_key(npc) != name_key(current.name)
        )
        mine = not others and await is_gm(session, actor)
    else:
        other_sheet = character is not None and name_key(character) != name_key(
            current.character or ""
        )
        mine = current.owner_id == actor.user_id and not other_sheet
    if not mine:
        return None
    return _spend(row, state, current, action)


async def spend_defence(
    session: AsyncSession,
    channel_id: int,
    *,
    target: str,
    owner_id: int | None,
    character: str | None,
    action: str,
) -> TurnSpend | None:
    """A Dodge or Parry spends one action of the defender's round (whosever turn it is).

    The defender is the combatant its player's character plays, or (an NPC) the combatant
    called ``target``. ``None`` when no CODA round is under way or the defender is not in it.
    """
    running = await _running(session, channel_id)
    if running is None:
        return None
    row, state = running
    defender = None
    if owner_id is not None and character is not None:
        defender = played_by(state, owner_id, character)
    if defender is None:  # an NPC (a GM's sheet for it, or none) is the combatant so named
        defender = _named(state, target)
        if defender is not None and defender.owner_id is not None:
            defender = None
    if defender is None:
        return None
    return _spend(row, state, defender, action)


def _named(state: ini.Encounter, name: str) -> ini.Combatant | None:
    try:
        return state.find(name)
    except ini.UnknownCombatant:
        return None
