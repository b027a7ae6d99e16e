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

from bot.render import colours
from bot.render.limits import clip, fit_embed
from bot.services.initiative import EncounterView, InitOutcome, Joined
from bot.text import escape
from engine import initiative as ini

SWORDS = "⚔️"
HIDDEN = "🙈"


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
    return f"**{escape(combatant.name)}**{hidden}'s turn{owner}"


def _score(state: ini.Encounter, combatant: ini.Combatant, gm: bool) -> str:
    """The total, with the roll-off dice when someone this viewer sees shares it."""
    tied = any(
        other is not combatant and other.total == combatant.total and _visible(other, gm)
        for other in state.combatants
    )
    if not (tied and combatant.tiebreak):
        return str(combatant.total)
    return f"{combatant.total} (roll-off {', '.join(map(str, combatant.tiebreak))})"


def _line(state: ini.Encounter, index: int, combatant: ini.Combatant, gm: bool) -> str:
    skip = ini.skip_reason(state, combatant) if state.started else None
    name = f"~~{escape(combatant.name)}~~" if skip else escape(combatant.name)
    hidden = f" {HIDDEN}" if combatant.hidden else ""
    score = _score(state, combatant, gm)
    if index == state.turn:
        text = f"▶ **{name}**{hidden} — {score}"
    else:
        mark = "✓ " if combatant.acted and state.started else ""
        text = f"{mark}{name}{hidden} — {score}"
    if skip:
        text += f" · *{skip}*"
    return text


def now_text(view: EncounterView, *, gm: bool) -> str:
    """Whose turn it is, as this viewer may know it."""
    state = view.state
    current = state.current
    if state.ended:
        return f"The encounter ended after {state.round} round(s)."
    if not state.started:
        return "Gathering: join with `/init join`; the GM starts round 1 with **Next**."
    if current is None and not any(_visible(c, gm) for c in state.order) and state.delayed:
        return f"Round {state.round} · everyone is delaying: `/init act` brings one back."
    if current is None:
        return f"Round {state.round}: nobody is up; **Next** starts round {state.round + 1}."
    if not _visible(current, gm):
        return f"Round {state.round} · the GM's turn."
    text = f"Round {state.round} · {_turn_of(current)}."
    if view.system == "coda":
        text += f" {ini.action_budget(state, current).label}."
    return text


def tracker_embed(view: EncounterView, *, gm: bool = False) -> discord.Embed:
    """The channel's tracker (``gm``: the GM's ephemeral view with hidden combatants)."""
    state = view.state
    if state.ended:
        title = f"{SWORDS} Initiative — ended"
        colour = colours.NEUTRAL
    elif state.started:
        title = f"{SWORDS} Initiative — Round {state.round}"
        colour = colours.INFO
    else:
        title = f"{SWORDS} Initiative — gathering"
        colour = colours.INFO
    lines = [now_text(view, gm=gm), ""]
    shown = [_line(state, index, c, gm) for index, c in enumerate(state.order) if _visible(c, gm)]
    lines += shown or ["*Nobody has joined yet.*"]
    embed = discord.Embed(title=title, description=clip("\n".join(lines), 4096), colour=colour)
    delayed = [c for c in state.delayed if _visible(c, gm)]
    if delayed:
        embed.add_field(
            name="Delayed (act with `/init act`)",
            value=clip(
                "\n".join(
                    f"{escape(c.name)}{f' {HIDDEN}' if c.hidden else ''} — {_score(state, c, gm)}"
                    for c in delayed
                ),
                1024,
            ),
            inline=False,
        )
    footer = [view.system_title]
    if view.dice:
        footer.append(f"initiative {view.dice}")
    elif view.attribute:
        footer.append(f"initiative + {view.attribute}")
    if state.initiator:  # a footer shows no markdown: the name as typed
        footer.append(f"initiator {state.initiator}")
    if gm:
        footer.append(f"GM view · undo: {len(state.log)} step(s)")
    embed.set_footer(text=" · ".join(footer))
    return fit_embed(embed)


def _rolled(joined: Joined) -> str:
    if joined.roll is None:
        return f"**{escape(joined.name)}** joins at **{joined.total}** (set by the GM)."
    return f"**{escape(joined.name)}** joins: {joined.roll.detail} = **{joined.total}**"


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
        return f"{escape(event.name)} joining"
    if isinstance(event, ini.NamedEvent):
        found = _lookup(event.name, *states)
        # The combatant's own spelling: an event keeps what the GM typed (e.g. ``spy``).
        name = event.name if found is None else found.name
        verb = {
            "remove": "leaving",
            "act": "acting",
            "defend": "defending",
            "reveal": "being revealed",
        }[event.kind]
        return f"{escape(name)} {verb}"
    return {"next": "a Next", "prev": "a Prev", "delay": "a delay", "end": "the end"}[event.kind]


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
            return Reply(None, f"{HIDDEN} Hidden from the players:\n{lines}")
        return Reply(lines)
    if action == "undo":
        undone = outcome.undone
        assert undone is not None and outcome.before is not None
        text = f"↩️ Undid {_event_text(undone, outcome.before, state)}."
        if _event_hidden(undone, outcome.before, state):
            return Reply(_joined(("↩️ The GM undid a change.", turn)), _joined((text, gm_extra)))
        return Reply(_joined((text, turn)), gm_extra)
    head = {
        "next": None,
        "prev": "⏪ Back one turn.",
        "delay": f"⏸️ **{shown}** delays.",
        "act": f"⏯️ **{shown}** acts now and keeps this place in the order.",
        "defend": f"🛡️ **{shown}** makes a defensive roll: their turn this round is used up.",
        "reveal": f"👀 **{shown}** is revealed!",
        "remove": f"🚪 **{shown}** leaves the encounter.",
    }[action]
    if action != "reveal" and _hidden(name, outcome.before, state):
        return Reply(turn, _joined((head, gm_turn)))
    return Reply(_joined((head, turn, warning)), gm_extra)


def confirm_end_embed(view: EncounterView) -> discord.Embed:
    state = view.state
    embed = discord.Embed(
        title=f"{SWORDS} End this encounter?",
        description=(
            f"{f'Round {state.round}' if state.started else 'Before round 1'}, "
            f"{len(state.combatants)} combatant(s). Ending it posts a summary and frees the "
            "channel for a new encounter; it cannot be undone."
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
        f"**{escape(c.name)}** — {c.turns} turn{'s' if c.turns != 1 else ''}"
        if c.turns
        else f"{escape(c.name)} — did not act"
        for c in shown
    ]
    rounds = summary.rounds
    plural = "s" if rounds != 1 else ""
    after = f"after {rounds} round{plural}" if rounds else "before round 1"
    embed = discord.Embed(
        title=f"{SWORDS} Encounter over {after}",
        description=clip("\n".join(lines) or "*Nobody took part.*", 4096),
        colour=colours.NEUTRAL,
    )
    acted = [c for c in shown if c.turns]
    embed.set_footer(text=f"{len(acted)} of {len(shown)} combatant(s) acted")
    return fit_embed(embed)
