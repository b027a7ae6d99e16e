"""``/infinity roll|ftf|save``."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.cogs._common import NarratorCog, actor_from, send_roll
from bot.cogs._options import CHARACTER_HELP, ROLL_HELP, Label, SheetName
from bot.cogs._sheets import attribute_autocomplete, character_autocomplete, sheet_names_from
from bot.render import infinity as render
from bot.services import characters
from bot.services import infinity as service
from engine.systems import infinity

Mods = app_commands.Range[int, infinity.MODS_RANGE[0], infinity.MODS_RANGE[1]]
Burst = app_commands.Range[int, infinity.BURST_RANGE[0], infinity.BURST_RANGE[1]]
Hits = app_commands.Range[int, infinity.HITS_RANGE[0], infinity.HITS_RANGE[1]]
Damage = app_commands.Range[int, infinity.DAMAGE_RANGE[0], infinity.DAMAGE_RANGE[1]]

_ATTRIBUTE = "A number, or an attribute of the sheet (BS, CC, PH, WIP…)"
_MODS = "The sum of MODs (+3 range −3 cover = 0); beyond ±12 it counts as ±12"
_HELP = {"character": CHARACTER_HELP, **ROLL_HELP}


class InfinityCog(NarratorCog):
    group = app_commands.Group(name="infinity", description="Infinity CodeOne rolls")

    @group.command(name="roll", description="Normal roll: Burst d20 under attribute + MODs")
    @app_commands.describe(
        attribute=_ATTRIBUTE, mods=_MODS, burst="How many d20 (the weapon's B)", **_HELP
    )
    async def roll(
        self,
        interaction: discord.Interaction,
        attribute: SheetName,
        mods: Mods = 0,
        burst: Burst = 1,
        character: SheetName | None = None,
        label: Label | None = None,
        secret: bool = False,
    ) -> None:
        outcome = await service.roll(
            self.db,
            self.dice,
            actor_from(interaction),
            attribute=attribute,
            mods=mods,
            burst=burst,
            character=character,
            label=label,
            secret=secret,
        )
        await send_roll(
            interaction,
            render.normal_embed(outcome, interaction.user.display_name),
            outcome.secrecy,
        )

    @group.command(name="ftf", description="Face to face roll: active trooper against reactive")
    @app_commands.describe(
        active_attribute=f"Active side: {_ATTRIBUTE}",
        reactive_attribute=f"Reactive side (ARO): {_ATTRIBUTE}",
        active_mods=f"Active side: {_MODS}",
        active_burst="Active side: how many d20 (the weapon's B)",
        reactive_mods=f"Reactive side: {_MODS}",
        reactive_burst="Reactive side: how many d20 (an ARO usually 1)",
        active_character="The active side's sheet (default: your active character here)",
        reactive_character="The reactive side's sheet (default: your active character here)",
        **ROLL_HELP,
    )
    async def ftf(
        self,
        interaction: discord.Interaction,
        active_attribute: SheetName,
        reactive_attribute: SheetName,
        active_mods: Mods = 0,
        active_burst: Burst = 1,
        reactive_mods: Mods = 0,
        reactive_burst: Burst = 1,
        active_character: SheetName | None = None,
        reactive_character: SheetName | None = None,
        label: Label | None = None,
        secret: bool = False,
    ) -> None:
        outcome = await service.face_to_face(
            self.db,
            self.dice,
            actor_from(interaction),
            active=service.Side(active_attribute, active_mods, active_burst, active_character),
            reactive=service.Side(
                reactive_attribute, reactive_mods, reactive_burst, reactive_character
            ),
            label=label,
            secret=secret,
        )
        await send_roll(
            interaction, render.ftf_embed(outcome, interaction.user.display_name), outcome.secrecy
        )

    @group.command(name="save", description="Saving rolls: one d20 per hit; each failure a Wound")
    @app_commands.describe(
        damage="The weapon's Damage",
        armor="ARM or BTS: a number, or the sheet's attribute (ARM, BTS)",
        cover="The target is in partial cover (−3 attack damage)",
        hits="How many hits to save against (one d20 each)",
        mods="Other MODs to the attack damage (with cover, capped at ±12)",
        **_HELP,
    )
    async def save(
        self,
        interaction: discord.Interaction,
        damage: Damage,
        armor: SheetName,
        cover: bool = False,
        hits: Hits = 1,
        mods: Mods = 0,
        character: SheetName | None = None,
        label: Label | None = None,
        secret: bool = False,
    ) -> None:
        outcome = await service.save(
            self.db,
            self.dice,
            actor_from(interaction),
            damage=damage,
            armor=armor,
            cover=cover,
            hits=hits,
            mods=mods,
            character=character,
            label=label,
            secret=secret,
        )
        await send_roll(
            interaction, render.save_embed(outcome, interaction.user.display_name), outcome.secrecy
        )

    roll.autocomplete("attribute")(attribute_autocomplete)
    roll.autocomplete("character")(character_autocomplete)
    save.autocomplete("armor")(attribute_autocomplete)
    save.autocomplete("character")(character_autocomplete)
    ftf.autocomplete("active_character")(character_autocomplete)
    ftf.autocomplete("reactive_character")(character_autocomplete)
    ftf.autocomplete("active_attribute")(
        sheet_names_from(characters.attribute_names, character_option="active_character")
    )
    ftf.autocomplete("reactive_attribute")(
        sheet_names_from(characters.attribute_names, character_option="reactive_character")
    )
