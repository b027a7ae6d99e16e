"""Character sheet embeds: a sheet, a change to it, the list of a player's characters."""

from __future__ import annotations

import discord

from bot.render import colours
from bot.render.limits import FIELD_VALUE, clip, fit_embed
from bot.services.characters import CharacterSheet, ResourceChange
from bot.services.sheet import TEMPLATES
from bot.services.sheets import CharacterList
from engine.systems import SYSTEMS


def _resource_text(current: int, maximum: int | None) -> str:
    return f"{current}" if maximum is None else f"{current}/{maximum}"


def sheet_embed(sheet: CharacterSheet, *, changed: str | None = None) -> discord.Embed:
    embed = discord.Embed(
        title=sheet.name if changed is None else f"{sheet.name} — {changed}",
        description=f"{sheet.system_title} · played by <@{sheet.owner_id}>",
        colour=colours.INFO,
    )
    embed.add_field(
        name=f"Attributes ({len(sheet.attributes)})",
        value=clip(
            " · ".join(f"{name} **{value}**" for name, value in sheet.attributes.items())
            or "none yet (`/sheet set`)",
            FIELD_VALUE,
        ),
        inline=False,
    )
    skills = []
    for name, skill in sheet.skills.items():
        line = f"{name} **{skill.ranks}**"
        if skill.attribute:
            line += f" ({skill.attribute})"
        if skill.specialties:
            line += f" [{', '.join(skill.specialties)}]"
        skills.append(line)
    embed.add_field(
        name=f"Skills ({len(sheet.skills)})",
        value=clip(" · ".join(skills) or "none yet (`/sheet skill`)", FIELD_VALUE),
        inline=False,
    )
    embed.add_field(
        name=f"Resources ({len(sheet.resources)})",
        value=clip(
            " · ".join(
                f"{name} **{_resource_text(r.current, r.max)}**"
                for name, r in sheet.resources.items()
            )
            or "none yet (`/sheet resource`)",
            FIELD_VALUE,
        ),
        inline=False,
    )
    if sheet.notes:
        embed.add_field(name="Notes", value=clip(sheet.notes, FIELD_VALUE), inline=False)
    return fit_embed(embed)


def created_embed(sheet: CharacterSheet) -> discord.Embed:
    embed = discord.Embed(
        title=f"Created {sheet.name} — {sheet.system_title}",
        description=f"{sheet.name} is now your active character in this channel.",
        colour=colours.SUCCESS,
    )
    template = TEMPLATES.get(sheet.system, {})
    if template.get("attributes"):
        embed.add_field(
            name="Suggested attributes",
            value=", ".join(template["attributes"]) + "\nSet them with `/sheet set`.",
            inline=False,
        )
    if template.get("resources"):
        embed.add_field(
            name="Suggested resources",
            value=", ".join(template["resources"]) + "\nSet them with `/sheet resource`.",
            inline=False,
        )
    return fit_embed(embed)


def resource_embed(change: ResourceChange) -> discord.Embed:
    after = _resource_text(change.after.current, change.after.max)
    if change.before is None:
        text = f"{change.resource} added: **{after}**"
    else:
        before = _resource_text(change.before.current, change.before.max)
        text = f"{change.resource}: {before} → **{after}**"
    if change.clamped:
        text += " (kept within its bounds)"
    embed = discord.Embed(title=f"{change.character} — {change.resource}", description=text)
    embed.colour = colours.INFO
    return fit_embed(embed)


def list_embed(listing: CharacterList, owner_name: str) -> discord.Embed:
    lines = [
        f"{'▶ ' if e.active else ''}**{e.name}** — {SYSTEMS.get(e.system, e.system)}"
        for e in listing.entries
    ]
    embed = discord.Embed(
        title=f"{owner_name}'s characters ({len(listing.entries)})",
        description="\n".join(lines) or "No characters yet: `/sheet create`.",
        colour=colours.INFO,
    )
    if any(entry.active for entry in listing.entries):
        embed.set_footer(text="▶ active in this channel")
    return fit_embed(embed)
