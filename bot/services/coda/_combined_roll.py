"""``/coda combined`` rolled at once by the one who asks: helpers at TN − 5 in the order
given, then the leader at TN with their sum.

It exists apart from :mod:`bot.services.coda._combined`, which lets each helper's player
roll their own part and finishes the test with this module's outcome.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.actor import Actor
from bot.errors import UserError
from bot.i18n import _
from bot.services import secrecy
from bot.services.coda._roller import Roller, log_test, on_turn, ones_rule, resolve_tn
from bot.services.coda._sheets import resolve_roller
from bot.services.coda._turn import TurnSpend
from bot.storage import Database
from bot.text import UserText
from engine.dice import Dice
from engine.systems import coda
from engine.systems.coda import parse_conditions


@dataclass(frozen=True, slots=True)
class CombinedOutcome:
    result: coda.CombinedResult
    leader: Roller
    helpers: tuple[Roller, ...]
    chance: float
    helper_chances: tuple[float, ...]
    difficulty: str | None
    label: UserText | None
    secrecy: secrecy.Secrecy
    #: The leader's own chance, with the sum the helpers actually rolled (``chance`` is the
    #: whole test's, before anyone rolled).
    leader_chance: float = 0.0
    #: Who rolled (the footer), when other players rolled their characters' help.
    rollers: str | None = None
    #: The action the leader's test spent on its own turn (RULES.md §1), if any.
    turn: TurnSpend | None = None


def split_helpers(text: str) -> list[str]:
    items = [item.strip() for item in text.replace(";", ",").split(",") if item.strip()]
    if not items:
        raise UserError(_("A combined test needs at least one helper (e.g. `+2, +1` or names)."))
    if len(items) > coda.MAX_HELPERS:
        raise UserError(_("A combined test has at most {most} helpers.", most=coda.MAX_HELPERS))
    return items


async def roll_combined(
    db: Database,
    dice: Dice,
    actor: Actor,
    *,
    leader: str,
    helpers: str,
    tn: int | None = None,
    difficulty: str | None = None,
    using: str | None = None,
    untrained: str | None = None,
    conditions: str | None = None,
    label: str | None = None,
    secret: bool = False,
) -> CombinedOutcome:
    """Helpers test at TN − 5 in the order given, then the leader at TN with their sum.

    Everyone rolls the skill ``using``; whoever lacks it rolls ``untrained`` − 2.
    """
    base_tn, difficulty_label = resolve_tn(tn, difficulty)
    helper_texts = split_helpers(helpers)
    chosen = parse_conditions(conditions)
    async with db.unit_of_work() as session:
        lead = await resolve_roller(
            session, actor, leader, using, who=_("The leader"), untrained=untrained
        )
        helping = tuple(
            [
                await resolve_roller(
                    session,
                    actor,
                    text,
                    using,
                    who=_("Helper {number}", number=i),
                    untrained=untrained,
                )
                for i, text in enumerate(helper_texts, start=1)
            ]
        )
        # The leader's test on its own turn is one of its actions (helpers' are not theirs).
        lead, turn = await on_turn(session, actor, lead)
        visibility = await secrecy.decide(session, actor.channel_id, secret)
        ones = await ones_rule(session, actor.channel_id)
        kwargs: dict[str, Any] = {
            "tn": base_tn,
            "helpers": [h.modifier for h in helping],
            "leader_modifier": lead.modifier,
            "ones": ones,
            "conditions": chosen,
        }
        chance = coda.combined_chance(**kwargs)
        helper_chances = coda.helper_chances(
            tn=base_tn, helpers=kwargs["helpers"], ones=ones, conditions=chosen
        )
        result = coda.combined(dice, **kwargs)
        leader_chance = coda.chance(
            modifier=lead.modifier + result.bonus, tn=base_tn, ones=ones, conditions=chosen
        )
        for helper, test in zip(helping, result.helpers, strict=True):
            log_test(
                session,
                actor,
                test,
                what=f"combined helper {helper.name}",
                visibility=visibility,
                label=label,
            )
        log_test(
            session,
            actor,
            result.leader,
            what=f"combined leader {lead.name} (helpers {result.bonus:+d})",
            visibility=visibility,
            label=label,
        )
    return CombinedOutcome(
        result=result,
        leader=lead,
        helpers=helping,
        chance=chance,
        helper_chances=helper_chances,
        difficulty=difficulty_label,
        label=UserText.of(label),
        secrecy=visibility,
        leader_chance=leader_chance,
        turn=turn,
    )
