"""Issue 15's rules: CODA surprise order, roll-offs with the system's dice, re-roll each round,
and the navigation fixes (RULES.md §1, §2)."""

from __future__ import annotations

import pytest

from engine import initiative as ini
from engine.dice import ScriptedDice
from engine.initiative import Add, Encounter, Next, Prev, action_budget, apply, undo


def build(*events, dice=None, **options):
    state = Encounter(**options)
    for event in events:
        state = apply(state, event, dice)
    return state


def names(state: Encounter) -> list[str]:
    return [c.name for c in state.order]


def seen(state: Encounter, count: int, dice=None) -> list[tuple[int, str]]:
    out = []
    for _ in range(count):
        state = apply(state, Next(), dice)
        out.append((state.round, state.current.name))
    return out


def surprised_four(system: str = "coda") -> Encounter:
    return build(
        Add("Alice", 18),
        Add("Bob", 12, surprised=True),
        Add("Carl", 7),
        Add("Dora", 3, surprised=True),
        system=system,
    )


# ------------------------------------------------------------------ CODA surprise


def test_coda_surprised_act_after_the_unsurprised_in_round_1_only():
    state = surprised_four()
    assert seen(state, 8) == [
        (1, "Alice"),
        (1, "Carl"),
        (1, "Bob"),
        (1, "Dora"),
        (2, "Alice"),
        (2, "Bob"),
        (2, "Carl"),
        (2, "Dora"),
    ]
    round1 = apply(state, Next())
    assert action_budget(round1, round1.find("Bob")).free == 1
    assert action_budget(round1, round1.find("Alice")).free == 2


def test_h90_surprise_does_not_change_the_order():
    assert [n for _, n in seen(surprised_four("h90"), 4)] == ["Alice", "Bob", "Carl", "Dora"]


def test_coda_newcomer_in_round_1_joins_its_group():
    state = apply(surprised_four(), Next())  # R1 Alice
    state = apply(state, Add("Eve", 5))
    state = apply(state, Add("Fay", 20, surprised=True))
    assert names(state) == ["Alice", "Carl", "Eve", "Fay", "Bob", "Dora"]


def test_coda_prev_into_round_1_restores_its_surprise_order():
    state = surprised_four()
    for _ in range(5):
        state = apply(state, Next())  # R2 Alice
    back = apply(state, Prev())
    assert (back.round, back.current.name) == (1, "Dora")
    assert names(back) == ["Alice", "Carl", "Bob", "Dora"]


def test_prev_into_round_1_leaves_the_initiator_not_done():
    state = build(Add("Alice", 18), Add("Bob", 12), initiator="Alice")
    state = apply(apply(state, Next()), Next())  # R1 Bob, R2 Alice
    back = apply(state, Prev())
    assert (back.round, back.current.name) == (1, "Bob")
    assert not back.find("Alice").acted


# ------------------------------------------------------------------ roll-offs


@pytest.mark.parametrize(
    ("system", "faces", "first", "tiebreaks"),
    [
        ("coda", [3, 4, 6, 6], "Bob", {"Alice": (7,), "Bob": (12,)}),
        ("h90", [3, 15, 10, 2], "Alice", {"Alice": (15,), "Bob": (10,)}),
        ("generic", [4, 17], "Bob", {"Alice": (4,), "Bob": (17,)}),
    ],
)
def test_ties_roll_off_with_the_systems_own_dice(system, faces, first, tiebreaks):
    dice = ScriptedDice(faces)
    state = build(Add("Alice", 9), Add("Bob", 9), dice=dice, system=system)
    assert names(state)[0] == first
    assert {c.name: c.tiebreak for c in state.order} == tiebreaks
    assert dice.remaining == 0


def test_a_tied_roll_off_rolls_again():
    dice = ScriptedDice([3, 4, 5, 2, 1, 1, 6, 6])  # 7 v 7, then 2 v 12
    state = build(Add("Alice", 9), Add("Bob", 9), dice=dice, system="coda")
    assert names(state) == ["Bob", "Alice"]
    assert state.find("Bob").tiebreak == (7, 12)


# ------------------------------------------------------------------ re-roll each round


def test_everyone_rerolls_at_the_start_of_each_later_round():
    state = build(
        Add("Alice", 12, modifier=1),
        Add("Bob", 8, hidden=True),
        Add("Carl", 5),
        system="coda",
        reroll=True,
    )
    state = apply(state, Next())  # round 1 keeps the joining rolls: no dice
    assert (state.round, state.current.name) == (1, "Alice")
    state = apply(apply(state, Next()), Next())  # Bob, Carl
    # Round 2: Alice 2d6 (1, 2) + 1 = 4; Bob (6, 5) = 11; Carl (2, 2) = 4: tie with Alice,
    # rolled off with 2d6: Alice 3, Carl 9.
    dice = ScriptedDice([1, 2, 6, 5, 2, 2, 1, 2, 4, 5])
    state = apply(state, Next(), dice)
    assert dice.remaining == 0
    assert state.round == 2 and names(state) == ["Bob", "Carl", "Alice"]
    assert state.current.name == "Bob" and state.find("Bob").hidden
    assert state.find("Alice").detail == "2d6 (1, 2) + 1"
    assert state.find("Carl").tiebreak == (9,)
    assert undo(state) == apply(
        apply(
            apply(
                build(
                    Add("Alice", 12, modifier=1),
                    Add("Bob", 8, hidden=True),
                    Add("Carl", 5),
                    system="coda",
                    reroll=True,
                ),
                Next(),
            ),
            Next(),
        ),
        Next(),
    )


def test_reroll_uses_the_given_roller_and_needs_dice():
    state = build(Add("Alice", 12), Add("Bob", 8), Next(), Next(), reroll=True)
    with pytest.raises(TypeError, match="dice"):
        apply(state, Next())
    totals = {"Alice": 1, "Bob": 30}
    after = apply(state, Next(), ScriptedDice([]), lambda c: (totals[c.name], "set"))
    assert names(after) == ["Bob", "Alice"] and after.current.name == "Bob"
    stored = ini.from_dict(ini.to_dict(after))
    assert stored == after and ini.undo(stored) == state


# ------------------------------------------------------------------ conditions


def conditions(state: Encounter, name: str) -> list[str]:
    return [c.label for c in state.find(name).conditions]


def test_a_condition_counts_down_at_the_start_of_its_bearers_turn():
    state = build(Add("Alice", 18), Add("Bob", 12), Next())  # R1 Alice
    state = apply(state, ini.AddCondition("bob", condition="Stunned", rounds=2, note="spell"))
    assert conditions(state, "Bob") == ["Stunned (2 rounds, ticks at start)"]
    state = apply(state, Next())  # Bob's 1st turn starts under it: 1 more after this one
    assert conditions(state, "Bob") == ["Stunned (1 round, ticks at start)"]
    state = apply(apply(state, Next()), Next())  # R2 Alice, R2 Bob: his 2nd and last turn
    assert state.current.name == "Bob"
    assert conditions(state, "Bob") == ["Stunned (last turn, ends as its next turn starts)"]
    state = apply(apply(state, Next()), Next())  # R3 Alice, R3 Bob: gone
    assert state.current.name == "Bob" and conditions(state, "Bob") == []
    assert state.find("Alice").conditions == ()


@pytest.mark.parametrize("tick", ["start", "end"])
def test_a_one_round_condition_put_on_before_the_turn_lasts_that_turn(tick):
    """``rounds`` is how many of the bearer's turns it lasts: 1 is the next one, whole."""
    state = build(Add("Alice", 18), Add("Goblin", 12), Next())  # R1 Alice
    state = apply(state, ini.AddCondition("Goblin", condition="Stunned", rounds=1, tick=tick))
    state = apply(state, Next())  # the Goblin's turn: still stunned
    assert state.current.name == "Goblin" and len(state.find("Goblin").conditions) == 1
    state = apply(state, Next())  # its turn is over (R2 Alice)
    gone = state.find("Goblin").conditions == ()
    assert gone == (tick == "end")
    state = apply(state, Next())  # R2 Goblin: gone either way
    assert state.current.name == "Goblin" and state.find("Goblin").conditions == ()


def test_a_condition_ticking_at_the_end_and_one_until_removed():
    state = build(Add("Alice", 18), Add("Bob", 12), Next())
    state = apply(state, ini.AddCondition("Alice", condition="Burning", rounds=1, tick="end"))
    state = apply(state, ini.AddCondition("Alice", condition="Prone"))
    assert conditions(state, "Alice") == ["Burning (1 round, ticks at end)", "Prone"]
    state = apply(state, Next())  # Alice's turn ends
    assert conditions(state, "Alice") == ["Prone"]
    state = apply(state, ini.RemoveCondition("alice", condition="prone"))
    assert conditions(state, "Alice") == []
    with pytest.raises(ini.NotAllowedNow, match="no condition 'Prone'"):
        apply(state, ini.RemoveCondition("Alice", condition="Prone"))


def test_a_delayer_resuming_its_turn_does_not_count_down_again():
    state = build(Add("Alice", 18), Add("Bob", 12))
    state = apply(state, ini.AddCondition("Alice", condition="Dazed", rounds=3))
    state = apply(state, Next())  # Alice begins: 2
    state = apply(apply(state, ini.Delay()), ini.Act("Alice"))
    assert conditions(state, "Alice") == ["Dazed (2 rounds, ticks at start)"]


@pytest.mark.parametrize(
    ("event", "match"),
    [
        (ini.AddCondition("Alice", condition="X", rounds=0), "1 to 100"),
        (ini.AddCondition("Alice", condition="X", rounds=True), "1 to 100"),
        (ini.AddCondition("Alice", condition="X", tick="middle"), "start or at the end"),
        (ini.AddCondition("Alice", condition="  "), "needs a name"),
        (ini.AddCondition("Nobody", condition="X"), "No combatant"),
    ],
)
def test_condition_refusals(event, match):
    with pytest.raises(ini.InitiativeError, match=match):
        apply(build(Add("Alice", 18)), event)


def test_conditions_are_bounded_and_replaced_by_name_and_undo_and_storage_are_exact():
    state = build(Add("Alice", 18))
    for i in range(10):
        state = apply(state, ini.AddCondition("Alice", condition=f"C{i}", rounds=i + 1))
    with pytest.raises(ini.NotAllowedNow, match="at most 10"):
        apply(state, ini.AddCondition("Alice", condition="C10"))
    replaced = apply(state, ini.AddCondition("Alice", condition="c0", rounds=5))
    assert conditions(replaced, "Alice")[-1] == "c0 (5 rounds, ticks at start)"
    assert undo(replaced) == state
    assert ini.from_dict(ini.to_dict(replaced)) == replaced
