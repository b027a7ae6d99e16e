"""The commitment lines of a secret roll's notices, its reveal and a verification."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.i18n import _
from bot.render import colours
from bot.render.limits import DESCRIPTION, FIELD_VALUE, fit_embed
from bot.services.commitments import Reveal, Verification
from bot.services.secrecy import Seal
from bot.text import UserText
from engine import commitment


def seal_lines(seals: Sequence[Seal]) -> str:
    """One line per secret roll: its id and its commitment, short."""
    return "\n".join(
        _(
            "Roll #{id} · commitment `{commitment}`",
            id=seal.roll_id,
            commitment=commitment.short(seal.commitment),
        )
        for seal in seals
    )


def public_notice(roller: str, seals: Sequence[Seal]) -> str:
    """What the table sees of a secret roll: that it was made, and what it was fixed to."""
    notice = _(
        "🔒 {roller} made a secret roll. Its result is fixed by this commitment; after "
        "`/history reveal:<id>` anyone can check it.",
        roller=roller,
    )
    return f"{notice}\n{seal_lines(seals)}"


def full_commitments(seals: Sequence[Seal]) -> str:
    return "\n".join(
        _("Roll #{id}: `{commitment}`", id=seal.roll_id, commitment=seal.commitment)
        for seal in seals
    )


def reveal_fits(reveal: Reveal) -> bool:
    """Whether the record and the shell line fit in the embed (else they go in a file)."""
    return len(reveal.record) + 20 <= DESCRIPTION and (
        len(commitment.shell_line(reveal.record, reveal.salt)) + 20 <= FIELD_VALUE
    )


def reveal_embed(reveal: Reveal) -> discord.Embed:
    """The record, the salt and the commitment, each copyable as it was hashed."""
    fits = reveal_fits(reveal)
    record = f"```json\n{reveal.record}\n```" if fits else _("The record is in the attached file.")
    embed = discord.Embed(
        title=_("🔓 Secret roll #{id} revealed", id=reveal.roll_id),
        description=_("By {roller}. Record:", roller=f"<@{reveal.roller_id}>") + f"\n{record}",
        colour=colours.INFO,
    )
    embed.add_field(name=_("Salt"), value=f"`{reveal.salt}`", inline=False)
    embed.add_field(name=_("Commitment (SHA-256)"), value=f"`{reveal.commitment}`", inline=False)
    if fits:
        embed.add_field(
            name=_("Check it with sha256sum"),
            value=f"```sh\n{commitment.shell_line(reveal.record, reveal.salt)}\n```",
            inline=False,
        )
    embed.set_footer(text=_('SHA-256 of salt + "." + record · README: Fair dice you can check'))
    return fit_embed(embed)


def reveal_file_text(reveal: Reveal) -> str:
    """The whole reveal as plain text, for records too long for an embed."""
    return (
        f"record: {reveal.record}\nsalt: {reveal.salt}\ncommitment: {reveal.commitment}\n"
        f"check: {commitment.shell_line(reveal.record, reveal.salt)}\n"
    )


def verification_embed(result: Verification) -> discord.Embed:
    if result.matches:
        title, colour = _("✅ The commitment matches"), colours.SUCCESS
        text = _("This record and salt are exactly what was committed to.")
    else:
        title, colour = _("❌ The commitment does not match"), colours.DISASTER
        text = _("This record and salt were not what was committed to (or a copy is incomplete).")
    embed = discord.Embed(title=title, description=text, colour=colour)
    embed.add_field(name=_("Recomputed SHA-256"), value=f"`{result.computed}`", inline=False)
    if result.fields is not None:
        summary = ", ".join(
            f"{key} {result.fields[key]}"
            for key in ("system", "input", "faces", "outcome", "time")
            if key in result.fields
        )
        embed.add_field(
            name=_("The record says"),
            value=str(UserText(summary)),
            inline=False,
        )
    return fit_embed(embed)
