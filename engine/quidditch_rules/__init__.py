"""The parts of :mod:`engine.quidditch`, one job each; import from ``engine.quidditch``."""
