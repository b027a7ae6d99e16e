"""Health kept on the tracker for NPCs without a sheet: set, damaged, undone."""

from __future__ import annotations

import json

import pytest

from engine import initiative as ini
from engine.initiative import Add, Encounter, Next, SetHealth, apply, from_dict, to_dict, undo


def fight() -> Encounter:
    state = Encounter(system="coda")
    state = apply(state, Add("Troll", 9, health=20))
    state = apply(state, Add("Ron", 5, owner_id=1, character="Ron"))
    state = apply(state, Add("Goblin", 3))
    return apply(state, Next())


def test_an_npc_added_with_health_keeps_it_and_its_maximum() -> None:
    troll = fight().find("Troll")
    assert (troll.health, troll.max_health) == (20, 20)
    assert fight().find("Goblin").health is None


def test_damage_comes_off_and_may_go_below_zero_and_undo_gives_it_back() -> None:
    state = fight()
    hurt = apply(state, SetHealth("troll", damage=12))
    assert (hurt.find("Troll").health, hurt.find("Troll").max_health) == (8, 20)
    worse = apply(hurt, SetHealth("Troll", damage=15))
    assert worse.find("Troll").health == -7
    healed = apply(worse, SetHealth("Troll", damage=-3))
    assert healed.find("Troll").health == -4
    assert undo(healed) == worse
    assert undo(undo(undo(healed))) == state
    assert from_dict(json.loads(json.dumps(to_dict(healed)))) == healed


def test_setting_health_gives_a_maximum_the_first_time_only() -> None:
    state = apply(fight(), SetHealth("Goblin", value=6))
    assert (state.find("Goblin").health, state.find("Goblin").max_health) == (6, 6)
    state = apply(state, SetHealth("Goblin", value=2))
    assert (state.find("Goblin").health, state.find("Goblin").max_health) == (2, 6)


def test_refusals_change_nothing() -> None:
    state = fight()
    with pytest.raises(ini.NotAllowedNow, match="no Health on the tracker"):
        apply(state, SetHealth("Goblin", damage=3))
    with pytest.raises(ini.NotAllowedNow, match="played from a sheet"):
        apply(state, SetHealth("Ron", value=3))
    with pytest.raises(ini.NotAllowedNow, match="within"):
        apply(state, SetHealth("Troll", value=ini.MAX_HEALTH + 1))
    with pytest.raises(ini.NotAllowedNow, match="whole number"):
        apply(state, SetHealth("Troll", damage=True))
    with pytest.raises(ini.UnknownCombatant):
        apply(state, SetHealth("Nobody", damage=1))
    with pytest.raises(ini.NotAllowedNow, match="within"):
        apply(state, Add("Giant", 1, health=ini.MAX_HEALTH + 1))
    assert state == fight()
