"""Interim copy of helper 20a's ``as_spanish`` fixture (tests/conftest.py on its branch), so
this branch's Spanish tests run before 20a's branch is merged. The lead keeps one of the two
(same name, same contract): ``as_spanish(user)`` makes that SimCord user's interactions carry
locale ``es-ES``."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture
def as_spanish(monkeypatch: pytest.MonkeyPatch) -> Any:
    """``as_spanish(user)``: every later interaction of that SimCord user carries locale es-ES."""
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
