"""The skeleton every page stands on: headers, login by name, form tokens, safe redirects."""

from __future__ import annotations

from typing import Any

from pydantic import SecretStr

from bot.hosting.config import Settings
from bot.web._templates import discord_text
from tests.bot.web.conftest import Browser


async def test_every_response_has_the_security_headers(browser: Browser) -> None:
    for path in ("/", "/login", "/no/such/page"):
        response = await browser.client.get(path)
        csp = response.headers["Content-Security-Policy"]
        assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["Referrer-Policy"] == "same-origin"
        assert response.headers["Cache-Control"] == "no-store"  # one viewer's pages
    static = await browser.client.get("/static/app.js")
    assert static.status == 200 and "no-store" not in static.headers.get("Cache-Control", "")


async def test_an_unknown_page_is_a_short_404_not_a_traceback(browser: Browser) -> None:
    response = await browser.client.get("/no/such/page")
    text = await response.text()
    assert response.status == 404
    assert "There is nothing here" in text and "Traceback" not in text


async def test_local_login_shows_who_is_logged_in_and_logout_ends_it(browser: Browser) -> None:
    await browser.log_in("alice")
    page = await (await browser.client.get("/")).text()
    assert "alice" in page and "Log out" in page
    response = await browser.post("/logout", {}, allow_redirects=False)
    assert response.status == 303
    page = await (await browser.client.get("/")).text()
    assert "Log out" not in page


async def test_the_session_cookie_is_httponly_and_samesite(browser: Browser) -> None:
    token = await browser.token("/login")
    response = await browser.client.post(
        "/login", data={"name": "bob", "csrf_token": token}, allow_redirects=False
    )
    cookie = response.cookies["narrator_session"]
    assert cookie["httponly"] and cookie["samesite"] == "Lax"
    assert not cookie["secure"]  # served over http here; https sets Secure


async def test_a_form_without_its_token_is_refused(browser: Browser) -> None:
    await browser.log_in("alice")
    response = await browser.client.post("/logout", data={}, allow_redirects=False)
    assert response.status == 403
    assert "did not come from this site" in await response.text()
    wrong = await browser.client.post(
        "/logout", data={"csrf_token": "forged"}, allow_redirects=False
    )
    assert wrong.status == 403
    assert "Log out" in await (await browser.client.get("/")).text()  # still logged in


async def test_login_returns_only_to_a_path_of_this_site(browser: Browser) -> None:
    for hostile in ("//evil.example", "https://evil.example/", "/\\evil.example", "evil"):
        token = await browser.token("/login")
        response = await browser.client.post(
            "/login",
            data={"name": "alice", "csrf_token": token, "next": hostile},
            allow_redirects=False,
        )
        assert response.headers["Location"] == "/", hostile
    token = await browser.token("/login")
    response = await browser.client.post(
        "/login",
        data={"name": "alice", "csrf_token": token, "next": "/characters?x=1"},
        allow_redirects=False,
    )
    assert response.headers["Location"] == "/characters?x=1"


async def test_local_login_is_refused_when_a_client_secret_is_set(
    browser_for: Any, web_settings: Settings
) -> None:
    secret = web_settings.model_copy(
        update={"discord_client_secret": SecretStr("s3cret"), "discord_client_id": 1}
    )
    browser = await browser_for(settings=secret, local_login=True)
    page = await (await browser.client.get("/login")).text()
    assert 'name="name"' not in page and "Log in with Discord" in page
    response = await browser.post("/login", {"name": "gm"}, allow_redirects=False)
    assert response.status == 403


async def test_pages_follow_the_browsers_language_then_the_viewers_choice(
    browser: Browser,
) -> None:
    spanish = {"Accept-Language": "es-ES,es;q=0.9,en;q=0.5"}
    page = await (await browser.client.get("/", headers=spanish)).text()
    assert 'lang="es"' in page and "Iniciar sesión" in page
    missing = await browser.client.get("/nowhere", headers=spanish)
    assert "Aquí no hay nada" in await missing.text()
    response = await browser.post("/language", {"language": "en", "next": "/"}, headers=spanish)
    assert "Log in" in await response.text()  # the cookie wins over Accept-Language


def test_a_services_discord_message_becomes_safe_html() -> None:
    html = str(discord_text("No `a\\_b<script>` here: **bold** and \\*stars\\*."))
    assert html == ("No <code>a_b&lt;script&gt;</code> here: <strong>bold</strong> and *stars*.")
