"""One module per game system, each following the engine contract in DESIGN.md."""

#: The systems Narrator plays, by the short key used in commands, sheets and settings.
SYSTEMS: dict[str, str] = {
    "coda": "CODA (Harry Potter RPG)",
    "h90": "Hogwarts 1990",
    "infinity": "Infinity CodeOne",
    "rps": "RPS",
    "drama": "Drama in History",
}
