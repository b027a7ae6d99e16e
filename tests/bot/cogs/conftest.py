"""Interim (issue 20d): the ``as_spanish`` fixture for the cog tests until helper 20a's lands
in ``tests/conftest.py``; then this file goes (the lead reconciles)."""

from tests.i18n_support import as_spanish  # noqa: F401
