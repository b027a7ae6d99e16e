"""Character sheet embeds: a sheet (paged when long), a change, a player's characters."""

from __future__ import annotations

import discord

from bot.i18n import _
from bot.render import colours
from bot.render.limits import FIELD_VALUE, FIELDS, TOTAL, clip, fit_embed
from bot.services.sheets import (
    TEMPLATES,
    CharacterList,
    Resource,
    ResourceChange,
    SheetText,
    SkillText,
)
from bot.text import UserText, number
from engine.systems import SYSTEMS


def _resource_text(resource: Resource) -> str:
    current = number(resource.current)
    return current if resource.max is None else f"{current}/{number(resource.max)}"


#: Room left on a page for the footer ("Page 2/3") and the shortened-note of fit_embed.
PAGE_BUDGET = TOTAL - 200


def _skill_text(skill: SkillText) -> str:
    line = f"{skill.name} **{number(skill.ranks)}**"
    if skill.attribute:
        line += f" ({skill.attribute})"
    if skill.specialties:
        line += " [" + ", ".join(map(str, skill.specialties)) + "]"
    return line


def _fields(title: str, items: list[str], empty: str) -> list[tuple[str, str]]:
    """One section as fields of at most FIELD_VALUE characters, split between entries."""
    if not items:
        return [(_("{section} ({count})", section=title, count=0), empty)]
    values: list[list[str]] = [[]]
    for item in (clip(item, FIELD_VALUE) for item in items):
        if values[-1] and len(" · ".join([*values[-1], item])) > FIELD_VALUE:
            values.append([])
        values[-1].append(item)
    names = [_("{section} ({count})", section=title, count=len(items))]
    names += [_("{section} (continued)", section=title)] * (len(values) - 1)
    return [(name, " · ".join(value)) for name, value in zip(names, values, strict=True)]


def sheet_pages(sheet: SheetText, *, changed: str | None = None) -> list[discord.Embed]:
    """The whole sheet, on as many embeds as Discord's limits need (a full sheet of 128
    skills does not fit one), so that nothing on it is ever cut from view."""
    fields = [
        *_fields(
            _("Attributes"),
            [f"{name} **{number(value)}**" for name, value in sheet.attributes],
            _("none yet (`/sheet set`)"),
        ),
        *_fields(
            _("Skills"),
            [_skill_text(skill) for skill in sheet.skills],
            _("none yet (`/sheet skill`)"),
        ),
        *_fields(
            _("Resources"),
            [f"{name} **{_resource_text(r)}**" for name, r in sheet.resources],
            _("none yet (`/sheet resource`)"),
        ),
    ]
    if sheet.notes:
        fields.append((_("Notes"), sheet.notes.shown(FIELD_VALUE, lines=True)))

    def page() -> discord.Embed:
        return discord.Embed(
            title=str(sheet.name) if changed is None else f"{sheet.name} — {changed}",
            description=_(
                "{system} · played by {player}",
                system=_(sheet.system_title),
                player=f"<@{sheet.owner_id}>",
            ),
            colour=colours.INFO,
        )

    pages = [page()]
    # The page's field count and ``len(embed)``, kept as fields are added: reading them from
    # the embed rebuilds its field list and re-measures every field, for each field added.
    count, size = 0, len(pages[0])
    for name, value in fields:
        full = count >= FIELDS or size + len(name) + len(value) > PAGE_BUDGET
        if full and count:
            pages.append(page())
            count, size = 0, len(pages[-1])
        name, value = str(name), str(value)  # as the embed stores (and measures) them
        pages[-1].add_field(name=name, value=value, inline=False)
        count += 1
        size += len(name) + len(value)
    if len(pages) > 1:
        for page_no, embed in enumerate(pages, start=1):
            embed.set_footer(text=_("Page {page}/{pages}", page=page_no, pages=len(pages)))
    return [fit_embed(embed) for embed in pages]


def created_embed(sheet: SheetText) -> discord.Embed:
    embed = discord.Embed(
        title=_("Created {name} — {system}", name=sheet.name, system=_(sheet.system_title)),
        description=_("{name} is now your active character in this channel.", name=sheet.name),
        colour=colours.SUCCESS,
    )
    template = TEMPLATES.get(sheet.system, {})
    if template.get("attributes"):
        embed.add_field(
            name=_("Suggested attributes"),
            value=", ".join(template["attributes"])
            + "\n"
            + _(
                "Fill them in at once with the button below or `/sheet edit`; one at a time "
                "with `/sheet set`."
            ),
            inline=False,
        )
    if template.get("resources"):
        embed.add_field(
            name=_("Suggested resources"),
            value=", ".join(template["resources"])
            + "\n"
            + _("In the same form, or with `/sheet resource`."),
            inline=False,
        )
    return fit_embed(embed)


def resource_embed(change: ResourceChange) -> discord.Embed:
    return _resource_embed(change.character, change.resource, change)


def _resource_embed(
    character: UserText, resource: UserText, change: ResourceChange
) -> discord.Embed:
    after = _resource_text(change.after)
    if change.before is None:
        text = _("{resource} added: **{value}**", resource=resource, value=after)
    else:
        before = _resource_text(change.before)
        text = f"{resource}: {before} → **{after}**"
    if change.clamped:
        text += " " + _("(kept within its bounds)")
    embed = discord.Embed(title=f"{character} — {resource}", description=text)
    embed.colour = colours.INFO
    return fit_embed(embed)


def list_embed(listing: CharacterList, owner_name: UserText) -> discord.Embed:
    lines = [
        f"{'▶ ' if e.active else ''}**{e.name}** — {_(SYSTEMS.get(e.system, e.system))}"
        for e in listing.entries
    ]
    embed = discord.Embed(
        title=_("{player}'s characters ({count})", player=owner_name, count=len(listing.entries)),
        description="\n".join(lines) or _("No characters yet: `/sheet create`."),
        colour=colours.INFO,
    )
    if any(entry.active for entry in listing.entries):
        embed.set_footer(text=_("▶ active in this channel"))
    return fit_embed(embed)
