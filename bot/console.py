"""The offline console: the bot's own commands, typed as slash commands, without Discord.

It runs the real bot inside SimCord's in-memory Discord, so every command, option check,
permission and error message is exactly the one Discord users get: nothing is written twice.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import discord

from bot import console_forms
from bot.app import NarratorBot, create_bot
from bot.commandline import (
    CommandLineError,
    Kind,
    convert,
    find_leaf,
    read_words,
    split_words,
)
from bot.config import Settings
from engine.dice import Dice

GUILD_ID = 1_000_000_000_000_001  # fixed, so the database recognises the console's guild
CAST = ("gm", "alice", "bob", "carol")  # created in this order so their ids are stable
GM_ROLE = "GM"

HELP = """Console commands (everything else is a Narrator slash command, e.g. /roll expression:2d6):
  /as NAME [gm]     act as NAME (created if new; `gm` gives them the GM role)
  /in CHANNEL       switch to channel CHANNEL (created if new)
  /click LABEL      press a button on the last reply that has one
  /fill NAME:value  fill and send the last form (modal) you were shown
  /whoami           who and where you are
  /quit             leave (Ctrl-D works too)
Options are name:value, quoted when they hold spaces:
  /roll expression:"4d6kh3 + 2" label:strength"""

_Type = Kind


class ConsoleError(CommandLineError):
    """A line the console cannot run; the message says why."""


@dataclass
class Console:
    """One console session: the simulated world and who is acting where."""

    env: Any
    bot: NarratorBot
    emit: Callable[[dict[str, Any]], None]
    guild: Any = None
    gm_role: Any = None
    users: dict[str, Any] = field(default_factory=dict)
    members: dict[str, Any] = field(default_factory=dict)
    channels: dict[str, Any] = field(default_factory=dict)
    user: str = "gm"
    channel: str = "table"
    # The latest message with buttons each user can see: public ones are everyone's.
    buttons_for: dict[str | None, Any] = field(default_factory=dict)
    # The latest form (modal) each user was shown and has not sent yet.
    form_for: dict[str, Any] = field(default_factory=dict)

    def setup(self) -> None:
        import simcord  # noqa: F401 - the console needs SimCord at run time

        self.guild = self.env.create_guild("Narrator console", id=GUILD_ID)
        self.gm_role = self.guild.create_role(GM_ROLE)
        self.channel_handle("table")
        for name in CAST:
            self.member(name, gm=name == "gm")

    def channel_handle(self, name: str) -> Any:
        if name not in self.channels:
            self.channels[name] = self._with_stable_id(
                f"channel:{name}", lambda: self.guild.create_text_channel(name)
            )
        return self.channels[name]

    def member(self, name: str, *, gm: bool = False) -> Any:
        if name not in self.users:
            self.users[name] = self._with_stable_id(
                f"user:{name}", lambda: self.env.create_user(name)
            )
        elif gm and not self._is_gm(name):
            # Same user (same id, same sheets), rejoining with the GM role.
            self.guild.remove_member(self.members.pop(name))
        if name not in self.members:
            roles = [self.gm_role] if gm else []
            self.members[name] = self.guild.add_member(self.users[name], roles=roles)
        return self.members[name]

    def _with_stable_id(self, key: str, create: Callable[[], Any]) -> Any:
        """Create a user or channel whose id depends only on its name.

        The database keys sheets, settings and encounters by Discord ids; with ids derived
        from names, ``#lab`` and ``dave`` are the same channel and player in every session.
        SimCord numbers everything in creation order, so its next id is swapped for ours.
        """
        backend = self.env.backend
        ids = iter([stable_id(key)])
        allocate = backend.snowflake
        backend.snowflake = lambda: next(ids, None) or allocate()
        try:
            return create()
        finally:
            del backend.snowflake

    def _is_gm(self, name: str) -> bool:
        member = self.members[name].member
        return member is not None and any(r.name == GM_ROLE for r in member.roles)

    async def run_line(self, line: str) -> bool:
        """Run one input line; False when the user asked to quit."""
        line = line.strip()
        if not line or line.startswith("#"):
            return True
        try:
            words = read_words(line)
        except CommandLineError as error:
            self._error(str(error))
            return True
        head = words[0].lower()
        if head in {"/quit", "/exit"}:
            return False
        if head == "/help" and len(words) > 1 and words[1] == "console":
            self._info(HELP)
        elif head == "/as":
            self._switch_user(words[1:])
        elif head == "/in":
            self._switch_channel(words[1:])
        elif head == "/whoami":
            gm = " (GM)" if self._is_gm(self.user) else ""
            self._info(f"You are {self.user}{gm} in #{self.channel}.")
        elif head == "/click":
            await self._click(" ".join(words[1:]))
        elif head == "/fill":
            await self._fill(words[1:])
        elif head.startswith("/"):
            await self._slash(words)
        else:
            self._error("Commands start with /. Type /help for Narrator's, /help console for mine.")
        return True

    def _switch_user(self, args: list[str]) -> None:
        if not args:
            self._error("Usage: /as NAME [gm]")
            return
        name = args[0].lstrip("@").lower()
        self.member(name, gm=len(args) > 1 and args[1].lower() == "gm")
        self.user = name
        self._info(f"You are now {name}{' (GM)' if self._is_gm(name) else ''}.")

    def _switch_channel(self, args: list[str]) -> None:
        if not args:
            self._error("Usage: /in CHANNEL")
            return
        name = args[0].lstrip("#").lower()
        self.channel_handle(name)
        self.channel = name
        self._info(f"You are now in #{name}.")

    async def _slash(self, words: list[str]) -> None:
        try:
            line = split_words(words)
        except CommandLineError as error:
            self._error(str(error))
            return
        command = line.command
        raw = line.options
        actor = self.members[self.user]
        channel = self.channel_handle(self.channel)
        before = self._snapshot()
        try:
            options = self._convert(command, raw)
            result = await actor.slash(channel, command, **options)
        except CommandLineError as error:
            self._error(str(error))
            return
        except Exception as error:  # SimCord refuses as Discord's client would
            self._error(_simcord_message(error, command))
            return
        self._show_result(result, before)

    def _convert(self, command: str, raw: dict[str, str]) -> dict[str, Any]:
        parts = command.split()
        root = self.env.backend.find_command(parts[0], self.guild.id, type=1)
        leaf = find_leaf(root, parts)
        return convert(command, leaf, raw, self._value)

    def _value(self, name: str, kind: discord.AppCommandOptionType, value: str) -> Any:
        """Values only the console's world can turn into objects: members, channels, files."""
        if kind in (_Type.user, _Type.mentionable):
            who = value.lstrip("@").lower()
            if who not in self.members:
                raise ConsoleError(f"Nobody called `{who}` here yet (use /as {who} first).")
            return self.members[who]
        if kind == _Type.channel:
            return self.channel_handle(value.lstrip("#").lower())
        if kind == _Type.role:
            if value.lstrip("@") != GM_ROLE:
                raise ConsoleError(f"The console has one role, {GM_ROLE}.")
            return self.gm_role
        if kind == _Type.attachment:
            path = Path(value).expanduser()
            if not path.is_file():
                raise ConsoleError(f"No file at {path}.")
            return (path.name, path.read_bytes())
        return value

    async def _click(self, label: str) -> None:
        target = self.buttons_for.get(self.user) or self.buttons_for.get(None)
        if target is None:
            self._error("No message with buttons that you can see yet.")
            return
        actor = self.members[self.user]
        before = self._snapshot()
        try:
            result = await actor.click(target, label=label)
        except Exception as error:
            self._error(_simcord_message(error, f"click {label}"))
            return
        self._show_result(result, before)

    async def _fill(self, words: list[str]) -> None:
        shown = self.form_for.get(self.user)
        if shown is None:
            self._error("No form is open for you.")
            return
        try:
            values = console_forms.values(shown.modal, words)
        except CommandLineError as error:
            self._error(str(error))
            return
        del self.form_for[self.user]
        before = self._snapshot()
        try:
            result = await self.members[self.user].submit_modal(shown, values)
        except Exception as error:
            self._error(_simcord_message(error, "fill"))
            return
        self._show_result(result, before)

    def _places(self) -> list[tuple[str, Any]]:
        """Every channel and existing direct-message channel, with how to say where it is."""
        places = [(f"#{name}", handle) for name, handle in self.channels.items()]
        opened = self.env.backend.dm_channels
        places += [
            (f"direct message to {name}", user.dm_channel)
            for name, user in self.users.items()
            if user.id in opened
        ]
        return places

    def _snapshot(self) -> dict[int, str]:
        """Every message now, to show what a command posted or edited besides its reply."""
        return {m.id: _fingerprint(m) for _, place in self._places() for m in place.history()}

    def _show_result(self, result: Any, before: dict[int, str]) -> None:
        messages = [m for m in [result.response, *result.followups] if m is not None]
        if not messages and result.modal is not None:
            self.form_for[self.user] = result
            content = console_forms.describe(result.modal)
            self.emit({"ephemeral": True, "content": content, "embeds": []})
        for message in messages:
            if message.components:
                self.buttons_for[self.user if message.flags.ephemeral else None] = message
            self.emit(_payload(message))
        replies = {m.id for m in messages}
        here = f"#{self.channel}"
        for where, place in self._places():
            for message in place.history():
                if message.id in replies or before.get(message.id) == _fingerprint(message):
                    continue
                if message.components and where == here:
                    self.buttons_for[None] = message
                payload = _message_payload(message)
                payload["channel_message"] = "edited" if message.id in before else "posted"
                if where != here:
                    payload["where"] = where
                self.emit(payload)

    def _info(self, text: str) -> None:
        self.emit({"console": True, "content": text})

    def _error(self, text: str) -> None:
        self.emit({"console": True, "error": True, "content": text})


def _payload(message: Any) -> dict[str, Any]:
    """An interaction's reply (SimCord gives its components as raw dicts)."""
    buttons = [
        child.get("label")
        for row in message.components
        for child in row.get("components", [])
        if child.get("type") == discord.ComponentType.button.value
    ]
    payload = _shown(message, ephemeral=bool(message.flags.ephemeral), buttons=buttons)
    attachments = getattr(message._message, "attachments", None)
    if attachments:
        payload["attachments"] = [
            a.get("filename") if isinstance(a, dict) else str(a) for a in attachments
        ]
    return payload


def stable_id(key: str) -> int:
    """A snowflake-shaped id that depends only on ``key`` (below 2**63, as Discord's are)."""
    digest = hashlib.sha256(key.encode()).digest()
    return (1 << 60) | int.from_bytes(digest[:7], "big")


def _fingerprint(message: Any) -> str:
    return json.dumps(
        [message.content, [e.to_dict() for e in message.embeds], len(message.components)],
        sort_keys=True,
        default=str,
    )


def _message_payload(message: Any) -> dict[str, Any]:
    """A channel message (not an interaction reply) in the same shape as a reply."""
    buttons = [
        child.label
        for row in message.components
        for child in getattr(row, "children", [])
        if getattr(child, "label", None)
    ]
    return _shown(message, ephemeral=False, buttons=buttons)


def _shown(message: Any, *, ephemeral: bool, buttons: list[Any]) -> dict[str, Any]:
    """What every emitted message carries; ``buttons`` only when it has some."""
    payload: dict[str, Any] = {
        "ephemeral": ephemeral,
        "content": message.content or None,
        "embeds": [embed.to_dict() for embed in message.embeds],
    }
    if buttons:
        payload["buttons"] = buttons
    return payload


def _simcord_message(error: Exception, command: str) -> str:
    text = str(error).strip() or type(error).__name__
    if "not found" in text.lower() or ("unknown" in text.lower() and "command" in text.lower()):
        return f"Unknown command /{command}. Type /help for the list."
    return text


def format_text(payload: dict[str, Any]) -> str:
    """A reply as readable text: title, description, fields, footer; ephemeral marked."""
    if payload.get("console"):
        return ("! " if payload.get("error") else "") + payload["content"]
    lines: list[str] = []
    if payload.get("ephemeral"):
        lines.append("(only you can see this)")
    if payload.get("channel_message"):
        where = payload.get("where", "the channel")
        lines.append(f"(message {payload['channel_message']} in {where})")
    if payload.get("content"):
        lines.append(payload["content"])
    for embed in payload.get("embeds", []):
        if embed.get("title"):
            lines.append(f"== {embed['title']} ==")
        if embed.get("description"):
            lines.append(embed["description"])
        for item in embed.get("fields", []):
            lines.append(f"  {item['name']}: {item['value']}")
        if embed.get("footer", {}).get("text"):
            lines.append(f"  -- {embed['footer']['text']}")
    if payload.get("buttons"):
        lines.append("  [" + "] [".join(str(b) for b in payload["buttons"]) + "]  (/click LABEL)")
    if payload.get("attachments"):
        lines.append("  attached: " + ", ".join(payload["attachments"]))
    return "\n".join(lines)


async def run_console(
    settings: Settings,
    *,
    as_json: bool = False,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    dice: Dice | None = None,
) -> int:
    import simcord

    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    interactive = stdin.isatty() and not as_json

    def emit(payload: dict[str, Any]) -> None:
        if as_json:
            stdout.write(json.dumps(payload, ensure_ascii=False) + "\n")
        else:
            stdout.write(format_text(payload) + "\n")
        stdout.flush()

    bot = create_bot(settings, dice=dice, sync_globally=True)
    async with simcord.run(bot, check_errors=False, settle_timeout=30.0) as env:
        console = Console(env=env, bot=bot, emit=emit)
        console.setup()
        if interactive:
            stdout.write(
                "Narrator console — /help for commands, /help console for the console's own.\n"
            )
        while True:
            if interactive:
                stdout.write(f"{console.user}@#{console.channel}> ")
                stdout.flush()
            line = await asyncio.to_thread(stdin.readline)
            if not line:
                break
            if not await console.run_line(line):
                break
    return 0


def configure_console_logging(level: str) -> None:
    # The console's output is the replies; the bot's own logs go to stderr, quietly.
    logging.basicConfig(
        level=max(logging.WARNING, logging.getLevelName(level)),
        stream=sys.stderr,
        format="%(levelname)s %(name)s: %(message)s",
    )
    logging.getLogger("discord").setLevel(logging.ERROR)
