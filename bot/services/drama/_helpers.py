"""``/drama test`` with ``helpers`` naming other players: each rolls their own part.

Working together (RULES.md §5): each helper rolls their own pools with the full resistance
and the nets add up. A GM rolls every helper at once (:func:`bot.services.drama.test`). A
player may roll only their own character: when their helpers mention other players (without
Base dice for them), the roller's test and the helpers they may roll are rolled now, in
the order given, and each mentioned player is asked to roll their part from their own
active character and penalty dice (:mod:`bot.services.side_requests`, **Roll my part**).
The last part completes the test: every stored face replayed in the rules' order (the
roller, then the helpers as given) through the engine's own
:func:`engine.systems.drama.together`.

What changes whose character: the roller's drama-die 1s go into the roller's pool when they
ask (as in an opposed challenge); helpers roll no drama dice, so a helper's part changes
nothing of theirs; a "Yes, but…" is offered to the roller when the test completes.
"""

from __future__ import annotations

from dataclasses import asdict, replace
from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bot.actor import Actor
from bot.errors import PermissionDenied, UserError
from bot.i18n import N_, _
from bot.services import offload, secrecy, side_requests
from bot.services import penalty as penalty_service
from bot.services.drama import _rolls as drama_service
from bot.services.drama._rolls import (
    SYSTEM,
    HelperRoll,
    PoolRequest,
    RollOutcome,
    build_roller,
    faces_of,
    gain_penalty,
    helper_of,
    helper_request,
    helper_specs,
    pools_from,
    pools_of,
    pools_text,
)
from bot.services.permissions import is_gm
from bot.services.rps import PartySpec
from bot.services.sheets import active_character
from bot.services.side_requests import PartsRequest, Waiting
from bot.storage import Database
from bot.storage.repositories import rolls as roll_log
from bot.text import UserText
from engine.dice import Dice, RecordingDice, ReplayDice
from engine.penalty import PenaltyChange
from engine.systems import drama
from engine.systems.drama import Outcome, Pools

#: The request kind this module answers (the button's custom id carries it).
HELPERS_KIND = "drama.helpers"
NAME_LIMIT = 100


def _others(actor: Actor, specs: list[PartySpec]) -> list[int]:
    return [s.user_id for s in specs if s.user_id not in (None, actor.user_id) and s.base is None]


async def test_together(
    db: Database,
    dice: Dice,
    actor: Actor,
    request: PoolRequest,
    *,
    now: datetime,
    helpers: str | None = None,
    label: str | None = None,
    secret: bool = False,
    character: str | None = None,
) -> RollOutcome | PartsRequest:
    """``/drama test``: rolled at once (:func:`bot.services.drama.test`), or, when a
    player's helpers mention other players, the roller's part now and a request to them."""
    specs = helper_specs(helpers) if helpers else []
    if _others(actor, specs):
        async with db.unit_of_work() as session:
            if not await is_gm(session, actor):
                return await _ask(
                    session, dice, actor, request, specs, character, label, secret, now
                )
    return await drama_service.test(
        db,
        dice,
        actor,
        request,
        now=now,
        helpers=helpers,
        label=label,
        secret=secret,
        character=character,
    )


async def _ask(
    session: AsyncSession,
    dice: Dice,
    actor: Actor,
    request: PoolRequest,
    specs: list[PartySpec],
    character: str | None,
    label: str | None,
    secret: bool,
    now: datetime,
) -> PartsRequest:
    """Roll the roller's test and the helpers they may roll, store them, and ask each
    mentioned player for their part. Nothing of those players' sheets is read here."""
    side_requests.refuse_secret(secret, _("the helpers asked"))
    if request.risk:
        raise PermissionDenied(
            _("Only the channel's GM can turn penalty dice into a risk (Rd → Dd for one test).")
        )
    if not request.from_sheet:
        raise UserError(
            _(
                "Say which `attribute` or `skill` the helpers you mention roll (each rolls it "
                "from their own sheet), or give their Base dice, like `@bob:4`."
            )
        )
    mentioned = [s.user_id for s in specs if s.user_id is not None and s.base is None]
    if len(set(mentioned)) != len(mentioned):
        raise UserError(_("Each helper can be named only once."))
    if actor.user_id in mentioned:
        raise UserError(_("You roll your own test already: helpers are the others."))
    asked = side_requests.check_asked(mentioned, actor)
    roller, _pool = await build_roller(session, actor, request, character=character)
    team: list[dict[str, Any]] = []
    for spec in specs:
        if spec.user_id in asked:
            team.append({"user_id": spec.user_id})
            continue
        helper = await helper_of(session, actor, request, spec)
        team.append({"name": helper.name, "pools": asdict(helper.pools.validated())})
    known = [h["name"].casefold() for h in team if "name" in h]
    if len(set(known)) != len(known):
        raise UserError(_("Each helper can be named only once."))
    # The roller first, then each helper they may roll, in the order given (RULES.md §5).
    recording = RecordingDice(dice)
    rolled = drama.roll_pools(recording, roller.pools.validated(), criticals=roller.criticals)
    gained = gain_penalty(session, actor, roller.pool, rolled)
    for member in team:
        if "name" in member:
            helping = RecordingDice(dice)
            result = drama.roll_pools(
                helping, pools_of(member["pools"]), criticals=roller.criticals
            )
            member |= {"faces": helping.faces, "net": result.net}
    me = roller.character or actor.display_name
    waiting = ", ".join(f"<@{user}>" for user in asked)
    roll_log.add(
        session,
        actor,
        system=SYSTEM,
        input=f"{me}: test {pools_text(roller.pools)}"
        + "".join(
            f" + {h['name']} {pools_text(pools_of(h['pools']))}"
            if "name" in h
            else f" + <@{h['user_id']}> (their player rolls)"
            for h in team
        ),
        faces=[faces_of(rolled)],
        outcome=f"net {rolled.net} · waiting for {waiting}",
        secret=False,
        label=label,
    )
    sheet = roller.sheet
    return await side_requests.create_parts(
        session,
        actor,
        kind=HELPERS_KIND,
        asked=asked,
        side={
            "faces": recording.faces,
            "pools": asdict(roller.pools),
            "character": roller.character,
            "character_id": sheet.id if sheet is not None else None,
            "penalty_dice": roller.penalty_dice,
            "gained": asdict(gained) if gained is not None else None,
            "criticals": roller.criticals,
            "team": team,
        },
        options={
            "request": asdict(helper_request(request)),
            "label": label,
            "challenger": actor.display_name,
        },
        announce={
            "roller": me,
            "what": N_("help with a test worked together"),
            "what_params": {},
            **_rolls(request),
            "label": label,
        },
        now=now,
    )


def _rolls(request: PoolRequest) -> dict[str, Any]:
    """What the helpers roll, as the request's line says it: a template and its values
    (translated where the line is drawn)."""
    if request.skill and request.attribute:
        rolls = N_("skill {skill} with {attribute}")
    elif request.skill:
        rolls = N_("skill {skill}")
    elif request.backgrounds is not None:
        rolls = N_("{attribute} + {backgrounds} backgrounds")
    else:
        rolls = N_("attribute {attribute}")
    params = {
        "skill": request.skill,
        "attribute": request.attribute,
        "backgrounds": request.backgrounds,
    }
    return {"rolls": rolls, "rolls_params": {k: v for k, v in params.items() if v is not None}}


def _team(request: Any) -> list[dict[str, Any]]:
    """Every helper in the order given: the roller's stored ones and the answers so far."""
    answers = side_requests.answers_of(request)
    return [
        answers.get(h["user_id"], h) if "user_id" in h else h
        for h in request.challenger_side["team"]
    ]


async def roll_their_part(
    db: Database, dice: Dice, actor: Actor, request_id: int, *, now: datetime
) -> RollOutcome | Waiting:
    """A mentioned helper rolls their part: their active character's pools from their own
    sheet and penalty dice, their dice now. The last part completes the test."""
    async with db.unit_of_work() as session:
        request = await side_requests.claim_part(
            session, actor, request_id, kind=HELPERS_KIND, now=now
        )
        side, options = request.challenger_side, request.options
        sheet = await active_character(session, actor, system=SYSTEM)
        penalty_dice = await penalty_service.current_dice(session, sheet.id)
        pools = pools_from(PoolRequest(**options["request"]), sheet, penalty_dice=penalty_dice)
        pools = pools.validated()
        taken = {h["name"].casefold() for h in _team(request) if "name" in h}
        if side["character"]:
            taken.add(side["character"].casefold())
        name = side_requests.distinct_name(sheet.name, taken, actor.display_name, limit=NAME_LIMIT)
        criticals = bool(side["criticals"])
        recording = RecordingDice(dice)
        result = drama.roll_pools(recording, pools, criticals=criticals)
        part = {
            "name": name,
            "pools": asdict(pools),
            "faces": recording.faces,
            "net": result.net,
            "by": actor.display_name,
            "shown": N_("({pools}) net {net}"),
            "shown_params": {"pools": pools_text(pools), "net": result.net},
        }
        if not side_requests.answer(request, actor, part):
            roll_log.add(
                session,
                actor,
                system=SYSTEM,
                input=f"{name}: helping test {pools_text(pools)}",
                faces=faces_of(result),
                outcome=f"net {result.net} · waiting for the other helpers",
                secret=False,
                label=options["label"],
            )
            return Waiting(side_requests.parts_request(request))
        outcome, everyone = await _complete(session, dice, request, actor, now)
    # The odds after the commit: the request's row lock is not held while they are counted.
    chances = await offload.odds(
        drama.together_chances,
        actor=actor,
        heavy=offload.drama_heavy(*everyone),
        pools=everyone,
        criticals=bool(outcome.result.criticals),
    )
    return replace(outcome, chances=chances)


async def _complete(
    session: AsyncSession, dice: Dice, request: Any, actor: Actor, now: datetime
) -> tuple[RollOutcome, list[Pools]]:
    """Every part is in: the engine's working together on the replayed faces, logged, and
    a "Yes, but…" offered to the roller."""
    side, options = request.challenger_side, request.options
    team = _team(request)
    roller_pools = pools_of(side["pools"])
    everyone = [roller_pools, *(pools_of(h["pools"]) for h in team)]
    faces = [*side["faces"], *(face for h in team for face in h["faces"])]
    criticals = bool(side["criticals"])
    together = drama.together(ReplayDice(faces, then=dice), pools=everyone, criticals=criticals)
    offer_id = None
    if together.outcome is Outcome.YES_BUT:
        offer_id = await drama_service.offer_price(
            session,
            side_requests.roller_actor(request),
            side["character_id"],
            side["character"],
            now,
        )
    me = side["character"] or options["challenger"]
    roll_log.add(
        session,
        actor,
        system=SYSTEM,
        input=f"{me}: test {pools_text(roller_pools)}"
        + "".join(f" + {h['name']} {pools_text(pools_of(h['pools']))}" for h in team),
        faces=[faces_of(t) for t in together.tests],
        outcome=f"net {together.net}: {together.outcome.label}",
        secret=False,
        label=options["label"],
    )
    gained = side["gained"]
    rollers = [options["challenger"], *(h["by"] for h in team if "by" in h)]
    outcome = RollOutcome(
        result=together.tests[0],
        pools=roller_pools,
        net=together.net,
        outcome=together.outcome,
        chances=None,  # counted after the commit
        character=side["character"],
        penalty_dice=side["penalty_dice"],
        gained=PenaltyChange(**gained) if gained is not None else None,
        offer_id=offer_id,
        label=UserText.of(options["label"]),
        secrecy=secrecy.PUBLIC,
        helpers=tuple(
            HelperRoll(h["name"], pools_of(h["pools"]), t)
            for h, t in zip(team, together.tests[1:], strict=True)
        ),
        rollers=side_requests.names_and(rollers),
    )
    return outcome, everyone
