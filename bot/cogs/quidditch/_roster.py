"""The channel's one roster message, and the ``/quidditch team`` form that fills a team.

A roster change answers the GM privately and edits the roster message in place, so a
channel filling fourteen players reads one roster, not fourteen. When that message is gone
(deleted, or never posted) the reply itself becomes the new roster message.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from dataclasses import replace

import discord

from bot.cogs._common import actor_from
from bot.cogs._confirm import answer_error
from bot.cogs._forms import FORM_SECONDS, refuse_form, typed_values
from bot.errors import UserError
from bot.i18n import _, _n
from bot.render import quidditch as render
from bot.render.limits import clip
from bot.services import quidditch as quidditch_team
from bot.services.quidditch import LINE_HINT, MatchView, TeamForm
from engine.errors import InputError

log = logging.getLogger(__name__)


#: One roster update at a time per channel, so two quick changes never post two rosters.
_locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()


async def show_roster_change(
    interaction: discord.Interaction, view: MatchView, changed: str
) -> None:
    """Edit the roster message and tell the GM privately; else post the roster as the reply."""
    channel_id = interaction.channel_id or 0
    lock = _locks.get(channel_id)
    if lock is None:
        lock = _locks[channel_id] = asyncio.Lock()
    async with lock:
        await _show(interaction, view, changed)


async def _show(interaction: discord.Interaction, view: MatchView, changed: str) -> None:
    db = interaction.client.db  # type: ignore[attr-defined]
    embed = render.roster_embed(view, changed=changed)
    channel = interaction.channel
    # Read under the lock: a change answered meanwhile may have posted the roster.
    message_id = await quidditch_team.roster_message_id(db, interaction.channel_id or 0)
    if message_id is not None and channel is not None:
        try:
            message = channel.get_partial_message(message_id)  # type: ignore[union-attr]
            await message.edit(embed=embed)
        except (discord.HTTPException, AttributeError) as error:
            log.info("roster %s could not be edited (%s)", message_id, error)
        else:
            await interaction.response.send_message(
                _("{changed} The roster message is updated.", changed=changed), ephemeral=True
            )
            return
    await interaction.response.send_message(embed=embed)
    try:
        posted = await interaction.original_response()
    except discord.HTTPException:  # the next change posts a roster instead
        log.warning("could not fetch the new roster in %s", interaction.channel_id, exc_info=True)
        return
    await quidditch_team.set_roster_message(db, interaction.channel_id or 0, posted.id)


class TeamModal(discord.ui.Modal):
    """One field per position, one player per line: ``Name Strength Dexterity Toughness
    Health``; submitting replaces the team's roster."""

    def __init__(self, form: TeamForm) -> None:
        super().__init__(
            title=clip(
                _("{team} — {side} team", team=form.team, side=_(render.SIDE_NAMES[form.side])),
                45,
            ),
            timeout=FORM_SECONDS,
            custom_id=f"quidditch-team-{form.side}",
        )
        self.form = form
        for key, label, value in form.fields:
            self.add_item(
                discord.ui.TextInput(
                    label=_(label),
                    custom_id=key,
                    style=discord.TextStyle.paragraph,
                    default=value or None,
                    placeholder=_(LINE_HINT),
                    required=False,
                    max_length=1000,
                )
            )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        lines = typed_values(self)
        db = interaction.client.db  # type: ignore[attr-defined]
        try:
            view = await quidditch_team.set_team(db, actor_from(interaction), self.form.side, lines)
        except (UserError, InputError) as error:
            typed = replace(
                self.form,
                fields=tuple((k, label, lines.get(k, v)) for k, label, v in self.form.fields),
            )
            await refuse_form(interaction, error, lambda: TeamModal(typed))
            return
        players = len(view.state.team(self.form.side).players)
        changed = _n(
            "{team}: {count} player entered.",
            "{team}: {count} players entered.",
            players,
            team=self.form.team,
            count=players,
        )
        await show_roster_change(interaction, view, changed)

    async def on_error(self, interaction: discord.Interaction, error: Exception) -> None:  # type: ignore[override]
        await answer_error(interaction, error)


async def open_team_form(interaction: discord.Interaction, team: str) -> None:
    db = interaction.client.db  # type: ignore[attr-defined]
    form = await quidditch_team.team_form(db, actor_from(interaction), team)
    await interaction.response.send_modal(TeamModal(form))
