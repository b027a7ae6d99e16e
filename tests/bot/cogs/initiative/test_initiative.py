"""``/init`` as a table plays it: every command, button and refusal, and the tracker message."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from simcord.backend.errors import OptionError

from bot.app import create_bot
from bot.cogs._confirm import CONFIRM_SECONDS
from engine.dice import ScriptedDice
from tests.conftest import Table, text_of


def tracker(table: Table) -> discord.Message:
    """The channel's tracker: the latest message with the Next button."""
    for message in reversed(table.channel.history()):
        for row in message.components:
            if any(getattr(c, "custom_id", None) == "narrator:init:next" for c in row.children):
                return message
    raise AssertionError("no tracker in the channel")


def tracker_text(table: Table) -> str:
    embed = tracker(table).embeds[0]
    parts = [embed.title or "", embed.description or ""]
    parts += [f"{f.name} {f.value}" for f in embed.fields]
    parts.append(embed.footer.text or "")
    return "\n".join(parts)


def public_messages(table: Table) -> str:
    """Everything the players could read in the channel (ephemeral replies excluded)."""
    texts = []
    for message in table.channel.history(viewer=table.alice):
        texts.append(message.content or "")
        for embed in message.embeds:
            texts += [embed.title or "", embed.description or ""]
            texts += [f"{f.name} {f.value}" for f in embed.fields]
    return "\n".join(texts)


async def ok(result: Any) -> Any:
    assert not result.ephemeral, text_of(result)
    return result


async def start(table: Table, **options: Any) -> Any:
    return await ok(await table.gm.slash(table.channel, "init start", **options))


async def add(table: Table, name: str, roll: int, **options: Any) -> Any:
    return await table.gm.slash(table.channel, "init add", name=name, roll=roll, **options)


async def trio(table: Table, **options: Any) -> None:
    """Alice 18, Bob 12, Carl 7 (NPCs with totals set by the GM)."""
    await start(table, **options)
    for name, roll in (("Alice", 18), ("Bob", 12), ("Carl", 7)):
        await ok(await add(table, name, roll))


async def gm_next(table: Table) -> Any:
    return await ok(await table.gm.slash(table.channel, "init next"))


# --------------------------------------------------------------------------- start


async def test_gm_starts_an_encounter_and_the_reply_is_the_tracker(table: Table) -> None:
    result = await start(table)
    assert "An encounter begins" in result.response.content
    assert tracker(table).id == result.response.id
    assert "gathering" in tracker_text(table)
    labels = [c.label for row in tracker(table).components for c in row.children]
    assert labels == ["Next", "Delay", "Undo", "End"]


async def test_only_a_gm_starts_and_only_one_per_channel(table: Table) -> None:
    refused = await table.alice.slash(table.channel, "init start")
    assert refused.ephemeral and "Only the channel's GM can start an encounter" in text_of(refused)
    await start(table)
    again = await table.gm.slash(table.channel, "init start")
    assert again.ephemeral and "already running here" in text_of(again)
    other = table.guild.create_text_channel("arena")
    await ok(await table.gm.slash(other, "init start"))


async def test_start_refuses_bad_dice_notation(table: Table) -> None:
    result = await table.gm.slash(table.channel, "init start", dice="2d")
    assert (result.ephemeral and "not dice notation" in text_of(result)) or "2d" in text_of(result)


async def test_commands_without_an_encounter_say_how_to_start(table: Table) -> None:
    for command in ("init next", "init show", "init undo", "init end", "init delay"):
        result = await table.gm.slash(table.channel, command)
        assert result.ephemeral and "/init start" in text_of(result), command


# --------------------------------------------------------------------------- the order


async def test_turns_go_highest_first_and_rounds_repeat(table: Table) -> None:
    await trio(table)
    assert tracker_text(table).index("Alice") < tracker_text(table).index("Bob")
    seen = []
    for _ in range(4):
        result = await gm_next(table)
        seen.append(result.response.content)
    assert seen == [
        "Round 1 · **Alice**'s turn.",
        "Round 1 · **Bob**'s turn.",
        "Round 1 · **Carl**'s turn.",
        "Round 2 · **Alice**'s turn.",
    ]
    assert "Round 2" in tracker(table).embeds[0].title
    assert "▶ **Alice** — 18" in tracker_text(table)


async def test_tie_roll_off_is_pinned_and_shown_in_order(table: Table) -> None:
    await start(table)
    await ok(await add(table, "Alice", 10))
    table.bot.dice = ScriptedDice([4, 17])  # Alice draws first, then Bob: Bob goes first
    await ok(await add(table, "Bob", 10))
    text = tracker_text(table)
    # The roll-off is shown beside the shared total, so the order explains itself.
    assert text.index("Bob — 10 (roll-off 17)") < text.index("Alice — 10 (roll-off 4)")
    assert table.bot.dice.remaining == 0


async def test_a_roll_off_with_a_hidden_combatant_is_not_shown_to_players(table: Table) -> None:
    await start(table)
    await ok(await add(table, "Alice", 10))
    table.bot.dice = ScriptedDice([4, 17])
    await table.gm.slash(table.channel, "init add", name="Spy", roll=10, hidden=True)
    assert "Alice — 10\n" in tracker_text(table) + "\n"
    assert "roll-off" not in tracker_text(table)
    shown = await table.gm.slash(table.channel, "init show")
    assert "Spy 🙈 — 10 (roll-off 17)" in text_of(shown)


async def test_initiator_has_no_action_in_round_1(table: Table) -> None:
    await trio(table, initiator="Alice")
    first = await gm_next(table)
    assert "**Bob**'s turn" in first.response.content
    assert "~~Alice~~ — 18 · *no action in round 1 (initiated)*" in tracker_text(table)
    await gm_next(table)
    third = await gm_next(table)
    assert third.response.content == "Round 2 · **Alice**'s turn."


async def test_an_initiator_naming_nobody_is_warned_about(table: Table) -> None:
    await start(table, initiator="Goblin")
    table.bot.dice = ScriptedDice([5, 9, 2])
    added = await ok(await table.gm.slash(table.channel, "init add", name="Goblin", count=3))
    assert (
        "⚠️ The initiator is `Goblin`, and Goblin 1, Goblin 2, Goblin 3 are other names: "
        "nobody loses their round-1 action." in text_of(added)
    )
    assert "~~" not in tracker_text(table)
    first = await gm_next(table)
    assert first.response.content == (
        "Round 1 · **Goblin 2**'s turn.\n"
        "⚠️ No combatant is called `Goblin` (the initiator): nobody loses their round-1 action."
    )
    second = await gm_next(table)
    assert "initiator" not in second.response.content


async def test_an_initiator_who_is_there_gets_no_warning(table: Table) -> None:
    await trio(table, initiator="alice")
    first = await gm_next(table)
    assert first.response.content == "Round 1 · **Bob**'s turn."


async def test_players_join_rolling_from_their_sheet(table: Table) -> None:
    await table.alice.slash(table.channel, "sheet create", name="Hermione", system="h90")
    await table.alice.slash(table.channel, "sheet set", attribute="Humor", value=3)
    await start(table, system="h90", attribute="Humor")
    table.bot.dice = ScriptedDice([7, 14])
    result = await ok(await table.alice.slash(table.channel, "init join", modifier=1))
    assert "**Hermione** joins: 2d20 (7, 14) keep higher 14 + 4 = **18**" in text_of(result)
    turn = await gm_next(table)
    # The player whose turn starts is mentioned.
    assert turn.response.content == f"Round 1 · **Hermione**'s turn — <@{table.alice.id}>."
    assert [user.id for user in turn.response.message.mentions] == [table.alice.id]


async def test_join_stress_roll_keeps_the_lower_die(table: Table) -> None:
    await table.alice.slash(table.channel, "sheet create", name="Hermione", system="h90")
    await table.alice.slash(table.channel, "sheet set", attribute="Humor", value=3)
    await start(table, system="h90", attribute="Humor")
    table.bot.dice = ScriptedDice([7, 14])
    result = await ok(await table.alice.slash(table.channel, "init join", stress=True))
    assert "keep lower 7 + 3 = **10**" in text_of(result)


async def test_join_names_the_missing_sheet_value(table: Table) -> None:
    await table.alice.slash(table.channel, "sheet create", name="Hermione", system="h90")
    await start(table, system="h90", attribute="Humor")
    result = await table.alice.slash(table.channel, "init join")
    assert result.ephemeral and "/sheet set attribute:Humor" in text_of(result)


async def test_join_without_a_character_says_how_to_make_one(table: Table) -> None:
    await start(table)
    result = await table.bob.slash(table.channel, "init join")
    assert result.ephemeral and "/sheet create" in text_of(result)


async def test_coda_join_rolls_2d6_with_rolling_sixes_and_shows_actions(table: Table) -> None:
    await table.alice.slash(table.channel, "sheet create", name="Ron", system="coda")
    await table.alice.slash(table.channel, "sheet set", attribute="Swiftness", value=0)
    await start(table, system="coda")
    table.bot.dice = ScriptedDice([6, 6, 2])
    result = await ok(await table.alice.slash(table.channel, "init join", modifier=2, stress=True))
    assert "2d6 (6, 6, 2) rolling 6s! + 2 = **16**" in text_of(result)
    turn = await gm_next(table)
    assert "**Ron**'s turn" in turn.response.content
    assert "1 action (surprised) · 2nd −5, 3rd −10." in turn.response.content
    assert "1 action (surprised) · 2nd −5, 3rd −10" in tracker_text(table)


async def test_surprise_is_refused_where_the_system_has_no_rule_for_it(table: Table) -> None:
    await table.alice.slash(table.channel, "sheet create", name="Zed", system="rps")
    await start(table, system="rps")
    result = await table.alice.slash(table.channel, "init join", stress=True)
    assert result.ephemeral and "Surprise changes initiative only" in text_of(result)


async def test_other_systems_roll_1d20_plus_modifier_and_dice_overrides(table: Table) -> None:
    await start(table, system="infinity")
    table.bot.dice = ScriptedDice([13])
    result = await ok(await table.gm.slash(table.channel, "init add", name="Drone", modifier=4))
    assert "1d20 (13) + 4 = **17**" in text_of(result)
    other = table.guild.create_text_channel("arena")
    await ok(await table.gm.slash(other, "init start", dice="2d4"))
    table.bot.dice = ScriptedDice([3, 1])
    added = await ok(await table.gm.slash(other, "init add", name="Rat"))
    assert "**Rat** joins: 2d4 (3, **1**) = **4**" in text_of(added)  # the total shown once


async def test_any_other_game_is_a_valid_system_even_over_a_channel_default(
    table: Table,
) -> None:
    await table.gm.slash(table.channel, "settings system", name="h90")
    await start(table, system="generic")
    table.bot.dice = ScriptedDice([13])
    result = await ok(await table.gm.slash(table.channel, "init add", name="Drone", modifier=4))
    assert "1d20 (13) + 4 = **17**" in text_of(result)


async def test_surprised_npcs_make_a_stress_roll_in_hogwarts_1990(table: Table) -> None:
    await start(table, system="h90")
    table.bot.dice = ScriptedDice([15, 4])
    result = await ok(
        await table.gm.slash(table.channel, "init add", name="Troll", modifier=2, stress=True)
    )
    assert "2d20 (15, 4) keep lower 4 + 2 = **6**" in text_of(result)


async def test_add_count_numbers_the_npcs(table: Table) -> None:
    await start(table)
    table.bot.dice = ScriptedDice([5, 9, 2])
    result = await ok(await table.gm.slash(table.channel, "init add", name="Goblin", count=3))
    assert "Goblin 1" in text_of(result) and "Goblin 3" in text_of(result)
    table.bot.dice = ScriptedDice([11, 3])  # Goblins 4 and 5 tie on 1: they roll off
    more = await ok(await table.gm.slash(table.channel, "init add", name="Goblin", count=2, roll=1))
    assert "Goblin 4" in text_of(more) and "Goblin 5" in text_of(more)


async def test_joining_twice_is_refused(table: Table) -> None:
    await table.alice.slash(table.channel, "sheet create", name="Ron", system="coda")
    await table.alice.slash(table.channel, "sheet set", attribute="Swiftness", value=0)
    await start(table, system="coda")
    await ok(await table.alice.slash(table.channel, "init join"))
    again = await table.alice.slash(table.channel, "init join")
    assert again.ephemeral and "'Ron' is already in the encounter" in text_of(again)


async def test_discord_bounds_on_numbers(table: Table) -> None:
    await start(table)
    for options in ({"count": 21}, {"modifier": 101}, {"roll": 5000}):
        with pytest.raises(OptionError):
            await table.gm.slash(table.channel, "init add", name="Rat", **options)


async def test_add_refusals(table: Table) -> None:
    await start(table)
    await ok(await add(table, "Alice", 10))
    duplicate = await add(table, "alice", 3)
    assert duplicate.ephemeral and "already in the encounter" in text_of(duplicate)
    player = await table.alice.slash(table.channel, "init add", name="Orc", roll=3)
    assert player.ephemeral and "Only the channel's GM can add combatants" in text_of(player)


# --------------------------------------------------------------------------- who may act


async def test_a_player_may_next_and_delay_only_on_their_own_turn(table: Table) -> None:
    await table.alice.slash(table.channel, "sheet create", name="Hermione", system="coda")
    await table.alice.slash(table.channel, "sheet set", attribute="Swiftness", value=0)
    await start(table, system="coda")
    await ok(await add(table, "Goblin", 20))
    table.bot.dice = ScriptedDice([3, 4])
    await ok(await table.alice.slash(table.channel, "init join"))  # 7
    await gm_next(table)  # Goblin's turn
    early = await table.alice.slash(table.channel, "init next")
    assert early.ephemeral and "Only the GM, or the player whose combatant" in text_of(early)
    early_delay = await table.alice.slash(table.channel, "init delay")
    assert early_delay.ephemeral
    await gm_next(table)  # Hermione's turn
    mine = await ok(await table.alice.slash(table.channel, "init next"))
    assert "Round 2 · **Goblin**'s turn." in mine.response.content
    other = await table.bob.slash(table.channel, "init next")
    assert other.ephemeral


@pytest.mark.parametrize(
    ("command", "options"),
    [
        ("init prev", {}),
        ("init undo", {}),
        ("init remove", {"name": "Bob"}),
        ("init defend", {"name": "Bob"}),
        ("init act", {"name": "Bob"}),
        ("init reveal", {"name": "Bob"}),
        ("init end", {}),
    ],
)
async def test_gm_only_commands_refuse_players(table: Table, command: str, options: dict) -> None:
    await trio(table)
    await gm_next(table)
    result = await table.alice.slash(table.channel, command, **options)
    assert result.ephemeral and "Only the channel's GM" in text_of(result)


# --------------------------------------------------------------------------- delay, act, defend


async def test_delay_lists_apart_and_act_takes_the_place_after_the_current(table: Table) -> None:
    await trio(table)
    await gm_next(table)  # Alice
    delayed = await ok(await table.gm.slash(table.channel, "init delay"))
    assert "⏸️ **Alice** delays." in delayed.response.content
    assert "**Bob**'s turn" in delayed.response.content
    assert "Delayed (act with `/init act`) Alice — 18" in tracker_text(table)
    choices = await table.gm.autocomplete(table.channel, "init act", "name", "al")
    assert [c["value"] for c in choices] == ["Alice"]
    acted = await ok(await table.gm.slash(table.channel, "init act", name="alice"))
    assert "**Alice** acts now" in acted.response.content
    assert "Delayed" not in tracker_text(table)
    text = tracker_text(table)
    assert text.index("Bob — 12") < text.index("▶ **Alice** — 18") < text.index("Carl — 7")
    not_delayed = await table.gm.slash(table.channel, "init act", name="Bob")
    assert not_delayed.ephemeral and "not delaying" in text_of(not_delayed)


async def test_defended_combatant_is_skipped_for_the_round(table: Table) -> None:
    await trio(table)
    await gm_next(table)
    defended = await ok(await table.gm.slash(table.channel, "init defend", name="Bob"))
    assert "🛡️ **Bob** makes a defensive roll" in defended.response.content
    assert "~~Bob~~ — 12 · *defended this round*" in tracker_text(table)
    result = await gm_next(table)
    assert "**Carl**'s turn" in result.response.content
    again = await table.gm.slash(table.channel, "init defend", name="Bob")
    assert again.ephemeral and "already defended" in text_of(again)


async def test_remove_and_unknown_names(table: Table) -> None:
    await trio(table)
    await gm_next(table)
    removed = await ok(await table.gm.slash(table.channel, "init remove", name="Alice"))
    assert "🚪 **Alice** leaves" in removed.response.content
    assert "**Bob**'s turn" in removed.response.content
    not_hidden = await table.gm.slash(table.channel, "init reveal", name="Bob")
    assert not_hidden.ephemeral and "Bob is not hidden" in text_of(not_hidden)
    unknown = await table.gm.slash(table.channel, "init remove", name="Nobody")
    assert unknown.ephemeral and "No combatant is called 'Nobody'" in text_of(unknown)


async def test_prev_goes_back_and_refuses_at_the_first_turn(table: Table) -> None:
    await trio(table)
    await gm_next(table)
    first = await table.gm.slash(table.channel, "init prev")
    assert first.ephemeral and "first turn" in text_of(first)
    await gm_next(table)
    back = await ok(await table.gm.slash(table.channel, "init prev"))
    assert back.response.content == "⏪ Back one turn.\nRound 1 · **Alice**'s turn."


# --------------------------------------------------------------------------- hidden combatants


async def test_hidden_combatants_only_in_gm_views_until_revealed(table: Table) -> None:
    await trio(table)
    hidden = await table.gm.slash(table.channel, "init add", name="Lurker", roll=15, hidden=True)
    assert hidden.ephemeral and "Lurker" in text_of(hidden)
    assert "Lurker" not in tracker_text(table)
    gm_view = await table.gm.slash(table.channel, "init show")
    assert gm_view.ephemeral and "Lurker 🙈 — 15" in text_of(gm_view)
    player_view = await table.alice.slash(table.channel, "init show")
    assert player_view.ephemeral and "Lurker" not in text_of(player_view)
    await gm_next(table)  # Alice
    lurking = await gm_next(table)  # Lurker: the public line does not name it
    assert lurking.response.content == "Round 1 · the GM's turn."
    assert any("Lurker" in m.content for m in lurking.followups)
    assert all(m.ephemeral for m in lurking.followups)
    completions = await table.alice.autocomplete(table.channel, "init remove", "name", "")
    assert "Lurker" not in [c["value"] for c in completions]
    gm_completions = await table.gm.autocomplete(table.channel, "init remove", "name", "")
    assert "Lurker" in [c["value"] for c in gm_completions]
    assert "Lurker" not in public_messages(table)
    revealed = await ok(await table.gm.slash(table.channel, "init reveal", name="Lurker"))
    assert "👀 **Lurker** is revealed!" in revealed.response.content
    assert "▶ **Lurker** — 15" in tracker_text(table)


async def test_a_hidden_npcs_initiative_roll_is_in_the_gms_history_only(table: Table) -> None:
    await start(table)
    table.bot.dice = ScriptedDice([13])
    await table.gm.slash(table.channel, "init add", name="Assassin", modifier=2, hidden=True)
    player = await table.alice.slash(table.channel, "history")
    assert "Assassin" not in text_of(player)
    gm = await table.gm.slash(table.channel, "history")
    assert "initiative Assassin: 1d20 (13) + 2" in text_of(gm)


async def test_changes_to_hidden_combatants_are_told_to_the_gm_alone(table: Table) -> None:
    await trio(table)
    await ok(await gm_next(table))
    await table.gm.slash(table.channel, "init add", name="Spy", roll=15, hidden=True)
    defended = await table.gm.slash(table.channel, "init defend", name="Spy")
    assert defended.ephemeral and "**Spy** makes a defensive roll" in text_of(defended)
    removed = await table.gm.slash(table.channel, "init remove", name="spy")
    assert removed.ephemeral and "**Spy** leaves" in text_of(removed)
    undone = await ok(await table.gm.slash(table.channel, "init undo"))
    assert undone.response.content == "↩️ The GM undid a change."
    assert "Spy" in " ".join(m.content for m in undone.followups)
    assert "Spy" not in public_messages(table)


# --------------------------------------------------------------------------- undo


async def test_undo_walks_back_to_the_start(table: Table) -> None:
    await trio(table)
    await gm_next(table)
    await gm_next(table)
    undone = await ok(await table.gm.slash(table.channel, "init undo"))
    assert undone.response.content == "↩️ Undid a Next.\nRound 1 · **Alice**'s turn."
    for _ in range(4):  # the first Next, then the three additions
        await ok(await table.gm.slash(table.channel, "init undo"))
    assert "Nobody has joined yet" in tracker_text(table)
    nothing = await table.gm.slash(table.channel, "init undo")
    assert nothing.ephemeral and "Nothing to undo" in text_of(nothing)


# --------------------------------------------------------------------------- buttons


async def test_buttons_obey_the_same_rules(table: Table) -> None:
    await trio(table)
    pressed = await table.gm.click(tracker(table), label="Next")
    assert pressed.response.content == "Round 1 · **Alice**'s turn."
    assert "▶ **Alice**" in tracker_text(table)
    refused = await table.alice.click(tracker(table), label="Next")
    assert refused.ephemeral and "Only the GM, or the player" in text_of(refused)
    delay = await table.gm.click(tracker(table), label="Delay")
    assert "⏸️ **Alice** delays." in delay.response.content
    undo = await table.gm.click(tracker(table), label="Undo")
    assert "↩️ Undid a delay." in undo.response.content
    player_undo = await table.alice.click(tracker(table), label="Undo")
    assert player_undo.ephemeral and "Only the channel's GM" in text_of(player_undo)
    player_end = await table.alice.click(tracker(table), label="End")
    assert player_end.ephemeral and "Only the channel's GM" in text_of(player_end)


async def test_end_asks_then_posts_a_summary(table: Table) -> None:
    await trio(table, initiator="Carl")
    for _ in range(3):
        await gm_next(table)  # R1 Alice, Bob; R2 Alice
    asked_tracker_id = tracker(table).id
    asked = await table.gm.slash(table.channel, "init end")
    assert asked.ephemeral and "End this encounter?" in text_of(asked)
    done = await table.gm.click(asked.response, label="End the encounter")
    summary = done.followups[0]
    assert not summary.ephemeral
    embed = summary.embeds[0]
    assert embed.title == "⚔️ Encounter over after 2 rounds"
    assert "**Alice** — 2 turns" in embed.description
    assert "**Bob** — 1 turn" in embed.description
    assert "Carl — did not act" in embed.description
    ended = next(m for m in table.channel.history() if m.id == asked_tracker_id)
    assert ended.embeds[0].title == "⚔️ Initiative — ended" and not ended.components
    after = await table.gm.slash(table.channel, "init next")
    assert after.ephemeral and "/init start" in text_of(after)
    await start(table)  # the channel is free again


async def test_ending_before_round_1_says_so(table: Table) -> None:
    await trio(table)
    asked = await table.gm.slash(table.channel, "init end")
    assert "Before round 1, 3 combatant(s)." in text_of(asked)
    assert "Round 0" not in text_of(asked)
    done = await table.gm.click(asked.response, label="End the encounter")
    assert done.followups[0].embeds[0].title == "⚔️ Encounter over before round 1"


async def test_end_button_and_keep_playing(table: Table) -> None:
    await trio(table)
    asked = await table.gm.click(tracker(table), label="End")
    assert asked.ephemeral and "End this encounter?" in text_of(asked)
    kept = await table.gm.click(asked.response, label="Keep playing")
    assert "goes on" in text_of(kept)
    await gm_next(table)


async def test_an_unanswered_end_closes_and_the_encounter_goes_on(table: Table) -> None:
    await trio(table)
    asked = await table.gm.slash(table.channel, "init end")
    await table.env.advance_time(CONFIRM_SECONDS + 1)
    closed = next(m for m in table.channel.history(viewer=table.gm) if m.id == asked.response.id)
    assert closed.content == "No answer. The encounter goes on." and not closed.components
    await gm_next(table)


# --------------------------------------------------------------------------- the tracker message


async def test_tracker_is_edited_in_place(table: Table) -> None:
    result = await start(table)
    assert "An encounter begins" in tracker(table).content
    await ok(await add(table, "Alice", 10))
    await gm_next(table)
    assert tracker(table).id == result.response.id
    assert "▶ **Alice** — 10" in tracker_text(table)
    assert not tracker(table).content  # the welcome line goes once play has moved on


async def test_a_deleted_tracker_is_posted_anew_and_the_command_succeeds(table: Table) -> None:
    result = await start(table)
    first = result.response.id
    await result.response.message.delete()  # e.g. a moderator tidied the channel
    added = await ok(await add(table, "Alice", 10))
    assert "**Alice** joins" in text_of(added)
    fresh = tracker(table)
    assert fresh.id != first and "Alice — 10" in tracker_text(table)
    await gm_next(table)
    assert tracker(table).id == fresh.id  # the new one is edited from now on


async def test_a_failing_edit_posts_a_new_tracker(table: Table) -> None:
    result = await start(table)
    table.env.inject_error("PATCH", "/channels/*/messages/*", status=403, code=50013,
                           message="Missing Permissions")  # fmt: skip
    added = await ok(await add(table, "Alice", 10))
    assert "**Alice** joins" in text_of(added)
    assert tracker(table).id != result.response.id


async def test_restart_mid_round_3_resumes_at_the_same_turn(table: Table) -> None:
    await trio(table)
    for _ in range(8):  # R1 A B C, R2 A B C, R3 A B
        await gm_next(table)
    assert "Round 3" in tracker(table).embeds[0].title
    assert "▶ **Bob**" in tracker_text(table)
    await table.env.restart_bot(create_bot(table.bot.settings, sync_globally=True))
    shown = await table.gm.slash(table.channel, "init show")
    assert "Round 3 · **Bob**'s turn." in text_of(shown)
    pressed = await table.gm.click(tracker(table), label="Next")  # the old buttons still work
    assert pressed.response.content == "Round 3 · **Carl**'s turn."
    result = await gm_next(table)
    assert result.response.content == "Round 4 · **Alice**'s turn."
