"""Two worked examples for each command ``/help command:<name>`` shows, written by hand:
what to type, and what happens. Every command has its two (a test types each into the
console and checks that it runs); a few commands also carry a note."""

from __future__ import annotations

from bot.i18n import N_

#: command → its examples, (typed, what happens): two, or one for a command without options;
#: what happens is shown translated.
EXAMPLES: dict[str, tuple[tuple[str, str], ...]] = {
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
        ("/sheet resource name:Health current:18 max:20", N_("a resource with a maximum")),
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
        (
            "/h90 opposed attribute:Humor vs_character:Ron vs_attribute:Finesse",
            N_("against a sheet"),
        ),
    ),
    "h90 attack": (
        ("/h90 attack target:Draco difficulty:12 attribute:Strength", N_("Draco may dodge")),
        (
            "/h90 attack target:Ron difficulty:8 bonus:2 attacker:Goyle damage:3",
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
            "/drama opposed their_name:@bob their_skill:Riding skill:Athletics",
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
    "coda attack": (
        ("/coda attack skill:Charms target:Draco dice:2", N_("Draco's player may dodge or parry")),
        (
            "/coda attack skill:Archery target:Troll defence:12 npc_defend:1 ranged:true",
            N_("a shot at an NPC with Defence 12"),
        ),
    ),
    "coda table": (
        ("/coda table name:9-8 strength:3", N_("the loads for Strength 3")),
        ("/coda table name:9-7 titanic:2", N_("walking distances at Titanic +2")),
    ),
    "h90 defended": (
        ("/h90 defended defense:Toughness+Dexterity defender:Ron", N_("against Ron's T + D")),
        ("/h90 defended defense:8+3 defender_name:Troll bonus:2", N_("against numbers")),
    ),
    "rps sustained status": (("/rps sustained status", N_("the pool so far and what it needs")),),
    "rps sustained abandon": (
        ("/rps sustained abandon", N_("gives up the channel's sustained action")),
    ),
    "quidditch new": (
        ("/quidditch new home:Gryffindor away:Slytherin", N_("a match; rosters next")),
        (
            "/quidditch new home:Lions away:Snakes home_house:Gryffindor away_house:Slytherin",
            N_("teams that earn house points"),
        ),
    ),
    "quidditch player": (
        (
            "/quidditch player team:home position:seeker name:Harry strength:2 dexterity:6 "
            "toughness:3 health:12",
            N_("a player typed in"),
        ),
        ("/quidditch player team:away position:keeper character:Draco", N_("from a sheet")),
    ),
    "quidditch team": (
        ("/quidditch team team:home", N_("a form for the whole home team")),
        ("/quidditch team team:Slytherin", N_("by the team's name")),
    ),
    "quidditch remove": (
        ("/quidditch remove team:home name:Harry", N_("off the roster before the match")),
        ("/quidditch remove team:away name:Pucey", N_("the other side")),
    ),
    "quidditch roster": (("/quidditch roster", N_("both rosters and what each still needs")),),
    "quidditch turn": (
        ("/quidditch turn", N_("one whole turn; fouls are listed for the GM")),
        ("/quidditch turn until:snitch penalties:all", N_("up to the snitch, fouls shot")),
    ),
    "quidditch undo": (("/quidditch undo", N_("the last turn is taken back")),),
    "quidditch penalty": (
        ("/quidditch penalty team:home chaser:Angelina", N_("Angelina shoots a penalty")),
        ("/quidditch penalty team:Slytherin chaser:Flint", N_("by the team's name")),
    ),
    "quidditch snitch": (
        ("/quidditch snitch team:home", N_("the home seeker goes for the snitch")),
        ("/quidditch snitch team:away interfere:true", N_("the other seeker may interfere")),
    ),
    "quidditch status": (("/quidditch status", N_("score, turn and who is out")),),
    "quidditch end": (("/quidditch end", N_("asks, then the final score")),),
    "quidditch houses": (("/quidditch houses", N_("house points from this server's matches")),),
    "quidditch odds": (("/quidditch odds", N_("each team's chances this turn")),),
    "init health": (
        ("/init health name:Troll value:15", N_("the Troll's Health, kept on the tracker")),
        ('/init health name:"Goblin 2" value:0', N_("a goblin down")),
    ),
    "init next": (("/init next", N_("the next turn (the tracker's Next button)")),),
    "init prev": (("/init prev", N_("back one turn, to look again")),),
    "init delay": (("/init delay", N_("your combatant keeps its place and acts later")),),
    "init action": (
        ("/init action kind:Run", N_("spends movement on your turn")),
        (
            "/init action kind:custom cost:2 name:Troll",
            N_("the GM spends two of the Troll's actions"),
        ),
    ),
    "init condition add": (
        (
            '/init condition add target:"Goblin 1" name:Stunned rounds:1',
            N_("wears off after one of its turns"),
        ),
        ('/init condition add target:Troll name:Burning note:"1d6 a turn" tick:end', N_("noted")),
    ),
    "init condition remove": (
        ('/init condition remove target:"Goblin 1" name:Stunned', N_("taken off early")),
        ("/init condition remove target:Troll name:Burning", N_("put out")),
    ),
    "init condition list": (("/init condition list", N_("every combatant's conditions")),),
    "init undo": (("/init undo", N_("the last change is undone")),),
    "init show": (("/init show", N_("the order, to you alone")),),
    "init end": (("/init end", N_("asks, then a summary")),),
    "dice verify": (
        (
            '/dice verify record:\'{"channel":"1210214746674519454","faces":[4,1],'
            '"guild":"1000000000000001","input":"2d6","label":null,"outcome":"5",'
            '"roller":"1214490984882330289","system":"dice",'
            '"time":"2026-11-23T14:58:40.909293+00:00","v":1}\' '
            "salt:e315cd47575e2a0170b643b641c4db78 commitment:8b95c6df318757fa",
            N_("the record and salt of the reveal, the commitment of the notice"),
        ),
        (
            '/dice verify record:\'{"channel":"1210214746674519454","faces":[6,6],'
            '"guild":"1000000000000001","input":"2d6","label":null,"outcome":"12",'
            '"roller":"1214490984882330289","system":"dice",'
            '"time":"2026-11-23T14:58:40.909293+00:00","v":1}\' '
            "salt:e315cd47575e2a0170b643b641c4db78 commitment:8b95c6df318757fa",
            N_("a record changed after the roll (double six): it does not match"),
        ),
    ),
    "dice stats": (
        ("/dice stats", N_("every face rolled here against fair dice")),
        ("/dice stats player:@alice system:coda since:7d", N_("alice's CODA dice this week")),
    ),
    "dice test": (
        ("/dice test sides:6 count:6000", N_("6000 d6 from the bot's source, charted")),
        ("/dice test sides:20 count:1000", N_("1000 d20")),
    ),
    "odds coda": (
        ("/odds coda modifier:3 tn:15", N_("the chance of each degree")),
        ("/odds coda modifier:5 tn:18 penalty:2", N_("with a penalty")),
    ),
    "odds h90": (
        ("/odds h90 bonus:3 difficulty:15", N_("plain, stress and advantage")),
        ("/odds h90 bonus:6 difficulty:20", N_("a harder roll")),
    ),
    "odds infinity": (
        ("/odds infinity a_attribute:13 b_attribute:11", N_("face to face, Burst 1 to 3")),
        (
            "/odds infinity a_attribute:12 b_attribute:10 a_mods:3 a_burst:4",
            N_("A with +3 and up to Burst 4"),
        ),
    ),
    "odds rps": (
        ("/odds rps base:12", N_("each success level at Base 12")),
        ("/odds rps base:60", N_("at Base 60")),
    ),
    "odds drama": (
        ("/odds drama base:4 resistance:2", N_("each net, criticals off and on")),
        ("/odds drama base:5 resistance:3 drama_dice:1", N_("with a drama die")),
    ),
    "settings show": (("/settings show", N_("every setting of this channel")),),
    "settings language": (
        ("/settings language language:es", N_("the channel's replies in Spanish")),
        ("/settings language language:default", N_("each user's Discord language")),
    ),
    "settings my-language": (
        ("/settings my-language language:es", N_("your own replies in Spanish")),
        ("/settings my-language language:default", N_("your Discord language again")),
    ),
    "sheet edit": (
        ("/sheet edit", N_("a form with your active character's attributes")),
        ("/sheet edit part:skills character:Hermione", N_("Hermione's skills")),
    ),
    "sheet rename": (
        ('/sheet rename character:Hermione new_name:"Hermione G."', N_("a new name")),
        ("/sheet rename character:William new_name:Will", N_("another")),
    ),
    "sheet copy": (
        ("/sheet copy new_name:Hermione2", N_("a copy of your active character")),
        ("/sheet copy new_name:Pip character:William", N_("a copy of William")),
    ),
    "sheet panel": (("/sheet panel", N_("buttons for your active character")),),
    "macro save": (
        ('/macro save name:brew command:"/coda skill skill:Potions tn:{tn}"', N_("asks TN")),
        ('/macro save name:heal command:"/roll expression:2d6" scope:channel', N_("for all")),
    ),
    "macro run": (
        ("/macro run name:brew values:tn:15", N_("runs it with TN 15")),
        ("/macro run name:heal", N_("no values needed")),
    ),
    "macro list": (("/macro list", N_("the macros you can run here")),),
    "macro show": (
        ("/macro show name:brew", N_("its command line")),
        ("/macro show name:heal", N_("another")),
    ),
    "macro edit": (
        ("/macro edit name:brew", N_("a form with its command line")),
        ("/macro edit name:heal scope:channel", N_("the channel's")),
    ),
    "macro delete": (
        ("/macro delete name:brew", N_("yours is deleted")),
        ("/macro delete name:heal scope:channel", N_("the channel's (GM)")),
    ),
    "help": (
        ("/help", N_("every command, one line each")),
        ('/help command:"coda test"', N_("one command's options and examples")),
    ),
}

#: A note ``/help command:<name>`` adds, where the rules leave something to the table.
NOTES: dict[str, str] = {
    "coda damage": N_(
        "The seed (000) gives no damage numbers by degree of success: the GM decides how "
        "many dice a degree adds, and types them in `dice` and `modifier`."
    ),
}
