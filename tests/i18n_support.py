"""Interim ``as_spanish`` fixture (issue 20): helper 20a adds the same fixture to
``tests/conftest.py``; until that lands, test modules import this one (the lead keeps one).

Contract: ``as_spanish(user)`` makes every later interaction of that SimCord user carry
``locale: "es-ES"`` (SimCord writes ``"en-US"`` into every INTERACTION_CREATE payload).
"""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture
def as_spanish(monkeypatch: pytest.MonkeyPatch) -> Any:
    """``as_spanish(user)``: that user's interactions carry es-ES; returns the user."""
    from simcord import interactions

    locales: dict[int, str] = {}
    original = interactions.base_payload

    def base_payload(*args: Any, **kwargs: Any) -> Any:
        record, payload = original(*args, **kwargs)
        locale = locales.get(int(kwargs["user_id"]))
        if locale is not None:
            payload["locale"] = locale
        return record, payload

    monkeypatch.setattr(interactions, "base_payload", base_payload)

    def choose(user: Any, locale: str = "es-ES") -> Any:
        locales[int(user.id)] = locale
        return user

    return choose
