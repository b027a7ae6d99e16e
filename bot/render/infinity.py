"""Embeds for ``/infinity``: every die with its value and mark, the SV arithmetic, the chances."""

from __future__ import annotations

from collections.abc import Iterable

import discord
from babel.numbers import format_decimal

from bot.i18n import N_, _, _n, current_language
from bot.render import colours
from bot.render.common import percent, roll_footer, titled
from bot.render.limits import clip, fit_embed
from bot.services.infinity import (
    REACTIVE,
    FaceToFaceOutcome,
    NormalOutcome,
    SaveOutcome,
    Source,
    SplitOutcome,
)
from bot.text import UserText, number
from engine.systems.infinity import (
    D20,
    Decision,
    Die,
    DieStatus,
    FaceToFaceResult,
    Mods,
    NormalResult,
)

SYSTEM = "Infinity CodeOne"


def decimal(value: float, digits: int = 2) -> str:
    """An expectation with exactly ``digits`` decimals ("0.70", "0,70"): a fixed width reads
    as a measure, and the language's decimal separator is used."""
    return format_decimal(value, format="0." + "0" * digits, locale=current_language())


_MARKS = {
    DieStatus.CRITICAL: N_("💥 critical"),
    DieStatus.SUCCESS: N_("✅ success"),
    DieStatus.FAILURE: N_("❌ failure"),
    DieStatus.CANCELLED: N_("🚫 cancelled"),
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
    return f"{shown} {_(_MARKS[die.status])}"


def dice_text(dice: Iterable[Die]) -> str:
    return " · ".join(die_text(d) for d in dice) or _("no dice rolled")


def _successes(n: int) -> str:
    return _n("{count} success", "{count} successes", n, count=n)


def _with_criticals(successes: int, criticals: int) -> str:
    """ "2 successes, 1 of them a Critical": Criticals are successes, not extra ones."""
    if criticals == successes:
        if successes == 1:
            return _("1 success: a Critical")
        return _("{count} successes, all Critical", count=successes)
    return _n(
        "{successes}, {count} of them a Critical",
        "{successes}, {count} of them Criticals",
        criticals,
        successes=_successes(successes),
        count=criticals,
    )


def _hits(n: int) -> str:
    return _n("{count} hit", "{count} hits", n, count=n)


def _footer(embed: discord.Embed, roller: str, secret: bool, *sources: Source) -> None:
    characters = ", ".join(dict.fromkeys(s.character for s in sources if s.character))
    roll_footer(
        embed,
        _("{roller} rolled", roller=roller),
        SYSTEM,
        secret=secret,
        character=UserText.of(characters),
    )


def _roll_lines(result: NormalResult, source: Source, mods: Mods | None = None) -> list[str]:
    lines = [result.describe(str(UserText(source.name)), _)]
    if mods is not None:
        lines.insert(0, _("**MODs:** {mods}", mods=mods.text(_)))
    if not result.auto_fail:
        lines.append(
            _("**Dice (B{burst}):** {dice}", burst=result.burst, dice=dice_text(result.dice))
        )
    return lines


def normal_embed(outcome: NormalOutcome, roller: str) -> discord.Embed:
    result, odds = outcome.result, outcome.odds
    name = outcome.source.name
    if name:
        subject = _("{attribute} roll", attribute=UserText(name))
    else:
        subject = _("SV {sv}", sv=number(result.sv))
    if result.auto_fail:
        headline, colour = _("❌ Automatic failure"), colours.DISASTER
    elif result.critical:
        headline = f"💥 {_with_criticals(result.successes, result.criticals)}"
        colour = colours.GREAT_SUCCESS
    elif result.success:
        headline, colour = f"✅ {_successes(result.successes)}", colours.SUCCESS
    else:
        headline, colour = _("❌ Failure"), colours.FAILURE
    title = titled(f"{headline} · {subject}", outcome.label)
    if outcome.secrecy.secret:
        colour = colours.SECRET
    embed = discord.Embed(
        title=title,
        description="\n".join(_roll_lines(result, outcome.source, outcome.mods)),
        colour=colour,
    )
    chance = _("{chance} of at least one success", chance=percent(odds.success))
    if odds.success > 0:
        chance += " · " + _(
            "Critical {chance} · expected successes {expected}",
            chance=percent(odds.critical),
            expected=decimal(odds.expected_successes, 2),
        )
    embed.add_field(name=_("Chance"), value=chance, inline=False)
    _footer(embed, roller, outcome.secrecy.secret, outcome.source)
    return fit_embed(embed)


_SIDE = {"a": N_("Active"), "b": N_("Reactive")}
_TARGET_SIDES = {"a": N_("Active"), "b": N_("Target")}
#: A face to face nobody wins: its headline, and why in words.
_NOBODY = {
    Decision.BOTH_CRITICAL: (
        N_("⚖️ Nobody wins: both rolled a Critical"),
        N_("Both sides rolled a Critical: every die is cancelled."),
    ),
    Decision.TIE: (
        N_("⚖️ Nobody wins: the best successes tie"),
        N_(
            "The best successes are equal: they cancel each other, and every lower success "
            "falls with them."
        ),
    ),
    Decision.BOTH_FAILED: (N_("❌ Nobody wins: both failed"), N_("Neither side rolled a success.")),
}


def _headline(result: FaceToFaceResult, sides: dict[str, str] = _SIDE) -> str:
    """``🎯 Active wins — 2 hits`` (``sides`` names "a" and "b")."""
    decision = result.decision
    if result.winner is None:
        return _(_NOBODY[decision][0])
    side = _(sides[result.winner])
    hits = _hits(len(result.hits))
    if decision is Decision.CRITICAL:
        return _("💥 {side} wins with a Critical — {hits}", side=side, hits=hits)
    return _("🎯 {side} wins — {hits}", side=side, hits=hits)


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
        lines.append(_("**Hits:** {dice}", dice=" · ".join(die_text(d) for d in result.hits)))
    embed = discord.Embed(
        title=titled(_headline(outcome.result), outcome.label),
        description="\n".join(lines),
        colour=colour,
    )
    for key, side, source in (("a", result.a, outcome.active), ("b", result.b, outcome.reactive)):
        name = _(_SIDE[key]) + (f" — {UserText(source.character)}" if source.character else "")
        mods = outcome.mods if key == "a" else None
        embed.add_field(name=name, value="\n".join(_roll_lines(side, source, mods)), inline=False)
    embed.add_field(
        name=_("Chance"),
        value=_(
            "Active wins {active} · reactive wins {reactive} · nobody {nobody}\n"
            "Expected hits: active {active_hits} · reactive {reactive_hits}",
            active=percent(odds.a_wins),
            reactive=percent(odds.b_wins),
            nobody=percent(odds.neither),
            active_hits=decimal(odds.a_expected_hits, 2),
            reactive_hits=decimal(odds.b_expected_hits, 2),
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
        return _(_NOBODY[decision][1])
    if decision is Decision.CRITICAL:
        if result.winner == "a":
            return _("A Critical beats any success: every reactive success is cancelled.")
        return _("A Critical beats any success: every active success is cancelled.")
    if decision is Decision.UNOPPOSED:
        if result.winner == "a":
            return _("The reactive side has no success: every active success hits.")
        return _("The active side has no success: every reactive success hits.")
    if result.winner == "a":
        return _(
            "Active's successes above the reactive side's best one hit; the rest are cancelled."
        )
    return _("Reactive's successes above the active side's best one hit; the rest are cancelled.")


def save_embed(outcome: SaveOutcome, roller: str) -> discord.Embed:
    result, odds = outcome.result, outcome.odds
    if result.wounds:
        headline = _n("🩸 {count} Wound", "🩸 {count} Wounds", result.wounds, count=result.wounds)
        colour = colours.DISASTER if result.wounds == result.hits else colours.FAILURE
    else:
        headline, colour = _("🛡️ Saved: no Wounds"), colours.SUCCESS
    if outcome.secrecy.secret:
        colour = colours.SECRET
    target = result.attack_damage
    if target <= 0:
        rule = _("every save passes")
    elif target >= D20:
        rule = _("every save fails")
    else:
        rule = _("a face of {face} or less fails and costs a Wound", face=target)
    dice = " · ".join(
        _("**{face}** ✅ saved", face=d.face) if d.saved else _("{face} 🩸 wound", face=d.face)
        for d in result.dice
    )
    arithmetic = result.describe(str(UserText(outcome.source.name or "ARM")), _)
    embed = discord.Embed(
        title=titled(_("{headline} — saving roll", headline=headline), outcome.label),
        description=(
            _("**Attack damage:** {arithmetic} — {rule}", arithmetic=arithmetic, rule=rule)
            + "\n"
            + _("**Saves ({hits}):** {dice}", hits=_hits(result.hits), dice=dice)
        ),
        colour=colour,
    )
    embed.add_field(
        name=_("Chance"),
        value=_(
            "{chance} of no Wound · each save fails {fail} · expected Wounds {expected}",
            chance=percent(odds.no_wounds),
            fail=percent(odds.fail_chance),
            expected=decimal(odds.expected_wounds, 2),
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
    title = _(
        "🎯 Burst split among {count} targets — active {hits}",
        count=len(result.duels),
        hits=_hits(active_hits),
    )
    if answered:
        title += _(", {count} target(s) hit back", count=answered)
    lines = [*_roll_lines(result.attack, outcome.active, outcome.mods)]
    lines.append(_("*Each target faces only the dice aimed at it, in the order given.*"))
    embed = discord.Embed(
        title=titled(title, outcome.label),
        description="\n".join(lines),
        colour=colours.SECRET if outcome.secrecy.secret else colours.NEUTRAL,
    )
    for name, target, duel, odds in zip(
        outcome.names, result.targets, result.duels, outcome.odds, strict=True
    ):
        reactive = name == REACTIVE
        source = outcome.reactive if reactive else Source(target.attribute)
        value = "\n".join(
            [
                _("**Aimed (B{burst}):** {dice}", burst=target.aimed, dice=dice_text(duel.a.dice)),
                duel.b.describe(str(UserText(source.name)), _),
                _(
                    "**Its dice (B{burst}):** {dice}",
                    burst=target.burst,
                    dice=dice_text(duel.b.dice),
                ),
                _headline(duel, _TARGET_SIDES),
                _(
                    "Chance: active wins {active} · target wins {target} · nobody {nobody}",
                    active=percent(odds.a_wins),
                    target=percent(odds.b_wins),
                    nobody=percent(odds.neither),
                ),
            ]
        )
        shown = _(REACTIVE) if reactive else UserText(name)
        embed.add_field(name=clip(f"→ {shown}", 256), value=clip(value, 1024), inline=False)
    _footer(embed, roller, outcome.secrecy.secret, outcome.active, outcome.reactive)
    return fit_embed(embed)
