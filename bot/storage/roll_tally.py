"""A roll's faces counted per face as it is logged, for dice statistics (``/dice stats``).

Each public roll log entry stores its die size (``tally_sides``) and how often each face came
up (``tally``, ``{"face": count}``), both worked out here from the same (system, input,
faces) the entry holds. The statistics then add these counts up in SQL: the event loop reads
one row per distinct (die size, face), however many rolls and faces the log holds. An entry
whose die size cannot be told (mixed notation such as ``1d20+1d4``, percentile dice, another
command's faces) or whose faces do not fit it has neither: the statistics count it as left
out.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from engine.systems import coda, drama, hogwarts1990, infinity, rps

#: Every face these systems log is a plain face of one die size.
SYSTEM_SIDES: dict[str, int] = {
    "coda": coda.DIE_SIDES,
    "drama": drama.SIDES,
    "h90": hogwarts1990.SIDES,
    "infinity": infinity.D20,
    "rps": rps.DIE_SIDES,
}
#: Generic notation: counted when the expression uses one die size (``4d6kh3``, not ``1d20+1d4``).
NOTATION = "dice"
SYSTEMS = (*SYSTEM_SIDES, NOTATION)

_DIE_SIZE = re.compile(r"d(\d+)", re.IGNORECASE)
_INT = {int}
_MANY = 16


def tally(system: str, input: str, faces: Any) -> tuple[int, dict[str, int]] | None:
    """The die size and the count of each face (keys are faces as text, as JSON keeps them;
    only faces that came up), or None when the entry cannot be counted."""
    if system not in SYSTEMS:
        return None
    sides = _sides(system, input)
    if sides is None:
        return None
    if isinstance(faces, list | tuple) and len(faces) > _MANY and set(map(type, faces)) <= _INT:
        # Many faces, a flat list of plain ints as rolls log them: counted in C, each face
        # checked and named once (about 4× faster at 240 faces, slower below ~16); keys in
        # order of first appearance, as face by face gives them.
        counted = Counter(faces)
        if counted and not (min(counted) >= 1 and max(counted) <= sides):
            return None
        return sides, {str(face): count for face, count in counted.items()}
    counts: dict[str, int] = {}
    for face in _flatten(faces):
        if not (isinstance(face, int) and 1 <= face <= sides):
            return None
        key = str(int(face))  # int(): a JSON true read back is a face 1, as it always counted
        counts[key] = counts.get(key, 0) + 1
    return sides, counts


@lru_cache(maxsize=1024)
def _sides(system: str, expression: str) -> int | None:
    """The die size of an entry (cached: players roll the same few expressions again)."""
    if system in SYSTEM_SIDES:
        return SYSTEM_SIDES[system]
    sizes = {int(size) for size in _DIE_SIZE.findall(expression)}
    return sizes.pop() if len(sizes) == 1 and "%" not in expression else None


def _flatten(faces: Any) -> Iterator[Any]:
    """Every face of ``faces``, nested lists and tuples opened (one generator for a flat
    list of faces, the common case, rather than one per face)."""
    if isinstance(faces, list | tuple):
        for item in faces:
            if isinstance(item, list | tuple):
                yield from _flatten(item)
            else:
                yield item
    else:
        yield faces
