"""Checking a macro's command line against the live command tree, and running it as the caller.

Running a macro is running its command: the command's own checks, option transformers and
callback, with the caller's interaction, so permissions, secret mode and the roll log are
exactly the command's. discord.py's tree does the same after reading Discord's payload
(``Command._invoke_with_namespace``); Discord's client checks (required options, ranges,
lengths, choices) are redone here, from today's command, every time a macro runs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from bot.cogs._common import MACRO
from bot.commandline import (
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

#: The option a panel button fills so the command rolls for the panel's character.
CHARACTER_OPTION = "character"


class _Unknown:
    """A placeholder's value before it is given: present, but of no type to check."""


def _no_objects(name: str, kind: discord.AppCommandOptionType, _value: str) -> Any:
    raise CommandLineError(
        _(
            "Option `{name}` takes a {kind}: a macro holds only text, numbers and choices.",
            name=name,
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
) -> None:
    """Run the checked command with ``interaction``, as its user, logged as ``macro_name``.

    ``character`` fills the command's ``character`` option when it has one the line left
    empty (a panel's button rolls for its own character).
    """
    tree = interaction.client.tree  # type: ignore[attr-defined]
    # A form or a panel button: the tree's own gate (metrics, limits) has not seen it.
    gated = interaction.type is discord.InteractionType.application_command
    if not gated and not await tree.interaction_check(interaction):
        return
    command = _command(tree, checked.line.path)
    options = dict(checked.options)
    declared = {o["name"]: o for o in checked.leaf.get("options") or []}
    if character is not None and CHARACTER_OPTION in declared:
        options.setdefault(CHARACTER_OPTION, character)
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
