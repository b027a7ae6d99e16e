"""``/coda combined`` with helpers naming other players' characters: each helps in person.

A combined test (RULES.md §1): every helper tests at TN − 5 in the order given, then the
leader tests at TN with the sum of their contributions. A GM rolls everyone at once
(:func:`bot.services.coda.roll_combined`). A player may roll only their own characters:
when a helper is another player's character (used in this channel), the helpers the player
may roll are rolled now, and that character's player is asked to roll its help from their
own sheet (:mod:`bot.services.side_requests`, **Roll my part**; one press rolls every
helper of theirs). When the last help is in, the helpers' stored dice are replayed in the
order given through the engine's own :func:`engine.systems.coda.combined`, and the leader's
dice, last by the rules, are drawn then.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bot.actor import Actor
from bot.errors import UserError
from bot.i18n import N_, _
from bot.services import secrecy, side_requests
from bot.services import sheets as characters
from bot.services.coda._combined_roll import CombinedOutcome, roll_combined, split_helpers
from bot.services.coda._roller import SYSTEM, Roller, log_test, on_turn, ones_rule, resolve_tn
from bot.services.coda._sheets import character_roller, parse_modifier, resolve_roller
from bot.services.permissions import is_gm
from bot.services.side_requests import PartsRequest, Waiting
from bot.storage import Database
from bot.storage.models import Character
from bot.storage.repositories import rolls as roll_log
from bot.text import UserText, signed
from engine.dice import Dice, RecordingDice, ReplayDice, ScriptedDice
from engine.systems import coda
from engine.systems.coda import Part, parse_conditions

#: The request kind this module answers (the button's custom id carries it).
COMBINED_KIND = "coda.combined"


@dataclass(frozen=True, slots=True)
class _Options:
    """The combined test as asked, kept with the request until every help is in."""

    tn: int | None
    difficulty: str | None
    using: str | None
    untrained: str | None
    conditions: str | None
    label: str | None


async def combined(
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
    now: datetime,
) -> CombinedOutcome | PartsRequest:
    """``/coda combined``: rolled at once, or, when a player's helpers name other players'
    characters, the helpers the player may roll now and a request to those players."""
    texts = split_helpers(helpers)
    options = _Options(tn, difficulty, using, untrained, conditions, label)
    async with db.unit_of_work() as session:
        if not await is_gm(session, actor):
            others = [
                await characters.others_character(session, actor, text, system=SYSTEM)
                if parse_modifier(text) is None
                else None
                for text in texts
            ]
            if any(other is not None for other in others):
                return await _ask(session, dice, actor, leader, texts, others, options, secret, now)
    return await roll_combined(
        db,
        dice,
        actor,
        leader=leader,
        helpers=helpers,
        tn=tn,
        difficulty=difficulty,
        using=using,
        untrained=untrained,
        conditions=conditions,
        label=label,
        secret=secret,
    )


def _roller_data(roller: Roller) -> dict[str, Any]:
    return {
        "parts": [[p.label, p.value] for p in roller.parts],
        "character": roller.character,
        "subject": roller.subject,
        "npc": roller.npc,
    }


def _roller(data: dict[str, Any]) -> Roller:
    return Roller(
        parts=tuple(Part(label, value) for label, value in data["parts"]),
        character=data["character"],
        subject=data["subject"],
        npc=data["npc"],
    )


async def _ask(
    session: AsyncSession,
    dice: Dice,
    actor: Actor,
    leader: str,
    texts: list[str],
    others: list[Character | None],
    options: _Options,
    secret: bool,
    now: datetime,
) -> PartsRequest:
    """Check the whole test, roll the helpers the player may roll (in the order given),
    store them and ask the other characters' players. Their sheets are not read here."""
    side_requests.refuse_secret(secret, _("the helpers asked"))
    resolve_tn(options.tn, options.difficulty)
    parse_conditions(options.conditions)
    if not options.using or not options.using.strip():
        raise UserError(
            _(
                "Say what the helpers roll (`skill`): a skill, an attribute or a reaction. The "
                "other players' characters then roll it from their own sheets."
            )
        )
    named = [(o.owner_id, o.name.casefold()) for o in others if o is not None]
    if len(set(named)) != len(named):
        raise UserError(_("Each character can help only once."))
    asked = side_requests.check_asked([owner for owner, _ in named], actor)
    lead = await resolve_roller(
        session, actor, leader, options.using, who=_("The leader"), untrained=options.untrained
    )
    # Spent now, on the leader's turn; its penalty is kept among the leader's stored terms.
    lead, _turn = await on_turn(session, actor, lead)
    helpers: list[dict[str, Any]] = []
    for i, (text, other) in enumerate(zip(texts, others, strict=True), start=1):
        if other is not None:
            helpers.append({"user_id": other.owner_id, "character": other.name})
            continue
        roller = await resolve_roller(
            session,
            actor,
            text,
            options.using,
            who=_("Helper {number}", number=i),
            untrained=options.untrained,
        )
        recording = RecordingDice(dice)
        coda.side_faces(recording)
        helpers.append({"roller": _roller_data(roller), "faces": recording.faces})
    waiting = ", ".join(f"<@{user}>" for user in asked)
    rolled = [h for h in helpers if "roller" in h]
    roll_log.add(
        session,
        actor,
        system=SYSTEM,
        input=f"combined leader {lead.name}, helpers "
        + ", ".join(
            _roller(h["roller"]).name if "roller" in h else f"{h['character']} (its player rolls)"
            for h in helpers
        ),
        faces=[list(h["faces"]) for h in rolled],
        outcome=f"waiting for {waiting}",
        secret=False,
        label=options.label,
    )
    return await side_requests.create_parts(
        session,
        actor,
        kind=COMBINED_KIND,
        asked=asked,
        side={"leader": _roller_data(lead), "helpers": helpers},
        options={
            "tn": options.tn,
            "difficulty": options.difficulty,
            "using": options.using.strip(),
            "untrained": options.untrained,
            "conditions": options.conditions,
            "ones": await ones_rule(session, actor.channel_id),
            "label": options.label,
            "challenger": actor.display_name,
        },
        announce={
            "roller": lead.character or actor.display_name,
            # stored as a template: drawn in the table's language (render.side_requests)
            "what": N_("help with a combined test led by {leader}"),
            "what_params": {"leader": lead.name},
            "rolls": options.using.strip(),
            "label": options.label,
        },
        now=now,
    )


def _helpers(request: Any) -> list[dict[str, Any]]:
    """Every helper in the order given: the roller's stored ones and the help in so far
    (a player's press rolls each of their characters' help, in order)."""
    answers = side_requests.answers_of(request)
    taken: dict[int, int] = {}
    helpers = []
    for helper in request.challenger_side["helpers"]:
        if "user_id" in helper and helper["user_id"] in answers:
            index = taken.get(helper["user_id"], 0)
            taken[helper["user_id"]] = index + 1
            helper = answers[helper["user_id"]]["helpers"][index]
        helpers.append(helper)
    return helpers


async def roll_their_part(
    db: Database, dice: Dice, actor: Actor, request_id: int, *, now: datetime
) -> CombinedOutcome | Waiting:
    """A helper's player rolls their characters' help from their own sheets (each at
    TN − 5, in the order named); the last help completes the test."""
    async with db.unit_of_work() as session:
        request = await side_requests.claim_part(
            session, actor, request_id, kind=COMBINED_KIND, now=now
        )
        options = request.options
        mine = []
        for i, helper in enumerate(request.challenger_side["helpers"], start=1):
            if helper.get("user_id") != actor.user_id:
                continue
            roller = await character_roller(
                session,
                actor,
                helper["character"],
                options["using"],
                who=_("Helper {number}", number=i),
                untrained=options["untrained"],
            )
            recording = RecordingDice(dice)
            coda.side_faces(recording)
            mine.append({"roller": _roller_data(roller), "faces": recording.faces})
        part = {
            "name": ", ".join(helper["character"] for helper in mine_of(request, actor)),
            "shown": "; ".join(_shown(h) for h in mine),
            "by": actor.display_name,
            "helpers": mine,
        }
        if not side_requests.answer(request, actor, part):
            for helper in mine:
                log_test(
                    session,
                    actor,
                    _helper_test(helper, options),
                    what=f"combined helper {_roller(helper['roller']).name} (waiting for the "  # type: ignore[arg-type]
                    "other helpers)",
                    visibility=secrecy.PUBLIC,
                    label=options["label"],
                )
            return Waiting(side_requests.parts_request(request))
        return await _complete(session, dice, actor, request)


def mine_of(request: Any, actor: Actor) -> list[dict[str, Any]]:
    """The helpers of the request that are the presser's characters, in order."""
    return [h for h in request.challenger_side["helpers"] if h.get("user_id") == actor.user_id]


def _shown(helper: dict[str, Any]) -> str:
    """What the request's line says of one help: "2d6 (7) +3" (no user text)."""
    faces = helper["faces"]
    return f"{len(faces)}d6 ({sum(faces)}) {signed(_roller(helper['roller']).modifier)}"


def _helper_test(helper: dict[str, Any], options: dict[str, Any]) -> coda.TestResult:
    """A helper's own test at TN − 5, read from the faces it rolled (for the roll log)."""
    tn, _ = resolve_tn(options["tn"], options["difficulty"])
    return coda.test(
        ScriptedDice(helper["faces"]),  # exactly its faces: nothing more is drawn
        modifier=_roller(helper["roller"]).modifier,
        tn=tn - coda.COMBINED_HELPER_TN_SHIFT,
        ones=options["ones"],
        conditions=parse_conditions(options["conditions"]),
    )


async def _complete(
    session: AsyncSession, dice: Dice, actor: Actor, request: Any
) -> CombinedOutcome:
    """Every help is in: the engine's combined test on the helpers' replayed dice and the
    leader's dice drawn now, logged as a GM's combined test is."""
    options = request.options
    lead = _roller(request.challenger_side["leader"])
    helpers = _helpers(request)
    helping = tuple(_roller(h["roller"]) for h in helpers)
    base_tn, difficulty_label = resolve_tn(options["tn"], options["difficulty"])
    chosen = parse_conditions(options["conditions"])
    kwargs: dict[str, Any] = {
        "tn": base_tn,
        "helpers": [h.modifier for h in helping],
        "leader_modifier": lead.modifier,
        "ones": options["ones"],
        "conditions": chosen,
    }
    faces = [face for h in helpers for face in h["faces"]]
    result = coda.combined(ReplayDice(faces, then=dice), **kwargs)
    for helper, test in zip(helping, result.helpers, strict=True):
        log_test(
            session,
            actor,
            test,
            what=f"combined helper {helper.name}",
            visibility=secrecy.PUBLIC,
            label=options["label"],
        )
    log_test(
        session,
        actor,
        result.leader,
        what=f"combined leader {lead.name} (helpers {result.bonus:+d})",
        visibility=secrecy.PUBLIC,
        label=options["label"],
    )
    answers = side_requests.answers_of(request)
    rollers = [options["challenger"], *(answers[int(u)]["by"] for u in options["asked"])]
    return CombinedOutcome(
        result=result,
        leader=lead,
        helpers=helping,
        chance=coda.combined_chance(**kwargs),
        helper_chances=coda.helper_chances(
            tn=base_tn, helpers=kwargs["helpers"], ones=options["ones"], conditions=chosen
        ),
        difficulty=difficulty_label,
        label=UserText.of(options["label"]),
        secrecy=secrecy.PUBLIC,
        leader_chance=coda.chance(
            modifier=lead.modifier + result.bonus,
            tn=base_tn,
            ones=options["ones"],
            conditions=chosen,
        ),
        rollers=side_requests.names_and(rollers),
    )
