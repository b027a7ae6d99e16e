"""Initiative: the tracker embed, the line each change posts, and the end-of-encounter summary.

Hidden combatants appear only when ``gm`` is true (the GM's ephemeral views); the public
tracker and public lines never name them, and a hidden combatant's turn reads as "the GM's
turn". Names are at most 64 characters and an encounter at most 50 combatants, so the
order fits a description; fit_embed still guards every embed.
"""

from __future__ import annotations

from dataclasses import dataclass

import discord

from bot.render import colours
from bot.render.limits import clip, fit_embed
from bot.services.initiative import EncounterView, InitOutcome, Joined
from engine import initiative as ini

SWORDS = "⚔️"
HIDDEN = "🙈"


@dataclass(frozen=True, slots=True)
class Reply:
    """What a change posts: a public line (may mention a player) and a line for the GM only."""

    public: str | None
    gm_only: str | None = None
    mention: int | None = None


def _visible(combatant: ini.Combatant, gm: bool) -> bool:
    return gm or not combatant.hidden


def _turn_of(combatant: ini.Combatant) -> str:
    """``**Hermione**'s turn — @alice`` (the mention pings the player whose turn starts)."""
    hidden = f" {HIDDEN}" if combatant.hidden else ""
    owner = f" — <@{combatant.owner_id}>" if combatant.owner_id else ""
    return f"**{combatant.name}**{hidden}'s turn{owner}"


def _line(state: ini.Encounter, index: int, combatant: ini.Combatant) -> str:
    skip = ini.skip_reason(state, combatant) if state.started else None
    name = f"~~{combatant.name}~~" if skip else combatant.name
    hidden = f" {HIDDEN}" if combatant.hidden else ""
    if index == state.turn:
        text = f"▶ **{name}**{hidden} — {combatant.total}"
    else:
        mark = "✓ " if combatant.acted and state.started else ""
        text = f"{mark}{name}{hidden} — {combatant.total}"
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
    shown = [_line(state, index, c) for index, c in enumerate(state.order) if _visible(c, gm)]
    lines += shown or ["*Nobody has joined yet.*"]
    embed = discord.Embed(title=title, description=clip("\n".join(lines), 4096), colour=colour)
    delayed = [c for c in state.delayed if _visible(c, gm)]
    if delayed:
        embed.add_field(
            name="Delayed (act with `/init act`)",
            value=clip(
                "\n".join(
                    f"{c.name}{f' {HIDDEN}' if c.hidden else ''} — {c.total}" for c in delayed
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
    if state.initiator:
        footer.append(f"initiator {state.initiator}")
    if gm:
        footer.append(f"GM view · undo: {len(state.log)} step(s)")
    embed.set_footer(text=" · ".join(footer))
    return fit_embed(embed)


def _rolled(joined: Joined) -> str:
    if joined.roll is None:
        return f"**{joined.name}** joins at **{joined.total}** (set by the GM)."
    return f"**{joined.name}** joins: {joined.roll.detail} = **{joined.total}**"


def _subject_hidden(outcome: InitOutcome) -> bool:
    """Whether the change names a combatant the players may not see (before or after)."""
    name = outcome.subject
    if name is None:
        return False
    for state in (outcome.before, outcome.view.state):
        if state is None:
            continue
        try:
            if state.find(name).hidden:
                return True
        except ini.UnknownCombatant:
            continue
    return False


def _stored_name(name: str, *states: ini.Encounter) -> str:
    """The combatant's own spelling (an event keeps what the GM typed, e.g. ``spy``)."""
    for state in states:
        try:
            return state.find(name).name
        except ini.UnknownCombatant:
            continue
    return name


def _event_text(event: ini.Event, *states: ini.Encounter) -> str:
    if isinstance(event, ini.Add):
        return f"{event.name} joining"
    if isinstance(event, ini.Remove):
        return f"{_stored_name(event.name, *states)} leaving"
    if isinstance(event, ini.Act | ini.Defend | ini.Reveal):
        verb = {"act": "acting", "defend": "defending", "reveal": "being revealed"}[event.kind]
        return f"{_stored_name(event.name, *states)} {verb}"
    return {"next": "a Next", "prev": "a Prev", "delay": "a delay", "end": "the end"}[event.kind]


def _event_hidden(event: ini.Event, *states: ini.Encounter) -> bool:
    name = getattr(event, "name", None)
    if name is None:
        return False
    for state in states:
        try:
            if state.find(name).hidden:
                return True
        except ini.UnknownCombatant:
            continue
    return isinstance(event, ini.Add) and event.hidden


def reply(outcome: InitOutcome) -> Reply:
    """The public line for a change (never naming a hidden combatant) and the GM's own line."""
    view, state = outcome.view, outcome.view.state
    turn = now_text(view, gm=False) if outcome.turn_changed else None
    gm_turn = now_text(view, gm=True) if outcome.turn_changed else None
    current = state.current
    mention = (
        current.owner_id
        if outcome.turn_changed and current is not None and not current.hidden
        else None
    )
    name = outcome.subject
    action = outcome.action
    if action == "add":
        lines = "\n".join(_rolled(j) for j in outcome.joined)
        if outcome.joined and outcome.joined[0].hidden:
            return Reply(None, f"{HIDDEN} Hidden from the players:\n{lines}")
        return Reply(lines)
    if action == "undo":
        undone = outcome.undone
        assert undone is not None and outcome.before is not None
        if _event_hidden(undone, outcome.before, state):
            text = f"↩️ Undid {_event_text(undone, outcome.before, state)}."
            return Reply(
                "↩️ The GM undid a change." + (f"\n{turn}" if turn else ""),
                text + (f"\n{gm_turn}" if gm_turn and gm_turn != turn else ""),
                mention,
            )
        text = f"↩️ Undid {_event_text(undone, outcome.before, state)}." + (
            f"\n{turn}" if turn else ""
        )
        return Reply(text, None, mention)
    head = {
        "next": None,
        "prev": "⏪ Back one turn.",
        "delay": f"⏸️ **{name}** delays.",
        "act": f"⏯️ **{name}** acts now and keeps this place in the order.",
        "defend": f"🛡️ **{name}** makes a defensive roll: their turn this round is used up.",
        "reveal": f"👀 **{name}** is revealed!",
        "remove": f"🚪 **{name}** leaves the encounter.",
    }[action]
    if _subject_hidden(outcome) and action != "reveal":
        public = turn
        gm_line = "\n".join(x for x in (head, gm_turn) if x)
        return Reply(public, gm_line, mention)
    public = "\n".join(x for x in (head, turn) if x) or None
    gm_only = gm_turn if gm_turn and gm_turn != turn else None
    return Reply(public, gm_only, mention)


def confirm_end_embed(view: EncounterView) -> discord.Embed:
    state = view.state
    embed = discord.Embed(
        title=f"{SWORDS} End this encounter?",
        description=(
            f"Round {state.round}, {len(state.combatants)} combatant(s). Ending it posts a "
            "summary and frees the channel for a new encounter; it cannot be undone."
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
        f"**{c.name}** — {c.turns} turn{'s' if c.turns != 1 else ''}"
        if c.turns
        else f"{c.name} — did not act"
        for c in shown
    ]
    embed = discord.Embed(
        title=f"{SWORDS} Encounter over after {summary.rounds} round(s)",
        description=clip("\n".join(lines) or "*Nobody took part.*", 4096),
        colour=colours.NEUTRAL,
    )
    acted = [c for c in shown if c.turns]
    embed.set_footer(text=f"{len(acted)} of {len(shown)} combatant(s) acted")
    return fit_embed(embed)
