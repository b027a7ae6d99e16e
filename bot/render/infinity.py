"""Embeds for ``/infinity``: every die with its value and mark, the SV arithmetic, the chances."""

from __future__ import annotations

from collections.abc import Iterable

import discord

from bot.render import colours
from bot.render.common import number, percent, roll_footer, titled
from bot.render.limits import clip, fit_embed
from bot.services.infinity import (
    FaceToFaceOutcome,
    NormalOutcome,
    SaveOutcome,
    Source,
    SplitOutcome,
)
from bot.text import escape
from engine.systems.infinity import (
    D20,
    Decision,
    Die,
    DieStatus,
    FaceToFaceResult,
    NormalResult,
)
from engine.systems.infinity_mods import Mods

SYSTEM = "Infinity CodeOne"

_MARKS = {
    DieStatus.CRITICAL: "💥 critical",
    DieStatus.SUCCESS: "✅ success",
    DieStatus.FAILURE: "❌ failure",
    DieStatus.CANCELLED: "🚫 cancelled",
}


def die_text(die: Die) -> str:
    """``**17+3=20** 💥 critical``: the face, the value compared when it differs, the mark."""
    shown = (
        f"{die.face}" if die.value == die.face else f"{die.face}+{die.value - die.face}={die.value}"
    )
    if die.status is DieStatus.CANCELLED:
        shown = f"~~{shown}~~"
    elif die.status is not DieStatus.FAILURE:
        shown = f"**{shown}**"
    return f"{shown} {_MARKS[die.status]}"


def dice_text(dice: Iterable[Die]) -> str:
    return " · ".join(die_text(d) for d in dice) or "no dice rolled"


def _successes(n: int) -> str:
    return f"{n} success" + ("" if n == 1 else "es")


def _with_criticals(successes: int, criticals: int) -> str:
    """ "2 successes, 1 of them a Critical": Criticals are successes, not extra ones."""
    if criticals == successes:
        return "1 success: a Critical" if successes == 1 else f"{successes} successes, all Critical"
    which = "a Critical" if criticals == 1 else "Criticals"
    return f"{_successes(successes)}, {criticals} of them {which}"


def _hits(n: int) -> str:
    return f"{n} hit" + ("" if n == 1 else "s")


def _footer(embed: discord.Embed, roller: str, secret: bool, *sources: Source) -> None:
    characters = ", ".join(dict.fromkeys(s.character for s in sources if s.character))
    roll_footer(embed, f"{roller} rolled", SYSTEM, secret=secret, character=characters or None)


def _roll_lines(result: NormalResult, source: Source, mods: Mods | None = None) -> list[str]:
    lines = [result.describe(source.name)]
    if mods is not None:
        lines.insert(0, f"**MODs:** {mods.text()}")
    if not result.auto_fail:
        lines.append(f"**Dice (B{result.burst}):** {dice_text(result.dice)}")
    return lines


def normal_embed(outcome: NormalOutcome, roller: str) -> discord.Embed:
    result, odds = outcome.result, outcome.odds
    name = outcome.source.name
    subject = f"{escape(name)} roll" if name else f"SV {number(result.sv)}"
    if result.auto_fail:
        headline, colour = "❌ Automatic failure", colours.DISASTER
    elif result.critical:
        headline = f"💥 {_with_criticals(result.successes, result.criticals)}"
        colour = colours.GREAT_SUCCESS
    elif result.success:
        headline, colour = f"✅ {_successes(result.successes)}", colours.SUCCESS
    else:
        headline, colour = "❌ Failure", colours.FAILURE
    title = titled(f"{headline} · {subject}", outcome.label)
    if outcome.secrecy.secret:
        colour = colours.SECRET
    embed = discord.Embed(
        title=title,
        description="\n".join(_roll_lines(result, outcome.source, outcome.mods)),
        colour=colour,
    )
    chance = f"{percent(odds.success)} of at least one success"
    if odds.success > 0:
        chance += (
            f" · Critical {percent(odds.critical)}"
            f" · expected successes {odds.expected_successes:.2f}"
        )
    embed.add_field(name="Chance", value=chance, inline=False)
    _footer(embed, roller, outcome.secrecy.secret, outcome.source)
    return fit_embed(embed)


_SIDE = {"a": "Active", "b": "Reactive"}
#: A face to face nobody wins: its headline, and why in words.
_NOBODY = {
    Decision.BOTH_CRITICAL: (
        "⚖️ Nobody wins: both rolled a Critical",
        "Both sides rolled a Critical: every die is cancelled.",
    ),
    Decision.TIE: (
        "⚖️ Nobody wins: the best successes tie",
        "The best successes are equal: they cancel each other, and every lower success falls "
        "with them.",
    ),
    Decision.BOTH_FAILED: ("❌ Nobody wins: both failed", "Neither side rolled a success."),
}


def _headline(result: FaceToFaceResult, sides: dict[str, str] = _SIDE) -> str:
    """``🎯 Active wins — 2 hits`` (``sides`` names "a" and "b")."""
    decision = result.decision
    if result.winner is None:
        return _NOBODY[decision][0]
    side = sides[result.winner]
    hits = len(result.hits)
    how = " with a Critical" if decision is Decision.CRITICAL else ""
    return f"{'💥' if how else '🎯'} {side} wins{how} — {_hits(hits)}"


def ftf_embed(outcome: FaceToFaceOutcome, roller: str) -> discord.Embed:
    result, odds = outcome.result, outcome.odds
    if outcome.secrecy.secret:
        colour = colours.SECRET
    elif result.winner is None:
        colour = colours.PARTIAL
    elif result.decision is Decision.CRITICAL:
        colour = colours.GREAT_SUCCESS
    else:
        colour = colours.SUCCESS if result.winner == "a" else colours.FAILURE
    lines = [f"*{_explain(outcome)}*"]
    if result.hits:
        lines.append(f"**Hits:** {' · '.join(die_text(d) for d in result.hits)}")
    embed = discord.Embed(
        title=titled(_headline(outcome.result), outcome.label),
        description="\n".join(lines),
        colour=colour,
    )
    for key, side, source in (("a", result.a, outcome.active), ("b", result.b, outcome.reactive)):
        name = _SIDE[key] + (f" — {escape(source.character)}" if source.character else "")
        mods = outcome.mods if key == "a" else None
        embed.add_field(name=name, value="\n".join(_roll_lines(side, source, mods)), inline=False)
    embed.add_field(
        name="Chance",
        value=(
            f"Active wins {percent(odds.a_wins)} · reactive wins {percent(odds.b_wins)}"
            f" · nobody {percent(odds.neither)}\n"
            f"Expected hits: active {odds.a_expected_hits:.2f} · "
            f"reactive {odds.b_expected_hits:.2f}"
        ),
        inline=False,
    )
    who = outcome.rollers or roller
    _footer(embed, who, outcome.secrecy.secret, outcome.active, outcome.reactive)
    return fit_embed(embed)


def _explain(outcome: FaceToFaceOutcome) -> str:
    result = outcome.result
    decision = result.decision
    if result.winner is None:
        return _NOBODY[decision][1]
    winner, loser = _SIDE[result.winner], _SIDE["b" if result.winner == "a" else "a"]
    if decision is Decision.CRITICAL:
        return f"A Critical beats any success: every {loser.lower()} success is cancelled."
    if decision is Decision.UNOPPOSED:
        return f"The {loser.lower()} side has no success: every {winner.lower()} success hits."
    return (
        f"{winner}'s successes above the {loser.lower()} side's best one hit; "
        "the rest are cancelled."
    )


def save_embed(outcome: SaveOutcome, roller: str) -> discord.Embed:
    result, odds = outcome.result, outcome.odds
    if result.wounds:
        headline = f"🩸 {result.wounds} Wound" + ("" if result.wounds == 1 else "s")
        colour = colours.DISASTER if result.wounds == result.hits else colours.FAILURE
    else:
        headline, colour = "🛡️ Saved: no Wounds", colours.SUCCESS
    if outcome.secrecy.secret:
        colour = colours.SECRET
    target = result.attack_damage
    if target <= 0:
        rule = "every save passes"
    elif target >= D20:
        rule = "every save fails"
    else:
        rule = f"a face of {target} or less fails and costs a Wound"
    dice = " · ".join(
        f"**{d.face}** ✅ saved" if d.saved else f"{d.face} 🩸 wound" for d in result.dice
    )
    embed = discord.Embed(
        title=titled(f"{headline} — saving roll", outcome.label),
        description=(
            f"**Attack damage:** {result.describe(outcome.source.name or 'ARM')} — {rule}\n"
            f"**Saves ({_hits(result.hits)}):** {dice}"
        ),
        colour=colour,
    )
    embed.add_field(
        name="Chance",
        value=(
            f"{percent(odds.no_wounds)} of no Wound · each save fails "
            f"{percent(odds.fail_chance)} · expected Wounds {odds.expected_wounds:.2f}"
        ),
        inline=False,
    )
    _footer(embed, roller, outcome.secrecy.secret, outcome.source)
    return fit_embed(embed)


def split_embed(outcome: SplitOutcome, roller: str) -> discord.Embed:
    """One field per target: the active dice aimed at it, its own dice, who won, the odds."""
    result = outcome.result
    active_hits = sum(len(d.a_hits) for d in result.duels)
    answered = sum(1 for d in result.duels if d.winner == "b")
    title = f"🎯 Burst split among {len(result.duels)} targets — active {_hits(active_hits)}"
    if answered:
        title += f", {answered} target(s) hit back"
    lines = [*_roll_lines(result.attack, outcome.active, outcome.mods)]
    lines.append("*Each target faces only the dice aimed at it, in the order given.*")
    embed = discord.Embed(
        title=titled(title, outcome.label),
        description="\n".join(lines),
        colour=colours.SECRET if outcome.secrecy.secret else colours.NEUTRAL,
    )
    for name, target, duel, odds in zip(
        outcome.names, result.targets, result.duels, outcome.odds, strict=True
    ):
        source = outcome.reactive if name == "Reactive" else Source(target.attribute)
        value = "\n".join(
            [
                f"**Aimed (B{target.aimed}):** {dice_text(duel.a.dice)}",
                duel.b.describe(source.name),
                f"**Its dice (B{target.burst}):** {dice_text(duel.b.dice)}",
                _headline(duel, {"a": "Active", "b": "Target"}),
                f"Chance: active wins {percent(odds.a_wins)} · target wins "
                f"{percent(odds.b_wins)} · nobody {percent(odds.neither)}",
            ]
        )
        embed.add_field(name=clip(f"→ {name}", 256), value=clip(value, 1024), inline=False)
    _footer(embed, roller, outcome.secrecy.secret, outcome.active, outcome.reactive)
    return fit_embed(embed)
