"""The ``/help`` embeds: one line per command group, from the tree's own descriptions; one
command's options and examples; and who counts as a GM."""

from __future__ import annotations

from collections.abc import Sequence

import discord
from discord import app_commands

from bot.i18n import N_, _
from bot.render import colours
from bot.render.help_examples import EXAMPLES, NOTES
from bot.render.limits import FIELD_VALUE, clip, fit_embed
from bot.text import number
from engine.systems import SYSTEMS


def help_embed(
    commands: Sequence[app_commands.Command | app_commands.Group | app_commands.ContextMenu],
    *,
    default_system: str | None,
) -> discord.Embed:
    lines = []
    for command in sorted(commands, key=lambda c: c.name):
        if isinstance(command, app_commands.ContextMenu):
            continue
        if isinstance(command, app_commands.Group):
            subcommands = "|".join(c.name for c in command.commands)
            lines.append(f"**/{command.name}** {subcommands} — {_(command.description)}")
        else:
            lines.append(f"**/{command.name}** — {_(command.description)}")
    system = SYSTEMS.get(default_system or "")
    embed = discord.Embed(
        title=_("Narrator — commands"),
        description=clip("\n".join(lines), 4096),
        colour=colours.INFO,
    )
    embed.set_footer(
        text=(
            _("This channel plays {system}.", system=_(system))
            if system
            else _("No default system here yet: a GM can set one with /settings system.")
        )
    )
    return fit_embed(embed)


_TYPE_NAMES = {
    discord.AppCommandOptionType.string: N_("text"),
    discord.AppCommandOptionType.integer: N_("whole number"),
    discord.AppCommandOptionType.number: N_("number"),
    discord.AppCommandOptionType.boolean: N_("true/false"),
    discord.AppCommandOptionType.user: N_("member"),
    discord.AppCommandOptionType.channel: N_("channel"),
    discord.AppCommandOptionType.role: N_("role"),
    discord.AppCommandOptionType.mentionable: N_("member or role"),
    discord.AppCommandOptionType.attachment: N_("file"),
}


def _option_line(option: app_commands.Parameter) -> str:
    kind = _(_TYPE_NAMES.get(option.type, option.type.name))
    if option.choices:
        kind = " | ".join(str(c.value) for c in option.choices)
    elif option.min_value is not None and option.max_value is not None:
        kind += f" {number(int(option.min_value))}…{number(int(option.max_value))}"
    need = _("required") if option.required else _("optional")
    return f"`{option.name}` ({kind}, {need}) — {_(option.description)}"


def examples_of(command: app_commands.Command) -> tuple[tuple[str, str], ...]:
    """The command's worked examples, written by hand (:mod:`bot.render.help_examples`)."""
    return tuple((typed, _(what)) for typed, what in EXAMPLES.get(command.qualified_name, ()))


def _clip_words(text: str, limit: int) -> str:
    """``text`` within ``limit`` characters, cut at a space and ending in "…" when cut."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    return (cut.rsplit(" ", 1)[0] if " " in cut else cut) + "…"


def _packed(lines: list[str], limit: int = FIELD_VALUE) -> list[str]:
    """``lines`` in as few field values as fit ``limit`` each, never cutting a line across
    two (a line longer than a field alone is cut at a word)."""
    values: list[str] = []
    for line in (_clip_words(line, limit) for line in lines):
        if values and len(values[-1]) + 1 + len(line) <= limit:
            values[-1] += "\n" + line
        else:
            values.append(line)
    return values


def command_embed(command: app_commands.Command) -> discord.Embed:
    """``/help command:<name>``: what a command does, every option (over as many fields as
    they need, whole) and two worked examples."""
    embed = discord.Embed(
        title=f"/{command.qualified_name}",
        description=_(command.description),
        colour=colours.INFO,
    )
    options = [_option_line(o) for o in command.parameters] or [_("None.")]
    for index, value in enumerate(_packed(options)):
        name = _("Options") if index == 0 else _("Options (continued)")
        embed.add_field(name=name, value=value, inline=False)
    note = NOTES.get(command.qualified_name)
    if note is not None:
        embed.add_field(name=_("Note"), value=_(note), inline=False)
    lines = [f"`{typed}` — {what}" for typed, what in examples_of(command)]
    if lines:
        embed.add_field(name=_("Examples"), value=clip("\n".join(lines), FIELD_VALUE), inline=False)
    embed.set_footer(text=_("Options are typed name:value; /help lists every command"))
    return fit_embed(embed)


def gm_embed(role_names: Sequence[str], role_ids: Sequence[int] = ()) -> discord.Embed:
    """``/help command:gm``: who counts as a GM, in full (refusals say it in one line)."""
    roles = ", ".join([*(f"`{name}`" for name in role_names), *(f"<@&{i}>" for i in role_ids)])
    roles = roles or _("none")
    embed = discord.Embed(
        title=_("Who is a GM"),
        description="\n".join(
            [
                _("A GM of a channel is anyone who:"),
                _(
                    "• holds a GM role: {roles} (a GM or someone with Manage Server adds one "
                    "for this server with `/settings gm-role`);",
                    roles=roles,
                ),
                _("• has Manage Channels in the channel;"),
                _(
                    "• or started the channel's current encounter (`/init start`) or match "
                    "(`/quidditch new`), until it ends."
                ),
                "",
                _(
                    "GMs read and change the sheets used in the channel, remove penalty dice, "
                    "run encounters and matches, and see secret rolls. Players change only "
                    "their own characters."
                ),
            ]
        ),
        colour=colours.INFO,
    )
    return fit_embed(embed)
