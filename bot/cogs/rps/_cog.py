"""``/rps check``, ``/rps resisted`` and ``/rps sustained start|roll|status|abandon``."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.cogs._common import NarratorCog, actor_from, send_roll, typed_mentions
from bot.cogs._options import PARTICIPANTS_HELP, ROLL_HELP, Label, Participants, SheetName
from bot.cogs._sheets import attribute_autocomplete, skill_autocomplete
from bot.cogs._side_request import register, send_parts
from bot.i18n import _
from bot.render import rps as render
from bot.services import rps as service
from bot.services.rps import BaseRequest
from bot.services.side_requests import PartsRequest
from bot.text import signed
from engine.systems import rps

BaseValue = app_commands.Range[int, rps.MIN_BASE, rps.MAX_BASE]
Modifier = app_commands.Range[int, rps.MIN_MODIFIER, rps.MAX_MODIFIER]
Goal = app_commands.Range[int, 1, rps.MAX_GOAL]
Parties = app_commands.Range[str, 1, service.PARTIES_LENGTH]

#: The names are built from the table (``Hard (−5)``); each has its Spanish in the catalog.
DIFFICULTIES = [
    app_commands.Choice(name=locale_str(f"{d.name} ({signed(d.modifier)})"), value=d.name)
    for d in rps.DIFFICULTIES
]
_CHECK_HELP = {
    "base": locale_str("The Base as a number (or use an attribute or skill of your character)"),
    "attribute": locale_str(
        "Attribute check: 2 × this attribute (with a skill: its parent attribute)"
    ),
    "skill": locale_str("Skill check: skill + parent attribute"),
    "difficulty": locale_str(
        "A named difficulty modifier: No way to fail +20 … Beyond impossible −20"
    ),
    "modifier": locale_str("Situational modifiers (a second try: −5 … +5)"),
    "forgo": locale_str("Skip the roll when Base is above 15: SL 1, no critical either way"),
}
AUTOMATIC_HELP = locale_str(
    "GM: no reasonable chance of failure, so no roll: an automatic success (SL 1)"
)


register(service.KIND, service.roll_their_part, render.resisted_embed, parts=True)


class RpsCog(NarratorCog):
    rps_group = app_commands.Group(
        name="rps", description=locale_str("RPS stat checks: Base − 2d10")
    )
    sustained = app_commands.Group(
        name="sustained",
        description=locale_str("Sustained actions: checks fill a Success Pool up to a Goal Total"),
        parent=rps_group,
    )

    @rps_group.command(
        name="check", description=locale_str("A stat check: SL = Base − 2d10, 1 or more wins")
    )
    @app_commands.describe(**_CHECK_HELP, automatic=AUTOMATIC_HELP, **ROLL_HELP)
    @app_commands.choices(difficulty=DIFFICULTIES)
    @app_commands.autocomplete(attribute=attribute_autocomplete, skill=skill_autocomplete)
    async def check(
        self,
        interaction: discord.Interaction,
        base: BaseValue | None = None,
        attribute: SheetName | None = None,
        skill: SheetName | None = None,
        difficulty: str | None = None,
        modifier: Modifier = 0,
        forgo: bool = False,
        automatic: bool = False,
        label: Label | None = None,
        secret: bool = False,
    ) -> None:
        request = BaseRequest(base, attribute, skill, difficulty, modifier)
        outcome = await service.check(
            self.db,
            self.dice,
            actor_from(interaction),
            request,
            forgo=forgo,
            automatic=automatic,
            label=label,
            secret=secret,
        )
        embed = render.check_embed(outcome, interaction.user.display_name)
        await send_roll(interaction, embed, outcome.secrecy)

    @rps_group.command(
        name="resisted",
        description=locale_str("Everyone checks; the highest SL wins, ties roll off"),
    )
    @app_commands.describe(
        parties=locale_str(
            "Who resists whom, e.g. 'Johnny:12, Franky:9, @alice' (a player rolls their "
            "own character)"
        ),
        attribute=locale_str("What mentioned players roll: 2 × this attribute"),
        skill=locale_str("What mentioned players roll: this skill + its attribute"),
        **ROLL_HELP,
    )
    @app_commands.autocomplete(attribute=attribute_autocomplete, skill=skill_autocomplete)
    async def resisted(
        self,
        interaction: discord.Interaction,
        parties: Parties,
        attribute: SheetName | None = None,
        skill: SheetName | None = None,
        label: Label | None = None,
        secret: bool = False,
    ) -> None:
        outcome = await service.resisted(
            self.db,
            self.dice,
            actor_from(interaction),
            parties=typed_mentions(interaction, parties),
            attribute=attribute,
            skill=skill,
            label=label,
            secret=secret,
            now=interaction.created_at,
        )
        if isinstance(outcome, PartsRequest):
            await send_parts(interaction, service.KIND, outcome)
            return
        embed = render.resisted_embed(outcome, interaction.user.display_name)
        await send_roll(interaction, embed, outcome.secrecy)

    @sustained.command(
        name="start", description=locale_str("Start this channel's sustained action")
    )
    @app_commands.describe(
        goal=locale_str("The Goal Total the Success Pool must reach"),
        no_loss=locale_str("A failed check does not lower the pool (the GM's choice)"),
        label=locale_str("What the action is (shown on every check)"),
        participants=PARTICIPANTS_HELP,
    )
    async def sustained_start(
        self,
        interaction: discord.Interaction,
        goal: Goal,
        no_loss: bool = False,
        label: Label | None = None,
        participants: Participants | None = None,
    ) -> None:
        view = await service.sustained_start(
            self.db,
            actor_from(interaction),
            goal=goal,
            no_loss=no_loss,
            label=label,
            participants=participants and typed_mentions(interaction, participants),
        )
        embed = render.sustained_embed(view, heading=_("Sustained action started"))
        await interaction.response.send_message(embed=embed)

    @sustained.command(
        name="roll", description=locale_str("Roll the next check of the sustained action")
    )
    @app_commands.describe(secret=ROLL_HELP["secret"], **_CHECK_HELP)
    @app_commands.choices(difficulty=DIFFICULTIES)
    @app_commands.autocomplete(attribute=attribute_autocomplete, skill=skill_autocomplete)
    async def sustained_roll(
        self,
        interaction: discord.Interaction,
        base: BaseValue | None = None,
        attribute: SheetName | None = None,
        skill: SheetName | None = None,
        difficulty: str | None = None,
        modifier: Modifier = 0,
        forgo: bool = False,
        secret: bool = False,
    ) -> None:
        request = BaseRequest(base, attribute, skill, difficulty, modifier)
        outcome = await service.sustained_roll(
            self.db, self.dice, actor_from(interaction), request, forgo=forgo, secret=secret
        )
        embed = render.sustained_roll_embed(outcome, interaction.user.display_name)
        await send_roll(interaction, embed, outcome.secrecy)

    @sustained.command(
        name="status", description=locale_str("The sustained action's pool, goal and checks")
    )
    async def sustained_status(self, interaction: discord.Interaction) -> None:
        view = await service.sustained_status(self.db, actor_from(interaction))
        await interaction.response.send_message(embed=render.sustained_embed(view))

    @sustained.command(
        name="abandon",
        description=locale_str("End the sustained action (its starter or the GM)"),
    )
    async def sustained_abandon(self, interaction: discord.Interaction) -> None:
        view = await service.sustained_abandon(self.db, actor_from(interaction))
        embed = render.sustained_embed(view, heading=_("Sustained action abandoned"))
        await interaction.response.send_message(embed=embed)
