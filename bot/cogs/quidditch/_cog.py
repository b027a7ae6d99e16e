"""``/quidditch new|team|player|remove|roster|turn|undo|penalty|snitch|status|end|houses|odds``."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.cogs._common import Choices, NarratorCog, actor_from, safe_autocomplete
from bot.cogs._options import SheetName
from bot.cogs._sheets import character_autocomplete
from bot.cogs.quidditch._roster import open_team_form, show_roster_change
from bot.i18n import _
from bot.render import quidditch as render
from bot.services import quidditch
from engine import quidditch as q

Stat = app_commands.Range[int, 0, q.STAT_MAX]
Health = app_commands.Range[int, 0, q.HEALTH_MAX]
Name = app_commands.Range[str, 1, q.NAME_MAX]

_POSITION_CHOICES = {
    q.Position.CHASER: locale_str("Chaser (3 per team)"),
    q.Position.BEATER: locale_str("Beater (2 per team)"),
    q.Position.KEEPER: locale_str("Keeper (1 per team)"),
    q.Position.SEEKER: locale_str("Seeker (1 per team)"),
}
POSITIONS = [app_commands.Choice(name=_POSITION_CHOICES[p], value=p.value) for p in q.Position]
PENALTIES = [
    app_commands.Choice(
        name=locale_str("ask — list fouls; the GM awards shots with /quidditch penalty"),
        value="ask",
    ),
    app_commands.Choice(
        name=locale_str("all — every foul gets its penalty shot at once"), value="all"
    ),
    app_commands.Choice(name=locale_str("none — Madam Hooch saw nothing"), value="none"),
]
UNTIL = [
    app_commands.Choice(name=locale_str("one — a single turn"), value="one"),
    app_commands.Choice(name=locale_str("snitch — up to the next snitch phase"), value="snitch"),
]


class QuidditchCog(NarratorCog):
    group = app_commands.Group(
        name="quidditch", description=locale_str("Quidditch matches (Hogwarts 1990)")
    )

    @group.command(name="new", description=locale_str("Start a match in this channel (GM)"))
    @app_commands.describe(
        home=locale_str("The home team's name (team A: it rolls first)"),
        away=locale_str("The away team's name"),
        home_house=locale_str("The house the home team plays for (earns its house points)"),
        away_house=locale_str("The house the away team plays for"),
    )
    async def new(
        self,
        interaction: discord.Interaction,
        home: Name,
        away: Name,
        home_house: Name | None = None,
        away_house: Name | None = None,
    ) -> None:
        view = await quidditch.new_match(
            self.db,
            actor_from(interaction),
            home=home,
            away=away,
            home_house=home_house,
            away_house=away_house,
        )
        await interaction.response.send_message(embed=render.new_match_embed(view))

    @group.command(
        name="player", description=locale_str("Put a player on a roster, or update one (GM)")
    )
    @app_commands.describe(
        team=locale_str("home or away (or the team's name)"),
        position=locale_str("Chaser, beater, keeper or seeker"),
        name=locale_str("The player's name (the same name again updates that player)"),
        character=locale_str("Take the name and stats from this Hogwarts 1990 sheet"),
        strength=locale_str("Strength (default: the sheet's)"),
        dexterity=locale_str("Dexterity (default: the sheet's)"),
        toughness=locale_str("Toughness (default: the sheet's)"),
        health=locale_str("Health (default: the sheet's; 0 fields a player who is already out)"),
    )
    @app_commands.choices(position=POSITIONS)
    @app_commands.autocomplete(character=character_autocomplete)
    async def player(
        self,
        interaction: discord.Interaction,
        team: Name,
        position: str,
        name: Name | None = None,
        character: SheetName | None = None,
        strength: Stat | None = None,
        dexterity: Stat | None = None,
        toughness: Stat | None = None,
        health: Health | None = None,
    ) -> None:
        outcome = await quidditch.set_player(
            self.db,
            actor_from(interaction),
            team=team,
            position=position,
            name=name,
            character=character,
            strength=strength,
            dexterity=dexterity,
            toughness=toughness,
            health=health,
        )
        shown = render.position_word(q.Position(position))
        if outcome.updated:
            changed = _("{name} updated ({position}).", name=outcome.name, position=shown)
        else:
            changed = _("{name} joins as {position}.", name=outcome.name, position=shown)
        await show_roster_change(interaction, outcome.view, changed)

    @group.command(name="team", description=locale_str("Enter a whole team at once in a form (GM)"))
    @app_commands.describe(team=locale_str("home or away (or the team's name)"))
    async def team(self, interaction: discord.Interaction, team: Name) -> None:
        await open_team_form(interaction, team)

    @group.command(
        name="remove", description=locale_str("Take a player off a roster before the match (GM)")
    )
    @app_commands.describe(
        team=locale_str("home or away (or the team's name)"), name=locale_str("The player's name")
    )
    async def remove(self, interaction: discord.Interaction, team: Name, name: Name) -> None:
        outcome = await quidditch.remove_player(
            self.db, actor_from(interaction), team=team, name=name
        )
        await show_roster_change(
            interaction, outcome.view, _("{name} leaves the roster.", name=outcome.name)
        )

    @group.command(name="roster", description=locale_str("Both teams' rosters and what is missing"))
    async def roster(self, interaction: discord.Interaction) -> None:
        view = await quidditch.show(self.db, actor_from(interaction))
        await interaction.response.send_message(embed=render.roster_embed(view))

    @group.command(
        name="turn", description=locale_str("Play one whole turn, or up to the snitch (GM)")
    )
    @app_commands.describe(
        targets=locale_str(
            "Beater targets, e.g. home1:Weasley, away2:keeper (others use the default)"
        ),
        penalties=locale_str("What to do with fouls (default: ask)"),
        until=locale_str(
            "snitch: play turns up to the next snitch phase (stops at a foul to decide)"
        ),
        scoring_zone=locale_str(
            "The quaffle is in the scoring zone at this team's hoops: hitting its keeper "
            "is no foul (first turn only)"
        ),
    )
    @app_commands.choices(penalties=PENALTIES, until=UNTIL)
    async def turn(
        self,
        interaction: discord.Interaction,
        targets: app_commands.Range[str, 1, 300] | None = None,
        penalties: str = "ask",
        until: str = "one",
        scoring_zone: Name | None = None,
    ) -> None:
        outcomes = await quidditch.play_turns(
            self.db,
            self.dice,
            actor_from(interaction),
            targets=targets,
            penalties=penalties,  # type: ignore[arg-type]
            until_snitch=until == "snitch",
            scoring_zone=scoring_zone,
        )
        last = render.turn_embed(outcomes[-1])
        if len(outcomes) == 1:
            await interaction.response.send_message(embed=last)
            return
        await interaction.response.send_message(embed=render.turns_summary_embed(outcomes))
        await interaction.followup.send(embed=last)

    @group.command(name="undo", description=locale_str("Take back the last turn played (GM)"))
    async def undo(self, interaction: discord.Interaction) -> None:
        outcome = await quidditch.undo(self.db, actor_from(interaction))
        await interaction.response.send_message(embed=render.undo_embed(outcome))

    @group.command(name="penalty", description=locale_str("Award a penalty shot for a foul (GM)"))
    @app_commands.describe(
        team=locale_str("The fouled team, which shoots"), chaser=locale_str("The chaser who shoots")
    )
    async def penalty(self, interaction: discord.Interaction, team: Name, chaser: Name) -> None:
        outcome = await quidditch.penalty(
            self.db, self.dice, actor_from(interaction), team=team, chaser=chaser
        )
        await interaction.response.send_message(embed=render.penalty_embed(outcome))

    @group.command(
        name="snitch",
        description=locale_str("Have a seeker interfere in the next snitch phase (GM)"),
    )
    @app_commands.describe(
        team=locale_str("Whose seeker"),
        interfere=locale_str("True: double Dexterity but cannot catch; False: chase as usual"),
    )
    async def snitch(
        self, interaction: discord.Interaction, team: Name, interfere: bool = True
    ) -> None:
        view, side = await quidditch.set_interference(
            self.db, actor_from(interaction), team=team, interfere=interfere
        )
        await interaction.response.send_message(embed=render.interference_embed(view, side))

    @group.command(
        name="status", description=locale_str("Score, turn, every player's Health, next snitch")
    )
    async def status(self, interaction: discord.Interaction) -> None:
        view = await quidditch.show(self.db, actor_from(interaction))
        await interaction.response.send_message(embed=render.status_embed(view))

    @group.command(
        name="end", description=locale_str("Abandon this channel's match: no house points (GM)")
    )
    async def end(self, interaction: discord.Interaction) -> None:
        view = await quidditch.end(self.db, actor_from(interaction))
        await interaction.response.send_message(embed=render.end_embed(view))

    @group.command(name="houses", description=locale_str("This server's house points table"))
    async def houses(self, interaction: discord.Interaction) -> None:
        rows = await quidditch.houses(self.db, actor_from(interaction))
        await interaction.response.send_message(embed=render.houses_embed(rows))

    @group.command(
        name="odds",
        description=locale_str("Simulate the match 2,000 times: who is likely to win (GM)"),
    )
    async def odds(self, interaction: discord.Interaction) -> None:
        outcome = await quidditch.odds(
            self.db,
            actor_from(interaction),
            ready=lambda: interaction.response.defer(thinking=True),
        )
        await interaction.followup.send(embed=render.odds_embed(outcome))

    @player.autocomplete("team")
    @team.autocomplete("team")
    @remove.autocomplete("team")
    @penalty.autocomplete("team")
    @snitch.autocomplete("team")
    @turn.autocomplete("scoring_zone")
    @safe_autocomplete
    async def _teams(self, interaction: discord.Interaction, current: str) -> Choices:
        state = await quidditch.peek(self.db, interaction.channel_id or 0)
        if state is None:
            return [app_commands.Choice(name=side, value=side) for side in q.SIDES]
        return [
            app_commands.Choice(name=f"{state.team(side).name} ({side})", value=side)
            for side in q.SIDES
            if current.casefold() in f"{state.team(side).name} {side}".casefold()
        ]

    @remove.autocomplete("name")
    @safe_autocomplete
    async def _players(self, interaction: discord.Interaction, current: str) -> Choices:
        state = await quidditch.peek(self.db, interaction.channel_id or 0)
        if state is None:
            return []
        return [
            app_commands.Choice(name=f"{p.name} ({state.team(side).name})", value=p.name)
            for side in _chosen_sides(interaction, state)
            for p in state.team(side).players
            if current.casefold() in p.name.casefold()
        ]

    @penalty.autocomplete("chaser")
    @safe_autocomplete
    async def _chasers(self, interaction: discord.Interaction, current: str) -> Choices:
        state = await quidditch.peek(self.db, interaction.channel_id or 0)
        if state is None:
            return []
        return [
            app_commands.Choice(name=f"{c.name} ({state.team(side).name})", value=c.name)
            for side in _chosen_sides(interaction, state)
            for c in state.team(side).chasers
            if c.active and current.casefold() in c.name.casefold()
        ]


def _chosen_sides(interaction: discord.Interaction, state: q.MatchState) -> list[q.Side]:
    """The side the command's ``team`` option names so far, or both while it names neither."""
    team = getattr(interaction.namespace, "team", None)
    return [s for s in q.SIDES if team in (None, s, state.team(s).name)] or list(q.SIDES)
