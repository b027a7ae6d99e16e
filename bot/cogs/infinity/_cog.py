"""``/infinity roll|ftf|save``."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.cogs._common import NarratorCog, actor_from, send_roll
from bot.cogs._options import CHARACTER_HELP, ROLL_HELP, Label, SheetName
from bot.cogs._sheets import attribute_autocomplete, character_autocomplete, sheet_names_from
from bot.cogs._side_request import register, send_challenge
from bot.render import infinity as render
from bot.services import infinity as service
from bot.services import sheets
from bot.services.side_requests import Challenge
from engine.systems import infinity
from engine.systems.infinity import MAX_DISTANCE

Mods = app_commands.Range[int, infinity.MODS_RANGE[0], infinity.MODS_RANGE[1]]
Burst = app_commands.Range[int, infinity.BURST_RANGE[0], infinity.BURST_RANGE[1]]
Hits = app_commands.Range[int, infinity.HITS_RANGE[0], infinity.HITS_RANGE[1]]
Damage = app_commands.Range[int, infinity.DAMAGE_RANGE[0], infinity.DAMAGE_RANGE[1]]

_ATTRIBUTE = locale_str("A number, or an attribute of the sheet (BS, CC, PH, WIP…)")
_MODS = locale_str("The sum of MODs (+3 range −3 cover = 0); beyond ±12 it counts as ±12")
_HELP = {"character": CHARACTER_HELP, **ROLL_HELP}
_ATTACK_HELP = {
    "cover": locale_str("The target is in cover: MOD −3 (and +3 to its saving roll)"),
    "mimetism": locale_str("The target's Mimetism: MOD −3 or −6"),
    "range": locale_str("The weapon's range bands, distance:MOD, e.g. 40:+3,80:-3,120:-6"),
    "distance": locale_str("The distance to the target (with range): picks the band's MOD"),
}
#: The same options on ``/infinity ftf``, said of the active side.
_ACTIVE_ATTACK_HELP = {
    "cover": locale_str("Active side: the target is in cover: MOD −3 (and +3 to its saving roll)"),
    "mimetism": locale_str("Active side: the target's Mimetism: MOD −3 or −6"),
    "range": locale_str(
        "Active side: the weapon's range bands, distance:MOD, e.g. 40:+3,80:-3,120:-6"
    ),
    "distance": locale_str(
        "Active side: the distance to the target (with range): picks the band's MOD"
    ),
}
MIMETISM = [
    app_commands.Choice(name=locale_str("Mimetism −3"), value=-3),
    app_commands.Choice(name=locale_str("Mimetism −6"), value=-6),
]
Distance = app_commands.Range[int, 0, MAX_DISTANCE]
RangeBands = app_commands.Range[str, 1, 200]


register(service.KIND, service.roll_their_side, render.ftf_embed)


class InfinityCog(NarratorCog):
    group = app_commands.Group(name="infinity", description=locale_str("Infinity CodeOne rolls"))

    @group.command(
        name="roll", description=locale_str("Normal roll: Burst d20 under attribute + MODs")
    )
    @app_commands.describe(
        attribute=_ATTRIBUTE,
        mods=_MODS,
        burst=locale_str("How many d20 (the weapon's B)"),
        **_ATTACK_HELP,
        **_HELP,
    )
    @app_commands.choices(mimetism=MIMETISM)
    async def roll(
        self,
        interaction: discord.Interaction,
        attribute: SheetName,
        mods: Mods = 0,
        burst: Burst = 1,
        cover: bool = False,
        mimetism: int = 0,
        range: RangeBands | None = None,  # the option's name (the builtin is not used here)
        distance: Distance | None = None,
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
            attack=service.Attack(cover, mimetism, range, distance),
            label=label,
            secret=secret,
        )
        await send_roll(
            interaction,
            render.normal_embed(outcome, interaction.user.display_name),
            outcome.secrecy,
        )

    @group.command(
        name="ftf", description=locale_str("Face to face roll: active trooper against reactive")
    )
    @app_commands.describe(
        active_attribute=locale_str(
            "Active side: A number, or an attribute of the sheet (BS, CC, PH, WIP…)"
        ),
        reactive_attribute=locale_str(
            "Reactive side (ARO): A number, or an attribute of the sheet (BS, CC, PH, WIP…)"
        ),
        active_mods=locale_str(
            "Active side: The sum of MODs (+3 range −3 cover = 0); beyond ±12 it counts as ±12"
        ),
        active_burst=locale_str("Active side: how many d20 (the weapon's B)"),
        reactive_mods=locale_str(
            "Reactive side: The sum of MODs (+3 range −3 cover = 0); beyond ±12 it counts as ±12"
        ),
        reactive_burst=locale_str("Reactive side: how many d20 (an ARO usually 1)"),
        active_character=locale_str(
            "The active side's sheet (default: your active character here), or "
            "an NPC's name when its attribute is a number"
        ),
        reactive_character=locale_str(
            "The reactive side's sheet (default: your active character here), or "
            "an NPC's name when its attribute is a number"
        ),
        targets=locale_str(
            "Split the active Burst: more targets as name:dice:attribute[:MODs[:Burst]]"
        ),
        **_ACTIVE_ATTACK_HELP,
        **ROLL_HELP,
    )
    @app_commands.choices(mimetism=MIMETISM)
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
        cover: bool = False,
        mimetism: int = 0,
        range: RangeBands | None = None,  # the option's name (the builtin is not used here)
        distance: Distance | None = None,
        targets: app_commands.Range[str, 1, 500] | None = None,
        label: Label | None = None,
        secret: bool = False,
    ) -> None:
        active = service.Side(active_attribute, active_mods, active_burst, active_character)
        reactive = service.Side(
            reactive_attribute, reactive_mods, reactive_burst, reactive_character
        )
        attack = service.Attack(cover, mimetism, range, distance)
        roller = interaction.user.display_name
        if targets is not None:
            split = await service.burst_split(
                self.db,
                self.dice,
                actor_from(interaction),
                active=active,
                reactive=reactive,
                targets=targets,
                attack=attack,
                label=label,
                secret=secret,
            )
            await send_roll(interaction, render.split_embed(split, roller), split.secrecy)
            return
        outcome = await service.face_to_face(
            self.db,
            self.dice,
            actor_from(interaction),
            active=active,
            reactive=reactive,
            attack=attack,
            label=label,
            secret=secret,
            now=interaction.created_at,
        )
        if isinstance(outcome, Challenge):
            await send_challenge(interaction, service.KIND, outcome)
            return
        await send_roll(interaction, render.ftf_embed(outcome, roller), outcome.secrecy)

    @group.command(
        name="save", description=locale_str("Saving rolls: one d20 per hit; each failure a Wound")
    )
    @app_commands.describe(
        damage=locale_str("The weapon's Damage"),
        armor=locale_str("ARM or BTS: a number, or the sheet's attribute (ARM, BTS)"),
        cover=locale_str("The target is in partial cover (−3 attack damage)"),
        hits=locale_str("How many hits to save against (one d20 each)"),
        mods=locale_str("Other MODs to the attack damage (with cover, capped at ±12)"),
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
        sheet_names_from(sheets.attribute_names, character_option="active_character")
    )
    ftf.autocomplete("reactive_attribute")(
        sheet_names_from(sheets.attribute_names, character_option="reactive_character")
    )
