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

import asyncio
import logging
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.cogs._common import Choices, NarratorCog, actor_from, safe_autocomplete
from bot.cogs._confirm import Confirm, KindView
from bot.cogs._options import CHARACTER_HELP, SYSTEM_CHOICES, SheetName
from bot.cogs._sheets import attribute_autocomplete, character_autocomplete
from bot.cogs.coda._actions import add_action_buttons, run_action
from bot.cogs.initiative._edit import edit_tracker
from bot.i18n import N_, _, current_language, use_language
from bot.public_language import public_language
from bot.render import initiative as render
from bot.render.limits import MESSAGE, clip
from bot.services import initiative
from bot.services.characters import matching
from bot.services.initiative import EncounterView, InitOutcome
from engine import initiative as ini
from engine.initiative_rolls import MODIFIER_MAX, MODIFIER_MIN
from engine.notation import MAX_EXPRESSION_LENGTH
from engine.systems import coda
from engine.systems.coda_actions import ACTIONS, CUSTOM, Kind

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
#: The tracker's button labels, translated per language (:meth:`InitiativeCog.buttons_for`).
BUTTON_LABELS = {
    "next": N_("Next"),
    "delay": N_("Delay"),
    "undo": N_("Undo"),
    "end": N_("End"),
}


class TrackerButtons(KindView):
    """Next · Delay · Undo · End under the tracker; persistent (fixed custom ids, no timeout)."""

    def __init__(self, cog: InitiativeCog) -> None:
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


Change = Callable[..., Awaitable[InitOutcome]]

#: Channels whose shown tracker revision is remembered; past it the oldest is forgotten and
#: that channel's next refresh re-reads the encounter (correct, one transaction dearer).
MAX_SHOWN = 4096


@dataclass(frozen=True, slots=True)
class Shown:
    """What a channel's tracker message shows: which encounter, at which revision."""

    encounter_id: int
    revision: int
    message_id: int


class InitiativeCog(NarratorCog):
    group = app_commands.Group(
        name="init", description=locale_str("Initiative: the turn order of a fight")
    )

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
        """
        async with self._tracker_lock(channel_id):
            try:
                await self._refresh(channel, channel_id, view)
            except Exception:
                self._shown.pop(channel_id, None)  # unsure what it shows: re-read next time
                log.exception("could not refresh the initiative tracker in %s", channel_id)

    def _tracker_lock(self, channel_id: int) -> asyncio.Lock:
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        return lock

    def _buttons(self, view: EncounterView) -> discord.ui.View:
        """The tracker's buttons; a CODA tracker adds a row of common actions (issue 15).

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

    def _remember(self, channel_id: int, view: EncounterView, message_id: int) -> None:
        """The channel's tracker shows ``view`` now (an ended one needs no more refreshes)."""
        self._shown.pop(channel_id, None)  # re-inserted last: the oldest go first
        if view.state.ended:
            return
        self._shown[channel_id] = Shown(view.encounter_id, view.revision, message_id)
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
        # language of whoever pressed last (bot.public_language).
        with use_language(await public_language(self.bot, channel_id, view.language)):
            embed = render.tracker_embed(view)
            buttons = None if view.state.ended else self._buttons(view)
        if message_id is not None and channel is not None:
            try:
                message = channel.get_partial_message(message_id)
                # content=None drops /init start's welcome line once play has moved on.
                await edit_tracker(message, embed=embed, view=buttons)
                self._remember(channel_id, view, message_id)
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
        # The state this change committed: no second read (issue 21). refresh_tracker drops
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
            with use_language(language):  # the tracker is the table's (bot.public_language)
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
        await run_action(self, interaction, kind=kind, cost=cost, name=name, attribute=attribute)

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
