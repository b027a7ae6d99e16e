"""One module per game system, each following the engine contract in DESIGN.md."""

from engine.errors import N_

#: The systems Narrator plays, by the short key used in commands, sheets and settings.
#: English titles, translated where shown (``_(SYSTEMS[key])``).
SYSTEMS: dict[str, str] = {
    "coda": N_("CODA (Harry Potter RPG)"),
    "h90": "Hogwarts 1990",
    "infinity": "Infinity CodeOne",
    "rps": "RPS",
    "drama": N_("Drama in History"),
}
