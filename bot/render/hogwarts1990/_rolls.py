"""Hogwarts 1990 embeds (roll, defended roll, opposed): both d20 (the kept one in bold, a
reroll shown replacing its die), the bonus named term by term, the outcome in words with its
colour, and the chances."""

from __future__ import annotations

import discord

from bot.i18n import _
from bot.render import colours
from bot.render.common import percent, roll_footer, titled
from bot.render.limits import clip, fit_embed
from bot.services.hogwarts1990 import OpposedOutcome, RollOutcome, Side
from bot.text import UserText, number
from engine.systems.hogwarts1990 import Outcome, Roll

OUTCOME_COLOURS: dict[Outcome, discord.Colour] = {
    Outcome.EXCEPTIONAL: colours.GREAT_SUCCESS,
    Outcome.SUCCESS: colours.SUCCESS,
    Outcome.FAILURE: colours.FAILURE,
    Outcome.CRITICAL_FAILURE: colours.DISASTER,
    Outcome.ROLLED: colours.NEUTRAL,
}
OUTCOME_ICONS: dict[Outcome, str] = {
    Outcome.EXCEPTIONAL: "🌟",
    Outcome.SUCCESS: "✅",
    Outcome.FAILURE: "❌",
    Outcome.CRITICAL_FAILURE: "💀",
    Outcome.ROLLED: "🎲",
}


def dice_text(roll: Roll) -> str:
    """``[3] **[11]**``, or with advantage ``~~[3]~~ → [17] **[11]**`` (kept die in bold)."""
    kept_index = _kept_index(roll)
    shown = []
    for index, face in enumerate(roll.dice):
        text = f"**[{face}]**" if index == kept_index else f"[{face}]"
        if roll.rerolled == index:
            text = f"~~[{roll.faces[index]}]~~ → {text}"
        shown.append(text)
    return " ".join(shown)


def _kept_index(roll: Roll) -> int:
    return roll.dice.index(roll.kept)


def kind_text(roll: Roll) -> str:
    kind = (
        _("stress roll: keeps the lower") if roll.stress else _("standard roll: keeps the higher")
    )
    if roll.advantage_used:
        kind += " · " + _("advantage: the lower die rerolled")
    elif roll.advantage_refused:
        kind += " · " + _("advantage refused: doubles that would fail are not rerolled")
    elif roll.advantage_kept:
        kind += " · " + _("advantage not used: the first roll succeeded")
    return kind


def arithmetic(roll: Roll, side: Side) -> str:
    text = f"{roll.kept} {side.terms()} = **{number(roll.total)}**"
    if roll.difficulty is not None:
        text += " " + _("vs {difficulty}", difficulty=roll.difficulty)
    return text


def doubles_note(roll: Roll) -> str | None:
    if not roll.doubles:
        return None
    if roll.exceptional:
        return "🎯 " + _("Doubles on a success: an **Exceptional success**.")
    if roll.critical_failure:
        return "🎭 " + _("Doubles on a failure: a **Critical failure**.")
    return _("Doubles, with no difficulty: they mean nothing.")


def roll_embed(outcome: RollOutcome, roller: str) -> discord.Embed:
    roll = outcome.roll
    result = roll.outcome
    heading = number(roll.total) if result is Outcome.ROLLED else _(result.label)
    title = titled(f"{OUTCOME_ICONS[result]} {heading}", outcome.label or _subject(outcome.side))
    lines = [
        _("**Dice:** {dice} ({kind})", dice=dice_text(roll), kind=kind_text(roll)),
        arithmetic(roll, outcome.side),
    ]
    if outcome.defense is not None:
        defense = outcome.defense
        if defense.defender:
            line = _(
                "Defended: the difficulty is {defender}'s {terms}",
                defender=clip(defense.defender, 100),
                terms=defense.text(),
            )
        else:
            line = _("Defended: the difficulty is {terms}", terms=defense.text())
        lines.append(f"🛡️ {line}")
    note = doubles_note(roll)
    if note:
        lines.append(note)
    if outcome.odds is not None:
        odds = outcome.odds
        lines.append(
            _(
                "Chance: {success} · exceptional {exceptional} · critical failure {critical}",
                success=percent(odds.success),
                exceptional=percent(odds.exceptional),
                critical=percent(odds.critical_failure),
            )
        )
    colour = colours.SECRET if outcome.secrecy.secret else OUTCOME_COLOURS[result]
    embed = discord.Embed(title=title, description="\n".join(lines), colour=colour)
    roll_footer(embed, roller, "Hogwarts 1990", secret=outcome.secrecy.secret)
    return fit_embed(embed)


def _subject(side: Side) -> UserText:
    """A title's subject without a label: the character and attribute the player named."""
    if side.character and side.attribute:
        return UserText(f"{side.character} · {side.attribute}")
    return UserText(_("Hogwarts 1990 roll"))  # no special character: shown as it is


def _side_name(side: Side, unnamed: str) -> str:
    """A side as the embed names it: its sheet's (or ``vs_name``), escaped, else ``unnamed``
    (the roller's display name, or "Opponent"); 60 characters at most."""
    return UserText(side.name).shown(60) if side.named else clip(unnamed, 60)


def opposed_embed(outcome: OpposedOutcome, roller: str) -> discord.Embed:
    result = outcome.result
    a_name = _side_name(outcome.a, roller)
    b_name = _side_name(outcome.b, _("Opponent"))
    if result.winner is None:
        heading = "🤝 " + _("Tie at {total}", total=number(result.a.total))
    else:
        winner = a_name if result.winner == "a" else b_name
        heading = "🏆 " + _("{winner} wins by {margin}", winner=winner, margin=abs(result.margin))
    embed = discord.Embed(
        title=titled(heading, outcome.label),
        description=_(
            "Chance: {a} {a_chance} · {b} {b_chance} · tie {tie}",
            a=a_name,
            a_chance=percent(outcome.odds.a),
            b=b_name,
            b_chance=percent(outcome.odds.b),
            tie=percent(outcome.odds.tie),
        ),
        colour=colours.SECRET if outcome.secrecy.secret else colours.NEUTRAL,
    )
    for name, roll, side in ((a_name, result.a, outcome.a), (b_name, result.b, outcome.b)):
        embed.add_field(
            name=name,
            value=f"{dice_text(roll)}\n{kind_text(roll)}\n{arithmetic(roll, side)}",
            inline=True,
        )
    who = outcome.rollers or roller
    roll_footer(embed, who, _("Hogwarts 1990 opposed roll"), secret=outcome.secrecy.secret)
    return fit_embed(embed)
