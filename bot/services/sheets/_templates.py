"""Suggested sheet names per system (from RULES.md and the seeds), offered on create and in
autocomplete.

It exists to keep this data apart from the sheet's code (:mod:`bot.services.sheets._model`).
"""

from __future__ import annotations

#: Suggested names per system (from RULES.md and the seeds), offered on create and in
#: autocomplete. Any other name is allowed.
TEMPLATES: dict[str, dict[str, tuple[str, ...]]] = {
    "coda": {
        "attributes": (
            "Bearing",
            "Nimbleness",
            "Perception",
            "Strength",
            "Vitality",
            "Wits",
            "Stamina",
            "Swiftness",
            "Willpower",
            "Wisdom",
            "Defence",
        ),
        "resources": ("Health", "Courage"),
    },
    "h90": {
        "attributes": ("Strength", "Dexterity", "Toughness", "Humor"),
        "resources": ("Health",),
    },
    "infinity": {
        "attributes": ("CC", "BS", "PH", "WIP", "ARM", "BTS"),
        "resources": ("W",),
    },
    "rps": {
        "attributes": ("Strength", "Agility", "Intellect", "Intuition"),
        "resources": ("Health",),
    },
    "drama": {
        "attributes": ("Physical", "Agility", "Mental", "Social"),
        "resources": ("Grit", "Flesh", "Fortitude", "Composure"),
    },
}
