"""CODA embeds: every die (rolling-6s dice marked), the arithmetic, the degree in words with
its colour, the time factor and the chance of success before the roll."""

from __future__ import annotations

import discord

from bot.i18n import N_, _, _n
from bot.i18n.numbers import decimal
from bot.render import colours
from bot.render.common import faces, percent, roll_footer, titled
from bot.render.limits import DESCRIPTION, clip, fit_embed
from bot.services.coda import (
    CombinedOutcome,
    DamageOutcome,
    OpposedOutcome,
    Roller,
    TestOutcome,
    TurnSpend,
    part_label,
)
from bot.text import UserText, number, signed, term
from engine.systems import coda
from engine.systems.coda import Degree, Part

EXPLOSION = "💥"
DAMAGE_ICON = "🩸"

DEGREE_COLOURS: dict[Degree, discord.Colour] = {
    Degree.DISASTROUS_FAILURE: colours.DISASTER,
    Degree.COMPLETE_FAILURE: colours.FAILURE,
    Degree.FAILURE: colours.FAILURE,
    Degree.MARGINAL_SUCCESS: colours.PARTIAL,
    Degree.COMPLETE_SUCCESS: colours.SUCCESS,
    Degree.SUPERIOR_SUCCESS: colours.GREAT_SUCCESS,
    Degree.EXTRAORDINARY_SUCCESS: colours.GREAT_SUCCESS,
}
DEGREE_ICONS: dict[Degree, str] = {
    Degree.DISASTROUS_FAILURE: "💀",
    Degree.COMPLETE_FAILURE: "❌",
    Degree.FAILURE: "✖️",
    Degree.MARGINAL_SUCCESS: "➖",
    Degree.COMPLETE_SUCCESS: "✅",
    Degree.SUPERIOR_SUCCESS: "🌟",
    Degree.EXTRAORDINARY_SUCCESS: "✨",
}


def degree_name(degree: Degree) -> str:
    """The degree's name (table 9-5) in the reader's language."""
    return _(degree.label)


#: The named TNs (table 9-1), marked for translation (the engine spells them from its enum).
DIFFICULTY_NAMES = (
    N_("Routine"),
    N_("Standard"),
    N_("Challenging"),
    N_("Difficult"),
    N_("Virtually Impossible"),
    N_("Nearly Impossible"),
)


def difficulty_name(name: str) -> str:
    """A named TN (Routine … Nearly Impossible) in the reader's language."""
    return _(name)


def dice_text(rolled: tuple[int, ...], base: int) -> str:
    """``[6] [6] 💥[6] 💥[3]``: the dice a rolling-6s run added are marked."""
    shown = faces(rolled[:base])
    if len(rolled) > base:
        shown += " " + " ".join(f"{EXPLOSION}[{face}]" for face in rolled[base:])
    return shown


def _terms(parts: tuple[Part, ...], sign: int = 1) -> str:
    """`` + 3 (Wits) − 2 (untrained)``; ``sign`` −1 for terms that are subtracted."""
    return "".join(
        f" {term(sign * p.value)} ({UserText(part_label(p.label))})" for p in parts if p.value
    )


def _sum(result: coda.TestResult, parts: tuple[Part, ...], penalties: tuple[Part, ...]) -> str:
    """``2d6 (9) + 3 (Wits) − 2 (attempt 2) = **10**``; whatever the parts do not name (a
    combined test's helper bonus, a bare penalty) is shown under its own name."""
    terms = _terms(parts)
    if extra := result.modifier - sum(p.value for p in parts):
        terms += f" {term(extra)} ({_('helpers')})"
    terms += _terms(penalties, -1)
    if unnamed := result.penalty - sum(p.value for p in penalties):
        terms += f" − {unnamed} ({_('penalty')})"
    return f"2d6 ({result.dice_total}){terms} = **{number(result.total)}**"


def arithmetic(
    result: coda.TestResult, parts: tuple[Part, ...], penalties: tuple[Part, ...] = ()
) -> str:
    """``2d6 (9) + 3 (Wits) − 2 (attempt 2) = **10** vs TN 15 + 5 (Darkness) = **20**``."""
    text = _("{sum} vs TN {tn}", sum=_sum(result, parts, penalties), tn=result.base_tn)
    if result.conditions:
        text += "".join(f" {term(c.tn)} ({c.label})" for c in result.conditions if c.tn)
        text += f" = **{result.tn}**"
    return text


def degree_line(result: coda.TestResult) -> str:
    degree = result.degree
    return _(
        "{icon} **{degree}** (margin {margin}) · time ×{factor}",
        icon=DEGREE_ICONS[degree],
        degree=degree_name(degree),
        margin=signed(result.margin),
        factor=_factor(degree.time_factor),
    )


def _factor(factor: float) -> str:
    """A time factor as the reader writes decimals: ×0.75, ×0,75."""
    return decimal(factor, 2)


def ones_note(result: coda.TestResult) -> str | None:
    """What the rolling-1s rule did, if anything."""
    if result.fumble:
        return _("🎭 All 1s: a **fumble** (the Narrator rolls on the fumble table).")
    if result.capped:
        return _(
            "🎭 All 1s: the rolling-1s rule (`coda.ones` = {setting}) makes this at most "
            "**{degree}** (the margin alone gave {natural}).",
            setting=result.ones.label,
            degree=degree_name(result.degree),
            natural=degree_name(result.natural_degree),
        )
    return None


def result_lines(
    result: coda.TestResult,
    parts: tuple[Part, ...],
    penalties: tuple[Part, ...],
    chance: float,
    *notes: str,
    chance_label: str | None = None,
) -> str:
    """A whole test: dice, arithmetic, degree and time, the rolling-1s note, ``notes``, and
    the chance of success it had before its dice were rolled (``chance_label`` says when)."""
    lines = [
        _("**Dice:** {dice}", dice=dice_text(result.faces, coda.TEST_DICE)),
        arithmetic(result, parts, penalties),
        degree_line(result),
    ]
    if note := ones_note(result):
        lines.append(note)
    label = _("Chance") if chance_label is None else chance_label
    lines += [*notes, f"{label}: {percent(chance)}"]
    return "\n".join(lines)


#: The kinds of CODA roll, as the footer names them.
KINDS = {
    "test": N_("CODA test"),
    "skill test": N_("CODA skill test"),
    "attribute test": N_("CODA attribute test"),
    "reaction test": N_("CODA reaction test"),
    "damage": N_("CODA damage"),
    "opposed test": N_("CODA opposed test"),
    "combined test": N_("CODA combined test"),
    "extended test": N_("CODA extended test"),
}


def footer(embed: discord.Embed, who: str, secret: bool, kind: str) -> None:
    shown = _(KINDS[kind]) if kind in KINDS else f"CODA {kind}"
    roll_footer(embed, who, shown, secret=secret)


def character_field(embed: discord.Embed, roller: Roller) -> None:
    if roller.character:
        embed.add_field(name=_("Character"), value=UserText(roller.name).shown(1024))


def coda_test_embed(outcome: TestOutcome, roller: str) -> discord.Embed:
    result = outcome.result
    title = titled(
        f"{DEGREE_ICONS[result.degree]} {degree_name(result.degree)}",
        outcome.label or UserText.of(outcome.roller.subject),
    )
    notes = [f"*{_(result.degree.meaning)}*"]
    if outcome.turn is not None and (turn := outcome.turn.note):
        notes.append(str(turn))
    description = result_lines(
        result, outcome.roller.parts, outcome.penalties, outcome.chance, *notes
    )
    embed = discord.Embed(
        title=title, description=description, colour=DEGREE_COLOURS[result.degree]
    )
    if outcome.difficulty:
        embed.add_field(
            name=_("Difficulty"),
            value=f"{difficulty_name(outcome.difficulty)} ({result.base_tn})",
        )
    character_field(embed, outcome.roller)
    footer(embed, roller, outcome.secrecy.secret, outcome.kind)
    return fit_embed(embed)


def damage_lines(result: coda.DamageResult) -> list[str]:
    """A damage roll's dice (rolling-6s dice marked) and its sum."""
    modifier = f" {term(result.modifier)}" if result.modifier else ""
    extra = len(result.extra_faces)
    rolled = f"{result.count}d6"
    if extra:
        rolled += _(" + {count} extra d6", count=extra)
    lines = [
        _("**Dice:** {dice}", dice=dice_text(result.faces, result.count)),
        f"{rolled} ({sum(result.faces)}){modifier} = **{number(result.total)}**",
    ]
    if result.exploded:
        lines.append(
            _n(
                "{icon} Every die showed 6: rolling 6s added one extra die.",
                "{icon} Every die showed 6: rolling 6s added {count} extra dice.",
                extra,
                icon=EXPLOSION,
                count=extra,
            )
        )
    return lines


def damage_embed(outcome: DamageOutcome, roller: str) -> discord.Embed:
    result = outcome.result
    # 💥 marks the extra dice of rolling 6s, so only a roll that has some shows it.
    icon = EXPLOSION if result.exploded else DAMAGE_ICON
    title = titled(_("{icon} {total} damage", icon=icon, total=number(result.total)), outcome.label)
    lines = damage_lines(result)
    embed = discord.Embed(title=title, description="\n".join(lines), colour=colours.NEUTRAL)
    footer(embed, roller, outcome.secrecy.secret, "damage")
    return fit_embed(embed)


def opposed_embed(outcome: OpposedOutcome, roller: str) -> discord.Embed:
    result = outcome.result
    names = {"a": f"A ({UserText(outcome.a.name)})", "b": f"B ({UserText(outcome.b.name)})"}
    winning = result.winning
    if result.winner is None or winning is None:
        title = titled(_("⚖️ Tie"), outcome.label)
        summary = _(
            "Both results are {total}: a tie, which the Narrator decides.", total=result.a.total
        )
        colour = colours.PARTIAL
    else:
        degree = winning.degree
        title = titled(
            _("{icon} {side} wins", icon=DEGREE_ICONS[degree], side=names[result.winner]),
            outcome.label,
        )
        summary = _(
            "{side} wins by {margin}: **{degree}** (read against the loser's result {tn}) · "
            "time ×{factor}",
            side=names[result.winner],
            margin=result.margin,
            degree=degree_name(degree),
            tn=winning.tn,
            factor=_factor(degree.time_factor),
        )
        if note := ones_note(winning):
            summary += "\n" + note
        colour = DEGREE_COLOURS[degree]
    a_win, b_win, tie = outcome.chances
    summary += "\n" + _(
        "Chance: A wins {a} · B wins {b} · tie {tie}",
        a=percent(a_win),
        b=percent(b_win),
        tie=percent(tie),
    )
    if outcome.turn is not None and (turn := outcome.turn.note):
        summary += f"\n{turn}"
    embed = discord.Embed(title=title, description=summary, colour=colour)
    for key, side, test in (("a", outcome.a, result.a), ("b", outcome.b, result.b)):
        dice = dice_text(test.faces, coda.TEST_DICE)
        embed.add_field(
            name=clip(_("Side {side}", side=names[key]), 256),
            value=_("**Dice:** {dice}", dice=dice) + f"\n{_sum(test, side.parts, ())}",
        )
    footer(embed, outcome.rollers or roller, outcome.secrecy.secret, "opposed test")
    return fit_embed(embed)


def _helper_lines(outcome: CombinedOutcome, *, named_terms: bool) -> list[str]:
    lines = []
    helpers = zip(outcome.helpers, outcome.result.helpers, outcome.helper_chances, strict=True)
    for index, (helper, test, chance) in enumerate(helpers, 1):
        parts = helper.parts if named_terms else (Part("modifier", helper.modifier),)
        lines.append(
            f"**{index}. {UserText(clip(helper.name, 80))}** "
            f"{dice_text(test.faces, coda.TEST_DICE)} · "
            f"{arithmetic(test, parts)}: {DEGREE_ICONS[test.degree]} {degree_name(test.degree)} → "
            f"**{signed(test.degree.contribution)}** "
            + _("(chance {chance})", chance=percent(chance))
        )
    return lines


def _turn_notes(turn: TurnSpend | None) -> tuple[str, ...]:
    """What the tracker says of the action a test spent (none off the roller's turn)."""
    note = None if turn is None else turn.note
    return () if note is None else (str(note),)


def combined_embed(outcome: CombinedOutcome, roller: str) -> discord.Embed:
    result = outcome.result
    leader = result.leader
    title = titled(
        f"{DEGREE_ICONS[leader.degree]} {degree_name(leader.degree)}",
        outcome.label or UserText(_("Combined test")),  # no special character
    )
    head = _(
        "Helpers test at TN {tn}; their sum is **{bonus}**. Chance before anyone rolled: {chance}.",
        tn=leader.base_tn - coda.COMBINED_HELPER_TN_SHIFT,
        bonus=signed(result.bonus),
        chance=percent(outcome.chance),
    )
    description = "\n".join([head, *_helper_lines(outcome, named_terms=True)])
    if len(description) > DESCRIPTION:  # many long names: keep every helper, drop the names
        description = "\n".join([head, *_helper_lines(outcome, named_terms=False)])
    embed = discord.Embed(
        title=title, description=description, colour=DEGREE_COLOURS[leader.degree]
    )
    embed.add_field(
        name=clip(_("Leader: {name}", name=UserText(outcome.leader.name)), 256),
        value=clip(
            result_lines(
                leader,
                outcome.leader.parts,
                (),
                outcome.leader_chance,
                *_turn_notes(outcome.turn),
                chance_label=_("Chance with the helpers' {bonus}", bonus=signed(result.bonus)),
            ),
            1024,
        ),
        inline=False,
    )
    if outcome.difficulty:
        embed.add_field(
            name=_("Difficulty"),
            value=f"{difficulty_name(outcome.difficulty)} ({leader.base_tn})",
        )
    footer(embed, outcome.rollers or roller, outcome.secrecy.secret, "combined test")
    return fit_embed(embed)
