"""Embeds for Drama in History tests, opposed tests and paying the price."""

from __future__ import annotations

import discord

from bot.render import colours
from bot.render.common import percent, roll_footer, signed, titled
from bot.render.limits import FIELD_VALUE, clip, fit_embed
from bot.render.penalty import change_line, dice_count, level_line
from bot.services.drama import PRICE_WINDOW, PriceOutcome, RollOutcome
from bot.services.drama_opposed import OpposedOutcome
from bot.text import escape, escape_party
from engine import penalty
from engine.systems.drama import (
    PRICE_PENALTY,
    DramaResult,
    Outcome,
    Pools,
    base_value,
    resistance_value,
)
from engine.systems.drama import (
    OpposedOutcome as OpposedKind,
)

PRICE_OFFER = (
    f"Pay the price (+{PRICE_PENALTY} penalty die) within "
    f"{int(PRICE_WINDOW.total_seconds() // 60)} minutes to make it a success."
)
NO_ODDS = "Chance: too long to work out exactly for pools this large (the roll stands)."
LEGEND = "bold = counts · 💥 explodes · ⤷ extra die · ⚠️ penalty die"
OUTCOME_ICONS = {Outcome.SUCCESS: "✅", Outcome.YES_BUT: "⚖️", Outcome.FAILURE: "❌"}
OUTCOME_COLOURS = {
    Outcome.SUCCESS: colours.SUCCESS,
    Outcome.YES_BUT: colours.PARTIAL,
    Outcome.FAILURE: colours.FAILURE,
}


def _die(face: int, counted: bool) -> str:
    return f"**[{face}]**" if counted else f"[{face}]"


def base_faces(result: DramaResult) -> str:
    return " ".join(_die(f, base_value(f) != 0) for f in result.base_faces) or "none"


def resistance_faces(result: DramaResult) -> str:
    return " ".join(_die(f, resistance_value(f) != 0) for f in result.resistance_faces) or "none"


def drama_faces(result: DramaResult) -> str:
    shown = []
    for die in result.drama_faces:
        text = ("⤷" if die.extra else "") + _die(die.face, die.value != 0)
        if die.explodes:
            text += "💥"
        if die.penalty:
            text += "⚠️"
        shown.append(text)
    return " ".join(shown) or "none"


def pools_line(pools: Pools) -> str:
    parts = []
    for part in pools.parts:
        dice = [
            f"{count}{kind}"
            for count, kind in ((part.base, "Bd"), (part.resistance, "Rd"), (part.drama, "Dd"))
            if count
        ]
        if dice:
            parts.append(f"{part.label} ({' '.join(dice)})")
    summary = f"**{pools.base}Bd · {pools.resistance}Rd · {pools.drama}Dd**"
    return f"{summary} = {', '.join(parts)}" if parts else summary


def result_fields(embed: discord.Embed, result: DramaResult, *, prefix: str = "") -> None:
    embed.add_field(
        name=f"{prefix}Base dice {signed(result.base_successes)}",
        value=clip(base_faces(result), FIELD_VALUE),
        inline=False,
    )
    embed.add_field(
        name=f"{prefix}Resistance dice {signed(-result.resistance_losses)}",
        value=clip(resistance_faces(result), FIELD_VALUE),
        inline=False,
    )
    if result.drama_faces:
        exploded = f", {result.exploded} exploded" if result.exploded else ""
        embed.add_field(
            name=f"{prefix}Drama dice {signed(result.drama_net)}{exploded}",
            value=clip(drama_faces(result), FIELD_VALUE),
            inline=False,
        )
    if result.critical:
        ones = result.resistance_faces.count(1)
        embed.add_field(
            name=f"{prefix}Criticals {signed(result.critical_bonus)}",
            value=f"{result.sixes} sixes in Bd and Dd − {ones} Rd ones",
            inline=False,
        )


def _penalty_lines(
    character: str | None,
    penalty_dice: int,
    gained: penalty.PenaltyChange | None,
    *,
    risk: bool = False,
) -> list[str]:
    if character is None:
        return ["No Drama character active here: penalty dice are not tracked."]
    if penalty_dice:
        level = penalty.level_of(penalty_dice)
        where = "rolled as a risk (Dd), by the GM's decision," if risk else "added to Rd"
        lines = [f"{dice_count(penalty_dice)} {where} ({escape(character)} is {level.label})."]
    else:
        lines = [f"{escape(character)} has no penalty dice."]
    if gained is not None:
        lines.append(change_line(gained, what=f"for {escape(character)} from drama-die 1s"))
        if gained.level_changed:
            lines.append(level_line(character, gained))
    return lines


def test_embed(outcome: RollOutcome, roller: str) -> discord.Embed:
    result = outcome.result
    title = f"{OUTCOME_ICONS[outcome.outcome]} {outcome.outcome.label} — net {outcome.net}"
    lines = [pools_line(outcome.pools)]
    if outcome.helpers:
        me = outcome.character or roller
        nets = " + ".join(
            f"{escape_party(name)} {net}"
            for name, net in [(me, result.net), *((h.name, h.result.net) for h in outcome.helpers)]
        )
        lines.append(f"Working together, the nets add up: {nets} = **{outcome.net}**.")
    if outcome.outcome is Outcome.YES_BUT:
        lines.append(PRICE_OFFER)
    chances = outcome.chances
    if chances is None:
        lines.append(NO_ODDS)
    else:
        lines.append(
            f"Chance: {percent(chances[Outcome.SUCCESS])} of success · "
            f"{percent(chances[Outcome.YES_BUT])} of Yes, but…"
        )
    embed = discord.Embed(
        title=titled(title, outcome.label),
        description="\n".join(lines),
        colour=OUTCOME_COLOURS[outcome.outcome],
    )
    result_fields(embed, result)
    for helper in outcome.helpers:
        embed.add_field(
            name=clip(f"{escape_party(helper.name)}: net {helper.result.net}", 256),
            value=clip(f"{pools_line(helper.pools)}\n{_compact(helper.result)}", FIELD_VALUE),
            inline=False,
        )
    _penalty_field(
        embed,
        _penalty_lines(outcome.character, outcome.penalty_dice, outcome.gained, risk=outcome.risk),
    )
    _footer(embed, outcome.rollers or roller, outcome.character, outcome.secrecy.secret)
    return fit_embed(embed)


def _compact(result: DramaResult) -> str:
    """A helper's faces on one line (they roll no drama dice)."""
    return (
        f"Bd {signed(result.base_successes)}: {base_faces(result)} · "
        f"Rd {signed(-result.resistance_losses)}: {resistance_faces(result)}"
    )


def _penalty_field(embed: discord.Embed, lines: list[str]) -> None:
    embed.add_field(name="Penalty dice", value=clip("\n".join(lines), FIELD_VALUE), inline=False)


def _footer(embed: discord.Embed, roller: str, character: str | None, secret: bool) -> None:
    roll_footer(embed, roller, "Drama in History", LEGEND, secret=secret, character=character)


def price_paid_embed(original: discord.Embed, outcome: PriceOutcome) -> discord.Embed:
    """The roll's embed once its price is paid: a success, and the penalty die it cost."""
    embed = original.copy()
    title = original.title or ""
    embed.title = clip(title.replace("⚖️ Yes, but…", "✅ Success (price paid)", 1), 256)
    embed.colour = colours.SUCCESS
    embed.description = (original.description or "").replace(f"\n{PRICE_OFFER}", "")
    if outcome.change is not None and outcome.character is not None:
        lines = [change_line(outcome.change, what="for paying the price")]
        if outcome.change.level_changed:
            lines.append(level_line(outcome.character, outcome.change))
        value = "\n".join(lines)
    else:
        value = "Paid: +1 penalty die (no character to track it on)."
    embed.add_field(name="Price paid", value=clip(value, FIELD_VALUE), inline=False)
    return fit_embed(embed)


OPPOSED_TITLES = {
    OpposedKind.WIN: "🏆 {winner} wins by {level}",
    OpposedKind.DRAW: "🤝 Draw at {net}",
    OpposedKind.BOTH_FAIL: "❌ Both fail",
}


def opposed_embed(outcome: OpposedOutcome, roller: str) -> discord.Embed:
    result = outcome.result
    me = escape(outcome.character or roller)
    them = escape_party(outcome.their_name)
    names = {"a": me, "b": them}
    title = OPPOSED_TITLES[result.outcome].format(
        winner=names.get(result.winner or "", ""), level=result.level, net=result.a.net
    )
    lines = [
        f"**{me}**: net {result.a.net} · **{them}**: net {result.b.net}",
        "A side needs net 2 or more, and more than the other, to win.",
    ]
    if result.outcome is OpposedKind.DRAW:
        if result.winner is not None:
            lines.append(f"Momentum settles the draw: **{names[result.winner]}** prevails.")
        else:
            lines.append("A draw: whoever has the momentum prevails (the GM says who).")
    chances = outcome.chances
    if chances is None:
        lines.append(NO_ODDS)
    else:
        lines.append(
            f"Chance: {me} wins {percent(chances['a'])} · {them} wins "
            f"{percent(chances['b'])} · draw {percent(chances['draw'])} · both fail "
            f"{percent(chances['both fail'])}"
        )
    embed = discord.Embed(
        title=titled(title, outcome.label),
        description="\n".join(lines),
        colour=colours.SUCCESS
        if result.winner == "a"
        else colours.PARTIAL
        if result.outcome is OpposedKind.DRAW
        else colours.FAILURE,
    )
    embed.add_field(name=me, value=clip(pools_line(outcome.pools), FIELD_VALUE), inline=False)
    result_fields(embed, result.a, prefix=f"{me}: ")
    embed.add_field(
        name=them,
        value=clip(pools_line(outcome.their_pools), FIELD_VALUE),
        inline=False,
    )
    result_fields(embed, result.b, prefix=f"{them}: ")
    lines = _penalty_lines(outcome.character, outcome.penalty_dice, outcome.gained)
    if outcome.their_character is not None:
        lines += _penalty_lines(
            outcome.their_character, outcome.their_penalty_dice, outcome.their_gained
        )
    _penalty_field(embed, lines)
    _footer(embed, outcome.rollers or roller, outcome.character, outcome.secrecy.secret)
    return fit_embed(embed)
