"""The load mix both ``e2e_load`` and ``hot_path`` send: what a busy table does most.

Per channel: a player with one character (``/sheet show`` reads it), the GM's encounter with
three goblins (``/init next`` moves it on) and bob's rolls. One player per channel, as at a
real table: a player with a sheet in every channel would reach the 50-characters limit and
``/sheet show`` would only answer "choose one with /sheet use".
"""

from __future__ import annotations

from typing import Any

from tests.e2e.fake_discord import FakeDiscord

#: 50% rolls, 25% sheet reads, 25% initiative changes, in this order.
MIX = ("roll", "sheet", "roll", "init")
ROLLER = "bob"
GM = "gm"


def channel_players(channels: int) -> tuple[str, ...]:
    """The name of channel N's player."""
    return tuple(f"player{n}" for n in range(channels))


def players(channels: int) -> tuple[str, ...]:
    """Every account of the stand-in's guild (``FakeDiscord(players=...)``)."""
    return ("alice", ROLLER, "carol", *channel_players(channels))


def payload(fake: FakeDiscord, kind: str, channel: int, player: str) -> dict[str, Any]:
    """The INTERACTION_CREATE of one command of the mix in ``channel``."""
    if kind == "sheet":
        return fake.command_payload("sheet show", channel=channel, user=player)
    if kind == "init":
        return fake.command_payload("init next", channel=channel, user=GM)
    return fake.command_payload(
        "roll", channel=channel, user=ROLLER, expression="4d6kh3 + 2", label="load"
    )


#: The commands that set a channel up: (command, user, options); ``{player}`` and ``{index}``
#: are filled in per channel.
SETUP = (
    ("sheet create", "{player}", {"name": "Hero {index}", "system": "coda"}),
    ("init start", GM, {"system": "coda"}),
    ("init add", GM, {"name": "Goblin", "roll": 12, "count": 3}),
)


def setup_steps(index: int, player: str) -> list[tuple[str, str, dict[str, Any]]]:
    """:data:`SETUP` for channel ``index`` played by ``player``."""
    steps = []
    for command, user, options in SETUP:
        filled = {k: v.format(index=index) if isinstance(v, str) else v for k, v in options.items()}
        steps.append((command, user.format(player=player), filled))
    return steps
