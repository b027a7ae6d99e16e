"""The last checks of the reading layer: ``adv``/``dis`` after a d20, and the label.

The scanner (``_scanner``) reads dice, modifiers and arithmetic; what is left after them is the
label. ``1d20 adv`` turns the one plain d20 into two keeping the higher; any other label that
starts like dice or an operator is refused with what was understood, so a label never hides
dice.
"""

from __future__ import annotations

import re

from engine.errors import N_, InputError

# One d20 without operators, which adv/dis turn into two keeping the higher/lower.
_SINGLE_D20 = re.compile(r"(?<![\d)])1?d20(?![\d%a-z!])")
_ADVANTAGE = {"adv": "kh1", "advantage": "kh1", "dis": "kl1", "disadvantage": "kl1"}
# A label must not start like this: a number, an operator, a die, a d20 operator, adv/dis.
_DICE_LIKE = re.compile(
    r"[\d+\-*/×%!<>=(),.\[\]^#;]|d[hl]?\d|d%|df\b|x\d|[kp][hl<>=]?\d|i?r[rao]?[hlg<>]?\d|"
    r"i?e[hl<>]?\d|m[ai]\d|tl?\d|f<?\d|(adv|dis|advantage|disadvantage)\b",
    re.IGNORECASE,
)


class NotationInputError(InputError):
    """Text that cannot be read as dice without guessing; the message shows what was read."""


def advantage(notation: str, comment: str) -> tuple[str, str | None] | None:
    """The notation with ``adv``/``dis`` applied to its one d20 and the rest of the comment, or
    None when the comment does not start with adv/dis. ``1d20+5 adv`` becomes ``2d20kh1+5``."""
    first, _, rest = comment.strip().partition(" ")
    keep = _ADVANTAGE.get(first.lower())
    if keep is None:
        return None
    if len(_SINGLE_D20.findall(notation)) != 1:
        raise NotationInputError(
            N_(
                "`{word}` needs exactly one plain `d20` to roll twice, and `{notation}` "
                "has none or several. Write it out: `2d20kh1+5` (advantage) or `2d20kl1+5`."
            ),
            word=first,
            notation=_clip(notation),
        )
    return _SINGLE_D20.sub(f"2d20{keep}", notation), rest.strip() or None


def check_label(understood: str, label: str) -> None:
    """Refuse a label that starts like dice or an operator: the dice stopped too early."""
    label = label.strip()
    if not _DICE_LIKE.match(label):
        return
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
    raise NotationInputError(template, understood=_clip(understood or "—"), label=_clip(label))


def _clip(text: str, limit: int = 60) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[: limit - 1] + "…"
