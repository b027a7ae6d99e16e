"""``/drama test``, ``/drama opposed`` and the "Pay the price" button of a "Yes, but…"."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.cogs._common import NarratorCog, actor_from, send_roll, typed_mentions
from bot.cogs._confirm import answer_error
from bot.cogs._options import CHARACTER_HELP, ROLL_HELP, Label, SheetName
from bot.cogs._sheets import attribute_autocomplete, character_autocomplete, skill_autocomplete
from bot.cogs._side_request import register, send_challenge, send_parts
from bot.gateway import send_ephemeral
from bot.i18n import _
from bot.render import drama as render
from bot.services import drama as service
from bot.services.drama import OfferClosed, PoolRequest
from bot.services.rps import PARTIES_LENGTH
from bot.services.side_requests import Challenge, PartsRequest
from engine.systems import drama

log = logging.getLogger(__name__)

Dice = app_commands.Range[int, 0, drama.MAX_POOL]
Backgrounds = app_commands.Range[int, 1, drama.MAX_BACKGROUNDS]
Attribute = app_commands.Range[int, 0, drama.MAX_ATTRIBUTE]
Name = app_commands.Range[str, 1, 64]
Helpers = app_commands.Range[str, 1, PARTIES_LENGTH]


def _difficulty_name(d: drama.Difficulty) -> str:
    if d.base:
        return f"{d.name} (+{d.base} Bd)"
    if d.resistance:
        return f"{d.name} ({d.resistance} Rd)"
    return f"{d.name} (no dice)"


#: The names are built from the table (``Troublesome (2 Rd)``); each has its Spanish in the
#: catalog.
DIFFICULTIES = [
    app_commands.Choice(name=locale_str(_difficulty_name(d)), value=d.name)
    for d in drama.DIFFICULTIES
]
MOMENTUM = [
    app_commands.Choice(name=locale_str("me"), value="me"),
    app_commands.Choice(name=locale_str("them"), value="them"),
]
_POOL_HELP = {
    "base": locale_str("Base dice as a number (or use an attribute/skill of your character)"),
    "attribute": locale_str(
        "Attribute test: 2 × attribute (with a skill or backgrounds: the attribute)"
    ),
    "skill": locale_str("Skill test: attribute + skill (+1 Rd if attribute < skill, +2 Rd if ≤ 0)"),
    "backgrounds": locale_str(
        "Backgrounds standing in for a skill you lack: +1 Bd each (at most 3)"
    ),
    "indirect": locale_str("The backgrounds are a stretch: +1 Rd each as well"),
    "difficulty": locale_str("Very Easy +4 Bd … Formidable 10 Rd"),
    "resistance": locale_str("Situational resistance dice (Rd)"),
    "drama": locale_str("Drama dice from risks, advantages and passions (6s explode, 1s cost)"),
    "hand": locale_str("Lending a hand: the helpers' attributes (added up), added to your Bd"),
}


def price_view(offer_id: int, *, disabled: bool = False) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(PayPriceButton(offer_id, disabled=disabled))
    return view


class PayPriceButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"drama-price:(?P<offer>\d+)"
):
    """Turns the roller's "Yes, but…" into a success for one penalty die (stored offer)."""

    def __init__(self, offer_id: int, *, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=_("Pay the price"),
                emoji="⚖️",
                style=discord.ButtonStyle.primary,
                custom_id=f"drama-price:{offer_id}",
                disabled=disabled,
            )
        )
        self.offer_id = offer_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[Any],
        match: Any,
    ) -> PayPriceButton:
        return cls(int(match["offer"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await self._pay(interaction)
        except Exception as error:  # a button has no command tree to answer its errors
            await answer_error(interaction, error)

    async def _pay(self, interaction: discord.Interaction) -> None:
        try:
            outcome = await service.pay_price(
                interaction.client.db,  # type: ignore[attr-defined]
                actor_from(interaction),
                self.offer_id,
                now=interaction.created_at,
            )
        except OfferClosed as closed:
            # Paid already or too late: grey the button out for everyone, and say why.
            await interaction.response.edit_message(view=price_view(self.offer_id, disabled=True))
            await send_ephemeral(interaction, str(closed))
            return
        message = interaction.message
        original = message.embeds[0] if message is not None and message.embeds else None
        if original is None:
            original = discord.Embed(title="⚖️ " + _(drama.Outcome.YES_BUT.label))
        await interaction.response.edit_message(
            embed=render.price_paid_embed(original, outcome),
            view=price_view(self.offer_id, disabled=True),
        )


register(service.OPPOSED_KIND, service.roll_their_side, render.opposed_embed)


def _price_button(outcome: service.RollOutcome) -> list[discord.ui.Item[Any]]:
    """A test worked together that ends in "Yes, but…": the roller's Pay the price."""
    return [PayPriceButton(outcome.offer_id)] if outcome.offer_id is not None else []


register(
    service.HELPERS_KIND,
    service.roll_their_part,
    render.test_embed,
    parts=True,
    extra=_price_button,
)


class DramaCog(NarratorCog):
    drama_group = app_commands.Group(
        name="drama",
        description=locale_str("Drama in History: Base, Resistance and Drama dice pools"),
    )

    @drama_group.command(
        name="test", description=locale_str("Roll Bd, Rd and Dd: net 2 succeeds, 1 is 'Yes, but…'")
    )
    @app_commands.describe(
        target=locale_str("A resisted test: the target's stat or skill, added to Rd"),
        helpers=locale_str(
            "Working together, e.g. 'Tom:3, @bob' (a mentioned player rolls their own "
            "part); the nets add up"
        ),
        risk=locale_str(
            "GM: the roller's penalty dice are rolled as a risk this test (Dd instead of Rd)"
        ),
        character=CHARACTER_HELP,
        **_POOL_HELP,
        **ROLL_HELP,
    )
    @app_commands.choices(difficulty=DIFFICULTIES)
    @app_commands.autocomplete(
        attribute=attribute_autocomplete,
        skill=skill_autocomplete,
        character=character_autocomplete,
    )
    async def test(
        self,
        interaction: discord.Interaction,
        base: Dice | None = None,
        attribute: SheetName | None = None,
        skill: SheetName | None = None,
        backgrounds: Backgrounds | None = None,
        indirect: bool = False,
        difficulty: str | None = None,
        resistance: Dice = 0,
        target: Dice = 0,
        drama: Dice = 0,
        hand: Attribute = 0,
        helpers: Helpers | None = None,
        risk: bool = False,
        character: SheetName | None = None,
        label: Label | None = None,
        secret: bool = False,
    ) -> None:
        request = PoolRequest(
            base,
            attribute,
            skill,
            backgrounds,
            indirect,
            difficulty,
            resistance,
            target,
            drama,
            hand,
            risk,
        )
        outcome = await service.test_together(
            self.db,
            self.dice,
            actor_from(interaction),
            request,
            now=interaction.created_at,
            helpers=typed_mentions(interaction, helpers) if helpers else None,
            label=label,
            secret=secret,
            character=character,
        )
        if isinstance(outcome, PartsRequest):
            await send_parts(interaction, service.HELPERS_KIND, outcome)
            return
        embed = render.test_embed(outcome, interaction.user.display_name)
        view = price_view(outcome.offer_id) if outcome.offer_id is not None else None
        await send_roll(interaction, embed, outcome.secrecy, view=view)

    @drama_group.command(
        name="opposed",
        description=locale_str("Your pools against an opponent's: net 2 and more than them"),
    )
    @app_commands.describe(
        their_base=locale_str(
            "The opponent's Base dice (or what a mentioned player's character rolls)"
        ),
        their_name=locale_str(
            "Who the opponent is: a name, or @player (who rolls their own side; a GM "
            "rolls it for them)"
        ),
        their_attribute=locale_str("A mentioned player's character: the attribute it rolls"),
        their_skill=locale_str("A mentioned player's character: the skill it rolls"),
        their_backgrounds=locale_str(
            "A mentioned player's character: backgrounds standing in for a skill"
        ),
        their_indirect=locale_str("Their backgrounds are a stretch: +1 Rd each as well"),
        their_resistance=locale_str("The opponent's Resistance dice (their penalties, situation)"),
        their_drama=locale_str("The opponent's Drama dice"),
        momentum=locale_str("Who has the momentum if it is a draw (the GM says)"),
        **{key: text for key, text in _POOL_HELP.items() if key != "difficulty"},
        **ROLL_HELP,
    )
    @app_commands.choices(momentum=MOMENTUM)
    @app_commands.autocomplete(attribute=attribute_autocomplete, skill=skill_autocomplete)
    async def opposed(
        self,
        interaction: discord.Interaction,
        their_base: Dice | None = None,
        their_name: Name | None = None,
        their_attribute: SheetName | None = None,
        their_skill: SheetName | None = None,
        their_backgrounds: Backgrounds | None = None,
        their_indirect: bool = False,
        their_resistance: Dice = 0,
        their_drama: Dice = 0,
        base: Dice | None = None,
        attribute: SheetName | None = None,
        skill: SheetName | None = None,
        backgrounds: Backgrounds | None = None,
        indirect: bool = False,
        resistance: Dice = 0,
        drama: Dice = 0,
        hand: Attribute = 0,
        momentum: str | None = None,
        label: Label | None = None,
        secret: bool = False,
    ) -> None:
        request = PoolRequest(
            base, attribute, skill, backgrounds, indirect, None, resistance, 0, drama, hand
        )
        their = service.their_request(
            their_base,
            attribute=their_attribute,
            skill=their_skill,
            backgrounds=their_backgrounds,
            indirect=their_indirect,
            resistance=their_resistance,
            drama_dice=their_drama,
        )
        outcome = await service.opposed(
            self.db,
            self.dice,
            actor_from(interaction),
            request,
            their,
            their_name=typed_mentions(interaction, their_name) if their_name else None,
            momentum=momentum,
            label=label,
            secret=secret,
            now=interaction.created_at,
        )
        if isinstance(outcome, Challenge):
            await send_challenge(interaction, service.OPPOSED_KIND, outcome)
            return
        embed = render.opposed_embed(outcome, interaction.user.display_name)
        await send_roll(interaction, embed, outcome.secrecy)
