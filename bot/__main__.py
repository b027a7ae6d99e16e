"""``python -m bot`` is ``narrator``."""

from bot.cli import main

raise SystemExit(main())
