"""Two worked examples for each command ``/help command:<name>`` shows: what to type, and
what happens. Commands without an entry get two examples built from their options."""

from __future__ import annotations

#: command → ((typed, what happens), (typed, what happens))
EXAMPLES: dict[str, tuple[tuple[str, str], tuple[str, str]]] = {
    "roll": (
        ("/roll expression:2d6+3", "two six-sided dice plus 3"),
        ("/roll expression:4d6kh3 label:Strength", "four dice, the highest three kept"),
    ),
    "sheet create": (
        ("/sheet create name:Hermione system:coda", "a CODA sheet, active in this channel"),
        ("/sheet create name:William system:drama", "a Drama in History sheet"),
    ),
    "sheet set": (
        ("/sheet set attribute:Wits value:3", "Wits is 3 on your active character"),
        ("/sheet set attribute:Wits remove:true", "Wits is removed"),
    ),
    "sheet skill": (
        (
            "/sheet skill name:Potions ranks:3 attribute:Wits specialty:Brewing",
            "a skill with its parent attribute and a specialty",
        ),
        ("/sheet skill name:Potions ranks:4", "more ranks; the rest is kept"),
    ),
    "sheet resource": (
        ("/sheet resource name:Health current:20 max:20", "a resource with a maximum"),
        (
            '/sheet resource name:Health change:-4 character:"Hermione @alice"',
            "a GM takes 4 Health from alice's Hermione",
        ),
    ),
    "sheet show": (
        ("/sheet show", "your active character's sheet"),
        ("/sheet show player:@alice", "a GM looks at alice's active character"),
    ),
    "coda test": (
        ("/coda test modifier:3 tn:15", "2d6 + 3 against TN 15, with the exact chance"),
        ("/coda test modifier:2 difficulty:Challenging secret:true", "a secret test at TN 15"),
    ),
    "coda skill": (
        ("/coda skill skill:Potions difficulty:Challenging", "2d6 + Wits + Potions ranks"),
        (
            "/coda skill skill:Potions tn:12 specialty:Brewing",
            "with the Brewing specialty (+2)",
        ),
    ),
    "coda damage": (
        ("/coda damage dice:2 modifier:1", "2d6 + 1 damage; all 6s roll on"),
        ("/coda damage dice:3 label:Stunner", "3d6 damage, labelled"),
    ),
    "coda extended roll": (
        ("/coda extended roll skill:Potions", "the next test of the channel's extended test"),
        ("/coda extended roll modifier:0", "a bare 2d6 for a stage that names no skill"),
    ),
    "drama test": (
        ("/drama test attribute:Physical", "the attribute's Base dice, penalty dice as Rd"),
        ("/drama test base:4 drama:2 difficulty:Difficult", "a pool built by hand"),
    ),
    "penalty add": (
        ("/penalty add character:William amount:2 reason:a long march", "2 penalty dice"),
        (
            '/penalty add character:"Hermione @bob" amount:1',
            "a GM names whose Hermione when two share the name",
        ),
    ),
    "penalty show": (
        ("/penalty show", "your character's pool, level and recent changes"),
        ("/penalty show character:William", "a GM looks at William's pool"),
    ),
    "init start": (
        ("/init start", "an encounter in this channel's system, with its tracker"),
        ("/init start system:coda initiator:Hermione", "CODA initiative, Hermione first"),
    ),
    "init join": (
        ("/init join", "your active character rolls initiative"),
        ("/init join name:Hermione G.", "join under another name when yours is taken"),
    ),
    "init add": (
        ("/init add name:Troll modifier:2 hidden:true", "an NPC only the GM sees"),
        ("/init add name:Goblin count:3", "Goblin 1, Goblin 2 and Goblin 3"),
    ),
    "infinity roll": (
        ("/infinity roll attribute:BS mods:-3 burst:3", "three d20 against BS − 3"),
        ("/infinity roll attribute:12 label:shot", "one d20 against 12"),
    ),
    "rps check": (
        ("/rps check base:60", "2d10 against Base 60"),
        ("/rps check skill:Athletics", "from your sheet's skill"),
    ),
    "settings secret": (
        ("/settings secret mode:gm", "secret rolls go to the roller and the GM"),
        ("/settings secret mode:open", "every roll is public, secret or not"),
    ),
    "settings gm-role": (
        ("/settings gm-role role:@Storyteller", "holders of Storyteller are GMs in this server"),
        ("/settings gm-role role:@Storyteller remove:true", "they no longer are"),
    ),
    "help": (
        ("/help", "every command, one line each"),
        ("/help command:coda test", "one command's options and examples"),
    ),
}

#: A sample value per option name, for the examples built from a command's options.
SAMPLES: dict[str, str] = {
    "character": "Hermione",
    "name": "Hermione",
    "attribute": "Wits",
    "skill": "Potions",
    "label": "the gate",
    "reason": "a long march",
    "task": "Brew",
    "expression": "2d6+3",
}
