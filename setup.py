"""The build hook that compiles the translations: each ``bot/locale/*/LC_MESSAGES/*.po``
becomes a ``.mo`` next to it in the built package (wheels and installs), so compiled
catalogs are built from the ``.po`` files and never committed. Everything else about the
package is in ``pyproject.toml``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent


class BuildPyWithCatalogs(build_py):
    """``build_py``, then a ``.mo`` compiled from every ``.po`` copied into the build."""

    def run(self) -> None:
        super().run()
        sys.path.insert(0, str(HERE))  # the one compiler the bot uses (it needs Babel only)
        from bot.i18n._catalogs import compile_po

        for po_path in sorted(Path(self.build_lib, "bot", "locale").glob("*/LC_MESSAGES/*.po")):
            po_path.with_suffix(".mo").write_bytes(compile_po(po_path))


setup(cmdclass={"build_py": BuildPyWithCatalogs})
