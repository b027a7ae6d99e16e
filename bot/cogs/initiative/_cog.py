"""``/init start|join|add|health|remove|next|prev|delay|act|defend|action|condition|reveal|show|
end|undo``.

Every change answers the command (publicly, or to the GM alone when it concerns a hidden
combatant) and then brings the channel's one tracker message up to date. The tracker is
edited in place; when that fails (deleted message, missing permission) a new tracker is
posted and remembered, and the command still succeeds. Its buttons (Next, Delay, Undo,
End) are a persistent view, so they keep working after a restart, and obey the same rules
as the commands because they call the same services.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.cogs._common import Choices, actor_from, safe_autocomplete
from bot.cogs._options import CHARACTER_HELP, SYSTEM_CHOICES, SheetName
from bot.cogs._sheets import attribute_autocomplete, character_autocomplete
from bot.cogs.coda import run_action
from bot.cogs.initiative._tracker import TrackerCog
from bot.gateway import public_language
from bot.i18n import _, use_language
from bot.render import initiative as render
from bot.render.limits import MESSAGE, clip
from bot.services import initiative
from bot.services.sheets import matching
from engine import initiative as ini
from engine.initiative.rolls import MODIFIER_MAX, MODIFIER_MIN
from engine.notation import MAX_EXPRESSION_LENGTH
from engine.systems import coda
from engine.systems.coda import ACTIONS, CUSTOM, Kind

log = logging.getLogger(__name__)

Name = app_commands.Range[str, 1, ini.MAX_NAME_LENGTH]
Modifier = app_commands.Range[int, MODIFIER_MIN, MODIFIER_MAX]
Total = app_commands.Range[int, -1000, 1000]
Count = app_commands.Range[int, 1, initiative.MAX_COUNT]
Rounds = app_commands.Range[int, 1, ini.MAX_CONDITION_ROUNDS]
Note = app_commands.Range[str, 1, ini.MAX_NOTE_LENGTH]
ActionCost = app_commands.Range[int, 0, coda.MAX_ACTIONS]
Health = app_commands.Range[int, -ini.MAX_HEALTH, ini.MAX_HEALTH]
StartingHealth = app_commands.Range[int, 1, ini.MAX_HEALTH]
#: Tables 9-9 to 9-11, then a custom action (Discord takes at most 25 choices).
_COST_LABELS = {Kind.FREE: "free", Kind.FULL_ROUND: "full round"}
#: The names are built from the table (``Walk (1)``); each has its Spanish in the catalog.
ACTION_KINDS = [
    app_commands.Choice(
        name=locale_str(f"{a.name} ({_COST_LABELS.get(a.kind, a.cost)})"), value=a.name
    )
    for a in ACTIONS
] + [app_commands.Choice(name=locale_str("custom (give its cost)"), value=CUSTOM)]

ANY_SYSTEM = [
    *SYSTEM_CHOICES,
    app_commands.Choice(
        name=locale_str("Any other game (1d20 + modifier)"), value=initiative.GENERIC
    ),
]


class InitiativeCog(TrackerCog):
    group = app_commands.Group(
        name="init", description=locale_str("Initiative: the turn order of a fight")
    )

    # ------------------------------------------------------------------ commands

    @group.command(name="start", description=locale_str("Start an encounter in this channel (GM)"))
    @app_commands.describe(
        system=locale_str("The game (default: the channel's system)"),
        initiator=locale_str("Who took the initiating action: no action in round 1"),
        attribute=locale_str(
            "Sheet attribute every joining character adds (Hogwarts 1990: the Finesse one)"
        ),
        dice=locale_str("Dice notation replacing the system's initiative roll, e.g. 1d20+2"),
        reroll=locale_str(
            "Everyone re-rolls initiative at the start of each round (after the first)"
        ),
    )
    @app_commands.choices(system=ANY_SYSTEM)
    async def start(
        self,
        interaction: discord.Interaction,
        system: str | None = None,
        initiator: Name | None = None,
        attribute: SheetName | None = None,
        dice: app_commands.Range[str, 1, MAX_EXPRESSION_LENGTH] | None = None,
        reroll: bool = False,
    ) -> None:
        outcome = await initiative.start(
            self.db,
            actor_from(interaction),
            system=system,
            initiator=initiator,
            attribute=attribute,
            dice=dice,
            reroll=reroll,
        )
        view = outcome.view
        # The reply is the tracker: hold the tracker lock until its id is stored, or a change
        # arriving meanwhile would find no tracker and post a second one.
        language = await public_language(self.bot, view.channel_id, view.language)
        async with self._tracker_lock(view.channel_id):
            with use_language(
                language
            ):  # the tracker is the table's (bot.gateway._public_language)
                content = "⚔️ " + _(
                    "An encounter begins: players `/init join`, the GM `/init add`s NPCs."
                )
                embed, buttons = render.tracker_embed(view), self.buttons_for()
            await interaction.response.send_message(content=content, embed=embed, view=buttons)
            try:
                message = await interaction.original_response()
            except discord.HTTPException:  # the next change posts a tracker instead
                log.warning("could not fetch the new tracker in %s", view.channel_id, exc_info=True)
                return
            await initiative.set_tracker(self.db, view.channel_id, message.id)
            self._remember(view.channel_id, view, message.id)

    @group.command(name="join", description=locale_str("Join the encounter with your character"))
    @app_commands.describe(
        character=CHARACTER_HELP,
        modifier=locale_str("Added to the roll"),
        stress=locale_str("Surprised: Hogwarts 1990 stress roll; CODA one action fewer in round 1"),
        name=locale_str(
            "Name in the order, when the character's is taken (default: the character's)"
        ),
    )
    @app_commands.autocomplete(character=character_autocomplete)
    async def join(
        self,
        interaction: discord.Interaction,
        character: SheetName | None = None,
        modifier: Modifier = 0,
        stress: bool = False,
        name: SheetName | None = None,
    ) -> None:
        outcome = await initiative.join(
            self.db,
            self.dice,
            actor_from(interaction),
            character=character,
            modifier=modifier,
            stress=stress,
            name=name,
        )
        await self.answer(interaction, outcome)

    @group.command(
        name="add", description=locale_str("Add NPCs: each rolls, or give the roll (GM)")
    )
    @app_commands.describe(
        name=locale_str("Name (with count: Goblin 1, Goblin 2…)"),
        modifier=locale_str("Added to each roll (Hogwarts 1990: the Finesse attribute)"),
        roll=locale_str("A total already rolled, instead of rolling"),
        hidden=locale_str("Only the GM sees it until /init reveal"),
        count=locale_str("How many"),
        stress=locale_str("Surprised: Hogwarts 1990 stress roll; CODA one action fewer in round 1"),
        health=locale_str(
            "Each one's Health, kept on the tracker (damage from /coda attack comes off it)"
        ),
    )
    async def add(
        self,
        interaction: discord.Interaction,
        name: Name,
        modifier: Modifier = 0,
        roll: Total | None = None,
        hidden: bool = False,
        count: Count = 1,
        stress: bool = False,
        health: StartingHealth | None = None,
    ) -> None:
        outcome = await initiative.add(
            self.db,
            self.dice,
            actor_from(interaction),
            name=name,
            modifier=modifier,
            roll=roll,
            hidden=hidden,
            count=count,
            stress=stress,
            health=health,
        )
        await self.answer(interaction, outcome)

    @group.command(
        name="health",
        description=locale_str("Set an NPC's Health, kept on the tracker (GM; undo restores)"),
    )
    @app_commands.describe(
        name=locale_str("The combatant (an NPC: a player's character keeps Health on its sheet)"),
        value=locale_str("Its Health now (the first value given is also its maximum)"),
    )
    async def health(self, interaction: discord.Interaction, name: Name, value: Health) -> None:
        await self.run_change(interaction, initiative.set_health, name=name, value=value)

    @group.command(
        name="remove", description=locale_str("Take a combatant out of the encounter (GM)")
    )
    @app_commands.describe(name=locale_str("The combatant"))
    async def remove(self, interaction: discord.Interaction, name: Name) -> None:
        await self.run_change(interaction, initiative.remove, name=name, dice=self.dice)

    @group.command(
        name="next", description=locale_str("End this turn: the next combatant's turn begins")
    )
    async def next_(self, interaction: discord.Interaction) -> None:
        await self.run_change(interaction, initiative.next_turn, dice=self.dice)

    @group.command(name="prev", description=locale_str("Go back to the previous turn (GM)"))
    async def prev(self, interaction: discord.Interaction) -> None:
        await self.run_change(interaction, initiative.prev_turn)

    @group.command(
        name="delay", description=locale_str("The current combatant steps out to act later")
    )
    async def delay(self, interaction: discord.Interaction) -> None:
        await self.run_change(interaction, initiative.delay, dice=self.dice)

    @group.command(
        name="act",
        description=locale_str("A delayed combatant acts now, after the current one (GM)"),
    )
    @app_commands.describe(name=locale_str("The delayed combatant"))
    async def act(self, interaction: discord.Interaction, name: Name) -> None:
        await self.run_change(interaction, initiative.act, name=name)

    @group.command(
        name="defend",
        description=locale_str("A defensive roll uses up that combatant's turn this round (GM)"),
    )
    @app_commands.describe(
        name=locale_str("The combatant who dodges (a delayer spends the delayed action instead)"),
        protects=locale_str("A delayer only: the combatant it dodges for"),
    )
    async def defend(
        self, interaction: discord.Interaction, name: Name, protects: Name | None = None
    ) -> None:
        await self.run_change(interaction, initiative.defend, name=name, protects=protects)

    @group.command(
        name="action",
        description=locale_str("CODA: spend this round's actions (Tables 9-9 to 9-11)"),
    )
    @app_commands.describe(
        kind=locale_str(
            "The action: Tables 9-9 (movement), 9-10 (free), 9-11 (full round), or custom"
        ),
        cost=locale_str("Actions it costs (default: the table's; a custom action 1)"),
        name=locale_str("Who acts (default: whoever is up; players act on their own turn)"),
        attribute=locale_str("A custom action's test beyond the allowance (movement: Nimbleness)"),
    )
    @app_commands.choices(kind=ACTION_KINDS)
    @app_commands.autocomplete(attribute=attribute_autocomplete)
    async def action(
        self,
        interaction: discord.Interaction,
        kind: str,
        cost: ActionCost | None = None,
        name: Name | None = None,
        attribute: SheetName | None = None,
    ) -> None:
        # CODA's: the action, and the attribute test it may ask for with its button.
        await run_action(self, interaction, kind=kind, cost=cost, name=name, attribute=attribute)  # type: ignore[arg-type]

    condition = app_commands.Group(
        name="condition",
        description=locale_str("Conditions with durations on combatants"),
        parent=group,
    )

    @condition.command(name="add", description=locale_str("Put a condition on a combatant (GM)"))
    @app_commands.describe(
        target=locale_str("The combatant"),
        name=locale_str("The condition, e.g. Stunned"),
        rounds=locale_str("How many of its turns it lasts (default: until removed)"),
        note=locale_str("A short note shown with it"),
        tick=locale_str(
            "When it counts down: at the start (default) or the end of the target's turn"
        ),
    )
    @app_commands.choices(
        tick=[
            app_commands.Choice(name=locale_str("start of its turn"), value="start"),
            app_commands.Choice(name=locale_str("end of its turn"), value="end"),
        ]
    )
    async def condition_add(
        self,
        interaction: discord.Interaction,
        target: Name,
        name: Name,
        rounds: Rounds | None = None,
        note: Note | None = None,
        tick: str = "start",
    ) -> None:
        await self.run_change(
            interaction,
            initiative.add_condition,
            name=target,
            condition=name,
            rounds=rounds,
            note=note or "",
            tick=tick,
        )

    @condition.command(
        name="remove", description=locale_str("Take a condition off a combatant (GM)")
    )
    @app_commands.describe(target=locale_str("The combatant"), name=locale_str("The condition"))
    async def condition_remove(
        self, interaction: discord.Interaction, target: Name, name: Name
    ) -> None:
        await self.run_change(interaction, initiative.remove_condition, name=target, condition=name)

    @condition.command(
        name="list", description=locale_str("Every combatant's conditions, as you may see them")
    )
    async def condition_list(self, interaction: discord.Interaction) -> None:
        view = await initiative.show(self.db, actor_from(interaction))
        await interaction.response.send_message(
            clip(render.conditions_text(view, gm=view.gm), MESSAGE), ephemeral=True
        )

    @group.command(
        name="reveal", description=locale_str("Show a hidden combatant to everyone (GM)")
    )
    @app_commands.describe(name=locale_str("The hidden combatant"))
    async def reveal(self, interaction: discord.Interaction, name: Name) -> None:
        await self.run_change(interaction, initiative.reveal, name=name)

    @group.command(name="undo", description=locale_str("Revert the last change to the order (GM)"))
    async def undo(self, interaction: discord.Interaction) -> None:
        await self.run_change(interaction, initiative.undo)

    @group.command(
        name="show", description=locale_str("The order as you may see it (the GM sees all)")
    )
    async def show(self, interaction: discord.Interaction) -> None:
        view = await initiative.show(self.db, actor_from(interaction))
        await interaction.response.send_message(
            embed=render.tracker_embed(view, gm=view.gm), ephemeral=True
        )

    @group.command(
        name="end", description=locale_str("End the encounter, with a summary (GM; asks first)")
    )
    async def end(self, interaction: discord.Interaction) -> None:
        await self.ask_end(interaction)

    # ------------------------------------------------------------------ autocomplete

    @remove.autocomplete("name")
    @action.autocomplete("name")
    @health.autocomplete("name")
    @condition_add.autocomplete("target")
    @condition_remove.autocomplete("target")
    @defend.autocomplete("name")
    @defend.autocomplete("protects")
    @reveal.autocomplete("name")
    @safe_autocomplete
    async def _combatants(self, interaction: discord.Interaction, current: str) -> Choices:
        names = await initiative.names(self.db, actor_from(interaction))
        return _matching(names, current)

    @act.autocomplete("name")
    @safe_autocomplete
    async def _delayed(self, interaction: discord.Interaction, current: str) -> Choices:
        names = await initiative.names(self.db, actor_from(interaction), delayed_only=True)
        return _matching(names, current)


def _matching(names: list[str], current: str) -> Choices:
    return [app_commands.Choice(name=n, value=n) for n in matching(names, current)]
