"""Drama in History dice pools (RULES.md §5): Base, Resistance and Drama d6 pools.

Bd 5–6 count +1, Rd 1–2 count −1, Dd 4–6 count +1 and Dd 1s −1 (each also a penalty die
for the roller); every Dd 6 explodes into one more Dd. Net ≥ 2 succeeds, net 1 is
"Yes, but…", less fails. Dice are drawn all Bd, all Rd, the Dd asked for, then one extra
Dd per 6 in the order the 6s appeared, so a ScriptedDice pins one result.

Chances are exact distributions of the net: Bd and Rd are binomial, and the Dd pool is
split into its number of 6s K (negative binomial: every chain of explosions ends on one
non-6) and the sum T of the non-6 faces; the series over K is summed until what is left
is below 1e-12.

This module is the public face (``drama.X`` is the API): it re-exports (``X as X``) what
lives in the modules below it, one job each:

- :mod:`engine.systems.drama._dice`: bounds, rolling one test and reading its net;
- :mod:`engine.systems.drama._odds`: exact chances (cached);
- :mod:`engine.systems.drama._pools`: building pools (difficulties, attributes, skills…);
- :mod:`engine.systems.drama._together`: opposed tests and working together.
"""

from __future__ import annotations

from engine.systems.drama._dice import CRITICAL_SIXES as CRITICAL_SIXES
from engine.systems.drama._dice import MAX_ATTRIBUTE as MAX_ATTRIBUTE
from engine.systems.drama._dice import MAX_BACKGROUNDS as MAX_BACKGROUNDS
from engine.systems.drama._dice import MAX_EXPLOSIONS as MAX_EXPLOSIONS
from engine.systems.drama._dice import MAX_HELPERS as MAX_HELPERS
from engine.systems.drama._dice import MAX_PENALTY as MAX_PENALTY
from engine.systems.drama._dice import MAX_POOL as MAX_POOL
from engine.systems.drama._dice import MAX_ROLLED_RESISTANCE as MAX_ROLLED_RESISTANCE
from engine.systems.drama._dice import MIN_ATTRIBUTE as MIN_ATTRIBUTE
from engine.systems.drama._dice import PRICE_PENALTY as PRICE_PENALTY
from engine.systems.drama._dice import SIDES as SIDES
from engine.systems.drama._dice import SUCCESS_NET as SUCCESS_NET
from engine.systems.drama._dice import YES_BUT_NET as YES_BUT_NET
from engine.systems.drama._dice import DramaDie as DramaDie
from engine.systems.drama._dice import DramaError as DramaError
from engine.systems.drama._dice import DramaResult as DramaResult
from engine.systems.drama._dice import Outcome as Outcome
from engine.systems.drama._dice import base_value as base_value
from engine.systems.drama._dice import drama_value as drama_value
from engine.systems.drama._dice import pay_price as pay_price
from engine.systems.drama._dice import resistance_value as resistance_value
from engine.systems.drama._dice import test as test
from engine.systems.drama._odds import chance as chance
from engine.systems.drama._odds import clear_caches as clear_caches
from engine.systems.drama._odds import net_distribution as net_distribution
from engine.systems.drama._odds import outcome_chances as outcome_chances
from engine.systems.drama._pools import DIFFICULTIES as DIFFICULTIES
from engine.systems.drama._pools import BackgroundFit as BackgroundFit
from engine.systems.drama._pools import Difficulty as Difficulty
from engine.systems.drama._pools import PoolPart as PoolPart
from engine.systems.drama._pools import Pools as Pools
from engine.systems.drama._pools import Situation as Situation
from engine.systems.drama._pools import attribute_pools as attribute_pools
from engine.systems.drama._pools import background_pools as background_pools
from engine.systems.drama._pools import difficulty as difficulty
from engine.systems.drama._pools import given_pools as given_pools
from engine.systems.drama._pools import roll_pools as roll_pools
from engine.systems.drama._pools import skill_pools as skill_pools
from engine.systems.drama._together import MAX_TOGETHER as MAX_TOGETHER
from engine.systems.drama._together import OpposedOutcome as OpposedOutcome
from engine.systems.drama._together import OpposedResult as OpposedResult
from engine.systems.drama._together import TogetherResult as TogetherResult
from engine.systems.drama._together import opposed as opposed
from engine.systems.drama._together import opposed_chances as opposed_chances
from engine.systems.drama._together import read_opposed as read_opposed
from engine.systems.drama._together import together as together
from engine.systems.drama._together import together_chance as together_chance
from engine.systems.drama._together import together_chances as together_chances
