"""Limits on hostile input: rate limits per session and per address, safe ``next=``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from bot.hosting.config import Settings
from bot.web._security import Buckets, safe_next
from tests.bot.web.conftest import Browser


def test_a_bucket_refills_at_its_rate() -> None:
    now = [0.0]
    buckets = Buckets(3, 1.0, clock=lambda: now[0])
    assert [buckets.take("a") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert buckets.take("a") == pytest.approx(1.0)  # empty: a second until the next request
    assert buckets.take("b") == 0.0  # another key has its own bucket
    now[0] = 1.0
    assert buckets.take("a") == 0.0
    assert Buckets(0, 1.0).take("a") == 0.0  # burst 0: no limit


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("/characters/3?x=1", "/characters/3?x=1"),
        ("//evil.example/", "/"),
        ("/\\evil.example", "/"),
        ("https://evil.example", "/"),
        ("javascript:alert(1)", "/"),
        ("/ok\r\nSet-Cookie: x", "/"),
        ("", "/"),
        (None, "/"),
    ],
)
def test_next_is_only_a_path_of_this_site(value: str | None, expected: str) -> None:
    assert safe_next(value) == expected


async def test_past_the_burst_an_address_is_told_to_slow_down(
    browser_for: Callable[..., Any], web_settings: Settings
) -> None:
    limited = web_settings.model_copy(update={"web_rate_burst": 3, "web_rate_per_second": 0.001})
    browser: Browser = await browser_for(settings=limited)
    statuses = [(await browser.client.get("/login")).status for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    refused = await browser.client.get("/login")
    assert int(refused.headers["Retry-After"]) >= 1
    assert "Slow down" in await refused.text()
    assert (await browser.client.get("/static/narrator.css")).status == 200  # not counted


async def test_behind_a_trusted_proxy_each_client_address_has_its_own_budget(
    browser_for: Callable[..., Any], web_settings: Settings
) -> None:
    proxied = web_settings.model_copy(
        update={"web_rate_burst": 2, "web_rate_per_second": 0.001, "web_trust_proxy": True}
    )
    browser: Browser = await browser_for(settings=proxied)

    async def status(client_ip: str) -> int:
        headers = {"X-Forwarded-For": f"6.6.6.6, {client_ip}"}  # the first entry is a claim
        browser.client.session.cookie_jar.clear()  # no session: only the address counts
        return (await browser.client.get("/login", headers=headers)).status

    assert [await status("10.0.0.1") for _ in range(3)] == [200, 200, 429]
    assert await status("10.0.0.2") == 200
