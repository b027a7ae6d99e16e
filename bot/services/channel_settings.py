"""Channel settings: the default system, rule toggles, secret-roll mode and GM channel."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from sqlalchemy.ext.asyncio import AsyncSession

from bot.actor import Actor
from bot.errors import UserError
from bot.i18n import N_, _
from bot.services.permissions import require_gm
from bot.storage import Database
from bot.storage.models import ChannelSettings
from bot.storage.repositories import channels
from bot.text import UserText
from engine.systems import SYSTEMS

#: Optional rules by dotted name; the first value is the default.
RULE_VALUES: dict[str, tuple[str, ...]] = {
    "coda.ones": ("off", "fumble", "failure", "complete-failure"),
    "drama.criticals": ("off", "on"),
}
RULE_HELP: dict[str, str] = {
    "coda.ones": N_("CODA rolling 1s: what two 1s on a test mean"),
    "drama.criticals": N_("Drama criticals: three or more 6s add to the net"),
}
SECRET_MODES: dict[str, str] = {
    "gm": N_("the roller and the GM see secret rolls"),
    "open": N_("secret is ignored: every roll is public"),
    "off": N_("secret rolls are refused"),
}


@dataclass(frozen=True, slots=True)
class ChannelView:
    """A channel's settings with defaults filled in."""

    channel_id: int
    default_system: str | None = None
    secret_mode: str = "gm"
    gm_channel_id: int | None = None
    rules: dict[str, str] = field(default_factory=dict)

    def rule(self, name: str) -> str:
        return self.rules.get(name, RULE_VALUES[name][0])


async def read(session: AsyncSession, channel_id: int) -> ChannelView:
    """The channel's settings inside an open unit of work (defaults when never set)."""
    row = await channels.get(session, channel_id)
    if row is None:
        return ChannelView(channel_id=channel_id, rules=_with_defaults({}))
    return ChannelView(
        channel_id=channel_id,
        default_system=row.default_system,
        secret_mode=row.secret_mode,
        gm_channel_id=row.gm_channel_id,
        rules=_with_defaults(row.rules),
    )


async def show(db: Database, channel_id: int) -> ChannelView:
    async with db.unit_of_work(read_only=True) as session:
        return await read(session, channel_id)


async def set_rule(db: Database, actor: Actor, name: str, value: str) -> ChannelView:
    if name not in RULE_VALUES:
        raise UserError(
            _(
                "Unknown rule `{name}`. Rules: {rules}.",
                name=UserText(name),
                rules=", ".join(RULE_VALUES),
            )
        )
    if value not in RULE_VALUES[name]:
        raise UserError(
            _(
                "`{name}` takes one of: {values}.",
                name=UserText(name),
                values=", ".join(RULE_VALUES[name]),
            )
        )

    def change(row: ChannelSettings) -> None:
        row.rules = {**row.rules, name: value}

    return await _update(db, actor, N_("change the channel's rules"), change)


async def set_system(db: Database, actor: Actor, system: str) -> ChannelView:
    if system not in SYSTEMS:
        raise UserError(
            _(
                "Unknown system `{system}`. Systems: {systems}.",
                system=system,
                systems=", ".join(SYSTEMS),
            )
        )
    return await _update(
        db,
        actor,
        N_("set the channel's default system"),
        lambda row: setattr(row, "default_system", system),
    )


async def set_secret_mode(db: Database, actor: Actor, mode: str) -> ChannelView:
    if mode not in SECRET_MODES:
        raise UserError(_("Secret mode is one of: {modes}.", modes=", ".join(SECRET_MODES)))
    return await _update(
        db,
        actor,
        N_("change how secret rolls work here"),
        lambda row: setattr(row, "secret_mode", mode),
    )


async def set_gm_channel(db: Database, actor: Actor, gm_channel_id: int | None) -> ChannelView:
    return await _update(
        db,
        actor,
        N_("choose where secret rolls go"),
        lambda row: setattr(row, "gm_channel_id", gm_channel_id),
    )


async def _update(
    db: Database, actor: Actor, action: str, change: Callable[[ChannelSettings], None]
) -> ChannelView:
    """Every settings change: GM only, the row locked, changed, and read back in one transaction."""
    async with db.unit_of_work() as session:
        await require_gm(session, actor, action)
        row = await channels.get_for_update(session, actor.channel_id, actor.guild_id)
        change(row)
        await session.flush()
        return await read(session, actor.channel_id)


def _with_defaults(rules: dict[str, str]) -> dict[str, str]:
    return {name: rules.get(name, values[0]) for name, values in RULE_VALUES.items()}
