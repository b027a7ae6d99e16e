"""CODA actions on the tracker: its action buttons, ``/init action``'s answer, and the
**Roll the test** button an action beyond the allowance asks for (RULES.md §1).

Both buttons are :class:`discord.ui.DynamicItem` with everything they need in the custom id
(the action, or the stored test's id), so they work after a restart. The action buttons obey
``/init action``'s rules (they call the same service): only the current combatant's player,
or a GM, may press them. The initiative cog draws them under a CODA tracker.
"""

from __future__ import annotations

from typing import Any, Protocol

import discord

from bot.cogs._common import actor_from, send_roll
from bot.cogs._confirm import answer_error
from bot.gateway import send_ephemeral
from bot.i18n import N_, _
from bot.render.coda import coda_test_embed
from bot.services import coda as service
from bot.services.coda import PendingTest, TestClosed
from bot.services.initiative import InitOutcome

#: The tracker's action buttons: custom-id key → (the action of Tables 9-9…9-11, label).
TRACKER_ACTIONS: dict[str, tuple[str, str, str]] = {
    "walk": ("Walk", N_("Walk"), "🚶"),
    "run": ("Run", N_("Run (2)"), "🏃"),
    "sprint": ("Sprint", N_("Sprint (round)"), "💨"),
    "prone": ("Drop prone", N_("Drop prone"), "⬇️"),
    "stand": ("Stand from prone", N_("Stand up"), "⬆️"),
}
ACTION_ROW = 1  # under Next · Delay · Undo · End


class Answering(Protocol):
    """The initiative cog, as these buttons use it (no import of the cog: no cycle)."""

    db: Any

    async def answer(
        self,
        interaction: discord.Interaction,
        outcome: InitOutcome,
        view: discord.ui.View | None = None,
    ) -> None: ...


def roll_view(pending: PendingTest | None) -> discord.ui.View | None:
    """The **Roll the test** button for a test waiting to be rolled (None otherwise)."""
    if pending is None:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(RollTestButton(pending.id, _("Roll the test (TN {tn})", tn=pending.tn)))
    return view


async def run_action(
    cog: Answering,
    interaction: discord.Interaction,
    *,
    kind: str,
    cost: int | None = None,
    name: str | None = None,
    attribute: str | None = None,
) -> None:
    """Spend the action, answer like every ``/init`` change, and offer the test's button."""
    outcome = await service.take_action(
        cog.db, actor_from(interaction), kind=kind, cost=cost, name=name, attribute=attribute
    )
    await cog.answer(interaction, outcome, view=roll_view(outcome.extra))


class ActionButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"narrator:coda-action:(?P<key>walk|run|sprint|prone|stand)",
):
    """One common action under a CODA tracker, taken by whoever is up."""

    def __init__(self, key: str) -> None:
        action, label, emoji = TRACKER_ACTIONS[key]
        super().__init__(
            discord.ui.Button(
                label=_(label),
                emoji=emoji,
                style=discord.ButtonStyle.secondary,
                custom_id=f"narrator:coda-action:{key}",
                row=ACTION_ROW,
            )
        )
        self.key = key
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> ActionButton:
        return cls(match["key"])

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = interaction.client.get_cog("InitiativeCog")  # type: ignore[attr-defined]
        try:
            if cog is None:
                raise RuntimeError("the initiative cog is not loaded")
            await run_action(cog, interaction, kind=self.action)
        except Exception as error:  # a button has no command tree to answer its errors
            await answer_error(interaction, error)


def add_action_buttons(view: discord.ui.View) -> discord.ui.View:
    """``view`` with the common actions' row added (a CODA tracker's buttons)."""
    for key in TRACKER_ACTIONS:
        view.add_item(ActionButton(key))
    return view


class RollTestButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"coda-action-test:(?P<test>\d+)",
):
    """Rolls the attribute test an action beyond the allowance needs, from the sheet, once."""

    def __init__(self, test_id: int, label: str | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or _("Roll the test"),
                emoji="🎲",
                style=discord.ButtonStyle.primary,
                custom_id=f"coda-action-test:{test_id}",
            )
        )
        self.test_id = test_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> RollTestButton:
        return cls(int(match["test"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            outcome = await service.roll_action_test(
                interaction.client.db,  # type: ignore[attr-defined]
                interaction.client.dice,  # type: ignore[attr-defined]
                actor_from(interaction),
                self.test_id,
                now=interaction.created_at,
            )
        except TestClosed as closed:
            # Rolled already or undone: take the button away for everyone, and say why.
            await interaction.response.edit_message(view=None)
            await send_ephemeral(interaction, str(closed))
            return
        except Exception as error:
            await answer_error(interaction, error)
            return
        await interaction.response.edit_message(view=None)
        embed = coda_test_embed(outcome, interaction.user.display_name)
        await send_roll(interaction, embed, outcome.secrecy)
