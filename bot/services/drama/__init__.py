"""Drama in History use cases: tests, opposed tests and "Pay the price" (``_rolls``), helpers
working together (``_helpers``) and opposed tests between two players (``_opposed``).

This face is the package's API; its modules are private.
"""

from __future__ import annotations

from bot.services.drama._helpers import HELPERS_KIND as HELPERS_KIND
from bot.services.drama._helpers import roll_their_part as roll_their_part
from bot.services.drama._helpers import test_together as test_together
from bot.services.drama._opposed import OPPOSED_KIND as OPPOSED_KIND
from bot.services.drama._opposed import OpposedOutcome as OpposedOutcome
from bot.services.drama._opposed import opposed as opposed
from bot.services.drama._opposed import roll_their_side as roll_their_side
from bot.services.drama._opposed import their_request as their_request
from bot.services.drama._rolls import PRICE_WINDOW as PRICE_WINDOW
from bot.services.drama._rolls import SYSTEM as SYSTEM
from bot.services.drama._rolls import Helper as Helper
from bot.services.drama._rolls import HelperRoll as HelperRoll
from bot.services.drama._rolls import OfferClosed as OfferClosed
from bot.services.drama._rolls import PoolRequest as PoolRequest
from bot.services.drama._rolls import PriceOutcome as PriceOutcome
from bot.services.drama._rolls import Roller as Roller
from bot.services.drama._rolls import RollOutcome as RollOutcome
from bot.services.drama._rolls import build_roller as build_roller
from bot.services.drama._rolls import faces_of as faces_of
from bot.services.drama._rolls import gain_penalty as gain_penalty
from bot.services.drama._rolls import helper_of as helper_of
from bot.services.drama._rolls import helper_request as helper_request
from bot.services.drama._rolls import helper_specs as helper_specs
from bot.services.drama._rolls import offer_price as offer_price
from bot.services.drama._rolls import pay_price as pay_price
from bot.services.drama._rolls import pools_from as pools_from
from bot.services.drama._rolls import pools_of as pools_of
from bot.services.drama._rolls import pools_text as pools_text
from bot.services.drama._rolls import test as test
