"""A Hogwarts 1990 attack exchange as its message shows it, and as its row keeps it.

Split from :mod:`bot.services.hogwarts1990._attack` (the use cases): everything an exchange
shows (the attack's roll, the dodge's defended roll, the turn it used, the Health taken) is
kept in the row's ``data``, so a restart in the middle of an exchange loses nothing.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from bot.services import secrecy
from bot.services.attack_exchange import change_data, change_of
from bot.services.hogwarts1990._rolls import Side
from bot.services.sheets import ResourceChange
from bot.storage.models import AttackExchange
from bot.text import UserText
from engine.systems import hogwarts1990 as h90
from engine.systems.hogwarts1990 import Answer


@dataclass(frozen=True, slots=True)
class Exchange:
    """An exchange as the message shows it, at whatever stage it has reached."""

    id: int | None
    attacker: UserText
    target: UserText
    side: Side
    attack: h90.Roll
    odds: h90.Odds
    dodge: tuple[str, ...]
    damage: int
    defender_id: int | None
    #: What an NPC's dodge adds (an NPC has no sheet to name attributes on).
    npc_dodge: int = 0
    #: Delaying combatants who may dodge for the target (a button each), at the attack.
    covers: tuple[UserText, ...] = ()
    answer: Answer | None = None
    #: Who dodged (the target, or the delayer for it) and what raised the difficulty.
    dodger: UserText | None = None
    raised: tuple[tuple[str, int], ...] = ()
    defended: h90.Roll | None = None
    defend_chance: float | None = None
    #: What the dodge did on the tracker ("uses up Ron's turn this round"), or why nothing.
    turn: str = ""
    #: ``turn`` is a template filled from these (translated where drawn); None: plain text
    #: (exchanges stored before).
    turn_params: dict[str, Any] | None = None
    health: ResourceChange | None = None
    secrecy: secrecy.Secrecy = secrecy.PUBLIC
    roller: str = ""  # who attacked, as Discord shows them (for the footer)
    #: The attacker's language: the exchange message's when the channel has none
    #: (bot.gateway._public_language); None for exchanges stored before languages were.
    language: str | None = None

    @property
    def hit(self) -> bool:
        return bool(self.attack.success)

    @property
    def avoided(self) -> bool:
        return self.defended is not None and not self.defended.success

    @property
    def waiting(self) -> bool:
        """The attack hit and nobody has answered yet."""
        return self.hit and self.answer is None

    @property
    def hurt(self) -> bool:
        return self.answer is not None and self.hit and not self.avoided

    @property
    def knocked_out(self) -> bool:
        return self.health is not None and h90.knocked_out(self.health.after.current)


# --------------------------------------------------------------------------- storage


def _roll_data(roll: h90.Roll) -> dict[str, Any]:
    return asdict(roll)


def _roll_of(data: dict[str, Any]) -> h90.Roll:
    values = dict(data)
    values["faces"] = tuple(int(f) for f in values["faces"])
    a, b = (int(f) for f in values["dice"])
    values["dice"] = (a, b)
    return h90.Roll(**values)


def data_of(ex: Exchange) -> dict[str, Any]:
    data: dict[str, Any] = {
        "attacker": ex.attacker.raw,
        "target": ex.target.raw,
        "side": asdict(ex.side),
        "attack": _roll_data(ex.attack),
        "odds": [ex.odds.success, ex.odds.exceptional, ex.odds.critical_failure],
        "dodge": list(ex.dodge),
        "damage": ex.damage,
        "npc_dodge": ex.npc_dodge,
        "covers": [name.raw for name in ex.covers],
        "roller": ex.roller,
    }
    if ex.language is not None:
        data["language"] = ex.language
    if ex.answer is not None:
        data["answer"] = ex.answer.value
        data["dodger"] = ex.dodger.raw if ex.dodger is not None else None
        data["raised"] = [list(term) for term in ex.raised]
        data["turn"] = ex.turn
        if ex.turn_params is not None:
            data["turn_params"] = ex.turn_params
    if ex.defended is not None:
        data["defended"] = _roll_data(ex.defended)
        data["defend_chance"] = ex.defend_chance
    if ex.health is not None:
        data["health"] = change_data(ex.health)
    return data


def exchange_of(row: AttackExchange, visibility: secrecy.Secrecy = secrecy.PUBLIC) -> Exchange:
    """The stored exchange, ready to be drawn again."""
    data = row.data
    return Exchange(
        id=row.id,
        attacker=UserText(data["attacker"]),
        target=UserText(data["target"]),
        side=Side(**data["side"]),
        attack=_roll_of(data["attack"]),
        odds=h90.Odds(*(float(v) for v in data["odds"])),
        dodge=tuple(data["dodge"]),
        damage=int(data["damage"]),
        defender_id=row.defender_id,
        npc_dodge=int(data.get("npc_dodge", 0)),
        covers=tuple(UserText(name) for name in data.get("covers", ())),
        answer=Answer(data["answer"]) if "answer" in data else None,
        dodger=UserText.of(data.get("dodger")),
        raised=tuple((str(n), int(v)) for n, v in data.get("raised", ())),
        defended=_roll_of(data["defended"]) if "defended" in data else None,
        defend_chance=data.get("defend_chance"),
        turn=str(data.get("turn", "")),
        turn_params=data.get("turn_params"),
        health=change_of(data.get("health")),
        secrecy=visibility,
        roller=str(data.get("roller", "")),
        language=data.get("language"),
    )
