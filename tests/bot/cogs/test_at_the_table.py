"""Issue 16 (part a): pools that follow a character, and GMs reaching a shared name."""

from __future__ import annotations

from tests.conftest import Table, embed_of, text_of


async def hermiones(table: Table) -> None:
    """Alice and Bob each play a Hermione here."""
    for player in (table.alice, table.bob):
        await player.slash(table.channel, "sheet create", name="Hermione", system="drama")
        await player.slash(table.channel, "sheet use", character="Hermione")


# --- penalty pools per character ----------------------------------------------------------


async def test_a_penalty_pool_follows_its_character_into_another_channel(table: Table) -> None:
    await table.alice.slash(table.channel, "sheet create", name="William", system="drama")
    await table.gm.slash(table.channel, "penalty add", character="William", amount=3)
    lab = table.guild.create_text_channel("lab")
    shown = await table.alice.slash(lab, "penalty show")
    assert "**3 penalty dice** · level **distracted**" in embed_of(shown).description
    await table.alice.slash(lab, "penalty add", character="William", amount=1)
    back = await table.alice.slash(table.channel, "penalty show")
    assert "**4 penalty dice** · level **shaken**" in embed_of(back).description
    rolled = await table.alice.slash(lab, "drama test", base=2)
    assert "4 penalty dice" in text_of(rolled)


# --- a name two players share ---------------------------------------------------------------


async def test_a_gm_names_which_player_s_character_with_at_player(table: Table) -> None:
    await hermiones(table)
    unclear = await table.gm.slash(table.channel, "penalty add", character="Hermione", amount=1)
    assert unclear.ephemeral
    assert "2 characters in this channel are called Hermione" in unclear.response.content
    assert "`Hermione @player`" in unclear.response.content
    added = await table.gm.slash(
        table.channel, "penalty add", character=f"Hermione <@{table.bob.id}>", amount=2
    )
    assert not added.ephemeral and "0 → **2**" in embed_of(added).description
    bobs = await table.bob.slash(table.channel, "penalty show")
    assert "**2 penalty dice**" in embed_of(bobs).description
    alices = await table.alice.slash(table.channel, "penalty show")
    assert "**0 penalty dice**" in embed_of(alices).description
    # The same for any command with a character option, parenthesised or not.
    sheet = await table.gm.slash(
        table.channel, "sheet show", character=f"Hermione (<@{table.alice.id}>)"
    )
    assert f"played by <@{table.alice.id}>" in text_of(sheet)


async def test_autocomplete_names_each_shared_character_with_its_player(table: Table) -> None:
    await hermiones(table)
    await table.carol.slash(table.channel, "sheet create", name="Ron", system="drama")
    await table.carol.slash(table.channel, "sheet use", character="Ron")
    choices = await table.gm.autocomplete(table.channel, "penalty add", "character", "")
    shown = {c["name"]: c["value"] for c in choices}
    assert shown == {
        "Hermione (alice)": f"Hermione <@{table.alice.id}>",
        "Hermione (bob)": f"Hermione <@{table.bob.id}>",
        "Ron": "Ron",
    }
    # A player sees only their own, plainly.
    own = await table.alice.autocomplete(table.channel, "penalty add", "character", "her")
    assert [c["value"] for c in own] == ["Hermione"]


async def test_a_gm_s_own_character_of_the_same_name_stays_plain(table: Table) -> None:
    await hermiones(table)
    await table.gm.slash(table.channel, "sheet create", name="Hermione", system="drama")
    choices = await table.gm.autocomplete(table.channel, "penalty show", "character", "h")
    assert [c["value"] for c in choices] == [
        "Hermione",
        f"Hermione <@{table.alice.id}>",
        f"Hermione <@{table.bob.id}>",
    ]
    mine = await table.gm.slash(table.channel, "penalty add", character="Hermione", amount=1)
    assert "0 → **1**" in embed_of(mine).description
    alices = await table.gm.slash(
        table.channel, "penalty show", character=f"Hermione <@{table.alice.id}>"
    )
    assert "**0 penalty dice**" in embed_of(alices).description


async def test_a_player_cannot_reach_another_s_character_by_naming_its_player(
    table: Table,
) -> None:
    await hermiones(table)
    refused = await table.alice.slash(
        table.channel, "penalty add", character=f"Hermione <@{table.bob.id}>", amount=1
    )
    assert refused.ephemeral
    bobs = await table.bob.slash(table.channel, "penalty show")
    assert "**0 penalty dice**" in embed_of(bobs).description


async def test_init_join_with_a_taken_name_asks_for_a_name_option(table: Table) -> None:
    from tests.bot.cogs.initiative.test_initiative import start, tracker_text

    await hermiones(table)
    await start(table)
    first = await table.alice.slash(table.channel, "init join")
    assert not first.ephemeral
    clash = await table.bob.slash(table.channel, "init join")
    assert clash.ephemeral
    assert "Hermione is already in the encounter: join with another `name`" in text_of(clash)
    second = await table.bob.slash(table.channel, "init join", name="Hermione G.")
    assert not second.ephemeral
    assert "Hermione G." in tracker_text(table)
    # The GM enters a player's character with the same two options.
    again = await table.gm.slash(
        table.channel, "init join", character=f"Hermione <@{table.bob.id}>", name="Hermione G."
    )
    assert again.ephemeral and "already in the encounter" in text_of(again)


# --- extended tests -----------------------------------------------------------------------------


async def test_an_extended_stage_without_a_skill_asks_what_is_rolled(table: Table) -> None:
    from engine.dice import ScriptedDice

    await table.alice.slash(table.channel, "coda extended start", name="Repair", stages="10")
    asked = await table.alice.slash(table.channel, "coda extended roll")
    assert asked.ephemeral
    assert "Stage 1 of `Repair` names no skill: say which `skill` your character rolls" in (
        asked.response.content
    )
    assert "`modifier:0` for a bare 2d6" in asked.response.content
    status = await table.alice.slash(table.channel, "coda extended status")
    assert "Tests made:** 0" in text_of(status)
    table.bot.dice = ScriptedDice([5, 5])
    done = await table.alice.slash(table.channel, "coda extended roll", modifier=0)
    assert "complete" in embed_of(done).title


# --- abandoned tasks ----------------------------------------------------------------------------


async def test_an_abandoned_sustained_action_says_abandoned(table: Table) -> None:
    await table.alice.slash(table.channel, "rps sustained start", goal=10)
    result = await table.alice.slash(table.channel, "rps sustained abandon")
    text = text_of(result)
    assert "⏹️ **abandoned**" in text
    assert "in progress" not in text and "⏳" not in text
    assert "/rps sustained roll adds a check" not in text


async def test_an_abandoned_extended_test_shows_no_next_stage(table: Table) -> None:
    await table.alice.slash(table.channel, "coda extended start", name="Ward", stages="10,15")
    result = await table.alice.slash(table.channel, "coda extended abandon")
    text = text_of(result)
    assert "**Next:**" not in text and "▶️" not in text
    assert "**Abandoned** at stage 1 of 2." in text
    assert "⏹️ TN 10 · ▫️ TN 15" in text


# --- sheet names ----------------------------------------------------------------------------


async def test_sheet_names_keep_their_first_spelling_and_are_trimmed(table: Table) -> None:
    await table.alice.slash(table.channel, "sheet create", name="Hermione", system="coda")
    first = await table.alice.slash(table.channel, "sheet set", attribute=" Wits ", value=3)
    assert "Wits = 3" in text_of(first)
    again = await table.alice.slash(table.channel, "sheet set", attribute=" wITS ", value=4)
    assert "Wits = 4" in text_of(again) and "wITS" not in text_of(again)
    await table.alice.slash(table.channel, "sheet skill", name="  Stealth ", ranks=2)
    skill = await table.alice.slash(table.channel, "sheet skill", name="STEALTH", ranks=3)
    assert "Stealth 3" in text_of(skill) and "STEALTH" not in text_of(skill)
    sheet = text_of(await table.alice.slash(table.channel, "sheet show"))
    assert "Wits **4**" in sheet and "wITS" not in sheet and "STEALTH" not in sheet


# --- Drama's pool limit -----------------------------------------------------------------------


async def test_the_drama_limit_names_where_each_die_came_from(table: Table) -> None:
    await table.alice.slash(table.channel, "sheet create", name="William", system="drama")
    await table.gm.slash(table.channel, "penalty add", character="William", amount=50)
    # Penalty dice come on top of the 60 a player may add (docs/rules.md): this one rolls.
    rolled = await table.alice.slash(table.channel, "drama test", base=2, resistance=11)
    assert not rolled.ephemeral
    result = await table.alice.slash(
        table.channel, "drama test", base=2, resistance=51, difficulty="Formidable"
    )
    assert result.ephemeral
    message = result.response.content
    assert (
        "The Resistance dice (Rd) you add would be 61 (10 from Formidable + 51 from situational "
        "resistance): at most 60 dice (penalty dice come on top)." in message
    )
    assert "not 61" not in message


# --- wording ---------------------------------------------------------------------------------


async def test_coda_damage_marks_only_extra_dice_and_counts_them(table: Table) -> None:
    from engine.dice import ScriptedDice

    table.bot.dice = ScriptedDice([3, 5])
    plain = embed_of(await table.alice.slash(table.channel, "coda damage", dice=2))
    assert "💥" not in plain.title + plain.description
    assert plain.title == "🩸 8 damage"
    table.bot.dice = ScriptedDice([6, 6, 2])
    one = embed_of(await table.alice.slash(table.channel, "coda damage", dice=2))
    assert one.title == "💥 14 damage"
    assert "2d6 + 1 extra d6 (14) = **14**" in one.description
    assert "rolling 6s added one extra die." in one.description
    table.bot.dice = ScriptedDice([1])
    low = embed_of(await table.alice.slash(table.channel, "coda damage", dice=1, modifier=-9))
    assert low.title == "🩸 −8 damage" and "= **−8**" in low.description


async def test_negative_numbers_use_one_minus_sign(table: Table) -> None:
    from tests.bot.cogs.initiative.test_initiative import start, tracker_text

    await table.alice.slash(table.channel, "sheet create", name="Neg", system="coda")
    wits = await table.alice.slash(table.channel, "sheet set", attribute="Wits", value=-3)
    assert "Wits = −3" in text_of(wits) and "Wits **−3**" in text_of(wits)
    hurt = await table.alice.slash(table.channel, "sheet resource", name="Health", current=-5)
    assert "**−5**" in text_of(hurt)
    test = await table.alice.slash(table.channel, "coda test", modifier=-10, tn=5)
    assert "-" not in embed_of(test).description.replace("—", "")
    await start(table)
    troll = await table.gm.slash(table.channel, "init add", name="Troll", roll=-194)
    assert "**−194**" in text_of(troll) and "−194" in tracker_text(table)
    rps = await table.alice.slash(table.channel, "rps check", base=-20)
    assert "**Base −20**" in text_of(rps) and "SL = −20 −" in text_of(rps)


async def test_sheet_help_text_never_shows_python_booleans(table: Table) -> None:
    await table.alice.slash(table.channel, "sheet create", name="Neg", system="coda")
    missing = await table.alice.slash(table.channel, "sheet set", attribute="Wits")
    assert "remove:True" not in missing.response.content
    assert "`remove:true`" in missing.response.content
    commands = {c.qualified_name: c for c in table.bot.tree.walk_commands()}
    for name in ("sheet set", "sheet skill"):
        assert "True" not in commands[name].description


def test_no_player_facing_text_names_rules_md() -> None:
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[3] / "bot"
    found = []
    for path in root.rglob("*.py"):
        tree = ast.parse(path.read_text())
        # Docstrings (of modules, classes, functions and attributes) are for developers.
        notes = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr)}
        found += [
            f"{path.name}:{node.lineno}"
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in notes
            and "RULES.md" in node.value
        ]
    assert found == []


# --- secrecy ---------------------------------------------------------------------------------


async def test_a_secret_roll_in_open_mode_tells_the_roller_it_was_public(table: Table) -> None:
    await table.gm.slash(table.channel, "settings secret", mode="open")
    result = await table.alice.slash(table.channel, "coda test", modifier=1, tn=8, secret=True)
    assert not result.response.ephemeral
    (note,) = result.followups
    assert note.ephemeral
    assert "This roll is public" in note.content and "`open` mode" in note.content
    plain = await table.alice.slash(table.channel, "coda test", modifier=1, tn=8)
    assert plain.followups == []


# --- help ------------------------------------------------------------------------------------


async def test_help_for_one_command_shows_its_options_and_two_examples(table: Table) -> None:
    result = await table.alice.slash(table.channel, "help", command="coda test")
    assert result.ephemeral
    embed = embed_of(result)
    assert embed.title == "/coda test"
    options = next(f.value for f in embed.fields if f.name == "Options")
    assert "`tn` (whole number" in options and "`secret` (true/false, optional)" in options
    examples = next(f.value for f in embed.fields if f.name == "Examples")
    assert examples.count("`/coda test") == 2
    slashed = await table.alice.slash(table.channel, "help", command="/Init   Join")
    assert embed_of(slashed).title == "/init join"


async def test_help_for_an_unknown_command_suggests_some(table: Table) -> None:
    result = await table.alice.slash(table.channel, "help", command="coda tset")
    assert result.ephemeral and "There is no command `/coda tset`" in result.response.content
    choices = await table.alice.autocomplete(table.channel, "help", "command", "coda ext")
    assert [c["value"] for c in choices][:1] == ["coda extended abandon"]


async def test_every_command_has_its_examples_naming_only_its_options(table: Table) -> None:
    import shlex

    from bot.render.help import examples_of

    for command in table.bot.tree.walk_commands():
        if not hasattr(command, "parameters"):
            continue
        declared = {p.name for p in command.parameters}
        examples = examples_of(command)
        assert len(examples) == (2 if command.parameters else 1), command.qualified_name
        for typed, what in examples:
            assert what, command.qualified_name
            words = shlex.split(typed)
            values = [w.partition(":")[2] for w in words if ":" in w]
            assert len(values) == len(set(values)), ("a value repeated", typed)
            assert " ".join(words)[1:].startswith(command.qualified_name), typed
            options = words[len(command.qualified_name.split()) :]
            assert all(":" in w for w in options), typed  # spaces inside values are quoted
            named = {w.partition(":")[0] for w in options}
            assert named <= declared, (typed, named - declared)


async def test_a_gm_only_refusal_is_one_short_line_pointing_to_help_gm(table: Table) -> None:
    refused = await table.alice.slash(table.channel, "settings secret", mode="open")
    message = refused.response.content
    assert message.count(".") <= 2 and "\n" not in message
    assert "`/help command:gm`" in message and "Manage Channels" not in message
    gm = await table.alice.slash(table.channel, "help", command="gm")
    text = text_of(gm)
    assert "Manage Channels" in text and "`GM`" in text and "/settings gm-role" in text


# --- per-server GM roles ------------------------------------------------------------------------


async def test_a_gm_adds_a_gm_role_for_this_server(table: Table) -> None:
    storyteller = table.guild.create_role("Storyteller")
    dave = table.guild.add_member(table.env.create_user("dave"), roles=[storyteller])
    before = await dave.slash(table.channel, "settings secret", mode="open")
    assert before.ephemeral and "Only the channel's GM" in before.response.content
    refused = await table.alice.slash(table.channel, "settings gm-role", role=storyteller)
    assert refused.ephemeral and "Manage Server" in refused.response.content
    added = await table.gm.slash(table.channel, "settings gm-role", role=storyteller)
    assert not added.ephemeral
    assert f"<@&{storyteller.id}> now makes GMs here." in text_of(added)
    assert "Every server: `GM`" in text_of(added)
    now = await dave.slash(table.channel, "settings secret", mode="open")
    assert not now.ephemeral
    shown = await dave.slash(table.channel, "help", command="gm")
    assert f"<@&{storyteller.id}>" in text_of(shown)
    # Another server is not changed.
    other = table.env.create_guild("Elsewhere")
    there = other.create_text_channel("table")
    other_dave = other.add_member(table.env.create_user("dave2"), roles=[])
    assert (await other_dave.slash(there, "settings secret", mode="open")).ephemeral
    removed = await table.gm.slash(table.channel, "settings gm-role", role=storyteller, remove=True)
    assert "no longer makes GMs here" in text_of(removed)
    again = await dave.slash(table.channel, "settings secret", mode="gm")
    assert again.ephemeral


async def test_manage_server_may_add_a_gm_role(table: Table) -> None:
    import discord

    admin_role = table.guild.create_role(
        "Admins", permissions=discord.Permissions(manage_guild=True)
    )
    erin = table.guild.add_member(table.env.create_user("erin"), roles=[admin_role])
    storyteller = table.guild.create_role("Storyteller")
    added = await erin.slash(table.channel, "settings gm-role", role=storyteller)
    assert not added.ephemeral, text_of(added)
    twice = await erin.slash(table.channel, "settings gm-role", role=storyteller)
    assert "already made GMs here" in text_of(twice)


async def test_every_written_example_is_for_a_command_that_exists(table: Table) -> None:
    from bot.render.help_examples import EXAMPLES

    names = {c.qualified_name for c in table.bot.tree.walk_commands()}
    assert set(EXAMPLES) <= names


async def test_a_secret_roll_reaches_the_holders_of_a_server_gm_role(table: Table) -> None:
    storyteller = table.guild.create_role("Storyteller")
    dave = table.guild.add_member(table.env.create_user("dave"), roles=[storyteller])
    await table.gm.slash(table.channel, "settings gm-role", role=storyteller)
    await table.alice.slash(table.channel, "coda test", modifier=1, tn=8, secret=True)
    dm = dave.user.dm_channel.last_message
    assert dm is not None and "Secret roll by" in dm.content
