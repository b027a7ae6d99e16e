"""What players type, read into the d20 notation the roller understands — or refused.

d20 reads the longest prefix it can as dice and keeps the rest as a comment (the label),
so ``1D20+2`` used to roll ``1`` labelled "D20+2". Players type on phones and paste from
other bots: capital ``D``, spaces inside a term (``2 d6``), ``!`` for an exploding die,
``x`` or ``×`` to multiply, ``adv``/``dis`` after a d20. Those are rewritten here into d20
notation; anything else that looks like dice or an operator where the label would start
is refused with a message showing what was understood, so a label never hides dice.
"""

from __future__ import annotations

import re

from engine.errors import N_, InputError

MAX_TOKENS = 100
"""Numbers and operators before the label: parsing is the costliest step of a short roll."""

# "2 D 6", "d%", "1D20": a count, a d of either case, a size, spaces allowed between them.
_DICE = re.compile(r"(?<![A-Za-z\d])(\d*)\s*[dD]\s*(\d+|%)(?![A-Za-z]{3})")
# "3d6!" explodes on the die's highest face.
_EXPLODE = re.compile(r"(\d*d(\d+))!")
# "1d6x1000", "2d6 × 3": multiplication (a glued x, or the × sign anywhere).
_TIMES = re.compile(r"(?<=[\d)])x(?=\d)|\s*×\s*")
# One d20 without operators, which adv/dis turn into two keeping the higher/lower.
_SINGLE_D20 = re.compile(r"(?<![\d)])1?d20(?![\d%a-z!])")
_ADVANTAGE = {"adv": "kh1", "advantage": "kh1", "dis": "kl1", "disadvantage": "kl1"}
# A label must not start like this: a number, an operator, a die, a d20 operator, adv/dis.
_DICE_LIKE = re.compile(
    r"[\d+\-*/×%!<>=(),.\[\]^]|d\d|d%|x\d|[kp][hl<>]?\d|r[rao][hl<>]?\d|e[hl<>]?\d|"
    r"m[ai]\d|(adv|dis|advantage|disadvantage)\b",
    re.IGNORECASE,
)
_TOKEN = re.compile(r"\d+|[-+*/%(),<>=]")
_WORD = re.compile(r"[A-Za-z]{3,}")


class NotationInputError(InputError):
    """Text that cannot be read as dice without guessing; the message shows what was read."""


def normalise(text: str) -> str:
    """``text`` with the spellings players use rewritten into d20 notation."""
    text = _DICE.sub(lambda m: f"{m.group(1)}d{m.group(2)}", text.strip())
    text = _EXPLODE.sub(lambda m: f"{m.group(1)}e{m.group(2)}", text)
    return _TIMES.sub("*", text)


def check_size(text: str) -> None:
    """Refuse a notation with more numbers and operators than is worth parsing."""
    word = _WORD.search(text)
    notation = text[: word.start()] if word else text
    tokens = len(_TOKEN.findall(notation))
    if tokens > MAX_TOKENS:
        raise NotationInputError(
            N_(
                "The expression has {tokens} numbers and operators; at most {most} are "
                "allowed. Combine terms (`10d6` rather than `1d6+1d6+…`)."
            ),
            tokens=tokens,
            most=MAX_TOKENS,
        )


def advantage(text: str, comment: str | None) -> str | None:
    """The text with ``adv``/``dis`` applied to its one d20, or None when the label is not
    adv/dis. ``1d20+5 adv`` becomes ``2d20kh1+5``."""
    if not comment:
        return None
    first, _, rest = comment.strip().partition(" ")
    keep = _ADVANTAGE.get(first.lower())
    if keep is None:
        return None
    notation = text[: len(text) - len(comment)].rstrip()
    if len(_SINGLE_D20.findall(notation)) != 1:
        raise NotationInputError(
            N_(
                "`{word}` needs exactly one plain `d20` to roll twice, and `{notation}` "
                "has none or several. Write it out: `2d20kh1+5` (advantage) or `2d20kl1+5`."
            ),
            word=first,
            notation=_clip(notation),
        )
    return _SINGLE_D20.sub(f"2d20{keep}", notation) + (f" {rest}" if rest else "")


def check_label(notation: str, comment: str | None) -> None:
    """Refuse a label that starts like dice or an operator: d20 stopped reading too early."""
    if not comment:
        return
    label = comment.strip()
    if not _DICE_LIKE.match(label):
        return
    understood = notation[: len(notation) - len(comment)].strip() or notation
    template = N_(
        "I read the dice as `{understood}` and the rest, `{label}`, as a label, "
        "but it starts like dice or an operator. Check the notation "
        "(e.g. `2d6+3`, `4d6kh3`, `1d20 adv`), or put the text in the `label` option."
    )
    if re.match(r"x\d", label, re.IGNORECASE):
        template = N_(
            "I read the dice as `{understood}` and the rest, `{label}`, as a label, "
            "but it starts like dice or an operator. To multiply, write `*` (e.g. `1d6*3`); "
            "to roll several times, roll again. Check the notation "
            "(e.g. `2d6+3`, `4d6kh3`, `1d20 adv`), or put the text in the `label` option."
        )
    raise NotationInputError(template, understood=_clip(understood), label=_clip(label))


def _clip(text: str, limit: int = 60) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[: limit - 1] + "…"
