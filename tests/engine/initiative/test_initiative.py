"""The initiative state machine: every skirmish rule of RULES.md §2 and CODA's actions (§1)."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from engine import initiative as ini
from engine.dice import ScriptedDice, SeededDice
from engine.errors import InputError
from engine.initiative import (
    Act,
    Add,
    Defend,
    Delay,
    Encounter,
    End,
    Next,
    Prev,
    Remove,
    Reveal,
    action_budget,
    apply,
    from_dict,
    machine,
    skip_reason,
    summary,
    to_dict,
    undo,
)
from engine.initiative.storage import STATE_VERSION
from tests.hypothesis_profiles import examples


def build(*events, system: str = "generic", initiator: str | None = None, dice=None):
    state = Encounter(system=system, initiator=initiator)
    for event in events:
        state = apply(state, event, dice)
    return state


def names(state: Encounter) -> list[str]:
    return [c.name for c in state.order]


def current(state: Encounter) -> str | None:
    return None if state.current is None else state.current.name


def trio(**kwargs) -> Encounter:
    """Alice 18, Bob 12, Carl 7 (no ties)."""
    return build(Add("Alice", 18), Add("Bob", 12), Add("Carl", 7), **kwargs)


def turns(state: Encounter, count: int) -> list[tuple[int, str | None]]:
    """The (round, current) seen after each of ``count`` Next events."""
    seen = []
    for _ in range(count):
        state = apply(state, Next())
        seen.append((state.round, current(state)))
    return seen


# ------------------------------------------------------------------ order and ties


def test_order_is_highest_first_whatever_the_joining_order():
    state = build(Add("Carl", 7), Add("Alice", 18), Add("Bob", 12), Add("Dora", -3))
    assert names(state) == ["Alice", "Bob", "Carl", "Dora"]
    assert state.round == 0 and state.turn is None


def test_tie_rolls_off_existing_combatant_first_and_higher_goes_first():
    dice = ScriptedDice([4, 17])  # Alice (already there) draws first, then Bob
    state = build(Add("Alice", 10), Add("Bob", 10), dice=dice)
    assert names(state) == ["Bob", "Alice"]
    assert state.find("Alice").tiebreak == (4,)
    assert state.find("Bob").tiebreak == (17,)
    assert dice.remaining == 0


def test_tie_roll_off_that_ties_again_rolls_again():
    dice = ScriptedDice([9, 9, 3, 12])
    state = build(Add("Alice", 10), Add("Bob", 10), dice=dice)
    assert names(state) == ["Bob", "Alice"]
    assert state.find("Alice").tiebreak == (9, 3)
    assert state.find("Bob").tiebreak == (9, 12)


def test_only_the_tied_roll_off_and_others_are_untouched():
    dice = ScriptedDice([2, 19])
    state = build(Add("Alice", 10), Add("Zed", 15), Add("Bob", 10), dice=dice)
    assert names(state) == ["Zed", "Bob", "Alice"]
    assert state.find("Zed").tiebreak == ()
    assert dice.remaining == 0


def test_no_dice_drawn_without_a_tie():
    dice = ScriptedDice([])
    state = build(Add("Alice", 10), Add("Bob", 11), dice=dice)
    assert names(state) == ["Bob", "Alice"]


def test_third_tied_combatant_slots_between_without_reordering_the_first_two():
    # Alice 15 vs Bob 5 settles Alice first; Carl then rolls 10 alone and lands between.
    dice = ScriptedDice([15, 5, 10])
    state = build(Add("Alice", 10), Add("Bob", 10), Add("Carl", 10), dice=dice)
    assert names(state) == ["Alice", "Carl", "Bob"]
    assert dice.remaining == 0


def test_third_tied_combatant_matching_a_roll_rolls_on_against_that_one_only():
    # Alice 15, Bob 5; Carl rolls 15 (ties Alice's roll): Alice and Carl roll again, 6 vs 8.
    dice = ScriptedDice([15, 5, 15, 6, 8])
    state = build(Add("Alice", 10), Add("Bob", 10), Add("Carl", 10), dice=dice)
    assert names(state) == ["Carl", "Alice", "Bob"]
    assert state.find("Alice").tiebreak == (15, 6)
    assert state.find("Carl").tiebreak == (15, 8)
    assert state.find("Bob").tiebreak == (5,)


def test_tie_break_is_stored_so_the_order_survives_serialisation_and_replay():
    dice = ScriptedDice([3, 18])
    state = build(Add("Alice", 10), Add("Bob", 10), Next(), dice=dice)
    stored = json.loads(json.dumps(to_dict(state)))
    again = from_dict(stored)
    assert again == state
    assert names(apply(again, Next())) == ["Bob", "Alice"]
    # Undo replays the log: no dice are drawn (ScriptedDice([]) would raise).
    assert names(undo(again)) == ["Bob", "Alice"]


def test_tie_with_a_delayed_combatant_rolls_off_too():
    dice = ScriptedDice([6, 11])
    state = build(Add("Alice", 10), Next(), Delay(), Add("Bob", 10), dice=dice)
    assert state.find("Alice").tiebreak == (6,)
    assert state.find("Bob").tiebreak == (11,)


def test_tie_without_dice_is_a_programming_error():
    with pytest.raises(TypeError):
        build(Add("Alice", 10), Add("Bob", 10))


def test_broken_dice_that_always_tie_are_refused_not_looped_forever():
    class Stuck:
        def roll(self, sides: int) -> int:
            return 1

    with pytest.raises(ini.NotAllowedNow, match="did not settle"):
        build(Add("Alice", 10), Add("Bob", 10), dice=Stuck())


# ------------------------------------------------------------------ rounds and turns


def test_rounds_cycle_in_the_same_order():
    assert turns(trio(), 7) == [
        (1, "Alice"),
        (1, "Bob"),
        (1, "Carl"),
        (2, "Alice"),
        (2, "Bob"),
        (2, "Carl"),
        (3, "Alice"),
    ]


def test_acted_flags_reset_each_round_and_turns_are_counted():
    state = trio()
    for _ in range(4):
        state = apply(state, Next())
    assert [c.acted for c in state.order] == [True, False, False]
    assert [c.turns for c in state.order] == [2, 1, 1]


def test_initiator_has_no_action_in_round_1_and_is_shown_so():
    state = trio(initiator="alice")  # matched case-insensitively
    alice = state.find("Alice")
    assert alice.initiator
    assert turns(state, 5) == [(1, "Bob"), (1, "Carl"), (2, "Alice"), (2, "Bob"), (2, "Carl")]
    started = apply(state, Next())
    assert skip_reason(started, started.find("Alice")) == "no action in round 1 (initiated)"
    assert skip_reason(started, started.find("Bob")) is None
    round2 = apply(apply(started, Next()), Next())
    assert round2.round == 2
    assert skip_reason(round2, round2.find("Alice")) is None


def test_lone_initiator_waits_for_round_2():
    state = build(Add("Alice", 10), Next(), initiator="Alice")
    assert (state.round, current(state)) == (2, "Alice")


def test_next_without_combatants_is_refused():
    with pytest.raises(ini.NotAllowedNow, match="Nobody"):
        apply(Encounter(), Next())


def test_prev_goes_back_within_a_round_and_across_a_round():
    state = trio()
    for _ in range(4):
        state = apply(state, Next())  # round 2, Alice
    back = apply(state, Prev())
    assert (back.round, current(back)) == (1, "Carl")
    assert back.find("Alice").turns == 1 and back.find("Alice").acted  # her round-1 turn
    back = apply(back, Prev())
    assert (back.round, current(back)) == (1, "Bob")
    assert turns(back, 2) == [(1, "Carl"), (2, "Alice")]


def test_prev_skips_those_without_a_turn():
    state = build(Add("Alice", 18), Add("Bob", 12), Add("Carl", 7), Next(), Defend("Bob"))
    state = apply(state, Next())
    assert current(state) == "Carl"
    assert current(apply(state, Prev())) == "Alice"


def test_prev_refused_at_the_first_turn_and_before_the_start():
    with pytest.raises(ini.NotAllowedNow, match="not started"):
        apply(trio(), Prev())
    with pytest.raises(ini.NotAllowedNow, match="first turn"):
        apply(apply(trio(), Next()), Prev())
    with pytest.raises(ini.NotAllowedNow, match="first turn"):
        apply(apply(trio(initiator="Alice"), Next()), Prev())


# ------------------------------------------------------------------ delay and act


def test_delay_keeps_the_place_and_the_turn_passes_on():
    state = apply(apply(trio(), Next()), Delay())
    assert names(state) == ["Alice", "Bob", "Carl"]  # a delayer keeps its place
    assert [c.name for c in state.delayed] == ["Alice"]
    assert current(state) == "Bob"
    alice = state.find("Alice")
    assert not alice.acted and alice.turns == 0 and state.is_delayed("alice")
    assert alice.delaying == 1 and skip_reason(state, alice) == "delaying"


def test_act_comes_right_after_the_current_one_and_keeps_that_place():
    state = apply(apply(trio(), Next()), Delay())  # Bob's turn, Alice delayed
    state = apply(state, Act("alice"))
    assert names(state) == ["Bob", "Alice", "Carl"]
    assert current(state) == "Alice" and state.delayed == ()
    assert state.find("Alice").turns == 1
    assert turns(state, 4) == [(1, "Carl"), (2, "Bob"), (2, "Alice"), (2, "Carl")]


def test_delay_ends_when_the_own_place_comes_round_again():
    """RULES.md §2 decision: the delay ends there; the turn is taken normally."""
    state = apply(apply(trio(), Next()), Delay())  # Alice delayed, Bob current
    state = apply(state, Next())  # Carl
    assert (state.round, current(state)) == (1, "Carl")
    assert skip_reason(state, state.find("Alice")) == "delaying"
    state = apply(state, Next())  # round 2 reaches Alice's place
    assert (state.round, current(state)) == (2, "Alice")
    assert state.delayed == () and state.find("Alice").turns == 1
    assert names(state) == ["Alice", "Bob", "Carl"]


def test_delay_into_the_next_round_then_act_there_before_the_own_place():
    state = trio()
    for _ in range(3):
        state = apply(state, Next())  # R1 Alice, Bob, Carl
    state = apply(state, Delay())  # Carl delays: R2 Alice
    assert (state.round, current(state)) == (2, "Alice")
    assert skip_reason(state, state.find("Carl")).startswith("delaying (since round 1")
    state = apply(state, Act("Carl"))
    assert names(state) == ["Alice", "Carl", "Bob"] and current(state) == "Carl"
    assert turns(state, 4) == [(2, "Bob"), (3, "Alice"), (3, "Carl"), (3, "Bob")]


def test_delay_by_the_last_combatant_starts_the_new_round():
    state = trio()
    for _ in range(3):
        state = apply(state, Next())
    state = apply(state, Delay())
    assert (state.round, current(state)) == (2, "Alice")
    assert [c.name for c in state.delayed] == ["Carl"]


def test_everyone_delaying_then_one_acts_in_the_same_round():
    state = build(Add("Alice", 10), Add("Bob", 5), Next(), Delay(), Delay())
    assert state.turn is None and state.round == 1 and names(state) == ["Alice", "Bob"]
    assert [c.name for c in state.delayed] == ["Alice", "Bob"]
    state = apply(state, Act("Bob"))
    assert (state.round, current(state), names(state)) == (1, "Bob", ["Bob", "Alice"])
    state = apply(state, Act("Alice"))
    assert (state.round, current(state), names(state)) == (1, "Alice", ["Bob", "Alice"])
    assert turns(state, 2) == [(2, "Bob"), (2, "Alice")]


def test_everyone_delaying_then_next_ends_the_first_delay_in_the_new_round():
    state = build(Add("Alice", 10), Add("Bob", 5), Next(), Delay(), Delay(), Next())
    assert (state.round, current(state)) == (2, "Alice")
    assert [c.name for c in state.delayed] == ["Bob"]
    state = apply(state, Next())  # Bob's place: his delay ends too
    assert (state.round, current(state), state.delayed) == (2, "Bob", ())


def test_delayer_dodges_spending_the_delayed_action_and_keeping_the_place():
    state = apply(apply(trio(), Next()), Delay())  # Alice delays, Bob current
    state = apply(state, Defend("Alice"))
    alice = state.find("Alice")
    assert alice.delaying is None and alice.acted and state.delayed == ()
    assert names(state) == ["Alice", "Bob", "Carl"] and current(state) == "Bob"
    with pytest.raises(ini.NotAllowedNow, match="not delaying"):
        apply(state, Act("Alice"))
    assert turns(state, 2) == [(1, "Carl"), (2, "Alice")]  # her next turn at her place


def test_delayer_from_last_round_dodges_and_still_has_this_rounds_turn():
    state = trio()
    for _ in range(3):
        state = apply(state, Next())
    state = apply(state, Delay())  # Carl delays in R1; R2 Alice
    state = apply(state, Defend("Carl"))
    assert state.delayed == () and not state.find("Carl").acted
    assert turns(state, 2) == [(2, "Bob"), (2, "Carl")]


def test_only_a_delayer_dodges_on_behalf_of_another():
    state = apply(apply(trio(), Next()), Delay())  # Alice delays, Bob current
    with pytest.raises(ini.NotAllowedNow, match="only a delaying combatant"):
        apply(state, Defend("Carl", protects="Bob"))
    state = apply(state, Defend("Alice", protects="Carl"))
    assert state.delayed == () and state.find("Alice").acted
    assert not state.find("Carl").defended  # the protected one keeps its turn
    assert turns(state, 1) == [(1, "Carl")]
    with pytest.raises(ini.UnknownCombatant):
        apply(apply(apply(trio(), Next()), Delay()), Defend("Alice", protects="Nobody"))


def test_going_back_before_a_delay_loses_it():
    state = trio(initiator="Carl")
    for _ in range(3):
        state = apply(state, Next())  # R1 Alice, Bob; R2 Alice
    state = apply(state, Next())  # R2 Bob
    state = apply(state, Next())  # R2 Carl
    state = apply(state, Delay())  # R3 Alice, Carl delayed
    state = apply(apply(state, Prev()), Prev())  # back into round 2, then to its Alice
    state = apply(apply(state, Prev()), Prev())  # round 1: Bob, then Alice
    assert (state.round, current(state)) == (1, "Alice")
    # Going back before the round the delay began loses it, like every flag of that round.
    assert state.delayed == ()
    with pytest.raises(ini.NotAllowedNow, match="not delaying"):
        apply(state, Act("Carl"))


def test_act_refused_for_a_combatant_not_delaying_and_delay_without_a_turn():
    state = apply(trio(), Next())
    with pytest.raises(ini.NotAllowedNow, match="not delaying"):
        apply(state, Act("Bob"))
    with pytest.raises(ini.UnknownCombatant):
        apply(state, Act("Nobody"))
    with pytest.raises(ini.NotAllowedNow, match="no current turn"):
        apply(trio(), Delay())


# ------------------------------------------------------------------ defensive rolls


def test_defended_combatant_is_skipped_for_the_rest_of_the_round_only():
    state = apply(trio(), Next())  # Alice
    state = apply(state, Defend("Bob"))
    assert skip_reason(state, state.find("Bob")) == "defended this round"
    assert names(state) == ["Alice", "Bob", "Carl"]  # place unchanged
    assert turns(state, 4) == [(1, "Carl"), (2, "Alice"), (2, "Bob"), (2, "Carl")]


def test_defence_by_everyone_left_ends_the_round():
    state = apply(trio(), Next())
    state = apply(apply(state, Defend("Bob")), Defend("Carl"))
    state = apply(state, Next())
    assert (state.round, current(state)) == (2, "Alice")
    assert not state.find("Bob").defended


@pytest.mark.parametrize(
    ("setup", "name", "match"),
    [
        ([], "Bob", "No round"),
        ([Next()], "Alice", "turn now"),
        ([Next(), Next()], "Alice", "has passed"),
        ([Next(), Defend("Carl")], "Carl", "already defended"),
    ],
)
def test_defence_refusals(setup, name, match):
    state = build(Add("Alice", 18), Add("Bob", 12), Add("Carl", 7), *setup)
    with pytest.raises(ini.NotAllowedNow, match=match):
        apply(state, Defend(name))


def test_initiator_cannot_defend_in_round_1():
    state = build(Add("Alice", 5), Add("Bob", 12), Next(), initiator="Alice")
    with pytest.raises(ini.NotAllowedNow, match="initiated"):
        apply(state, Defend("Alice"))


# ------------------------------------------------------------------ joining, removing, revealing


def test_joining_above_the_current_turn_waits_for_the_next_round():
    state = apply(apply(trio(), Next()), Next())  # Bob
    state = apply(state, Add("Dora", 20))
    assert current(state) == "Bob"
    assert turns(state, 3) == [(1, "Carl"), (2, "Dora"), (2, "Alice")]


def test_joining_right_above_the_current_turn_keeps_the_current_turn():
    state = apply(apply(trio(), Next()), Next())  # Bob (12), index 1
    state = apply(state, Add("Dora", 15))  # lands at index 1, just above Bob
    assert names(state) == ["Alice", "Dora", "Bob", "Carl"]
    assert current(state) == "Bob"
    assert turns(state, 3) == [(1, "Carl"), (2, "Alice"), (2, "Dora")]


def test_joining_below_the_current_turn_gets_a_turn_this_round():
    state = apply(trio(), Next())
    state = apply(state, Add("Dora", 10))
    assert turns(state, 3) == [(1, "Bob"), (1, "Dora"), (1, "Carl")]


def test_removing_the_current_combatant_passes_the_turn():
    state = apply(apply(trio(), Next()), Next())  # Bob
    state = apply(state, Remove("bob"))
    assert names(state) == ["Alice", "Carl"] and current(state) == "Carl"
    state = apply(state, Remove("Carl"))
    assert (state.round, current(state)) == (2, "Alice")
    state = apply(state, Remove("Alice"))
    assert state.turn is None and state.order == ()


def test_removing_above_the_current_keeps_the_same_current():
    state = apply(apply(trio(), Next()), Next())
    state = apply(state, Remove("Alice"))
    assert current(state) == "Bob" and state.turn == 0


def test_removing_a_delayed_combatant():
    state = apply(apply(trio(), Next()), Delay())
    state = apply(state, Remove("Alice"))
    assert state.delayed == () and current(state) == "Bob"


def test_reveal_unhides_once():
    state = build(Add("Lurker", 5, hidden=True))
    assert state.find("Lurker").hidden
    state = apply(state, Reveal("lurker"))
    assert not state.find("Lurker").hidden
    with pytest.raises(ini.NotAllowedNow, match="not hidden"):
        apply(state, Reveal("Lurker"))


# ------------------------------------------------------------------ validation


def test_names_are_trimmed_and_checked():
    state = build(Add("  Goblin   1 ", 3))
    assert names(state) == ["Goblin 1"]
    for bad in ("", "   ", "x" * 65, "bad\x00name"):
        with pytest.raises(ini.InvalidName):
            apply(state, Add(bad, 1))
    assert names(apply(state, Add("y" * 64, 1)))[-1] == "y" * 64


def test_duplicate_names_are_refused_case_insensitively():
    state = build(Add("Alice", 3))
    with pytest.raises(ini.DuplicateCombatant):
        apply(state, Add("ALICE", 9))


def test_at_most_50_combatants():
    state = build(*(Add(f"Goblin {i}", i) for i in range(50)))
    assert len(state.order) == 50
    with pytest.raises(ini.TooManyCombatants):
        apply(state, Add("One too many", 100))


@pytest.mark.parametrize("event", [Remove("Nobody"), Defend("Nobody"), Reveal("Nobody")])
def test_unknown_names_are_refused_and_name_who_is_there(event):
    state = apply(trio(), Next())
    with pytest.raises(ini.UnknownCombatant, match="Alice, Bob, Carl"):
        apply(state, event)


def test_errors_are_value_errors_the_bot_can_show():
    assert issubclass(ini.InitiativeError, InputError)
    assert issubclass(ini.InitiativeError, ValueError)


def test_totals_are_bounded_whole_numbers():
    with pytest.raises(ini.NotAllowedNow):
        apply(Encounter(), Add("Alice", 10**9))
    with pytest.raises(ini.NotAllowedNow):
        apply(Encounter(), Add("Alice", True))


def test_ended_encounter_refuses_changes_but_can_be_undone():
    state = apply(apply(trio(), Next()), End())
    assert state.ended
    with pytest.raises(ini.EncounterEnded):
        apply(state, Next())
    assert not undo(state).ended


# ------------------------------------------------------------------ CODA actions per round


def test_coda_two_actions_then_cumulative_minus_five():
    state = build(Add("Alice", 10), Next(), system="coda")
    budget = action_budget(state, state.find("Alice"))
    assert budget.free == 2 and not budget.surprised
    assert [budget.penalty(n) for n in (1, 2, 3, 4, 5)] == [0, 0, 5, 10, 15]
    assert budget.label == "2 actions · 3rd −5, 4th −10"


def test_coda_action_costing_more_than_one_takes_the_largest_penalty_it_spans():
    budget = ini.ActionBudget(free=2, surprised=False)
    assert budget.penalty(2, cost=2) == 5  # spans the 2nd and 3rd
    assert budget.penalty(3, cost=2) == 10
    assert budget.penalty(1, cost=2) == 0
    with pytest.raises(InputError):
        budget.penalty(0)


def test_coda_surprised_lose_one_action_in_round_1_only():
    state = build(Add("Alice", 10, surprised=True), Add("Bob", 3), Next(), system="coda")
    budget = action_budget(state, state.find("Alice"))
    assert budget.free == 1 and budget.surprised
    assert [budget.penalty(n) for n in (1, 2, 3)] == [0, 5, 10]
    assert budget.label == "1 action (surprised) · 2nd −5, 3rd −10"
    assert action_budget(state, state.find("Bob")).free == 2
    round2 = apply(apply(state, Next()), Next())
    assert round2.round == 2
    assert action_budget(round2, round2.find("Alice")).free == 2


# ------------------------------------------------------------------ undo, history, storage


def test_undo_walks_back_every_step_to_the_start():
    dice = ScriptedDice([1, 2, 6, 6])  # CODA 2d6 roll-off: Alice 3, Bob 12
    events = [
        Add("Alice", 10),
        Add("Bob", 10),
        Add("Carl", 3, hidden=True),
        Next(),  # R1 Bob
        Defend("Alice"),
        Next(),  # Alice defended, Carl initiated: R2 Bob
        Delay(),  # Alice
        Act("Bob"),
        Reveal("Carl"),
        Next(),  # Carl
        Remove("Carl"),  # R3 Alice
        End(),
    ]
    states = [Encounter(system="coda", initiator="Carl")]
    for event in events:
        states.append(apply(states[-1], event, dice))
    assert [current(s) for s in states[4:8]] == ["Bob", "Bob", "Bob", "Alice"]
    assert (states[-2].round, current(states[-2]), names(states[-2])) == (
        3,
        "Alice",
        ["Alice", "Bob"],
    )
    state = states[-1]
    for earlier in reversed(states[:-1]):
        state = undo(state)
        assert state == earlier
    with pytest.raises(ini.NothingToUndo):
        undo(state)


def test_history_is_bounded_and_undo_reaches_back_as_far_as_it_keeps(monkeypatch):
    monkeypatch.setattr(machine, "MAX_HISTORY", 5)
    states = [trio()]  # 3 events: within the bound
    for _ in range(6):
        states.append(apply(states[-1], Next()))
    state = states[-1]
    assert len(state.log) == 5 and state.base is not None
    for earlier in reversed(states[-6:-1]):
        state = undo(state)
        assert state.core() == earlier.core()
    with pytest.raises(ini.NothingToUndo):
        undo(state)


def test_serialisation_is_plain_json_and_exact():
    dice = ScriptedDice([4, 4, 6, 3])
    state = build(
        Add("Alice", 10, owner_id=2**62, character="Alice Vane", detail="2d6 (5, 5)"),
        Add("Bob", 10, hidden=True, surprised=True),
        Next(),
        Delay(),
        system="coda",
        initiator="Bob",
        dice=dice,
    )
    text = json.dumps(to_dict(state))
    assert from_dict(json.loads(text)) == state
    # The tracker's reading: the same state without the history it does not show.
    assert state.log and ini.current_from_dict(json.loads(text)) == state.core()


def test_malformed_stored_state_is_refused_clearly():
    data = to_dict(trio())
    with pytest.raises(ini.InitiativeError, match="version"):
        from_dict({**data, "version": 99})
    with pytest.raises(ini.InitiativeError, match="malformed"):
        from_dict({k: v for k, v in data.items() if k != "round"})
    with pytest.raises(ini.InitiativeError, match="outside"):
        from_dict({**data, "turn": 7})
    # The tracker's history-less reading refuses the same records.
    with pytest.raises(ini.InitiativeError, match="version"):
        ini.current_from_dict({**data, "version": 99})
    with pytest.raises(ini.InitiativeError, match="malformed"):
        ini.current_from_dict({k: v for k, v in data.items() if k != "round"})
    with pytest.raises(ini.InitiativeError, match="outside"):
        ini.current_from_dict({**data, "turn": 7})


def test_summary_counts_rounds_and_turns():
    state = trio(initiator="Carl")
    for _ in range(4):
        state = apply(state, Next())  # R1 Alice Bob; R2 Alice Bob
    result = summary(state)
    assert result.rounds == 2
    assert {c.name: c.turns for c in result.combatants} == {"Alice": 2, "Bob": 2, "Carl": 0}
    assert [c.name for c in result.acted] == ["Alice", "Bob"]


# ------------------------------------------------------------------ any sequence of events

NAMES = ["Alice", "Bob", "Carl", "Dora", "Eve", "Fay", "alice"]


class EncounterMachine(RuleBasedStateMachine):
    """Random valid and invalid events; refused events change nothing, undo is exact."""

    def __init__(self) -> None:
        super().__init__()
        self.dice = SeededDice(0)
        self.history: list[tuple[Encounter, frozenset[str]]] = [
            (Encounter(system="coda", initiator="Carl"), frozenset())
        ]

    @initialize(
        seed=st.integers(0, 2**32),
        joining=st.lists(st.tuples(st.integers(0, 4), st.booleans()), max_size=len(NAMES) - 2),
        reroll=st.booleans(),
    )
    def start(self, seed, joining, reroll):
        """Seeded roll-offs, and a few combatants to begin with (ties likely)."""
        self.dice = SeededDice(seed)
        self.history = [(Encounter(system="coda", initiator="Carl", reroll=reroll), frozenset())]
        for name, (total, hidden) in zip(NAMES, joining, strict=False):
            self.attempt(Add(name, total, hidden=hidden), self.members | {name})

    @property
    def state(self) -> Encounter:
        return self.history[-1][0]

    @property
    def members(self) -> frozenset[str]:
        return self.history[-1][1]

    def attempt(self, event, members: frozenset[str] | None = None) -> None:
        before = self.state
        try:
            after = apply(before, event, self.dice)
        except ini.InitiativeError:
            assert self.state is before
            return
        self.history.append((after, self.members if members is None else members))

    @rule(
        name=st.sampled_from(NAMES),
        total=st.integers(0, 4),
        hidden=st.booleans(),
        health=st.one_of(st.none(), st.integers(1, 20)),
    )
    def add(self, name, total, hidden, health):
        known = {n.casefold() for n in self.members}
        members = self.members if name.casefold() in known else self.members | {name}
        clash = next(
            (c for c in self.state.combatants if c.key == name.casefold() and c.hidden), None
        )
        if clash is not None and not hidden:  # the visible newcomer takes the hidden one's name
            suffixes = ["(hidden)", *(f"(hidden {n})" for n in range(2, 60))]
            renamed = next(
                f"{clash.name} {s}" for s in suffixes if f"{clash.name} {s}".casefold() not in known
            )
            members = (self.members - {clash.name}) | {renamed, name}
        self.attempt(Add(name, total, hidden=hidden, surprised=not hidden, health=health), members)

    def pick(self, data) -> str:
        """Mostly a combatant that exists (any case), sometimes an unknown name."""
        present = sorted(c.name for c in self.state.combatants)
        pool = present + [n.upper() for n in present] if present else NAMES
        return data.draw(st.one_of(st.sampled_from(pool), st.sampled_from(NAMES)))

    @rule(data=st.data())
    def remove(self, data):
        name = self.pick(data)
        members = frozenset(n for n in self.members if n.casefold() != name.casefold())
        self.attempt(Remove(name), members)

    # Next is listed twice so that games run for several rounds.
    @rule()
    def next(self):
        self.attempt(Next())

    @rule()
    def next_again(self):
        self.attempt(Next())

    @rule()
    def prev(self):
        self.attempt(Prev())

    @rule()
    def delay(self):
        self.attempt(Delay())

    @rule(data=st.data())
    def act(self, data):
        self.attempt(Act(self.pick(data)))

    @rule(data=st.data())
    def defend(self, data):
        self.attempt(Defend(self.pick(data)))

    @rule(data=st.data())
    def defend_for(self, data):
        self.attempt(Defend(self.pick(data), protects=self.pick(data)))

    @rule(
        data=st.data(),
        condition=st.sampled_from(["Stunned", "prone", "Burning"]),
        rounds=st.one_of(st.none(), st.integers(0, 3)),
        tick=st.sampled_from(["start", "end"]),
    )
    def add_condition(self, data, condition, rounds, tick):
        self.attempt(
            ini.AddCondition(self.pick(data), condition=condition, rounds=rounds, tick=tick)
        )

    @rule(data=st.data(), condition=st.sampled_from(["Stunned", "PRONE", "Burning"]))
    def remove_condition(self, data, condition):
        self.attempt(ini.RemoveCondition(self.pick(data), condition=condition))

    @rule(data=st.data())
    def reveal(self, data):
        self.attempt(Reveal(self.pick(data)))

    @rule(
        data=st.data(),
        action=st.sampled_from(["Walk", "Run", "Sprint", "Hide", "Command", "Dodge", "juggle"]),
        cost=st.one_of(st.none(), st.integers(-1, 11)),
    )
    def spend_action(self, data, action, cost):
        self.attempt(ini.SpendAction(self.pick(data), action=action, cost=cost))

    @rule(
        data=st.data(),
        damage=st.integers(-5, 30),
        value=st.one_of(st.none(), st.integers(-3, 20), st.just(ini.MAX_HEALTH + 1)),
    )
    def set_health(self, data, damage, value):
        self.attempt(ini.SetHealth(self.pick(data), damage=damage, value=value))

    @rule(data=st.data())
    def player_health_refused(self, data):
        """A combatant played from a sheet keeps its Health there, never on the tracker."""
        name = self.pick(data)
        if self.state.ended:
            return
        try:
            player = replace(self.state.find(name), owner_id=7)
        except ini.UnknownCombatant:
            return
        state = replace(
            self.state, order=tuple(player if c.key == player.key else c for c in self.state.order)
        )
        with pytest.raises(ini.NotAllowedNow, match="played from a sheet"):
            apply(state, ini.SetHealth(name, damage=1))

    # Ending is final (but for undo): only once a fight has gone on a while.
    @precondition(lambda self: self.state.round >= 3)
    @rule()
    def end(self):
        self.attempt(End())

    @precondition(lambda self: len(self.history) > 1)
    @rule()
    def undo(self):
        state = undo(self.state)
        self.history.pop()
        assert state == self.state

    @invariant()
    def order_is_a_permutation_of_the_combatants(self):
        assert sorted(c.name for c in self.state.combatants) == sorted(self.members)

    @invariant()
    def turn_pointer_is_valid(self):
        state = self.state
        if state.round == 0:
            assert state.turn is None
        if state.turn is not None:
            assert state.round >= 1
            assert 0 <= state.turn < len(state.order)
            assert skip_reason(state, state.current) is None
            assert state.current.acted

    @invariant()
    def delayers_keep_a_place_and_never_hold_the_turn(self):
        state = self.state
        for combatant in state.delayed:
            assert 1 <= combatant.delaying <= state.round
            assert combatant is not state.current

    @invariant()
    def conditions_have_positive_durations_and_unique_names(self):
        for combatant in self.state.combatants:
            keys = [c.key for c in combatant.conditions]
            assert len(set(keys)) == len(keys)
            assert all(
                c.rounds is None or c.rounds >= (c.tick == "end") for c in combatant.conditions
            )

    @invariant()
    def actions_spent_stay_within_a_round(self):
        for combatant in self.state.combatants:
            assert 0 <= combatant.actions <= 10
            if combatant.actions:
                assert self.state.started

    @invariant()
    def health_is_kept_within_bounds_with_its_maximum(self):
        for combatant in self.state.combatants:
            if combatant.health is None:
                assert combatant.max_health is None
            else:
                assert abs(combatant.health) <= ini.MAX_HEALTH
                assert combatant.max_health is not None

    @invariant()
    def equal_totals_are_strictly_ordered_by_their_roll_off(self):
        combatants = self.state.combatants
        for a in combatants:
            for b in combatants:
                if a is not b and a.total == b.total:
                    shorter = min(len(a.tiebreak), len(b.tiebreak))
                    assert a.tiebreak[:shorter] != b.tiebreak[:shorter]

    @invariant()
    def serialisation_round_trips(self):
        stored = json.loads(json.dumps(to_dict(self.state)))
        assert from_dict(stored) == self.state
        assert ini.current_from_dict(stored) == self.state.core()

    @invariant()
    def stored_record_is_every_field_in_order(self):
        # The record other processes (and older versions) read: byte for byte what the
        # dataclasses' own asdict gives, whatever shortcut to_dict takes (docs/performance.md).
        assert json.dumps(to_dict(self.state)) == json.dumps(_reference_record(self.state))

    @invariant()
    def undo_restores_the_previous_state(self):
        if len(self.history) > 1:
            assert undo(self.state) == self.history[-2][0]


def _reference_record(state):
    """:func:`to_dict` written the plain way, with ``dataclasses.asdict``."""

    def combatant(c):
        data = dataclasses.asdict(c)
        data["tiebreak"] = list(c.tiebreak)
        data["conditions"] = [dataclasses.asdict(condition) for condition in c.conditions]
        return data

    def core(s):
        return {
            "system": s.system,
            "initiator": s.initiator,
            "round": s.round,
            "turn": s.turn,
            "order": [combatant(c) for c in s.order],
            "ended": s.ended,
            "reroll": s.reroll,
        }

    def event(e):
        data = {"type": e.kind}
        data.update({f.name: getattr(e, f.name) for f in dataclasses.fields(e)})
        if isinstance(e, Add) and e.tiebreaks is not None:
            data["tiebreaks"] = [[name, list(dice)] for name, dice in e.tiebreaks]
        rerolls = data.pop("rerolls", None)
        if rerolls is not None:
            data["rerolls"] = [[n, total, detail, list(t)] for n, total, detail, t in rerolls]
        return data

    record = core(state)
    record["version"] = STATE_VERSION
    record["base"] = None if state.base is None else core(state.base)
    record["log"] = [event(e) for e in state.log]
    return record


EncounterMachine.TestCase.settings = settings(
    max_examples=examples(100),
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestEncounterMachine = EncounterMachine.TestCase
