"""What ``narrator restore`` accepts: a file that is exactly a database this Narrator made.

A file is put back only if it is an SQLite database that passes ``PRAGMA integrity_check``,
its ``alembic_version`` names revisions that this version's migrations know (a newer
Narrator's revision is refused: upgrade first), and its schema is exactly what those
revisions create: the same tables; columns (name, declared type, nullability, default,
primary key, generated or not); indexes (columns, order, collation, uniqueness, partial
``WHERE``); unique and primary keys; foreign keys with their ``ON DELETE`` / ``ON UPDATE``
actions; ``CHECK`` constraints; and nothing else: no trigger, no view, no other table or
index. A trigger or an added ``ON DELETE CASCADE`` would run inside the bot's own commands.

The reference is a scratch SQLite database migrated to the same revisions with Alembic,
described the same way; it is made once per set of revisions in a process.
"""

from __future__ import annotations

import sqlite3
import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from alembic import command
from alembic.script import ScriptDirectory

from bot.hosting.config import ConfigError
from bot.storage.migrate import alembic_config

#: (owner, part) → its description. ``owner`` is e.g. "table roll_log" or "trigger t on
#: roll_log"; part "" describes the owner itself, other parts are e.g. "column id".
Shape = dict[tuple[str, str], str]

#: Differences named in a refusal before "and N more".
SHOWN = 8


@dataclass(frozen=True)
class Restorable:
    """A file that passed every check: the revisions it is at, and whether that is the newest."""

    revisions: frozenset[str]
    at_head: bool


def check_restorable(path: Path, name: Path) -> Restorable:
    """Check the SQLite file at ``path`` (named ``name`` in messages), or raise ConfigError."""
    try:
        connection = sqlite3.connect(path)
        try:
            ok = [row[0] for row in connection.execute("PRAGMA integrity_check")] == ["ok"]
            revisions = _revisions(connection, name) if ok else frozenset()
            shape = describe(connection) if ok else {}
        finally:
            connection.close()
    except sqlite3.DatabaseError as error:
        raise ConfigError(
            f"{name} fails SQLite's integrity check ({error}): not restoring it"
        ) from None
    if not ok:
        raise ConfigError(f"{name} fails SQLite's integrity check: not restoring it")
    script = ScriptDirectory.from_config(alembic_config(""))
    known = {revision.revision for revision in script.walk_revisions()}
    unknown = sorted(revisions - known)
    if unknown:
        raise ConfigError(
            f"{name} is at schema revision {', '.join(unknown)}, which this Narrator does not "
            "know: a newer Narrator made it. Upgrade Narrator first, then restore it"
        )
    expected, reached = reference_shape(revisions)
    if reached != revisions:
        raise ConfigError(
            f"{name} records schema revisions {', '.join(sorted(revisions))}, which no "
            "migration leaves together: not a database Narrator made; not restoring it"
        )
    differences = compare(expected, shape)
    if differences:
        more = len(differences) - SHOWN
        raise ConfigError(
            f"{name} is not exactly the schema Narrator creates at its revision; not restoring "
            "it: " + "; ".join(differences[:SHOWN]) + (f"; and {more} more" if more > 0 else "")
        )
    return Restorable(revisions, revisions == frozenset(script.get_heads()))


def _revisions(connection: sqlite3.Connection, name: Path) -> frozenset[str]:
    has_table = connection.execute(
        "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'alembic_version'"
    ).fetchone()[0]
    if not has_table:
        raise ConfigError(f"{name} is not a Narrator database (no alembic_version table)")
    revisions = frozenset(
        str(row[0]) for row in connection.execute("SELECT version_num FROM alembic_version")
    )
    if not revisions:
        raise ConfigError(f"{name} is not a Narrator database (no schema revision recorded)")
    return revisions


@cache
def reference_shape(revisions: frozenset[str]) -> tuple[Shape, frozenset[str]]:
    """What migrating an empty database to ``revisions`` creates, and the revisions it records."""
    with tempfile.TemporaryDirectory(prefix="narrator-restore-") as scratch:
        path = Path(scratch) / "reference.db"
        config = alembic_config(f"sqlite+aiosqlite:///{path}")
        for revision in sorted(revisions):
            command.upgrade(config, revision)
        connection = sqlite3.connect(path)
        try:
            reached = frozenset(
                str(row[0]) for row in connection.execute("SELECT version_num FROM alembic_version")
            )
            return describe(connection), reached
        finally:
            connection.close()


def describe(connection: sqlite3.Connection) -> Shape:
    """Every object of the schema but SQLite's own (``sqlite_*``), part by part."""
    shape: Shape = {}
    objects = connection.execute("SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall()
    for kind, name, table, sql in objects:
        if kind == "table" and not name.startswith("sqlite_"):
            _describe_table(connection, name, sql or "", shape)
        elif kind in ("view", "trigger"):
            owner = f"trigger {name} on {table}" if kind == "trigger" else f"view {name}"
            shape[(owner, "")] = _normal(sql or "")
        elif kind == "index" and table.startswith("sqlite_"):
            shape[(f"index {name} on {table}", "")] = _normal(sql or "")
        # Other indexes are described with their table (pragma_index_list).
    return shape


def _describe_table(connection: sqlite3.Connection, table: str, sql: str, shape: Shape) -> None:
    owner = f"table {table}"
    virtual = sql.lstrip().upper().startswith("CREATE VIRTUAL")
    options = _normal(sql[sql.rfind(")") + 1 :]).upper()  # WITHOUT ROWID, STRICT
    shape[(owner, "")] = ("virtual table " if virtual else "table ") + options
    for name, type_, notnull, default, pk, hidden in connection.execute(
        'SELECT name, type, "notnull", dflt_value, pk, hidden FROM pragma_table_xinfo(?)',
        (table,),
    ):
        shape[(owner, f"column {name}")] = (
            f"{(type_ or 'no type').upper()} {'NOT NULL' if notnull else 'NULL'}"
            + (f" DEFAULT {default}" if default is not None else "")
            + (f" primary key #{pk}" if pk else "")
            + (f" generated ({hidden})" if hidden else "")
        )
    index_sql = dict(
        connection.execute(
            "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ?", (table,)
        ).fetchall()
    )
    for name, unique, origin, partial in connection.execute(
        'SELECT name, "unique", origin, partial FROM pragma_index_list(?)', (table,)
    ).fetchall():
        columns = _index_columns(connection, name)
        if origin == "pk":
            shape[(owner, f"primary key ({columns})")] = ""
        elif origin == "u":
            shape[(owner, f"unique ({columns})")] = ""
        else:
            where = (
                _normal(index_sql.get(name) or "") if partial or "<expression>" in columns else ""
            )
            shape[(owner, f"index {name}")] = (
                f"{'unique ' if unique else ''}on ({columns}){' ' + where if where else ''}"
            )
    keys: dict[int, list[tuple[str, str, str, str, str, str]]] = {}
    for id_, table_to, from_, to, on_update, on_delete, match in connection.execute(
        'SELECT id, "table", "from", "to", on_update, on_delete, "match" '
        "FROM pragma_foreign_key_list(?) ORDER BY id, seq",
        (table,),
    ):
        keys.setdefault(id_, []).append((table_to, from_, str(to), on_update, on_delete, match))
    for parts in keys.values():
        froms = ", ".join(part[1] for part in parts)
        tos = ", ".join(part[2] for part in parts)
        on_update, on_delete, match = parts[0][3:]
        shape[(owner, f"foreign key ({froms}) → {parts[0][0]} ({tos})")] = (
            f"ON UPDATE {on_update} ON DELETE {on_delete} MATCH {match}"
        )
    for check in checks(sql):
        shape[(owner, f"CHECK ({check})")] = ""


def _index_columns(connection: sqlite3.Connection, index: str) -> str:
    columns = []
    for cid, name, desc, collation in connection.execute(
        'SELECT cid, name, "desc", coll FROM pragma_index_xinfo(?) WHERE "key" ORDER BY seqno',
        (index,),
    ):
        column = "<expression>" if cid == -2 else str(name)
        if desc:
            column += " DESC"
        if collation and collation.upper() != "BINARY":
            column += f" COLLATE {collation}"
        columns.append(column)
    return ", ".join(columns)


def compare(expected: Shape, found: Shape) -> list[str]:
    """What differs, one phrase each: a whole missing or unexpected object once, not its parts."""
    missing = {owner for owner, part in expected if not part and (owner, part) not in found}
    extra = {owner for owner, part in found if not part and (owner, part) not in expected}
    lines = _grouped("missing", missing) + _grouped("unexpected", extra)
    for key in sorted(expected.keys() | found.keys()):
        owner, part = key
        if owner in missing or owner in extra:
            continue
        what = f"{owner}: {part}" if part else owner
        if key not in found:
            lines.append(f"{owner}: missing {part}")
        elif key not in expected:
            lines.append(f"{owner}: unexpected {part}")
        elif found[key] != expected[key]:
            lines.append(f"{what} is {found[key] or '—'}, expected {expected[key] or '—'}")
    return lines


def _grouped(verb: str, owners: set[str]) -> list[str]:
    """``missing tables a, b``: one phrase per kind of object."""
    by_kind: dict[str, list[str]] = {}
    for owner in sorted(owners):
        kind, _, name = owner.partition(" ")
        by_kind.setdefault(kind, []).append(name)
    return [
        f"{verb} {kind}{'s' if len(names) > 1 else ''} {', '.join(names)}"
        for kind, names in by_kind.items()
    ]


def checks(sql: str) -> list[str]:
    """The expression of every ``CHECK (…)`` in a CREATE TABLE, outside quotes and names."""
    found = []
    index, end = 0, len(sql)
    while index < end:
        char = sql[index]
        if char in "'\"`[":
            index = _after_quoted(sql, index)
        elif _keyword_at(sql, index, "CHECK"):
            start = index + len("CHECK")
            while start < end and sql[start].isspace():
                start += 1
            if start < end and sql[start] == "(":
                close = _closing(sql, start)
                found.append(_normal(sql[start + 1 : close]))
                index = close + 1
            else:
                index = start
        else:
            index += 1
    return found


def _keyword_at(sql: str, index: int, word: str) -> bool:
    def is_word(position: int) -> bool:
        return 0 <= position < len(sql) and (sql[position].isalnum() or sql[position] == "_")

    return (
        sql[index : index + len(word)].upper() == word
        and not is_word(index - 1)
        and not is_word(index + len(word))
    )


def _after_quoted(sql: str, index: int) -> int:
    """The index just after the quoted string or name starting at ``index``."""
    closing = "]" if sql[index] == "[" else sql[index]
    position = index + 1
    while position < len(sql):
        if sql[position] == closing:
            if closing != "]" and sql[position + 1 : position + 2] == closing:
                position += 2  # a doubled quote inside the string
                continue
            return position + 1
        position += 1
    return len(sql)


def _closing(sql: str, opening: int) -> int:
    """The index of the parenthesis that closes the one at ``opening``."""
    depth, position = 0, opening
    while position < len(sql):
        char = sql[position]
        if char in "'\"`[":
            position = _after_quoted(sql, position)
            continue
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return position
        position += 1
    return len(sql)


def _normal(text: str) -> str:
    return " ".join(text.split())
