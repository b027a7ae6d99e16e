"""``/h90 roll|defended|opposed|attack``."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.cogs._common import Choices, NarratorCog, actor_from, safe_autocomplete, send_roll
from bot.cogs._options import CHARACTER_HELP, ROLL_HELP, Label, SheetName
from bot.cogs._sheets import attribute_autocomplete, character_autocomplete, sheet_names_from
from bot.cogs._side_request import register, send_challenge
from bot.cogs.hogwarts1990._attack import run_attack
from bot.render import hogwarts1990 as render
from bot.services import hogwarts1990 as service
from bot.services import sheets
from bot.services.hogwarts1990 import DEFAULT_DODGE, AttackRequest
from bot.services.side_requests import Challenge
from engine.systems import hogwarts1990 as h90

Bonus = app_commands.Range[int, h90.BONUS_MIN, h90.BONUS_MAX]
CHOICE_LENGTH = 100
Difficulty = app_commands.Range[int, h90.DIFFICULTY_MIN, h90.DIFFICULTY_MAX]
Damage = app_commands.Range[int, h90.DAMAGE_MIN, h90.DAMAGE_MAX]

_HELP = {
    "attribute": locale_str("An attribute of your character (added to the roll)"),
    "bonus": locale_str("A number to add (alone, or on top of the attribute)"),
    "character": CHARACTER_HELP,
    "stress": locale_str("A stress roll keeps the LOWER die (bad circumstances)"),
    "advantage": locale_str("Reroll the lower die once"),
    **ROLL_HELP,
}


async def _reply(interaction: discord.Interaction, outcome: service.RollOutcome) -> None:
    """A roll's (or a defended roll's) embed, sent as its secrecy says."""
    await send_roll(
        interaction, render.roll_embed(outcome, interaction.user.display_name), outcome.secrecy
    )


register(service.OPPOSED_KIND, service.roll_their_side, render.opposed_embed)


class Hogwarts1990Cog(NarratorCog):
    group = app_commands.Group(name="h90", description=locale_str("Hogwarts 1990 rolls"))

    @group.command(
        name="roll",
        description=locale_str("Roll 2d20, keep one, add a bonus, meet a difficulty"),
    )
    @app_commands.describe(
        difficulty=locale_str("The difficulty number to reach (none: just a total)"), **_HELP
    )
    async def roll(
        self,
        interaction: discord.Interaction,
        attribute: SheetName | None = None,
        bonus: Bonus | None = None,
        difficulty: Difficulty | None = None,
        stress: bool = False,
        advantage: bool = False,
        character: SheetName | None = None,
        label: Label | None = None,
        secret: bool = False,
    ) -> None:
        outcome = await service.roll(
            self.db,
            self.dice,
            actor_from(interaction),
            roller=service.Roller(attribute, bonus, character, stress, advantage),
            difficulty=difficulty,
            label=label,
            secret=secret,
        )
        await _reply(interaction, outcome)

    @group.command(
        name="defended",
        description=locale_str("A roll against the defender's attributes (e.g. T + D)"),
    )
    @app_commands.describe(
        defense=locale_str(
            "The defender's attributes and/or numbers added: Toughness + Dexterity, 8 + 3"
        ),
        defender=locale_str("The defending character (whose sheet has those attributes)"),
        defender_name=locale_str("A name for a defender without a sheet (give numbers)"),
        **_HELP,
    )
    async def defended(
        self,
        interaction: discord.Interaction,
        defense: app_commands.Range[str, 1, 200],
        defender: SheetName | None = None,
        defender_name: SheetName | None = None,
        attribute: SheetName | None = None,
        bonus: Bonus | None = None,
        stress: bool = False,
        advantage: bool = False,
        character: SheetName | None = None,
        label: Label | None = None,
        secret: bool = False,
    ) -> None:
        outcome = await service.defended(
            self.db,
            self.dice,
            actor_from(interaction),
            roller=service.Roller(attribute, bonus, character, stress, advantage),
            defense=defense,
            defender=defender,
            defender_name=defender_name,
            label=label,
            secret=secret,
        )
        await _reply(interaction, outcome)

    @group.command(name="opposed", description=locale_str("Both sides roll; the higher total wins"))
    @app_commands.describe(
        vs_character=locale_str("The other side's character (its attribute is vs_attribute)"),
        vs_name=locale_str("A name for the other side when it has no sheet (e.g. Filch)"),
        vs_attribute=locale_str("The other side's attribute"),
        vs_bonus=locale_str("The other side's bonus (alone for a character without a sheet)"),
        vs_stress=locale_str("The other side makes a stress roll"),
        vs_advantage=locale_str("The other side rerolls its lower die once"),
        **_HELP,
    )
    async def opposed(
        self,
        interaction: discord.Interaction,
        attribute: SheetName | None = None,
        bonus: Bonus | None = None,
        stress: bool = False,
        advantage: bool = False,
        vs_character: SheetName | None = None,
        vs_name: SheetName | None = None,
        vs_attribute: SheetName | None = None,
        vs_bonus: Bonus | None = None,
        vs_stress: bool = False,
        vs_advantage: bool = False,
        character: SheetName | None = None,
        label: Label | None = None,
        secret: bool = False,
    ) -> None:
        outcome = await service.opposed(
            self.db,
            self.dice,
            actor_from(interaction),
            roller=service.Roller(attribute, bonus, character, stress, advantage),
            vs=service.Roller(vs_attribute, vs_bonus, vs_character, vs_stress, vs_advantage),
            vs_name=vs_name,
            label=label,
            secret=secret,
            now=interaction.created_at,
        )
        if isinstance(outcome, Challenge):
            await send_challenge(interaction, service.OPPOSED_KIND, outcome)
            return
        await send_roll(
            interaction,
            render.opposed_embed(outcome, interaction.user.display_name),
            outcome.secrecy,
        )

    @group.command(
        name="attack",
        description=locale_str("Attack in a skirmish; the target may dodge (a defended roll)"),
    )
    @app_commands.describe(
        target=locale_str("Who is attacked: a character in this channel, or an NPC's name"),
        difficulty=locale_str("The attack's difficulty number (a dodge raises it)"),
        dodge=locale_str("The attribute(s) a dodge adds to the difficulty (default Dexterity)"),
        npc_dodge=locale_str("What an NPC's dodge adds (an NPC has no sheet)"),
        damage=locale_str("Health a hit costs the target (default 1)"),
        attacker=locale_str("A name for an attacker without a sheet (an NPC; give its bonus)"),
        **{option: text for option, text in _HELP.items() if option != "label"},
    )
    async def attack(
        self,
        interaction: discord.Interaction,
        target: SheetName,
        difficulty: Difficulty,
        attribute: SheetName | None = None,
        bonus: Bonus | None = None,
        dodge: app_commands.Range[str, 1, 100] = DEFAULT_DODGE,
        npc_dodge: Bonus = 0,
        damage: Damage = h90.DAMAGE_DEFAULT,
        stress: bool = False,
        advantage: bool = False,
        character: SheetName | None = None,
        attacker: SheetName | None = None,
        secret: bool = False,
    ) -> None:
        await run_attack(
            interaction,
            AttackRequest(
                target=target,
                difficulty=difficulty,
                roller=service.Roller(attribute, bonus, character, stress, advantage),
                dodge=dodge,
                npc_dodge=npc_dodge,
                damage=damage,
                attacker=attacker,
                secret=secret,
            ),
        )

    attack.autocomplete("attribute")(attribute_autocomplete)
    attack.autocomplete("character")(character_autocomplete)
    roll.autocomplete("attribute")(attribute_autocomplete)
    roll.autocomplete("character")(character_autocomplete)
    defended.autocomplete("attribute")(attribute_autocomplete)
    defended.autocomplete("character")(character_autocomplete)
    defended.autocomplete("defender")(character_autocomplete)

    @defended.autocomplete("defense")
    @safe_autocomplete
    async def _defense(self, interaction: discord.Interaction, current: str) -> Choices:
        """The defender's attributes, for the last item of ``Toughness + Dex…``."""
        character = getattr(interaction.namespace, "defender", None) or None
        if character is None:
            return []
        head, plus, last = current.rpartition("+")
        prefix = f"{head.strip()} + " if plus else ""
        names = await sheets.suggest(
            self.db, actor_from(interaction), sheets.attribute_names, last.strip(), character
        )
        return [
            app_commands.Choice(name=prefix + name, value=prefix + name)
            for name in names
            if len(prefix + name) <= CHOICE_LENGTH
        ]

    opposed.autocomplete("attribute")(attribute_autocomplete)
    opposed.autocomplete("character")(character_autocomplete)
    opposed.autocomplete("vs_character")(character_autocomplete)
    opposed.autocomplete("vs_attribute")(
        sheet_names_from(
            sheets.attribute_names, character_option="vs_character", needs_character=True
        )
    )
