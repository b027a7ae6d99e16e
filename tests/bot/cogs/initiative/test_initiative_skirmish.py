"""Issue 15 at the table: delays that end, delayers who dodge (for a friend too), CODA surprise
order, Swiftness by default, re-rolls each round, and the tracker fixes."""

from __future__ import annotations

from engine.dice import ScriptedDice
from tests.bot.cogs.initiative.test_initiative import (
    add,
    gm_next,
    ok,
    public_messages,
    start,
    tracker_text,
    trio,
)
from tests.conftest import Table, text_of


async def test_a_delayer_dodges_for_a_friend_and_keeps_the_place(table: Table) -> None:
    await trio(table, system="h90")
    await gm_next(table)  # Alice
    await ok(await table.gm.slash(table.channel, "init delay"))  # Bob's turn
    assert "⏸️ Alice — 18 · *delaying*" in tracker_text(table)
    dodged = await ok(
        await table.gm.slash(table.channel, "init defend", name="alice", protects="Carl")
    )
    assert "**Alice** dodges on behalf of **Carl** from their delay" in dodged.response.content
    text = tracker_text(table)
    assert "Delayed" not in text and text.index("~~Alice~~") < text.index("▶ **Bob**")
    turn = await gm_next(table)
    assert "**Carl**'s turn" in turn.response.content  # Carl keeps his own turn
    turn = await gm_next(table)
    assert "Round 2 · **Alice**'s turn" in turn.response.content


async def test_only_a_delayer_may_dodge_for_another(table: Table) -> None:
    await trio(table, system="h90")
    await gm_next(table)
    refused = await table.gm.slash(table.channel, "init defend", name="Bob", protects="Carl")
    assert refused.ephemeral and "only a delaying combatant" in text_of(refused)
    player = await table.alice.slash(table.channel, "init defend", name="Bob")
    assert player.ephemeral and "GM" in text_of(player)
    choices = await table.gm.autocomplete(table.channel, "init defend", "protects", "ca")
    assert [c["value"] for c in choices] == ["Carl"]


async def test_a_delay_ends_with_a_notice_when_the_place_comes_round(table: Table) -> None:
    await trio(table)
    await gm_next(table)  # Alice
    await ok(await table.gm.slash(table.channel, "init delay"))
    await gm_next(table)  # Carl
    ended = await gm_next(table)  # round 2 reaches Alice
    assert "**Alice**'s place came round again: the delay ends" in ended.response.content
    assert "Round 2 · **Alice**'s turn" in ended.response.content
    assert "Delayed" not in tracker_text(table)


async def test_a_hidden_delayers_notice_goes_to_the_gm_alone(table: Table) -> None:
    await start(table)
    await add(table, "Spy", 20, hidden=True)
    await ok(await add(table, "Bob", 10))
    await gm_next(table)  # the Spy
    await table.gm.slash(table.channel, "init delay")  # Bob's turn
    ended = await table.gm.slash(table.channel, "init next")  # round 2 reaches the Spy
    assert "Spy" not in public_messages(table)
    assert any("Spy**'s place came round again" in f.content for f in ended.followups)


async def test_tracker_when_everyone_delays_and_after_the_end(table: Table) -> None:
    await start(table)
    await ok(await add(table, "Alice", 10))
    await ok(await add(table, "Bob", 5))
    await gm_next(table)
    await table.gm.slash(table.channel, "init delay")
    await table.gm.slash(table.channel, "init delay")
    text = tracker_text(table)
    assert "Nobody has joined yet" not in text
    assert "everyone is delaying" in text and "⏸️ Alice — 10" in text
    asked = await table.gm.slash(table.channel, "init end")
    await table.gm.click(asked.response, label="End the encounter")
    text = "\n".join(
        f"{e.description} {' '.join(f.name for f in e.fields)}"
        for m in table.channel.history()
        for e in m.embeds
        if (e.title or "").endswith("ended")
    )
    assert text and "▶" not in text and "Delayed" not in text and "⏸️" not in text


async def test_prev_into_round_1_does_not_mark_the_initiator_done(table: Table) -> None:
    await trio(table, initiator="Alice")
    await gm_next(table)  # R1 Bob
    await gm_next(table)  # R1 Carl
    await gm_next(table)  # R2 Alice
    await ok(await table.gm.slash(table.channel, "init prev"))
    text = tracker_text(table)
    assert "~~Alice~~ — 18 · *no action in round 1 (initiated)*" in text
    assert "✓ ~~Alice~~" not in text


async def test_coda_surprised_act_last_in_round_1(table: Table) -> None:
    await start(table, system="coda")
    await ok(await add(table, "Alice", 18))
    await ok(await add(table, "Bob", 12, stress=True))
    await ok(await add(table, "Carl", 7))
    seen = [(await gm_next(table)).response.content for _ in range(4)]
    assert ["Alice" in seen[0], "Carl" in seen[1], "Bob" in seen[2], "Alice" in seen[3]] == [
        True
    ] * 4
    assert "Round 2" in seen[3]


async def test_coda_join_adds_swiftness_by_default(table: Table) -> None:
    await table.alice.slash(table.channel, "sheet create", name="Ron", system="coda")
    await table.alice.slash(table.channel, "sheet set", attribute="Swiftness", value=2)
    await start(table, system="coda")
    table.bot.dice = ScriptedDice([3, 4])
    joined = await ok(await table.alice.slash(table.channel, "init join"))
    assert "2d6 (3, 4) + 2 = **9**" in text_of(joined)


async def test_reroll_each_round_keeps_hidden_hidden(table: Table) -> None:
    await start(table, system="coda", reroll=True)
    await ok(await add(table, "Alice", 18))
    await add(table, "Spy", 12, hidden=True)
    await ok(await add(table, "Carl", 7))
    assert "re-roll each round" in tracker_text(table)
    for _ in range(3):
        await table.gm.slash(table.channel, "init next")
    # Round 2: Alice 2d6 (1, 1) = 2, Spy (6, 5) = 11, Carl (4, 4) = 8.
    table.bot.dice = ScriptedDice([1, 1, 6, 5, 4, 4])
    result = await table.gm.slash(table.channel, "init next")
    public = result.response.content
    assert "🎲 Round 2: everyone re-rolls initiative — **Carl** 8 · **Alice** 2" in public
    assert "Spy" not in public_messages(table)
    gm_line = "\n".join(f.content for f in result.followups)
    assert "**Spy** 11" in gm_line
    text = tracker_text(table)
    assert text.index("Carl — 8") < text.index("Alice — 2")


async def test_conditions_show_on_the_tracker_tick_and_wear_off(table: Table) -> None:
    await trio(table)
    await gm_next(table)  # R1 Alice
    added = await ok(
        await table.gm.slash(
            table.channel,
            "init condition add",
            target="bob",
            name="Stunned",
            rounds=1,
            note="<@123456789012345678> *hexed*",
        )
    )
    text = added.response.content
    assert "🩹 **Bob** is Stunned (1 round, ticks at start) — " in text
    assert "<@123456789012345678>" not in text and "\\*hexed\\*" in text
    assert "Bob — 12 · 🩹 Stunned (1 round, ticks at start)" in tracker_text(table)
    # 1 round is one of Bob's turns: the one that starts now, under it.
    turn = await gm_next(table)
    assert "wears off" not in turn.response.content
    assert "Bob** — 12 · 🩹 Stunned (last turn, ends as its next turn starts)" in tracker_text(
        table
    )
    await gm_next(table)  # Carl
    await gm_next(table)  # R2 Alice: Bob's stunned turn is over, Stunned ends as his starts
    turn = await gm_next(table)
    assert "⌛ **Bob**: Stunned wears off." in turn.response.content
    assert "Stunned" not in tracker_text(table)
    listed = await table.alice.slash(table.channel, "init condition list")
    assert listed.ephemeral and "No combatant has a condition." in text_of(listed)


async def test_condition_remove_list_undo_and_refusals(table: Table) -> None:
    await trio(table)
    await ok(await table.gm.slash(table.channel, "init condition add", target="Carl", name="Prone"))
    listed = await table.alice.slash(table.channel, "init condition list")
    assert "**Carl**: Prone" in text_of(listed)
    player = await table.alice.slash(
        table.channel, "init condition add", target="Carl", name="Prone"
    )
    assert player.ephemeral and "GM" in text_of(player)
    removed = await ok(
        await table.gm.slash(table.channel, "init condition remove", target="carl", name="PRONE")
    )
    assert "🩹 **Carl** is no longer PRONE." in removed.response.content
    undone = await ok(await table.gm.slash(table.channel, "init undo"))
    assert "Undid Carl losing PRONE" in undone.response.content
    assert "Carl — 7 · 🩹 Prone" in tracker_text(table)
    missing = await table.gm.slash(
        table.channel, "init condition remove", target="Carl", name="Stunned"
    )
    assert missing.ephemeral and "no condition 'Stunned'" in text_of(missing)
    choices = await table.gm.autocomplete(table.channel, "init condition add", "target", "ca")
    assert [c["value"] for c in choices] == ["Carl"]
