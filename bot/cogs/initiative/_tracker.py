"""The channel's initiative tracker: its buttons, its refresh, and answering a change.

Every change answers the command and then brings the channel's one tracker message up to
date, from the state the change committed (docs/decisions/hot-path.md), never back
to an older one. :class:`TrackerCog` is the initiative cog's base; the commands are in
``_cog``.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord
from discord.ext import commands

from bot.cogs._common import NarratorCog, actor_from
from bot.cogs._confirm import Confirm, KindView
from bot.cogs.coda import add_action_buttons
from bot.cogs.initiative._edit import edit_tracker
from bot.gateway import forget_standing, public_language
from bot.i18n import N_, _, current_language, use_language
from bot.render import initiative as render
from bot.render.limits import MESSAGE, clip
from bot.services import initiative
from bot.services.initiative import EncounterView, InitOutcome

log = logging.getLogger("bot.cogs.initiative._cog")  # one logger for the cog, as before

Change = Callable[..., Awaitable[InitOutcome]]

#: The tracker's button labels, translated per language (:meth:`TrackerCog.buttons_for`).
BUTTON_LABELS = {
    "next": N_("Next"),
    "delay": N_("Delay"),
    "undo": N_("Undo"),
    "end": N_("End"),
}


class TrackerButtons(KindView):
    """Next · Delay · Undo · End under the tracker; persistent (fixed custom ids, no timeout)."""

    def __init__(self, cog: TrackerCog) -> None:
        super().__init__(timeout=None)
        self.cog = cog
        # Labels in the language current at construction (the custom ids stay the same, so
        # a press reaches whichever instance discord.py holds for the message).
        for item, key in (
            (self.next_button, "next"),
            (self.delay_button, "delay"),
            (self.undo_button, "undo"),
            (self.end_button, "end"),
        ):
            item.label = _(BUTTON_LABELS[key])

    @discord.ui.button(
        label=BUTTON_LABELS["next"],
        emoji="⏭️",
        style=discord.ButtonStyle.primary,
        custom_id="narrator:init:next",
    )
    async def next_button(self, interaction: discord.Interaction, _b: discord.ui.Button) -> None:
        await self.cog.run_change(interaction, initiative.next_turn, dice=self.cog.dice)

    @discord.ui.button(
        label=BUTTON_LABELS["delay"],
        emoji="⏸️",
        style=discord.ButtonStyle.secondary,
        custom_id="narrator:init:delay",
    )
    async def delay_button(self, interaction: discord.Interaction, _b: discord.ui.Button) -> None:
        await self.cog.run_change(interaction, initiative.delay, dice=self.cog.dice)

    @discord.ui.button(
        label=BUTTON_LABELS["undo"],
        emoji="↩️",
        style=discord.ButtonStyle.secondary,
        custom_id="narrator:init:undo",
    )
    async def undo_button(self, interaction: discord.Interaction, _b: discord.ui.Button) -> None:
        await self.cog.run_change(interaction, initiative.undo)

    @discord.ui.button(
        label=BUTTON_LABELS["end"],
        emoji="🏁",
        style=discord.ButtonStyle.danger,
        custom_id="narrator:init:end",
    )
    async def end_button(self, interaction: discord.Interaction, _b: discord.ui.Button) -> None:
        await self.cog.ask_end(interaction)


#: Channels whose shown tracker revision is remembered; past it the oldest is forgotten and
#: that channel's next refresh re-reads the encounter (correct, one transaction dearer).
MAX_SHOWN = 4096


@dataclass(frozen=True, slots=True)
class Shown:
    """What a channel's tracker message shows: which encounter, at which revision.

    ``buttons``: the view this process last edited the message with (None: not known), which
    discord.py's view store holds for the message since (:func:`edit_tracker`'s ``stored``).
    """

    encounter_id: int
    revision: int
    message_id: int
    buttons: discord.ui.View | None = None


class TrackerCog(NarratorCog):
    """The initiative cog's tracker half (the End button's confirmation included); the cog
    adds the commands."""

    def __init__(self, bot: commands.Bot) -> None:
        super().__init__(bot)
        self.buttons = TrackerButtons(self)  # English labels; registered for presses
        self._buttons_by_language: dict[str, TrackerButtons] = {"en": self.buttons}
        # A CODA tracker's buttons (with the common actions' row), one view per language too.
        self._coda_buttons_by_language: dict[str, discord.ui.View] = {}
        # One tracker refresh at a time per channel, so edits never land out of order.
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        # What each channel's tracker shows, by channel id (oldest first, at most MAX_SHOWN).
        self._shown: dict[int, Shown] = {}
        # The newest (encounter id, revision) a refresh waits to show, by channel id: only
        # while that refresh runs or waits for the channel's lock (see refresh_tracker).
        self._newest: dict[int, tuple[int, int]] = {}

    async def cog_load(self) -> None:
        self.bot.add_view(self.buttons)

    async def cog_unload(self) -> None:
        for buttons in self._buttons_by_language.values():
            buttons.stop()
        for view in self._coda_buttons_by_language.values():
            view.stop()

    def buttons_for(self) -> TrackerButtons:
        """The tracker's buttons labelled in the current language (one view per language)."""
        language = current_language()
        buttons = self._buttons_by_language.get(language)
        if buttons is None:
            buttons = self._buttons_by_language[language] = TrackerButtons(self)
        return buttons

    # ------------------------------------------------------------------ the tracker

    async def refresh_tracker(
        self, channel: Any, channel_id: int, view: EncounterView | None = None
    ) -> None:
        """Edit the channel's tracker to ``view`` (the state a change committed, everyone's
        view: ``InitOutcome.tracker``) or to the latest state, or post a new one; never raises.

        The tracker never goes back to an older state when changes race: under the
        channel's lock, a view older than the revision the tracker shows is dropped (a newer
        one is on it already). Where nothing is known to compare with (no view, the first
        refresh here, a new tracker was posted, another encounter) the encounter is re-read,
        and a read is never older than anything shown. The comparison lives in this process:
        a channel's interactions all reach the process that runs its guild's shard.

        Latest wins: a view whose encounter has a newer revision waiting for the same lock
        is not drawn at all (that refresh draws the newer state next). A GM pressing Next
        five times while an edit is on its way makes two edits, not five, and the table never
        watches the turns it missed scroll past (nor waits on Discord's limit for edits).
        """
        key = None if view is None else (view.encounter_id, view.revision)
        if key is not None:
            waiting = self._newest.get(channel_id)
            if waiting is None or waiting[0] != key[0] or waiting[1] < key[1]:
                self._newest[channel_id] = key
        try:
            async with self._tracker_lock(channel_id):
                waiting = self._newest.get(channel_id)
                if key and waiting and waiting[0] == key[0] and waiting[1] > key[1]:
                    return  # a newer state of this encounter is next in line: it draws that
                try:
                    await self._refresh(channel, channel_id, view)
                except Exception:
                    self._shown.pop(channel_id, None)  # unsure what it shows: re-read next time
                    log.exception("could not refresh the initiative tracker in %s", channel_id)
        finally:
            if key is not None and self._newest.get(channel_id) == key:
                del self._newest[channel_id]  # drawn, failed or cancelled: none waits now

    def _tracker_lock(self, channel_id: int) -> asyncio.Lock:
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        return lock

    def _buttons(self, view: EncounterView) -> discord.ui.View:
        """The tracker's buttons; a CODA tracker adds a row of common actions.

        One view per language, reused for every tracker like :meth:`buttons_for`: its
        custom ids are fixed, so discord.py dispatches a press on any message to it."""
        if view.system != "coda":
            return self.buttons_for()
        language = current_language()
        buttons = self._coda_buttons_by_language.get(language)
        if buttons is None:
            buttons = add_action_buttons(TrackerButtons(self))
            self._coda_buttons_by_language[language] = buttons
        return buttons

    def _remember(
        self,
        channel_id: int,
        view: EncounterView,
        message_id: int,
        buttons: discord.ui.View | None = None,
    ) -> None:
        """The channel's tracker shows ``view`` now (an ended one needs no more refreshes);
        ``buttons``: the view it was just edited with (None when it was not edited here)."""
        self._shown.pop(channel_id, None)  # re-inserted last: the oldest go first
        if view.state.ended:
            return
        self._shown[channel_id] = Shown(view.encounter_id, view.revision, message_id, buttons)
        if len(self._shown) > MAX_SHOWN:
            del self._shown[next(iter(self._shown))]

    async def _refresh(self, channel: Any, channel_id: int, view: EncounterView | None) -> None:
        shown = self._shown.get(channel_id)
        if view is not None and shown is not None and shown.encounter_id == view.encounter_id:
            if view.revision < shown.revision:
                return  # a change committed after this one is on the tracker already
            message_id: int | None = shown.message_id
        elif view is not None and view.state.ended:
            message_id = view.tracker_message_id  # the encounter's last state: none is newer
        else:
            view = await initiative.latest(self.db, channel_id)
            if view is None:
                self._shown.pop(channel_id, None)
                return
            message_id = view.tracker_message_id
        # The table's message: the channel's language, else its starter's, never the
        # language of whoever pressed last (bot.gateway._public_language).
        with use_language(await public_language(self.bot, channel_id, view.language)):
            embed = render.tracker_embed(view)
            buttons = None if view.state.ended else self._buttons(view)
        if message_id is not None and channel is not None:
            try:
                message = channel.get_partial_message(message_id)
                # The same buttons on the same message as the last edit: the view store holds
                # them for it already (a new language or a CODA tracker's row: stored anew).
                stored = (
                    buttons is not None
                    and shown is not None
                    and shown.message_id == message_id
                    and shown.buttons is buttons
                )
                # content=None drops /init start's welcome line once play has moved on.
                await edit_tracker(message, embed=embed, view=buttons, stored=stored)
                self._remember(channel_id, view, message_id, buttons)
                return
            except discord.HTTPException as error:
                log.info("tracker %s could not be edited (%s)", message_id, error)
        self._shown.pop(channel_id, None)  # a new tracker, or none: the next refresh re-reads
        if view.state.ended or channel is None:
            return
        try:
            posted = await channel.send(embed=embed, view=buttons)
        except discord.HTTPException:
            log.warning("could not post an initiative tracker in %s", channel_id, exc_info=True)
            return
        await initiative.set_tracker(self.db, channel_id, posted.id)

    # ------------------------------------------------------------------ answering changes

    async def answer(
        self,
        interaction: discord.Interaction,
        outcome: InitOutcome,
        view: discord.ui.View | None = None,
    ) -> None:
        """Reply to a change (public line, GM-only line), then update the tracker.

        ``view``: buttons for the reply (a CODA action's Roll the test)."""
        forget_standing(interaction.client, interaction.channel_id)  # whose turn: read anew
        reply = render.reply(outcome)
        gm_only = reply.gm_only if outcome.view.gm else None
        extra: dict[str, Any] = {} if view is None else {"view": view}
        if reply.public:
            pings = discord.AllowedMentions(users=[discord.Object(id=u) for u in reply.pings])
            await interaction.response.send_message(
                clip(reply.public, MESSAGE), allowed_mentions=pings, **extra
            )
            if gm_only:
                await interaction.followup.send(clip(gm_only, MESSAGE), ephemeral=True)
        else:
            await interaction.response.send_message(
                clip(gm_only or _("Done."), MESSAGE), ephemeral=True, **extra
            )
        # The committed state, not read again (docs/decisions/hot-path.md). refresh_tracker drops
        # it if a change committed meanwhile is on the tracker already.
        await self.refresh_tracker(
            interaction.channel, interaction.channel_id or 0, outcome.tracker
        )

    async def run_change(self, interaction: discord.Interaction, change: Change, **kw: Any) -> None:
        outcome = await change(self.db, actor_from(interaction), **kw)
        await self.answer(interaction, outcome)

    async def ask_end(self, interaction: discord.Interaction) -> None:
        view = await initiative.check_end(self.db, actor_from(interaction))
        confirm = Confirm(
            interaction.user.id,
            self.finish,
            confirm_label=_("End the encounter"),
            cancel_label=_("Keep playing"),
            cancelled=_("The encounter goes on."),
            refusal=_("Only the GM who asked can answer this."),
        )
        await confirm.ask(interaction, embed=render.confirm_end_embed(view))

    async def finish(self, interaction: discord.Interaction) -> None:
        outcome = await initiative.end(self.db, actor_from(interaction))
        await interaction.response.edit_message(
            content=_("Encounter ended."), embed=None, view=None
        )
        await interaction.followup.send(embed=render.summary_embed(outcome))
        await self.refresh_tracker(
            interaction.channel, interaction.channel_id or 0, outcome.tracker
        )
