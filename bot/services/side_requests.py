""" "Roll your side": a player's opposed roll against another player's character.

DESIGN.md: no player rolls or reads another player's character. So when a player names
another player's character on the other side of an opposed roll, the challenger's side is
rolled and stored (:class:`~bot.storage.models.SideRequest`), and the other player gets a
button that rolls their side from their own sheet; the result appears when both have
rolled. A GM still runs both sides at once. Each system's service (``coda_challenge``, …)
builds the sides; this module keeps the request's life: who may answer, once, in time.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bot.actor import Actor
from bot.errors import PermissionDenied, UserError
from bot.i18n import _
from bot.storage.models import SideRequest
from bot.storage.repositories import side_requests as repo
from bot.text import UserText

#: How long the other player has to roll their side.
WINDOW = timedelta(minutes=10)
PENDING, DONE = "pending", "done"


class RequestClosed(UserError):
    """The request can no longer be answered (rolled already, or lapsed): grey the button."""

    def __init__(self, message: str, *, lapsed: bool = False) -> None:
        super().__init__(message)
        self.lapsed = lapsed


@dataclass(frozen=True, slots=True)
class Challenge:
    """A request made: what the channel is told, and the button's request id."""

    request_id: int
    #: The challenger's side as shown ("Hermione · Stealth (Wits)"). Names in it are the
    #: players', so the whole line is user text (escaped where drawn), as are the others.
    challenger: UserText
    addressed_id: int
    opponent: UserText | None  # the other player's character named; None: their active one
    rolls: UserText  # what the other side rolls ("Stealth", "attribute Physical")
    label: UserText | None


def refuse_secret(secret: bool, whom: str) -> None:
    """A request is public (its line pings ``whom`` and becomes the result), so a roll asked
    to be secret is refused; a GM can still roll both sides secretly."""
    if secret:
        raise UserError(
            _(
                "A secret roll cannot wait for {whom}: leave `secret` off, or ask a GM to roll "
                "both sides.",
                whom=whom,
            )
        )


async def create(
    session: AsyncSession,
    actor: Actor,
    *,
    kind: str,
    addressed_id: int,
    side: dict[str, Any],
    options: dict[str, Any],
    now: datetime,
) -> SideRequest:
    """Store the challenger's rolled ``side`` and what the other side rolls (``options``)."""
    return await repo.add(
        session,
        SideRequest(
            guild_id=actor.guild_id,
            channel_id=actor.channel_id,
            kind=kind,
            challenger_id=actor.user_id,
            addressed_id=addressed_id,
            challenger_side=side,
            options=options,
            expires_at=now + WINDOW,
            state=PENDING,
        ),
    )


async def claim(
    session: AsyncSession, actor: Actor, request_id: int, *, kind: str, now: datetime
) -> SideRequest:
    """The request, locked and marked done, for its addressed player to roll their side.

    The caller rolls in the same transaction: if their roll is refused (no such skill, …)
    everything rolls back and the request stays pending. The row lock makes a second press
    wait for the first and then find the request done: one roll, however fast the presses.
    """
    request = await repo.get_for_update(session, request_id)
    if request is None or request.kind != kind or request.channel_id != actor.channel_id:
        raise RequestClosed(_("This roll can no longer be answered."))
    if request.addressed_id != actor.user_id:
        raise PermissionDenied(
            _(
                "Only {player} can roll this side: it is their character.",
                player=f"<@{request.addressed_id}>",
            )
        )
    if request.state != PENDING:
        raise RequestClosed(_("This side has already been rolled."))
    if now > request.expires_at:
        minutes = int(WINDOW.total_seconds() // 60)
        raise RequestClosed(
            _(
                "Too late: this challenge lapsed (a side is rolled within {minutes} minutes). "
                "Ask for a new one.",
                minutes=minutes,
            ),
            lapsed=True,
        )
    request.state = DONE
    return request


# --- several players' parts -----------------------------------------------------------------
#
# A resisted action, a combined test or a test worked together may name several other
# players' characters. One request then waits for all of them: ``options["asked"]`` lists
# the players asked (in the order their parts come), ``answers`` holds each one's part once
# they pressed, and the request is done when every part is in. One row, locked at each
# press, so two players pressing at once are serialised and exactly one of them completes
# the roll.

#: At most this many players are asked (and pinged) by one roll.
MAX_ASKED = 6


@dataclass(frozen=True, slots=True)
class PartsRequest:
    """A multi-party roll waiting for other players: what the channel is told."""

    request_id: int
    roller: UserText  # who asked ("Hermione", or the player's name)
    what: str  # the roll ("a resisted action", "a combined test led by Hermione")
    asked: tuple[int, ...]  # the players asked, each pinged once
    rolls: str  # what they roll ("Stealth", "attribute Wits")
    label: UserText | None
    #: Parts already in: player id, their character's name and what it rolled (the bot's
    #: words, e.g. "Base 8, SL 4").
    answered: tuple[tuple[int, UserText, str], ...] = ()
    #: ``what``, ``rolls`` and each answer's words are English templates (``N_``) filled
    #: from these parameters, translated where the line is drawn (in the line's language,
    #: not the presser's); None: plain text stored as it is shown (requests stored before).
    what_params: dict[str, Any] | None = None
    rolls_params: dict[str, Any] | None = None
    answered_params: tuple[dict[str, Any] | None, ...] = ()

    @property
    def waiting_for(self) -> tuple[int, ...]:
        done = {user for user, _, _ in self.answered}
        return tuple(user for user in self.asked if user not in done)


@dataclass(frozen=True, slots=True)
class Waiting:
    """A part came in and others are still awaited: the request's message is updated."""

    request: PartsRequest


def check_asked(asked: list[int], actor: Actor) -> tuple[int, ...]:
    """The players to ask, each once; never the roller; at most :data:`MAX_ASKED`."""
    unique = tuple(dict.fromkeys(asked))
    if actor.user_id in unique:
        raise UserError(_("You roll your own part now: the players asked are the others."))
    if len(unique) > MAX_ASKED:
        raise UserError(
            _(
                "One roll can ask at most {count} other players to roll their part; ask a GM "
                "to run a bigger one.",
                count=MAX_ASKED,
            )
        )
    return unique


async def create_parts(
    session: AsyncSession,
    actor: Actor,
    *,
    kind: str,
    asked: tuple[int, ...],
    side: dict[str, Any],
    options: dict[str, Any],
    announce: dict[str, Any],
    now: datetime,
) -> PartsRequest:
    """Store the roller's part(s) and ask ``asked``; ``announce`` is the request's line
    (``roller``, ``what``, ``rolls``, ``label``), kept to redraw it as parts come in."""
    request = await repo.add(
        session,
        SideRequest(
            guild_id=actor.guild_id,
            channel_id=actor.channel_id,
            kind=kind,
            challenger_id=actor.user_id,
            addressed_id=asked[0],  # the first asked; all of them are in options["asked"]
            challenger_side=side,
            options={**options, "asked": list(asked), "announce": announce},
            expires_at=now + WINDOW,
            state=PENDING,
            answers={},
        ),
    )
    return parts_request(request)


def parts_request(request: SideRequest) -> PartsRequest:
    """The request's line as it stands (who has answered, who is awaited)."""
    announce = request.options["announce"]
    answers = request.answers or {}
    return PartsRequest(
        request_id=request.id,
        roller=UserText(announce["roller"]),
        what=announce["what"],
        asked=tuple(int(user) for user in request.options["asked"]),
        rolls=announce["rolls"],
        label=UserText.of(announce.get("label")),
        answered=tuple(
            (int(user), UserText(str(answer["name"])), str(answer.get("shown", "")))
            for user, answer in answers.items()
        ),
        what_params=announce.get("what_params"),
        rolls_params=announce.get("rolls_params"),
        answered_params=tuple(answer.get("shown_params") for answer in answers.values()),
    )


async def claim_part(
    session: AsyncSession, actor: Actor, request_id: int, *, kind: str, now: datetime
) -> SideRequest:
    """The request, locked, for one of its asked players to roll their part.

    As :func:`claim`: the caller rolls in the same transaction and then calls
    :func:`answer`; a refused roll rolls everything back and the part stays open. The row
    lock serialises every press of the request: a double press finds the part answered,
    and of two players pressing at once the second sees the first's part.
    """
    request = await repo.get_for_update(session, request_id)
    if request is None or request.kind != kind or request.channel_id != actor.channel_id:
        raise RequestClosed(_("This roll can no longer be answered."))
    asked = [int(user) for user in request.options.get("asked", ())]
    if actor.user_id not in asked:
        whom = ", ".join(f"<@{user}>" for user in asked)
        raise PermissionDenied(
            _("Only {whom} can roll a part of this: it is their characters'.", whom=whom)
        )
    if request.state != PENDING:
        raise RequestClosed(_("Every part of this roll has already been rolled."))
    if str(actor.user_id) in (request.answers or {}):
        raise UserError(_("You have rolled your part already; the others are still awaited."))
    if now > request.expires_at:
        minutes = int(WINDOW.total_seconds() // 60)
        raise RequestClosed(
            _(
                "Too late: this roll lapsed (parts are rolled within {minutes} minutes). "
                "Ask for a new one.",
                minutes=minutes,
            ),
            lapsed=True,
        )
    return request


def answer(request: SideRequest, actor: Actor, part: dict[str, Any]) -> bool:
    """Store the presser's part (``part["name"]`` and ``part["shown"]`` are what the line
    says of it); True when it was the last one awaited, and the request is then done."""
    answers = {**(request.answers or {}), str(actor.user_id): part}
    request.answers = answers  # a new dict: the JSON column sees the change
    complete = all(str(user) in answers for user in request.options["asked"])
    if complete:
        request.state = DONE
    return complete


def distinct_name(name: str, taken: set[str], player: str, *, limit: int) -> str:
    """A part's name no other part has (engines tell parties and helpers apart by name):
    the character's name, else with its player's ("Ron (bob)"). ``taken`` is casefolded."""
    for n in range(1, MAX_ASKED + 30):
        suffix = "" if n == 1 else f" ({player})" if n == 2 else f" ({player}) {n - 1}"
        candidate = name[: limit - len(suffix)] + suffix
        if candidate.casefold() not in taken:
            return candidate
    raise UserError(
        _("{name} is named twice: each one rolls once.", name=UserText(name))
    )  # more names than parts


def names_and(names: list[str]) -> str:
    """Who rolled, for a result's footer: "alice, bob and carol" (each once)."""
    unique = list(dict.fromkeys(names))
    if len(unique) == 1:
        return unique[0]
    return _("{names} and {last}", names=", ".join(unique[:-1]), last=unique[-1])


def answers_of(request: SideRequest) -> dict[int, dict[str, Any]]:
    """Every part in so far, by player id."""
    return {int(user): part for user, part in (request.answers or {}).items()}


def roller_actor(request: SideRequest) -> Actor:
    """The player who asked, for what the completed roll gives them (a "Yes, but…" offer)."""
    return Actor(
        user_id=request.challenger_id, channel_id=request.channel_id, guild_id=request.guild_id
    )
