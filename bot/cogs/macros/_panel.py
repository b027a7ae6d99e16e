"""The quick-roll panel: a message of buttons, one per macro of a character.

Each button is a :class:`discord.ui.DynamicItem` whose custom_id holds the macro's id, so a
panel posted before a restart keeps working: nothing about it lives in the bot's memory.

A button runs a roll only (``PANEL_COMMANDS``), as the character's player and for that
character, whoever pressed it: a GM pressing a player's button has the player's rights.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import discord

from bot.cogs._common import actor_from
from bot.cogs._confirm import answer_error
from bot.cogs.macros._cog import run_macro
from bot.cogs.macros._run import panel_refusal, panel_rolls
from bot.errors import UserError
from bot.i18n import _
from bot.render.limits import MESSAGE, clip
from bot.render.macros import panel_embed
from bot.services import macros as service
from bot.text import UserText

BUTTONS_PER_ROW = 5


class MacroButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"narrator:macro:(?P<id>[0-9]{1,19})"
):
    """Runs one macro for its character, pressed by the character's player or a GM, always
    with the player's rights."""

    def __init__(self, macro_id: int, label: str = "Roll", row: int | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=clip(label, 80),
                style=discord.ButtonStyle.primary,
                custom_id=f"narrator:macro:{macro_id}",
                row=row,
            )
        )
        self.macro_id = macro_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Button[Any],  # type: ignore[override]
        match: re.Match[str],
    ) -> MacroButton:
        return cls(int(match["id"]), item.label or "Roll")

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            db = interaction.client.db  # type: ignore[attr-defined]
            found = await service.panel_macro(db, actor_from(interaction), self.macro_id)
            await run_macro(interaction, found.macro, {}, panel=found)
        except Exception as error:  # a button is not a command: answer as the tree would
            await answer_error(interaction, error)


def panel_view(panel: service.Panel) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for index, macro in enumerate(panel.macros):
        view.add_item(MacroButton(macro.id, macro.name.plain(), row=index // BUTTONS_PER_ROW))
    return view


async def post_panel(interaction: discord.Interaction) -> None:
    """``/sheet panel``: post the active character's panel at the bottom of the channel."""
    db = interaction.client.db  # type: ignore[attr-defined]
    panel = await service.panel(db, actor_from(interaction))
    kept = [m for m in panel.macros if panel_refusal(m.name.raw, m.command) is None]
    refusals = [
        f"- {refusal}"
        for m in panel.macros
        if (refusal := panel_refusal(m.name.raw, m.command)) is not None
    ]
    if not kept:
        raise UserError(clip(_left_off(panel.character, refusals, posted=False), MESSAGE))
    panel = dataclasses.replace(panel, macros=tuple(kept[: service.MAX_PANEL_BUTTONS]))
    await interaction.response.send_message(embed=panel_embed(panel), view=panel_view(panel))
    if refusals:
        await interaction.followup.send(
            clip(_left_off(panel.character, refusals, posted=True), MESSAGE), ephemeral=True
        )


def _left_off(character: UserText, refusals: list[str], *, posted: bool) -> str:
    """Why macros were left off a panel (or why there is no panel), one line each."""
    head = (
        _("Left off {character}'s panel:", character=character)
        if posted
        else _("{character}'s panel was not posted:", character=character)
    )
    tail = _(
        "A quick-roll panel runs only rolls ({rolls}), as the character's player, whoever "
        "presses it. Save other command lines as your own macros (`scope:me`) and run them "
        "with `/macro run`.",
        rolls=panel_rolls(),
    )
    return "\n".join([head, *refusals, tail])
