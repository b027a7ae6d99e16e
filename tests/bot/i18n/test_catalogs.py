"""The catalogs are complete and well formed, every user-facing string is marked, and a
new language is a new ``.po`` file and nothing else."""

from __future__ import annotations

import os
import re
import shutil
import string
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import discord
import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

# Imported before any test adds a pseudo-language: the cog's choices are built at import,
# and a later test checks that they hold exactly the installed catalogs.
from bot.cogs.settings import language_choices
from bot.i18n import _, _catalogs, available_languages, use_language
from bot.i18n.choice import language_of
from bot.i18n.commands import CatalogTranslator
from bot.i18n.extract import extract
from bot.i18n.names import native_name
from tests.bot.i18n import scan

LOCALE_DIR = _catalogs.LOCALE_DIR


def po_files() -> list[Path]:
    return sorted(LOCALE_DIR.glob("*/LC_MESSAGES/*.po"))


def read(path: Path) -> Catalog:
    with path.open("rb") as file:
        return read_po(file)


def placeholders(text: str) -> list[tuple[str, str, str]]:
    """The ``{name!conversion:spec}`` fields of a message, sorted (order may change)."""
    return sorted(
        (name, spec or "", conversion or "")
        for _literal, name, spec, conversion in string.Formatter().parse(text)
        if name is not None
    )


def forms(msgid: str | tuple[str, ...], msgstr: str | tuple[str, ...]) -> Iterator[tuple[str, str]]:
    """(English, translation) pairs: a plural's every form against the English plural."""
    if isinstance(msgid, tuple):
        strings = msgstr if isinstance(msgstr, tuple) else (msgstr,)
        for index, translated in enumerate(strings):
            yield (msgid[0] if index == 0 and len(strings) > 1 else msgid[1]), translated
    else:
        yield msgid, str(msgstr)


@pytest.fixture(scope="module")
def extracted() -> dict[str | tuple[str, str], str]:
    """Every message marked in the sources, with one place it is used."""
    found: dict[str | tuple[str, str], str] = {}
    for item in extract():
        found.setdefault(item.msgid, f"{item.path}:{item.line}")
    return found


def test_there_is_a_spanish_catalog() -> None:
    assert "es" in available_languages()


@pytest.mark.parametrize("language", [lang for lang in available_languages() if lang != "en"])
def test_every_marked_message_is_translated(
    language: str, extracted: dict[str | tuple[str, str], str]
) -> None:
    """(1) Every message found by extraction is in the catalog, not fuzzy, not empty."""
    catalog = read(_catalogs.catalog_paths(language)[0])
    problems = []
    for msgid, where in extracted.items():
        key = msgid[0] if isinstance(msgid, tuple) else msgid
        message = catalog.get(key)
        if message is None:
            problems.append(f"{where}: missing {msgid!r}")
        elif message.fuzzy:
            problems.append(f"{where}: fuzzy {msgid!r}")
        elif not all(text for text in _strings(message.string)):
            problems.append(f"{where}: empty {msgid!r}")
        elif isinstance(msgid, tuple) != isinstance(message.id, tuple):
            problems.append(f"{where}: singular/plural mismatch {msgid!r}")
    assert problems == [], "\n".join(problems)


def _strings(msgstr: str | tuple[str, ...]) -> tuple[str, ...]:
    return msgstr if isinstance(msgstr, tuple) else (msgstr,)


@pytest.mark.parametrize("path", po_files(), ids=lambda path: path.parent.parent.name)
def test_catalog_entries_keep_their_placeholders(path: Path) -> None:
    """(1) Translations have exactly the English placeholders and format without error."""
    problems = []
    for message in read(path):
        if not message.id:
            continue
        if message.fuzzy:
            problems.append(f"fuzzy: {message.id!r}")
        for english, translated in forms(message.id, message.string):
            if not translated:
                problems.append(f"empty: {message.id!r}")
                continue
            try:
                want, got = placeholders(english), placeholders(translated)
            except ValueError as error:
                problems.append(f"bad braces ({error}): {translated!r}")
                continue
            if want != got:
                problems.append(f"placeholders {got} != {want}: {english!r}")
                continue
            values = {name: 1 for name, _spec, _conv in want}
            try:
                english.format(**values)
            except (ValueError, KeyError, IndexError):
                continue  # literal braces shown as they are (a macro's {placeholder} example)
            try:
                translated.format(**values)
            except (ValueError, KeyError, IndexError) as error:
                problems.append(f"does not format ({error}): {translated!r}")
    assert problems == [], "\n".join(problems)


_MSGID = re.compile(r'^msgid "(.*)"$')
_CONTINUATION = re.compile(r'^"(.*)"$')


@pytest.mark.parametrize("path", po_files(), ids=lambda path: path.parent.parent.name)
def test_no_message_is_in_a_catalog_twice(path: Path) -> None:
    """Branches append to the catalogs (a union merge): two of them may add one message."""
    ids: list[str] = []
    current: list[str] | None = None
    for line in path.read_text(encoding="utf-8").splitlines():
        if match := _MSGID.match(line):
            current = [match.group(1)]
            ids.append("")
        elif current is not None and (match := _CONTINUATION.match(line)):
            current.append(match.group(1))
        else:
            if current is not None:
                ids[-1] = "".join(current)
            current = None
    duplicates = [msgid for msgid, count in Counter(ids).items() if count > 1 and msgid]
    assert duplicates == []


def test_the_source_scan_finds_no_unmarked_string() -> None:
    """(2) User-facing literals are marked for translation in every scanned file.

    ``python -m tests.bot.i18n.scan -v`` lists what is left; a literal that is not prose a
    player reads (a bug's message, a stored log line) goes in ``scan.ALLOWED`` with a reason.
    """
    found = scan.report()
    lines = [str(finding) for findings in found.values() for finding in findings]
    assert lines == [], "unmarked user-facing strings:\n" + "\n".join(lines)
    missing = [path for path in scan.ALLOWED if not (scan.ROOT / path).is_file()]
    assert missing == []


@pytest.mark.parametrize(
    ("source", "count"),
    [
        ('x = "Two words here."', 1),
        ('x = _("Two words here.")', 0),
        ('x = N_("Two words")', 0),
        ('log.warning("could not send %s", 1)', 0),
        ('def f():\n    """A docstring with words."""', 0),
        ('if x == "two words":\n    pass', 0),
        ('d = {"two words": 1}', 0),
        ('re.compile(r"two words")', 0),
        ('b = Button(label="Confirm")', 1),
        ('b = Button(label=N_("Confirm"))', 0),
        ('Button(custom_id="two words")', 0),
        ('e.add_field(name="Secret rolls", value="gm")', 1),
        ('command(name="my-language", description="The language")', 1),
        ('command(name="my-language", description=locale_str("The language"))', 0),
        ('x = f"Rolled {total} against TN {tn}."', 1),
        ('x = "/roll expression:2d6 label:fire bolt"', 0),
        ('x = "{a} · {b}"', 0),
        ('raise UserError(f"Unknown rule `{name}`.")', 1),
    ],
)
def test_the_scan_tells_user_facing_strings(tmp_path: Path, source: str, count: int) -> None:
    path = tmp_path / "bot" / "cogs" / "sample.py"
    path.parent.mkdir(parents=True)
    path.write_text(source + "\n", encoding="utf-8")
    assert len(scan.scan_file(path, tmp_path)) == count


def test_the_engine_is_scanned_for_error_messages_only(tmp_path: Path) -> None:
    path = tmp_path / "engine" / "sample.py"
    path.parent.mkdir(parents=True)
    path.write_text(
        'NAMES = {"drama": "Drama in History"}\nraise InputError("TN must be a number.")\n'
    )
    assert [finding.text for finding in scan.scan_file(path, tmp_path)] == ["TN must be a number."]


@pytest.fixture
def pseudo_french(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A copy of the locale folder with a third language: French, as pseudo-translations."""
    locale_dir = tmp_path / "locale"
    shutil.copytree(LOCALE_DIR, locale_dir, ignore=shutil.ignore_patterns("*.mo"))
    spanish = read(_catalogs.catalog_paths("es")[0])
    folder = locale_dir / "fr" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    lines = [
        'msgid ""',
        'msgstr ""',
        '"Language: fr\\n"',
        '"Content-Type: text/plain; charset=utf-8\\n"',
    ]
    lines.append('"Plural-Forms: nplurals=2; plural=(n > 1);\\n"\n')
    for message in spanish:
        if message.id and not isinstance(message.id, tuple):
            escaped = message.id.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
            lines += [f'msgid "{escaped}"', f'msgstr "[fr] {escaped}"', ""]
    (folder / "narrator.po").write_text("\n".join(lines), encoding="utf-8")
    monkeypatch.setattr(_catalogs, "LOCALE_DIR", locale_dir)
    _clear_caches()
    yield locale_dir
    monkeypatch.undo()
    _clear_caches()


def _clear_caches() -> None:
    _catalogs.available_languages.cache_clear()
    _catalogs.catalog.cache_clear()


async def test_a_third_language_is_a_new_po_file(pseudo_french: Path) -> None:
    """(3) No code change: the language is found, chosen, translated and uploaded."""
    assert available_languages() == ("en", "es", "fr")
    assert language_of(discord.Locale.french) == "fr"
    with use_language("fr"):
        assert _("Channel settings") == "[fr] Channel settings"
        assert _("Unknown rule `{name}`. Rules: {rules}.", name="x", rules="y") == (
            "[fr] Unknown rule `x`. Rules: y."
        )
    context = discord.app_commands.TranslationContext(
        discord.app_commands.TranslationContextLocation.other, None
    )
    translated = await CatalogTranslator().translate(
        discord.app_commands.locale_str("The rule"), discord.Locale.french, context
    )
    assert translated == "[fr] The rule"
    assert native_name("fr") == "Français"

    assert [choice.value for choice in language_choices("default")] == [
        "en",
        "es",
        "fr",
        "default",
    ]


def test_a_compiled_catalog_is_used_until_its_po_changes(pseudo_french: Path) -> None:
    """The install compiles ``.mo`` files; a ``.po`` edited later wins over the stale one,
    whatever the files' times say (an install writes them in an order of its own)."""
    po, mo = _catalogs.catalog_paths("fr")
    mo.write_bytes(_catalogs.compile_po(po))
    os.utime(po, (mo.stat().st_mtime + 10, mo.stat().st_mtime + 10))  # the .po looks newer
    _clear_caches()
    with use_language("fr"):
        assert _("Channel settings") == "[fr] Channel settings"
    assert _catalogs.catalog("fr").pgettext(_catalogs.DIGEST_CONTEXT, _catalogs.DIGEST_ID)
    po.write_text(po.read_text().replace("[fr] Channel settings", "[fr2] Channel settings"))
    os.utime(po, (mo.stat().st_mtime - 10, mo.stat().st_mtime - 10))  # and now older
    _clear_caches()
    with use_language("fr"):
        assert _("Channel settings") == "[fr2] Channel settings"
