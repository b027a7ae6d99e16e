"""Initiative: the tracker embed, the line each change posts, and the end-of-encounter summary.

Hidden combatants appear only when ``gm`` is true (the GM's ephemeral views); the public
tracker and public lines never name them, and a hidden combatant's turn reads as "the GM's
turn". A usual order fits the description with room to spare; only 50 combatants with
64-character names would not, and then the list is cut at its end while whose turn it is
stays on the first line; fit_embed guards every embed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

import discord

from bot.i18n import _, _n
from bot.render import colours
from bot.render.limits import clip, fit_embed
from bot.services.initiative import EncounterView, InitOutcome, Joined
from bot.text import escape, number
from engine import initiative as ini
from engine.systems.coda import CUSTOM as CUSTOM_ACTION

SWORDS = "⚔️"
HIDDEN = "🙈"
PAUSE = "⏸️"
CONDITION = "🩹"
RUN = "🏃"


@dataclass(frozen=True, slots=True)
class Reply:
    """What a change posts: a public line (may mention a player) and a line for the GM only.

    ``pings``: the players the public line may ping (the one whose turn starts), and only them.
    """

    public: str | None
    gm_only: str | None = None
    pings: tuple[int, ...] = ()


def _visible(combatant: ini.Combatant, gm: bool) -> bool:
    return gm or not combatant.hidden


def _turn_of(combatant: ini.Combatant) -> str:
    """``**Hermione**'s turn — @alice`` (the mention pings the player whose turn starts)."""
    hidden = f" {HIDDEN}" if combatant.hidden else ""
    owner = f" — <@{combatant.owner_id}>" if combatant.owner_id else ""
    return _("**{name}**{hidden}'s turn", name=escape(combatant.name), hidden=hidden) + owner


def _score(state: ini.Encounter, combatant: ini.Combatant, gm: bool) -> str:
    """The total, with the roll-off dice when someone this viewer sees shares it."""
    tied = any(
        other is not combatant and other.total == combatant.total and _visible(other, gm)
        for other in state.combatants
    )
    if not (tied and combatant.tiebreak):
        return number(combatant.total)
    return _(
        "{total} (roll-off {dice})",
        total=number(combatant.total),
        dice=", ".join(map(str, combatant.tiebreak)),
    )


def _line(state: ini.Encounter, index: int, combatant: ini.Combatant, gm: bool) -> str:
    hidden = f" {HIDDEN}" if combatant.hidden else ""
    score = _score(state, combatant, gm)
    safe = escape(combatant.name)
    if state.ended:
        return f"{safe}{hidden} — {score}"
    skip = ini.skip_reason(state, combatant, _) if state.started else None
    if combatant.delaying is not None:
        return f"{PAUSE} {safe}{hidden} — {score} · *{skip}*{_conditions(combatant)}"
    name = f"~~{safe}~~" if skip else safe
    if index == state.turn:
        text = f"▶ **{name}**{hidden} — {score}"
    else:
        mark = "✓ " if combatant.acted and state.started else ""
        text = f"{mark}{name}{hidden} — {score}"
    if skip:
        text += f" · *{skip}*"
    return text + _actions(state, combatant) + _conditions(combatant)


def _health(view: EncounterView, combatant: ini.Combatant) -> str:
    """`` · ❤️ 4/10`` for a combatant played from a sheet with Health."""
    found = view.health_of(combatant.name)
    if found is None:
        return ""
    current, top = found
    shown = number(current) + (f"/{number(top)}" if top is not None else "")
    return f" · ❤️ {shown}"


def _actions(state: ini.Encounter, combatant: ini.Combatant) -> str:
    """CODA: `` · 🏃 1 of 2 actions left`` once a combatant has spent some this round."""
    if state.system != "coda" or not combatant.actions:
        return ""
    left = ini.action_budget(state, combatant).left_label(combatant.actions, _)
    return f" · {RUN} {left}"


def _conditions(combatant: ini.Combatant) -> str:
    """`` · 🩹 Stunned (2 rounds, ticks at start), Prone`` (nothing without conditions)."""
    if not combatant.conditions:
        return ""
    return f" · {CONDITION} " + ", ".join(escape(c.label_in(_)) for c in combatant.conditions)


def now_text(view: EncounterView, *, gm: bool) -> str:
    """Whose turn it is, as this viewer may know it."""
    state = view.state
    current = state.current
    if state.ended:
        return _("The encounter ended after {count} round(s).", count=state.round)
    if not state.started:
        return _("Gathering: join with `/init join`; the GM starts round 1 with **Next**.")
    if current is None and state.order and all(c.delaying is not None for c in state.order):
        return _(
            "Round {round} · everyone is delaying: `/init act` brings one back; "
            "**Next** starts round {next}.",
            round=state.round,
            next=state.round + 1,
        )
    if current is None:
        return _(
            "Round {round}: nobody is up; **Next** starts round {next}.",
            round=state.round,
            next=state.round + 1,
        )
    if not _visible(current, gm):
        return _("Round {round} · the GM's turn.", round=state.round)
    text = _("Round {round} · {turn}.", round=state.round, turn=_turn_of(current))
    if view.system == "coda":
        budget = ini.action_budget(state, current)
        left = budget.left_label(current.actions, _) if current.actions else budget.label_in(_)
        text += f" {left}."
    return text


def tracker_embed(view: EncounterView, *, gm: bool = False) -> discord.Embed:
    """The channel's tracker (``gm``: the GM's ephemeral view with hidden combatants)."""
    state = view.state
    if state.ended:
        title = f"{SWORDS} " + _("Initiative — ended")
        colour = colours.NEUTRAL
    elif state.started:
        title = f"{SWORDS} " + _("Initiative — Round {round}", round=state.round)
        colour = colours.INFO
    else:
        title = f"{SWORDS} " + _("Initiative — gathering")
        colour = colours.INFO
    lines = [now_text(view, gm=gm), ""]
    shown = [
        _line(state, index, c, gm) + _health(view, c)
        for index, c in enumerate(state.order)
        if _visible(c, gm)
    ]
    lines += shown or ["*" + _("Nobody has joined yet.") + "*"]
    embed = discord.Embed(title=title, description=clip("\n".join(lines), 4096), colour=colour)
    delayed = [c for c in state.delayed if _visible(c, gm)]
    if delayed and not state.ended:
        embed.add_field(
            name=_("Delayed (act with `/init act`)"),
            value=clip(
                "\n".join(
                    f"{escape(c.name)}{f' {HIDDEN}' if c.hidden else ''} — {_score(state, c, gm)}"
                    for c in delayed
                ),
                1024,
            ),
            inline=False,
        )
    footer = [_(view.system_title)]
    if view.dice:
        footer.append(_("initiative {dice}", dice=view.dice))
    elif view.attribute:
        footer.append(_("initiative + {attribute}", attribute=view.attribute))
    if state.initiator:  # a footer shows no markdown: the name as typed
        footer.append(_("initiator {name}", name=state.initiator))
    if state.reroll:
        footer.append(_("re-roll each round"))
    if gm:
        footer.append(_("GM view · undo: {count} step(s)", count=len(state.log)))
    embed.set_footer(text=" · ".join(footer))
    return fit_embed(embed)


def _rolled(joined: Joined) -> str:
    if joined.roll is None:
        return _(
            "**{name}** joins at **{total}** (set by the GM).",
            name=escape(joined.name),
            total=number(joined.total),
        )
    return _(
        "**{name}** joins: {detail} = **{total}**",
        name=escape(joined.name),
        detail=roll_detail(joined.roll.detail),
        total=number(joined.total),
    )


#: Words the engine writes into an initiative roll's breakdown (:mod:`engine.initiative.rolls`).
_DETAIL_WORDS = ("keep lower", "keep higher", "rolling 6s!")


def roll_detail(detail: str) -> str:
    """An initiative roll's breakdown with the engine's English words in the reply's language.

    The breakdown is stored with the event (a re-roll's too), so it is translated where shown;
    only the fixed words above are, never dice notation or a name.
    """
    for word in _DETAIL_WORDS:
        if word in detail:
            detail = detail.replace(word, _(word))
    return detail


def _lookup(name: str, *states: ini.Encounter | None) -> ini.Combatant | None:
    """The combatant called ``name`` in the first of ``states`` that has it."""
    for state in states:
        if state is None:
            continue
        try:
            return state.find(name)
        except ini.UnknownCombatant:
            continue
    return None


def _hidden(name: str | None, *states: ini.Encounter | None) -> bool:
    """Whether ``name`` is hidden in any of ``states`` (before or after the change)."""
    if name is None:
        return False
    return any(found is not None and found.hidden for found in (_lookup(name, s) for s in states))


def _event_text(event: ini.Event, *states: ini.Encounter) -> str:
    if isinstance(event, ini.Add):
        return _("{name} joining", name=escape(event.name))
    if isinstance(event, ini.NamedEvent):
        found = _lookup(event.name, *states)
        # The combatant's own spelling: an event keeps what the GM typed (e.g. ``spy``).
        name = event.name if found is None else found.name
        shown = escape(name)
        condition = escape(getattr(event, "condition", ""))
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
            action = escape(_(getattr(event, "action", "")))
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
    return _hidden(getattr(event, "name", None), *states)


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
    return replace(answer, pings=(current.owner_id,))


def _reply(outcome: InitOutcome) -> Reply:
    view, state = outcome.view, outcome.view.state
    turn = now_text(view, gm=False) if outcome.turn_changed else None
    gm_turn = now_text(view, gm=True) if outcome.turn_changed else None
    # The GM reads their own turn line only where it says more than the public one.
    gm_extra = gm_turn if gm_turn != turn else None
    name = outcome.subject
    shown = escape(name) if name is not None else None
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
    head = {
        "next": None,
        "prev": "⏪ " + _("Back one turn."),
        "delay": "⏸️ " + _("**{name}** delays.", name=shown),
        "act": "⏯️ " + _("**{name}** acts now and keeps this place in the order.", name=shown),
        "defend": _defend_head(outcome),
        "condition_add": _condition_head(outcome),
        "condition_remove": _condition_head(outcome),
        "action": _action_head(outcome),
        "health": _health_head(outcome),
        "reveal": "👀 " + _("**{name}** is revealed!", name=shown),
        "remove": "🚪 " + _("**{name}** leaves the encounter.", name=shown),
    }[action]
    notes, gm_notes = _round_notes(outcome)
    protected = getattr(_last_event(outcome), "protects", None) if action == "defend" else None
    if action != "reveal" and _hidden(name, outcome.before, state):
        return Reply(_joined((notes, turn)), _joined((head, gm_notes or notes, gm_turn)))
    if _hidden(protected, outcome.before, state):
        return Reply(_joined((notes, turn)), _joined((head, gm_notes, gm_extra)))
    return Reply(_joined((head, notes, turn, warning)), _joined((gm_notes, gm_extra)))


def _last_event(outcome: InitOutcome) -> ini.Event | None:
    log = outcome.view.state.log
    return log[-1] if log else None


def _defend_head(outcome: InitOutcome) -> str:
    """A dodge: a turn used up, or (RULES.md §2) a delayer's delayed action spent."""
    name = outcome.subject
    event = _last_event(outcome)
    before = _lookup(name or "", outcome.before)
    shown = escape(name or "")
    if before is None or before.delaying is None:
        return "🛡️ " + _(
            "**{name}** makes a defensive roll: their turn this round is used up.", name=shown
        )
    protects = getattr(event, "protects", None)
    protected = _lookup(protects, outcome.view.state) if protects else None
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
        other=escape(protected.name),
    )


def _action_head(outcome: InitOutcome) -> str | None:
    """``🏃 **Bob**: Walk (1 action), the 3rd: −5. No test of its own: a TN 5 Nimbleness
    test is needed. 0 of 2 actions left · next −10.``"""
    event = _last_event(outcome)
    before = outcome.before
    name = outcome.subject
    if not isinstance(event, ini.SpendAction) or before is None or name is None:
        return None
    combatant = before.find(name)
    cost = ini.action_spend(before, combatant, event.action, event.cost)
    after = outcome.view.state.find(name)
    action = escape(_(cost.action))
    shown = escape(name)
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
            attribute=escape(named),
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


def _health_head(outcome: InitOutcome) -> str | None:
    """``❤️ **Troll**'s Health: 20 → **8**/20`` (kept on the tracker for an NPC)."""
    name = outcome.subject
    event = _last_event(outcome)
    if not isinstance(event, ini.SetHealth) or outcome.before is None or name is None:
        return None
    before, after = outcome.before.find(name), outcome.view.state.find(name)
    was = "—" if before.health is None else number(before.health)
    now = number(after.health) if after.health is not None else "—"
    top = f"/{number(after.max_health)}" if after.max_health is not None else ""
    return "❤️ " + _(
        "**{name}**'s Health: {was} → **{now}**{top}.",
        name=escape(name),
        was=was,
        now=now,
        top=top,
    )


def _condition_head(outcome: InitOutcome) -> str | None:
    """``🩹 **Bob** is Stunned (2 rounds, ticks at start) — note`` / ``… is no longer Stunned``."""
    event = _last_event(outcome)
    if not isinstance(event, ini.AddCondition | ini.RemoveCondition):
        return None
    name = outcome.subject
    if isinstance(event, ini.RemoveCondition):
        return f"{CONDITION} " + _(
            "**{name}** is no longer {condition}.",
            name=escape(name or ""),
            condition=escape(event.condition.strip()),
        )
    target = _lookup(event.name, outcome.view.state)
    condition = None if target is None else target.conditions[-1]
    if condition is None:
        return None
    note = f" — {escape(condition.note)}" if condition.note else ""
    return f"{CONDITION} " + _(
        "**{name}** is {condition}{note}.",
        name=escape(name or ""),
        condition=escape(condition.label_in(_)),
        note=note,
    )


def _expired(before: ini.Encounter, after: ini.Encounter) -> list[tuple[ini.Combatant, str]]:
    """Conditions that ran out between two states: (bearer, condition name)."""
    gone = []
    for combatant in after.combatants:
        earlier = _lookup(combatant.name, before)
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
    event = _last_event(outcome)
    rerolls = getattr(event, "rerolls", None)
    if rerolls:
        ranked = sorted(rerolls, key=lambda r: (r[1], r[3]), reverse=True)  # the new order
        rolled = [(name, total, _hidden(name, state)) for name, total, _d, _t in ranked]
        head = "🎲 " + _("Round {round}: everyone re-rolls initiative — ", round=state.round)
        shown = " · ".join(f"**{escape(n)}** {t}" for n, t, hidden in rolled if not hidden)
        public.append(head + (shown or _("the GM rolled.")))
        if any(hidden for *_, hidden in rolled):
            gm.append(head + " · ".join(f"**{escape(n)}** {t}" for n, t, _h in rolled))
    current = state.current
    earlier = None if current is None else _lookup(current.name, before)
    if current is not None and earlier is not None and earlier.delaying is not None:
        notice = "⏯️ " + _(
            "**{name}**'s place came round again: the delay ends and they take this turn "
            "normally (the delayed action is lost).",
            name=escape(current.name),
        )
        (gm if current.hidden else public).append(notice)
    for bearer, condition in _expired(before, state):
        line = "⌛ " + _(
            "**{name}**: {condition} wears off.",
            name=escape(bearer.name),
            condition=escape(condition),
        )
        (gm if bearer.hidden else public).append(line)
    return _joined(public), _joined(gm)


def conditions_text(view: EncounterView, *, gm: bool) -> str:
    """``/init condition list``: every visible combatant's conditions, notes included."""
    lines = []
    for combatant in view.state.order:
        if not _visible(combatant, gm) or not combatant.conditions:
            continue
        parts = [
            escape(c.label_in(_)) + (f" — {escape(c.note)}" if c.note else "")
            for c in combatant.conditions
        ]
        lines.append(f"**{escape(combatant.name)}**: " + "; ".join(parts))
    return "\n".join(lines) or _("No combatant has a condition.")


def confirm_end_embed(view: EncounterView) -> discord.Embed:
    state = view.state
    when = _("Round {round}", round=state.round) if state.started else _("Before round 1")
    count = len(state.combatants)
    embed = discord.Embed(
        title=f"{SWORDS} " + _("End this encounter?"),
        description=_(
            "{when}, {count} combatant(s). Ending it posts a summary and frees the channel for "
            "a new encounter; it cannot be undone.",
            when=when,
            count=count,
        ),
        colour=colours.FAILURE,
    )
    return fit_embed(embed)


def summary_embed(outcome: InitOutcome) -> discord.Embed:
    """Rounds fought and who acted how often (hidden combatants left out)."""
    summary = outcome.summary
    assert summary is not None
    shown = [c for c in summary.combatants if not c.hidden]
    lines = [
        _n(
            "**{name}** — {count} turn",
            "**{name}** — {count} turns",
            c.turns,
            name=escape(c.name),
            count=c.turns,
        )
        if c.turns
        else _("{name} — did not act", name=escape(c.name))
        for c in shown
    ]
    rounds = summary.rounds
    title = (
        _n(
            "Encounter over after {count} round",
            "Encounter over after {count} rounds",
            rounds,
            count=rounds,
        )
        if rounds
        else _("Encounter over before round 1")
    )
    embed = discord.Embed(
        title=f"{SWORDS} {title}",
        description=clip("\n".join(lines) or "*" + _("Nobody took part.") + "*", 4096),
        colour=colours.NEUTRAL,
    )
    acted = [c for c in shown if c.turns]
    embed.set_footer(
        text=_("{acted} of {count} combatant(s) acted", acted=len(acted), count=len(shown))
    )
    return fit_embed(embed)
