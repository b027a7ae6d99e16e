"""``/characters``: the viewer's sheets in every system, each field editable, JSON import
and export; a GM reads the sheets of the characters used in their channels.

Every change calls the service ``/sheet`` calls (``bot.services.sheets``: the edit form's
``submit``, ``rename``, ``import_sheet``, ``export``, ``delete``) with the owner as the actor,
so the validation, the limits and the messages are the bot's, and the redirect that says
"saved" is sent only after the service's unit of work committed (the durability rule).
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from bot.actor import Actor
from bot.errors import UserError
from bot.i18n import N_, _
from bot.services import macros, sheets
from bot.services.access import (
    CharacterView,
    NotVisible,
    character_for,
    characters_for,
    owner_actor,
)
from bot.services.sheets import MAX_IMPORT_BYTES, build_form
from bot.web._context import database_of
from bot.web._session import Viewer, require_viewer
from bot.web._templates import render
from engine.systems import SYSTEMS

routes = web.RouteTableDef()

PARTS = ("attributes", "skills")
SAVED = N_("Saved.")
DIRECT_MESSAGES = N_("Direct messages")


def _character_id(request: web.Request) -> int:
    try:
        return int(request.match_info["id"])
    except ValueError:
        raise web.HTTPNotFound() from None


async def _view(request: web.Request, viewer: Viewer) -> CharacterView:
    try:
        return await character_for(
            database_of(request), viewer.user_id, viewer.guild_ids, _character_id(request)
        )
    except NotVisible:
        raise web.HTTPNotFound() from None


async def _editable(request: web.Request, viewer: Viewer) -> CharacterView:
    """The character, when the viewer owns it: a GM reading a player's sheet gets 403."""
    view = await _view(request, viewer)
    if not view.editable:
        raise web.HTTPForbidden()
    return view


def _systems() -> dict[str, str]:
    return {key: _(title) for key, title in SYSTEMS.items()}


@routes.get("/characters", name="characters")
async def characters(request: web.Request) -> web.StreamResponse:
    viewer = require_viewer(request)
    return await _list_page(request, viewer)


async def _list_page(
    request: web.Request, viewer: Viewer, *, error: str | None = None, status: int = 200
) -> web.Response:
    own, others = await characters_for(database_of(request), viewer.user_id, viewer.guild_ids)
    guilds = {ref.guild_id: ref.guild_name for ref in own if ref.guild_id}
    return render(
        request,
        "characters.html",
        status=status,
        own=own,
        others=others,
        systems=_systems(),
        guild_ids=sorted(viewer.guild_ids),
        guild_names=guilds,
        direct_messages=_(DIRECT_MESSAGES),
        max_kb=MAX_IMPORT_BYTES // 1024,
        error=error,
    )


def _text(value: Any) -> str:
    """A form's text as a modal would send it: no NUL (which no database stores)."""
    return str(value).replace("\x00", "")


async def _sheet_page(
    request: web.Request,
    view: CharacterView,
    *,
    error: str | None = None,
    error_part: str | None = None,
    values: dict[str, str] | None = None,
    status: int = 200,
) -> web.Response:
    forms: dict[str, Any] = {}
    form_error = None
    character_macros: list[macros.MacroInfo] = []
    if view.editable:
        character_macros = await macros.of_character(
            database_of(request), owner_actor(view), view.sheet.id
        )
        for part in PARTS:
            try:
                forms[part] = build_form(view.sheet, part)  # type: ignore[arg-type]
            except UserError as problem:  # a part past a form's limits: /sheet's own answer
                form_error = str(problem)
    return render(
        request,
        "character.html",
        status=status,
        view=view,
        sheet=view.sheet,
        system=_systems().get(view.sheet.system, view.sheet.system),
        forms=forms,
        form_error=form_error,
        error=error,
        error_part=error_part,
        values=values or {},
        macros=character_macros,
        saved=_(SAVED) if request.query.get("saved") else None,
    )


@routes.get("/characters/{id}", name="character")
async def character(request: web.Request) -> web.StreamResponse:
    viewer = require_viewer(request)
    return await _sheet_page(request, await _view(request, viewer))


@routes.post("/characters/{id}/edit/{part}")
async def edit(request: web.Request) -> web.StreamResponse:
    viewer = require_viewer(request)
    part = request.match_info["part"]
    if part not in PARTS:
        raise web.HTTPNotFound()
    view = await _editable(request, viewer)
    form = await request.post()
    values = {key: _text(value) for key, value in form.items() if isinstance(value, str)}
    try:
        await sheets.submit(database_of(request), owner_actor(view), view.sheet.id, part, values)  # type: ignore[arg-type]
    except UserError as problem:
        return await _sheet_page(
            request, view, error=str(problem), error_part=part, values=values, status=400
        )
    raise web.HTTPSeeOther(f"/characters/{view.sheet.id}?saved=1#{part}")


@routes.post("/characters/{id}/rename")
async def rename(request: web.Request) -> web.StreamResponse:
    viewer = require_viewer(request)
    view = await _editable(request, viewer)
    form = await request.post()
    try:
        await sheets.rename(
            database_of(request), owner_actor(view), view.sheet.name, _text(form.get("name", ""))
        )
    except UserError as problem:
        return await _sheet_page(request, view, error=str(problem), error_part="name", status=400)
    raise web.HTTPSeeOther(f"/characters/{view.sheet.id}?saved=1")


@routes.post("/characters/{id}/delete")
async def delete(request: web.Request) -> web.StreamResponse:
    viewer = require_viewer(request)
    view = await _editable(request, viewer)
    form = await request.post()
    if form.get("confirm") != view.sheet.name:
        return await _sheet_page(
            request,
            view,
            error=_("Type the character's name to delete it."),
            error_part="delete",
            status=400,
        )
    try:
        await sheets.delete(database_of(request), owner_actor(view), view.sheet.id)
    except UserError as problem:
        return await _sheet_page(request, view, error=str(problem), error_part="delete", status=400)
    raise web.HTTPSeeOther("/characters")


@routes.get("/characters/{id}/export")
async def export(request: web.Request) -> web.StreamResponse:
    viewer = require_viewer(request)
    view = await _editable(request, viewer)
    filename, data = await sheets.export(database_of(request), owner_actor(view), view.sheet.name)
    return web.Response(
        body=data,
        content_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


@routes.post("/characters/import")
async def import_(request: web.Request) -> web.StreamResponse:
    viewer = require_viewer(request)
    form = await request.post()
    upload = form.get("file")
    content = upload.file.read(MAX_IMPORT_BYTES + 1) if isinstance(upload, web.FileField) else b""
    try:
        guild_id = int(str(form.get("guild", "0")))
    except ValueError:
        raise web.HTTPBadRequest() from None
    if guild_id and guild_id not in viewer.guild_ids:
        raise web.HTTPForbidden()
    if not content:
        error = _("Choose a sheet file (JSON, as `/sheet export` or this page exports).")
        return await _list_page(request, viewer, error=error, status=400)
    actor = Actor(user_id=viewer.user_id, channel_id=0, guild_id=guild_id or None)
    try:
        sheet = await sheets.import_sheet(
            database_of(request), actor, content, replace=form.get("replace") == "on"
        )
    except UserError as problem:
        return await _list_page(request, viewer, error=str(problem), status=400)
    raise web.HTTPSeeOther(f"/characters/{sheet.id}?saved=1")


def _macro_id(request: web.Request) -> int:
    try:
        return int(request.match_info["macro"])
    except ValueError:
        raise web.HTTPNotFound() from None


@routes.post("/characters/{id}/macros/{macro}")
async def edit_macro(request: web.Request) -> web.StreamResponse:
    viewer = require_viewer(request)
    view = await _editable(request, viewer)
    form = await request.post()
    try:
        await macros.edit_of_character(
            database_of(request),
            owner_actor(view),
            view.sheet.id,
            _macro_id(request),
            _text(form.get("command", "")),
        )
    except UserError as problem:
        return await _sheet_page(request, view, error=str(problem), error_part="macros", status=400)
    raise web.HTTPSeeOther(f"/characters/{view.sheet.id}?saved=1#macros")


@routes.post("/characters/{id}/macros/{macro}/delete")
async def delete_macro(request: web.Request) -> web.StreamResponse:
    viewer = require_viewer(request)
    view = await _editable(request, viewer)
    try:
        await macros.delete_of_character(
            database_of(request), owner_actor(view), view.sheet.id, _macro_id(request)
        )
    except UserError as problem:
        return await _sheet_page(request, view, error=str(problem), error_part="macros", status=400)
    raise web.HTTPSeeOther(f"/characters/{view.sheet.id}?saved=1#macros")
