"""The offline console's session: one line at a time, a slash command sent to the real bot
inside SimCord, a button pressed, a form submitted, or one of the console's own commands
(``/as``, ``/in``, ``/whoami``, ``/locale``, ``/click``, ``/submit``); then what the bot
replied, posted or edited, emitted as payloads (:mod:`bot.console._payloads`).

Every command, option check, permission and error message is exactly the one Discord users
get: nothing is written twice. Reading lines and printing them is :mod:`bot.console._run`'s.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord

from bot.app import NarratorBot
from bot.console import _forms as console_forms
from bot.console._locale import DEFAULT_LOCALE, LocaleError, parse_locale
from bot.console._payloads import (
    button_labels,
    disabled_labels,
    fingerprint,
    mention_policy,
    message_payload,
    reply_payload,
    write_attachments,
)
from bot.console._world import World
from bot.gateway import CommandLineError, Kind, convert, find_leaf, read_words, split_words
from bot.i18n import N_, _, use_language
from bot.i18n.choice import language_of
from bot.i18n.names import native_name

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

    # The guild, its members and channels (:mod:`bot.console._world`).
    world: World = field(init=False)

    def __post_init__(self) -> None:
        self.world = World(self.env)

    def setup(self) -> None:
        self.world.setup()

    def names(self) -> dict[int, str]:
        """Who and where each id is, for showing mentions as names."""
        return self.world.names()

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
                if self.world.is_gm(self.user)
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
        self.world.member(name, gm=len(args) > 1 and args[1].lower() == "gm")
        self.user = name
        self._info(
            _("You are now {name} (GM).", name=name)
            if self.world.is_gm(name)
            else _("You are now {name}.", name=name)
        )

    def _switch_channel(self, args: list[str]) -> None:
        if not args:
            self._error(_("Usage: /in CHANNEL"))
            return
        name = args[0].lstrip("#").lower()
        self.world.channel_handle(name)
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
        actor = self.world.members[self.user]
        channel = self.world.channel_handle(self.channel)
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
        root = self.env.backend.find_command(parts[0], self.world.guild.id, type=1)
        leaf = find_leaf(root, parts)
        options = convert(command, leaf, raw, self._value)
        # A typed @alice in a text option, as Discord's client sends a picked mention.
        return {
            name: self._mentions(value) if isinstance(value, str) else value
            for name, value in options.items()
        }

    def _value(self, name: str, kind: discord.AppCommandOptionType, value: str) -> Any:
        """Values only the console's world can turn into objects: members, channels, files."""
        if kind in (Kind.user, Kind.mentionable):
            who = value.lstrip("@").lower()
            if who not in self.world.members:
                raise ConsoleError(
                    _("Nobody called `{who}` here yet (use /as {who} first).", who=who)
                )
            return self.world.members[who]
        if kind == Kind.channel:
            return self.world.channel_handle(value.lstrip("#").lower())
        if kind == Kind.role:
            return self.world.role(value.lstrip("@"))
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
            member = self.world.members.get(match.group(1).lower())
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
            (m for m in visible if any(str(b).casefold() == wanted for b in button_labels(m))),
            None,
        )
        if target is None:
            labels = dict.fromkeys(str(b) for m in visible for b in button_labels(m))
            self._error(
                _(
                    "No button `{label}` that you can see. Buttons: {labels}.",
                    label=label,
                    labels=", ".join(labels),
                )
            )
            return
        if any(str(b).casefold() == wanted for b in disabled_labels(target)):
            self._error(
                _(
                    "The button `{label}` is disabled: Discord does not let anyone press it.",
                    label=label,
                )
            )
            return
        actor = self.world.members[self.user]
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
            result = await self.world.members[self.user].submit_modal(shown, values)
        except Exception as error:
            self._error(_simcord_message(error, "submit"))
            return
        self._show_result(result, before)

    def _snapshot(self) -> dict[int, str]:
        """Every message now, to show what a command posted or edited besides its reply."""
        return {m.id: fingerprint(m) for _, place in self.world.places() for m in place.history()}

    def _show_result(self, result: Any, before: dict[int, str]) -> None:
        messages = [m for m in [result.response, *result.followups] if m is not None]
        if not messages and result.modal is not None:
            self.forms[self.user] = result
            content = console_forms.describe(result.modal)
            self.emit({"ephemeral": True, "content": content, "embeds": [], "form": result.modal})
        for message in messages:
            if message.components:
                self._remember_buttons(self.user if message.flags.ephemeral else None, message)
            self.emit(self._saved(message, reply_payload(message)))
        replies = {m.id for m in messages}
        here = f"#{self.channel}"
        for where, place in self.world.places():
            for message in place.history():
                if message.id in replies or before.get(message.id) == fingerprint(message):
                    continue
                if message.components and where == here:
                    self._remember_buttons(None, message)
                payload = message_payload(message)
                stored = self.env.backend.get_message(message.channel.id, message.id)
                payload["allowed_mentions"] = mention_policy(stored)
                payload["channel_message"] = "edited" if message.id in before else "posted"
                if where != here:
                    payload["where"] = where
                self.emit(self._saved(message, payload))

    def _saved(self, message: Any, payload: dict[str, Any]) -> dict[str, Any]:
        """With ``--save-files``: write the message's attachments, and say where (``saved``)."""
        return write_attachments(self.save_files, self.env.backend.cdn, message, payload)

    def _info(self, text: str) -> None:
        self.emit({"console": True, "content": text})

    def _error(self, text: str) -> None:
        self.emit({"console": True, "error": True, "content": text})


def _simcord_message(error: Exception, command: str) -> str:
    text = str(error).strip() or type(error).__name__
    if "not found" in text.lower() or ("unknown" in text.lower() and "command" in text.lower()):
        return _("Unknown command /{command}. Type /help for the list.", command=command)
    return text
