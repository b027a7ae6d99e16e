"""``/rps resisted``: every party checks, the highest SL wins, ties roll off.

Parties are names with a Base, or mentioned players rolling their active character's
attribute or skill. A GM rolls every party at once. A player may roll only their own
character: when they mention other players (without a Base for them), the parties they
can roll are rolled now, in the order given, and each mentioned player is asked to roll
their own part from their own sheet (:mod:`bot.services.side_requests`, **Roll my part**).
When the last part is in, the stored first-round dice are replayed in the parties' order
through the engine's own :func:`engine.systems.rps.resisted` (RULES.md §4: "parties in the
order given, then each roll-off round likewise"); roll-offs, which read no sheet, are
drawn then.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bot.actor import Actor
from bot.errors import PermissionDenied, UserError
from bot.i18n import N_, _
from bot.services import offload, secrecy, side_requests
from bot.services.permissions import is_gm
from bot.services.rps._rolls import (
    SYSTEM,
    Base,
    BaseRequest,
    PartySpec,
    base_from,
    parse_parties,
    party_character,
)
from bot.services.sheets import active_character
from bot.services.side_requests import PartsRequest, Waiting
from bot.storage import Database
from bot.storage.repositories import rolls as roll_log
from bot.text import UserText, number
from engine.dice import Dice, RecordingDice, ReplayDice
from engine.systems import rps
from engine.systems.rps import ResistedResult

#: The request kind this module answers (the button's custom id carries it).
KIND = "rps.resisted"


@dataclass(frozen=True, slots=True)
class ResistedOutcome:
    result: ResistedResult
    sources: dict[str, str]
    label: UserText | None
    secrecy: secrecy.Secrecy
    # None when there are too many parties to count every roll-off exactly.
    chances: rps.ResistedChances | None = None
    #: Who rolled (the footer), when players rolled their own parts.
    rollers: str | None = None


async def resisted(
    db: Database,
    dice: Dice,
    actor: Actor,
    *,
    parties: str,
    attribute: str | None = None,
    skill: str | None = None,
    label: str | None = None,
    secret: bool = False,
    now: datetime,
) -> ResistedOutcome | PartsRequest:
    """Every party checks; mentioned players roll their active RPS character's attribute or
    skill (or the Base given after their mention); other players' parts are asked for."""
    specs = parse_parties(parties)
    request = BaseRequest(attribute=attribute, skill=skill)
    others = [s.user_id for s in specs if s.user_id not in (None, actor.user_id) and s.base is None]
    named: list[tuple[str, int]] = []
    sources: dict[str, str] = {}
    async with db.unit_of_work() as session:
        if others and not await is_gm(session, actor):
            return await _ask(session, dice, actor, specs, request, label, secret, now)
        for spec in specs:
            name, base = await _party(session, actor, spec, request)
            named.append((name, base.value))
            sources[name] = " + ".join(base.parts)
        result = rps.resisted(dice, parties=named)
        visibility = await secrecy.decide(session, actor.channel_id, secret)
        _log(session, actor, named, result, visibility.secret, label)
    chances = await offload.odds(
        rps.resisted_chances, actor=actor, heavy=offload.rps_heavy(named), parties=named
    )
    return ResistedOutcome(result, sources, UserText.of(label), visibility, chances)


def _log(
    session: AsyncSession,
    actor: Actor,
    named: list[tuple[str, int]],
    result: ResistedResult,
    secret: bool,
    label: str | None,
) -> None:
    roll_log.add(
        session,
        actor,
        system=SYSTEM,
        input="resisted " + ", ".join(f"{n}:{b}" for n, b in named),
        faces=[[p.check.faces for p in round_] for round_ in result.rounds],
        outcome=(
            f"{result.winner} wins, SL {number(result.success_level)}"  # type: ignore[arg-type]
            if result.winner
            else f"tie between {', '.join(result.tied)}"
        ),
        secret=secret,
        label=label,
    )


async def _party(
    session: AsyncSession, actor: Actor, spec: PartySpec, request: BaseRequest
) -> tuple[str, Base]:
    """A party as the caller may roll it: a name with its Base, a number for a mentioned
    player (anyone may give one; it reads nothing of their sheet), or a mentioned player's
    character from its sheet (the caller's own; another player's only for a GM)."""
    if spec.user_id is None:
        assert spec.name is not None and spec.base is not None
        return spec.name, Base(spec.base, (f"Base {spec.base}",))
    try:
        sheet = await party_character(session, actor, spec.user_id, system=SYSTEM)
    except PermissionDenied:
        if spec.base is None:
            raise
        sheet = None  # a number for another player's side: their sheet stays unread
    if sheet is None:
        if spec.base is not None:
            return f"<@{spec.user_id}>", Base(spec.base, (f"Base {spec.base}",))
        raise UserError(
            _(
                "{player} has no active RPS character here to roll with: give their Base "
                "instead, like `{player}:12`.",
                player=f"<@{spec.user_id}>",
            )
        )
    if spec.base is not None:
        return sheet.name, Base(spec.base, (f"Base {spec.base}",), sheet.name)
    if not request.from_sheet:
        raise UserError(
            _(
                "Say which `attribute` or `skill` {player} rolls, or give their Base, "
                "like `{player}:12`.",
                player=f"<@{spec.user_id}>",
            )
        )
    return sheet.name, base_from(request, sheet)


# --- other players' parts -------------------------------------------------------------------


async def _ask(
    session: AsyncSession,
    dice: Dice,
    actor: Actor,
    specs: list[PartySpec],
    request: BaseRequest,
    label: str | None,
    secret: bool,
    now: datetime,
) -> PartsRequest:
    """Roll the parties the caller may roll (in the order given), store them, and ask each
    mentioned player for their part. Nothing of their sheets is read here."""
    side_requests.refuse_secret(secret, _("the players asked"))
    if not request.from_sheet:
        raise UserError(
            _(
                "Say which `attribute` or `skill` the players you mention roll (each rolls it "
                "from their own sheet), or give their Base, like `@bob:12`."
            )
        )
    asked = [s.user_id for s in specs if s.user_id is not None and s.base is None]
    if len(set(asked)) != len(asked):
        raise UserError(_("Each player can be named only once; each rolls once per round."))
    asked_others = side_requests.check_asked(
        [user for user in asked if user != actor.user_id], actor
    )
    parties: list[dict[str, Any]] = []
    for spec in specs:
        if spec.user_id in asked_others:
            parties.append({"user_id": spec.user_id})
            continue
        name, base = await _party(session, actor, spec, request)
        party = {"name": name, "base": base.value, "source": " + ".join(base.parts)}
        parties.append(party | ({"own": True} if spec.user_id == actor.user_id else {}))
    # Every party as the engine will check it (count, names, Bases), a placeholder for each
    # part still to come, before any die is drawn.
    rps.check_parties(
        [(p["name"], p["base"]) if "name" in p else (f"<@{p['user_id']}>", 0) for p in parties]
    )
    rolled = []
    for party in parties:
        if "name" in party:
            recording = RecordingDice(dice)
            check = rps.check(recording, base=party["base"])  # type: ignore[arg-type]
            party["faces"] = recording.faces
            rolled.append((party, check))
    waiting = ", ".join(f"<@{user}>" for user in asked_others)
    roll_log.add(
        session,
        actor,
        system=SYSTEM,
        input="resisted "
        + ", ".join(
            f"{p['name']}:{p['base']}" if "name" in p else f"<@{p['user_id']}> (their player rolls)"
            for p in parties
        ),
        faces=[list(party["faces"]) for party, _ in rolled],  # type: ignore[call-overload]
        outcome=", ".join(f"{p['name']} SL {number(c.success_level)}" for p, c in rolled)
        + f" · waiting for {waiting}",
        secret=False,
        label=label,
    )
    own = next((p["name"] for p in parties if p.get("own")), None)
    known = [p["name"] for p in parties if "name" in p]
    return await side_requests.create_parts(
        session,
        actor,
        kind=KIND,
        asked=asked_others,
        side={"parties": parties},
        options={
            "attribute": request.attribute,
            "skill": request.skill,
            "label": label,
            "challenger": actor.display_name,
        },
        announce={
            "roller": own or actor.display_name,
            "what": N_("a resisted action with {names}") if known else N_("a resisted action"),
            "what_params": {"names": ", ".join(known)} if known else {},
            **_rolls(request),
            "label": label,
        },
        now=now,
    )


def _rolls(request: BaseRequest) -> dict[str, Any]:
    """What the players asked roll, as the request's line says it: a template and its
    values (translated where the line is drawn)."""
    if request.skill and request.attribute:
        rolls = N_("skill {skill} with {attribute}")
    elif request.skill:
        rolls = N_("skill {skill}")
    else:
        rolls = "2 × {attribute}"
    params = {"skill": request.skill, "attribute": request.attribute}
    return {"rolls": rolls, "rolls_params": {k: v for k, v in params.items() if v is not None}}


async def roll_their_part(
    db: Database, dice: Dice, actor: Actor, request_id: int, *, now: datetime
) -> ResistedOutcome | Waiting:
    """A mentioned player rolls their part: their active character's Base from their own
    sheet, their first-round check now. The last part completes the action: every stored
    face replayed in the parties' order through the engine's resisted function."""
    async with db.unit_of_work() as session:
        request = await side_requests.claim_part(session, actor, request_id, kind=KIND, now=now)
        options = request.options
        sheet = await active_character(session, actor, system=SYSTEM)
        base = base_from(BaseRequest(attribute=options["attribute"], skill=options["skill"]), sheet)
        parties = _parties(request)
        taken = {p["name"].casefold() for p in parties if "name" in p}
        name = side_requests.distinct_name(
            sheet.name, taken, actor.display_name, limit=rps.MAX_NAME_LENGTH
        )
        recording = RecordingDice(dice)
        check = rps.check(recording, base=base.value)
        part = {
            "name": name,
            "base": base.value,
            "source": " + ".join(base.parts),
            "faces": recording.faces,
            "by": actor.display_name,
            "shown": N_("(Base {base}) SL {level}"),
            "shown_params": {"base": base.value, "level": number(check.success_level)},
        }
        if not side_requests.answer(request, actor, part):
            roll_log.add(
                session,
                actor,
                system=SYSTEM,
                input=f"{name}: resisted part Base {base.value} ({part['source']})",
                faces=list(check.faces),
                outcome=f"SL {number(check.success_level)} · waiting for the other parts",
                secret=False,
                label=options["label"],
            )
            return Waiting(side_requests.parts_request(request))
        parties = _parties(request)
        named = [(p["name"], p["base"]) for p in parties]
        faces = [face for p in parties for face in p["faces"]]
        result = rps.resisted(ReplayDice(faces, then=dice), parties=named)
        _log(session, actor, named, result, False, options["label"])
        rollers = [options["challenger"], *(p["by"] for p in parties if "by" in p)]
    chances = await offload.odds(
        rps.resisted_chances, actor=actor, heavy=offload.rps_heavy(named), parties=named
    )
    return ResistedOutcome(
        result,
        {p["name"]: p["source"] for p in parties},
        UserText.of(options["label"]),
        secrecy.PUBLIC,
        chances,
        rollers=side_requests.names_and(rollers),
    )


def _parties(request: Any) -> list[dict[str, Any]]:
    """Every party in the order given: the roller's stored ones and the answers so far."""
    answers = side_requests.answers_of(request)
    return [
        answers.get(p["user_id"], p) if "user_id" in p else p
        for p in request.challenger_side["parties"]
    ]
