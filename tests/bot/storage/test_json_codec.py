"""The JSON columns' codec: orjson's speed, the standard library's range (docs/performance.md)."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import text

from bot.actor import Actor
from bot.storage import Database, json_codec
from bot.storage.models import RollLog
from bot.storage.repositories import rolls as roll_log

ACTOR = Actor(user_id=7, channel_id=100, guild_id=1)

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**64 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=8), children, max_size=5)
    ),
    max_leaves=20,
)


@given(json_values)
def test_writes_the_value_json_writes(value: object) -> None:
    assert json.loads(json_codec.dumps(value)) == json.loads(json.dumps(value))
    assert json_codec.loads(json_codec.dumps(value)) == value


def test_what_orjson_refuses_or_cannot_read_goes_to_json() -> None:
    huge = [2**80 + 1, -(2**70) - 1, 2**64]
    assert json_codec.loads(json_codec.dumps(huge)) == huge  # past orjson's 64 bits
    assert all(type(n) is int for n in json_codec.loads(json_codec.dumps(huge)))
    assert json_codec.loads(b"[18446744073709551617]") == [2**64 + 1]
    assert json_codec.dumps({1: "a", 2: [3]}) == '{"1":"a","2":[3]}'  # keys as json makes them
    assert json_codec.loads('{"chance": NaN}')["chance"] != 0  # a row json.dumps once wrote
    assert json_codec.loads(b"[1, 2]") == [1, 2]


async def test_the_database_stores_through_it(any_database_url: str) -> None:
    db = Database(any_database_url)
    try:
        async with db.unit_of_work() as session:
            roll_log.add(
                session, ACTOR, system="dice", input="1d6", faces=[2**70 + 1, "é", 3], outcome="x"
            )
        async with db.unit_of_work(read_only=True) as session:
            stored = await session.scalar(text("SELECT faces FROM roll_log"))
            entries = await roll_log.latest(session, 100, count=1, include_secret=True)
        assert entries[0].faces == [2**70 + 1, "é", 3]
        assert stored == [2**70 + 1, "é", 3] or json.loads(stored) == [2**70 + 1, "é", 3]
        assert isinstance(entries[0], RollLog)
    finally:
        await db.dispose()
