"""The interaction callback's returned message, parsed only when someone reads it.

discord.py asks for the callback's response (``with_response=1``) and builds an
:class:`discord.InteractionMessage` from it on every reply, defer and edit: a ``Message``
with its author, embeds, components and mentions. The bot almost never reads it (it needs
the message id at most, for a view), and building it was about 9% of a ``/roll``'s CPU
(docs/decisions/hot-path.md). :class:`LazyCallbackResponse` keeps every attribute eager except
``resource``, which it builds on first access from the same data, so a caller that reads it
sees exactly what discord.py would have given.

:func:`install_lazy_callbacks` points ``discord.interactions``'s name at it, since discord.py
builds the response inside ``InteractionResponse.send_message`` / ``defer`` / ``edit_message`` /
``send_modal`` by that module-level name. It is a subclass, so ``isinstance`` checks hold.
The private parts of discord.py it relies on are reached through :mod:`bot.internals`.
"""

from __future__ import annotations

from typing import Any

from discord.enums import InteractionResponseType, try_enum

from bot.internals import CallbackResponseHooks, get_as_snowflake, install_callback_response

_UNPARSED = object()


class LazyCallbackResponse(CallbackResponseHooks):
    """discord.py's callback response with ``resource`` built on first read."""

    __slots__ = ("_resource", "_resource_data")

    def read_callback(self, data: Any) -> None:
        # discord.py's own _update, except that the message resource is kept raw.
        interaction = data["interaction"]
        self.id = int(interaction["id"])
        self.set_flags(
            thinking=interaction.get("response_message_loading", False),
            ephemeral=interaction.get("response_message_ephemeral", False),
        )
        self.message_id = get_as_snowflake(interaction, "response_message_id")
        self.activity_id = interaction.get("activity_instance_id")
        self._resource_data = data.get("resource")
        self._resource = _UNPARSED
        if self._resource_data is not None:
            self.type = try_enum(InteractionResponseType, self._resource_data["type"])

    @property
    def resource(self) -> Any:
        if self._resource is _UNPARSED:
            self._resource = self._parse(self._resource_data)
        return self._resource

    @resource.setter
    def resource(self, value: Any) -> None:
        self._resource = value

    def _parse(self, resource: Any) -> Any:
        if resource is None:
            return None
        message = resource.get("message")
        if message is not None:
            return self.interaction_message(message)
        activity_instance = resource.get("activity_instance")
        if activity_instance is not None:
            return self.activity_instance(activity_instance)
        return None


def install_lazy_callbacks() -> None:
    """Make discord.py build :class:`LazyCallbackResponse` (idempotent)."""
    install_callback_response(LazyCallbackResponse)
