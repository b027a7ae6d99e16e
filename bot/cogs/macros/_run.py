"""Checking a macro's command line against the live command tree, and running it as the caller.

Running a macro is running its command: the command's own checks, option transformers and
callback, with the caller's interaction, so permissions, secret mode and the roll log are
exactly the command's. discord.py's tree does the same after reading Discord's payload
(``Command._invoke_with_namespace``); Discord's client checks (required options, ranges,
lengths, choices) are redone here, from today's command, every time a macro runs.

A quick-roll panel's button is the exception to "the caller": it runs only rolls
(:data:`PANEL_COMMANDS`), as the character's player and for that character alone, so a GM
who presses a player's button lends it no GM rights.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from bot.cogs._common import MACRO
from bot.errors import PermissionDenied, UserError
from bot.gateway import (
    CommandLine,
    CommandLineError,
    Kind,
    Placeholder,
    check_limits,
    convert,
    fill,
    find_leaf,
    placeholders,
    split_line,
)
from bot.i18n import _
from bot.internals import invoke_with_namespace, make_namespace, set_cached_command
from bot.render.limits import clip
from bot.render.macros import command_text
from bot.services.sheets import name_key, split_owner
from bot.text import UserText

#: The option a panel button fills so the command rolls for the panel's character.
CHARACTER_OPTION = "character"
#: What a quick-roll panel's button may run: one roller's own dice. Never settings, penalty
#: pools, sheets, the initiative order, the match, history (secret rolls) nor another macro;
#: nor opposed tests and attacks, which involve other players' characters.
PANEL_COMMANDS: tuple[tuple[str, ...], ...] = (
    ("roll",),
    *(("coda", sub) for sub in ("test", "skill", "attribute", "reaction", "damage")),
    ("coda", "extended", "roll"),
    ("h90", "roll"),
    ("infinity", "roll"),
    ("infinity", "save"),
    ("rps", "check"),
    ("rps", "sustained", "roll"),
    ("drama", "test"),
)


def panel_refusal(macro_name: str, text: str) -> str | None:
    """Why a panel may not hold the macro ``macro_name`` with line ``text`` (None: it may)."""
    try:
        path = split_line(text).path
    except UserError:
        path = (text,)
    if tuple(word.casefold() for word in path) in PANEL_COMMANDS:
        return None
    return _(
        "macro `{name}` runs {command}, which is not a roll",
        name=UserText(macro_name),
        command=command_text(clip(" ".join(path), 40)),
    )


def panel_rolls() -> str:
    """The commands a panel may run, as a reply lists them."""
    return ", ".join(f"`/{' '.join(path)}`" for path in PANEL_COMMANDS)


def check_panel_line(macro_name: str, text: str) -> None:
    """Refuse a panel button whose macro is not (or is no longer) a roll."""
    refusal = panel_refusal(macro_name, text)
    if refusal is not None:
        raise PermissionDenied(
            _(
                "This button cannot run: {refusal}. A quick-roll panel runs only rolls: {rolls}.",
                refusal=refusal,
                rolls=panel_rolls(),
            )
        )


class _Unknown:
    """A placeholder's value before it is given: present, but of no type to check."""


def _no_objects(name: str, kind: discord.AppCommandOptionType, _value: str) -> Any:
    raise CommandLineError(
        _(
            "Option `{name}` takes a {kind}: a macro holds only text, numbers and choices.",
            name=UserText(name),
            kind=kind.name,
        )
    )


@dataclass(frozen=True, slots=True)
class Checked:
    """A line that matches a command of the tree: its leaf JSON and typed options."""

    line: CommandLine
    leaf: dict[str, Any]
    options: dict[str, Any]


def _leaf(tree: app_commands.CommandTree, line: CommandLine) -> dict[str, Any]:
    """The JSON of the (sub)command ``line`` names in ``tree`` as it is now."""
    if line.path[0].casefold() == "macro":
        raise CommandLineError(_("A macro cannot run a macro."))
    root = tree.get_command(line.path[0])
    return find_leaf(root.to_dict(tree) if root is not None else None, line.path)


def check_line(tree: app_commands.CommandTree, text: str) -> Checked:
    """``text`` read and checked against ``tree``; a placeholder without a default counts as
    given (its value is checked when the macro runs), one with a default as its default."""
    line = split_line(text)
    leaf = _leaf(tree, line)
    prompts = placeholders(line)
    known = fill(line, {p.name.casefold(): p.default or "" for p in prompts})
    options = convert(line.command, leaf, known.options, _no_objects)
    for prompt in prompts:
        if prompt.default is None:
            options[prompt.option] = _Unknown()
    check_limits(line.command, leaf, options)
    return Checked(line=line, leaf=leaf, options=options)


def resolve(tree: app_commands.CommandTree, text: str, values: Mapping[str, str]) -> Checked:
    """The line with ``values`` (casefolded placeholder names) filled in, fully checked."""
    line = fill(split_line(text), values)
    leaf = _leaf(tree, line)
    options = convert(line.command, leaf, line.options, _no_objects)
    check_limits(line.command, leaf, options)
    return Checked(line=line, leaf=leaf, options=options)


def missing(text: str, values: Mapping[str, str]) -> list[Placeholder]:
    """The placeholders ``values`` does not give (asked for in a form)."""
    return [p for p in placeholders(split_line(text)) if p.name.casefold() not in values]


def _command(tree: app_commands.CommandTree, path: tuple[str, ...]) -> app_commands.Command:
    node: Any = tree.get_command(path[0])
    for name in path[1:]:
        node = node.get_command(name)
    assert isinstance(node, app_commands.Command)  # find_leaf found this path
    return node


async def invoke(
    interaction: discord.Interaction,
    macro_name: str,
    checked: Checked,
    *,
    character: str | None = None,
    owner_id: int | None = None,
) -> None:
    """Run the checked command with ``interaction``, as its user, logged as ``macro_name``.

    A panel's button gives ``character`` and its player ``owner_id``: the command runs as
    that player (whoever pressed: the presser's rate limit still counts) and only for that
    character, whose name fills the command's ``character`` option when the line left it empty.
    """
    tree = interaction.client.tree  # type: ignore[attr-defined]
    # A form or a panel button: the tree's own gate (metrics, language) has not seen it
    # (its rate limit was counted at the gateway, bot.gateway._ratelimit).
    gated = interaction.type is discord.InteractionType.application_command
    if not gated and not await tree.interaction_check(interaction):
        return
    command = _command(tree, checked.line.path)
    options = dict(checked.options)
    declared = {o["name"]: o for o in checked.leaf.get("options") or []}
    if character is not None and CHARACTER_OPTION in declared:
        named = options.setdefault(CHARACTER_OPTION, character)
        if not _same_character(str(named), character, owner_id):
            raise PermissionDenied(
                _(
                    "Macro `{name}` rolls for {named}: a button of {character}'s panel rolls "
                    "only for {character}.",
                    name=UserText(macro_name),
                    named=UserText(str(named)),
                    character=UserText(character),
                )
            )
    if owner_id is not None and owner_id != interaction.user.id:
        # Everything below (the command's checks, its actor, the roll log, the roller's name)
        # reads the interaction's user: the owner's rights, never the presser's.
        interaction.user = await _owner(interaction, owner_id)
    payload = [
        {"type": declared[name]["type"], "name": name, "value": value}
        for name, value in options.items()
        if Kind(declared[name]["type"]) in (Kind.string, Kind.integer, Kind.number, Kind.boolean)
    ]
    namespace = make_namespace(interaction, payload)
    # What the tree caches for the interaction it runs: error logs and metrics name the
    # macro's command, and autocomplete-style helpers read its options.
    set_cached_command(interaction, command, namespace)
    interaction.extras[MACRO] = macro_name
    await invoke_with_namespace(command, interaction, namespace)


def _same_character(named: str, character: str, owner_id: int | None) -> bool:
    name, owner = split_owner(named)
    return name_key(name) == name_key(character) and owner in (None, owner_id)


async def _owner(interaction: discord.Interaction, owner_id: int) -> discord.Member:
    """The panel's player, as a member of this server (their roles make their rights)."""
    guild = interaction.guild
    member = guild.get_member(owner_id) if guild is not None else None
    if member is None and guild is not None:
        try:
            member = await guild.fetch_member(owner_id)
        except discord.NotFound:
            member = None
    if member is None:
        raise UserError(
            _("This panel's player is no longer in this server: its buttons cannot roll.")
        )
    return member
