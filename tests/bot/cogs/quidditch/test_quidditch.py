"""``/quidditch`` as a table plays it: a match from new to the snitch, and every refusal.

Rosters mirror tests/engine/quidditch/test_quidditch.py: home chasers Strength 5 against the away
keeper's 8 + 3 = 11, away chasers Strength 4 against 8 + 2 = 10, beaters (home 4, away 3)
against the keeper's Toughness 8, so (1, 2) misses every roll.
"""

from __future__ import annotations

import discord
import pytest
from simcord.backend.errors import OptionError

from bot import workers
from bot.app import create_bot
from bot.render.limits import TRUNCATED_NOTE
from engine.dice import ScriptedDice, SeededDice
from tests.conftest import Table, embed_of, text_of

MISS = [1, 2]

HOME = [
    ("H1", "chaser", 5, 3, 3, 3),
    ("H2", "chaser", 5, 3, 3, 3),
    ("H3", "chaser", 5, 3, 3, 3),
    ("HB1", "beater", 4, 3, 3, 4),
    ("HB2", "beater", 4, 3, 3, 4),
    ("HK", "keeper", 2, 2, 8, 3),
    ("HS", "seeker", 2, 5, 2, 4),
]
AWAY = [
    ("A1", "chaser", 4, 3, 3, 3),
    ("A2", "chaser", 4, 3, 3, 3),
    ("A3", "chaser", 4, 3, 3, 3),
    ("AB1", "beater", 3, 3, 3, 4),
    ("AB2", "beater", 3, 3, 3, 4),
    ("AK", "keeper", 2, 3, 8, 3),
    ("AS", "seeker", 2, 4, 2, 4),
]


async def new_match(table: Table, **houses: str) -> None:
    result = await table.gm.slash(
        table.channel, "quidditch new", home="Lions", away="Snakes", **houses
    )
    assert not result.ephemeral, text_of(result)


async def add(table: Table, team: str, player: tuple) -> object:
    name, position, strength, dexterity, toughness, health = player
    return await table.gm.slash(
        table.channel,
        "quidditch player",
        team=team,
        position=position,
        name=name,
        strength=strength,
        dexterity=dexterity,
        toughness=toughness,
        health=health,
    )


def rosters(table: Table, channel: object = None) -> list[discord.Message]:
    """The roster messages in the channel (there is one, edited in place)."""
    return [
        message
        for message in (channel or table.channel).history()
        if message.embeds and (message.embeds[0].title or "").endswith("— rosters")
    ]


def roster_text(table: Table) -> str:
    (message,) = rosters(table)
    embed = message.embeds[0]
    parts = [embed.title or "", embed.description or "", embed.footer.text or ""]
    return "\n".join(parts + [f"{f.name} {f.value}" for f in embed.fields])


def changed_roster(result: object) -> None:
    """A roster change: the roster message posted (the first) or edited (a private note)."""
    if result.ephemeral:
        assert result.response.content.endswith("The roster message is updated."), text_of(result)
    else:
        assert embed_of(result).title.endswith("— rosters"), text_of(result)


async def ready_match(table: Table, **houses: str) -> None:
    await new_match(table, **houses)
    for team, players in (("home", HOME), ("Snakes", AWAY)):  # a side or a team's name
        for player in players:
            changed_roster(await add(table, team, player))


def turn_faces(
    home_chasers=(MISS,) * 3, away_chasers=(MISS,) * 3, home_beaters=None,
    away_beaters=None, rest=(),
) -> ScriptedDice:  # fmt: skip
    """Beaters left out roll MISS when an opposing chaser scored, else hold back (no dice)."""
    if home_beaters is None:
        home_beaters = (MISS,) * 2 if any(max(p) + 4 >= 10 for p in away_chasers) else ()
    if away_beaters is None:
        away_beaters = (MISS,) * 2 if any(max(p) + 5 >= 11 for p in home_chasers) else ()
    pairs = [*home_chasers, *away_chasers, *home_beaters, *away_beaters]
    return ScriptedDice([face for pair in pairs for face in pair] + list(rest))


async def play(table: Table, dice: ScriptedDice, **options) -> object:
    table.bot.dice = dice
    result = await table.gm.slash(table.channel, "quidditch turn", **options)
    assert not result.ephemeral, text_of(result)
    assert dice.remaining == 0
    return result


# --- starting a match -------------------------------------------------------------------------


async def test_a_gm_starts_a_match_and_fills_the_rosters(table: Table) -> None:
    await new_match(table, home_house="Gryffindor", away_house="Slytherin")
    result = await add(table, "home", HOME[0])
    embed = embed_of(result)
    assert "H1 joins as chaser" in embed.description
    assert "Chaser **H1** — S 5 · D 3 · T 3 · Health 3" in text_of(result)
    assert "Missing: 2 chasers, 2 beaters, a keeper, a seeker" in text_of(result)
    roster = await table.alice.slash(table.channel, "quidditch roster")
    assert "Lions (Gryffindor) — home" in text_of(roster)
    assert "Missing: 3 chasers, 2 beaters, a keeper, a seeker" in text_of(roster)


async def test_only_a_gm_starts_a_match(table: Table) -> None:
    result = await table.alice.slash(table.channel, "quidditch new", home="A", away="B")
    assert result.ephemeral
    assert "Only the channel's GM can start a quidditch match" in result.response.content


async def test_one_match_per_channel(table: Table) -> None:
    await new_match(table)
    again = await table.gm.slash(table.channel, "quidditch new", home="X", away="Y")
    assert again.ephemeral and "already being played here (Lions vs Snakes)" in text_of(again)
    other = table.guild.create_text_channel("pitch")
    elsewhere = await table.gm.slash(other, "quidditch new", home="X", away="Y")
    assert not elsewhere.ephemeral


async def test_a_player_cannot_change_the_match(table: Table) -> None:
    await ready_match(table)
    for command, options in [
        ("quidditch player", {"team": "home", "position": "chaser", "name": "Z", "strength": 1,
                              "dexterity": 1, "toughness": 1, "health": 1}),
        ("quidditch turn", {}),
        ("quidditch penalty", {"team": "away", "chaser": "A1"}),
        ("quidditch snitch", {"team": "away"}),
        ("quidditch end", {}),
    ]:  # fmt: skip
        result = await table.bob.slash(table.channel, command, **options)
        assert result.ephemeral, command
        assert "Only the channel's GM can" in result.response.content


async def test_a_ninth_player_is_refused(table: Table) -> None:
    await ready_match(table)
    extra = await add(table, "home", ("Wood", "keeper", 3, 3, 3, 3))
    assert extra.ephemeral
    assert "Lions already has 1 keeper (HK); remove one first" in extra.response.content
    extra = await add(table, "away", ("A4", "chaser", 3, 3, 3, 3))
    assert "Snakes already has 3 chasers (A1, A2, A3)" in extra.response.content


async def test_an_incomplete_roster_cannot_play(table: Table) -> None:
    await new_match(table)
    await add(table, "home", HOME[0])
    result = await table.gm.slash(table.channel, "quidditch turn")
    assert result.ephemeral
    # A sentence like every other refusal: a capital and a full stop.
    assert result.response.content == (
        "The rosters are incomplete: Lions needs 2 chasers, 2 beaters, a keeper, a seeker; "
        "Snakes needs 3 chasers, 2 beaters, a keeper, a seeker."
    )
    odds = await table.gm.slash(table.channel, "quidditch odds")
    assert odds.ephemeral and "The rosters are incomplete" in text_of(odds)


async def test_bad_player_options(table: Table) -> None:
    await new_match(table)
    with pytest.raises(OptionError):
        await add(table, "home", ("X", "chaser", 51, 1, 1, 1))
    with pytest.raises(OptionError):
        await add(table, "home", ("X", "wizard", 1, 1, 1, 1))
    unknown = await add(table, "middle", ("X", "chaser", 1, 1, 1, 1))
    assert unknown.ephemeral and "There is no team 'middle'" in unknown.response.content
    bad_name = await add(table, "home", ("a:b", "chaser", 1, 1, 1, 1))
    assert bad_name.ephemeral and bad_name.response.content == (
        "A player's name may not contain ',' or ':' (they separate targets)."
    )


async def test_without_a_match_commands_say_how_to_start(table: Table) -> None:
    for command in ("quidditch status", "quidditch roster", "quidditch turn", "quidditch end"):
        result = await table.gm.slash(table.channel, command)
        assert result.ephemeral
        assert "No quidditch match is being played in this channel" in result.response.content


# --- turns ------------------------------------------------------------------------------------


async def test_a_turn_reports_every_roll_and_the_score(table: Table) -> None:
    await ready_match(table)
    dice = turn_faces(home_chasers=[[12, 3], MISS, MISS], away_beaters=[[11, 2], MISS])
    result = await play(table, dice)
    embed = embed_of(result)
    assert embed.title == "🧹 Turn 1 — Lions 10 : 0 Snakes"
    text = text_of(result)
    assert "🥅 Goals: H1 (Lions)" in text
    assert "H1: **[12]** [3] +5 = **17** vs 11 🥅 **goal** (margin 6)" in text
    assert "H2: [1] **[2]** +5 = **7** vs 11 ✗ miss" in text
    assert "AB1 → H1 (default): **[11]** [2] +3 = **14** vs 8 💥 hit (Health 2)" in text
    assert [f.name for f in embed.fields] == [
        "Scoring — Lions",
        "Scoring — Snakes",
        "Blocking — Lions",
        "Blocking — Snakes",
    ]
    assert "next snitch phase: end of turn 10" in embed.footer.text
    assert len(embed) <= 6000
    status = await table.alice.slash(table.channel, "quidditch status")
    assert "Lions **10** – **0** Snakes — after turn 1" in text_of(status)
    assert "Chaser **H1** — S 5 · D 3 · T 3 · ❤️ 2/3" in text_of(status)


async def test_gm_targets_a_blocked_goal_and_a_foul(table: Table) -> None:
    await ready_match(table)
    dice = turn_faces(
        home_chasers=[[12, 3], MISS, MISS], home_beaters=[MISS], away_beaters=[MISS, [15, 2]]
    )
    result = await play(table, dice, targets="home1:keeper, away2:H1")
    text = text_of(result)
    assert "HB1 → AK: [1] **[2]** +4 = **6** vs 8 ✗ miss ⚠️ foul" in text
    assert "AB2 → H1: **[15]** [2] +3 = **18** vs 8 💥 hit (Health 2) 🛡️ **goal blocked**" in text
    assert "🛡️ Blocked: H1" in text
    assert "⚠️ HB1 (Lions) on AK — penalty shot open" in text
    assert "until the next `/quidditch turn` (then it lapses)" in text
    assert embed_of(result).title.endswith("Lions 0 : 0 Snakes")
    # The fouled team shoots.
    table.bot.dice = ScriptedDice([14, 3])
    shot = await table.gm.slash(table.channel, "quidditch penalty", team="away", chaser="A2")
    assert "A2 (Snakes): **[14]** [3] +4 = **18** vs 10 🥅 **scores 10**" in text_of(shot)
    assert embed_of(shot).title == "🧹 Penalty shot — Lions 0 – 10 Snakes"
    again = await table.gm.slash(table.channel, "quidditch penalty", team="away", chaser="A2")
    assert again.ephemeral and "no open foul to award a penalty shot for" in text_of(again)


async def test_beaters_hold_back_and_the_scoring_zone_spares_the_keeper(table: Table) -> None:
    await ready_match(table)
    # Nobody scores: with no GM target the beaters hold back (no dice drawn for them).
    quiet = await play(table, turn_faces())
    assert "HB1: no scoring chaser to block, holds back" in text_of(quiet)
    assert "foul" not in text_of(quiet)
    # The GM says the quaffle is at the Snakes' hoops: HB1 may go for their keeper.
    dice = turn_faces(home_beaters=[[15, 2]])
    result = await play(table, dice, targets="home1:keeper", scoring_zone="Snakes")
    text = text_of(result)
    assert "HB1 → AK: **[15]** [2] +4 = **19** vs 8 💥 hit (Health 2)" in text
    assert "(quaffle in the scoring zone: no foul)" in text
    assert "⚠️" not in text
    bad = await table.gm.slash(
        table.channel, "quidditch turn", targets="home1:keeper", scoring_zone="Badgers"
    )
    assert bad.ephemeral and "There is no team 'Badgers' in this match" in text_of(bad)
    zones = await table.gm.autocomplete(table.channel, "quidditch turn", "scoring_zone", "sna")
    assert [c["value"] for c in zones] == ["away"]


async def test_bad_targets_are_explained(table: Table) -> None:
    await ready_match(table)
    for targets, message in [
        ("home1 H1", "Targets are 'beater:target' pairs"),
        ("home1:AS", "not the seeker AS"),
        ("home9:A1", "is not a beater"),
    ]:
        result = await table.gm.slash(table.channel, "quidditch turn", targets=targets)
        assert result.ephemeral and message in result.response.content


async def test_a_knocked_out_chaser_shows_in_the_report_and_status(table: Table) -> None:
    await new_match(table)
    for team, players in (("home", HOME), ("away", AWAY)):
        for name, position, s, d, t, h in players:
            await add(table, team, (name, position, s, d, t, 1 if name == "H1" else h))
    dice = turn_faces(home_chasers=[[12, 3], MISS, MISS], away_beaters=[[11, 2], MISS])
    result = await play(table, dice)
    assert "💫 Knocked out: H1" in text_of(result)
    status = await table.gm.slash(table.channel, "quidditch status")
    assert "Chaser **H1** — S 5 · D 3 · T 3 · 💫 out" in text_of(status)
    # H1 no longer rolls: 18 faces make the next turn.
    dice = turn_faces(home_chasers=[MISS, MISS])
    result = await play(table, dice)
    assert "H1:" not in text_of(result).split("Blocking")[0]


async def test_the_snitch_is_caught_and_house_points_are_awarded(table: Table) -> None:
    await ready_match(table, home_house="Gryffindor", away_house="Slytherin")
    for _ in range(9):
        await play(table, turn_faces(), penalties="none")
    dice = turn_faces(home_chasers=[[12, 3], MISS, MISS], rest=[18, 3, 2, 3])
    result = await play(table, dice)
    text = text_of(result)
    assert "HS (Lions): **[18]** [3] +5 = **23** — ✨ **catches the snitch! +150**" in text
    assert "AS (Snakes): [2] **[3]** +4 = **7**" in text
    assert "**Lions** win by 160." in text
    assert "🏠 Gryffindor earns **160** house points (now 160)." in text
    houses = await table.alice.slash(table.channel, "quidditch houses")
    assert "1. **Gryffindor** — 160 points (1 win)" in text_of(houses)
    # The match is over: the channel is free for a new one.
    status = await table.gm.slash(table.channel, "quidditch status")
    assert status.ephemeral
    await new_match(table)


async def test_the_snitch_escapes_by_nine(table: Table) -> None:
    await ready_match(table)
    for _ in range(9):
        await play(table, turn_faces(), penalties="none")
    result = await play(table, turn_faces(rest=[11, 3, 3, 2]))  # 16 vs 7
    assert "The snitch gets away" in text_of(result)
    assert "next snitch phase: end of turn 15" in embed_of(result).footer.text


async def test_an_interfering_seeker(table: Table) -> None:
    await ready_match(table)
    result = await table.gm.slash(table.channel, "quidditch snitch", team="Snakes")
    assert "AS (Snakes) will interfere in the next snitch phase" in text_of(result)
    status = await table.gm.slash(table.channel, "quidditch status")
    assert "The seeker will interfere in the next snitch phase" in text_of(status)
    for _ in range(9):
        await play(table, turn_faces(), penalties="none")
    result = await play(table, turn_faces(rest=[18, 3, 7, 2]))  # 23 vs 7 + 2 x 4 = 15
    text = text_of(result)
    assert "AS (Snakes) interferes (2 × Dexterity, cannot catch): **[7]** [2] +8 = **15**" in text
    assert "The snitch gets away" in text


async def test_a_foul_on_a_snitch_turn_waits_for_the_penalty(table: Table) -> None:
    await ready_match(table)
    for _ in range(9):
        await play(table, turn_faces(), penalties="none")
    result = await play(table, turn_faces(home_beaters=[[15, 2]]), targets="home1:A1")
    assert "`/quidditch turn` chases the snitch" in text_of(result)
    table.bot.dice = ScriptedDice([4, 5])
    await table.gm.slash(table.channel, "quidditch penalty", team="away", chaser="A1")
    result = await play(table, ScriptedDice([18, 3, 2, 3]))
    assert embed_of(result).title.startswith("🧹 Turn 10's snitch")
    assert "catches the snitch" in text_of(result)


async def test_the_gm_ends_a_match(table: Table) -> None:
    await ready_match(table, home_house="Gryffindor")
    result = await table.gm.slash(table.channel, "quidditch end")
    assert "Match abandoned" in embed_of(result).title
    houses = await table.gm.slash(table.channel, "quidditch houses")
    assert "No house has won a match in this server yet." in text_of(houses)


async def test_odds_simulate_two_thousand_matches(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The time budget is tested on its own below; here a loaded machine must not cut it short.
    monkeypatch.setattr("bot.services.quidditch._match.ODDS_BUDGET", 60.0)
    await ready_match(table)
    table.bot.dice = ScriptedDice([])  # the simulation never draws from the bot's dice
    refused = await table.alice.slash(table.channel, "quidditch odds")
    assert refused.ephemeral
    assert "Only the channel's GM can simulate the quidditch match" in text_of(refused)
    result = await table.gm.slash(table.channel, "quidditch odds")
    assert not result.ephemeral
    text = text_of(result)
    assert "2,000 simulated matches from the first turn" in text
    assert "Lions win" in text and "Mean length" in text


async def test_odds_say_when_the_time_budget_cut_them_short(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    await ready_match(table)
    monkeypatch.setattr("bot.services.quidditch._match.ODDS_BUDGET", 0.0)
    result = await table.gm.slash(table.channel, "quidditch odds")
    assert "100 simulated matches from the first turn" in text_of(result)
    assert "(stopped at the time limit, 2,000 were asked for)" in embed_of(result).footer.text


async def test_a_match_survives_a_restart(table: Table) -> None:
    await ready_match(table, home_house="Gryffindor")
    await play(table, turn_faces(home_chasers=[[12, 3], MISS, MISS]))
    first = table.bot
    # A fresh bot process on the same database file (what a restart is).
    await table.env.restart_bot(create_bot(table.bot.settings, sync_globally=True))
    assert table.bot is not first
    status = await table.alice.slash(table.channel, "quidditch status")
    assert "Lions **10** – **0** Snakes — after turn 1" in text_of(status)
    result = await play(table, turn_faces(away_chasers=[MISS, [16, 1], MISS]))
    assert embed_of(result).title == "🧹 Turn 2 — Lions 10 : 10 Snakes"


async def test_team_and_chaser_autocomplete(table: Table) -> None:
    await ready_match(table)
    teams = await table.gm.autocomplete(table.channel, "quidditch penalty", "team", "sna")
    assert [c["value"] for c in teams] == ["away"]
    chasers = await table.gm.autocomplete(
        table.channel, "quidditch penalty", "chaser", "", team="away"
    )
    assert [c["value"] for c in chasers] == ["A1", "A2", "A3"]


async def test_a_turn_is_logged(table: Table) -> None:
    await ready_match(table)
    await play(table, turn_faces(home_chasers=[[12, 3], MISS, MISS]))
    history = await table.alice.slash(table.channel, "history")
    assert "`turn 1` → **Lions 10 – 0 Snakes**" in text_of(history)


async def test_a_long_report_fits_discord_with_every_roll(table: Table) -> None:
    def longest(name: str) -> str:
        return name + "x" * (64 - len(name))  # the longest name a team, house or player takes

    result = await table.gm.slash(
        table.channel,
        "quidditch new",
        home=longest("Lions"),
        away=longest("Snakes"),
        home_house=longest("Gryffindor"),
        away_house=longest("Slytherin"),
    )
    assert not result.ephemeral, text_of(result)
    for team, players in (("home", HOME), ("away", AWAY)):
        for name, position, s, d, t, _health in players:
            await add(table, team, (longest(name), position, s, d, t, 50))
    table.bot.dice = SeededDice(3)
    for turn in range(1, 11):  # up to the first snitch phase, every foul given its penalty shot
        result = await table.gm.slash(table.channel, "quidditch turn", penalties="all")
        embed = embed_of(result)
        assert len(embed) <= 6000
        assert all(len(f.value) <= 1024 for f in embed.fields)
        assert TRUNCATED_NOTE not in embed.footer.text
        text = text_of(result)
        rollers = [*HOME[:5], *AWAY[:5]] + ([HOME[6], AWAY[6]] if turn == 10 else [])
        assert all(longest(name) in text for name, *_ in rollers)
        fouls = [f.value for f in embed.fields if f.name == "Fouls"]
        shots = [f.value for f in embed.fields if f.name == "Penalty shots"]
        assert len(shots) == len(fouls)
        penalties = len(shots[0].splitlines()) if shots else 0
        # Every roll is listed as "… = **total**": chasers, beaters, penalties, seekers.
        assert text.count(" = **") == len(rollers) + penalties


async def test_a_player_from_a_character_sheet(table: Table) -> None:
    await table.alice.slash(table.channel, "sheet create", name="Harry", system="h90")
    for attribute, value in (("Strength", 3), ("Dexterity", 6), ("Toughness", 2)):
        await table.alice.slash(table.channel, "sheet set", attribute=attribute, value=value)
    await table.alice.slash(table.channel, "sheet resource", name="Health", current=5, max=6)
    await table.alice.slash(table.channel, "sheet use", character="Harry")
    await new_match(table)
    result = await table.gm.slash(
        table.channel, "quidditch player", team="home", position="seeker", character="Harry"
    )
    assert not result.ephemeral, text_of(result)
    assert "Seeker **Harry** — S 3 · D 6 · T 2 · Health 5" in text_of(result)
    # Options given override the sheet.
    result = await table.gm.slash(
        table.channel,
        "quidditch player",
        team="home",
        position="seeker",
        character="Harry",
        dexterity=9,
    )
    changed_roster(result)
    assert "Seeker **Harry** — S 3 · D 9 · T 2 · Health 5" in roster_text(table)


async def test_a_player_needs_stats_or_a_sheet(table: Table) -> None:
    await new_match(table)
    result = await table.gm.slash(
        table.channel, "quidditch player", team="home", position="seeker", name="X", strength=2
    )
    assert result.ephemeral
    assert "A new player needs dexterity, toughness, health" in result.response.content
    await table.alice.slash(table.channel, "sheet create", name="Ron", system="h90")
    await table.alice.slash(table.channel, "sheet use", character="Ron")
    result = await table.gm.slash(
        table.channel, "quidditch player", team="home", position="keeper", character="Ron"
    )
    assert result.ephemeral and "Ron has no attribute `Strength`" in result.response.content


async def test_a_sheet_not_used_here_says_how_to_use_it(table: Table) -> None:
    await table.alice.slash(table.channel, "sheet create", name="Ron", system="h90")
    await table.alice.slash(table.channel, "sheet create", name="Ginny", system="h90")
    await new_match(table)
    result = await table.gm.slash(
        table.channel, "quidditch player", team="home", position="keeper", character="Ron"
    )
    assert result.ephemeral
    assert "Ron is not used in this channel yet" in text_of(result)
    assert "`/sheet use character:Ron`" in text_of(result)


async def test_updating_a_player_changes_only_the_numbers_given(table: Table) -> None:
    await new_match(table)
    await add(table, "home", ("Ann", "chaser", 5, 3, 3, 3))
    result = await table.gm.slash(
        table.channel, "quidditch player", team="home", position="chaser", name="ann", strength=9
    )
    assert result.response.content == "ann updated (chaser). The roster message is updated."
    assert rosters(table)[0].embeds[0].description == "ann updated (chaser)."
    assert "Chaser **ann** — S 9 · D 3 · T 3 · Health 3" in roster_text(table)
    # A new name still needs every number.
    new = await table.gm.slash(
        table.channel, "quidditch player", team="home", position="chaser", name="Bo", strength=2
    )
    assert new.ephemeral and "A new player needs dexterity, toughness, health" in text_of(new)


async def test_a_full_position_is_freed_with_remove(table: Table) -> None:
    await new_match(table)
    await add(table, "home", ("K1", "keeper", 5, 3, 3, 3))
    full = await add(table, "home", ("K2", "keeper", 5, 3, 3, 3))
    assert full.ephemeral and "remove one first" in text_of(full)
    refused = await table.alice.slash(table.channel, "quidditch remove", team="home", name="K1")
    assert refused.ephemeral and "Only the channel's GM can" in text_of(refused)
    removed = await table.gm.slash(table.channel, "quidditch remove", team="Lions", name="k1")
    changed_roster(removed)
    assert rosters(table)[0].embeds[0].description == "K1 leaves the roster."
    assert "K1" not in roster_text(table).replace("K1 leaves", "")
    changed_roster(await add(table, "home", ("K2", "keeper", 5, 3, 3, 3)))
    unknown = await table.gm.slash(table.channel, "quidditch remove", team="home", name="Zed")
    assert unknown.ephemeral and "Lions has no player named 'Zed'" in text_of(unknown)
    choices = await table.gm.autocomplete(table.channel, "quidditch remove", "name", "k")
    assert [c["value"] for c in choices] == ["K2"]


async def test_remove_is_refused_once_the_match_started(table: Table) -> None:
    await ready_match(table)
    await play(table, turn_faces())
    result = await table.gm.slash(table.channel, "quidditch remove", team="home", name="H1")
    assert result.ephemeral and "fixed once the first turn is played" in text_of(result)


async def test_odds_refuse_a_match_no_seeker_can_end(table: Table) -> None:
    await new_match(table)
    for team, players in (("home", HOME), ("away", AWAY)):
        for name, position, s, d, t, h in players:
            await add(table, team, (name, position, s, d, t, 0 if position == "seeker" else h))
    result = await table.gm.slash(table.channel, "quidditch odds")
    assert result.ephemeral and "Neither seeker is in play" in text_of(result)


async def test_odds_run_in_a_worker_stopped_past_its_budget(
    table: Table, hanging_workers: workers.WorkerPool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("bot.services.quidditch._match.BATCH_SECONDS", 0.5)
    await ready_match(table)
    result = await table.gm.slash(table.channel, "quidditch odds")
    assert "Too heavy to work out in time" in text_of(result)
    assert "simulated matches" not in text_of(result)
    assert hanging_workers.killed == 1 and hanging_workers.processes == 0
    # A second GM request while the first is in a worker is refused at once, not queued
    # (here the queue is made full with nothing of the GM's in it to name).
    hanging_workers.per_user = 0
    busy = await table.gm.slash(table.channel, "quidditch odds")
    assert "Your previous request is still being worked out" in text_of(busy)
    assert hanging_workers.started == 1
