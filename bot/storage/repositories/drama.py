"""Drama "Pay the price" offers: created with the roll, locked when the button is pressed."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.storage.models import DramaPriceOffer


async def get_for_update(session: AsyncSession, offer_id: int) -> DramaPriceOffer | None:
    query = select(DramaPriceOffer).where(DramaPriceOffer.id == offer_id).with_for_update()
    return (await session.execute(query)).scalar_one_or_none()


async def add(session: AsyncSession, offer: DramaPriceOffer) -> DramaPriceOffer:
    """Add the offer and flush, so its id can go into the button before the commit."""
    session.add(offer)
    await session.flush()
    return offer
