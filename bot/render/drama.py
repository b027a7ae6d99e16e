"""Embeds for Drama in History tests, opposed tests and paying the price."""

from __future__ import annotations

import re

import discord

from bot.i18n import N_, _
from bot.render import colours
from bot.render.common import percent, roll_footer, titled
from bot.render.limits import FIELD_VALUE, clip, fit_embed
from bot.render.penalty import change_line, dice_count, level_line
from bot.services.drama import PRICE_WINDOW, OpposedOutcome, PriceOutcome, RollOutcome
from bot.text import UserText, escape_party, signed
from engine import penalty
from engine.systems.drama import (
    DIFFICULTIES,
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

PRICE_OFFER = N_(
    "Pay the price (+{dice} penalty die) within {minutes} minutes to make it a success."
)
NO_ODDS = N_("Chance: too long to work out exactly for pools this large (the roll stands).")
LEGEND = N_("bold = counts · 💥 explodes · ⤷ extra die · ⚠️ penalty die")


def price_offer() -> str:
    """The "Yes, but…" offer line, in the current language."""
    return _(PRICE_OFFER, dice=PRICE_PENALTY, minutes=int(PRICE_WINDOW.total_seconds() // 60))


#: Fixed labels of a pool's parts (:mod:`engine.systems.drama`), shown in the breakdown.
_FIXED_PARTS = frozenset(
    {
        "pools",
        "Base dice",
        "situational resistance",
        "target's stat",
        "drama",
        "penalty dice as a risk",
        "penalty dice",
    }
)
_HAND = re.compile(r"lending a hand (?P<value>-?\d+)")
#: The engine's labels that name an attribute and a skill: only the names are the player's,
#: so only they are escaped ("Physical 2 < Dance 3" keeps its "<" as the bot wrote it).
_NAMED = re.compile(
    r"(?P<lead>2 × )?(?P<attribute>.+?) (?P<value>-?\d+)"
    r"(?:(?P<op> [<+] )(?P<skill>.+) (?P<ranks>-?\d+)| (?P<floor>≤ 0))?"
)
_BACKGROUNDS = re.compile(
    r"(?P<attribute>.+) (?P<value>-?\d+) \+ (?P<count>\d+) (?P<fit>direct|indirect) background\(s\)"
)


def part_label(label: str) -> str:
    """A pool part's label in the current language: the engine writes them in English (they
    are also what a stored opposed request keeps); the rest holds the player's names (an
    attribute's, a skill's, a helper's: "2 × Physical 2"), so it is shown escaped."""
    if label in _FIXED_PARTS or any(label == d.name for d in DIFFICULTIES):
        return _(label)
    if match := _HAND.fullmatch(label):
        return _("lending a hand {value}", value=match["value"])
    if match := _BACKGROUNDS.fullmatch(label):
        template = (
            N_("{attribute} {value} + {count} direct background(s)")
            if match["fit"] == "direct"
            else N_("{attribute} {value} + {count} indirect background(s)")
        )
        attribute = UserText(match["attribute"])
        return _(template, attribute=attribute, value=match["value"], count=match["count"])
    if match := _NAMED.fullmatch(label):
        text = f"{match['lead'] or ''}{UserText(match['attribute'])} {match['value']}"
        if match["skill"] is not None:
            text += f"{match['op']}{UserText(match['skill'])} {match['ranks']}"
        return text + (f" {match['floor']}" if match["floor"] else "")
    return str(UserText(label))  # a helper's name


OUTCOME_ICONS = {Outcome.SUCCESS: "✅", Outcome.YES_BUT: "⚖️", Outcome.FAILURE: "❌"}
OUTCOME_COLOURS = {
    Outcome.SUCCESS: colours.SUCCESS,
    Outcome.YES_BUT: colours.PARTIAL,
    Outcome.FAILURE: colours.FAILURE,
}


def _die(face: int, counted: bool) -> str:
    return f"**[{face}]**" if counted else f"[{face}]"


def base_faces(result: DramaResult) -> str:
    return " ".join(_die(f, base_value(f) != 0) for f in result.base_faces) or _("none")


def resistance_faces(result: DramaResult) -> str:
    shown = " ".join(_die(f, resistance_value(f) != 0) for f in result.resistance_faces)
    return shown or _("none")


def drama_faces(result: DramaResult) -> str:
    shown = []
    for die in result.drama_faces:
        text = ("⤷" if die.extra else "") + _die(die.face, die.value != 0)
        if die.explodes:
            text += "💥"
        if die.penalty:
            text += "⚠️"
        shown.append(text)
    return " ".join(shown) or _("none")


def pools_line(pools: Pools) -> str:
    parts = []
    for part in pools.parts:
        dice = [
            f"{count}{kind}"
            for count, kind in ((part.base, "Bd"), (part.resistance, "Rd"), (part.drama, "Dd"))
            if count
        ]
        if dice:
            parts.append(f"{part_label(part.label)} ({' '.join(dice)})")
    summary = f"**{pools.base}Bd · {pools.resistance}Rd · {pools.drama}Dd**"
    return f"{summary} = {', '.join(parts)}" if parts else summary


def result_fields(embed: discord.Embed, result: DramaResult, *, prefix: str = "") -> None:
    embed.add_field(
        name=prefix + _("Base dice {net}", net=signed(result.base_successes)),
        value=clip(base_faces(result), FIELD_VALUE),
        inline=False,
    )
    embed.add_field(
        name=prefix + _("Resistance dice {net}", net=signed(-result.resistance_losses)),
        value=clip(resistance_faces(result), FIELD_VALUE),
        inline=False,
    )
    if result.drama_faces:
        net = signed(result.drama_net)
        name = (
            _("Drama dice {net}, {count} exploded", net=net, count=result.exploded)
            if result.exploded
            else _("Drama dice {net}", net=net)
        )
        embed.add_field(
            name=prefix + name,
            value=clip(drama_faces(result), FIELD_VALUE),
            inline=False,
        )
    if result.critical:
        ones = result.resistance_faces.count(1)
        embed.add_field(
            name=prefix + _("Criticals {bonus}", bonus=signed(result.critical_bonus)),
            value=_("{sixes} sixes in Bd and Dd − {ones} Rd ones", sixes=result.sixes, ones=ones),
            inline=False,
        )


def _penalty_lines(
    character: UserText | None,
    penalty_dice: int,
    gained: penalty.PenaltyChange | None,
    *,
    risk: bool = False,
) -> list[str]:
    if character is None:
        return [_("No Drama character active here: penalty dice are not tracked.")]
    if penalty_dice:
        level = penalty.level_of(penalty_dice)
        template = (
            N_("{dice} rolled as a risk (Dd), by the GM's decision, ({character} is {level}).")
            if risk
            else N_("{dice} added to Rd ({character} is {level}).")
        )
        lines = [
            _(
                template,
                dice=dice_count(penalty_dice),
                character=character,
                level=_(level.label),
            )
        ]
    else:
        lines = [_("{character} has no penalty dice.", character=character)]
    if gained is not None:
        what = _("for {character} from drama-die 1s", character=character)
        lines.append(change_line(gained, what=what))
        if gained.level_changed:
            lines.append(level_line(character, gained))
    return lines


def test_embed(outcome: RollOutcome, roller: str) -> discord.Embed:
    result = outcome.result
    title = f"{OUTCOME_ICONS[outcome.outcome]} " + _(
        "{outcome} — net {net}", outcome=_(outcome.outcome.label), net=outcome.net
    )
    lines = [pools_line(outcome.pools)]
    if outcome.helpers:
        me = outcome.character or roller
        nets = " + ".join(
            f"{escape_party(name)} {net}"
            for name, net in [(me, result.net), *((h.name, h.result.net) for h in outcome.helpers)]
        )
        lines.append(
            _("Working together, the nets add up: {nets} = **{net}**.", nets=nets, net=outcome.net)
        )
    if outcome.outcome is Outcome.YES_BUT:
        lines.append(price_offer())
    chances = outcome.chances
    if chances is None:
        lines.append(_(NO_ODDS))
    else:
        lines.append(
            _(
                "Chance: {success} of success · {yes_but} of Yes, but…",
                success=percent(chances[Outcome.SUCCESS]),
                yes_but=percent(chances[Outcome.YES_BUT]),
            )
        )
    embed = discord.Embed(
        title=titled(title, outcome.label),
        description="\n".join(lines),
        colour=OUTCOME_COLOURS[outcome.outcome],
    )
    result_fields(embed, result)
    for helper in outcome.helpers:
        embed.add_field(
            name=clip(
                _("{name}: net {net}", name=escape_party(helper.name), net=helper.result.net), 256
            ),
            value=clip(f"{pools_line(helper.pools)}\n{_compact(helper.result)}", FIELD_VALUE),
            inline=False,
        )
    _penalty_field(
        embed,
        _penalty_lines(
            UserText.of(outcome.character), outcome.penalty_dice, outcome.gained, risk=outcome.risk
        ),
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
    embed.add_field(name=_("Penalty dice"), value=clip("\n".join(lines), FIELD_VALUE), inline=False)


def _footer(embed: discord.Embed, roller: str, character: str | None, secret: bool) -> None:
    roll_footer(
        embed,
        roller,
        _("Drama in History"),
        _(LEGEND),
        secret=secret,
        character=UserText.of(character),
    )


def price_paid_embed(original: discord.Embed, outcome: PriceOutcome) -> discord.Embed:
    """The roll's embed once its price is paid: a success, and the penalty die it cost."""
    embed = original.copy()
    title = original.title or ""
    # The roll's embed is in the roller's language; the presser is the roller.
    yes_but = "⚖️ " + _(Outcome.YES_BUT.label)
    embed.title = clip(title.replace(yes_but, "✅ " + _("Success (price paid)"), 1), 256)
    embed.colour = colours.SUCCESS
    embed.description = (original.description or "").replace(f"\n{price_offer()}", "")
    if outcome.change is not None and outcome.character is not None:
        lines = [change_line(outcome.change, what=_("for paying the price"))]
        if outcome.change.level_changed:
            lines.append(level_line(UserText(outcome.character), outcome.change))
        value = "\n".join(lines)
    else:
        value = _("Paid: +{dice} penalty die (no character to track it on).", dice=PRICE_PENALTY)
    embed.add_field(name=_("Price paid"), value=clip(value, FIELD_VALUE), inline=False)
    return fit_embed(embed)


OPPOSED_TITLES = {
    OpposedKind.WIN: N_("🏆 {winner} wins by {level}"),
    OpposedKind.DRAW: N_("🤝 Draw at {net}"),
    OpposedKind.BOTH_FAIL: N_("❌ Both fail"),
}


def opposed_embed(outcome: OpposedOutcome, roller: str) -> discord.Embed:
    result = outcome.result
    me = UserText(outcome.character or roller)
    them = escape_party(outcome.their_name)
    names = {"a": me, "b": them}
    title = _(
        OPPOSED_TITLES[result.outcome],
        winner=names.get(result.winner or "", ""),
        level=result.level,
        net=result.a.net,
    )
    lines = [
        _(
            "**{me}**: net {net} · **{them}**: net {their_net}",
            me=me,
            net=result.a.net,
            them=them,
            their_net=result.b.net,
        ),
        _("A side needs net 2 or more, and more than the other, to win."),
    ]
    if result.outcome is OpposedKind.DRAW:
        if result.winner is not None:
            lines.append(
                _(
                    "Momentum settles the draw: **{name}** prevails.",
                    name=names[result.winner],
                )
            )
        else:
            lines.append(_("A draw: whoever has the momentum prevails (the GM says who)."))
    chances = outcome.chances
    if chances is None:
        lines.append(_(NO_ODDS))
    else:
        lines.append(
            _(
                "Chance: {me} wins {a} · {them} wins {b} · draw {draw} · both fail {both}",
                me=me,
                them=them,
                a=percent(chances["a"]),
                b=percent(chances["b"]),
                draw=percent(chances["draw"]),
                both=percent(chances["both fail"]),
            )
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
    lines = _penalty_lines(UserText.of(outcome.character), outcome.penalty_dice, outcome.gained)
    if outcome.their_character is not None:
        lines += _penalty_lines(
            UserText(outcome.their_character), outcome.their_penalty_dice, outcome.their_gained
        )
    _penalty_field(embed, lines)
    _footer(embed, outcome.rollers or roller, outcome.character, outcome.secrecy.secret)
    return fit_embed(embed)
