"""The lines each initiative change posts: a public one that never names a hidden combatant,
and the GM's own.

A reply joins the change's head line, the notes a turn change brings (a new round's
re-rolls, a delay that ended, conditions that wore off) and whose turn starts, whose player
alone it pings.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bot.i18n import _
from bot.render.initiative._heads import (
    action_head,
    condition_head,
    defend_head,
    health_head,
    hidden_in,
    last_event,
    lookup,
)
from bot.render.initiative._tracker import HIDDEN, now_texts
from bot.services.initiative import InitOutcome, Joined
from bot.text import UserText, number
from engine import initiative as ini

#: Words the engine writes into an initiative roll's breakdown (:mod:`engine.initiative.rolls`).
_DETAIL_WORDS = ("keep lower", "keep higher", "rolling 6s!")


@dataclass(frozen=True, slots=True)
class Reply:
    """What a change posts: a public line (may mention a player) and a line for the GM only.

    ``pings``: the players the public line may ping (the one whose turn starts), and only them.
    """

    public: str | None
    gm_only: str | None = None
    pings: tuple[int, ...] = ()


def _rolled(joined: Joined) -> str:
    if joined.roll is None:
        return _(
            "**{name}** joins at **{total}** (set by the GM).",
            name=joined.name,
            total=number(joined.total),
        )
    return _(
        "**{name}** joins: {detail} = **{total}**",
        name=joined.name,
        detail=roll_detail(joined.roll.detail),
        total=number(joined.total),
    )


def roll_detail(detail: str) -> str:
    """An initiative roll's breakdown with the engine's English words in the reply's language.

    The breakdown is stored with the event (a re-roll's too), so it is translated where shown;
    only the fixed words above are, never dice notation or a name.
    """
    for word in _DETAIL_WORDS:
        if word in detail:
            detail = detail.replace(word, _(word))
    return detail


def _event_text(event: ini.Event, *states: ini.Encounter) -> str:
    if isinstance(event, ini.Add):
        return _("{name} joining", name=UserText(event.name))
    if isinstance(event, ini.NamedEvent):
        found = lookup(event.name, *states)
        # The combatant's own spelling: an event keeps what the GM typed (e.g. ``spy``).
        name = event.name if found is None else found.name
        shown = UserText(name)
        condition = UserText(getattr(event, "condition", ""))
        if event.kind == "remove":
            return _("{name} leaving", name=shown)
        if event.kind == "act":
            return _("{name} acting", name=shown)
        if event.kind == "defend":
            return _("{name} defending", name=shown)
        if event.kind == "reveal":
            return _("{name} being revealed", name=shown)
        if event.kind == "condition_add":
            return _("{name} getting {condition}", name=shown, condition=condition)
        if event.kind == "condition_remove":
            return _("{name} losing {condition}", name=shown, condition=condition)
        if event.kind == "action":
            action = UserText(_(getattr(event, "action", "")))
            return _("{name} taking {action}", name=shown, action=action)
        if event.kind == "health":
            if getattr(event, "value", None) is None:
                return _("{name} losing Health", name=shown)
            return _("{name} healing", name=shown)
        raise KeyError(event.kind)
    return {
        "next": _("a Next"),
        "prev": _("a Prev"),
        "delay": _("a delay"),
        "end": _("the end"),
    }[event.kind]


def _event_hidden(event: ini.Event, *states: ini.Encounter) -> bool:
    if isinstance(event, ini.Add) and event.hidden:
        return True
    return hidden_in(getattr(event, "name", None), *states)


def _joined(lines: Iterable[str | None]) -> str | None:
    return "\n".join(line for line in lines if line) or None


def reply(outcome: InitOutcome) -> Reply:
    """The public line for a change (never naming a hidden combatant) and the GM's own line;
    when it says whose turn starts, that player is the one it pings."""
    answer = _reply(outcome)
    current = outcome.view.state.current
    if (
        answer.public is None
        or not outcome.turn_changed
        or current is None
        or current.hidden
        or not current.owner_id
    ):
        return answer
    # Built rather than dataclasses.replace()d: every turn change comes through here.
    return Reply(answer.public, answer.gm_only, pings=(current.owner_id,))


def _reply(outcome: InitOutcome) -> Reply:
    view, state = outcome.view, outcome.view.state
    turn, gm_turn = now_texts(view) if outcome.turn_changed else (None, None)
    # The GM reads their own turn line only where it says more than the public one.
    gm_extra = gm_turn if gm_turn != turn else None
    name = outcome.subject
    shown = UserText(name) if name is not None else None
    action = outcome.action
    warning = outcome.initiator_warning
    if action == "add":
        lines = "\n".join(_rolled(j) for j in outcome.joined)
        if warning:
            lines += "\n" + warning
        if outcome.joined and outcome.joined[0].hidden:
            return Reply(None, f"{HIDDEN} " + _("Hidden from the players:") + f"\n{lines}")
        return Reply(lines)
    if action == "undo":
        undone = outcome.undone
        assert undone is not None and outcome.before is not None
        text = "↩️ " + _("Undid {event}.", event=_event_text(undone, outcome.before, state))
        if _event_hidden(undone, outcome.before, state):
            undid = "↩️ " + _("The GM undid a change.")
            return Reply(_joined((undid, turn)), _joined((text, gm_extra)))
        return Reply(_joined((text, turn)), gm_extra)
    head = _head(outcome, action, shown)
    notes, gm_notes = _round_notes(outcome)
    protected = getattr(last_event(outcome), "protects", None) if action == "defend" else None
    if action != "reveal" and hidden_in(name, outcome.before, state):
        return Reply(_joined((notes, turn)), _joined((head, gm_notes or notes, gm_turn)))
    if hidden_in(protected, outcome.before, state):
        return Reply(_joined((notes, turn)), _joined((head, gm_notes, gm_extra)))
    return Reply(_joined((head, notes, turn, warning)), _joined((gm_notes, gm_extra)))


def _head(outcome: InitOutcome, action: str, shown: UserText | None) -> str | None:
    """The change's own line: only the action's is worked out (each of them was, for every
    change, when they stood in one table)."""
    if action == "next":
        return None
    if action == "prev":
        return "⏪ " + _("Back one turn.")
    if action == "delay":
        return "⏸️ " + _("**{name}** delays.", name=shown)
    if action == "act":
        return "⏯️ " + _("**{name}** acts now and keeps this place in the order.", name=shown)
    if action == "defend":
        return defend_head(outcome)
    if action in ("condition_add", "condition_remove"):
        return condition_head(outcome)
    if action == "action":
        return action_head(outcome)
    if action == "health":
        return health_head(outcome)
    if action == "reveal":
        return "👀 " + _("**{name}** is revealed!", name=shown)
    if action == "remove":
        return "🚪 " + _("**{name}** leaves the encounter.", name=shown)
    raise KeyError(action)


def _expired(before: ini.Encounter, after: ini.Encounter) -> list[tuple[ini.Combatant, str]]:
    """Conditions that ran out between two states: (bearer, condition name)."""
    gone = []
    for combatant in after.combatants:
        earlier = lookup(combatant.name, before)
        now = {c.key for c in combatant.conditions}
        for condition in () if earlier is None else earlier.conditions:
            if condition.key not in now:
                gone.append((combatant, condition.name))
    return gone


def _round_notes(outcome: InitOutcome) -> tuple[str | None, str | None]:
    """Lines a turn change may bring: a new round's re-rolls, and a delay that ended.

    Returns the public lines and, when hidden combatants are involved, the GM's fuller ones.
    """
    before, state = outcome.before, outcome.view.state
    if before is None or outcome.action not in ("next", "delay", "remove"):
        return None, None
    public: list[str] = []
    gm: list[str] = []
    event = last_event(outcome)
    rerolls = getattr(event, "rerolls", None)
    if rerolls:
        ranked = sorted(rerolls, key=lambda r: (r[1], r[3]), reverse=True)  # the new order
        rolled = [(name, total, hidden_in(name, state)) for name, total, _d, _t in ranked]
        head = "🎲 " + _("Round {round}: everyone re-rolls initiative — ", round=state.round)
        shown = " · ".join(f"**{UserText(n)}** {t}" for n, t, hidden in rolled if not hidden)
        public.append(head + (shown or _("the GM rolled.")))
        if any(hidden for *_, hidden in rolled):
            gm.append(head + " · ".join(f"**{UserText(n)}** {t}" for n, t, _h in rolled))
    current = state.current
    earlier = None if current is None else lookup(current.name, before)
    if current is not None and earlier is not None and earlier.delaying is not None:
        notice = "⏯️ " + _(
            "**{name}**'s place came round again: the delay ends and they take this turn "
            "normally (the delayed action is lost).",
            name=UserText(current.name),
        )
        (gm if current.hidden else public).append(notice)
    for bearer, condition in _expired(before, state):
        line = "⌛ " + _(
            "**{name}**: {condition} wears off.",
            name=UserText(bearer.name),
            condition=UserText(condition),
        )
        (gm if bearer.hidden else public).append(line)
    return _joined(public), _joined(gm)
