"""Which player each beater aims a bludger at: the GM's ``beater:target`` pairs parsed and
checked against the rules, and RULES.md's default target when the GM names none.

It exists to keep the GM's input and its checks apart from playing the turn
(:mod:`engine.quidditch._turn_phases`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from engine.errors import N_
from engine.quidditch._roster import (
    SIDES,
    MatchState,
    Position,
    QuidditchError,
    Side,
    other,
)
from engine.quidditch._turn_reports import ShotReport


def parse_targets(text: str | None) -> dict[str, str]:
    """``"home1:Weasley, home2:keeper"`` -> ``{"home1": "Weasley", "home2": "keeper"}``."""
    targets: dict[str, str] = {}
    if not text:
        return targets
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        beater, sep, target = part.partition(":")
        if not sep or not beater.strip() or not target.strip():
            raise QuidditchError(
                N_(
                    "Targets are 'beater:target' pairs such as 'home1:Weasley, away2:keeper' "
                    "(got {part})."
                ),
                part=repr(part),
            )
        key = beater.strip()
        if key.casefold() in (k.casefold() for k in targets):
            raise QuidditchError(N_("Beater {key} is given two targets."), key=repr(key))
        targets[key] = target.strip()
    return targets


def _find_beater(state: MatchState, key: str) -> tuple[Side, int]:
    folded = key.strip().casefold()
    for side in SIDES:
        beaters = state.team(side).beaters
        for index in range(len(beaters)):
            if folded == f"{side}{index + 1}":
                return side, index
    found = [
        (side, index)
        for side in SIDES
        for index, beater in enumerate(state.team(side).beaters)
        if beater.name.casefold() == folded
    ]
    if len(found) > 1:
        raise QuidditchError(
            N_("Both teams have a beater named {key}: use home1/away1 instead."), key=repr(key)
        )
    if not found:
        raise QuidditchError(
            N_("{key} is not a beater (name one, or use home1, home2, away1, away2)."),
            key=repr(key),
        )
    return found[0]


def resolve_targets(
    state: MatchState, targets: Mapping[str, str] | None
) -> dict[tuple[Side, int], str]:
    """GM targets as {(beater side, beater index): target name}, checked against the rules."""
    resolved: dict[tuple[Side, int], str] = {}
    for key, target in (targets or {}).items():
        side, index = _find_beater(state, key)
        beater = state.team(side).beaters[index]
        if (side, index) in resolved:
            raise QuidditchError(N_("{name} is given two targets."), name=beater.name)
        if not beater.active:
            raise QuidditchError(N_("{name} is knocked out and cannot play."), name=beater.name)
        opponents = state.team(other(side))
        if target.strip().casefold() == "keeper":
            victim = opponents.keeper
        else:
            victim = opponents.find(target)
        if victim is None:
            raise QuidditchError(
                N_("{team} has no player named {name}."), team=opponents.name, name=repr(target)
            )
        if victim.position not in (Position.CHASER, Position.KEEPER):
            if victim.position is Position.BEATER:
                raise QuidditchError(
                    N_("A beater targets an opposing chaser or the keeper, not the beater {name}."),
                    name=victim.name,
                )
            raise QuidditchError(
                N_("A beater targets an opposing chaser or the keeper, not the seeker {name}."),
                name=victim.name,
            )
        if not victim.active:
            raise QuidditchError(
                N_("{name} is knocked out and takes no further part."), name=victim.name
            )
        resolved[(side, index)] = victim.name
    return resolved


def default_target(shots: Iterable[ShotReport]) -> str | None:
    """RULES.md's Decision: the opposing chaser with the largest scoring margin (ties: first
    listed); if no opposing chaser scored, None: the beater holds back (no roll, no foul)."""
    best: ShotReport | None = None
    best_margin = 0
    for shot in shots:
        margin = shot.margin
        if margin is not None and (best is None or margin > best_margin):
            best, best_margin = shot, margin
    return None if best is None else best.chaser
