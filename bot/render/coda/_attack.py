"""The one message that follows a CODA attack exchange: attack → defence → damage.

``reveal`` False draws the table's copy of a secret exchange: who attacks whom and what
came of it (hit, avoided, hurt), with no dice, totals or Health; the roller and the GM get
the full copy. Names typed by users are escaped: they never ping or format.
"""

from __future__ import annotations

import discord

from bot.i18n import N_, _
from bot.render import colours
from bot.render.attack_exchange import health_line
from bot.render.coda._rolls import DEGREE_COLOURS, damage_lines, result_lines
from bot.render.common import roll_footer
from bot.render.limits import FIELD_VALUE, clip, fit_embed
from bot.services.attack_exchange import HEALTH
from bot.services.coda import Exchange, Test
from engine.systems.coda import Defence

#: The defender's choices as buttons and field names show them.
DEFENCE_LABELS = {
    Defence.DODGE: N_("Dodge"),
    Defence.PARRY: N_("Parry"),
    Defence.TAKE: N_("Take it"),
}


def defence_label(choice: Defence) -> str:
    """``Dodge``, ``Parry``, ``Take it`` in the reader's language."""
    return _(DEFENCE_LABELS[choice])


def _title(ex: Exchange, reveal: bool) -> str:
    attacker, target = ex.attacker, ex.target
    if not ex.hit:
        return _("⚔️ {attacker} attacks {target}: a miss", attacker=attacker, target=target)
    if ex.waiting:
        return _("⚔️ {attacker} hits {target}: defend?", attacker=attacker, target=target)
    if ex.avoided:
        if ex.choice is Defence.DODGE:
            return _("🛡️ {target} dodges {attacker}'s attack", attacker=attacker, target=target)
        return _("🛡️ {target} parries {attacker}'s attack", attacker=attacker, target=target)
    if ex.damage is None or not reveal:
        return _("💥 {attacker} hits {target}", attacker=attacker, target=target)
    return _(
        "💥 {attacker} hits {target}: {total} damage",
        attacker=attacker,
        target=target,
        total=ex.damage.total,
    )


def _test_field(test: Test, reveal: bool, secret_line: str, *notes: str) -> str:
    """The test with its dice, or (the table's copy of a secret exchange) ``secret_line``."""
    if not reveal:
        return secret_line
    turn = (str(test.note),) if test.note else ()
    return clip(
        f"*{test.who}*\n"
        + result_lines(test.result, test.parts, test.penalties, test.chance, *notes, *turn),
        FIELD_VALUE,
    )


def _waiting_line(ex: Exchange) -> str:
    if ex.defender_id:
        who = _("{who} (or the GM)", who=f"<@{ex.defender_id}>")
    else:
        who = _("the GM (for the NPC)")
    choices = ", ".join(defence_label(d) for d in ex.options)
    note = " " + _("Only Dodge works against a ranged attack.") if ex.ranged else ""
    return _("Waiting for {who}: {choices}.", who=who, choices=choices) + note


def exchange_embed(ex: Exchange, *, reveal: bool = True) -> discord.Embed:
    """The exchange at its present stage."""
    attack = ex.attack.result
    colour = DEGREE_COLOURS[attack.degree] if ex.hit else colours.FAILURE
    if ex.avoided:
        colour = colours.NEUTRAL
    embed = discord.Embed(title=clip(_title(ex, reveal), 256), colour=colour)
    source = _("from the sheet") if ex.defence_from == "sheet" else _("given")
    embed.add_field(
        name=_("⚔️ Attack"),
        value=_test_field(
            ex.attack,
            reveal,
            _("🔒 rolled in secret (the GM has the dice): **hits**")
            if ex.hit
            else _("🔒 rolled in secret (the GM has the dice): **misses**"),
            _(
                "TN = {target}'s Defence {defence} ({source}); Marginal Success or better hits.",
                target=ex.target,
                defence=ex.defence,
                source=source,
            ),
        ),
        inline=False,
    )
    if ex.waiting:
        embed.description = _waiting_line(ex)
    if ex.choice is not None:
        if ex.defence_test is None:
            embed.add_field(
                name=_("🛡️ Defence"), value=_("Takes it: no Dodge or Parry."), inline=False
            )
        else:
            embed.add_field(
                name=f"🛡️ {defence_label(ex.choice)}",
                value=_test_field(
                    ex.defence_test,
                    reveal,
                    _("🔒 rolled in secret (the GM has the dice): **avoids the damage**")
                    if ex.avoided
                    else _("🔒 rolled in secret (the GM has the dice): **does not avoid it**"),
                    _(
                        "TN = the attack's result {tn}.",
                        tn=ex.defence_test.result.base_tn,
                    ),
                ),
                inline=False,
            )
    if ex.damage is not None:
        if reveal:
            lines = damage_lines(ex.damage)
            if ex.health is not None:
                lines.append(health_line(ex.health))
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
            value = "\n".join(lines)
        else:
            value = _(
                "🔒 rolled in secret (the GM has the dice): **{target} is hurt**",
                target=ex.target,
            )
        embed.add_field(name=_("💥 Damage"), value=clip(value, FIELD_VALUE), inline=False)
    roll_footer(embed, ex.roller or "?", _("CODA attack"), secret=ex.secrecy.secret and reveal)
    return fit_embed(embed)
