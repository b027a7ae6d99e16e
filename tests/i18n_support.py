"""Spanish interactions for SimCord tests (interim: helper 20a's ``as_spanish`` fixture in
``tests/conftest.py`` replaces this file; the contract is the same).

SimCord writes ``locale: "en-US"`` into every interaction payload; ``as_spanish(user)`` makes
every interaction of that SimCord user carry ``"es-ES"`` instead, as a Spanish Discord client
would, so the bot answers that user in Spanish.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from simcord import interactions as simcord_interactions


@pytest.fixture
def as_spanish(monkeypatch: pytest.MonkeyPatch) -> Callable[[Any], Any]:
    spanish: set[int] = set()
    original = simcord_interactions.base_payload

    def base_payload(backend: Any, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        record, payload = original(backend, **kwargs)
        if kwargs.get("user_id") in spanish:
            payload["locale"] = "es-ES"
        return record, payload

    monkeypatch.setattr(simcord_interactions, "base_payload", base_payload)

    def make(user: Any) -> Any:
        spanish.add(user.id)
        return user

    return make
