"""Two worked examples for each command ``/help command:<name>`` shows: what to type, and
what happens. Commands without an entry get two examples built from their options."""

from __future__ import annotations

from bot.i18n import N_

#: command → ((typed, what happens), (typed, what happens)); what happens is shown translated.
EXAMPLES: dict[str, tuple[tuple[str, str], tuple[str, str]]] = {
    "roll": (
        ("/roll expression:2d6+3", N_("two six-sided dice plus 3")),
        ("/roll expression:4d6kh3 label:Strength", N_("four dice, the highest three kept")),
    ),
    "sheet create": (
        ("/sheet create name:Hermione system:coda", N_("a CODA sheet, active in this channel")),
        ("/sheet create name:William system:drama", N_("a Drama in History sheet")),
    ),
    "sheet set": (
        ("/sheet set attribute:Wits value:3", N_("Wits is 3 on your active character")),
        ("/sheet set attribute:Wits remove:true", N_("Wits is removed")),
    ),
    "sheet skill": (
        (
            "/sheet skill name:Potions ranks:3 attribute:Wits specialty:Brewing",
            N_("a skill with its parent attribute and a specialty"),
        ),
        ("/sheet skill name:Potions ranks:4", N_("more ranks; the rest is kept")),
    ),
    "sheet resource": (
        ("/sheet resource name:Health current:20 max:20", N_("a resource with a maximum")),
        (
            '/sheet resource name:Health change:-4 character:"Hermione @alice"',
            N_("a GM takes 4 Health from alice's Hermione"),
        ),
    ),
    "sheet show": (
        ("/sheet show", N_("your active character's sheet")),
        ("/sheet show player:@alice", N_("a GM looks at alice's active character")),
    ),
    "coda test": (
        ("/coda test modifier:3 tn:15", N_("2d6 + 3 against TN 15, with the exact chance")),
        ("/coda test modifier:2 difficulty:Challenging secret:true", N_("a secret test at TN 15")),
    ),
    "coda skill": (
        ("/coda skill skill:Potions difficulty:Challenging", N_("2d6 + Wits + Potions ranks")),
        (
            "/coda skill skill:Potions tn:12 specialty:Brewing",
            N_("with the Brewing specialty (+2)"),
        ),
    ),
    "coda damage": (
        ("/coda damage dice:2 modifier:1", N_("2d6 + 1 damage; all 6s roll on")),
        ("/coda damage dice:3 label:Stunner", N_("3d6 damage, labelled")),
    ),
    "coda extended roll": (
        ("/coda extended roll skill:Potions", N_("the next test of the channel's extended test")),
        ("/coda extended roll modifier:0", N_("a bare 2d6 for a stage that names no skill")),
    ),
    "drama test": (
        ("/drama test attribute:Physical", N_("the attribute's Base dice, penalty dice as Rd")),
        ("/drama test base:4 drama:2 difficulty:Difficult", N_("a pool built by hand")),
    ),
    "penalty add": (
        ('/penalty add character:William amount:2 reason:"a long march"', N_("2 penalty dice")),
        (
            '/penalty add character:"Hermione @bob" amount:1',
            N_("a GM names whose Hermione when two share the name"),
        ),
    ),
    "penalty show": (
        ("/penalty show", N_("your character's pool, level and recent changes")),
        ("/penalty show character:William", N_("a GM looks at William's pool")),
    ),
    "init start": (
        ("/init start", N_("an encounter in this channel's system, with its tracker")),
        (
            "/init start system:h90 initiator:Harry attribute:Humor",
            N_("Hogwarts 1990: Harry initiated (no action in round 1); everyone adds Humor"),
        ),
    ),
    "init join": (
        ("/init join", N_("your active character rolls initiative")),
        ('/init join name:"Hermione G."', N_("join under another name when yours is taken")),
    ),
    "init add": (
        ("/init add name:Troll modifier:2 hidden:true", N_("an NPC only the GM sees")),
        ("/init add name:Goblin count:3", N_("Goblin 1, Goblin 2 and Goblin 3")),
    ),
    "infinity roll": (
        ("/infinity roll attribute:BS mods:-3 burst:3", N_("three d20 against BS − 3")),
        ("/infinity roll attribute:12 label:shot", N_("one d20 against 12")),
    ),
    "rps check": (
        ("/rps check base:60", N_("2d10 against Base 60")),
        ("/rps check skill:Athletics", N_("from your sheet's skill")),
    ),
    "settings secret": (
        ("/settings secret mode:gm", N_("secret rolls go to the roller and the GM")),
        ("/settings secret mode:open", N_("every roll is public, secret or not")),
    ),
    "settings gm-role": (
        (
            "/settings gm-role role:@Storyteller",
            N_("holders of Storyteller are GMs in this server"),
        ),
        ("/settings gm-role role:@Storyteller remove:true", N_("they no longer are")),
    ),
    "coda attribute": (
        ("/coda attribute name:Wits tn:15", N_("2d6 + the sheet's Wits against TN 15")),
        ("/coda attribute name:Wits difficulty:Challenging secret:true", N_("a secret test")),
    ),
    "coda reaction": (
        ("/coda reaction name:Willpower tn:12", N_("2d6 + the sheet's Willpower reaction")),
        ("/coda reaction name:Willpower tn:12 character:Ron", N_("a GM rolls for Ron")),
    ),
    "coda opposed": (
        ("/coda opposed a:+3 b:+1", N_("two sides by modifier; the higher result wins")),
        (
            "/coda opposed a:Hermione b:Ron a_skill:Stealth b_skill:Perception",
            N_("from sheets; Ron's player rolls his side (a GM: both)"),
        ),
    ),
    "coda combined": (
        ("/coda combined leader:+3 helpers:+2,+1 tn:15", N_("helpers at TN 10, then the leader")),
        (
            "/coda combined leader:Hermione helpers:Ron skill:Potions difficulty:Challenging",
            N_("from sheets; Ron's player rolls his help (Roll my part)"),
        ),
    ),
    "coda extended start": (
        ("/coda extended start name:Brew stages:15,15,20", N_("three stages, no roll yet")),
        ("/coda extended start name:Ward stages:15:Charms,20 interval:1 unit:hours", N_("timed")),
    ),
    "coda extended status": (
        ("/coda extended status", N_("every extended test here")),
        ("/coda extended status task:Brew", N_("one of them")),
    ),
    "coda extended abandon": (
        ("/coda extended abandon", N_("gives up the only one")),
        ("/coda extended abandon task:Brew", N_("gives up Brew")),
    ),
    "h90 roll": (
        ("/h90 roll attribute:Finesse", N_("two d20, the higher, + Finesse")),
        ("/h90 roll attribute:Finesse bonus:2 stress:true", N_("a stress roll (the lower die)")),
    ),
    "h90 opposed": (
        ("/h90 opposed attribute:Finesse vs_name:Filch vs_bonus:3", N_("against an NPC")),
        ("/h90 opposed attribute:Humor vs_character:Ron vs_attribute:Humor", N_("against a sheet")),
    ),
    "h90 attack": (
        ("/h90 attack target:Draco difficulty:12 attribute:Strength", N_("Draco may dodge")),
        (
            "/h90 attack target:Ron difficulty:8 bonus:2 attacker:Goyle damage:2",
            N_("an NPC attacks; a delayer may dodge for Ron"),
        ),
    ),
    "infinity ftf": (
        (
            "/infinity ftf active_attribute:13 reactive_attribute:11",
            N_("face to face, one die each"),
        ),
        (
            "/infinity ftf active_attribute:BS reactive_attribute:PH active_burst:3",
            N_("from sheets, the active side with burst 3"),
        ),
    ),
    "infinity save": (
        ("/infinity save damage:13 armor:1", N_("one saving roll against damage 13")),
        ("/infinity save damage:13 armor:1 hits:2 cover:true", N_("two hits, in partial cover")),
    ),
    "rps resisted": (
        ('/rps resisted parties:"Johnny:12, Franky:9"', N_("two NPCs resist each other")),
        (
            '/rps resisted parties:"@alice, Guard:40" skill:Stealth',
            N_("alice rolls her part from her sheet (Roll my part)"),
        ),
    ),
    "rps sustained start": (
        ("/rps sustained start goal:10", N_("a sustained action needing a pool of 10")),
        ("/rps sustained start goal:6 no_loss:true label:Research", N_("failures cost nothing")),
    ),
    "rps sustained roll": (
        ("/rps sustained roll base:50", N_("one check added to the pool")),
        ("/rps sustained roll skill:Research", N_("from your sheet")),
    ),
    "drama opposed": (
        ("/drama opposed their_base:4 attribute:Physical", N_("your attribute against 4 Bd")),
        (
            "/drama opposed their_name:@bob their_skill:Riding skill:Riding",
            N_("bob rolls his side from his sheet (Roll my side)"),
        ),
    ),
    "penalty recover": (
        ("/penalty recover character:William amount:2", N_("a GM removes 2 dice")),
        ('/penalty recover character:"Hermione @bob" amount:1', N_("from bob's Hermione")),
    ),
    "penalty rest": (
        ("/penalty rest character:William hours:8", N_("8 hours of sleep: 2 dice recovered")),
        ("/penalty rest character:William hours:2", N_("under 3 hours: nothing")),
    ),
    "init remove": (
        ("/init remove name:Troll", N_("the Troll leaves the encounter")),
        ('/init remove name:"Goblin 2"', N_("one of the numbered goblins")),
    ),
    "init act": (
        ("/init act name:Hermione", N_("a delayed combatant acts now")),
        ("/init act name:Troll", N_("the GM's delayed NPC acts")),
    ),
    "init defend": (
        ("/init defend name:Hermione", N_("a defensive roll uses up her turn this round")),
        ("/init defend name:Troll", N_("the same for an NPC")),
    ),
    "init reveal": (
        ("/init reveal name:Troll", N_("a hidden NPC is shown to the players")),
        ('/init reveal name:"Goblin 1"', N_("one of several")),
    ),
    "history": (
        ("/history", N_("the last 10 rolls here")),
        ("/history count:50", N_("the last 50, in pages")),
    ),
    "settings system": (
        ("/settings system name:coda", N_("the channel plays CODA")),
        ("/settings system name:drama", N_("the channel plays Drama in History")),
    ),
    "settings rule": (
        ("/settings rule name:coda.ones value:fumble", N_("all 1s are a fumble")),
        ("/settings rule name:drama.criticals value:on", N_("Drama criticals count")),
    ),
    "settings gm-channel": (
        ("/settings gm-channel channel:#gm-notes", N_("secret rolls are copied there")),
        ("/settings gm-channel", N_("cleared: GMs get a direct message")),
    ),
    "sheet note": (
        ('/sheet note text:"Owes Ron a favour"', N_("the sheet's notes")),
        ("/sheet note", N_("clears them")),
    ),
    "sheet use": (
        ("/sheet use character:Hermione", N_("Hermione is your character in this channel")),
        ("/sheet use character:William", N_("switch to another of yours")),
    ),
    "sheet list": (
        ("/sheet list", N_("your characters, the active one marked")),
        ("/sheet list player:@alice", N_("a GM lists alice's")),
    ),
    "sheet delete": (
        ("/sheet delete character:Hermione", N_("asks first, then deletes")),
        ("/sheet delete character:William", N_("another of yours")),
    ),
    "sheet export": (
        ("/sheet export", N_("your active character as a JSON file")),
        ("/sheet export character:Hermione", N_("a named one")),
    ),
    "sheet import": (
        ("/sheet import file:./Hermione.json", N_("a new character from the file")),
        ("/sheet import file:./Hermione.json replace:true", N_("overwrites yours of that name")),
    ),
    "help": (
        ("/help", N_("every command, one line each")),
        ("/help command:coda test", N_("one command's options and examples")),
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
