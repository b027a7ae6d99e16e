"""The one message that follows a Hogwarts 1990 attack: attack → dodge (or not) → Health.

``reveal`` False draws the table's copy of a secret exchange: who attacks whom and what came
of it (hit, dodged, hurt), with no dice, totals or Health; the roller and the GM get the full
copy. Names typed by users are escaped: they never ping or format.
"""

from __future__ import annotations

import discord

from bot.i18n import _
from bot.render import colours
from bot.render.attack_exchange import SECRET_NOTE, health_line
from bot.render.common import percent, roll_footer
from bot.render.hogwarts1990._rolls import OUTCOME_COLOURS, dice_text, doubles_note, kind_text
from bot.render.limits import FIELD_VALUE, clip, fit_embed
from bot.services.attack_exchange import HEALTH, answerer
from bot.services.hogwarts1990 import Exchange
from bot.text import UserText, term
from engine.systems import hogwarts1990 as h90
from engine.systems.hogwarts1990 import Answer


def _title(ex: Exchange, reveal: bool) -> str:
    attacker, target = ex.attacker, ex.target
    if not ex.hit:
        return "⚔️ " + _("{attacker} attacks {target}: a miss", attacker=attacker, target=target)
    if ex.waiting:
        return "⚔️ " + _("{attacker} hits {target}: dodge?", attacker=attacker, target=target)
    if ex.avoided:
        if ex.answer is Answer.COVER:
            return "🛡️ " + _(
                "{dodger} dodges for {target}: {attacker} misses",
                dodger=ex.dodger or "?",
                target=target,
                attacker=attacker,
            )
        return "🛡️ " + _("{target} dodges {attacker}'s attack", target=target, attacker=attacker)
    if not reveal:
        return "💥 " + _("{attacker} hits {target}", attacker=attacker, target=target)
    return "💥 " + _(
        "{attacker} hits {target}: −{damage} {health}",
        attacker=attacker,
        target=target,
        damage=ex.damage,
        health=HEALTH,
    )


def _roll_lines(roll: h90.Roll, ex: Exchange) -> list[str]:
    side = ex.side
    terms = []
    if side.attribute:
        terms.append(f"{term(side.attribute_value)} ({UserText(side.attribute)})")
    if side.extra or not side.attribute:
        terms.append(term(side.extra))
    lines = [
        f"{dice_text(roll)} ({kind_text(roll)})",
        _(
            "{kept} {terms} = **{total}** vs {difficulty}: **{outcome}**",
            kept=roll.kept,
            terms=" ".join(terms),
            total=roll.total,
            difficulty=roll.difficulty,
            outcome=_(roll.outcome.label),
        ),
    ]
    if (note := doubles_note(roll)) is not None:
        lines.append(note)
    return lines


def _attack_field(ex: Exchange, reveal: bool) -> str:
    if not reveal:
        return f"{_(SECRET_NOTE)}: **{_('hits') if ex.hit else _('misses')}**"
    who = UserText(ex.side.name) if ex.side.named else ex.attacker
    lines = [f"*{who}*", *_roll_lines(ex.attack, ex)]
    lines.append(
        _(
            "Chance: {success} · exceptional {exceptional} · critical failure {critical}",
            success=percent(ex.odds.success),
            exceptional=percent(ex.odds.exceptional),
            critical=percent(ex.odds.critical_failure),
        )
    )
    return clip("\n".join(lines), FIELD_VALUE)


def _dodge_text(ex: Exchange) -> str:
    return " + ".join(str(UserText(term)) for term in ex.dodge)


def _waiting_line(ex: Exchange) -> str:
    if ex.defender_id is None:
        who = _("the GM (for the NPC)")
        rises = _("the NPC's dodge {value}", value=ex.npc_dodge)
    else:
        who = answerer(ex.defender_id)
        rises = _("{target}'s {dodge}", target=ex.target, dodge=_dodge_text(ex))
    lines = [
        _(
            "Waiting for {who}: **Dodge** (a defensive roll: the difficulty rises by {rises}) "
            "or **Take it**.",
            who=who,
            rises=rises,
        )
    ]
    if ex.covers:
        names = ", ".join(f"**{name}**" for name in ex.covers)
        lines.append(
            _(
                "A delayer may dodge for {target} instead: {names}.",
                target=ex.target,
                names=names,
            )
        )
    lines.append(
        _(
            "A dodge uses up the dodger's turn this round (a delayer's: the delayed action); "
            "a delayer dodging for another adds their own attributes."
        )
    )
    return "\n".join(lines)


def _defence_field(ex: Exchange, reveal: bool) -> tuple[str, str]:
    if ex.answer is Answer.TAKE or ex.defended is None:
        return "🛡️ " + _("No dodge"), _("Takes it.")
    dodger = ex.dodger or "?"
    name = "🛡️ " + (
        _("{dodger} dodges for {target}", dodger=dodger, target=ex.target)
        if ex.answer is Answer.COVER
        else _("{dodger} dodges", dodger=dodger)
    )
    outcome = _("the attack now misses") if ex.avoided else _("the attack still hits")
    if not reveal:
        return name, f"{_(SECRET_NOTE)}: **{outcome}**"
    raised = " + ".join(
        f"{UserText(label)} {value}".strip() if label else str(value) for label, value in ex.raised
    )
    defended = ex.defended
    lines = [
        _(
            "A defended roll: difficulty {difficulty} + {raised} = **{total}**; {outcome}.",
            difficulty=ex.attack.difficulty,
            raised=raised,
            total=defended.difficulty,
            outcome=outcome,
        ),
    ]
    if defended.faces != ex.attack.faces or defended.outcome is not ex.attack.outcome:
        lines += _roll_lines(defended, ex)
    if ex.defend_chance is not None:
        lines.append(
            _(
                "Chance the dodge turned the hit into a miss: {chance}",
                chance=percent(ex.defend_chance),
            )
        )
    if ex.turn:
        turn = ex.turn if ex.turn_params is None else _(ex.turn, **ex.turn_params)
        # The tracker's words name the dodger: the whole line is shown as user text.
        lines.append(f"⏱️ {UserText(turn)}")
    return name, clip("\n".join(lines), FIELD_VALUE)


def _damage_field(ex: Exchange, reveal: bool) -> str:
    if not reveal:
        return f"{_(SECRET_NOTE)}: **" + _("{target} is hurt", target=ex.target) + "**"
    lines = [f"−{ex.damage} {HEALTH}"]
    if ex.health is not None:
        lines.append(health_line(ex.health))
        if ex.knocked_out:
            lines.append(
                "💤 "
                + _(
                    "{target} is knocked out: 0 {health}.",
                    target=ex.target,
                    health=HEALTH,
                )
            )
    elif ex.defender_id is None:
        lines.append(
            _(
                "The NPC has no sheet nor Health on the tracker: the GM keeps its Health "
                "(or gives it with `/init health`)."
            )
        )
    else:
        lines.append(
            _(
                "{target}'s sheet has no {health}: nothing taken.",
                target=ex.target,
                health=HEALTH,
            )
        )
    return clip("\n".join(lines), FIELD_VALUE)


def exchange_embed(ex: Exchange, *, reveal: bool = True) -> discord.Embed:
    """The exchange at its present stage."""
    colour = OUTCOME_COLOURS[ex.attack.outcome] if ex.hit else colours.FAILURE
    if ex.avoided:
        colour = colours.NEUTRAL
    embed = discord.Embed(title=clip(_title(ex, reveal), 256), colour=colour)
    embed.add_field(name="⚔️ " + _("Attack"), value=_attack_field(ex, reveal), inline=False)
    if ex.waiting:
        embed.description = _waiting_line(ex)
    if ex.answer is not None:
        name, value = _defence_field(ex, reveal)
        embed.add_field(name=clip(name, 256), value=value, inline=False)
    if ex.hurt:
        embed.add_field(name="💥 " + _("Damage"), value=_damage_field(ex, reveal), inline=False)
    secret = ex.secrecy.secret and reveal
    roll_footer(embed, ex.roller or "?", _("Hogwarts 1990 attack"), secret=secret)
    return fit_embed(embed)
