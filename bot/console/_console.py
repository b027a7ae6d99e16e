"""The offline console: the bot's own commands, typed as slash commands, without Discord.

It runs the real bot inside SimCord's in-memory Discord, so every command, option check,
permission and error message is exactly the one Discord users get: nothing is written twice.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import discord

from bot.app import NarratorBot, create_bot
from bot.console import _forms as console_forms
from bot.console._locale import DEFAULT_LOCALE, LocaleError, client_locale, parse_locale
from bot.console._text import format_text, line_editor
from bot.gateway import CommandLineError, Kind, convert, find_leaf, read_words, split_words
from bot.hosting.config import Settings
from bot.i18n import N_, _, use_language
from bot.i18n.choice import language_of
from bot.i18n.names import native_name
from bot.internals import simcord_message
from engine.dice import Dice

GUILD_ID = 1_000_000_000_000_001  # fixed, so the database recognises the console's guild
CAST = ("gm", "alice", "bob", "carol")  # created in this order so their ids are stable
GM_ROLE = "GM"
#: Messages with buttons remembered for /click (the newest first wins).
CLICKABLE = 50

HELP = N_(
    "Console commands (everything else is a Narrator slash command, e.g. /roll expression:2d6):\n"
    "  /as NAME [gm]     act as NAME (created if new; `gm` gives them the GM role)\n"
    "  /in CHANNEL       switch to channel CHANNEL (created if new)\n"
    "  /click LABEL      press the button LABEL on the latest message you can see that has it\n"
    "  /whoami           who and where you are\n"
    "  /locale [LOCALE]  show or set your Discord client's language (e.g. es-ES, en-US)\n"
    "  /quit             leave (Ctrl-D works too)\n"
    "Options are name:value, quoted when they hold spaces:\n"
    '  /roll expression:"4d6kh3 + 2" label:strength'
)
FORMS_HELP = N_("Forms (a command that opens one, like /sheet edit):")


def console_help() -> str:
    """The console's own commands, in the console's language."""
    return f"{_(HELP)}\n{_(FORMS_HELP)}\n{_(console_forms.SUBMIT_HELP)}"


_AT_NAME = re.compile(r"(?<![<\w])@(\w{1,32})")


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
    # Messages with buttons, oldest first, each with who can see it (None: everyone).
    clickable: list[tuple[str | None, Any]] = field(default_factory=list)
    # ``--save-files DIR``: files the bot sends (exports, charts, long records) are written here.
    save_files: Path | None = None
    # The form (modal) each user was last shown, until they submit it.
    forms: dict[str, Any] = field(default_factory=dict)
    # The Discord client locale every interaction carries (``--locale``, ``/locale``).
    locale: str = DEFAULT_LOCALE

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
        # The console's own messages in its language (the bot's replies choose their own).
        with use_language(language_of(self.locale)):
            return await self._run_line(line)

    async def _run_line(self, line: str) -> bool:
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
            self._info(console_help())
        elif head == "/as":
            self._switch_user(words[1:])
        elif head == "/in":
            self._switch_channel(words[1:])
        elif head == "/whoami":
            text = (
                _("You are {user} (GM) in #{channel}.", user=self.user, channel=self.channel)
                if self._is_gm(self.user)
                else _("You are {user} in #{channel}.", user=self.user, channel=self.channel)
            )
            self._info(text)
        elif head == "/locale":
            self._set_locale(words[1:])
        elif head == "/click":
            await self._click(" ".join(words[1:]))
        elif head == "/submit":
            await self._submit(words[1:])
        elif head.startswith("/"):
            await self._slash(words)
        else:
            self._error(
                _("Commands start with /. Type /help for Narrator's, /help console for mine.")
            )
        return True

    def _set_locale(self, args: list[str]) -> None:
        if args:
            try:
                self.locale = parse_locale(args[0])
            except LocaleError as error:
                self._error(str(error))
                return
        with use_language(language_of(self.locale)):
            self._info(
                _(
                    "Your Discord client's language is {locale} (replies in {language}).",
                    locale=self.locale,
                    language=native_name(language_of(self.locale)),
                )
            )

    def _switch_user(self, args: list[str]) -> None:
        if not args:
            self._error(_("Usage: /as NAME [gm]"))
            return
        name = args[0].lstrip("@").lower()
        self.member(name, gm=len(args) > 1 and args[1].lower() == "gm")
        self.user = name
        self._info(
            _("You are now {name} (GM).", name=name)
            if self._is_gm(name)
            else _("You are now {name}.", name=name)
        )

    def _switch_channel(self, args: list[str]) -> None:
        if not args:
            self._error(_("Usage: /in CHANNEL"))
            return
        name = args[0].lstrip("#").lower()
        self.channel_handle(name)
        self.channel = name
        self._info(_("You are now in #{channel}.", channel=name))

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
        if kind in (Kind.user, Kind.mentionable):
            who = value.lstrip("@").lower()
            if who not in self.members:
                raise ConsoleError(
                    _("Nobody called `{who}` here yet (use /as {who} first).", who=who)
                )
            return self.members[who]
        if kind == Kind.channel:
            return self.channel_handle(value.lstrip("#").lower())
        if kind == Kind.role:
            if value.lstrip("@") != GM_ROLE:
                raise ConsoleError(_("The console has one role, {role}.", role=GM_ROLE))
            return self.gm_role
        if kind == Kind.string:
            return self._mentions(value)
        if kind == Kind.attachment:
            path = Path(value).expanduser()
            if not path.is_file():
                raise ConsoleError(_("No file at {path}.", path=path))
            return (path.name, path.read_bytes())
        return value

    def _remember_buttons(self, owner: str | None, message: Any) -> None:
        self.clickable = [(o, m) for o, m in self.clickable if m.id != message.id]
        self.clickable.append((owner, message))
        del self.clickable[:-CLICKABLE]

    def _mentions(self, text: str) -> str:
        """A typed @alice in a text option, as Discord's client sends a picked mention."""

        def mention(match: re.Match[str]) -> str:
            member = self.members.get(match.group(1).lower())
            return f"<@{member.id}>" if member is not None else match.group(0)

        return _AT_NAME.sub(mention, text)

    async def _click(self, label: str) -> None:
        """Press ``label`` on the newest message this user can see that has such a button
        (a private reply with other buttons does not hide an older public one)."""
        visible = [m for owner, m in reversed(self.clickable) if owner in (None, self.user)]
        if not visible:
            self._error(_("No message with buttons that you can see yet."))
            return
        wanted = label.strip().casefold()
        target = next(
            (m for m in visible if any(str(b).casefold() == wanted for b in _button_labels(m))),
            None,
        )
        if target is None:
            labels = dict.fromkeys(str(b) for m in visible for b in _button_labels(m))
            self._error(
                _(
                    "No button `{label}` that you can see. Buttons: {labels}.",
                    label=label,
                    labels=", ".join(labels),
                )
            )
            return
        actor = self.members[self.user]
        before = self._snapshot()
        try:
            result = await actor.click(target, label=label)
        except Exception as error:
            self._error(_simcord_message(error, f"click {label}"))
            return
        self._show_result(result, before)

    async def _submit(self, words: list[str]) -> None:
        """Send the form last opened to this user (see :mod:`bot.console._forms`)."""
        shown = self.forms.get(self.user)
        if shown is None:
            self._error(_("No form is open for you: a command such as /sheet edit opens one."))
            return
        try:
            values = console_forms.values(shown.modal, console_forms.parse_words(words))
        except console_forms.FormError as error:
            self._error(str(error))
            return
        del self.forms[self.user]
        before = self._snapshot()
        try:
            result = await self.members[self.user].submit_modal(shown, values)
        except Exception as error:
            self._error(_simcord_message(error, "submit"))
            return
        self._show_result(result, before)

    def _places(self) -> list[tuple[str, Any]]:
        """Every channel and existing direct-message channel, with how to say where it is."""
        places = [(f"#{name}", handle) for name, handle in self.channels.items()]
        opened = self.env.backend.dm_channels
        places += [
            (_("direct message to {name}", name=name), user.dm_channel)
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
            self.forms[self.user] = result
            content = console_forms.describe(result.modal)
            self.emit({"ephemeral": True, "content": content, "embeds": [], "form": result.modal})
        for message in messages:
            if message.components:
                self._remember_buttons(self.user if message.flags.ephemeral else None, message)
            self.emit(self._saved(message, _payload(message)))
        replies = {m.id for m in messages}
        here = f"#{self.channel}"
        for where, place in self._places():
            for message in place.history():
                if message.id in replies or before.get(message.id) == _fingerprint(message):
                    continue
                if message.components and where == here:
                    self._remember_buttons(None, message)
                payload = _message_payload(message)
                stored = self.env.backend.get_message(message.channel.id, message.id)
                payload["allowed_mentions"] = _mention_policy(stored)
                payload["channel_message"] = "edited" if message.id in before else "posted"
                if where != here:
                    payload["where"] = where
                self.emit(self._saved(message, payload))

    def _saved(self, message: Any, payload: dict[str, Any]) -> dict[str, Any]:
        """With ``--save-files``: write the message's attachments, and say where (``saved``)."""
        attachments = simcord_message(message).attachments
        if self.save_files is None or not attachments:
            return payload
        self.save_files.mkdir(parents=True, exist_ok=True)
        saved = []
        for attachment in attachments:
            url, filename = (
                (attachment["url"], attachment["filename"])
                if isinstance(attachment, dict)
                else (attachment.url, attachment.filename)
            )
            data = self.env.backend.cdn.get(url)
            if data is None:
                continue
            name = Path(filename).name or "file"
            path = self.save_files / name
            number = 2
            while path.exists():  # never overwrite an earlier reply's file
                path = self.save_files / f"{Path(name).stem}-{number}{Path(name).suffix}"
                number += 1
            path.write_bytes(data)
            saved.append(str(path))
        payload["saved"] = saved
        return payload

    def names(self) -> dict[int, str]:
        """Who and where each id is, for showing mentions as names."""
        found = {user.id: f"@{name}" for name, user in self.users.items()}
        found.update({channel.id: f"#{name}" for name, channel in self.channels.items()})
        found[self.gm_role.id] = f"@{GM_ROLE}"
        return found

    def _info(self, text: str) -> None:
        self.emit({"console": True, "content": text})

    def _error(self, text: str) -> None:
        self.emit({"console": True, "error": True, "content": text})


def _button_labels(message: Any) -> list[Any]:
    """The button labels of a reply (SimCord gives its components as raw dicts) or of a
    channel message (component objects)."""
    labels = []
    for row in message.components:
        if isinstance(row, dict):
            labels += [
                child.get("label")
                for child in row.get("components", [])
                if child.get("type") == discord.ComponentType.button.value
            ]
        else:
            labels += [
                child.label
                for child in getattr(row, "children", [])
                if getattr(child, "label", None)
            ]
    return labels


def _payload(message: Any) -> dict[str, Any]:
    """An interaction's reply."""
    buttons = _button_labels(message)
    payload = _shown(message, ephemeral=bool(message.flags.ephemeral), buttons=buttons)
    payload["allowed_mentions"] = _mention_policy(simcord_message(message))
    attachments = getattr(simcord_message(message), "attachments", None)
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
    return _shown(message, ephemeral=False, buttons=_button_labels(message))


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


def _mention_policy(stored: Any) -> dict[str, Any]:
    """Whom a message may ping (its ``allowed_mentions``) and whom it did ping: a check can
    see that user text pings nobody while a turn pings its player."""
    policy = stored.allowed_mentions
    return {
        "everyone": policy.everyone,
        "users": sorted(str(u) for u in policy.users) if policy.users is not None else "all",
        "roles": sorted(str(r) for r in policy.roles) if policy.roles is not None else "all",
        "pinged": [str(u) for u in stored.ping_user_ids]
        + [f"role:{r}" for r in stored.ping_role_ids]
        + (["everyone"] if stored.mention_everyone else []),
    }


def _simcord_message(error: Exception, command: str) -> str:
    text = str(error).strip() or type(error).__name__
    if "not found" in text.lower() or ("unknown" in text.lower() and "command" in text.lower()):
        return _("Unknown command /{command}. Type /help for the list.", command=command)
    return text


async def run_console(
    settings: Settings,
    *,
    as_json: bool = False,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    dice: Dice | None = None,
    save_files: Path | None = None,
    locale: str = DEFAULT_LOCALE,
) -> int:
    stdout = stdout or sys.stdout
    try:
        return await _run(
            settings, as_json, stdin or sys.stdin, stdout, dice, save_files, parse_locale(locale)
        )
    except BrokenPipeError:
        # The reader left (`| head`): stop quietly, and keep Python's exit-time flush of
        # stdout from complaining about the closed pipe.
        if stdout is sys.stdout:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


async def _run(
    settings: Settings,
    as_json: bool,
    stdin: TextIO,
    stdout: TextIO,
    dice: Dice | None,
    save_files: Path | None,
    locale: str = DEFAULT_LOCALE,
) -> int:
    import simcord

    interactive = stdin.isatty() and not as_json
    console: Console | None = None

    def emit(payload: dict[str, Any]) -> None:
        if as_json:
            stdout.write(json.dumps(payload, ensure_ascii=False) + "\n")
        else:
            names = console.names() if console is not None else {}
            stdout.write(format_text(payload, names) + "\n")
        stdout.flush()

    # One person at a terminal, whose pasted scripts run at machine speed: no rate limits.
    unlimited = settings.model_copy(
        update={"rate_user_burst": 0, "rate_channel_burst": 0, "rate_autocomplete_burst": 0}
    )
    bot = create_bot(unlimited, dice=dice, sync_globally=True)
    async with simcord.run(bot, check_errors=False, settle_timeout=30.0) as env:
        session = Console(env=env, bot=bot, emit=emit, save_files=save_files, locale=locale)
        console = session
        session.setup()
        with client_locale(lambda: session.locale):
            return await _read_lines(session, stdin, stdout, interactive)


async def _read_lines(console: Console, stdin: TextIO, stdout: TextIO, interactive: bool) -> int:
    """Run the lines typed or piped in until the end of input or /quit."""
    read = line_editor(stdin, stdout) if interactive else None
    if interactive:
        with use_language(language_of(console.locale)):
            stdout.write(
                _("Narrator console — /help for commands, /help console for the console's own.")
                + "\n"
            )
    while True:
        if read is not None:
            line = await asyncio.to_thread(read, f"{console.user}@#{console.channel}> ")
        else:
            line = await asyncio.to_thread(stdin.readline)
        if not line or not await console.run_line(line):
            return 0


def configure_console_logging(level: str) -> None:
    # The console's output is the replies; the bot's own logs go to stderr, quietly.
    logging.basicConfig(
        level=max(logging.WARNING, logging.getLevelName(level)),
        stream=sys.stderr,
        format="%(levelname)s %(name)s: %(message)s",
    )
    logging.getLogger("discord").setLevel(logging.ERROR)
