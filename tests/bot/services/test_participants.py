"""Who may roll a shared task: the ``participants:`` text read, and the rule."""

from __future__ import annotations

import pytest

from bot.actor import Actor
from bot.errors import PermissionDenied, UserError
from bot.services import participants
from bot.storage import Database


def test_mentions_are_read_in_order_without_repeats_or_the_starter() -> None:
    text = "<@2>, <@!3> <@2>;<@1>"
    assert participants.parse_participants(text, starter=1) == [2, 3]
    assert participants.parse_participants(None, starter=1) == []
    assert participants.parse_participants("  ", starter=1) == []


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("<@2> bob", "`bob` is not a player"),
        ("<@&5>", "is not a player"),
        ("<@0>", "mentions nobody"),
        ("<@99999999999999999999999>", "mentions nobody"),
        (" ".join(f"<@{n}>" for n in range(2, 23)), "at most 20 participants"),
    ],
)
def test_anything_but_mentions_of_players_is_refused(text: str, says: str) -> None:
    with pytest.raises(UserError, match=says):
        participants.parse_participants(text, starter=1)


async def test_only_the_starter_participants_and_gm_may_roll(db: Database) -> None:
    def actor(user_id: int, *, gm: bool = False) -> Actor:
        return Actor(user_id=user_id, channel_id=10, guild_id=1, gm_role=gm)

    async with db.unit_of_work(read_only=True) as session:

        async def may(who: Actor) -> bool:
            return await participants.may_roll(session, who, started_by=1, participants=[2])

        assert await may(actor(1)) is False
        assert await may(actor(2)) is False
        assert await may(actor(9, gm=True)) is True
        with pytest.raises(PermissionDenied, match="Only its starter"):
            await may(actor(3))
