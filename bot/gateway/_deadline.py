"""Answer within Discord's deadline: a command still working after ~1.5 s is deferred.

Discord drops an interaction that has no response after 3 seconds ("The application did not
respond"), even when the command goes on to commit. A command that waits (for a database
lock, a simulation) is therefore deferred ("Narrator is thinking…") once it has not answered
within :data:`DEFER_AFTER`, and its reply then arrives as the follow-up, for up to 15
minutes. Cogs keep calling ``interaction.response.send_message`` and
``interaction.followup.send`` as usual: :func:`answer_in_time` swaps in a response and a
follow-up that know about the deferral.

A deferral is public, so the first follow-up replaces the "thinking" message publicly
whatever it asks for. A private answer (an error, a secret roll) first completes that
message with a neutral line and then goes out as its own ephemeral message.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

import discord
from discord.utils import MISSING

from bot.i18n import N_, _
from bot.internals import (
    BARE_REPLY_OPTIONS,
    InteractionResponseHooks,
    followup_webhook,
    release_response,
    set_cached_followup,
    set_cached_response,
)

log = logging.getLogger(__name__)

#: Seconds without an answer after which a command is deferred (Discord allows 3).
DEFER_AFTER = 1.5
ANSWERED_PRIVATELY = N_("✅ Answered privately.")


class DeadlineResponse(InteractionResponseHooks):
    """An interaction's response that may be deferred behind the command's back.

    A plain reply (no view, file or poll: most of them) goes out as one bare POST
    (:meth:`~bot.internals.InteractionResponseHooks.post_message`) when the bot talks to
    Discord itself, and ``send_message`` then returns None: no command reads the callback
    response, which Discord sends only when asked for it (``with_response``), and reading
    it cost a third of the reply. A reply with a view asks for it (discord.py stores the
    view by the message's id), as does any reply under SimCord."""

    def __init__(self, parent: discord.Interaction) -> None:
        super().__init__(parent)
        self.interaction = parent
        self._gate = asyncio.Lock()
        self.auto_deferred = False
        self.deferring = False
        self._completed = False

    async def auto_defer(self) -> None:
        """Defer now unless the command has answered (or is answering) already."""
        async with self._gate:
            if self.is_done():
                return
            self.deferring = True
            try:
                await super().defer(thinking=True)
                self.auto_deferred = True
            finally:
                self.deferring = False

    async def defer(self, **kwargs: Any) -> Any:
        async with self._gate:
            if self.auto_deferred:
                return None  # deferred already: the command's own defer has nothing to do
            return await super().defer(**kwargs)

    async def send_message(self, content: Any = None, **kwargs: Any) -> Any:
        async with self._gate:
            if not self.auto_deferred:
                if (
                    kwargs.keys() <= BARE_REPLY_OPTIONS
                    and self.posts_bare()
                    and await self.post_message(content, **kwargs)
                ):
                    return None
                return await super().send_message(content, **kwargs)
        # Deferred meanwhile: the answer is the follow-up.
        kwargs.pop("delete_after", None)
        if content is not None:
            kwargs["content"] = content
        return await self.interaction.followup.send(**kwargs)

    async def before_followup(self, *, ephemeral: bool) -> None:
        """Complete the public "thinking" message before a private first follow-up."""
        async with self._gate:
            if not self.auto_deferred or self._completed:
                return
            self._completed = True
            if ephemeral:
                await self.interaction.edit_original_response(content=_(ANSWERED_PRIVATELY))


class DeadlineFollowup:
    """``interaction.followup`` that lets :class:`DeadlineResponse` settle a deferral first.

    discord.py's own follow-up webhook is built on first use: most commands answer with the
    response alone, and building a webhook they never use was a tenth of the guard's cost."""

    def __init__(self, response: DeadlineResponse) -> None:
        self._response = response
        self._built: discord.Webhook | None = None

    @property
    def _webhook(self) -> discord.Webhook:
        if self._built is None:
            self._built = followup_webhook(self._response.interaction)
        return self._built

    async def send(self, content: Any = MISSING, **kwargs: Any) -> Any:
        await self._response.before_followup(ephemeral=bool(kwargs.get("ephemeral")))
        return await self._webhook.send(content, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._webhook, name)


class _AnswerInTime:
    """:func:`answer_in_time`'s guard, as a plain async context manager: one per command,
    and cheaper than a generator-based one (no generator, no extra coroutine steps)."""

    __slots__ = ("_after", "_answered", "_deferral", "_interaction", "_response", "_timer")

    def __init__(
        self,
        interaction: discord.Interaction,
        after: float,
        answered: Callable[[int], None] | None,
    ) -> None:
        self._interaction = interaction
        self._after = after
        self._answered = answered
        self._response: DeadlineResponse | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._deferral: asyncio.Task[None] | None = None

    async def __aenter__(self) -> None:
        interaction = self._interaction
        if interaction.type is not discord.InteractionType.application_command:
            return
        response = self._response = DeadlineResponse(interaction)
        set_cached_response(interaction, response)
        set_cached_followup(interaction, DeadlineFollowup(response))
        # A timer, not a task per command: most commands answer long before it fires, and
        # cancelling a timer costs far less than starting, cancelling and awaiting a task.
        if self._after > 0:
            self._timer = asyncio.get_running_loop().call_later(self._after, self._defer_now)
        else:
            self._defer_now()  # at the first wait

    def _defer_now(self) -> None:
        assert self._response is not None
        self._first_answer()
        self._deferral = asyncio.get_running_loop().create_task(
            _defer(self._response), name="deadline-deferral"
        )

    def _first_answer(self) -> None:
        """Tell ``answered`` once: at the deferral, or at the end when none came first."""
        answered = self._answered
        if answered is not None:
            self._answered = None
            answered(self._interaction.id)

    async def __aexit__(self, *_exc: object) -> None:
        self._first_answer()
        if self._timer is not None:
            self._timer.cancel()
        deferral = self._deferral
        response = self._response
        if deferral is not None:
            assert response is not None
            if not response.deferring:  # a deferral already on its way is let through
                deferral.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await deferral
        elif response is not None and response.is_done() and self._interaction.response is response:
            # Answered without a deferral (most commands): out of discord.py's cycle, so that
            # the interaction is freed at once rather than by the cyclic collector. A late
            # follow-up is then discord.py's own, which is all this one does when not deferred.
            release_response(self._interaction)


def answer_in_time(
    interaction: discord.Interaction,
    *,
    after: float | None = None,
    answered: Callable[[int], None] | None = None,
) -> contextlib.AbstractAsyncContextManager[None]:
    """Run a command with the deadline watched: deferred if it has not answered in time
    (``after`` seconds, :data:`DEFER_AFTER` by default).

    ``answered`` is called once with the interaction's id when its first answer goes out:
    when the deferral starts, or when the command ends if it was not deferred. How late that
    is measures the loop, not the command (a command deferred in time may then wait for a
    lock as long as it likes): :meth:`bot.gateway._admission.Admission.answered` adapts its
    bound on it."""
    return _AnswerInTime(interaction, DEFER_AFTER if after is None else after, answered)


async def _defer(response: DeadlineResponse) -> None:
    try:
        await response.auto_defer()
    except discord.HTTPException:
        # Too late or Discord refused: the command's own reply will say what it can.
        log.warning("could not defer a slow command", exc_info=True)
