"""Generic dice notation (``4d6kh3 + 2``) read by the d20 library, drawn from our ``Dice``.

What players type (Dice Maiden's, Roll20's and Avrae's spellings) is read into d20 notation or
refused (``_reading``, ``_scanner``, ``_input``); the work a command can cost is estimated and
bounded before any die is drawn (``_budget``); each roll runs through d20 (``_roll``) and a
whole command, its repeats and success counts, is rolled by ``_command``. This face is the API.
"""

from __future__ import annotations

from engine.notation._budget import BUDGET as BUDGET
from engine.notation._command import CommandRoll as CommandRoll
from engine.notation._command import PartRoll as PartRoll
from engine.notation._command import PoolCount as PoolCount
from engine.notation._command import cost as cost
from engine.notation._command import parse as parse
from engine.notation._command import read as read
from engine.notation._command import roll_command as roll_command
from engine.notation._command import roll_expression as roll_expression
from engine.notation._reading import MAX_PARTS as MAX_PARTS
from engine.notation._reading import MAX_REPEAT as MAX_REPEAT
from engine.notation._reading import Part as Part
from engine.notation._reading import Reading as Reading
from engine.notation._reading import read_command as read_command
from engine.notation._roll import D20_MESSAGES as D20_MESSAGES
from engine.notation._roll import MAX_DICE as MAX_DICE
from engine.notation._roll import MAX_EXPRESSION_LENGTH as MAX_EXPRESSION_LENGTH
from engine.notation._roll import MAX_SIDES as MAX_SIDES
from engine.notation._roll import MAX_TOKENS as MAX_TOKENS
from engine.notation._roll import NotationRoll as NotationRoll
from engine.notation._roll import RollError as RollError
from engine.notation._scanner import MAX_ONCE as MAX_ONCE
from engine.notation._scanner import Pool as Pool
