"""The head line of a change to one combatant: a dodge, a CODA action spent, Health set, a
condition put on or taken off.

Each reads the outcome's last event and the states before and after it; the helpers that
find a combatant across those states (and tell whether it is hidden) serve the reply too.
"""

from __future__ import annotations

from bot.i18n import _, _n
from bot.render.initiative._tracker import CONDITION, RUN
from bot.services.initiative import InitOutcome
from bot.text import UserText, number
from engine import initiative as ini
from engine.systems.coda import CUSTOM as CUSTOM_ACTION


def lookup(name: str, *states: ini.Encounter | None) -> ini.Combatant | None:
    """The combatant called ``name`` in the first of ``states`` that has it."""
    for state in states:
        if state is None:
            continue
        try:
            return state.find(name)
        except ini.UnknownCombatant:
            continue
    return None


def hidden_in(name: str | None, *states: ini.Encounter | None) -> bool:
    """Whether ``name`` is hidden in any of ``states`` (before or after the change)."""
    if name is None:
        return False
    return any(found is not None and found.hidden for found in (lookup(name, s) for s in states))


def last_event(outcome: InitOutcome) -> ini.Event | None:
    log = outcome.view.state.log
    return log[-1] if log else None


def defend_head(outcome: InitOutcome) -> str:
    """A dodge: a turn used up, or (RULES.md §2) a delayer's delayed action spent."""
    name = outcome.subject
    event = last_event(outcome)
    before = lookup(name or "", outcome.before)
    shown = UserText(name or "")
    if before is None or before.delaying is None:
        return "🛡️ " + _(
            "**{name}** makes a defensive roll: their turn this round is used up.", name=shown
        )
    protects = getattr(event, "protects", None)
    protected = lookup(protects, outcome.view.state) if protects else None
    if protected is None or protected.name == name:
        return "🛡️ " + _(
            "**{name}** dodges from their delay: the delayed action is spent, and they keep "
            "their place in the order.",
            name=shown,
        )
    return "🛡️ " + _(
        "**{name}** dodges on behalf of **{other}** from their delay: the delayed action is "
        "spent, and they keep their place in the order.",
        name=shown,
        other=UserText(protected.name),
    )


def action_head(outcome: InitOutcome) -> str | None:
    """``🏃 **Bob**: Walk (1 action), the 3rd: −5. No test of its own: a TN 5 Nimbleness
    test is needed. 0 of 2 actions left · next −10.``"""
    event = last_event(outcome)
    before = outcome.before
    name = outcome.subject
    if not isinstance(event, ini.SpendAction) or before is None or name is None:
        return None
    combatant = before.find(name)
    cost = ini.action_spend(before, combatant, event.action, event.cost)
    after = outcome.view.state.find(name)
    action = UserText(_(cost.action))
    shown = UserText(name)
    if cost.full_round:
        text = f"{RUN} " + _(
            "**{name}**: {action}, a full-round action (the whole round).",
            name=shown,
            action=action,
        )
    elif cost.slots == 0:
        text = f"{RUN} " + _("**{name}**: {action}, a free action.", name=shown, action=action)
    elif cost.penalty:
        text = f"{RUN} " + _n(
            "**{name}**: {action} ({count} action): **−{penalty}**.",
            "**{name}**: {action} ({count} actions): **−{penalty}**.",
            cost.slots,
            name=shown,
            action=action,
            count=cost.slots,
            penalty=cost.penalty,
        )
    else:
        text = f"{RUN} " + _n(
            "**{name}**: {action} ({count} action), no penalty.",
            "**{name}**: {action} ({count} actions), no penalty.",
            cost.slots,
            name=shown,
            action=action,
            count=cost.slots,
        )
    named = getattr(outcome.extra, "attribute", None)  # the test a custom action was given
    if cost.attribute_test == CUSTOM_ACTION and named:
        text += " " + _(
            "Its own test takes −{penalty}; without one, it needs a **TN {penalty} {attribute} "
            "test**.",
            penalty=cost.penalty,
            attribute=UserText(named),
        )
    elif cost.attribute_test == CUSTOM_ACTION:
        text += " " + _(
            "Its own test takes −{penalty}; without one, it needs an attribute test at "
            "**TN {penalty}** (the Narrator names the attribute).",
            penalty=cost.penalty,
        )
    elif cost.attribute_test:
        text += " " + _(
            "No test of its own beyond the allowance: a **TN {penalty} {attribute} test** is "
            "needed.",
            penalty=cost.penalty,
            attribute=_(cost.attribute_test),
        )
    elif cost.penalty and cost.own_test:
        text += " " + _(
            "Its {test} test takes −{penalty}.", test=_(cost.own_test), penalty=cost.penalty
        )
    if cost.own_test and not cost.penalty:
        text += " " + _("Its test: {test}.", test=_(cost.own_test))
    budget = ini.action_budget(outcome.view.state, after)
    return text + f" {budget.left_label(after.actions, _)}."


def health_head(outcome: InitOutcome) -> str | None:
    """``❤️ **Troll**'s Health: 20 → **8**/20`` (kept on the tracker for an NPC)."""
    name = outcome.subject
    event = last_event(outcome)
    if not isinstance(event, ini.SetHealth) or outcome.before is None or name is None:
        return None
    before, after = outcome.before.find(name), outcome.view.state.find(name)
    was = "—" if before.health is None else number(before.health)
    now = number(after.health) if after.health is not None else "—"
    top = f"/{number(after.max_health)}" if after.max_health is not None else ""
    return "❤️ " + _(
        "**{name}**'s Health: {was} → **{now}**{top}.",
        name=UserText(name),
        was=was,
        now=now,
        top=top,
    )


def condition_head(outcome: InitOutcome) -> str | None:
    """``🩹 **Bob** is Stunned (2 rounds, ticks at start) — note`` / ``… is no longer Stunned``."""
    event = last_event(outcome)
    if not isinstance(event, ini.AddCondition | ini.RemoveCondition):
        return None
    name = outcome.subject
    if isinstance(event, ini.RemoveCondition):
        return f"{CONDITION} " + _(
            "**{name}** is no longer {condition}.",
            name=UserText(name or ""),
            condition=UserText(event.condition.strip()),
        )
    target = lookup(event.name, outcome.view.state)
    condition = None if target is None else target.conditions[-1]
    if condition is None:
        return None
    note = f" — {UserText(condition.note)}" if condition.note else ""
    return f"{CONDITION} " + _(
        "**{name}** is {condition}{note}.",
        name=UserText(name or ""),
        condition=UserText(condition.label_in(_)),
        note=note,
    )
