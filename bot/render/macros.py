"""Macro embeds: one macro, the list a caller can run, a character's quick-roll panel."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.i18n import N_, _
from bot.render import colours
from bot.render.limits import FIELD_VALUE, clip, fit_embed
from bot.services.macros import MacroInfo, Panel
from bot.text import UserText

SCOPE_TITLES = {
    "me": N_("Yours"),
    "character": N_("Your character's"),
    "channel": N_("This channel's"),
    "server": N_("The server's"),
}


def name_text(name: UserText) -> str:
    """A macro's name, unable to change the formatting around it."""
    return str(name)


def command_text(command: str) -> str:
    """A command line shown verbatim in a code span (a backtick in it cannot close the span)."""
    return f"`/{command.replace('`', 'ˋ')}`"


def macro_embed(macro: MacroInfo, *, changed: str | None = None) -> discord.Embed:
    name = macro.name
    title = _("Macro {name}", name=name) + (f" — {changed}" if changed else "")
    embed = discord.Embed(title=title, colour=colours.INFO)
    embed.description = command_text(macro.command)
    embed.set_footer(
        text=_(
            "{scope} · run with /macro run name:{name}",
            scope=_(SCOPE_TITLES[macro.scope]),
            name=name.plain(),  # a footer shows text as typed
        )
    )
    return fit_embed(embed)


def macros_embed(macros: Sequence[MacroInfo]) -> discord.Embed:
    """Every macro the caller can run, by scope; shadowed ones struck through."""
    embed = discord.Embed(title=_("Macros you can run here"), colour=colours.INFO)
    if not macros:
        embed.description = _("None yet: `/macro save name:… command:…` saves one.")
    for scope, title in SCOPE_TITLES.items():
        lines = [
            (
                _("~~{name}~~ (hidden by one above)", name=name_text(m.name))
                if m.shadowed
                else name_text(m.name)
            )
            + f" — {command_text(m.command)}"
            for m in macros
            if m.scope == scope
        ]
        if lines:
            embed.add_field(name=_(title), value=clip("\n".join(lines), FIELD_VALUE), inline=False)
    return fit_embed(embed)


def panel_embed(panel: Panel) -> discord.Embed:
    embed = discord.Embed(
        title=_("{character} — quick rolls", character=panel.character),
        description=_(
            "Press a button to roll for this character (its player or a GM): it always "
            "rolls as its player."
        ),
        colour=colours.NEUTRAL,
    )
    return fit_embed(embed)
