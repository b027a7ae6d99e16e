"""The reading layer: what players type, rewritten into d20 notation — or refused.

Players arrive with habits from Dice Maiden, Roll20 and Avrae. The grammar stays d20's; this
module reads their spellings into it (``4d6k3`` is ``4d6kh3``, ``3d6 ie6`` is ``3d6e6``,
``4cod`` is ``4d10e10 t8``), splits a command into its rolls (``;``) and repeats (``6 4d6``),
takes a comment after ``!`` or ``#``, and adds the one thing d20 has no notation for, success
counting (``t7 f1``: a :class:`Pool`). Whatever looks like a modifier, a system alias or a flag
is either understood or refused with a message naming it; it never falls into the label.

The decisions (what ``k3``, ``d1``, ``e6`` and ``r2`` mean when the bots disagree) are in
docs/rules.md, "Dice notation". Every reading has a canonical form (:attr:`Part.reading`) that
reads back unchanged, and the reply shows it whenever it differs from what was typed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.errors import N_
from engine.notation import _input as notation_input
from engine.notation._scanner import Pool, ReadingError, Scanner

MAX_PARTS = 4
"""Rolls in one command, separated by ``;`` (Dice Maiden's limit)."""
MAX_REPEAT = 20
"""Separate totals of one roll (``6 4d6``): 2 to 20, as Dice Maiden allows."""


@dataclass(frozen=True, slots=True)
class Part:
    """One roll of a command: d20 notation, rolled ``repeat`` times, maybe counted as a pool."""

    notation: str
    typed: str  # what the player typed for it, the comment left out
    repeat: int = 1
    pool: Pool | None = None
    comment: str | None = None

    @property
    def reading(self) -> str:
        """The canonical form: it reads back as itself."""
        text = f"{self.repeat}x{self.notation}" if self.repeat > 1 else self.notation
        return f"{text} {self.pool}" if self.pool else text

    @property
    def rewritten(self) -> bool:
        return _squash(self.reading) != _squash(self.typed)


@dataclass(frozen=True, slots=True)
class Reading:
    """A whole command as read: its rolls, in order."""

    parts: tuple[Part, ...]
    #: The canonical form of the whole command.
    canonical: str = field(init=False, repr=False, compare=False)
    #: True when the canonical form differs from what was typed (case and spaces aside).
    rewritten: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Worked out once: a reading is cached and rolled many times, and every roll's log
        # entry and reply read both (they were a regex pass per part on each read).
        object.__setattr__(self, "canonical", " ; ".join(part.reading for part in self.parts))
        object.__setattr__(self, "rewritten", any(part.rewritten for part in self.parts))


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text).lower().replace("×", "*")


def read_command(text: str) -> Reading:
    """Read a command (one or several rolls separated by ``;``) or raise :class:`ReadingError`."""
    pieces = [piece for piece in text.split(";") if piece.strip()]
    if len(pieces) > MAX_PARTS:
        raise ReadingError(
            N_("At most {most} rolls in one command (separated by `;`); this has {count}."),
            most=MAX_PARTS,
            count=len(pieces),
        )
    if not pieces:
        raise ReadingError(N_("The expression is empty: try `2d6+3` or `4d6kh3`."))
    return Reading(tuple(_read_part(piece.strip()) for piece in pieces))


# -- before the dice: a command prefix, a label in parentheses, flags, repeats, aliases -------

_PREFIX = re.compile(r"^[/!](?:r|roll)\s+", re.IGNORECASE)
_LEADING_LABEL = re.compile(r"^\(([^()\d]*[A-Za-z][^()\d]*)\)\s*")
_FLAG = re.compile(r"^(ul|unsort|p|s|nr)\s+", re.IGNORECASE)
_REPEAT = re.compile(
    r"^(\d+)(?:\s*[x×]\s*|\s+)(?=\d+\s*d\s*[\d%f]|\d+[a-z]|(?!d[\d%f\s])[a-z]{2})", re.I
)
_PLUS_D20 = re.compile(r"^([+-])\s*1?d20(?![\d%])", re.IGNORECASE)
_PLUS_PERCENT = re.compile(r"^[+-]\s*d%")
_ALIASES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^(\d+)cod([89]|10)?(r?)(?![a-z\d])", re.I), "cod"),
    (re.compile(r"^(\d+)wod(\d+)(?![a-z\d])", re.I), "wod"),
    (re.compile(r"^sr(\d+)(?![a-z\d])", re.I), "sr"),
    (re.compile(r"^(\d+)yz(?![a-z\d])", re.I), "yz"),
    (re.compile(r"^(\d+)wh(\d+)\+", re.I), "wh"),
)
# Dice Maiden's other system aliases: refused by name rather than rolled as something else.
_OTHER_ALIASES = re.compile(
    r"^\d*(?:\.\d+)?(sw|conan|cd|sil|alien|vtm|cpr|cs|hs[nkh]|gbs?|fitd|bnw|wng|mm|wit|dh|lf|"
    r"dheart|dheartgm|ww|mnm|ol|ess|tdh|ms|ex|age|ed4e|ed|dd|sp|snm|d6s(?=\d)|dp|a5e|cod|wod|sr|yz|"
    r"wh|dndstats|attack|skill|save)(?=\d|\s|$|[+\-])",
    re.IGNORECASE,
)
_FLAG_NAMES = {
    "p": N_("`p` (a private roll in Dice Maiden): use the `secret` option instead."),
    "s": N_(
        "`s` (Dice Maiden's simple output) is not a Narrator flag: the reply always shows "
        "the dice and the total."
    ),
    "nr": N_(
        "`nr` (Dice Maiden's no-results output) is not a Narrator flag: the reply always "
        "shows the dice and the total."
    ),
}


def _read_part(text: str) -> Part:
    typed = text
    text = _PREFIX.sub("", text)
    label: str | None = None
    leading: str | None = None
    if match := _LEADING_LABEL.match(text):
        label, leading, text = match[1].strip(), match[0], text[match.end() :]
    while match := _FLAG.match(text):
        flag = match[1].lower()
        if flag in _FLAG_NAMES:
            raise ReadingError(_FLAG_NAMES[flag])
        text = text[match.end() :]  # ul/unsort: our dice are never sorted
    repeat = 1
    if match := _REPEAT.match(text):
        repeat, text = int(match[1]), text[match.end() :]
        if not 2 <= repeat <= MAX_REPEAT:
            raise ReadingError(
                N_("`{count}` rolls of the same dice: from 2 to {most} (e.g. `6 4d6k3`)."),
                count=repeat,
                most=MAX_REPEAT,
            )
    if re.match(r"^dndstats(?![a-z\d])", text, re.IGNORECASE):
        if repeat > 1:
            raise ReadingError(N_("`dndstats` already rolls six times: `6 4d6 k3`."))
        repeat, text = 6, "4d6 k3" + text[len("dndstats") :]
    text = _expand_alias(text)
    if match := _PLUS_D20.match(text):
        keep = "kh1" if match[1] == "+" else "kl1"
        text = f"2d20{keep}" + text[match.end() :]
    elif _PLUS_PERCENT.match(text):
        raise ReadingError(
            N_(
                "`+d%` / `-d%` (Dice Maiden's percentile advantage) are not read here: roll "
                "`2d10` for the tens and `1d10` for the units and pick, or roll `1d100` twice."
            )
        )
    elif match := _OTHER_ALIASES.match(text):
        raise ReadingError(
            N_(
                "`{alias}` is a Dice Maiden system alias Narrator does not read; write out "
                "the dice it stands for (e.g. `4d10 t8 ie10` for `4cod`)."
            ),
            alias=_clip(text.split()[0], 20),
        )
    scanned = Scanner(text).scan()
    comment = scanned.comment
    if label is not None:
        comment = f"{label} · {comment}" if comment else label
    notation = scanned.notation
    explicit = scanned.explicit_comment or label is not None
    if comment and not explicit and comment.split()[0].lower() in _DISPLAY_FLAGS:
        comment = comment.split(maxsplit=1)[1] if " " in comment else None  # never sorted
    if not notation and comment and not explicit and not _DICE_START.match(comment):
        raise ReadingError(
            N_(
                "`{text}` is not dice notation: try `2d6+3` or `4d6kh3`; words after the dice "
                "are the label."
            ),
            text=_clip(comment, 40),
        )
    if comment and not explicit:
        first = comment.split()[0]
        with_advantage = notation_input.advantage(notation, comment)
        if with_advantage is not None:
            if scanned.pool is not None:
                raise ReadingError(
                    N_("`{word}` rolls one d20 twice; it cannot go with success counting."),
                    word=first,
                )
            notation, comment = with_advantage
        else:
            _check_label_word(first)
            notation_input.check_label(notation, comment)
    if not notation:
        raise ReadingError(N_("The expression is empty: try `2d6+3` or `4d6kh3`."))
    typed_notation = typed[: len(typed) - len(scanned.tail)] if scanned.tail else typed
    if leading is not None:
        typed_notation = typed_notation.replace(leading, "", 1)
    return Part(
        notation=notation,
        typed=typed_notation.strip(),
        repeat=repeat,
        pool=scanned.pool,
        comment=comment or None,
    )


def _expand_alias(text: str) -> str:
    for pattern, name in _ALIASES:
        match = pattern.match(text)
        if match is None:
            continue
        rest = text[match.end() :]
        if name == "cod":  # 4cod: 4d10 t8 ie10; 4cod8: 8-again; 4codr: rote (reroll failures once)
            rote = " r7" if match[3] else ""
            return f"{match[1]}d10 t8{rote} ie{match[2] or 10}{rest}"
        if name == "wod":  # 4wod8: 4d10 f1 t8
            return f"{match[1]}d10 f1 t{match[2]}{rest}"
        if name == "sr":  # sr6: 6d6 t5
            return f"{match[1]}d6 t5{rest}"
        if name == "yz":  # 6yz: 6d6 t6
            return f"{match[1]}d6 t6{rest}"
        return f"{match[1]}d6 t{match[2]}{rest}"  # 3wh4+: 3d6 t4
    return text


# -- the label: whatever is left must not be a flag or a system word -------------------------

_SYSTEM_WORDS = re.compile(r"^(gbs?|cpr|wit|hs[nkh]|wng|mm|dheart|sw\d+)$", re.IGNORECASE)
_DICE_START = re.compile(r"[\d+\-(]|d[\d%f]", re.IGNORECASE)
_DISPLAY_FLAGS = frozenset({"ul", "unsort"})


def _check_label_word(word: str) -> None:
    if _SYSTEM_WORDS.match(word):
        raise ReadingError(
            N_(
                "`{word}` is a Dice Maiden system word Narrator does not read; write out the "
                "dice it stands for, or put the text in the `label` option."
            ),
            word=_clip(word, 20),
        )


def _clip(text: str, limit: int = 60) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[: limit - 1] + "…"
