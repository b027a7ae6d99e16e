"""Quidditch (RULES.md §2, optional rules): each rule pinned by a scripted turn.

The fixture's numbers are chosen so a pair of dice reads at a glance:
home chasers Strength 5 against the away keeper's T 8 + D 3 = 11; away chasers Strength 4
against the home keeper's T 8 + D 2 = 10; beaters (home 4, away 3) against the opposing
keeper's Toughness 8. ``MISS`` = (1, 2) fails every one of those rolls.
"""

from __future__ import annotations

import json
import pickle
from dataclasses import replace

import pytest

from engine import quidditch as q
from engine.dice import ScriptedDice, SeededDice
from engine.quidditch import Position, QuidditchError

MISS = (1, 2)


def build(
    *,
    chaser_health: int = 3,
    keeper_health: int = 3,
    home_seeker_health: int = 4,
    away_seeker_health: int = 4,
    home_house: str | None = "Gryffindor",
    away_house: str | None = "Slytherin",
) -> q.MatchState:
    state = q.new_match("Lions", "Snakes", home_house=home_house, away_house=away_house)
    rosters = {
        "home": [
            ("H1", "chaser", 5, 3, 3, chaser_health),
            ("H2", "chaser", 5, 3, 3, chaser_health),
            ("H3", "chaser", 5, 3, 3, chaser_health),
            ("HB1", "beater", 4, 3, 3, 4),
            ("HB2", "beater", 4, 3, 3, 4),
            ("HK", "keeper", 2, 2, 8, keeper_health),
            ("HS", "seeker", 2, 5, 2, home_seeker_health),
        ],
        "away": [
            ("A1", "chaser", 4, 3, 3, chaser_health),
            ("A2", "chaser", 4, 3, 3, chaser_health),
            ("A3", "chaser", 4, 3, 3, chaser_health),
            ("AB1", "beater", 3, 3, 3, 4),
            ("AB2", "beater", 3, 3, 3, 4),
            ("AK", "keeper", 2, 3, 8, keeper_health),
            ("AS", "seeker", 2, 4, 2, away_seeker_health),
        ],
    }
    for side, players in rosters.items():
        state = q.add_players(state, side, players)
    return state


def _scores(pairs, strength: int, difficulty: int) -> bool:
    return any(max(pair) + strength >= difficulty for pair in pairs)


def script(
    home_chasers=(MISS,) * 3,
    away_chasers=(MISS,) * 3,
    home_beaters=None,
    away_beaters=None,
    rest=(),
) -> ScriptedDice:
    """Faces in RULES.md's order: home chasers, away chasers, home/away beaters, the rest.

    Beaters left out roll MISS when an opposing chaser scored (with the fixture's numbers)
    and nothing otherwise: with no scorer to block, a beater holds back.
    """
    if home_beaters is None:
        home_beaters = (MISS,) * 2 if _scores(away_chasers, 4, 10) else ()
    if away_beaters is None:
        away_beaters = (MISS,) * 2 if _scores(home_chasers, 5, 11) else ()
    pairs = [*home_chasers, *away_chasers, *home_beaters, *away_beaters]
    return ScriptedDice([face for pair in pairs for face in pair] + list(rest))


def play(state, dice, **kwargs):
    turn = q.play_turn(dice, state, **kwargs)
    assert dice.remaining == 0, "the turn drew fewer dice than scripted"
    return turn


def player(state, side, name):
    found = state.team(side).find(name)
    assert found is not None
    return found


# --- a turn -----------------------------------------------------------------------------------


def test_a_goal_scores_ten():
    state = build()
    turn = play(state, script(home_chasers=[(12, 3), MISS, MISS]))
    shot = turn.report.shots[0]
    assert (shot.team, shot.chaser) == ("home", "H1")
    assert shot.roll.faces == (12, 3)
    assert shot.roll.difficulty == 11  # away keeper T 8 + D 3
    assert shot.margin == 6
    assert shot.scored
    assert [s.chaser for s in turn.report.goals] == ["H1"]
    assert turn.report.points == (10, 0)
    assert turn.report.score == (10, 0)
    assert (turn.state.home_score, turn.state.away_score) == (10, 0)
    assert turn.state.turn == 1
    assert turn.report.fouls == ()


def test_every_active_chaser_rolls_in_roster_order_home_first():
    # One scorer a side, so every beater has someone to go for.
    dice = script(home_chasers=[(12, 3), MISS, MISS], away_chasers=[MISS, (15, 1), MISS])
    turn = play(build(), dice)
    assert [(s.team, s.chaser) for s in turn.report.shots] == [
        ("home", "H1"),
        ("home", "H2"),
        ("home", "H3"),
        ("away", "A1"),
        ("away", "A2"),
        ("away", "A3"),
    ]
    assert [(b.team, b.beater) for b in turn.report.blocks] == [
        ("home", "HB1"),
        ("home", "HB2"),
        ("away", "AB1"),
        ("away", "AB2"),
    ]
    assert all(b.roll.difficulty == 8 for b in turn.report.blocks)  # the keeper's Toughness


def test_a_goal_blocked_by_a_larger_beater_margin():
    state = build()
    dice = script(home_chasers=[(12, 3), MISS, MISS], away_beaters=[(15, 2), MISS])
    turn = play(state, dice)
    block = turn.report.blocks[0]
    assert block.beater == "AB1" and block.target == "H1" and not block.chosen_by_gm
    assert block.roll.margin == 10  # 15 + 3 - 8 > the chaser's 6
    assert block.hit and block.blocked and not block.foul
    assert block.target_health == 2
    assert turn.report.shots[0].blocked_by == ("AB1",)
    assert not turn.report.shots[0].scored
    assert turn.report.score == (0, 0)
    assert player(turn.state, "home", "H1").health == 2


def test_a_beater_hit_that_does_not_block():
    # Equal margins (6 and 6) do not block: the beater's must be larger.
    dice = script(home_chasers=[(12, 3), MISS, MISS], away_beaters=[(11, 2), MISS])
    turn = play(build(), dice)
    block = turn.report.blocks[0]
    assert block.hit and block.roll.margin == 6
    assert not block.blocked and not block.foul
    assert turn.report.shots[0].scored
    assert turn.report.score == (10, 0)
    assert player(turn.state, "home", "H1").health == 2


def test_a_beater_who_misses_costs_no_health():
    turn = play(build(), script(home_chasers=[(12, 3), MISS, MISS]))
    assert not turn.report.blocks[0].hit
    assert player(turn.state, "home", "H1").health == 3


def test_both_beaters_may_hit_the_same_chaser():
    dice = script(home_chasers=[(12, 3), MISS, MISS], away_beaters=[(9, 2), (16, 1)])
    turn = play(build(), dice)
    assert [b.target for b in turn.report.blocks] == ["H1", "H1"]
    assert player(turn.state, "home", "H1").health == 1
    assert turn.report.shots[0].blocked_by == ("AB2",)


def test_default_target_is_the_largest_margin_first_listed_on_ties():
    dice = script(away_chasers=[(10, 1), (16, 1), (16, 2)])
    turn = play(build(), dice)
    assert [b.target for b in turn.report.blocks[:2]] == ["A2", "A2"]


def test_beaters_hold_back_without_a_scorer_to_block():
    # Decision: with no opposing chaser scoring and no GM target, a beater holds back:
    # no roll (the 12 chaser dice are all the turn draws), no foul.
    dice = script()
    turn = play(build(), dice)
    assert dice.used == 12
    assert turn.report.blocks == () and turn.report.fouls == ()
    assert turn.report.held == (("home", "HB1"), ("home", "HB2"), ("away", "AB1"), ("away", "AB2"))


def test_only_the_side_facing_a_scorer_rolls_bludgers():
    dice = script(away_chasers=[MISS, (15, 1), MISS])
    turn = play(build(), dice)
    assert [(b.beater, b.target) for b in turn.report.blocks] == [("HB1", "A2"), ("HB2", "A2")]
    assert turn.report.held == (("away", "AB1"), ("away", "AB2"))
    assert turn.report.fouls == ()


def test_gm_targets_by_slot_and_by_name():
    dice = script(home_beaters=[MISS, MISS], away_beaters=[(15, 2)])
    targets = {"home1": "A3", "HB2": "keeper", "away1": "H2"}
    turn = play(build(), dice, targets=targets)
    blocks = turn.report.blocks
    assert [(b.beater, b.target, b.chosen_by_gm) for b in blocks] == [
        ("HB1", "A3", True),
        ("HB2", "AK", True),
        ("AB1", "H2", True),
    ]
    assert turn.report.held == (("away", "AB2"),)  # no GM target, no scorer: holds back
    # AB1 hit H2, who had not scored: a foul. HB2 went for the keeper: a foul even on a miss.
    assert [(f.team, f.beater, f.target) for f in turn.report.fouls] == [
        ("home", "HB2", "AK"),
        ("away", "AB1", "H2"),
    ]


def test_a_knocked_out_chaser_no_longer_rolls():
    state = build(chaser_health=1)
    dice = script(home_chasers=[(12, 3), MISS, MISS], away_beaters=[(11, 2), MISS])
    turn = play(state, dice)
    assert turn.report.knocked_out == (("home", "H1"),)
    assert turn.report.blocks[0].knocked_out
    assert turn.report.score == (10, 0)  # the hit did not block: the goal stands
    out = player(turn.state, "home", "H1")
    assert out.health == 0 and not out.active
    # Next turn: only H2 and H3 roll for home, and the away beaters go for H3, who scores.
    dice = script(home_chasers=[MISS, (12, 3)])
    turn = play(turn.state, dice)
    assert [s.chaser for s in turn.report.shots[:2]] == ["H2", "H3"]
    assert [b.target for b in turn.report.blocks] == ["H3", "H3"]


def test_a_knocked_out_keeper_defends_with_nothing():
    state = build(keeper_health=1)
    turn = play(state, script(away_beaters=[MISS]), targets={"away1": "keeper"})
    # AB1 missed; now hit the keeper for real.
    dice = script(away_beaters=[(19, 2)])
    turn = play(turn.state, dice, targets={"away1": "keeper"})
    assert turn.report.knocked_out == (("home", "HK"),)
    dice = script(
        home_chasers=[(12, 3), MISS, MISS],
        away_chasers=[MISS, MISS, MISS],
        home_beaters=[MISS, MISS],
    )
    turn = play(turn.state, dice)
    assert [s.roll.difficulty for s in turn.report.shots[3:]] == [0, 0, 0]
    assert turn.report.points == (10, 30)
    assert turn.report.blocks[0].roll.difficulty == 8  # the away keeper is still up
    assert turn.report.blocks[2].roll.difficulty == 0  # bludgers at home chasers: T 0
    assert turn.report.blocks[2].hit


def test_targeting_a_knocked_out_player_is_refused():
    state = q.set_health(build(), "away", "A2", 0)
    with pytest.raises(QuidditchError, match="A2 is knocked out"):
        q.play_turn(ScriptedDice([]), state, targets={"home1": "A2"})


@pytest.mark.parametrize(
    ("targets", "message"),
    [
        ({"home3": "A1"}, "not a beater"),
        ({"home1": "H2"}, "Snakes has no player named 'H2'"),
        ({"home1": "AS"}, "not the seeker AS"),
        ({"away1": "HB1"}, "not the beater HB1"),
    ],
)
def test_bad_targets_are_refused_before_any_die(targets, message):
    dice = ScriptedDice([])
    with pytest.raises(QuidditchError, match=message):
        q.play_turn(dice, build(), targets=targets)


def test_a_beater_with_no_one_to_hit_holds():
    state = build()
    for name in ("A1", "A2", "A3"):
        state = q.set_health(state, "away", name, 0)
    dice = script(home_chasers=[(12, 3), MISS, MISS], away_chasers=[], home_beaters=[])
    turn = play(state, dice)
    assert turn.report.held == (("home", "HB1"), ("home", "HB2"))
    assert [b.beater for b in turn.report.blocks] == ["AB1", "AB2"]


# --- fouls and penalty shots ------------------------------------------------------------------


# HB1 sent by the GM at A1, who did not score: a hit is a foul (HB2 holds back).
FOUL = {"home1": "A1"}


def test_a_foul_and_its_penalty_shot():
    state = build()
    turn = play(state, script(home_beaters=[(15, 2)]), targets=FOUL)
    (foul,) = turn.report.fouls
    assert (foul.team, foul.beater, foul.target, foul.victim) == ("home", "HB1", "A1", "away")
    assert turn.report.blocks[0].foul
    assert player(turn.state, "away", "A1").health == 2
    assert turn.state.open_fouls == (foul,)
    # The GM awards it: an away chaser rolls Strength vs the home keeper (T 8 + D 2).
    dice = ScriptedDice([14, 3])
    shot = q.penalty_shot(dice, turn.state, team="away", chaser="A2")
    (penalty,) = shot.report.penalties
    assert penalty.chaser == "A2" and penalty.roll.total == 18 and penalty.roll.difficulty == 10
    assert penalty.scored
    assert shot.report.points == (0, 10)
    assert (shot.state.home_score, shot.state.away_score) == (0, 10)
    assert shot.state.open_fouls == ()
    with pytest.raises(QuidditchError, match="no open foul to award a penalty shot for"):
        q.penalty_shot(ScriptedDice([14, 3]), shot.state, team="away", chaser="A2")


def test_a_missed_penalty_shot_scores_nothing():
    turn = play(build(), script(home_beaters=[(15, 2)]), targets=FOUL)
    shot = q.penalty_shot(ScriptedDice([4, 5]), turn.state, team="away", chaser="A1")
    assert not shot.report.penalties[0].scored
    assert shot.state.away_score == 0


def test_a_penalty_needs_a_foul_against_that_team():
    turn = play(build(), script(home_beaters=[(15, 2)]), targets=FOUL)
    with pytest.raises(QuidditchError, match="against Lions: the open foul is against Snakes"):
        q.penalty_shot(ScriptedDice([14, 3]), turn.state, team="home", chaser="H1")
    with pytest.raises(QuidditchError, match="no chaser named 'AK'"):
        q.penalty_shot(ScriptedDice([14, 3]), turn.state, team="away", chaser="AK")


def test_a_bludger_at_the_keeper_is_a_foul_unless_the_quaffle_is_in_the_scoring_zone():
    dice = script(home_beaters=[MISS], away_beaters=[(15, 2)])
    targets = {"home1": "keeper", "away1": "keeper"}
    turn = play(build(), dice, targets=targets, scoring_zone="home")
    # The quaffle is at the home hoops: AB1's bludger at HK is fair; HB1's at AK is not.
    assert [(b.beater, b.target, b.foul) for b in turn.report.blocks] == [
        ("HB1", "AK", True),
        ("AB1", "HK", False),
    ]
    assert [f.beater for f in turn.report.fouls] == ["HB1"]
    assert player(turn.state, "home", "HK").health == 2
    with pytest.raises(QuidditchError, match="home or away"):
        q.play_turn(ScriptedDice([]), build(), scoring_zone="middle")  # type: ignore[arg-type]


def test_a_beater_hit_on_a_scoring_chaser_is_no_foul():
    dice = script(away_chasers=[(15, 1), MISS, MISS], home_beaters=[(9, 1), MISS])
    turn = play(build(), dice)
    assert turn.report.blocks[0].hit
    assert turn.report.fouls == ()


def test_fouls_lapse_when_the_next_turn_starts():
    turn = play(build(), script(home_beaters=[(15, 2)]), targets=FOUL)
    turn = play(turn.state, script())
    assert turn.state.fouls == ()
    with pytest.raises(QuidditchError, match="taken before the next turn is played"):
        q.penalty_shot(ScriptedDice([14, 3]), turn.state, team="away", chaser="A1")


def test_penalties_all_takes_each_shot_after_the_beaters():
    dice = script(home_beaters=[(15, 2), (16, 2)], rest=[14, 3, 2, 3])
    turn = play(build(), dice, penalties="all", targets={"home1": "A1", "home2": "A1"})
    assert [(p.team, p.chaser, p.scored) for p in turn.report.penalties] == [
        ("away", "A1", True),
        ("away", "A1", False),
    ]
    assert turn.report.score == (0, 10)
    assert turn.state.open_fouls == ()


def test_penalties_none_waives_the_fouls():
    turn = play(build(), script(home_beaters=[(15, 2)]), penalties="none", targets=FOUL)
    assert len(turn.report.fouls) == 1
    assert turn.state.open_fouls == ()


# --- the snitch -------------------------------------------------------------------------------


def at_turn(state, turn):
    return replace(state, turn=turn)


def test_no_snitch_before_turn_ten():
    turn = play(at_turn(build(), 8), script())
    assert turn.report.snitch is None
    assert turn.state.next_snitch_turn == 10


def test_snitch_caught_at_turn_ten():
    state = at_turn(build(), 9)
    dice = script(home_chasers=[(12, 3), MISS, MISS], rest=[18, 3, 2, 3])
    turn = play(state, dice)
    snitch = turn.report.snitch
    assert snitch is not None
    home, away = snitch.seekers
    assert (home.seeker, home.roll.total, away.seeker, away.roll.total) == ("HS", 23, "AS", 7)
    assert home.caught and not away.caught
    assert snitch.caught_by == "home"
    assert turn.state.finished and turn.state.caught_by == "home"
    assert turn.report.score == (160, 0)
    assert turn.report.points == (160, 0)
    result = turn.report.result
    assert result is not None
    assert (result.winner, result.difference, result.house, result.house_points) == (
        "home",
        160,
        "Gryffindor",
        160,
    )
    assert result.turns == 10
    assert turn.state.next_snitch_turn is None
    with pytest.raises(QuidditchError, match="The match is over"):
        q.play_turn(ScriptedDice([]), turn.state)


def test_snitch_not_caught_with_a_difference_of_nine():
    state = at_turn(build(), 9)
    turn = play(state, script(rest=[11, 3, 3, 2]))  # 16 vs 7
    assert turn.report.snitch is not None
    assert turn.report.snitch.caught_by is None
    assert not turn.state.finished
    assert turn.state.next_snitch_turn == 15


def test_snitch_phases_come_every_fifth_turn():
    assert [t for t in range(1, 31) if q.is_snitch_turn(t)] == [10, 15, 20, 25, 30]
    assert [q.next_snitch_turn(t) for t in (1, 10, 11, 15, 16)] == [10, 10, 15, 15, 20]
    turn = play(at_turn(build(), 10), script())  # turn 11: no snitch dice
    assert turn.report.snitch is None
    turn = play(at_turn(build(), 14), script(rest=[3, 4, 5, 6]))
    assert turn.report.snitch is not None


def test_the_away_seeker_can_catch_too():
    turn = play(at_turn(build(), 9), script(rest=[2, 3, 19, 20]))  # 8 vs 24
    assert turn.report.snitch.caught_by == "away"
    assert turn.report.result.winner == "away"
    assert turn.report.result.house == "Slytherin"


def test_the_interfering_seeker_doubles_dexterity_and_cannot_catch():
    state = q.set_interference(at_turn(build(), 9), "away")
    turn = play(state, script(rest=[2, 1, 20, 1]))  # home 7; away 20 + 2 x 4 = 28
    _, away = turn.report.snitch.seekers
    assert away.interfering and away.roll.bonus == 8 and away.roll.total == 28
    assert not away.caught and turn.report.snitch.caught_by is None
    # Interference is for one snitch phase only.
    assert not turn.state.away_interferes


def test_interference_makes_the_catch_harder():
    faces = [18, 3, 7, 2]  # home 23; away 7 + 4 = 11 chasing, 7 + 8 = 15 interfering
    chasing = play(at_turn(build(), 9), script(rest=faces))
    assert chasing.report.snitch.caught_by == "home"
    state = q.set_interference(at_turn(build(), 9), "away")
    interfering = play(state, script(rest=faces))
    assert interfering.report.snitch.caught_by is None


def test_a_missing_seeker_leaves_the_other_rolling_against_ten():
    state = at_turn(build(away_seeker_health=0), 9)
    missed = play(state, script(rest=[4, 2]))  # 4 + 5 = 9 < 10
    assert [s.seeker for s in missed.report.snitch.seekers] == ["HS"]
    assert missed.report.snitch.caught_by is None
    caught = play(state, script(rest=[5, 2]))  # 10 >= 10
    assert caught.report.snitch.caught_by == "home"


def test_two_missing_seekers_never_catch():
    state = at_turn(build(home_seeker_health=0, away_seeker_health=0), 9)
    turn = play(state, script())
    assert turn.report.snitch.seekers == () and turn.report.snitch.caught_by is None


def test_a_snitch_turn_with_a_foul_waits_for_the_penalty_shot():
    state = at_turn(build(), 9)
    turn = play(state, script(home_beaters=[(15, 2)]), targets=FOUL)
    assert turn.report.snitch_deferred and turn.report.snitch is None
    assert turn.state.snitch_pending and turn.state.next_snitch_turn == 10
    shot = q.penalty_shot(ScriptedDice([14, 3]), turn.state, team="away", chaser="A1")
    assert shot.report.snitch_deferred
    with pytest.raises(QuidditchError, match="snitch phase comes first"):
        q.play_turn(ScriptedDice([]), shot.state, targets={"home1": "A1"})
    snitch = play(shot.state, ScriptedDice([18, 3, 2, 3]))
    assert snitch.report.turn == 10 and snitch.report.shots == () and snitch.report.snitch_only
    assert not turn.report.snitch_only
    assert snitch.report.snitch.caught_by == "home"
    assert snitch.report.score == (150, 10)
    assert snitch.report.result.difference == 140


def test_a_snitch_turn_with_fouls_and_penalties_none_chases_at_once():
    state = at_turn(build(), 9)
    dice = script(home_beaters=[(15, 2)], rest=[3, 4, 5, 6])
    turn = play(state, dice, penalties="none", targets=FOUL)
    assert turn.report.snitch is not None and not turn.state.snitch_pending


# --- the end and house points -----------------------------------------------------------------


def test_house_points_are_the_difference_for_the_winner():
    state = replace(at_turn(build(), 9), home_score=30, away_score=200)
    turn = play(state, script(rest=[18, 3, 2, 3]))  # home catches: 180 vs 200
    result = turn.report.result
    assert (result.home_score, result.away_score) == (180, 200)
    assert result.winner == "away" and result.caught_by == "home"
    assert (result.house, result.house_points, result.difference) == ("Slytherin", 20, 20)


def test_a_draw_earns_no_house_points():
    state = replace(at_turn(build(), 9), away_score=150)
    result = play(state, script(rest=[18, 3, 2, 3])).report.result
    assert result.winner is None and result.house is None and result.house_points == 0


def test_a_team_without_a_house_earns_none():
    state = at_turn(build(home_house=None), 9)
    result = play(state, script(rest=[18, 3, 2, 3])).report.result
    assert result.winner == "home" and result.house is None and result.house_points == 0


# --- rosters ----------------------------------------------------------------------------------


def test_missing_lists_what_each_roster_lacks():
    state = q.new_match("Lions", "Snakes")
    chaser = q.make_player("X", "chaser", strength=1, dexterity=1, toughness=1, health=1)
    state = q.add_player(state, "home", chaser)
    assert q.missing(state) == [
        "Lions needs 2 chasers, 2 beaters, a keeper, a seeker",
        "Snakes needs 3 chasers, 2 beaters, a keeper, a seeker",
    ]
    with pytest.raises(QuidditchError, match="The rosters are incomplete: Lions needs 2 chasers"):
        q.play_turn(ScriptedDice([]), state)
    assert q.missing(build()) == []


def test_a_full_position_refuses_another_player():
    extra = q.make_player("H4", "chaser", strength=1, dexterity=1, toughness=1, health=1)
    with pytest.raises(QuidditchError, match=r"Lions already has 3 chasers \(H1, H2, H3\)"):
        q.add_player(build(), "home", extra)
    seeker = q.make_player("S2", "seeker", strength=1, dexterity=1, toughness=1, health=1)
    with pytest.raises(QuidditchError, match="already has 1 seeker"):
        q.add_player(build(), "away", seeker)


def test_a_player_of_the_same_name_is_replaced():
    state = build()
    faster = q.make_player("hs", "seeker", strength=1, dexterity=9, toughness=1, health=2)
    state = q.add_player(state, "home", faster)
    assert state.home.seeker.dexterity == 9
    assert len(state.home.players) == 7
    moved = q.make_player("H1", "keeper", strength=1, dexterity=1, toughness=1, health=1)
    with pytest.raises(QuidditchError, match="already has 1 keeper"):
        q.add_player(state, "home", moved)


def test_a_name_on_the_other_team_is_refused():
    twin = q.make_player("A1", "chaser", strength=1, dexterity=1, toughness=1, health=1)
    with pytest.raises(QuidditchError, match="A1 already plays for Snakes"):
        q.add_player(q.remove_player(build(), "home", "H1"), "home", twin)


def test_rosters_are_fixed_once_play_starts():
    state = play(build(), script()).state
    with pytest.raises(QuidditchError, match="fixed"):
        q.remove_player(state, "home", "H1")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"strength": 51}, "Strength must be between 0 and 50"),
        ({"health": -1}, "Health must be between 0 and 100"),
        ({"position": "wizard"}, "position must be one of chaser"),
        ({"name": "a:b"}, "may not contain"),
        ({"name": "  "}, "1 to 64 characters"),
    ],
)
def test_bad_players_are_refused(kwargs, message):
    values = {"name": "X", "position": "chaser", "strength": 1, "dexterity": 1}
    values |= {"toughness": 1, "health": 1} | kwargs
    name, position = values.pop("name"), values.pop("position")
    with pytest.raises(QuidditchError, match=message):
        q.make_player(name, position, **values)


def test_new_match_needs_two_names():
    with pytest.raises(QuidditchError, match="different names"):
        q.new_match("Lions", "lions")
    with pytest.raises(QuidditchError, match="team must be"):
        q.add_player(build(), "middle", build().home.chasers[0])  # type: ignore[arg-type]


def test_parse_targets():
    assert q.parse_targets("home1:Weasley, home2:keeper") == {
        "home1": "Weasley",
        "home2": "keeper",
    }
    assert q.parse_targets(" ") == {}
    assert q.parse_targets(None) == {}
    with pytest.raises(QuidditchError, match="beater:target"):
        q.parse_targets("home1 Weasley")
    with pytest.raises(QuidditchError, match="two targets"):
        q.parse_targets("home1:A1, HOME1:A2")


def test_positions_have_labels_and_slots():
    assert [(p.label, p.slots) for p in Position] == [
        ("Chaser", 3),
        ("Beater", 2),
        ("Keeper", 1),
        ("Seeker", 1),
    ]


# --- state as plain data ----------------------------------------------------------------------


def test_state_survives_json_mid_match():
    state = at_turn(build(chaser_health=1), 9)
    state = q.set_interference(state, "away")
    # A foul on a snitch turn: the snitch phase waits.
    turn = play(state, script(home_beaters=[(15, 2)]), targets=FOUL)
    stored = json.loads(json.dumps(turn.state.to_dict()))
    restored = q.MatchState.from_dict(stored)
    assert restored == turn.state
    assert restored.snitch_pending and restored.open_fouls and restored.away_interferes
    assert player(restored, "away", "A1").health == 0
    # It plays on exactly as the original would.
    faces = [14, 3, 18, 3, 2, 3]
    a = q.penalty_shot(ScriptedDice(faces[:2]), restored, team="away", chaser="A2")
    b = q.penalty_shot(ScriptedDice(faces[:2]), turn.state, team="away", chaser="A2")
    assert a == b
    assert play(a.state, ScriptedDice(faces[2:])) == play(b.state, ScriptedDice(faces[2:]))


def test_from_dict_refuses_an_unknown_version():
    data = build().to_dict() | {"version": 99}
    with pytest.raises(QuidditchError, match="version"):
        q.MatchState.from_dict(data)


# --- simulation -------------------------------------------------------------------------------


def sim_states():
    fresh = build()
    mid = q.set_interference(replace(at_turn(build(chaser_health=2), 13), home_score=40), "home")
    uneven = q.set_health(q.set_health(build(), "away", "AK", 0), "home", "H2", 0)
    return [fresh, mid, uneven]


@pytest.mark.parametrize("penalties", ["all", "none"])
def test_simulation_replays_play_turn_die_for_die(penalties):
    for index, state in enumerate(sim_states()):
        for seed in range(15):
            fast_dice, slow_dice = SeededDice(seed), SeededDice(seed)
            fast = q.simulate(fast_dice, state, penalties=penalties)
            slow = q.play_out(slow_dice, state, penalties=penalties)
            assert fast == slow, (index, seed)
            assert fast_dice.roll(1000) == slow_dice.roll(1000)  # same number of draws


def test_simulation_is_capped_and_says_so():
    state = build(home_seeker_health=0, away_seeker_health=0)
    result = q.simulate(SeededDice(1), state, max_turns=40)
    assert result.capped and result.turns == 40 and result.winner is None


def test_simulate_many_refuses_a_match_that_cannot_end():
    state = build(home_seeker_health=0, away_seeker_health=0)
    with pytest.raises(QuidditchError, match="Neither seeker is in play"):
        q.simulate_many(SeededDice(1), state, matches=10)
    lone = q.simulate_many(SeededDice(1), build(home_seeker_health=0), matches=20)
    assert lone.capped == 0 and lone.away_wins + lone.home_wins + lone.draws == 20


def test_batches_on_copies_of_the_dice_play_the_same_matches_as_one_run():
    # What the bot does: each batch in a worker process gets a pickled copy of the dice and
    # hands it back, so the seed still pins every match however the batches fall.
    whole = q.simulate_many(SeededDice(7), build(), matches=30, keep_outcomes=True)
    dice, played = SeededDice(7), []
    for size in (10, 15, 5):
        batch, dice = q.simulate_batch(
            dice=pickle.loads(pickle.dumps(dice)), state=build(), matches=size
        )
        played += batch
    assert tuple(played) == whole.outcomes


def test_simulate_many_summarises():
    summary = q.simulate_many(SeededDice(7), build(), matches=50, keep_outcomes=True)
    assert summary.matches == 50
    assert summary.home_wins + summary.away_wins + summary.draws + summary.capped == 50
    assert summary.mean_turns >= 10
    assert summary.mean_turns == sum(o.turns for o in summary.outcomes) / 50
    assert summary.home_win_rate == summary.home_wins / 50
    assert summary.longest == max(o.turns for o in summary.outcomes)
    again = q.simulate_many(SeededDice(7), build(), matches=50)
    assert again.mean_home_score == summary.mean_home_score


def test_simulation_needs_complete_rosters():
    with pytest.raises(QuidditchError, match="incomplete"):
        q.simulate(SeededDice(1), q.new_match("A", "B"))
