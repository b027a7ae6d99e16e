"""Slash commands written as one line of text: the console's input and a macro's body.

``/roll expression:"4d6kh3 + 2" label:strength`` is read the same way everywhere, with
one set of messages, against a command's JSON form (what Discord holds, and what
``Command.to_dict`` gives): the console reads SimCord's copy, macros the bot's own tree.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import discord

from bot.errors import UserError
from bot.i18n import _

Kind = discord.AppCommandOptionType
GROUPS = (Kind.subcommand.value, Kind.subcommand_group.value)
PRIMITIVE = (Kind.string, Kind.integer, Kind.number, Kind.boolean)
_TRUE = {"true", "yes", "y", "1", "on"}
_FALSE = {"false", "no", "n", "0", "off"}

#: How a caller turns a value of a kind this module does not know (users, channels, files).
Special = Callable[[str, discord.AppCommandOptionType, str], Any]


class CommandLineError(UserError):
    """A command line that cannot run; the message names what is wrong."""


@dataclass(frozen=True, slots=True)
class CommandLine:
    """A line split into its command path (``coda skill``) and its ``name:value`` options."""

    path: tuple[str, ...]
    options: dict[str, str]

    @property
    def command(self) -> str:
        return " ".join(self.path)


def read_words(line: str) -> list[str]:
    """Shell-like words: quotes hold spaces."""
    try:
        return shlex.split(line)
    except ValueError as error:
        raise CommandLineError(_("Could not read that line: {error}.", error=error)) from None


def split_line(line: str) -> CommandLine:
    """Split ``/coda skill skill:Potions label:"a brew"``; the leading slash is optional."""
    return split_words(read_words(line))


def split_words(words: list[str]) -> CommandLine:
    """A command path, then ``name:value`` words."""
    if not words:
        raise CommandLineError(_("That line holds no command."))
    path: list[str] = [words[0].removeprefix("/")]
    raw: dict[str, str] = {}
    for word in words[1:]:
        name, sep, value = word.partition(":")
        if sep:
            raw[name] = value
        elif raw:
            raise CommandLineError(
                _("`{word}` is not name:value. Quote values with spaces.", word=word)
            )
        else:
            path.append(word)
    return CommandLine(path=tuple(path), options=raw)


def find_leaf(root: Mapping[str, Any] | None, path: tuple[str, ...] | list[str]) -> dict[str, Any]:
    """The (sub)command ``path`` names under ``root`` (None: no such top-level command)."""
    command = " ".join(path)
    if root is None:
        raise CommandLineError(
            _("Unknown command /{command}. Type /help for the list.", command=path[0])
        )
    node: Mapping[str, Any] = root
    for name in path[1:]:
        node = next(
            (o for o in node.get("options") or [] if o.get("type") in GROUPS and o["name"] == name),
            {},
        )
        if not node:
            raise CommandLineError(
                _("/{command} is not a command. Type /help for the list.", command=command)
            )
    declared = node.get("options") or []
    if any(o.get("type") in GROUPS for o in declared):
        subs = ", ".join(o["name"] for o in declared)
        raise CommandLineError(
            _("/{command} needs a subcommand: {subs}.", command=command, subs=subs)
        )
    return dict(node)


def declared_options(leaf: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    return {o["name"]: o for o in leaf.get("options") or []}


def convert(
    command: str, leaf: Mapping[str, Any], raw: Mapping[str, str], special: Special
) -> dict[str, Any]:
    """Typed option values from text: choices by name or value, numbers, true/false;
    other kinds (users, channels, roles, files) are ``special``'s to turn or refuse."""
    declared = declared_options(leaf)
    options: dict[str, Any] = {}
    for name, value in raw.items():
        option = declared.get(name)
        if option is None:
            known = ", ".join(declared) or _("none")
            raise CommandLineError(
                _(
                    "/{command} has no option `{name}` (options: {known}).",
                    command=command,
                    name=name,
                    known=known,
                )
            )
        if option.get("choices"):
            value = choice_value(name, option["choices"], value)
        kind = Kind(option["type"])
        options[name] = (
            primitive_value(name, kind, value) if kind in PRIMITIVE else special(name, kind, value)
        )
    return options


def primitive_value(name: str, kind: discord.AppCommandOptionType, value: str) -> Any:
    """A string, integer, number or boolean option's value from its text."""
    try:
        if kind == Kind.integer:
            return int(value)
        if kind == Kind.number:
            return float(value)
    except ValueError:
        raise CommandLineError(
            _("Option `{name}` takes a number, not `{value}`.", name=name, value=value)
        ) from None
    if kind == Kind.boolean:
        if value.lower() in _TRUE:
            return True
        if value.lower() in _FALSE:
            return False
        raise CommandLineError(
            _("Option `{name}` takes true or false, not `{value}`.", name=name, value=value)
        )
    return value


def choice_value(name: str, choices: list[dict[str, Any]], typed: str) -> str:
    """A choice picked by its shown name or its value, as Discord's picker would send it."""
    wanted = typed.strip().casefold()
    for choice in choices:
        # The shown name in English or in any language the choice was localised in.
        names = [
            choice["name"],
            choice["value"],
            *(choice.get("name_localizations") or {}).values(),
        ]
        if wanted in {str(shown).casefold() for shown in names}:
            return str(choice["value"])
    shown = ", ".join(str(choice["name"]) for choice in choices)
    raise CommandLineError(_("Option `{name}` is one of: {shown}.", name=name, shown=shown))


def check_limits(command: str, leaf: Mapping[str, Any], options: Mapping[str, Any]) -> None:
    """What Discord's client checks before sending: required options, ranges, lengths.

    The console leaves this to SimCord (Discord's own messages); a macro, which runs
    without Discord seeing its options, checks it here, against today's command.
    """
    for name, option in declared_options(leaf).items():
        if name not in options:
            if option.get("required"):
                raise CommandLineError(
                    _("/{command} needs option `{name}`.", command=command, name=name)
                )
            continue
        value = options[name]
        low, high = option.get("min_value"), option.get("max_value")
        number = isinstance(value, int | float) and not isinstance(value, bool)
        if number and ((low is not None and value < low) or (high is not None and value > high)):
            raise CommandLineError(
                _(
                    "Option `{name}` of /{command} takes {range}, not {value}.",
                    name=name,
                    command=command,
                    range=_between(low, high),
                    value=value,
                )
            )
        if isinstance(value, str):
            shortest, longest = option.get("min_length"), option.get("max_length")
            if (shortest is not None and len(value) < shortest) or (
                longest is not None and len(value) > longest
            ):
                raise CommandLineError(
                    _(
                        "Option `{name}` of /{command} takes {range} characters, not {length}.",
                        name=name,
                        command=command,
                        range=_between(shortest, longest),
                        length=len(value),
                    )
                )


def _between(low: Any, high: Any) -> str:
    if low is not None and high is not None:
        return _("{low} to {high}", low=low, high=high)
    return _("at least {low}", low=low) if low is not None else _("at most {high}", high=high)


# --- placeholders ------------------------------------------------------------------------------

#: A whole option value ``{name}`` or ``{name:default}``. Only whole values: ``{Stealth}`` inside
#: ``2d6 + {Stealth}`` stays a sheet reference for /roll.
_PLACEHOLDER = re.compile(r"\{([A-Za-z][\w-]{0,31})(?::([^{}]*))?\}")
MAX_PLACEHOLDERS = 5  # a Discord modal holds five text fields


@dataclass(frozen=True, slots=True)
class Placeholder:
    """A value asked for when the line runs; ``option`` is the option it fills."""

    name: str
    option: str
    default: str | None


def placeholders(line: CommandLine) -> list[Placeholder]:
    """The line's placeholders in order; one name used twice must keep one default."""
    found: dict[str, Placeholder] = {}
    for option, value in line.options.items():
        match = _PLACEHOLDER.fullmatch(value)
        if match is None:
            continue
        name, default = match.group(1), match.group(2)
        known = found.get(name.casefold())
        if known is not None and known.default != default:
            raise CommandLineError(
                _(
                    "Placeholder `{placeholder}` has two different defaults.",
                    placeholder=f"{{{name}}}",
                )
            )
        found.setdefault(name.casefold(), Placeholder(name, option, default))
    if len(found) > MAX_PLACEHOLDERS:
        raise CommandLineError(
            _("A macro has at most {count} placeholders.", count=MAX_PLACEHOLDERS)
        )
    return list(found.values())


def fill(line: CommandLine, values: Mapping[str, str]) -> CommandLine:
    """The line with each placeholder replaced by its value in ``values`` (keys casefolded),
    else its default; an empty value leaves the option out (it takes the command's default)."""
    options: dict[str, str] = {}
    for option, value in line.options.items():
        match = _PLACEHOLDER.fullmatch(value)
        if match is not None:
            value = values.get(match.group(1).casefold(), match.group(2) or "")
            if not value.strip():
                continue
        options[option] = value.strip() if match is not None else value
    return CommandLine(path=line.path, options=options)


def parse_values(text: str) -> dict[str, str]:
    """``difficulty:Difficult "label:a brew"`` as {placeholder name (casefolded): value}."""
    values: dict[str, str] = {}
    for word in read_words(text):
        name, sep, value = word.partition(":")
        if not sep or not name:
            raise CommandLineError(
                _("`{word}` is not name:value. Quote values with spaces.", word=word)
            )
        values[name.casefold()] = value
    return values
