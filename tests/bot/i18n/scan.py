"""Find user-facing string literals that are not marked for translation (an AST scan).

A string is *user-facing* when it is prose (two words or more, or a sentence) or when it
fills a field Discord shows (a label, title, placeholder, description, field name or
value, footer, message content), and it is *marked* when it is an argument of ``_``,
``_n``, ``N_``, ``locale_str`` or ``locale_format``. Log messages, docstrings, regular
expressions, custom ids, comparisons, dictionary keys and type annotations are not
user-facing. What remains is reported per file; ``ALLOWED`` lists the reviewed exceptions.

Run ``python -m tests.bot.i18n.scan`` for the report of every scanned file.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
#: Where the bot's users read text: cogs, rendering, services, and the engine's errors.
SCANNED = (
    "bot/cogs",
    "bot/render",
    "bot/services",
    "engine",
    "bot/gateway/_tree.py",
    "bot/errors.py",
    "bot/gateway/_deadline.py",
    "bot/gateway/_ratelimit.py",
    "bot/text.py",
    "bot/gateway/_interactions.py",
    "bot/gateway/_commandline.py",
    "bot/console/_console.py",
    "bot/console/_forms.py",
    "bot/console/_locale.py",
    "bot/console/_payloads.py",
    "bot/console/_run.py",
    "bot/console/_text.py",
    "bot/console/_world.py",
)
#: Engine modules are scanned for the messages of errors they raise only.
ENGINE = "engine"

WRAPPERS = {"_", "_n", "N_", "locale_str", "locale_format"}
#: Calls whose string arguments are never shown to users.
NOT_SHOWN_CALLS = {
    # logging
    "debug", "info", "warning", "error", "exception", "critical", "log", "getLogger",
    # regular expressions, attribute access, parsing, comparisons by method
    "compile", "match", "fullmatch", "search", "sub", "subn", "split", "findall", "finditer",
    "getattr", "hasattr", "setattr", "delattr", "startswith", "endswith", "removeprefix",
    "removesuffix", "strip", "lstrip", "rstrip", "replace", "encode", "decode", "count",
    "index", "find", "partition", "rpartition", "join",
    # typing and data helpers
    "TypeVar", "ContextVar", "NamedTuple", "namedtuple", "cast", "field", "Literal",
    # dict and mapping access by key
    "get", "pop", "setdefault",
    # storage
    "text", "mapped_column", "Column", "ForeignKey", "Index", "UniqueConstraint",
    "CheckConstraint", "relationship", "execute",
    # discord.py plumbing
    "add_dynamic_items", "autocomplete", "Object", "File", "set_image", "set_thumbnail",
    "add_listener", "wait_for", "dispatch",
}  # fmt: skip
#: Keyword arguments that are ids, names or formats, never prose shown to users.
NOT_SHOWN_KEYWORDS = {
    "custom_id", "template", "style", "emoji", "url", "filename", "format", "sep", "end",
    "encoding", "mode", "parent", "name", "key", "kind", "scope", "reason", "colour",
    "color", "type", "id", "value", "scheme", "locale", "action_id", "extension", "prefix",
}  # fmt: skip
#: ``name=``/``value=`` are shown for these calls (embed fields, choices, authors).
SHOWN_NAME_CALLS = {"add_field", "insert_field_at", "set_field_at", "Choice", "set_author"}
#: Keyword arguments Discord shows as they are.
SHOWN_KEYWORDS = {"label", "title", "placeholder", "description", "content", "text", "refusal"}

_WORD = re.compile(r"[A-Za-z][A-Za-z'’]+")
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")
_IDENTIFIER_LIKE = re.compile(r"^[\w.:/%-]*$")
#: A command line as typed (``/roll expression:2d6``): commands stay English in every language.
_COMMAND_LINE = re.compile(r"^/[a-z][\w-]*( [\w-]+)*( [\w-]+:.*)?$")

#: Reviewed exceptions: path → literal texts (exactly as scanned) that stay as they are.
ALLOWED: dict[str, set[str]] = {
    "bot/console/_world.py": {"Narrator console"},  # the simulated server's name, never shown
    # CODA, Infinity, quidditch (20c): the roll log's stored lines (``/history``, English as
    # written), engine keys and the system's stored name; never shown through ``_``.
    "bot/cogs/coda/_actions.py": {
        "Drop prone",  # the engine's action key (the label beside it is marked)
        "Stand from prone",
        "the initiative cog is not loaded",  # a bug's RuntimeError, never a user's message
    },
    "bot/render/coda/_rolls.py": {"opposed test", "combined test"},  # footer keys
    "bot/render/coda/_extended.py": {"extended test"},  # a footer key
    "bot/render/infinity.py": {"Infinity CodeOne"},  # the system's stored name
    "bot/services/coda/_roller.py": {"{} {} vs TN {}{}"},
    "bot/services/coda/_single.py": {"skill test", "attribute test", "reaction test"},
    "bot/services/coda/_combined_roll.py": {
        "combined helper {}",
        "combined leader {} (helpers {})",
    },
    "bot/services/coda/_extended.py": {"extended '{}' stage {}"},
    "bot/services/coda/_actions.py": {"{} beyond the allowance"},
    "bot/services/coda/_attack.py": {
        "attack on {}",
        "attack {} on {}",
        "damage {}d6{} to {}",
    },
    "bot/services/coda/_combined.py": {
        "combined leader {}, helpers ",
        "waiting for {}",
        "combined helper {} (waiting for the other helpers)",
        "combined helper {}",
        "combined leader {} (helpers {})",
    },
    "bot/services/coda/_opposed.py": {
        "opposed {} ({}) vs {} ({})",
        "opposed {} ({}) vs {} (its player rolls)",
        "{} · waiting for side B",
    },
    "bot/services/coda/_turn.py": {"extra action, {}"},  # a stored part label; shown translated
    "bot/services/infinity/_rolls.py": {
        "roll {} MOD {} B{}: SV {}",
        "ftf {} MOD {} B{} (SV {}) split: ",
        "save damage {} armor {}{} MOD {} hits {}",
        "{} wound(s), {} saved",
        "automatic failure",
        "{} success(es)",
        "nobody wins ({})",
        "{} wins, {} hit(s) ({})",
    },
    "bot/services/infinity/_ftf.py": {
        "ftf {} MOD {} B{} (SV {}) vs {} MOD {} B{} (SV {})",
        "ftf {} MOD {} B{} (SV {}) vs {} (its player rolls)",
        "waiting for the reactive side",
    },
    "bot/services/quidditch/_match.py": {" · snitch caught"},
    "engine/systems/coda/_tables.py": {"duplicate condition name {}"},  # import-time guard
    # Reviewed: roll-log text (/history keeps stored English: docs/decisions/languages.md), engine
    # words stored in English and translated where shown (render.drama.part_label,
    # render.initiative.roll_detail), choice names built at import (each has its catalog
    # entry: locale_str at use), examples typed as they are, and TypeErrors (bugs).
    "bot/cogs/drama/_cog.py": {
        "{} (no dice)",
    },
    "bot/cogs/initiative/_cog.py": {
        "full round",
    },
    "bot/render/drama.py": {
        "**{}Bd · {}Rd · {}Dd**",
        "Base dice",
        "Bd {}: {} · Rd {}: {}",
        "penalty dice",
        "penalty dice as a risk",
        "situational resistance",
        "target's stat",
    },
    "bot/render/initiative/_reply.py": {
        "keep higher",
        "keep lower",
        "rolling 6s!",
    },
    "bot/services/drama/_rolls.py": {
        "Tom:3, @bob",
        "{}Bd {}Rd {}Dd",
    },
    "bot/services/drama/_helpers.py": {
        "net {} · waiting for the other helpers",
        "net {} · waiting for {}",
        "{}: helping test {}",
    },
    "bot/services/drama/_opposed.py": {
        "net {} · waiting for the other side",
        "opposed {} {} vs <@{}> (they roll their side)",
        "opposed {} {} vs {} {}",
        "{} wins by {}",
    },
    "bot/services/hogwarts1990/_rolls.py": {
        "{} vs {} (its player rolls)",
        "{} · waiting for the other side",
    },
    "bot/services/hogwarts1990/_attack.py": {
        "attack on {}",
        "{} dodges {}'s attack on {}: difficulty {} + ",
    },
    "bot/services/initiative/_joining.py": {"set by the GM"},
    "bot/services/initiative/_rolls.py": {"initiative {} (round {}): {}"},
    "bot/services/rps/_rolls.py": {", automatic success (GM)", ", roll forgone"},
    "bot/services/rps/_sustained.py": {"sustained check {}"},
    "bot/services/rps/_resisted.py": {
        " · waiting for {}",
        "SL {} · waiting for the other parts",
        "tie between {}",
        "{} wins, SL {}",
        "{}: resisted part Base {} ({})",
    },
    "engine/initiative/machine.py": {
        "a re-roll needs dice",
    },
    "engine/initiative/rolloff.py": {
        "{} ties: a roll-off needs dice",
    },
    "engine/initiative/turns.py": {
        "not an initiative event: {}",
    },
    # Reviewed by the lead after the merge: not prose a player reads in a language.
    "bot/render/charts.py": {"fair dice", "lower center"},  # a matplotlib label key, a position
    "bot/render/commitments.py": {  # the file a player checks with sha256sum, kept verbatim
        "```sh\n{}\n```",
        "record: {}\nsalt: {}\ncommitment: {}\ncheck: {}\n",
    },
    "bot/render/help.py": {"#gm-notes"},  # a channel name in an example
    "bot/render/help_examples.py": {"the gate", "a long march"},  # sample values typed as-is
    "bot/services/dice_stats.py": {"sides 2–{} and count 1–{}"},  # a ValueError: a bug
    "bot/services/sheets/_model.py": {"set attribute:{} value"},  # a command line (English)
    # d20's own texts, as d20 raises them (the notation reads its tree back itself): the
    # count's message is replaced by a marked one; the division's is the detail d20 always gave.
    "engine/notation/_roll.py": {"Too many dice rolled."},
    "engine/notation/_rolled_tree.py": {
        "Cannot divide by zero.",
        "d20 has no breakdown for {}",  # a node kind d20 never makes: a bug's TypeError
    },
    "engine/dice.py": {  # misused dice sources: bugs in tests, never a player's message
        "ScriptedDice exhausted: draw #{} (a d{}) was asked for, but only {} faces were "
        "scripted: {}",
        "ScriptedDice face {} at draw #{} does not fit a d{} (faces 1..{})",
        "replayed face {} does not fit a d{} (faces 1..{})",
    },
    "engine/fairness.py": {  # the statistics' own preconditions (ValueError): bugs
        "a must be a positive multiple of 1/2, not {}",
        "y must be at least 0, not {}",
        "degrees of freedom must be at least 1, not {}",
        "face {} does not fit a d{}",
        "a die has at least 2 faces",
    },
}


@dataclass(frozen=True, slots=True)
class Finding:
    path: str
    line: int
    text: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.text!r}"


def is_prose(text: str) -> bool:
    """Two words or more, or a sentence: what a person reads (not an id or a format)."""
    bare = _PLACEHOLDER.sub(" ", text).strip()
    if not bare or _IDENTIFIER_LIKE.match(bare) or _COMMAND_LINE.match(bare):
        return False
    words = _WORD.findall(bare)
    return len(words) >= 2 or (len(words) == 1 and bare.rstrip().endswith((".", "!", "?")))


def _shows_words(text: str) -> bool:
    """A label's text with a word in it (not only placeholders, ids or punctuation)."""
    bare = _PLACEHOLDER.sub(" ", text).strip()
    if not _WORD.search(bare):
        return False
    # "Confirm" is a label; "gm" or "coda.ones" is a value shown as it is typed.
    return not _IDENTIFIER_LIKE.match(bare) or any(char.isupper() for char in bare)


def _call_name(node: ast.Call) -> str:
    func = node.func
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return ""


def _text(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(
            part.value if isinstance(part, ast.Constant) else "{}" for part in node.values
        )
    return None


class _Scanner(ast.NodeVisitor):
    def __init__(self, path: str, engine: bool) -> None:
        self.path = path
        self.engine = engine
        self.found: list[Finding] = []
        self.parents: list[ast.AST] = []

    def generic_visit(self, node: ast.AST) -> None:
        self.parents.append(node)
        super().generic_visit(node)
        self.parents.pop()

    def visit_Constant(self, node: ast.Constant) -> None:
        self._check(node)

    def visit_JoinedStr(self, node: ast.JoinedStr) -> None:
        self._check(node)  # the parts are one string: don't visit them one by one

    def _docstring(self, node: ast.AST) -> bool:
        parent = self.parents[-1] if self.parents else None
        grand = self.parents[-2] if len(self.parents) > 1 else None
        return (
            isinstance(parent, ast.Expr)
            and isinstance(
                grand, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef
            )
            and grand.body
            and grand.body[0] is parent
        ) or isinstance(parent, ast.Expr)  # a bare string statement is a comment

    def _check(self, node: ast.AST) -> None:
        text = _text(node)
        if text is None or self._docstring(node):
            return
        shown_keyword = False
        child: ast.AST = node
        in_raise = False
        for parent in reversed(self.parents):
            if isinstance(parent, ast.Call):
                name = _call_name(parent)
                if name in WRAPPERS:
                    return
                if name in NOT_SHOWN_CALLS:
                    return
            if isinstance(parent, ast.keyword) and child is parent.value:
                call = self.parents[self.parents.index(parent) - 1]
                call_name = _call_name(call) if isinstance(call, ast.Call) else ""
                if parent.arg in SHOWN_KEYWORDS or (
                    parent.arg in {"name", "value"} and call_name in SHOWN_NAME_CALLS
                ):
                    shown_keyword = True
                elif parent.arg in NOT_SHOWN_KEYWORDS:
                    return
            annotation = isinstance(parent, ast.AnnAssign) and child is not parent.value
            if isinstance(parent, ast.Compare | ast.Subscript) or annotation:
                return
            if isinstance(parent, ast.Dict) and any(key is child for key in parent.keys):
                return
            if isinstance(parent, ast.Raise):
                in_raise = True
            if isinstance(parent, ast.arguments | ast.arg):
                return  # default values and annotations of parameters
            child = parent
        if self.engine and not in_raise:
            return
        if (shown_keyword and _shows_words(text)) or is_prose(text):
            self._report(node, text)

    def _report(self, node: ast.AST, text: str) -> None:
        if text in ALLOWED.get(self.path, set()):
            return
        self.found.append(Finding(self.path, getattr(node, "lineno", 0), text))


def scan_file(path: Path, root: Path = ROOT) -> list[Finding]:
    relative = path.relative_to(root).as_posix()
    scanner = _Scanner(relative, engine=relative.startswith(ENGINE + "/"))
    scanner.visit(ast.parse(path.read_text(encoding="utf-8"), filename=relative))
    return scanner.found


def scanned_files(root: Path = ROOT) -> Iterator[Path]:
    for scanned in SCANNED:
        path = root / scanned
        yield from [path] if path.suffix == ".py" else sorted(path.rglob("*.py"))


def report(root: Path = ROOT) -> dict[str, list[Finding]]:
    """Unmarked user-facing strings by file (files with none are left out)."""
    found: dict[str, list[Finding]] = {}
    for path in scanned_files(root):
        findings = scan_file(path, root)
        if findings:
            found[findings[0].path] = findings
    return found


def main() -> int:
    found = report()
    for path, findings in found.items():
        print(f"{len(findings):4d}  {path}")
    print(f"{sum(len(f) for f in found.values())} unmarked strings in {len(found)} files")
    if "-v" in sys.argv:
        for findings in found.values():
            for finding in findings:
                print(finding)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
