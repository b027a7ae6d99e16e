"""CODA's actions per round on the tracker (RULES.md §1), and the end-of-encounter summary."""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.errors import N_
from engine.initiative.errors import NotAllowedNow
from engine.initiative.events import SpendAction
from engine.initiative.state import Combatant, Encounter
from engine.systems import coda
from engine.systems.coda import CodaError, Spend, spend
from engine.wording import Translate, english

__all__ = [
    "ActionBudget",
    "CombatantSummary",
    "Summary",
    "action_budget",
    "action_spend",
    "spend_action",
    "summary",
]


@dataclass(frozen=True, slots=True)
class ActionBudget:
    """A CODA combatant's actions this round: ``free`` without penalty, then −5 cumulative.

    The arithmetic is CODA's own (:mod:`engine.systems.coda`); this only ties it to a turn.
    """

    free: int
    surprised: bool

    def penalty(self, action: int, cost: int = 1) -> int:
        """The penalty (subtracted) of an action starting at slot ``action`` costing ``cost``.

        An action costing more than one takes the largest penalty it spans (RULES.md §1).
        """
        return coda.action_penalty(action=action, cost=cost, allowance=self.free)

    def left_label(self, spent: int, translate: Translate = english) -> str:
        """E.g. ``1 of 2 actions left · next −0`` / ``0 of 2 actions left · next −5``
        (``translate``: the bot's ``_``, see :mod:`engine.wording`)."""
        left = max(0, self.free - spent)
        penalty = coda.EXTRA_ACTION_PENALTY * max(0, spent + 1 - self.free)
        note = " " + translate(N_("(surprised)")) if self.surprised else ""
        nxt = " · " + translate(N_("next −{penalty}"), penalty=penalty) if penalty else ""
        text = translate(N_("{left} of {free} actions left"), left=left, free=self.free)
        return f"{text}{note}{nxt}"

    @property
    def label(self) -> str:
        """E.g. ``2 actions · 3rd −5, 4th −10``."""
        return self.label_in(english)

    def label_in(self, translate: Translate) -> str:
        """:attr:`label` in the language of ``translate``."""
        extra = ", ".join(
            f"{_ordinal(self.free + k, translate)} −{self.penalty(self.free + k)}" for k in (1, 2)
        )
        if self.free == 1:
            text = translate(N_("1 action"))
        else:
            text = translate(N_("{count} actions"), count=self.free)
        note = " " + translate(N_("(surprised)")) if self.surprised else ""
        return f"{text}{note} · {extra}"


def action_budget(state: Encounter, combatant: Combatant) -> ActionBudget:
    """Actions this round: two, one fewer for a surprised combatant in round 1."""
    round_number = max(1, state.round)
    free = coda.actions_in_round(round_number=round_number, surprised=combatant.surprised)
    return ActionBudget(free=free, surprised=combatant.surprised and round_number == 1)


def action_spend(state: Encounter, combatant: Combatant, action: str, cost: int | None) -> Spend:
    """What ``action`` costs ``combatant`` now (RULES.md §1, Tables 9-9 to 9-11)."""
    if state.system != "coda":
        raise NotAllowedNow(N_("Actions per round are CODA's: this encounter is not a CODA one."))
    if not state.started:
        raise NotAllowedNow(N_("The encounter has not started yet: actions are spent in a round."))
    free = action_budget(state, combatant).free
    try:
        return spend(spent=combatant.actions, allowance=free, action=action, cost=cost)
    except CodaError as error:
        raise NotAllowedNow(error.template, **error.params) from None


def spend_action(state: Encounter, event: SpendAction) -> Encounter:
    """The encounter after ``event.name`` (no name: whoever is up) spends an action's cost
    of this round."""
    if event.name.strip():
        target = state.find(event.name)
    elif state.current is not None:
        target = state.current
    else:
        raise NotAllowedNow(N_("Nobody is up: name the combatant who acts."))
    cost = action_spend(state, target, event.action, event.cost)
    spent = replace(target, actions=cost.spent_after)
    return replace(state, order=tuple(spent if c is target else c for c in state.order))


def _ordinal(n: int, translate: Translate = english) -> str:
    if 10 <= n % 100 <= 20:
        return translate(N_("{n}th"), n=n)
    template = {1: N_("{n}st"), 2: N_("{n}nd"), 3: N_("{n}rd")}.get(n % 10, N_("{n}th"))
    return translate(template, n=n)


@dataclass(frozen=True, slots=True)
class CombatantSummary:
    name: str
    turns: int
    hidden: bool


@dataclass(frozen=True, slots=True)
class Summary:
    """What ``/init end`` posts: rounds fought and who acted how often."""

    rounds: int
    combatants: tuple[CombatantSummary, ...]

    @property
    def acted(self) -> tuple[CombatantSummary, ...]:
        return tuple(c for c in self.combatants if c.turns > 0)


def summary(state: Encounter) -> Summary:
    return Summary(
        rounds=state.round,
        combatants=tuple(
            CombatantSummary(name=c.name, turns=c.turns, hidden=c.hidden) for c in state.combatants
        ),
    )


#
