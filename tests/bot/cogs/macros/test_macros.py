"""``/macro`` and ``/sheet panel`` as players and GMs use them: save, run, prompt, shadowing,
permissions, refusals, and panel buttons that still work after a restart."""

from __future__ import annotations

import json
import shlex
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from simcord.components import walk_components
from sqlalchemy import select

from bot.cogs.macros import PANEL_COMMANDS
from bot.gateway import find_leaf
from bot.storage.models import Macro, RollLog
from engine.dice import ScriptedDice
from tests.conftest import Table, embed_of, text_of

BREW = 'coda skill skill:Potions difficulty:{difficulty:Challenging} label:"brew"'


async def potioneer(table: Table) -> None:
    await table.alice.slash(table.channel, "sheet create", name="Hermione", system="coda")
    await table.alice.slash(table.channel, "sheet set", attribute="Wits", value=3)
    await table.alice.slash(table.channel, "sheet skill", name="Potions", ranks=2, attribute="wits")


async def logged(table: Table) -> list[RollLog]:
    async with table.bot.db.unit_of_work(read_only=True) as session:
        return list((await session.execute(select(RollLog).order_by(RollLog.id))).scalars())


# --- save --------------------------------------------------------------------------------


async def test_save_then_run_with_a_prompted_difficulty(table: Table) -> None:
    await potioneer(table)
    saved = await table.alice.slash(table.channel, "macro save", name="brew", command=BREW)
    assert saved.ephemeral and "Macro brew — saved" in text_of(saved)
    shown = await table.alice.slash(table.channel, "macro run", name="brew")
    assert shown.modal is not None  # the form asks for the difficulty, prefilled
    fields = json.dumps(shown.modal)
    assert "placeholder:difficulty" in fields and "Challenging" in fields
    table.bot.dice = ScriptedDice([3, 4])
    result = await table.alice.submit_modal(shown, {"placeholder:difficulty": "Difficult"})
    embed = embed_of(result)
    assert "brew" in embed.title and not result.ephemeral
    assert "Difficult" in text_of(result)
    entry = (await logged(table))[-1]
    assert (entry.macro, entry.label, entry.system) == ("brew", "brew", "coda")


async def test_values_option_skips_the_form(table: Table) -> None:
    await potioneer(table)
    await table.alice.slash(table.channel, "macro save", name="brew", command=BREW)
    result = await table.alice.slash(
        table.channel, "macro run", name="BREW", values="difficulty:Routine"
    )
    assert result.modal is None and "Routine" in text_of(result)
    assert (await logged(table))[-1].macro == "brew"


async def test_a_macro_without_placeholders_runs_at_once(table: Table) -> None:
    await table.alice.slash(table.channel, "macro save", name="d", command="roll expression:2d6")
    table.bot.dice = ScriptedDice([3, 4])
    result = await table.alice.slash(table.channel, "macro run", name="d")
    assert "7" in text_of(result)


async def test_save_refuses_what_the_command_tree_refuses(table: Table) -> None:
    cases = {
        "nonsense": "Unknown command /nonsense",
        "coda": "/coda needs a subcommand",
        "coda fly skill:x": "/coda fly is not a command",
        "coda skill skill:Potions colour:red": "has no option `colour`",
        "coda skill skill:Potions difficulty:Impossible": "Option `difficulty` is one of",
        "coda skill skill:Potions tn:abc": "takes a number",
        "coda skill skill:Potions tn:1000": "Option `tn` of /coda skill takes",
        "coda skill difficulty:Routine": "needs option `skill`",
        "macro run name:x": "A macro cannot run a macro",
        'roll expression:"2d6': "Could not read that line",
        "sheet show player:bob": "a macro holds only text",
    }
    for command, message in cases.items():
        result = await table.alice.slash(table.channel, "macro save", name="x", command=command)
        assert result.ephemeral and message in result.response.content, command
    listed = await table.alice.slash(table.channel, "macro list")
    assert "None yet" in text_of(listed)


async def test_names_and_limits(table: Table) -> None:
    await table.alice.slash(table.channel, "macro save", name="d", command="roll expression:d6")
    again = await table.alice.slash(
        table.channel, "macro save", name="D", command="roll expression:d8"
    )
    assert "already a me macro called `D`" in again.response.content
    blank = await table.alice.slash(
        table.channel, "macro save", name="  ", command="roll expression:d6"
    )
    assert "1 to 32 characters" in blank.response.content
    tick = await table.alice.slash(
        table.channel, "macro save", name="a`b", command="roll expression:d6"
    )
    assert "cannot hold a backtick" in tick.response.content
    many = await table.alice.slash(
        table.channel,
        "macro save",
        name="six",
        command="roll expression:{a} label:{b} secret:{c}",
    )
    assert "saved" in text_of(many)


async def test_a_scope_holds_at_most_100(table: Table) -> None:
    async with table.bot.db.unit_of_work() as session:
        for slot in range(100):
            session.add(
                Macro(
                    guild_id=table.guild.id,
                    scope="me",
                    owner_id=table.alice.id,
                    slot=slot,
                    name=f"m{slot}",
                    name_key=f"m{slot}",
                    command="roll expression:d6",
                    created_by=table.alice.id,
                )
            )
    full = await table.alice.slash(
        table.channel, "macro save", name="one", command="roll expression:d6"
    )
    assert "at most 100 macros" in full.response.content
    theirs = await table.bob.slash(
        table.channel, "macro save", name="one", command="roll expression:d6"
    )
    assert "saved" in text_of(theirs)


# --- scopes, shadowing, permissions --------------------------------------------------------


async def test_a_gm_gives_the_channel_a_perception_check(table: Table) -> None:
    refused = await table.alice.slash(
        table.channel,
        "macro save",
        name="Perception check",
        command="roll expression:d20",
        scope="channel",
    )
    assert "Only the channel's GM" in refused.response.content
    await table.gm.slash(
        table.channel,
        "macro save",
        name="Perception check",
        command='roll expression:d20 label:"Perception"',
        scope="channel",
    )
    for player in (table.alice, table.bob):
        result = await player.slash(table.channel, "macro run", name="perception check")
        assert "Perception" in embed_of(result).title
    other = table.guild.create_text_channel("other")
    away = await table.alice.slash(other, "macro run", name="Perception check")
    assert "no macro called `Perception check` here" in away.response.content


async def test_own_macros_shadow_character_channel_and_server(table: Table) -> None:
    await potioneer(table)
    await table.gm.slash(
        table.channel,
        "macro save",
        name="x",
        command="roll expression:1 label:server",
        scope="server",
    )
    await table.gm.slash(
        table.channel,
        "macro save",
        name="x",
        command="roll expression:1 label:channel",
        scope="channel",
    )
    assert (
        "channel" in embed_of(await table.alice.slash(table.channel, "macro run", name="x")).title
    )
    await table.alice.slash(
        table.channel,
        "macro save",
        name="x",
        command="roll expression:1 label:character",
        scope="character",
    )
    assert (
        "character" in embed_of(await table.alice.slash(table.channel, "macro run", name="x")).title
    )
    await table.alice.slash(
        table.channel, "macro save", name="x", command="roll expression:1 label:mine"
    )
    assert "mine" in embed_of(await table.alice.slash(table.channel, "macro run", name="x")).title
    listed = text_of(await table.alice.slash(table.channel, "macro list"))
    assert listed.count("hidden by one above") == 3
    choices = await table.alice.autocomplete(table.channel, "macro run", "name", "")
    assert [c["value"] for c in choices] == ["x"]
    assert "(me)" in choices[0]["name"]
    # Bob sees the channel's (his own scopes are empty).
    assert "channel" in embed_of(await table.bob.slash(table.channel, "macro run", name="x")).title


async def test_running_is_running_the_command_as_the_caller(table: Table) -> None:
    """Bob runs the channel's brew: his own (missing) sheet is used, not Alice's."""
    await potioneer(table)
    await table.gm.slash(table.channel, "macro save", name="brew", command=BREW, scope="channel")
    result = await table.bob.slash(
        table.channel, "macro run", name="brew", values="difficulty:Routine"
    )
    assert result.ephemeral and "no character" in result.response.content


async def test_secret_mode_is_the_commands(table: Table) -> None:
    await table.alice.slash(
        table.channel, "macro save", name="s", command="roll expression:d6 secret:true"
    )
    result = await table.alice.slash(table.channel, "macro run", name="s")
    assert result.ephemeral and result.response.content.startswith("🔒 Secret roll.\n")
    assert (await logged(table))[-1].secret


async def test_a_range_narrowed_after_saving_is_refused_clearly(table: Table) -> None:
    await table.alice.slash(table.channel, "macro save", name="hard", command="coda test tn:20")
    tn = next(
        p
        for p in table.bot.tree.get_command("coda").get_command("test")._params.values()  # type: ignore[union-attr]
        if p.name == "tn"
    )
    old = tn.max_value
    tn.max_value = 15  # as if an update narrowed the range
    try:
        result = await table.alice.slash(table.channel, "macro run", name="hard")
    finally:
        tn.max_value = old
    assert result.ephemeral
    assert (
        "Option `tn` of /coda test takes" in result.response.content
        and "not 20" in result.response.content
    )


async def test_show_edit_delete(table: Table) -> None:
    await table.alice.slash(table.channel, "macro save", name="d", command="roll expression:d6")
    shown = await table.alice.slash(table.channel, "macro show", name="d")
    assert "`/roll expression:d6`" in text_of(shown)
    form = await table.alice.slash(table.channel, "macro edit", name="d")
    assert form.modal is not None
    bad = await table.alice.submit_modal(form, {"command": "roll nope:1"})
    assert "has no option `nope`" in bad.response.content
    form = await table.alice.slash(table.channel, "macro edit", name="d")
    edited = await table.alice.submit_modal(form, {"command": "roll expression:d8"})
    assert "edited" in text_of(edited) and "d8" in text_of(edited)
    others = await table.bob.slash(table.channel, "macro delete", name="d")
    assert "no me macro called `d`" in others.response.content
    gone = await table.alice.slash(table.channel, "macro delete", name="d")
    assert "deleted" in text_of(gone)
    missing = await table.alice.slash(table.channel, "macro run", name="d")
    assert "no macro called `d`" in missing.response.content


async def test_a_modal_value_out_of_range_is_refused(table: Table) -> None:
    await table.alice.slash(table.channel, "macro save", name="t", command="coda test tn:{tn}")
    form = await table.alice.slash(table.channel, "macro run", name="t")
    refused = await table.alice.submit_modal(form, {"placeholder:tn": "9999"})
    assert refused.ephemeral and "Option `tn` of /coda test takes" in refused.response.content


# --- character macros travel with the sheet -------------------------------------------------


async def test_character_macros_are_exported_and_imported(table: Table) -> None:
    await potioneer(table)
    await table.alice.slash(
        table.channel, "macro save", name="brew", command=BREW, scope="character"
    )
    exported = await table.alice.slash(table.channel, "sheet export")
    [attachment] = exported.response.attachments
    content = await attachment.read()
    file = json.loads(content)
    assert file["macros"] == [{"name": "brew", "command": BREW}]
    file["name"] = "Twin"
    result = await table.bob.slash(
        table.channel, "sheet import", file=("twin.json", json.dumps(file).encode())
    )
    assert "Twin" in text_of(result)
    listed = text_of(await table.bob.slash(table.channel, "macro list"))
    assert "brew" in listed and "Your character's" in listed
    old = {k: v for k, v in file.items() if k != "macros"}
    old["name"] = "Old"
    older = await table.carol.slash(
        table.channel, "sheet import", file=("old.json", json.dumps(old).encode())
    )
    assert "Old" in text_of(older)


# --- the quick-roll panel -------------------------------------------------------------------


async def test_panel_buttons_roll_for_their_character_and_survive_a_restart(table: Table) -> None:
    await potioneer(table)
    await table.alice.slash(
        table.channel, "macro save", name="brew", command=BREW, scope="character"
    )
    await table.alice.slash(
        table.channel,
        "macro save",
        name="quick",
        command="coda skill skill:Potions difficulty:Routine",
        scope="character",
    )
    none = await table.bob.slash(table.channel, "sheet panel")
    assert none.ephemeral
    posted = await table.alice.slash(table.channel, "sheet panel")
    panel = posted.response
    assert "Hermione — quick rolls" in embed_of(posted).title
    await table.env.restart_bot()
    refused = await table.bob.click(panel, label="quick")
    assert refused.response.content == "Only Hermione's player or a GM can use this panel."
    table.bot.dice = ScriptedDice([5, 5, 3, 4, 2, 3])
    rolled = await table.alice.click(panel, label="quick")
    assert "Hermione" in text_of(rolled) and "Routine" in text_of(rolled)
    form = await table.alice.click(panel, label="brew")
    assert form.modal is not None
    brewed = await table.alice.submit_modal(form, {"placeholder:difficulty": "Routine"})
    assert "brew" in embed_of(brewed).title
    entry = (await logged(table))[-1]
    assert entry.macro == "brew" and entry.user_id == table.alice.id
    by_gm = await table.gm.click(panel, label="quick")  # Hermione is used here: the GM may
    assert "Hermione" in text_of(by_gm)


# --- any command line: saved and runnable, or refused with a message -----------------------


def _drawn_lines(tree_json: list[dict[str, Any]], count: int) -> list[str]:
    """Command lines drawn from the tree (real paths, options and choices, values of every
    kind, placeholders) and from noise; the same ones on every run."""
    leaves: list[tuple[str, dict[str, Any]]] = []

    def walk(prefix: str, node: dict[str, Any]) -> None:
        subs = [o for o in node.get("options") or [] if o.get("type") in (1, 2)]
        if not subs:
            leaves.append((prefix, node))
        for sub in subs:
            walk(f"{prefix} {sub['name']}", sub)

    for root in tree_json:
        walk(root["name"], root)
    value = st.one_of(
        st.text(st.characters(exclude_categories=("Cs",)), max_size=12),
        st.integers(-(10**6), 10**6).map(str),
        st.sampled_from(["{x}", "{d:Routine}", "{n:3}", "true", "Potions", "2d6", "{a:", "}"]),
    )

    def line_of(leaf: tuple[str, dict[str, Any]]) -> st.SearchStrategy[str]:
        path, node = leaf
        names = [o["name"] for o in node.get("options") or []] + ["nope"]
        choice_values = [
            str(c["name"]) for o in node.get("options") or [] for c in o.get("choices") or []
        ]
        option = st.tuples(
            st.sampled_from(names), st.one_of(value, st.sampled_from(choice_values or ["x"]))
        )
        return st.lists(option, max_size=4).map(
            lambda pairs: " ".join([path, *(shlex.quote(f"{n}:{v}") for n, v in pairs)])
        )

    lines = st.one_of(
        st.sampled_from(leaves).flatmap(line_of),
        st.text(max_size=40),
    )
    drawn: list[str] = []

    @settings(
        max_examples=count,
        derandomize=True,
        database=None,
        phases=[Phase.generate],
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(lines)
    def collect(line: str) -> None:
        drawn.append(line)

    collect()
    return drawn


async def test_any_command_line_is_saved_and_runs_or_is_refused_with_a_message(
    table: Table,
) -> None:
    await potioneer(table)
    tree = table.bot.tree
    lines = _drawn_lines([c.to_dict(tree) for c in tree.get_commands()], 60)
    saved = 0
    for index, line in enumerate(lines):
        if not line.strip() or len(line) > 500:
            continue
        name = f"m{index}"
        result = await table.alice.slash(table.channel, "macro save", name=name, command=line)
        assert result.response is not None and result.ephemeral, line
        if "saved" not in text_of(result):
            assert result.response.content, line  # a refusal names what is wrong
            continue
        saved += 1
        ran = await table.alice.slash(
            table.channel, "macro run", name=name, values="x:1 d:Routine n:3"
        )
        assert ran.acknowledged, line
        if ran.modal is not None:
            ran = await table.alice.submit_modal(ran, {})
        replies = [m for m in [ran.response, *ran.followups] if m is not None]
        assert replies, line
    assert saved >= 5  # the drawn lines reach the commands, not only the refusals


# --- a panel's button: rolls only, as the character's player ----------------------------------


def _buttons(message: Any) -> list[str]:
    return [c["label"] for c in walk_components(message.components) if c.get("type") == 2]


async def _franky(table: Table) -> None:
    """Bob's character, used in the channel (so a GM can name it here)."""
    await table.bob.slash(table.channel, "sheet create", name="Franky", system="coda")
    await table.bob.slash(table.channel, "sheet set", attribute="Wits", value=1)
    await table.bob.slash(table.channel, "sheet skill", name="Potions", ranks=1, attribute="wits")
    await table.bob.slash(table.channel, "sheet use", character="Franky")


async def _peter(table: Table) -> None:
    """Bob's Drama character (penalty pools are Drama's), used in the channel."""
    await table.bob.slash(table.channel, "sheet create", name="Peter", system="drama")
    await table.bob.slash(table.channel, "sheet use", character="Peter")


async def _secret_mode_text(table: Table) -> str:
    return text_of(await table.alice.slash(table.channel, "settings show"))


async def _peter_penalty(table: Table) -> str:
    shown = text_of(await table.bob.slash(table.channel, "penalty show", character="Peter"))
    assert "Penalty pool — Peter" in shown, shown
    return shown


async def _save_for_hermione(table: Table, name: str, command: str) -> None:
    saved = await table.alice.slash(
        table.channel, "macro save", name=name, command=command, scope="character"
    )
    assert "saved" in text_of(saved), text_of(saved)


async def test_a_panel_never_holds_settings_penalties_or_history(table: Table) -> None:
    await potioneer(table)
    await _peter(table)
    before = (await _secret_mode_text(table), await _peter_penalty(table))
    await _save_for_hermione(table, "pen", "penalty add character:Peter amount:40")
    await _save_for_hermione(table, "open", "settings secret mode:open")
    await _save_for_hermione(table, "peek", "history reveal:1")
    refused = await table.alice.slash(table.channel, "sheet panel")
    assert refused.ephemeral
    text = refused.response.content
    assert text.startswith("Hermione's panel was not posted:")
    assert "macro `pen` runs `/penalty add`, which is not a roll" in text
    assert "macro `open` runs `/settings secret`, which is not a roll" in text
    assert "macro `peek` runs `/history`, which is not a roll" in text
    assert "runs only rolls (`/roll`, `/coda test`" in text
    # With a roll among them, the panel holds that roll alone; its poster is told which not.
    await _save_for_hermione(table, "quick", "coda skill skill:Potions difficulty:Routine")
    posted = await table.alice.slash(table.channel, "sheet panel")
    assert not posted.ephemeral and _buttons(posted.response) == ["quick"]
    (note,) = posted.followups
    assert note.ephemeral and note.content.startswith("Left off Hermione's panel:")
    assert "`pen`" in note.content and "`open`" in note.content and "`peek`" in note.content
    table.bot.dice = ScriptedDice([3, 3])
    by_gm = await table.gm.click(posted.response, label="quick")
    assert "Hermione" in text_of(by_gm)
    assert (await _secret_mode_text(table), await _peter_penalty(table)) == before


async def test_a_macro_edited_into_a_non_roll_after_posting_is_refused_on_press(
    table: Table,
) -> None:
    await potioneer(table)
    await _peter(table)
    await _save_for_hermione(table, "quick", "coda skill skill:Potions difficulty:Routine")
    await _save_for_hermione(table, "brew", BREW)
    panel = (await table.alice.slash(table.channel, "sheet panel")).response
    before = (await _secret_mode_text(table), await _peter_penalty(table))
    form = await table.alice.slash(table.channel, "macro edit", name="quick", scope="character")
    await table.alice.submit_modal(form, {"command": "settings secret mode:open"})
    form = await table.alice.slash(table.channel, "macro edit", name="brew", scope="character")
    await table.alice.submit_modal(form, {"command": "penalty add character:Peter amount:40"})
    runs = len(await logged(table))
    for presser in (table.gm, table.alice):
        for label, command in (("quick", "/settings secret"), ("brew", "/penalty add")):
            refused = await presser.click(panel, label=label)
            assert refused.ephemeral and refused.modal is None
            assert refused.response.content.startswith(
                f"This button cannot run: macro `{label}` runs `{command}`, which is not a roll."
            )
    assert (await _secret_mode_text(table), await _peter_penalty(table)) == before
    assert len(await logged(table)) == runs


async def test_a_gm_pressing_a_players_button_rolls_as_the_player(table: Table) -> None:
    await potioneer(table)
    await _save_for_hermione(table, "quick", "coda skill skill:Potions difficulty:Routine")
    panel = (await table.alice.slash(table.channel, "sheet panel")).response
    table.bot.dice = ScriptedDice([3, 3])
    by_gm = await table.gm.click(panel, label="quick")
    assert not by_gm.ephemeral and "Hermione" in text_of(by_gm)
    entry = (await logged(table))[-1]
    assert (entry.user_id, entry.macro) == (table.alice.id, "quick")
    assert table.alice.name in text_of(by_gm)  # the roller shown is the player
    assert table.gm.name not in text_of(by_gm)


async def test_a_gm_pressing_a_players_button_lends_it_no_gm_rights(table: Table) -> None:
    await potioneer(table)
    await _franky(table)
    line = "coda skill skill:Potions difficulty:Routine character:Franky"
    await _save_for_hermione(table, "steal", line)
    await _save_for_hermione(
        table, "pick", "coda skill skill:Potions difficulty:Routine character:{who}"
    )
    # Alice herself may not roll for Bob's Franky; the GM may.
    own = await table.alice.slash(table.channel, "macro run", name="steal")
    assert own.ephemeral and "Franky" in own.response.content
    panel = (await table.alice.slash(table.channel, "sheet panel")).response
    runs = len(await logged(table))
    refused = await table.gm.click(panel, label="steal")
    assert refused.ephemeral
    assert refused.response.content == (
        "Macro `steal` rolls for Franky: a button of Hermione's panel rolls only for Hermione."
    )
    form = await table.gm.click(panel, label="pick")
    assert form.modal is not None
    picked = await table.gm.submit_modal(form, {"placeholder:who": f"Franky <@{table.bob.id}>"})
    assert picked.ephemeral and "rolls only for Hermione" in picked.response.content
    assert len(await logged(table)) == runs
    # Named explicitly, the panel's own character is fine (and still rolled as Alice).
    table.bot.dice = ScriptedDice([3, 3])
    mine = await table.gm.submit_modal(
        await table.gm.click(panel, label="pick"), {"placeholder:who": "hermione"}
    )
    assert "Hermione" in text_of(mine)
    assert (await logged(table))[-1].user_id == table.alice.id


async def test_channel_and_server_macros_run_with_the_runners_own_rights(table: Table) -> None:
    await potioneer(table)
    await _peter(table)
    await table.gm.slash(
        table.channel,
        "macro save",
        name="tire",
        command="penalty add character:Peter amount:2",
        scope="channel",
    )
    await table.gm.slash(
        table.channel,
        "macro save",
        name="open",
        command="settings secret mode:open",
        scope="server",
    )
    before = (await _secret_mode_text(table), await _peter_penalty(table))
    tire = await table.alice.slash(table.channel, "macro run", name="tire")
    assert tire.ephemeral
    opened = await table.alice.slash(table.channel, "macro run", name="open")
    assert opened.ephemeral and "Only the channel's GM" in opened.response.content
    assert (await _secret_mode_text(table), await _peter_penalty(table)) == before
    # A GM who runs the same macros has a GM's rights: their own.
    tired = await table.gm.slash(table.channel, "macro run", name="tire")
    assert not tired.ephemeral and "0 → **2**" in text_of(tired)
    assert await _peter_penalty(table) != before[1]
    await table.gm.slash(table.channel, "macro run", name="open")
    assert "`open`" in await _secret_mode_text(table)


def test_every_panel_command_is_a_command_of_the_tree(table: Table) -> None:
    tree = table.bot.tree
    for path in PANEL_COMMANDS:
        root = tree.get_command(path[0])
        assert root is not None, path
        find_leaf(root.to_dict(tree), path)
