"""The tracker: the channel's initiative embed, whose turn it is, and the condition list.

Hidden combatants appear only when ``gm`` is true (the GM's ephemeral views); the public
tracker never names them, and a hidden combatant's turn reads as "the GM's turn". A usual
order fits the description with room to spare; only 50 combatants with 64-character names
would not, and then the list is cut at its end while whose turn it is stays on the first
line; fit_embed guards every embed. The marks used here are shared with the reply lines.
"""

from __future__ import annotations

from functools import lru_cache

import discord

from bot.i18n import _, current_language
from bot.render import colours
from bot.render.limits import clip, fit_embed, fits
from bot.services.initiative import EncounterView
from bot.text import UserText, number
from engine import initiative as ini

SWORDS = "⚔️"
HIDDEN = "🙈"
PAUSE = "⏸️"
CONDITION = "🩹"
RUN = "🏃"


def visible(combatant: ini.Combatant, gm: bool) -> bool:
    return gm or not combatant.hidden


def _turn_of(combatant: ini.Combatant) -> str:
    """``**Hermione**'s turn — @alice`` (the mention pings the player whose turn starts)."""
    hidden = f" {HIDDEN}" if combatant.hidden else ""
    owner = f" — <@{combatant.owner_id}>" if combatant.owner_id else ""
    return _("**{name}**{hidden}'s turn", name=UserText(combatant.name), hidden=hidden) + owner


def _shared_totals(shown: list[ini.Combatant]) -> set[int]:
    """The totals two or more of ``shown`` (everyone this viewer sees) have: found once per
    tracker, not again for each line (which compared every combatant with every other)."""
    once: set[int] = set()
    shared: set[int] = set()
    for combatant in shown:
        (shared if combatant.total in once else once).add(combatant.total)
    return shared


def _score(combatant: ini.Combatant, shared: set[int]) -> str:
    """The total, with the roll-off dice when someone else this viewer sees shares it
    (``shared``: :func:`_shared_totals` of the combatants shown, this one among them)."""
    if not (combatant.total in shared and combatant.tiebreak):
        return number(combatant.total)
    return _(
        "{total} (roll-off {dice})",
        total=number(combatant.total),
        dice=", ".join(map(str, combatant.tiebreak)),
    )


def _line(state: ini.Encounter, index: int, combatant: ini.Combatant, shared: set[int]) -> str:
    hidden = f" {HIDDEN}" if combatant.hidden else ""
    score = _score(combatant, shared)
    safe = UserText(combatant.name)
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
    budget = ini.action_budget(state, combatant)
    return f" · {RUN} {_budget_label(budget, combatant.actions, current_language())}"


@lru_cache(maxsize=256)
def _budget_label(budget: ini.ActionBudget, spent: int, language: str) -> str:
    """``budget.left_label(spent)`` (``spent`` 0: ``budget.label_in``), in ``language``.

    Remembered: a CODA tracker and turn line say one of a handful of budgets, and each label
    took some sixty calls (ordinals, penalties, four lookups) every time it was said.
    ``language`` is the current one (``_`` reads it), passed to key the memo.
    """
    return budget.left_label(spent, _) if spent else budget.label_in(_)


def _conditions(combatant: ini.Combatant) -> str:
    """`` · 🩹 Stunned (2 rounds, ticks at start), Prone`` (nothing without conditions)."""
    if not combatant.conditions:
        return ""
    return f" · {CONDITION} " + ", ".join(
        str(UserText(c.label_in(_))) for c in combatant.conditions
    )


#: How many turn lines :func:`now_text` remembers (a few per table playing now).
SAID = 256
#: The turn lines said lately, by (the state's order's id, viewer, language): the entry holds
#: that order, so the id is not reused while it is kept, and its round, turn, ending and system.
_said: dict[tuple[int, bool, str], tuple[tuple[object, ...], str]] = {}


def now_text(view: EncounterView, *, gm: bool) -> str:
    """Whose turn it is, as this viewer may know it.

    A change's reply and its tracker edit say the same line of the same state (the tracker's
    is the change's without its history: the same order): it is worked out once. The line
    reads only the order, round, turn, ending and system, and the language, all in the key.
    """
    state = view.state
    language = current_language()
    key = (id(state.order), gm, language)
    facts = (state.order, state.round, state.turn, state.ended, state.system)
    said = _said.get(key)
    if said is not None and said[0][0] is state.order and said[0] == facts:
        return said[1]
    text = _now_text(view, gm=gm)
    _said.pop(key, None)  # re-inserted last: the oldest go first
    if len(_said) >= SAID:
        del _said[next(iter(_said))]
    _said[key] = (facts, text)
    return text


def _now_text(view: EncounterView, *, gm: bool) -> str:
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
    if not visible(current, gm):
        return _("Round {round} · the GM's turn.", round=state.round)
    text = _("Round {round} · {turn}.", round=state.round, turn=_turn_of(current))
    if view.system == "coda":
        budget = ini.action_budget(state, current)
        text += f" {_budget_label(budget, current.actions, current_language())}."
    return text


def now_texts(view: EncounterView) -> tuple[str, str]:
    """:func:`now_text` for everyone and for a GM, computed once when they are the same
    (the viewer matters only while a hidden combatant is up)."""
    public = now_text(view, gm=False)
    current = view.state.current
    if current is None or visible(current, False) or view.state.ended or not view.state.started:
        return public, public
    return public, now_text(view, gm=True)


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
    seen = [(index, c) for index, c in enumerate(state.order) if visible(c, gm)]
    shared = _shared_totals([c for _index, c in seen])
    shown = [_line(state, index, c, shared) + _health(view, c) for index, c in seen]
    lines += shown or ["*" + _("Nobody has joined yet.") + "*"]
    description = clip("\n".join(lines), 4096)
    embed = discord.Embed(title=title, description=description, colour=colour)
    delayed = [c for c in state.delayed if visible(c, gm)]
    field = bool(delayed) and not state.ended
    if field:
        embed.add_field(
            name=_("Delayed (act with `/init act`)"),
            value=clip(
                "\n".join(
                    f"{UserText(c.name)}{f' {HIDDEN}' if c.hidden else ''} — {_score(c, shared)}"
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
        footer.append(_("initiative + {attribute}", attribute=UserText(view.attribute).plain()))
    if state.initiator:  # a footer shows no markdown: the name as typed (no bidi controls)
        footer.append(_("initiator {name}", name=UserText(state.initiator).plain()))
    if state.reroll:
        footer.append(_("re-roll each round"))
    if gm:
        footer.append(_("GM view · undo: {count} step(s)", count=len(state.log)))
    text = " · ".join(footer)
    embed.set_footer(text=text)
    return embed if not field and fits(title, description, text) else fit_embed(embed)


def conditions_text(view: EncounterView, *, gm: bool) -> str:
    """``/init condition list``: every visible combatant's conditions, notes included."""
    lines = []
    for combatant in view.state.order:
        if not visible(combatant, gm) or not combatant.conditions:
            continue
        parts = [
            str(UserText(c.label_in(_))) + (f" — {UserText(c.note)}" if c.note else "")
            for c in combatant.conditions
        ]
        lines.append(f"**{UserText(combatant.name)}**: " + "; ".join(parts))
    return "\n".join(lines) or _("No combatant has a condition.")
