"""The one message that follows a CODA attack exchange: attack → defence → damage.

``reveal`` False draws the table's copy of a secret exchange: who attacks whom and what
came of it (hit, avoided, hurt), with no dice, totals or Health; the roller and the GM get
the full copy. Names typed by users are escaped: they never ping or format.
"""

from __future__ import annotations

import discord

from bot.i18n import _
from bot.render import colours
from bot.render.attack_exchange import SECRET_NOTE, health_line
from bot.render.coda import DEGREE_COLOURS, damage_lines, result_lines
from bot.render.common import roll_footer
from bot.render.limits import FIELD_VALUE, clip, fit_embed
from bot.services.coda_attack import HEALTH, Exchange, Test
from bot.text import escape
from engine.systems.coda_attack import Defence


def _title(ex: Exchange, reveal: bool) -> str:
    attacker, target = escape(ex.attacker), escape(ex.target)
    if not ex.hit:
        return f"⚔️ {attacker} attacks {target}: a miss"
    if ex.waiting:
        return f"⚔️ {attacker} hits {target}: defend?"
    if ex.avoided:
        verb = "dodges" if ex.choice is Defence.DODGE else "parries"
        return f"🛡️ {target} {verb} {attacker}'s attack"
    if ex.damage is None or not reveal:
        return f"💥 {attacker} hits {target}"
    return f"💥 {attacker} hits {target}: {ex.damage.total} damage"


def _test_field(test: Test, reveal: bool, outcome: str, *notes: str) -> str:
    if not reveal:
        return f"{_(SECRET_NOTE)}: **{outcome}**"
    turn = (escape(test.note),) if test.note else ()
    return clip(
        f"*{escape(test.who)}*\n"
        + result_lines(test.result, test.parts, test.penalties, test.chance, *notes, *turn),
        FIELD_VALUE,
    )


def _waiting_line(ex: Exchange) -> str:
    who = f"<@{ex.defender_id}> (or the GM)" if ex.defender_id else "the GM (for the NPC)"
    choices = ", ".join(d.label for d in ex.options)
    note = " Only Dodge works against a ranged attack." if ex.ranged else ""
    return f"Waiting for {who}: {choices}.{note}"


def exchange_embed(ex: Exchange, *, reveal: bool = True) -> discord.Embed:
    """The exchange at its present stage."""
    attack = ex.attack.result
    colour = DEGREE_COLOURS[attack.degree] if ex.hit else colours.FAILURE
    if ex.avoided:
        colour = colours.NEUTRAL
    embed = discord.Embed(title=clip(_title(ex, reveal), 256), colour=colour)
    source = "from the sheet" if ex.defence_from == "sheet" else "given"
    embed.add_field(
        name="⚔️ Attack",
        value=_test_field(
            ex.attack,
            reveal,
            "hits" if ex.hit else "misses",
            f"TN = {escape(ex.target)}'s Defence {ex.defence} ({source}); "
            "Marginal Success or better hits.",
        ),
        inline=False,
    )
    if ex.waiting:
        embed.description = _waiting_line(ex)
    if ex.choice is not None:
        if ex.defence_test is None:
            embed.add_field(name="🛡️ Defence", value="Takes it: no Dodge or Parry.", inline=False)
        else:
            embed.add_field(
                name=f"🛡️ {ex.choice.label}",
                value=_test_field(
                    ex.defence_test,
                    reveal,
                    "avoids the damage" if ex.avoided else "does not avoid it",
                    f"TN = the attack's result {ex.defence_test.result.base_tn}.",
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
                    "The NPC has no sheet nor Health on the tracker: the GM keeps its Health "
                    "(or gives it with `/init health`)."
                )
            else:
                lines.append(f"{escape(ex.target)}'s sheet has no {HEALTH}: nothing taken.")
            value = "\n".join(lines)
        else:
            value = f"{_(SECRET_NOTE)}: **{escape(ex.target)} is hurt**"
        embed.add_field(name="💥 Damage", value=clip(value, FIELD_VALUE), inline=False)
    roll_footer(embed, ex.roller or "?", "CODA attack", secret=ex.secrecy.secret and reveal)
    return fit_embed(embed)
