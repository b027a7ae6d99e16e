"""A real browser for the web companion's tests: Playwright driving Debian's Chromium.

``.ci/run`` installs the ``chromium`` package with apt when it is missing; where no browser
can be installed these tests skip, saying why. Every test here is ``e2e`` (it runs after the
rest in ``make check``). Screenshots go to ``tests/e2e/screenshots/`` (git-ignored); the ones
the docs show are copied to ``docs/images/`` when ``UPDATE_DOC_IMAGES=1`` is set (they carry
the run's times and ids, so an ordinary run leaves the committed images alone).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

#: Debian's Chromium (``apt-get install chromium``); ``NARRATOR_CHROMIUM`` names another.
CHROMIUM = Path(os.environ.get("NARRATOR_CHROMIUM", "/usr/bin/chromium"))
ROOT = Path(__file__).resolve().parents[3]
SCREENSHOTS = ROOT / "tests" / "e2e" / "screenshots"
DOCS_IMAGES = ROOT / "docs" / "images"


def _no_browser_reason() -> str | None:
    if importlib.util.find_spec("playwright") is None:
        return "Playwright is not installed (pip install -e '.[test]')"
    if not CHROMIUM.exists():
        return (
            f"no Chromium at {CHROMIUM}: .ci/run installs Debian's `chromium` with apt; "
            "install it (or set NARRATOR_CHROMIUM) to run the browser tests"
        )
    return None


@pytest_asyncio.fixture
async def browser() -> AsyncIterator[object]:
    """A Chromium for one test, on the test's own event loop (beside the bot in SimCord and
    the web app), ``--no-sandbox`` only when running as root, where Chromium refuses its
    sandbox."""
    reason = _no_browser_reason()
    if reason is not None:
        pytest.skip(reason)
    from playwright.async_api import async_playwright

    args = ["--no-sandbox"] if os.geteuid() == 0 else []
    async with async_playwright() as driver:
        launched = await driver.chromium.launch(executable_path=str(CHROMIUM), args=args)
        try:
            yield launched
        finally:
            await launched.close()


@pytest_asyncio.fixture
async def page(browser: object) -> AsyncIterator[object]:
    """A fresh page in its own context (no cookies shared between tests), English, phone-wide
    enough to show the layout."""
    context = await browser.new_context(  # type: ignore[attr-defined]
        locale="en-US", viewport={"width": 1000, "height": 900}
    )
    try:
        yield await context.new_page()
    finally:
        await context.close()


async def screenshot(page: object, name: str, *, docs: bool = False) -> Path:
    """Save ``page`` as ``name``.png among the test screenshots (and in docs/images/ for
    the ones the players' guide shows, with ``UPDATE_DOC_IMAGES=1``)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    await page.screenshot(path=str(path), full_page=True)  # type: ignore[attr-defined]
    if docs and os.environ.get("UPDATE_DOC_IMAGES") == "1":
        DOCS_IMAGES.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, DOCS_IMAGES / f"{name}.png")
    return path
