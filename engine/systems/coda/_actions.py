"""CODA's actions in a round (RULES.md §1 "Actions per round", seed 000 Tables 9-9 to 9-11).

Each combatant has an allowance of actions a round (2; 1 for the surprised in round 1).
Every action beyond it takes a cumulative −5 (3rd −5, 4th −10, …); one costing several
actions takes the largest penalty it spans. Free actions cost nothing. Full-round actions
take the whole allowance and cannot be taken as further actions. An action without a test
of its own (the movement actions) taken beyond the allowance needs an attribute test with
TN = its penalty; an action with its own test takes the penalty on that test.

Besides the tables' rows, the actions every fight has: an attack, a Dodge or Parry, any
other test (RULES.md §1: each is one action with its own test, so beyond the allowance the
test itself takes the penalty). :data:`TEST_ACTIONS` name the ones the bot spends for a
CODA roll made on the roller's turn, and for a defence.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from engine.errors import N_
from engine.systems.coda._degrees import CodaError
from engine.systems.coda._parts import EXTRA_ACTION_PENALTY, MAX_ACTIONS, action_penalty

#: Which attribute a movement action's test beyond the allowance uses (RULES.md's example:
#: "a 3rd Walk: TN 5 Nimbleness test").
MOVEMENT_ATTRIBUTE = "Nimbleness"
CUSTOM = "custom"


class Kind(enum.Enum):
    MOVEMENT = "movement"  # Table 9-9
    FREE = "free"  # Table 9-10
    FULL_ROUND = "full-round"  # Table 9-11 (and Sprint)
    TEST = "test"  # an action with its own test (an attack, a defence, any other test)


@dataclass(frozen=True, slots=True)
class Action:
    """One row of Tables 9-9 to 9-11: its cost, and the test it carries (if any)."""

    name: str
    kind: Kind
    cost: int = 1
    #: The action's own test ("Stealth (TN variable)"); None: an attribute test beyond the
    #: allowance (movement), or none needed (free actions, Sprint).
    test: str | None = None
    table: str = "9-9"


def _move(name: str, cost: int = 1) -> Action:
    return Action(name, Kind.MOVEMENT, cost)


def _free(name: str) -> Action:
    return Action(name, Kind.FREE, 0, table="9-10")


def _full(name: str, test: str | None, table: str = "9-11") -> Action:
    return Action(name, Kind.FULL_ROUND, 0, test, table)


def _tested(name: str, test: str) -> Action:
    return Action(name, Kind.TEST, 1, test, table="")


#: The actions a roll spends: ``/coda attack`` an Attack, Dodge/Parry a defence, every
#: other ``/coda`` test a Test.
ATTACK, DODGE, PARRY, TEST = N_("Attack"), N_("Dodge"), N_("Parry"), N_("Test")


ACTIONS: tuple[Action, ...] = (
    _move(N_("Walk")),
    _move(N_("Crawl/Step")),
    _move(N_("Jog")),
    _move(N_("Run"), 2),
    _full(N_("Sprint"), None, "9-9"),
    _move(N_("Swim")),
    _move(N_("Jump")),
    _move(N_("Climb")),
    _move(N_("Drop prone")),
    _move(N_("Stand from prone")),
    _free(N_("Command")),
    _free(N_("Drop Object")),
    _free(N_("Target")),
    _free(N_("Warn/Alert")),
    _full(N_("Hide"), "Stealth"),
    _full(N_("Inspirational Speech"), "Inspire"),
    _full(N_("Perform Healing"), "First Aid"),
    _full(N_("Repair Weapon"), "Craft"),
    _full(N_("Search"), "Search"),
    _tested(ATTACK, "combat skill"),
    _tested(DODGE, "Dodge"),
    _tested(PARRY, "Parry/Block"),
    _tested(TEST, "its own"),
)
TEST_ACTIONS = (ATTACK, DODGE, PARRY, TEST)
_BY_KEY = {a.name.casefold(): a for a in ACTIONS}


def find_action(name: str) -> Action | None:
    """The table's action called ``name`` (any case), or None (a custom action)."""
    return _BY_KEY.get(" ".join(name.split()).casefold())


@dataclass(frozen=True, slots=True)
class Spend:
    """What one action costs a combatant this round, and what it asks for."""

    action: str
    slots: int  # actions it uses up
    first: int  # the slot it starts at (1 = the round's first action)
    penalty: int  # subtracted from its test (0 within the allowance)
    full_round: bool
    #: An attribute test needed beyond the allowance (TN = ``penalty``), if any.
    attribute_test: str | None
    #: The action's own test (which takes ``penalty``), if it has one.
    own_test: str | None
    spent_after: int
    allowance: int

    @property
    def left(self) -> int:
        """Actions left without penalty after this one."""
        return max(0, self.allowance - self.spent_after)

    @property
    def next_penalty(self) -> int:
        """The penalty the next 1-action action would take."""
        return EXTRA_ACTION_PENALTY * max(0, self.spent_after + 1 - self.allowance)


def spend(*, spent: int, allowance: int, action: str, cost: int | None = None) -> Spend:
    """The cost of taking ``action`` after ``spent`` actions this round.

    ``cost`` overrides the table's (or gives a custom action's: 1 by default; a full-round
    action given a cost is taken as that many actions). A custom action's test is not
    known: beyond the allowance it takes the penalty on its own test, or, without one,
    needs an attribute test the Narrator names.
    """
    coda_whole = MAX_ACTIONS
    if isinstance(cost, bool):
        raise CodaError(N_("An action's cost is a whole number."))
    if not 0 <= spent <= coda_whole or not 0 <= allowance <= coda_whole:
        raise CodaError(N_("Actions spent and the allowance are 0 to 10."))
    found = find_action(action)
    if cost is not None and not 0 <= cost <= coda_whole:
        raise CodaError(N_("An action costs 0 to {most} actions."), most=coda_whole)
    name = found.name if found else " ".join(action.split())[:64] or CUSTOM
    if found is not None and found.kind is Kind.FULL_ROUND and cost is None:
        if spent > 0:
            raise CodaError(
                N_(
                    "{action} is a full-round action: it needs the whole round, and "
                    "{spent} action(s) are already spent (it cannot be a further action)."
                ),
                action=found.name,
                spent=spent,
            )
        slots = max(allowance, 1)
        return Spend(name, slots, 1, 0, True, None, found.test, slots, allowance)
    slots = cost if cost is not None else (found.cost if found else 1)
    if slots == 0:
        own_test = found.test if found else None
        return Spend(name, 0, spent + 1, 0, False, None, own_test, spent, allowance)
    if spent + slots > coda_whole:
        raise CodaError(N_("At most {most} actions a round."), most=coda_whole)
    penalty = action_penalty(action=spent + 1, cost=slots, allowance=allowance)
    own = found.test if found else None
    needs = None
    if penalty and own is None:
        needs = MOVEMENT_ATTRIBUTE if found else CUSTOM
    return Spend(name, slots, spent + 1, penalty, False, needs, own, spent + slots, allowance)
