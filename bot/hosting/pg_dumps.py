"""``narrator restore`` on PostgreSQL: what it says instead of restoring.

Narrator does not replace a PostgreSQL database itself. The checks that make an SQLite
restore safe (:mod:`bot.hosting.restorable`: exactly our schema, nothing else, the replaced
file kept) would need a scratch database to restore into and compare with, which the bot's
database user may not be allowed to create; and ``pg_restore`` runs whatever the dump holds
(triggers, functions) with that user's rights. So the restore is refused and the host gets
the steps: keep a copy, restore, upgrade. What can be told from the dump file alone is told
first: objects Narrator never creates, and a schema revision this Narrator does not know
(``pg_restore --list`` and the ``alembic_version`` rows, read from the file, no database).
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from alembic.script import ScriptDirectory
from sqlalchemy.engine import URL, make_url

from bot.hosting.config import ConfigError
from bot.storage.migrate import alembic_config

#: What a dump of a database Narrator made holds (``pg_restore --list`` entry types).
OURS = (
    "TABLE DATA",
    "TABLE",
    "SEQUENCE OWNED BY",
    "SEQUENCE SET",
    "SEQUENCE",
    "DEFAULT",
    "FK CONSTRAINT",
    "CONSTRAINT",
    "INDEX",
    "SCHEMA",
    "COMMENT",
    "ACL",
)
#: Entries named in the answer before "and N more".
SHOWN = 8
#: ``pg_restore --list`` reads only the file's table of contents: seconds at most.
LIST_SECONDS = 60


@dataclass(frozen=True)
class DumpContents:
    """What ``pg_restore`` says a custom-format dump holds."""

    foreign: tuple[str, ...]  # entries of a type Narrator never creates ("TRIGGER public …")
    revisions: frozenset[str]  # the alembic_version rows (empty: none found)


def _parts(url: URL) -> list[str]:
    parts = ["--host", url.host or "localhost", "--port", str(url.port or 5432)]
    if url.username:
        parts += ["--username", url.username]
    return parts


def pg_dump_command(database_url: str, target: Path) -> str:
    url = make_url(database_url)
    return shlex.join(
        ["pg_dump", "--format=custom", *_parts(url), "--file", str(target), url.database or ""]
    )


def pg_restore_command(database_url: str, source: Path) -> str:
    url = make_url(database_url)
    return shlex.join(
        [
            "pg_restore",
            "--clean",
            "--if-exists",
            "--no-owner",
            *_parts(url),
            "--dbname",
            url.database or "",
            str(source),
        ]
    )


def read_dump(source: Path) -> DumpContents | None:
    """What the dump at ``source`` holds; None when ``pg_restore`` is not installed here.
    Raises ConfigError when it is not a dump ``pg_restore`` can read."""
    program = shutil.which("pg_restore")
    if program is None:
        return None
    listing = _run([program, "--list", str(source)], source)
    foreign = []
    for line in listing.splitlines():
        if not line.strip() or line.startswith(";"):
            continue
        # "215; 1259 16390 TRIGGER public roll_log wipe owner": id; oid oid TYPE schema name…
        entry = line.split(";", 1)[-1].split(None, 2)[-1]
        if not entry.startswith(OURS):
            foreign.append(entry)
    data = _run(
        [program, "--data-only", "--table=alembic_version", "--file=-", str(source)], source
    )
    return DumpContents(tuple(foreign), _copied_revisions(data))


def _run(command: list[str], source: Path) -> str:
    result = subprocess.run(
        command, capture_output=True, text=True, timeout=LIST_SECONDS, check=False
    )
    if result.returncode != 0:
        why = (result.stderr.strip().splitlines() or ["unreadable"])[-1]
        raise ConfigError(f"{source} is not a dump pg_restore can read ({why}): not restoring it")
    return result.stdout


def _copied_revisions(sql: str) -> frozenset[str]:
    """The rows of ``COPY … alembic_version … FROM stdin;`` up to its ``\\.``."""
    rows: set[str] = set()
    copying = False
    for line in sql.splitlines():
        if copying:
            if line == "\\.":
                break
            rows.add(line.strip())
        elif re.match(r"COPY \S*alembic_version\b.* FROM stdin;", line):
            copying = True
    return frozenset(row for row in rows if row)


def refusal(database_url: str, source: Path, *, now: datetime | None = None) -> str:
    """The answer to ``narrator restore`` on PostgreSQL: what the dump holds, then the steps."""
    if not source.is_file():
        raise ConfigError(f"{source} is not a file")
    lines = [
        "DATABASE_URL is PostgreSQL: narrator restore does not replace a PostgreSQL database "
        "(it cannot check a dump as it checks an SQLite backup, and pg_restore runs whatever "
        "the dump holds)."
    ]
    contents = read_dump(source)
    if contents is None:
        lines.append(f"pg_restore is not installed here: {source} was not inspected.")
    else:
        lines += _findings(source, contents)
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%dT%H%M%SZ")
    kept = source.with_name(f"{make_url(database_url).database}.before-restore-{stamp}.dump")
    lines += [
        "Stop the bot, then (set PGPASSWORD or use ~/.pgpass for the password):",
        f"  1. keep the database it replaces: {pg_dump_command(database_url, kept)}",
        f"  2. restore the dump: {pg_restore_command(database_url, source)}",
        "  3. bring its schema up to this Narrator's: narrator migrate (then narrator doctor)",
        "See docs/hosting.md, Backups and restore.",
    ]
    return "\n".join(lines)


def _findings(source: Path, contents: DumpContents) -> list[str]:
    found = []
    if contents.foreign:
        more = len(contents.foreign) - SHOWN
        found.append(
            f"{source} holds what Narrator never creates (it would run inside the bot's "
            "commands): "
            + "; ".join(contents.foreign[:SHOWN])
            + (f"; and {more} more" if more > 0 else "")
            + ". Do not restore it unless you know why it is there."
        )
    script = ScriptDirectory.from_config(alembic_config(""))
    known = {revision.revision for revision in script.walk_revisions()}
    unknown = sorted(contents.revisions - known)
    if not contents.revisions:
        found.append(f"{source} records no schema revision: not a dump of a Narrator database.")
    elif unknown:
        found.append(
            f"{source} is at schema revision {', '.join(unknown)}, which this Narrator does "
            "not know: a newer Narrator made it. Upgrade Narrator first."
        )
    if not found:
        found.append(
            f"{source} holds only tables, their data, sequences, keys and indexes, at schema "
            f"revision {', '.join(sorted(contents.revisions))} (known to this Narrator)."
        )
    return found
