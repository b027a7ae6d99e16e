"""One roll's text scanned into d20 notation: dice terms and the modifiers players glue to them.

After each dice term the scanner reads modifiers, glued (``4d6k3``, Roll20's and d20's way)
or after a space (``4d6 k3``, Dice Maiden's way), until something that is not one: arithmetic,
another term, or the comment. A modifier must end where a word ends (``1d20 each`` is a
label, not ``e`` then ``ach``). The meanings, and the conflicts between the bots, are in
docs/rules.md, "Dice notation".
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.errors import N_, InputError

MAX_ONCE = 20
"""Dice that explode once: each becomes its own d20 term, so their number is bounded."""


class ReadingError(InputError):
    """Text the reading layer refuses; the message names the feature."""


@dataclass(frozen=True, slots=True)
class Pool:
    """Success counting over the kept dice: the result is successes − failures."""

    at_least: int | None = None  # t7, >=7: a die showing 7 or more is a success
    at_most: int | None = None  # tl6, <=6: a die showing 6 or less is a success
    failures: int | None = None  # f1: a die showing 1 or less takes one success away
    botches: int | None = None  # b1: dice showing 1 or less, counted and named, not subtracted

    def __str__(self) -> str:
        words = [f"t{self.at_least}"] if self.at_least is not None else [f"tl{self.at_most}"]
        if self.failures is not None:
            words.append(f"f{self.failures}")
        if self.botches is not None:
            words.append(f"b{self.botches}")
        return " ".join(words)


@dataclass(frozen=True, slots=True)
class Scanned:
    notation: str  # d20 notation
    pool: Pool | None
    comment: str | None
    explicit_comment: bool  # after `!` or `#`: the player's own words, never checked as dice
    tail: str  # the text from where the comment starts (its marker included)


_DIE = re.compile(r"(?<![A-Za-z\d])(\d*)\s*d\s*(\d+|%|f(?![a-z]))", re.IGNORECASE)
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_ANNOTATION = re.compile(r"\[[^\]]*\]")
_SET_OPERATOR = re.compile(r"([kp])([hl<>]?)(\d+)(?![a-jl-oq-z])", re.IGNORECASE)
_OPERATOR = re.compile(r"//|==|>=|<=|!=|[-+*/%(),<>]")
_MODIFIER = re.compile(
    r"(?P<d20>(?:rr|ro|ra|mi|ma|p)[hl<>]?\d+)"
    r"|(?P<keq>k=(?P<keqn>\d+))"
    r"|(?P<middle>km\d+)"
    r"|(?P<keep>k(?P<kcat>[hl<>]?)(?P<kn>\d+))"
    r"|(?P<ie>ie(?P<ien>\d*))"
    r"|(?P<irg>irg(?P<irgn>\d+))"
    r"|(?P<ir>ir(?P<irn>\d+))"
    r"|(?P<implode>i\d*)"
    r"|(?P<explode>e(?P<ecat>[hl<>]?)(?P<en>\d*))"
    r"|(?P<rg>rg(?P<rgn>\d+))"
    r"|(?P<rcmp>r(?P<rcat>[<>])(?P<rcn>\d+))"
    r"|(?P<reroll>r(?P<rn>\d+))"
    r"|(?P<drop>d(?P<dcat>[hl]?)(?P<dn>\d+))"
    r"|(?P<bang>!(?P<bextra>[!p]|(?P<bcat>[<>])?(?P<bn>\d+))?)"
    r"|(?P<tl>tl(?P<tln>\d+))"
    r"|(?P<t>t(?P<tn>\d+))"
    r"|(?P<ge>>=\s*(?P<gen>\d+))"
    r"|(?P<le><=\s*(?P<len>\d+))"
    r"|(?P<cmp>[<>]\s*\d+)"
    r"|(?P<fail>f<?(?P<fn>\d+))"
    r"|(?P<botch>b(?P<bon>\d*))"
    r"|(?P<double>ds\d+)"
    r"|(?P<advn>(?:adv|dis)\d+)"
    r"|(?P<crit>c[sf][<>=]?\d+)"
    r"|(?P<sort>s[ad]?)"
    r"|(?P<match>mt?\d*)",
    re.IGNORECASE,
)
_POOL = frozenset({"tl", "t", "ge", "le", "fail", "botch"})
_REFUSED = {
    "middle": N_("`{word}` (keep the middle dice) is not read here: use `kh`/`kl` (`4d6 kh3`)."),
    "implode": N_(
        "`{word}` (Dice Maiden's imploding dice) is not read here: subtract the dice "
        "yourself, e.g. `1d10 - 1d10`."
    ),
    "double": N_(
        "`{word}` (double successes) is not read here: count with `t7` and add the double "
        "faces yourself."
    ),
    "advn": N_(
        "`{word}` (Dice Maiden's extra-die advantage) is not read here: roll the extra die "
        "and drop one, e.g. `3d6 d1`."
    ),
    "crit": N_("`{word}` (Roll20's critical range) is not read here: the reply shows every die."),
    "sort": N_("`{word}` (sorted dice) is not read here: dice are shown in the order rolled."),
    "match": N_("`{word}` (Roll20's matching dice) is not read here."),
    "cmp": N_(
        "`{dice}{word}` means two things: Roll20 counts the dice at or above a number, d20 "
        "compares the total. Write `{dice} t{number}` to count dice showing {number} or "
        "more, or `({dice}) {word}` to compare the total."
    ),
    "compound": N_(
        "`{word}` (compounding or penetrating explosions) is not read here: use `!` or "
        "`ie` (explode until the die stops matching)."
    ),
}


class Scanner:
    """Reads one roll's text (no `;`, no repeat count) into a :class:`Scanned`."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.pieces: list[str] = []
        self.starts: list[int] = []
        self.pool: dict[str, int] = {}
        self.pool_end: int | None = None  # pieces when the pooled term ended
        self._chains: dict[int, bool] = {}

    def scan(self) -> Scanned:
        text, explicit = self.text, False
        while self.pos < len(text):
            char = text[self.pos]
            if char.isspace():
                self._emit(" ", self.pos + 1)
                while self.pos < len(text) and text[self.pos].isspace():
                    self.pos += 1
                continue
            if char == "#" or (
                char == "!"
                and (self.pos == 0 or text[self.pos - 1].isspace())
                and text[self.pos + 1 : self.pos + 2] != "="
            ):
                explicit = True
                break
            if match := _DIE.match(text, self.pos):
                self._term(match)
                continue
            if match := _NUMBER.match(text, self.pos) or _ANNOTATION.match(text, self.pos):
                self._emit(match[0], match.end())
                continue
            if char == "×" or (
                char in "xX"
                and self.pieces
                and self.pieces[-1][-1:] in set("0123456789)")
                and text[self.pos + 1 : self.pos + 2].isdigit()
            ):
                self._emit("*", self.pos + 1)
                continue
            if match := _OPERATOR.match(text, self.pos):
                self._emit(match[0], match.end())
                closing = match[0] == ")"
                while closing and (operated := _SET_OPERATOR.match(text, self.pos)):
                    operator, category = operated[1].lower(), operated[2].lower()
                    if operator == "k" and not category:
                        category = "h"  # `(…)k1` keeps the highest, as on a term
                    self._emit(f"{operator}{category}{operated[3]}", operated.end())
                continue
            break
        start = self.pos
        if not explicit and start < len(text):
            while start > 0 and text[start - 1].isalnum():
                start -= 1  # a word begun inside the notation is all label (`1d20 2nd`)
            while self.starts and self.starts[-1] >= start:
                self.starts.pop()
                self.pieces.pop()
        tail = text[start:]
        comment = tail[1:].strip() if explicit else tail.strip()
        notation = "".join(self.pieces).strip()
        pool = None
        if self.pool:
            if self.pool_end is None or "".join(self.pieces[self.pool_end :]).strip():
                raise ReadingError(
                    N_(
                        "Success counting counts the dice of one term: `6d10 t7`, "
                        "`5d10 t8 f1`. Roll other terms separately (`;`)."
                    )
                )
            pool = self._pool()
        return Scanned(notation, pool, comment or None, explicit, tail)

    def _emit(self, piece: str, end: int) -> None:
        self.starts.append(self.pos)
        self.pieces.append(piece)
        self.pos = end

    def _chain(self, pos: int) -> bool:
        """Whether modifiers starting at ``pos`` run on to where a word ends."""
        if pos not in self._chains:
            match = _MODIFIER.match(self.text, pos)
            if match is None:
                self._chains[pos] = False
            else:
                after = self.text[match.end() : match.end() + 1]
                self._chains[pos] = not after.isalpha() or self._chain(match.end())
        return self._chains[pos]

    def _term(self, dice: re.Match[str]) -> None:
        first = not "".join(self.pieces).strip()
        start = self.pos
        count = int(dice[1]) if dice[1] else 1
        size = dice[2].lower()
        sides = 100 if size == "%" else 3 if size == "f" else int(size)
        self.pos = dice.end()
        ops: list[str] = []
        once: str | None = None
        dropped = 0
        text = self.text
        while True:
            at = self.pos
            while at < len(text) and text[at].isspace():
                at += 1
            spaced = at > self.pos
            if at >= len(text) or (spaced and text[at] == "!") or not self._chain(at):
                break
            match = _MODIFIER.match(text, at)
            if match is None or match.lastgroup is None:  # pragma: no cover - _chain matched
                break
            kind, word = match.lastgroup, match[0].lower()
            if kind in {"ge", "le", "cmp"} and not first:
                break  # a comparison of the whole expression, d20's
            self.pos = match.end()
            if kind in _POOL:
                if not first:
                    raise ReadingError(
                        N_(
                            "`{word}` counts successes, which works on the first dice of a "
                            "roll only: `6d10 t7`."
                        ),
                        word=word,
                    )
                self._add_pool(kind, match)
                continue
            if kind == "cmp":
                number = re.sub(r"\D", "", word)
                raise ReadingError(
                    _REFUSED["cmp"], dice=f"{count}d{size}", word=word, number=number
                )
            if kind in _REFUSED:
                raise ReadingError(_REFUSED[kind], word=word)
            if kind == "bang" and match["bextra"] in {"!", "p"}:
                raise ReadingError(_REFUSED["compound"], word=word)
            if kind == "explode" and (spaced or not (match["en"] or match["ecat"])):
                if match["ecat"]:
                    ops.append(word)  # `e>4`: d20's, explode until
                else:
                    once = _at_least(int(match["en"] or sides), sides)
                continue
            if kind == "drop":
                dropped += int(match["dn"])
                if dropped >= count and match["dcat"] == "":
                    raise ReadingError(
                        N_(
                            "`{word}` after `{dice}` drops the lowest {number} dice (Roll20, "
                            "Dice Maiden), which leaves none. To add a die, write `+`: "
                            "`{dice} + 1{word}`."
                        ),
                        word=word,
                        dice=f"{count}d{size}",
                        number=match["dn"],
                    )
            ops.append(_operator(kind, match, sides))
        self._finish_term(start, first, count, size, ops, once)

    def _finish_term(
        self, start: int, first: bool, count: int, size: str, ops: list[str], once: str | None
    ) -> None:
        if size == "f":
            if ops or once:
                raise ReadingError(
                    N_("Fudge dice (`{count}dF`) take no modifiers; roll them as they are."),
                    count=count,
                )
            self.starts.append(start)
            self.pieces.append(f"({count}d3-{2 * count})")
        elif once is not None:
            if count > MAX_ONCE or any(op[0] in "kp" for op in ops):
                raise ReadingError(
                    N_(
                        "`e` explodes each die once; it works on at most {most} dice and "
                        "without keep/drop. Use `ie` to explode until (`{count}d{size} ie`)."
                    ),
                    most=MAX_ONCE,
                    count=count,
                    size=size,
                )
            one = f"1d{size}{''.join(ops)}ra{once}"
            self.starts.append(start)
            self.pieces.append(f"({', '.join([one] * count)})" if count > 1 else one)
        else:
            self.starts.append(start)
            self.pieces.append(f"{count}d{size}{''.join(ops)}")
        if self.pool and first:
            if size in {"f", "%"}:
                raise ReadingError(N_("Success counting needs numbered dice, like `6d10 t7`."))
            self.pool_end = len(self.pieces)

    def _add_pool(self, kind: str, match: re.Match[str]) -> None:
        key, number = {
            "t": ("at_least", match["tn"]),
            "ge": ("at_least", match["gen"]),
            "tl": ("at_most", match["tln"]),
            "le": ("at_most", match["len"]),
            "fail": ("failures", match["fn"]),
            "botch": ("botches", match["bon"] or "1"),
        }[kind]
        if key in self.pool or (
            key in {"at_least", "at_most"}
            and self.pool.keys()
            & {
                "at_least",
                "at_most",
            }
        ):
            raise ReadingError(
                N_("`{word}`: one target and at most one failure count per roll."),
                word=match[0],
            )
        self.pool[key] = int(number)

    def _pool(self) -> Pool:
        if "at_least" not in self.pool and "at_most" not in self.pool:
            raise ReadingError(
                N_(
                    "Failures and botches are counted against successes: give a target too, "
                    "e.g. `5d10 t8 f1`."
                )
            )
        return Pool(
            at_least=self.pool.get("at_least"),
            at_most=self.pool.get("at_most"),
            failures=self.pool.get("failures"),
            botches=self.pool.get("botches"),
        )


def _at_least(number: int, sides: int) -> str:
    """d20's selector for faces ``number`` or more."""
    return str(number) if number >= sides else f">{number - 1}"


def _at_most(number: int) -> str:
    """d20's selector for faces ``number`` or less."""
    return "1" if number == 1 else f"<{number + 1}"


def _operator(kind: str, match: re.Match[str], sides: int) -> str:
    """The d20 operator for a modifier the scanner understood."""
    word = match[0].lower()
    if kind == "keq":
        number = match["keqn"]
        return f"p<{number}p>{number}"  # keep the dice showing N: drop those below and above
    if kind == "keep":
        return f"k{match['kcat'].lower() or 'h'}{match['kn']}"
    if kind == "ie":
        return f"e{_at_least(int(match['ien'] or sides), sides)}"
    if kind == "irg":
        return f"rr>{int(match['irgn']) - 1}"
    if kind == "ir":
        return f"rr{_at_most(int(match['irn']))}"
    if kind == "rg":
        return f"ro>{int(match['rgn']) - 1}"
    if kind == "rcmp":  # Roll20's r<2 / r>5: inclusive, rerolled until it stops matching
        number = int(match["rcn"])
        return f"rr{_at_most(number)}" if match["rcat"] == "<" else f"rr>{number - 1}"
    if kind == "reroll":
        return f"ro{_at_most(int(match['rn']))}"
    if kind == "drop":
        return f"p{match['dcat'].lower() or 'l'}{match['dn']}"
    if kind == "bang":
        if match["bcat"] == ">":
            return f"e{_at_least(int(match['bn']), sides)}"
        if match["bcat"] == "<":
            return f"e{_at_most(int(match['bn']))}"
        return f"e{match['bn'] or sides}"
    return word  # d20's own operator, glued or not; an explosion with its number glued
