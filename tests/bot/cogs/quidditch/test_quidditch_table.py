"""Quidditch without tedium: one roster message, a whole team in a form, turns up to the
snitch, lapsed fouls said aloud, and undo — through SimCord, as a GM plays an evening."""

from __future__ import annotations

from typing import Any

import pytest

from bot.actor import Actor
from bot.errors import PermissionDenied
from bot.services import quidditch as quidditch_service
from engine.dice import ScriptedDice, SeededDice
from tests.bot.cogs.quidditch.test_quidditch import (
    AWAY,
    HOME,
    MISS,
    add,
    new_match,
    ready_match,
    roster_text,
    rosters,
    turn_faces,
)
from tests.conftest import Table, embed_of, text_of


def lines(players: list[tuple], position: str) -> str:
    return "\n".join(f"{n} {s} {d} {t} {h}" for n, p, s, d, t, h in players if p == position)


def team_values(players: list[tuple]) -> dict[str, str]:
    return {p: lines(players, p) for p in ("chaser", "beater", "keeper", "seeker")}


async def enter_team(table: Table, team: str, players: list[tuple]) -> Any:
    shown = await table.gm.slash(table.channel, "quidditch team", team=team)
    assert shown.modal is not None, text_of(shown)
    return await table.gm.submit_modal(shown, team_values(players))


def misses(turns: int, extra: int = 4) -> ScriptedDice:
    """Every roll a miss for ``turns`` turns and a snitch phase (seekers 7 vs 6: no catch).

    Ten pairs a turn is more than an all-miss turn draws (six chasers; beaters with no scoring
    chaser to block hold back), so the spare faces also cover a snitch phase."""
    return ScriptedDice(MISS * (10 * turns + extra))


# --- the roster message ---------------------------------------------------------------------


async def test_one_roster_message_is_edited_in_place(table: Table) -> None:
    await ready_match(table)
    assert len(rosters(table)) == 1  # fourteen players, one roster
    text = roster_text(table)
    assert "AS joins as seeker." in text and "Both rosters are complete" in text
    # Only the first change posted it; the others answered the GM privately.
    public = [m for m in table.channel.history() if not m.flags.ephemeral]
    assert len(public) == 2  # the new match, the roster


async def test_a_lost_roster_message_is_posted_again(table: Table) -> None:
    await new_match(table)
    await add(table, "home", HOME[0])
    await quidditch_service.set_roster_message(table.bot.db, table.channel.id, 12345)
    result = await add(table, "home", HOME[1])
    assert not result.ephemeral and embed_of(result).title.endswith("— rosters")
    assert len(rosters(table)) == 2  # the old one is simply no longer updated
    changed = await add(table, "home", HOME[2])
    assert changed.ephemeral  # the new one is edited from now on
    assert "H3" in rosters(table)[-1].embeds[0].fields[0].value


# --- a whole team at once -------------------------------------------------------------------


async def test_a_gm_enters_both_teams_in_two_forms(table: Table) -> None:
    await new_match(table)
    home = await enter_team(table, "home", HOME)
    assert not home.ephemeral and "Lions: 7 players entered." in text_of(home)
    away = await enter_team(table, "Snakes", AWAY)
    assert away.ephemeral and "Snakes: 7 players entered." in away.response.content
    assert len(rosters(table)) == 1
    text = roster_text(table)
    assert "Keeper **HK** — S 2 · D 2 · T 8 · Health 3" in text
    assert "Both rosters are complete" in text
    # The form opens with the team as it stands, and submitting it again replaces it.
    shown = await table.gm.slash(table.channel, "quidditch team", team="home")
    inputs = {
        item["custom_id"]: item.get("value", "")
        for row in shown.modal["components"]
        for item in row["components"]
    }
    assert inputs["chaser"] == "H1 5 3 3 3\nH2 5 3 3 3\nH3 5 3 3 3"
    assert shown.modal["title"] == "Lions — home team"
    values = team_values(HOME) | {"chaser": "Angelina Johnson 6 3 3 3", "seeker": ""}
    replaced = await table.gm.submit_modal(shown, values)
    assert "Lions: 4 players entered." in replaced.response.content
    text = roster_text(table)
    assert "Chaser **Angelina Johnson** — S 6" in text and "H2" not in text
    assert "Missing: 2 chasers, a seeker" in text


async def test_a_bad_team_line_is_named_and_nothing_is_saved(table: Table) -> None:
    await new_match(table)
    cases = [
        ({"chaser": "H1 5 3 3 3\nH2 5 3 3"}, "Chasers (3), line 2 (`H2 5 3 3`): write Name"),
        ({"chaser": "H1 5 3 3 3\nH2 99 3 3 3"}, "Chasers (3), line 2 (`H2 99 3 3 3`): Strength"),
        ({"keeper": "K1 1 1 1 1\nK2 1 1 1 1"}, "Keeper: a team has 1 keeper (the form gives 2)."),
        ({"chaser": "A:B 1 1 1 1"}, "may not contain ',' or ':'"),
        (
            {"chaser": "Same 1 1 1 1", "seeker": "same 1 1 1 1"},
            "Seeker, line 1 (`same 1 1 1 1`): same is on this form twice.",
        ),
    ]
    for values, expected in cases:
        shown = await table.gm.slash(table.channel, "quidditch team", team="home")
        refused = await table.gm.submit_modal(shown, values)
        assert refused.ephemeral
        assert refused.response.content.startswith("Nothing was saved. "), values
        assert expected in refused.response.content, refused.response.content
    assert rosters(table) == []
    # Fix it reopens the form with what was typed.
    reopened = await table.gm.click(refused.response, label="Fix it")
    fields = {
        i["custom_id"]: i.get("value")
        for r in reopened.modal["components"]
        for i in r["components"]
    }
    assert fields["seeker"] == "same 1 1 1 1"
    # The other team's player names are taken too.
    await enter_team(table, "away", AWAY)
    shown = await table.gm.slash(table.channel, "quidditch team", team="home")
    clash = await table.gm.submit_modal(shown, {"seeker": "AS 1 1 1 1"})
    assert "AS already plays for Snakes" in clash.response.content


async def test_only_the_matchs_gm_enters_a_team(table: Table) -> None:
    await new_match(table)
    refused = await table.alice.slash(table.channel, "quidditch team", team="home")
    assert refused.ephemeral and refused.modal is None
    assert "Only the channel's GM can change the quidditch match" in refused.response.content
    unknown = await table.gm.slash(table.channel, "quidditch team", team="Ravens")
    assert unknown.modal is None and "There is no team 'Ravens'" in unknown.response.content
    # A form opened by the GM and submitted after the GM role was lost is refused too.
    shown = await table.gm.slash(table.channel, "quidditch team", team="home")
    alice = Actor(table.alice.id, table.channel.id, table.guild.id)
    with pytest.raises(PermissionDenied, match="Only the channel's GM"):
        await quidditch_service.set_team(table.bot.db, alice, "home", team_values(HOME))
    assert shown.modal is not None


async def test_a_team_cannot_be_replaced_once_play_started(table: Table) -> None:
    await ready_match(table)
    table.bot.dice = misses(1, 0)
    await table.gm.slash(table.channel, "quidditch turn")
    result = await table.gm.slash(table.channel, "quidditch team", team="home")
    assert result.modal is None and "fixed once the first turn is played" in text_of(result)


# --- until the snitch -----------------------------------------------------------------------


async def test_turns_up_to_the_snitch_in_one_command(table: Table) -> None:
    await ready_match(table)
    table.bot.dice = misses(10)
    result = await table.gm.slash(table.channel, "quidditch turn", until="snitch")
    assert not result.ephemeral, text_of(result)
    summary = embed_of(result)
    assert summary.title == "🧹 10 turns — Lions 0 – 0 Snakes"
    assert summary.description.splitlines()[0] == "**Turn 1**: no goals · 0–0"
    assert (
        summary.description.splitlines()[-1] == "**Turn 10**: no goals · ✨ snitch got away · 0–0"
    )
    assert summary.footer.text == "Stopped after the snitch phase."
    (last,) = result.followups
    assert last.embeds[0].title.startswith("🧹 Turn 10")
    assert any(f.name == "✨ Snitch" for f in last.embeds[0].fields)
    # From turn 10 the next snitch phase is five turns away.
    table.bot.dice = misses(5)
    again = await table.gm.slash(table.channel, "quidditch turn", until="snitch")
    assert embed_of(again).title == "🧹 5 turns — Lions 0 – 0 Snakes"


async def test_until_snitch_stops_at_a_foul_for_the_gm(table: Table) -> None:
    await ready_match(table)
    # Default beaters never foul (they hold back when no chaser scored), so the foul comes from
    # the GM's own pick for turn 1: HB1 hits A1, who did not score. The run stops right there.
    hit = MISS * 6 + [15, 2]
    table.bot.dice = ScriptedDice(hit + MISS * 200)
    result = await table.gm.slash(
        table.channel, "quidditch turn", until="snitch", targets="home1:A1"
    )
    assert "Turn 1" in embed_of(result).title, embed_of(result).title  # not a summary of several
    assert "penalty shot open" in text_of(result)
    # The next turn lets the foul lapse, and says so.
    table.bot.dice = misses(1, 0)
    lapsed = await table.gm.slash(table.channel, "quidditch turn")
    field = next(f for f in embed_of(lapsed).fields if f.name == "⌛ Lapsed fouls")
    assert "HB1 (Lions) on A1, turn 1: no penalty shot for Snakes" in field.value
    assert "so these lapsed" in field.value


async def test_until_snitch_with_penalties_all_plays_through_fouls(table: Table) -> None:
    await ready_match(table)
    table.bot.dice = SeededDice(11)
    result = await table.gm.slash(table.channel, "quidditch turn", until="snitch", penalties="all")
    summary = embed_of(result)
    assert summary.title.startswith("🧹 10 turns")
    assert len(summary.description.splitlines()) == 10


async def test_until_snitch_invariants_over_many_seeds(table: Table) -> None:
    """Whatever the dice: the run ends at the snitch phase, the end of the match, or the
    first turn that leaves a foul open — never later, never earlier."""
    gm = Actor(table.gm.id, table.channel.id, table.guild.id, gm_role=True)
    await ready_match(table)
    for seed in range(12):
        outcomes = await quidditch_service.play_turns(
            table.bot.db, SeededDice(seed), gm, until_snitch=True
        )
        for outcome in outcomes[:-1]:
            assert not outcome.view.state.open_fouls and outcome.report.snitch is None
        last = outcomes[-1]
        assert (
            last.report.snitch is not None or last.view.state.open_fouls or last.view.state.finished
        )
        if last.view.state.finished:
            break
        for _ in outcomes:
            await quidditch_service.undo(table.bot.db, gm)


# --- undo -----------------------------------------------------------------------------------


async def test_undo_takes_back_the_last_turn(table: Table) -> None:
    await ready_match(table)
    nothing = await table.gm.slash(table.channel, "quidditch undo")
    assert nothing.ephemeral and "There is no turn to undo" in nothing.response.content
    table.bot.dice = misses(1, 0)
    await table.gm.slash(table.channel, "quidditch turn")
    table.bot.dice = turn_faces(home_chasers=[[12, 3], MISS, MISS], away_beaters=[[11, 2], MISS])
    second = await table.gm.slash(table.channel, "quidditch turn")
    assert embed_of(second).title == "🧹 Turn 2 — Lions 10 : 0 Snakes"
    refused = await table.alice.slash(table.channel, "quidditch undo")
    assert refused.ephemeral and "Only the channel's GM can" in refused.response.content
    undone = await table.gm.slash(table.channel, "quidditch undo")
    assert not undone.ephemeral
    text = text_of(undone)
    assert "Turn 2 is undone" in text and "Lions **0** – **0** Snakes, after turn 1" in text
    assert "1 more turn can be undone." in text
    status = text_of(await table.alice.slash(table.channel, "quidditch status"))
    assert "after turn 1" in status and "❤️ 3/3" in status  # H1's bludger is undone too
    # The turn's dice stay in the history, with the undo.
    history = text_of(await table.gm.slash(table.channel, "history", count=5))
    assert "undo turn 2" in history
    # Replaying turn 2 gives a new turn 2.
    table.bot.dice = misses(1, 0)
    replay = await table.gm.slash(table.channel, "quidditch turn")
    assert embed_of(replay).title == "🧹 Turn 2 — Lions 0 : 0 Snakes"


async def test_undo_a_deferred_snitch_phase_then_its_turn(table: Table) -> None:
    gm = Actor(table.gm.id, table.channel.id, table.guild.id, gm_role=True)
    await ready_match(table)
    for _ in range(9):
        await quidditch_service.play_turn(table.bot.db, misses(1, 0), gm)
    # Turn 10: a bludger at the keeper is a foul, so the snitch waits for the penalty shot.
    table.bot.dice = misses(1, 0)
    turn = await table.gm.slash(table.channel, "quidditch turn", targets="home1:keeper")
    assert "penalty shot open" in text_of(turn)
    table.bot.dice = ScriptedDice(MISS)
    await table.gm.slash(table.channel, "quidditch penalty", team="away", chaser="A1")
    table.bot.dice = ScriptedDice(MISS * 2)
    snitch = await table.gm.slash(table.channel, "quidditch turn")
    assert embed_of(snitch).title.startswith("🧹 Turn 10's snitch")
    first = await table.gm.slash(table.channel, "quidditch undo")
    assert "Turn 10's snitch phase is undone" in text_of(first)
    status = text_of(await table.gm.slash(table.channel, "quidditch status"))
    assert "turn 10's snitch phase waits for penalty shots" in status.casefold()
    second = await table.gm.slash(table.channel, "quidditch undo")
    assert "Turn 10 is undone" in text_of(second) and "after turn 9" in text_of(second)
    status = text_of(await table.gm.slash(table.channel, "quidditch status"))
    assert "Open fouls" not in status


async def test_undo_is_bounded(table: Table) -> None:
    gm = Actor(table.gm.id, table.channel.id, table.guild.id, gm_role=True)
    await ready_match(table)
    for _ in range(quidditch_service.MAX_UNDO + 2):
        await quidditch_service.play_turn(table.bot.db, misses(1, 4), gm)
    for _ in range(quidditch_service.MAX_UNDO):
        await quidditch_service.undo(table.bot.db, gm)
    last = await table.gm.slash(table.channel, "quidditch undo")
    assert last.ephemeral and f"the last {quidditch_service.MAX_UNDO} were undone" in (
        last.response.content
    )


async def test_undo_the_catch_that_ended_the_match(table: Table) -> None:
    gm = Actor(table.gm.id, table.channel.id, table.guild.id, gm_role=True)
    await ready_match(table, home_house="Gryffindor", away_house="Slytherin")
    for _ in range(9):
        await quidditch_service.play_turn(table.bot.db, misses(1, 0), gm)
    catch = MISS * 6 + [20, 1] + MISS  # six chasers miss, beaters hold back; HS 25 vs AS 6
    table.bot.dice = ScriptedDice(catch)
    final = await table.gm.slash(table.channel, "quidditch turn")
    assert "Gryffindor earns **150** house points" in text_of(final)
    houses = text_of(await table.alice.slash(table.channel, "quidditch houses"))
    assert "**Gryffindor** — 150 points (1 win)" in houses
    refused = await table.alice.slash(table.channel, "quidditch undo")
    assert refused.ephemeral and "Only the channel's GM can" in refused.response.content
    undone = await table.gm.slash(table.channel, "quidditch undo")
    text = text_of(undone)
    assert "Turn 10 is undone" in text and "after turn 9" in text
    assert "it is back in play, and Gryffindor gives back its 150 house points." in text
    houses = text_of(await table.alice.slash(table.channel, "quidditch houses"))
    assert "No house has won a match in this server yet." in houses
    assert "after turn 9" in text_of(await table.alice.slash(table.channel, "quidditch status"))
    # Played again, the catch counts once.
    table.bot.dice = ScriptedDice(catch)
    await table.gm.slash(table.channel, "quidditch turn")
    houses = text_of(await table.alice.slash(table.channel, "quidditch houses"))
    assert "**Gryffindor** — 150 points (1 win)" in houses
    # Once another match has started here, the finished one is out of undo's reach.
    await table.gm.slash(table.channel, "quidditch new", home="A", away="B")
    fresh = await table.gm.slash(table.channel, "quidditch undo")
    assert fresh.ephemeral and "There is no turn to undo" in fresh.response.content
    await table.gm.slash(table.channel, "quidditch end")
    gone = await table.gm.slash(table.channel, "quidditch undo")
    assert gone.ephemeral and "No quidditch match is being played" in gone.response.content
