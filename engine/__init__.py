"""Narrator's rules engine: pure game mechanics, importable without discord or a database.

Every function that rolls takes a :class:`engine.dice.Dice` first and returns a frozen
dataclass that carries every face rolled, so one scripted sequence of faces pins one
exact outcome (see ``shared/RULES.md``, the **Order** of each system).
"""
