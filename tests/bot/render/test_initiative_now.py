"""Whose turn it is: the line is remembered for the reply and the tracker of one change, so
it must follow everything it reads (language, viewer, turn, round) and never a stale state."""

from __future__ import annotations

import dataclasses

from bot.i18n import use_language
from bot.render.initiative import now_text, tracker_embed
from bot.services.initiative import EncounterView
from engine import initiative as ini

ORDER = (
    ini.Combatant("Alice", 18, owner_id=5),
    ini.Combatant("Spy", 10, hidden=True),
)


def view_of(state: ini.Encounter) -> EncounterView:
    return EncounterView(
        state=state,
        channel_id=1,
        started_by=2,
        attribute=None,
        dice=None,
        tracker_message_id=None,
        status="active",
    )


ALICE_UP = ini.Encounter(system="coda", round=1, turn=0, order=ORDER)


def test_the_line_follows_the_language_it_is_said_in() -> None:
    view = view_of(ALICE_UP)
    english = "Round 1 · **Alice**'s turn — <@5>. 2 actions · 3rd −5, 4th −10."
    assert now_text(view, gm=False) == english
    with use_language("es"):
        assert now_text(view, gm=False) == (
            "Asalto 1 · Turno de **Alice** — <@5>. 2 acciones · 3.ª −5, 4.ª −10."
        )
    assert now_text(view, gm=False) == english


def test_the_same_order_at_another_turn_or_round_is_said_anew() -> None:
    """A change may keep the order's very tuple (the same combatants) and move only the turn:
    the remembered line of the earlier turn must not come back."""
    spy_up = view_of(dataclasses.replace(ALICE_UP, turn=1))
    assert spy_up.state.order is ALICE_UP.order
    assert now_text(view_of(ALICE_UP), gm=False).startswith("Round 1 · **Alice**")
    assert now_text(spy_up, gm=False) == "Round 1 · the GM's turn."
    assert now_text(spy_up, gm=True) == "Round 1 · **Spy** 🙈's turn. 2 actions · 3rd −5, 4th −10."
    later = view_of(dataclasses.replace(ALICE_UP, round=2))
    assert now_text(later, gm=False).startswith("Round 2 · **Alice**")
    ended = view_of(dataclasses.replace(ALICE_UP, ended=True))
    assert now_text(ended, gm=False) == "The encounter ended after 1 round(s)."


def test_actions_spent_change_the_remembered_budget_label() -> None:
    spent = dataclasses.replace(ORDER[0], actions=1)
    one = view_of(dataclasses.replace(ALICE_UP, order=(spent, ORDER[1])))
    assert now_text(one, gm=False).endswith("**Alice**'s turn — <@5>. 1 of 2 actions left.")
    two = dataclasses.replace(spent, actions=2)
    both = view_of(dataclasses.replace(ALICE_UP, order=(two, ORDER[1])))
    assert now_text(both, gm=False).endswith("0 of 2 actions left · next −5.")
    assert now_text(view_of(ALICE_UP), gm=False).endswith("2 actions · 3rd −5, 4th −10.")


def lines(view: EncounterView, *, gm: bool = False) -> list[str]:
    description = tracker_embed(view, gm=gm).description or ""
    return description.split("\n")[2:]


def test_a_kept_combatant_s_line_follows_the_turn_the_round_and_a_shared_total() -> None:
    """The same combatant (the engine keeps unchanged ones) reads anew wherever its line
    depends on more than itself; a roll-off shows only beside a total this viewer sees
    shared (tied totals are found once per tracker)."""
    acted = dataclasses.replace(ORDER[0], acted=True)
    twin = ini.Combatant("Twin", 18, tiebreak=(3,), hidden=True)
    alice = dataclasses.replace(acted, tiebreak=(5,))
    state = ini.Encounter(system="coda", round=1, turn=0, order=(alice, twin))
    assert lines(view_of(state)) == ["▶ **Alice** — 18"]
    assert lines(view_of(state), gm=True) == [
        "▶ **Alice** — 18 (roll-off 5)",
        "Twin 🙈 — 18 (roll-off 3)",
    ]
    assert lines(view_of(dataclasses.replace(state, turn=1))) == ["✓ Alice — 18"]
    assert lines(view_of(dataclasses.replace(state, round=0, turn=None))) == ["Alice — 18"]
    assert lines(view_of(dataclasses.replace(state, ended=True))) == ["Alice — 18"]
    with use_language("es"):
        assert lines(view_of(state), gm=True)[1] == "Twin 🙈 — 18 (desempate 3)"
