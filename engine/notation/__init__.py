"""Generic dice notation (``4d6kh3 + 2``) read by the d20 library, drawn from our ``Dice``.

What players type is read into d20 notation or refused (``_input``), the work an expression
can cost is estimated and bounded before any die is drawn (``_budget``), and the roll itself
runs through d20 (``_roll``); this face is the API.
"""

from __future__ import annotations

from engine.notation._budget import BUDGET as BUDGET
from engine.notation._input import MAX_TOKENS as MAX_TOKENS
from engine.notation._roll import D20_MESSAGES as D20_MESSAGES
from engine.notation._roll import MAX_DICE as MAX_DICE
from engine.notation._roll import MAX_EXPRESSION_LENGTH as MAX_EXPRESSION_LENGTH
from engine.notation._roll import MAX_SIDES as MAX_SIDES
from engine.notation._roll import NotationRoll as NotationRoll
from engine.notation._roll import RollError as RollError
from engine.notation._roll import cost as cost
from engine.notation._roll import parse as parse
from engine.notation._roll import read as read
from engine.notation._roll import roll_expression as roll_expression
