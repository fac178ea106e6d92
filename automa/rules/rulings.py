"""The registry of rulings: every place where we decide what the Red Box text leaves open.

Each ruling has a number, the sentence (or the silence) it rests on, our reading, and the other
reading a table might prefer. A ruling with `options` is a switch: the first option is ours, and
a scenario's `[rulings]` table picks another (`ice-push = "no-push"`). The engine applies a
ruling only through `StepLog.ruling` (which marks it in the printout and the JSON, once an
activation) and reads a switch only through `option`, both by a `RulingKey` member (so a
misspelt key is a type error); the other outputs name it with `cite`. `MARKED` says where each
ruling is marked; tests/test_rulings_marked.py plays, for every ruling, a table where it
decides something and finds its mark there. docs/rulings.md is generated from this registry
(`python -m automa.rules.rulings_doc`) and a test keeps the two equal.
"""

from __future__ import annotations

from collections.abc import Mapping

from msgspec import Struct

from automa.model.vocabulary import Word


class RulingKey(Word):
    """The key of each ruling of the registry, in its order: the word a scenario's `[rulings]`
    table, the printout and the JSON use. The engine names a ruling only by its member, so a
    misspelt key is a type error, not a ruling silently never applied."""

    ORDER_TILES = "order-tiles"
    DIRECTION_FRAME = "direction-frame"
    HERO_TARGET_REROLL = "hero-target-reroll"
    TOKEN_MIX = "token-mix"
    SIZES = "sizes"
    LOS_TEST = "los-test"
    CLOSEST_EDGE = "closest-edge"
    RUSH_STOP = "rush-stop"
    CLOCK_EDGE = "clock-edge"
    HALF_CLOCK = "half-clock"
    SUMMON_PLACEMENT = "summon-placement"
    RANDOM_RUNE = "random-rune"
    HOUSE_ROWS = "house-rows"
    MOST_POISON = "most-poison"
    PREFERRED_SEQUENCE = "preferred-sequence"
    TOKEN_LEVELS = "token-levels"
    BOULDER_ZERO = "boulder-zero"
    RESET_SCOPE = "reset-scope"
    KEEP_TARGET = "keep-target"
    ICE_PUSH = "ice-push"
    REGENERATION = "regeneration"
    TRANSFORM = "transform"
    NO_AI_RULE = "no-ai-rule"
    REPEAT = "repeat"
    FRIENDLY_TARGET = "friendly-target"
    TWO_ROLLED_RUNES = "two-rolled-runes"
    PARTS = "parts"
    ANTIENT_CONTROL = "antient-control"
    EFFECTS_DATA = "effects-data"
    DEVOUR_POISON = "devour-poison"
    BOOMERANG = "boomerang"
    PORTAL_TRAP = "portal-trap"
    ABSENT_HERO_TILE = "absent-hero-tile"
    CARD_RULES = "card-rules"
    STUN_AND_ALOFT = "stun-and-aloft"
    TELEPORT_LANDING = "teleport-landing"
    LORD_SEQUENCE = "lord-sequence"
    REPEAT_SEQUENCES = "repeat-sequences"
    FROZEN_HERO = "frozen-hero"
    NON_HERO_WEALTH = "non-hero-wealth"
    RUNE_WHEN_ON_RUNE = "rune-when-on-rune"
    PART_PUSH = "part-push"
    PART_REJOIN = "part-rejoin"
    RESET_TIMING = "reset-timing"
    KRAKEN_BAG = "kraken-bag"
    KRAKEN_TIE = "kraken-tie"
    KRAKEN_DRAW = "kraken-draw"
    CAVE_ONCE = "cave-once"
    CAVE_PIECES = "cave-pieces"
    MONSTER_VULNERABILITIES = "monster-vulnerabilities"
    PORTAL_RUSH = "portal-rush"
    PORTAL_TWELVE = "portal-twelve"
    DAGGER_HERO = "dagger-hero"
    HERO_POISON = "hero-poison"
    CAMPAIGN_OPEN_ROOMS = "campaign-open-rooms"
    CAMPAIGN_LORD = "campaign-lord"
    CAMPAIGN_HERO_DEATH = "campaign-hero-death"
    CAVE_IN_BATTLE = "cave-in-battle"
    ANTIENT_SUMMON_ONCE = "antient-summon-once"
    ALTHEA_CURE = "althea-cure"
    VISIT_POOL = "visit-pool"
    TAVERN_BET = "tavern-bet"
    SUMMONED_TURN = "summoned-turn"
    TELEPORTED_BY_HEROES = "teleported-by-heroes"
    FROZEN_TURN = "frozen-turn"
    ANTIENT_TURNS = "antient-turns"
    YILLEPH_FLIP = "yilleph-flip"
    CLAW_HIT = "claw-hit"
    INN_SLEEP = "inn-sleep"
    LAIR_LAST = "lair-last"
    TRILITHON_ARCH = "trilithon-arch"
    RIDERS = "riders"
    PARTS_ON_CARDS = "parts-on-cards"


class MarkedIn(Word):
    """Where the program marks a ruling when it decides something: the output that names it
    (`* ruling N` or `ruling N` in the text, its number in the JSON's `rulings`)."""

    TURN = "turn"  # an AI activation: `automa turn`, `next`, `play`, the board
    SETUP = "setup"  # `automa setup`, and a campaign room's setup
    SESSION = "session"  # a session's `hit`, `cave`, `summon`, `move`, `condition`, `back`
    KRAKEN = "kraken"  # `automa hidden-cave fight`
    CAMPAIGN = "campaign"  # `automa campaign` status, menus and steps
    DATA = "data"  # `automa data check`, while the data holds that placeholder of ours


MARKED_WORDS = {
    MarkedIn.TURN: "an AI activation's printout (`* ruling N`) and JSON (`rulings`)",
    MarkedIn.SETUP: "`automa setup` (and a campaign room's setup): a `*` note and the JSON's "
                    "`rulings`",
    MarkedIn.SESSION: "a session's `hit`, `cave`, `summon`, `move`, `condition` or `back` "
                      "(`automa play`, the board)",
    MarkedIn.KRAKEN: "`automa hidden-cave fight` and its JSON's `rulings`",
    MarkedIn.CAMPAIGN: "`automa campaign` status, menus and steps, and their JSON's `rulings`",
    MarkedIn.DATA: "`automa data check` while your data holds our placeholder, and its JSON's "
                   "`rulings`",
}


class Option(Struct, frozen=True):
    """One reading a switchable ruling offers, and what it means."""

    value: str
    meaning: str


class Ruling(Struct, frozen=True):
    """One of our readings of the rules, numbered, with what it rests on."""

    number: int
    key: RulingKey
    section: str
    title: str
    text: str  # our reading, in our words
    rests_on: str  # the sentence it interprets, quoted, or what the text does not give
    alternative: str = ""  # the other reading, when it is not a switch
    options: tuple[Option, ...] = ()  # a switch; the first option is the default
    setting: str = ""  # where the switch is set, when not `[rulings] KEY`

    @property
    def default(self) -> str | None:
        return self.options[0].value if self.options else None

    @property
    def where(self) -> str:
        return self.setting or f"[rulings] {self.key}"

    @property
    def marked(self) -> tuple[MarkedIn, ...]:
        """Where the program marks this ruling when it decides something (`MARKED`)."""
        return MARKED[self.key]


COMPONENTS = "Components we cannot see (data/components.toml, all `house`)"
SIGHT = "Line of sight"
MOVEMENT = "Movement"
TARGETING = "Targeting and shot choice"
SHOTS = "Shots, tokens and effects"
CAVE = "The Hidden Cave"
HERO_HITS = "The heroes' hits on the AI's pieces"
CAMPAIGNS = "Campaigns"
ROUND = "Who acts in a round"

RULINGS: tuple[Ruling, ...] = (
    Ruling(1, RulingKey.ORDER_TILES, COMPONENTS, "Order tiles",
           "Six Character tiles (level 1 to 4, Catacomb Lord, Antient; a Battle Room drops the "
           "Lord tile), seven Monster tiles, one per family (Dungeon green, Infernal orange, "
           "Mythological blue, Undead gray, Vermin brown, Wraith Knight black, Zombie purple), "
           "and four Direction tiles: green \"left to right\" / \"right to left\", blue "
           "\"Monster Start Zone to Hero Start Zone\" / the reverse. The green tile is the first, "
           "the blue the second.",
           "Components: \"Character Order Tiles x6, Monster Order Tiles x7, Direction Tiles x4\"; "
           "the tiles' faces are not in the text.",
           "Enter your tiles' faces in your data folder (data/components.toml)."),
    Ruling(2, RulingKey.DIRECTION_FRAME, COMPONENTS,
           "Directions are read from the Monster Start Zone",
           "Its left is the mat's high x, so \"left to right\" ranks pieces from high x to low x; "
           "\"Monster Start Zone to Hero Start Zone\" ranks from high y to low y. A tile keeps "
           "only the pieces that tie on it; the next tile breaks ties among those alone.",
           "\"Important: The direction indicated by the Direction tile is always relative to "
           "the Monster Start Zone.\"",
           "None: the frame follows from the sentence once the mat's frame is fixed."),
    Ruling(3, RulingKey.HERO_TARGET_REROLL, COMPONENTS, "Hero Target tiles",
           "The four tiles answer to D12 bands 1-3, 4-6, 7-9 and 10-12. A roll on a tile no hero "
           "in play holds is rolled again.",
           "\"Determine the target of the target ranged shot by rolling the D12 and checking "
           "which assigned Hero Target tile was selected.\" The bands and a roll on an "
           "unassigned tile are not in the text.",
           "A roll on an unassigned tile loses the shot."),
    Ruling(4, RulingKey.TOKEN_MIX, COMPONENTS, "Damage tokens",
           "13 / 12 / 13 tokens as the rulebook counts them; the values and reset icons are a "
           "plausible mix with higher levels hitting harder. Enter your real mix in your data "
           "folder; `automa data check` verifies the counts.",
           "Components: \"Level 1 Damage Tokens x13, Level 2 x12, Level 3 x13\"; their values "
           "are not in the text.",
           "Your own tokens' values."),
    Ruling(5, RulingKey.SIZES, COMPONENTS, "Sizes",
           "Rulers 5 / 10 / 15 cm, the Attack template a 4 cm disc around the attacker, the "
           "Clock template 6 cm, disc radii by size class, playmat layouts: unmeasured "
           "placeholders.",
           "The text gives no sizes.",
           "Your measured sizes (`[templates]` in a scenario, or your data folder)."),
    Ruling(6, RulingKey.LOS_TEST, SIGHT, "Blocked sight: the centre line",
           "With sight blocked by obstacles, the straight line between the two discs' centres "
           "must not cross an obstacle's interior (grazing an edge does not block). The ruler "
           "is the straightedge to sight along: the text sets its length aside (\"extends "
           "beyond the length of the ruler\"), and a ruler-wide band would hide a piece that "
           "the centre line plainly sees. Other pieces never block; range runs to the mat "
           "edge. Marked when the answer could differ under another test: a piece was hidden, "
           "or a visible one was seen within half a ruler's width of an obstacle.",
           "\"perform a 360 degree line of sight (LOS) check with the Active Character by using "
           "their indicated Ruler template. Line of sight (LOS) extends beyond the length of "
           "the ruler itself to the edge of the playmat.\"",
           options=(Option("centre-line", "the line between the centres must be clear"),
                    Option("corridor", "a ruler-wide (3 cm) band along that line must be clear"),
                    Option("any-line", "any straight line from one disc to the other will do")),
           setting="[battle] los_test"),
    Ruling(7, RulingKey.CLOSEST_EDGE, SIGHT, "Distances are edge to edge",
           "\"Closest\" is measured edge to edge. Two candidates within the close-call tolerance "
           "(`battle.close_call`, default 0.5 cm) of each other are flagged for the table to "
           "measure.",
           "\"closest enemy in LOS\" does not say how to measure.",
           "Centre to centre (differs only between discs of different sizes)."),
    Ruling(8, RulingKey.RUSH_STOP, MOVEMENT, "Rush",
           "The centre moves along the centre-to-centre line by the ruler's length, through "
           "obstacles; if that would carry it past the target it stops touching the target. A "
           "piece never ends on an obstacle, another piece or off the mat: it goes to the "
           "nearest legal spot, keeping touching its target when a spot around it is free, and "
           "within the ruler's reach.",
           "\"If the length of the ruler would carry them beyond the Active Target, stop, and "
           "place the character's piece adjacent to the Active Target.\" Where a piece goes when "
           "the ruler ends on an obstacle is not said.",
           "Stop short, touching the obstacle."),
    Ruling(9, RulingKey.CLOCK_EDGE, MOVEMENT, "Clock template at the edge",
           "Face 12 toward the Hero Start Zone, faces clockwise seen from above. \"At the edge\" "
           "and \"near the edge\" mean the real template, centred on the piece, would hang over "
           "the mat edge (computed from the template's measured radius); then the reverse side "
           "is used with 12 toward the mat centre. The piece moves its ruler's length (heroes "
           "always Ruler 3) and stops touching the first obstacle or piece in its way, or at "
           "the mat edge.",
           "\"When a character is at the edge of the playmat, flip the Clock template to the "
           "reverse side\"; for a summon: \"near the edge of the game board or playmat\".",
           options=(Option("overhang", "flip when the template would overhang the mat"),
                    Option("touching", "flip only when the piece itself touches the mat edge"))),
    Ruling(10, RulingKey.HALF_CLOCK, MOVEMENT, "Half Clock template",
           "Brown's retreat: the twelve faces spread evenly over the half circle that faces the "
           "Monster Start Zone, 15 degrees apart.",
           "\"retreats to Monster Start Zone in random direction, half Clock template, Ruler 2\"; "
           "the half template's faces are not shown.",
           "Your template's faces (data/components.toml, `half`)."),
    Ruling(11, RulingKey.SUMMON_PLACEMENT, MOVEMENT, "Summon placement",
           "The new piece's centre goes at the end of Ruler 1 laid from the summoner's edge in "
           "the rolled direction (nearest legal spot if taken); it acts at once, before the "
           "summoner's remaining shots, which it then finishes against the same Active Target.",
           "\"Roll the D12 and use Ruler 1 to place the newly summoned character ... Once placed, "
           "the newly summoned character immediately performs its shot sequence as normal.\"",
           "The summoner finishes its sequence first."),
    Ruling(12, RulingKey.RANDOM_RUNE, MOVEMENT, "Move to random rune",
           "The Rune Die picks a rune; an occupied rune, a rune the mat does not print, or the "
           "rune the piece is already on means nothing happens. A piece coming back from the "
           "Teleported! card rolls again until a free rune comes up.",
           "\"When the character is already on top of the rolled rune or if the rolled rune is "
           "already occupied, then nothing happens.\" The return from the Teleported! card says "
           "only \"placed on a random rune\".",
           "A piece coming back takes the first rolled rune even if taken (nearest legal spot)."),
    Ruling(13, RulingKey.HOUSE_ROWS, TARGETING, "Missing rows of the behaviour table",
           "The Orange, Green, Gray, Purple, Catacomb Lord and Antient rows and Black's No "
           "Target Action are ours (data/behaviour.toml, provenance `house`): Orange prefers "
           "ranged sequences (the Flame Wraith example), least health, closest, most gold, and "
           "moves toward the closest enemy whatever it sees (the errata's note on the Orange "
           "row); Green prefers critical shots, most health, most gold, closest, toward the "
           "closest enemy; Gray has no preference, most health, closest, least gold, shambles "
           "toward the Hero Start Zone; Purple closest, least health, most gold, toward the Hero "
           "Start Zone; Catacomb Lord least health, closest, most gold, toward the closest "
           "enemy; Antient closest, least health, most gold, stays; Black's missing No Target "
           "Action moves to a random rune.",
           "The printed table keeps only the Brown, Blue and Black rows, Black without a No "
           "Target Action.",
           "Your own rows in your data folder's behaviour.toml."),
    Ruling(14, RulingKey.MOST_POISON, TARGETING, "\"Hero with most poison\"",
           "Counts Poison cards; familiars, allies and mounts cannot be poisoned and count zero.",
           "\"hero with most poison\"",
           "None known."),
    Ruling(15, RulingKey.PREFERRED_SEQUENCE, TARGETING, "Several sequences hold the preferred shot",
           "The first of them (in the card's order) is performed. With none, the D12 is split "
           "evenly: face f picks sequence floor((f-1)n/12)+1 (halves 1-6 / 7-12, thirds 1-4 / "
           "5-8 / 9-12, as printed; other counts as evenly as 12 allows). Marked when more than "
           "one sequence holds the preferred shot.",
           "\"they will attempt to perform the shot sequence with their preferred shot\" (one "
           "sequence is assumed).",
           options=(Option("first", "the first sequence with the preferred shot"),
                    Option("d12", "the D12 split over the sequences with the preferred shot"))),
    Ruling(16, RulingKey.TOKEN_LEVELS, SHOTS, "Token levels",
           "Unmodified shots draw level 1; roll, bite, sword (as bite), devour and giant "
           "fireball level 2; boulder two level 3; any modified shot level 2, critical level 3. "
           "The AI ignores the chain modifier, so a chain shot draws as unmodified.",
           "The list under \"After determining that an AI player's shot has inflicted damage\"; "
           "the sword is \"functionally equivalent to the bite shot\".",
           "A chain shot draws level 2 as a modified shot."),
    Ruling(17, RulingKey.BOULDER_ZERO, SHOTS, "A zero token is a miss",
           "A token of value 0 is a miss: no damage, no modifier effect, no push. A shot that "
           "draws two tokens (the boulder) misses entirely if either is a zero. When every token "
           "of a shot is non-zero, the damage is their sum and the target is pushed.",
           "\"some of the tokens contain zero values indicating the shot didn't work\"; the push "
           "comes \"when no zero value Damage tokens were drawn\".",
           options=(Option("miss", "one zero token and the whole shot misses"),
                    Option("sum", "the non-zero tokens still do their damage (no push)"))),
    Ruling(18, RulingKey.RESET_SCOPE, SHOTS, "Drawing, discarding, reset",
           "A shot draws all its tokens into the hand before resolving any (a token in hand is "
           "in neither bag nor pile, so it cannot come out twice in one shot); an empty bag is "
           "refilled from its discard pile, the tokens in hand staying in hand. Once the shot is "
           "resolved its tokens go face up on the discard pile; a reset icon among them then "
           "returns the discard pile of its own level, these tokens included, to the bag.",
           "\"After resolving a Damage token, place it face up in a separate discard pile. When "
           "a Damage token with the reset icon is drawn, resolve it first, then take all of the "
           "discarded Damage tiles, flip them face down and add them back into their pile.\"",
           options=(Option("own-level", "only the reset token's level goes back"),
                    Option("all-levels", "every level's discard pile goes back"))),
    Ruling(19, RulingKey.KEEP_TARGET, TARGETING, "The Active Target is kept for the whole sequence",
           "If it dies or leaves the mat, later shots that need it have no target and do "
           "nothing.",
           "\"Perform the character's shot sequence\" names no new target selection.",
           "Select a new target for the rest of the sequence."),
    Ruling(20, RulingKey.ICE_PUSH, SHOTS, "Ice and the push",
           "An ice hit freezes the target instead of damaging it; and since every draw with no "
           "zero token pushes, \"damage or not\", the frozen target is pushed too (the ice "
           "piece moves with it).",
           "Clock Template errata: \"This happens when no zero value Damage tokens were drawn "
           "and resolved by the AI player ... Note that damage does not necessarily have to be "
           "inflicted for this effect to be triggered\".",
           options=(Option("push", "the frozen target is pushed (the errata's every-hit push)"),
                    Option("no-push", "a frozen target stays where it was hit"))),
    Ruling(21, RulingKey.REGENERATION, SHOTS, "Regeneration",
           "The attacker heals 1 when its shot damages, up to its starting health.",
           "The regeneration modifier's 3E text was not found.",
           "Your card's text (data/effects.toml)."),
    Ruling(22, RulingKey.TRANSFORM, SHOTS, "Transform",
           "The AI never flips a piece into a fire wall.",
           "The AI section has no rule for the transform shot.",
           "None known."),
    Ruling(23, RulingKey.NO_AI_RULE, SHOTS, "Shots with no AI rule",
           "Shield, and any shot the chapter gives the AI no rule for, are skipped and marked "
           "so. The Red Box's own ranged pieces (boomerang, Scorched Earth, dagger, portal trap, "
           "vortex) are resolved as ranged shots at the Active Target; the dagger then moves to "
           "a random rune.",
           "\"it is not possible for these instructions to cover every possible corner case\".",
           "Your own call at the table."),
    Ruling(24, RulingKey.REPEAT, TARGETING, "Repeat",
           "The repeat shot's \"target selection\" among friends picks the nearest friendly "
           "character in sight (not itself, not frozen): the columns speak of gold, poison and "
           "items, which teammates do not have. The friend gets an extra turn: if it had not "
           "acted yet this round, its own turn still comes. A repeated turn grants no further "
           "repeat, else two characters with the repeat shot could hand turns to each other "
           "forever.",
           "\"perform target selection to choose a friendly character in line of sight. If a "
           "friendly character can be selected, then that character will automatically perform "
           "its turn again.\"",
           options=(Option("nearest", "the nearest friend in sight"),
                    Option("columns", "the row's target columns over the friends in sight"))),
    Ruling(25, RulingKey.FRIENDLY_TARGET, TARGETING, "Advanced targets are friends, not victims",
           "A character aimed at a frozen teammate, a teammate to repeat or a wild wyvern makes "
           "its rushes toward it (the contact shots' rush part too) and no damaging shot at it; "
           "reaching a frozen teammate knocks the ice off, reaching a wild wyvern mounts it. A "
           "character with the repeat shot aims at a teammate only through the sequences that "
           "hold the repeat.",
           "Advanced Target Selection names the targets but not what a damaging shot does to "
           "a friend.",
           "Skip the rest of the sequence after the rush."),
    Ruling(26, RulingKey.TWO_ROLLED_RUNES, MOVEMENT, "Two rolled runes",
           "On the Cave of the Keystone and for fliers both dice are rolled; the AI takes the "
           "Rune Die's rune when it can, else the Location Die's (marked only when both rolled "
           "runes were free, the one case it decides). A flier landing on a sticker "
           "rune stands on top of that obstacle, safe from templates, and climbs down beside it "
           "at the start of its next turn.",
           "\"They then choose which rune to move to.\" The AI cannot choose.",
           "Roll a die to choose between two free runes."),
    Ruling(27, RulingKey.PARTS, TARGETING, "Parts and invulnerable pieces",
           "A piece marked `part_of` another (Ulom's claw) is never a target of its own and has "
           "no health: its owner counts as seen if either piece is seen, measured to the piece "
           "seen (the nearer if both are), and target selection reads the owner's gold, health, "
           "poison and items. The AI then aims at that physical piece: rushes go toward it, the "
           "Attack template must cover it, ranged shots strike it; the printout says \"Ulom "
           "(measure to Ulom's claw)\" and the JSON adds `aim_piece` and `measured_to`. A hit on "
           "the claw damages Ulom and its effects land on Ulom; a kill removes both pieces. An "
           "`invulnerable` piece (Yilleph's white side) can be targeted and pushed, never "
           "damaged; a hit on an invulnerable part damages its owner no more than itself.",
           "\"Both Ulom's piece and his claw piece start in play. Damage may be inflicted on "
           "either piece.\" \"The white Yilleph is invulnerable\".",
           "Measure only to Ulom's own piece."),
    Ruling(28, RulingKey.ANTIENT_CONTROL, TARGETING, "Antient control alternates",
           "After the AI uses an Antient, the scenario hands it back to the heroes (`side = "
           "\"heroes\"`), and the printout says to pass its card.",
           "Base game: control of an Antient passes back and forth until the Battle Phase ends.",
           "None known."),
    Ruling(29, RulingKey.EFFECTS_DATA, SHOTS, "Modifier effects are data",
           "What each modifier does, to which kinds of piece (allies cannot be poisoned, "
           "stunned or devoured), and whether it needs damage, is in data/effects.toml. Stun and "
           "regeneration are house texts.",
           "The 3E texts of stun and regeneration were not found.",
           "Your cards' texts in your data folder."),
    Ruling(30, RulingKey.DEVOUR_POISON, SHOTS, "Devour and poison",
           "The devour shot deals its token's damage; a survivor goes onto the Devoured! card "
           "(so it is not pushed). Poison kills at once when a hero's Poison cards reach its "
           "starting health (give `starting_health` for heroes; without it the check cannot be "
           "made).",
           "The devour shot is a level 2 draw; the base game's Poison cards kill at the hero's "
           "starting health.",
           "Push a devoured survivor first."),
    Ruling(31, RulingKey.BOOMERANG, SHOTS, "Boomerang",
           "A token decides the hit on the Active Target; the boomerang lands where the target "
           "stood; the thrower rushes; Ruler 3 laid from the boomerang toward the thrower hits "
           "every enemy beneath it, each with its own level 1 token.",
           "Boomerang: \"Flick the boomerang piece ... Place Ruler 3 over the boomerang piece "
           "and point it toward the attacking character.\" The AI does not flick.",
           "The return does no damage for the AI."),
    Ruling(32, RulingKey.PORTAL_TRAP, SHOTS, "Portal trap",
           "A token decides the hit; then the D12 portal table replaces the push (1-3: that "
           "damage and the Teleported! card; 4-5: the character may rush; 6-11: 2 damage and a "
           "random rune; 12: the Hidden Cave or a free rune of the players' choice).",
           "\"For each character hit by this shot, roll the D12.\"",
           "Push after the portal table too."),
    Ruling(33, RulingKey.ABSENT_HERO_TILE, COMPONENTS,
           "A Hero Target tile of a hero not on the mat",
           "A D12 that lands on the tile of a dead or unplaced hero is rolled again, as for an "
           "unassigned tile. A `[playmat]` table beside a shipped playmat id is checked for "
           "mistakes but not used (it is used only with `playmat = \"inline\"`).",
           "\"checking which assigned Hero Target tile was selected\".",
           "The shot is lost."),
    Ruling(34, RulingKey.CARD_RULES, SHOTS, "Card rules kept from the data",
           "The Gelatinous Cube's second melee carries the round's modifier in rotation "
           "(corrosion, fear, devour, critical); P'holith's summon is one of its four monsters "
           "by the D12 split. A Monster Metre draws cards without replacement.",
           "The cards' own texts (community transcription).",
           "Your cards' texts."),
    Ruling(35, RulingKey.STUN_AND_ALOFT, SHOTS, "Stun, pieces on obstacles, riders",
           "A stunned AI character loses its next turn and then the stun ends (the 3E stun text "
           "was not found; 2E stunned characters missed a turn). A piece standing on an "
           "obstacle is safe from the Attack template and from a ruler laid over it (the "
           "boomerang's return: the rulers are \"Ruler Templates\"), and is not moved by the "
           "Clock template (the push is read as part of the template attack; a ranged hit, which "
           "uses no template, still lands). A rider sits on top of its mount or wild wyvern, on "
           "the same spot; a rider who is pushed is knocked off: only the rider moves, the mount "
           "stays, and neither stays marked, so the wild wyvern is free to ride again. A wild "
           "wyvern carries one rider.",
           "\"while on top of an obstacle, the character is safe from all template attacks\"; "
           "\"If a hero is riding a wyvern or a mount, they are considered to have been knocked "
           "off. Only the rider is moved ... the mount or wyvern remain in place.\"",
           "A stunned AI character still moves but makes no shot; a piece on an obstacle is "
           "pushed off it (the push is a move, not an attack)."),
    Ruling(36, RulingKey.TELEPORT_LANDING, MOVEMENT, "Landing back from the Teleported! card",
           "A piece that must land on a rune and rolls only taken runes twelve times takes the "
           "free rune nearest the mat centre. Each re-roll of a taken rune is marked.",
           "\"When the character returns from the Teleported! card they are placed on a random "
           "rune (not the edge of the playmat)\".",
           "Stop rolling after the first taken rune and take the nearest free spot."),
    Ruling(37, RulingKey.LORD_SEQUENCE, TARGETING, "A Catacomb Lord's shot sequence",
           "A Catacomb Lord rolls the D12 for its sequence, split over all its sequences, as "
           "the chapter prints. A card that picks by health (the community transcription of "
           "Kaulaurn's card) is followed only when its data is marked `rulebook` or the switch "
           "says `card`.",
           "\"If the character is a Catacomb Lord, roll the D12 to determine which shot "
           "sequence to perform.\" Against it: the transcription of Kaulaurn's card (health "
           "bands, provenance `fan`).",
           options=(Option("d12", "the printed D12 split"),
                    Option("card", "a card's health bands where the data has them"))),
    Ruling(38, RulingKey.REPEAT_SEQUENCES, TARGETING, "Aimed at a teammate to repeat",
           "A character whose Active Target is a teammate to repeat performs one of the "
           "sequences that hold the repeat shot: a Catacomb Lord rolls the D12 split over those "
           "alone; another character takes them as ruling 15 says. The sequence's other shots "
           "against the friend follow ruling 25: rushes toward it, no damaging shot.",
           "Advanced Target Selection 2: \"the character must have the repeat shot available in "
           "their shot sequence\"; \"If the character is a Catacomb Lord, roll the D12\".",
           "The Lord rolls over all its sequences, and a sequence without the repeat is "
           "performed against the friend (rushes only)."),
    Ruling(39, RulingKey.FROZEN_HERO, SHOTS, "A frozen hero is not damaged",
           "A frozen character \"cannot be damaged\" (base game, ice shots): an AI hit on a "
           "frozen hero does no damage and no effect that needs damage; the draw still pushes "
           "it when no zero comes out (ruling 20).",
           "Base-game ice rule (catacombs-facts.md, Ice): \"A frozen character cannot act, "
           "cannot be damaged, and loses its defensive properties.\"",
           options=(Option("no-damage", "a frozen hero takes no damage"),
                    Option("damage", "a frozen hero is damaged as usual"))),
    Ruling(40, RulingKey.NON_HERO_WEALTH, TARGETING,
           "Familiars, allies and mounts under gold and items",
           "Familiars, allies, mounts and assistants have no gold or items of their own "
           "(familiars \"earn no gold\"), so under the gold columns they rank behind every "
           "hero, and \"hero without any items\" never picks them. Among themselves they tie.",
           "\"least gold\", \"most gold\", \"hero without any items\"; \"enemy characters are "
           "considered to be any member of the Heroic Forces including heroes, familiars, "
           "allies, mounts, and assistants\".",
           options=(Option("behind-heroes", "they rank behind every hero on gold"),
                    Option("count-zero", "they count as holding 0 gold"))),
    Ruling(41, RulingKey.RUNE_WHEN_ON_RUNE, MOVEMENT, "Move to random rune while on a rune",
           "A piece already on one rune that rolls a different, free rune moves to it: the AI "
           "performs move to random rune, whose text stops it only on the rolled rune. Marked "
           "when the piece leaves a rune for another.",
           "Move to Rune: \"if the character is already on top of a rune icon, then the move to "
           "rune icon has no effect\"; Move to Random Rune: \"When the character is already on "
           "top of the rolled rune ... nothing happens.\"",
           options=(Option("moves", "it moves to the rolled free rune"),
                    Option("stays", "a piece on any rune stays (the Move to Rune note)"))),
    Ruling(42, RulingKey.PART_PUSH, SHOTS, "A hit on a part pushes the piece struck",
           "When the AI hits Ulom's claw, the claw, the piece struck, is pushed with the Clock "
           "template; Ulom takes the damage and the effects.",
           "Clock Template errata: the push \"simulates an enemy character being pushed away by "
           "the impact\"; \"Damage may be inflicted on either piece.\"",
           "Put the Clock template on Ulom's own piece (the push speaks of the Active Target) and "
           "let the claw follow."),
    Ruling(43, RulingKey.PART_REJOIN, MOVEMENT, "A separated part is put back",
           "A hit that separates Ulom's claw from Ulom (they were within 2.5 cm before) puts the "
           "claw back 1 cm from Ulom's edge, on the side where it lies, after any push of either "
           "piece. Ulom takes the damage either way, so putting it back after the damage gives "
           "the same result as before it.",
           "\"If the two pieces are hit (either directly or indirectly) resulting in them being "
           "separated, the claw piece is immediately moved back to within 2.5cm (1\") of the hero "
           "piece before any other effect (including damage) is resolved.\"",
           "The players put the claw anywhere within 2.5 cm; or any hit that leaves the two apart "
           "brings the claw back, even one that was far after its flick."),
    Ruling(44, RulingKey.RESET_TIMING, SHOTS, "A reset among several tokens",
           "A reset icon among a shot's several tokens (the boulder) returns the discard pile "
           "once the whole shot is resolved and its tokens discarded, so they go back into the "
           "bag too.",
           "\"resolve it first, then take all of the discarded Damage tiles\" with \"boulder - "
           "draw two level 3 Damage tokens\".",
           "Return the pile as soon as the reset token is resolved, while the shot's other token "
           "is still in hand; that one is discarded afterwards and stays on the pile."),
    Ruling(45, RulingKey.KRAKEN_BAG, CAVE, "The red Damage tokens are the level 1 bag",
           "The Kraken fight draws from the level 1 bag, the tokens an unmodified shot draws: "
           "the hero's own attack is not modified, and with level 1 tokens a hero's usual few "
           "tokens make a contest of the D12. Which bag is red is a data field "
           "(data/components.toml `[kraken] bag`, provenance `house`): set it to your red bag.",
           "\"The hero draws a red Damage token for every 4 Health points they currently have\"; "
           "the Components list names the tokens only by level (\"Level 1 Damage Tokens x13\", "
           "...) and never says which level is red.",
           "The level 3 bag (critical draws level 3, and the critical modifier is red).",
           options=(Option("1", "the level 1 bag"), Option("2", "the level 2 bag"),
                    Option("3", "the level 3 bag")),
           setting="data/components.toml [kraken] bag"),
    Ruling(46, RulingKey.KRAKEN_TIE, CAVE, "A tie with the Kraken",
           "When the hero's tokens add up to exactly the Kraken's strength, the Kraken wins: the "
           "hero has not evaded it.",
           "\"Add up all of the values on the Damage tokens and compare it to the Kraken's attack "
           "strength. If the Kraken wins ... If the hero wins, then they evaded the kraken\"; "
           "a tie is not mentioned.",
           options=(Option("kraken", "a tie is the Kraken's win"),
                    Option("hero", "a tie is the hero's win (the defender holds)")),
           setting="automa hidden-cave fight --tie"),
    Ruling(47, RulingKey.KRAKEN_DRAW, CAVE,
           "The Kraken fight's tokens come out one after the other",
           "The hero's tokens are drawn from the red bag without putting any back until the "
           "count is reached; if the bag runs empty, its discard pile goes back first, and if "
           "every token is in hand they are counted and all go back into the bag. Afterwards "
           "they are discarded as any shot's tokens (a reset icon returns the pile). The "
           "standalone `automa hidden-cave fight` starts from a full bag.",
           "\"The hero draws a red Damage token for every 4 Health points ... Add up all of the "
           "values\"; the count can pass the 13 tokens of a bag, and the text does not say "
           "whether the fight's tokens go back.",
           "Draw each token and put it back at once (every draw from the full bag)."),
    Ruling(48, RulingKey.CAVE_ONCE, CAVE, "One visit to the Hidden Cave per hero",
           "A hero who has collected all five monsters may place their piece on the Hidden Cave "
           "card once in the game; the collected pieces stay on their board, out of the game, "
           "after it. A hero sent there by the Portal Trap does not use up their own visit.",
           "\"When a hero collects all five of the monsters, the player controlling that hero "
           "may place their hero's piece on the Hidden Cave card instead of taking their normal "
           "turn.\" The text does not say whether the hero may come back.",
           "The hero may enter again on any later turn while items are left beside the card."),
    Ruling(49, RulingKey.CAVE_PIECES, CAVE, "The Hidden Cave sets aside pieces, not monster kinds",
           "The five pieces set aside for the Hidden Cave are one piece of each of five "
           "level-1 kinds. The Overseer keeps those kinds' Monster cards and their other "
           "pieces: a Monster Metre icon may still draw them, and a hero collects a kind by "
           "destroying any piece of it. If a card needs more pieces than the box has left, "
           "place what you have.",
           "\"take one of each level 1 monster piece from the Monster Pool and randomly draw "
           "five of them. ... These five monster pieces are not available to the Overseer "
           "during the game. Each time a hero destroys one of the indicated level 1 monsters, "
           "they keep it\".",
           "The five kinds leave the Overseer's draws altogether (then a hero can collect them "
           "only in rooms whose card names them)."),
    Ruling(50, RulingKey.MONSTER_VULNERABILITIES, HERO_HITS, "Monster Vulnerabilities are opt-in",
           "A hero's `hit` applies the family vulnerabilities (Zombie and Dungeon melee or "
           "missile as critical, Undead fireball as critical, Mythological melee as "
           "regeneration, extra-small Vermin melee or missile as fear, Infernal ice doing 1 "
           "damage, Wraith Knight defensive properties ignored) only when the table switches "
           "them on; they never override a card's own Nullifies or Reflects box.",
           "\"Monster Vulnerabilities (Optional)\"; base game: \"These never override a "
           "monster's own defensive properties.\"",
           options=(Option("off", "the optional vulnerabilities are not used"),
                    Option("on", "the optional vulnerabilities apply to the heroes' hits"))),
    Ruling(51, RulingKey.PORTAL_RUSH, HERO_HITS, "Portal Trap 4-5 on an AI piece",
           "When a hero's Portal Trap rolls 4 or 5 on an AI piece, the AI declines the rush "
           "shot it may perform: the piece stays where it is.",
           "\"Result 4-5: no damage is inflicted, affected character may perform rush shot.\" "
           "The chapter says the AI declines the Trilithon, the only other offered flick.",
           "The AI performs the rush toward its Active Target with its line of sight Ruler."),
    Ruling(52, RulingKey.PORTAL_TWELVE, HERO_HITS, "Portal Trap 12 on an AI piece",
           "When a hero's Portal Trap rolls 12 on an AI piece, it goes to an unoccupied rune, "
           "never to the Hidden Cave (the Cave is the heroes'); the players roll the rune die "
           "until it names an unoccupied rune, as the AI has no preference.",
           "\"Result 12: no damage is inflicted and the affected character is moved to the "
           "Hidden Cave card or an unoccupied rune of their choice.\"",
           "The heroes choose the rune, as the ones who flicked the trap."),
    Ruling(53, RulingKey.DAGGER_HERO, HERO_HITS,
           "A Catacomb hero is any hero; who throws the dagger for 2",
           "A \"Catacomb hero\" is any hero of the Heroic Forces in a Catacombs 3E game, "
           "whether the box gives their card among its Hero Cards or its Catacomb Hero Cards; "
           "allies, familiars, mounts and assistants are not heroes. In the Components list "
           "\"Catacomb\" names the Catacombs side of each Catacombs & Castles pair (Catacomb "
           "and Castle Hero Cards, Team Action Cards, Boss Cards, Warrior Cards): the list "
           "sorts the cards by the game they are printed for, and says nowhere that some "
           "heroes of a Catacombs 3E game are not Catacomb heroes. The chapter uses the word "
           "for every hero: the gold reminder follows \"each hero is given the indicated "
           "amount of gold\", and the dagger's \"any Catacomb hero\" widens Catacombs & "
           "Castles' one hero (Yilleph) to the heroes of the other game. So in a Catacombs 3E "
           "battle a dagger does 2 damage when the hit names its thrower (`by HERO`) and that "
           "piece is a hero; an ally, a familiar or no thrower named gets the default 1. "
           "Ruling 61 reads the gold reminder the same way: no hero shares gold.",
           "\"In Catacombs & Castles, this ranged shot inflicts 1 point of damage by default, "
           "2 points of damage when performed by Yilleph the Illusionist. In Catacombs 3E, "
           "this ranged shot inflicts 1 point of damage by default, 2 points when performed "
           "by any Catacomb hero (including the Illusionist).\" (l.382); \"Reminder: "
           "Catacomb heroes cannot share their gold with other heroes or amongst "
           "themselves.\" (l.306); the Components list counts \"Hero Pieces x3\" and "
           "\"Catacomb Hero Pieces x5\" (l.55-56), \"Hero Cards x6 (Catacombs 3E)\" and "
           "\"Catacomb Hero Cards x6 (Catacombs 3E)\" (l.71-72) apart, and never says "
           "what a Catacomb hero is.",
           "A Catacomb hero is only a hero of the Catacomb Hero Cards and pieces (l.56, "
           "l.72-73), not one of the Hero Cards (l.55, l.71): then only their daggers do 2 "
           "(report another hero's dagger without `by`), and only they keep their gold to "
           "themselves, the others pooling theirs at the Merchant (ruling 61's `pooled`)."),
    Ruling(54, RulingKey.HERO_POISON, HERO_HITS, "A hero's poison shot on a monster",
           "The Poison card's value is damage on top of the shot's own, when the shot reaches "
           "the piece: not nullified, reflected or frozen, and never a Catacomb Lord (immune to "
           "every modifier but chain, critical and regeneration). With several pieces hit, "
           "the card goes to the one the attacker chose (the first named).",
           "\"Draw one (and only one) Poison card and immediately inflict the indicated poison "
           "value as damage.\"",
           "The Poison card replaces the shot's damage instead of adding to it."),
    Ruling(55, RulingKey.CAMPAIGN_OPEN_ROOMS, CAMPAIGNS, "Which rooms are open next",
           "Every room of the campaign not yet visited is open, in any order the heroes choose; "
           "of two rooms offered as \"either ... or\" (the Crypt of Shaurath or the Alewife "
           "Tavern), visiting one skips the other; the Catacomb Lord's Lair ends the campaign, "
           "and the rooms not visited by then are skipped.",
           "\"The heroes choose which path they wish to take.\" The campaign paths are drawn "
           "as arrows on the printed diagrams, which are not in our text.",
           "Follow the printed arrows: put the route your diagram shows in campaigns.toml in "
           "your data folder, or play the rooms in the order the rulebook lists them."),
    Ruling(56, RulingKey.CAMPAIGN_LORD, CAMPAIGNS, "The campaign's Catacomb Lord",
           "The campaign's start piece (the Monstrosity, the Pharaoh) is its Catacomb Lord: it "
           "is the Lord whose Mercenary every room's setup uses and whose lair ends the "
           "campaign, unless the players name another with --lord.",
           "\"Start: use the Monstrosity.\" / \"Start: use the Pharaoh.\" The rulebook does "
           "not say what the start piece is used as.",
           "Roll or choose one of the Catacomb Lords and use the start piece otherwise."),
    Ruling(57, RulingKey.CAMPAIGN_HERO_DEATH, CAMPAIGNS, "A hero who dies in a campaign room",
           "The official rule: the dead hero's Items and Poison cards go back to their decks, "
           "their gold to the Treasury and their kills to the pool; they keep their Spells and "
           "come back at the next room's setup with half their starting health, rounded down. "
           "All heroes dead: the Overseer has won.",
           "The sources disagree: the official rules (hero death) against the advanced rule and "
           "the FAQ's revised rule (research notes, Hero death).",
           options=(Option("returns", "the official rule: back at the next setup with half "
                                      "health, without items, poison or gold"),
                    Option("stays-dead", "the advanced rule: the same losses, and the hero "
                                         "stays dead unless resurrected (Althea)"),
                    Option("keeps-board", "the FAQ's revised rule: the hero keeps coins, items "
                                          "and spells, loses only Poison cards, and comes back "
                                          "at the next setup with half health")),
           setting="automa campaign new --hero-death"),
    Ruling(58, RulingKey.CAVE_IN_BATTLE, CAVE, "The Kraken fight inside a battle is fought at once",
           "A hero who enters the Hidden Cave during a room's battle (instead of their turn, or "
           "sent by the Portal Trap) fights the Kraken at once, with their health as it is then "
           "and the battle's own red bag; the outcome lands on their board (the 2 health never "
           "take them above their starting health, as any healing), and their piece is back "
           "on the mat where it stood: the visit was their turn. The five monsters count from "
           "the campaign's earlier rooms and this battle's kills logged `by` the hero.",
           "\"the player controlling that hero may place their hero's piece on the Hidden Cave "
           "card instead of taking their normal turn.\" (l.429) and \"The hero must defend "
           "themselves from the Kraken lurking inside the Hidden Cave. First, roll the D12\" "
           "(l.433): the fight is in the hero's turn, in place of it, as the piece goes onto "
           "the card (or when the Portal Trap sends it there), and not put off to the Battle "
           "Phase's end, as the Antient won \"may be summoned ... in a subsequent turn of the "
           "Battle Phase\" (l.448). \"A hero that has been placed on the Hidden Cave card is "
           "considered to have temporarily left the Battle Phase.\" (l.431) The text does not "
           "say when the hero comes back.",
           "The hero stays on the Hidden Cave card, safe from the AI, until the heroes' next "
           "turn, and the 2 health may pass the starting health."),
    Ruling(59, RulingKey.ANTIENT_SUMMON_ONCE, CAVE, "The cave's Antient is summoned once",
           "The Antient won in the Hidden Cave is summoned once in the game, instead of the "
           "hero's base shot sequence in one of their turns; it is then marked used on the "
           "hero's board and a second `summon` is refused. A hero's Antient card in the battle "
           "is marked the same way for the room.",
           "\"1 unused Antient piece of their choice. This Antient may be summoned instead of "
           "performing their hero's base shot sequence in a subsequent turn of the Battle "
           "Phase.\" The text does not say how often.",
           "The Antient may be summoned once in every room, as a once-per-room card."),
    Ruling(60, RulingKey.ALTHEA_CURE, CAMPAIGNS, "Althea the Healer's price to cure a Poison card",
           "The official price: 20 gold a Poison card (after the one free cure).",
           "The sources disagree: the official rules say 20 gold, the fan transcription 2 gold "
           "(research notes, Special rooms: \"check the card\").",
           options=(Option("official", "20 gold, the official rules"),
                    Option("fan", "2 gold, the fan transcription")),
           setting="automa campaign new --althea-cure"),
    Ruling(61, RulingKey.VISIT_POOL, CAMPAIGNS, "Who pays at a special room",
           "One hero pays each price from their own gold, at every special room, the Merchant "
           "included: Catacomb heroes cannot share their gold, and every hero is a Catacomb "
           "hero (ruling 53). The base game lets gold be pooled at Izchak the Merchant; the "
           "Red Box's reminder names no exception, so it holds at the Merchant too. The one "
           "who pays may "
           "buy for another hero (Althea's heal, a Tavern reward) or for every hero (the "
           "Inn's sleep): the gold goes to the room, not to a hero. A purchase whose price "
           "is split between heroes is refused in one line.",
           "\"Reminder: Catacomb heroes cannot share their gold with other heroes or amongst "
           "themselves.\" (l.306, Room Level Rewards); the base game says of Izchak the "
           "Merchant \"Gold can be pooled.\" (research notes, Special rooms), of no other "
           "room.",
           options=(Option("own-gold", "one hero pays each price from their own gold, at "
                                       "every room (l.306)"),
                    Option("pooled", "the heroes may pool their gold where the room's own "
                                     "text says so (Izchak the Merchant: `pool = true` in "
                                     "visits.toml, which your data folder may set for other "
                                     "rooms)")),
           setting="automa campaign new --visit-pool"),
    Ruling(62, RulingKey.TAVERN_BET, CAMPAIGNS, "The Alewife Tavern's draw",
           "The heroes drawn decide first (one, two or three hero pieces); otherwise three "
           "pieces of one kind are three of a kind, and an Orc, a Fire Spirit and a Centaur "
           "are three different colours; any other draw wins nothing. The 2 gold bet is "
           "spent whatever is drawn; the three pieces are drawn without putting one back.",
           "\"Bet 2 gold and draw 3 pieces\" with the rewards for 3 heroes, 3 of a kind, 2 "
           "heroes, 3 different colours, 1 hero; \"pieces go back in the bag after each "
           "bet\".",
           "A winning bet gives the 2 gold back with the reward."),
    Ruling(63, RulingKey.SUMMONED_TURN, ROUND,
           "A summoned piece's turn is the one it takes at once",
           "A character the AI summons performs its shot sequence at once, and that is its turn "
           "of the round: it is not chosen again by the order tiles later in the same AI turn. "
           "From the next round on it takes one turn a round in the tiles' order like the "
           "others.",
           "\"Once placed, the newly summoned character immediately performs its shot sequence "
           "as normal.\" (Clock Template); a round is \"When all characters on the playmat have "
           "taken one turn\" (base game, Important Terms). Neither says whether the new piece "
           "also takes a turn of its own in the tiles' order.",
           "The summoned piece also acts in the tiles' order later in the same AI turn, if its "
           "place there has not yet come."),
    Ruling(64, RulingKey.TELEPORTED_BY_HEROES, ROUND,
           "A piece the heroes teleport comes back next round",
           "An AI piece the heroes put on the Teleported! card in their turn (a Portal Trap's "
           "1-3, `condition ID teleported on`) stays on it through this round's AI turn: its "
           "place in the order comes and passes (\"on the Teleported! card since the heroes' "
           "turn\"). It comes back in the next round's AI turn, at its place in the order, on a "
           "random rune with one melee shot (ruling 36). A piece that teleports itself comes "
           "back at its turn of the next round too. `automa turn` on a scenario cannot tell "
           "when a piece went onto the card: it brings back every teleported piece at its "
           "turn.",
           "Base game, Teleport Shots: \"During the next round of the Battle Phase, the "
           "teleported character must come back into play.\" Its opening line says the "
           "character is \"returned to a different location on their next turn\", which for a "
           "piece teleported in the heroes' turn is this round's AI turn.",
           "The piece comes back at its turn in this round's AI turn (its next turn)."),
    Ruling(65, RulingKey.FROZEN_TURN, ROUND, "A frozen piece's turn passes",
           "An AI piece frozen when its place in the order comes cannot act, and that is its "
           "turn of the round: a teammate who knocks the ice off later in the same AI turn "
           "frees it for the next round, not for a turn now. Freed before its place comes (by "
           "the heroes, or by a teammate acting before it), it acts as usual.",
           "Base game, Ice Shots: \"A frozen character cannot act\"; Advanced Target "
           "Selection 1: \"Nearest (or only) teammate within line of sight frozen by the ice "
           "shot (attempt to rescue them)\". Neither says whether a piece freed after its place "
           "in the order has passed still acts this round.",
           "A piece freed later in the AI turn takes its turn then, as one that has not acted "
           "this round."),
    Ruling(66, RulingKey.ANTIENT_TURNS, ROUND, "An Antient acts in each side's turn",
           "When the heroes' turn is over every Antient in play is the Overseer's: it acts once "
           "in the AI turn at the Antient tile's place in the order, then its card passes back "
           "to the heroes (ruling 28), who use it in their next turn; and so on until the "
           "Battle Phase ends. An Antient a hero summons acts for the heroes at once, and for "
           "the AI in the same round's AI turn. While the heroes hold it in the AI turn (after "
           "it acted), the AI ignores it.",
           "Base game, Antients: \"An Antient is controlled first by the player that summoned "
           "it. Once that player's turn is over, the Antient card passes to the Overseer. "
           "Control of the Antient passes back and forth between the heroes and the Overseer "
           "until the battle phase is finished.\"; Red Box step 3: \"The AI player ignores "
           "Antients not under its control.\"",
           "The card changes hands once a round: an Antient the heroes used this round sits out "
           "this round's AI turn, and the Overseer uses it in the next."),
    Ruling(67, RulingKey.YILLEPH_FLIP, SHOTS, "When a Yilleph piece flips",
           "A Yilleph piece (a heroes' piece with a `colour`; white is invulnerable) flips when "
           "an AI shot hits it, that is when no zero is drawn for it, once the hit is resolved: "
           "after the damage and the push. Flipped to black, the AI rolls the Rune Die and "
           "moves it to a random rune as any random-rune move (an occupied rune, or its own, "
           "means it stays); flipped to white, the printout tells the players to perform its "
           "single rush shot now and `move` it where it stops. A piece a push stops against, "
           "the push's sweep, is no hit. In the heroes' turn `hit` names a Yilleph piece that "
           "a piece struck: it flips, and takes no damage (team members never damage each "
           "other).",
           "\"When an Yilleph piece of either colour is directly hit (not necessarily damaged) "
           "by any piece including a character, shield, ranged piece, or another Yilleph, it "
           "flips over (after applicable damage is inflicted). When it flips to white, the "
           "player controlling the affected Yilleph immediately performs a single rush shot. "
           "When it flips to black, it is immediately moved to a random rune.\" The AI's "
           "tokens stand for the flick; the text does not say whether the push comes first.",
           "The piece flips where it was hit, before the push; a piece pushed into a Yilleph "
           "piece flips it too."),
    Ruling(68, RulingKey.CLAW_HIT, HERO_HITS, "Ulom's claw in a hero's hit",
           "`hit ... claw` does 1 damage to each AI piece the claw struck, with no modifier (one "
           "is refused). The claw flick is none of the shot types a card's Nullifies or Reflects "
           "box lists, and no Monster Vulnerability counts it as a melee; an Antient, a frozen "
           "piece or a shadow monster still takes none, a Catacomb Lord takes it.",
           "\"Then his claw piece is flicked. If it hits one or more enemies, it inflicts one "
           "point of damage to each of them.\" The boxes list shot types (catacombs-facts.md "
           "1.8); the claw's flick is not named among them.",
           "The claw is a melee: a box that nullifies or reflects melee stops it, and the "
           "melee vulnerabilities apply."),
    Ruling(69, RulingKey.INN_SLEEP, CAMPAIGNS, "The Amaranth Inn's sleep and the starting health",
           "The Inn's sleep gives every living hero +1 health up to their starting health, as "
           "any healing does: a hero already at their starting health gains nothing (the 8 "
           "gold are spent all the same).",
           "The official rules: \"Note: A character's health may not be increased beyond its "
           "starting level.\" (base game, Taking and Healing Damage), with no exception. The "
           "Inn's own card text is in none of our official sources (the official rules list an "
           "Amaranth Inn page whose text we do not have); only the fan transcription gives "
           "it: \"Pay 8 gold coins and each living hero receives one "
           "health (in this case, they can exceed their starting health)\" (Junni01/"
           "Catacomb-Keeper, SpecialRooms.js; research notes, Special rooms). The Red Box "
           "names the Inn only in its campaigns' lists (l.462, l.484).",
           options=(Option("capped", "+1 health up to the starting health, by the official "
                                     "rule on healing"),
                    Option("over", "+1 health even past the starting health, as the fan "
                                   "transcription of the card says")),
           setting="automa campaign new --inn-sleep"),
    Ruling(70, RulingKey.LAIR_LAST, CAMPAIGNS, "The Healer listed after the Lair",
           "The Catacomb Lord's Lair is the campaign's last room, whatever the list prints after "
           "it: a room listed after the Lair (the Monstrosity's Healer, Althea) is open before "
           "the Lair like any room not yet visited (ruling 55), and never after it: the Lair "
           "ends the campaign, in victory or defeat, and skips it if it was not visited. "
           "Played in the listed order (ruling 55's other reading), the Healer comes after "
           "Urnehath, just before the Lair.",
           "\"• Catacomb Lord's Lair\" then \"• Healer (Althea the Healer)\" (l.467-468) "
           "close a list of the campaign's room cards, not its path: \"The campaign paths are "
           "drawn as arrows on the printed diagrams and are not reproduced as text. Each "
           "campaign's room cards are listed below\" (l.454); the Pharaoh's list ends with "
           "the Lair (l.486). The base game places the Lair last (\"The Catacomb Lord's Lair "
           "Special Room card is always placed as the last Room card\", Alternate Room Card "
           "Layouts), the heroes win by killing the Lord (Winning the Game), and what Althea "
           "gives serves the rooms to come (a resurrected hero \"starts playing in the next "
           "room\").",
           "The Healer comes after the Lair, as listed: it is not open before the Lair, and the "
           "heroes who beat the Lord visit it before the campaign ends (for a table that "
           "carries its heroes into another campaign: nothing it gives changes a game already "
           "won)."),
    Ruling(71, RulingKey.TRILITHON_ARCH, SIGHT, "The Trilithon is an arch",
           "The Trilithon is two uprights under a lintel, and pieces pass through the opening "
           "between them: for the AI's line of sight, its pushes and where a piece may stand, "
           "each upright is an obstacle like any other and the opening is open floor. The AI "
           "only ignores what passing through it gives (the second shot). `automa setup "
           "--trilithon` writes it as two obstacles, T1 and T2, each 2.5 cm of its 10 cm "
           "length (sizes of ours, ruling 5), the 5 cm opening between them wide enough for "
           "the largest disc; correct them to your piece.",
           "\"When any ranged piece passes successfully through the Trilithon, then the player "
           "performing that shot must immediately perform the same shot again from where the "
           "piece finished up on the other side of the Trilithon obstacle. When any character "
           "piece passes successfully through the Trilithon ...\" (l.346-348); \"As no "
           "flicking is involved in the implementation of the AI's shots, characters under its "
           "control ignore the effects of the Trilithon obstacle.\" (l.354). The text gives no "
           "size, and does not say whether the opening blocks line of sight.",
           "The AI ignores the Trilithon altogether, its uprights too (leave T1 and T2 out of "
           "the scenario file); or the whole Trilithon is one solid block for sight and pushes "
           "(one obstacle over both)."),
    Ruling(72, RulingKey.RIDERS, MOVEMENT, "A rider and its mount move as one",
           "A rider sits on top of its mount or wild wyvern (ruling 35) and the two move as one: "
           "the rider's own moves (a rush, a move to a rune, a No Target move) carry its "
           "mount, a push on the mount carries its rider, and a move the players report of "
           "either (`move ID ...`) moves both, the same way and as far. The two move as the "
           "wider of their discs, stopped by anything but each other, and never onto a rune on "
           "top of an obstacle. Only the Clock template on the rider parts them (knocked off, "
           "ruling 35). A rider or a mount that leaves the mat (killed, onto the Teleported! or "
           "Devoured! card) leaves the other where it stands, and neither is riding or ridden "
           "any more: a wild wyvern is free to ride again. `condition ID riding off` (or "
           "`ridden off`) takes both marks off, the rider getting down. A character already "
           "riding looks for no wild wyvern to ride (Advanced Target Selection 3, l.236).",
           "Step 5 (l.256): \"If the Active Target is a wild wyvern, then the character is now "
           "considered to be riding that wyvern.\" Clock Template errata (l.294): \"If a hero is "
           "riding a wyvern or a mount, they are considered to have been knocked off. Only the "
           "rider is moved is randomly - the mount or wyvern remain in place.\" The text parts "
           "the two there alone; it says nothing of their other moves.",
           "A rider's own move takes it off its mount, which stays where it was, free to ride; "
           "a pushed mount leaves its rider standing where it was."),
    Ruling(73, RulingKey.PARTS_ON_CARDS, MOVEMENT,
           "A character's parts go onto the Teleported! and Devoured! cards with it",
           "A character that goes onto the Teleported! or Devoured! card takes every part of it "
           "along (Ulom's claw goes with Ulom; a part sent there sends its owner), and they "
           "come back together: when the owner is back on the mat (on its random rune, with "
           "`back`, or freed where its devourer died) each part comes back on its own spot if "
           "that is free and within 2.5 cm of the owner, else 1 cm from the owner's edge as "
           "ruling 43 puts a separated claw back.",
           "\"Both Ulom's piece and his claw piece start in play. Damage may be inflicted on "
           "either piece.\" \"If the two pieces are hit (either directly or indirectly) "
           "resulting in them being separated, the claw piece is immediately moved back to "
           "within 2.5cm (1\") of the hero piece\" (l.312, l.320). The Teleport and Devour "
           "texts speak of the character only.",
           "The claw stays on the mat while Ulom is on the card, a piece of no character the AI "
           "ignores, and is put beside him when he comes back."),
)

# Where each ruling is marked when it decides something (tests/test_rulings_marked.py plays one
# table for each and finds the mark there). Two rulings decide at once everything of a kind at
# the table, every length (5) and every token the program draws (4): a mark on each activation
# would drown the others, so they are marked where the data is checked (and 5 where a setup
# places pieces on our unmeasured mats).
_TURN, _SETUP, _SESSION = (MarkedIn.TURN,), (MarkedIn.SETUP,), (MarkedIn.SESSION,)
_CAMPAIGN = (MarkedIn.CAMPAIGN,)
_CAVE = (MarkedIn.KRAKEN, MarkedIn.SESSION)
MARKED: Mapping[RulingKey, tuple[MarkedIn, ...]] = {
    RulingKey.ORDER_TILES: (MarkedIn.SETUP, MarkedIn.DATA),
    RulingKey.DIRECTION_FRAME: _TURN,
    RulingKey.HERO_TARGET_REROLL: (MarkedIn.TURN, MarkedIn.DATA),
    RulingKey.TOKEN_MIX: (MarkedIn.DATA,),
    RulingKey.SIZES: (MarkedIn.SETUP, MarkedIn.DATA),
    RulingKey.LOS_TEST: _TURN,
    RulingKey.CLOSEST_EDGE: _TURN,
    RulingKey.RUSH_STOP: _TURN,
    RulingKey.CLOCK_EDGE: _TURN,
    RulingKey.HALF_CLOCK: (MarkedIn.TURN, MarkedIn.DATA),
    RulingKey.SUMMON_PLACEMENT: _TURN,
    RulingKey.RANDOM_RUNE: _TURN,
    RulingKey.HOUSE_ROWS: _TURN,
    RulingKey.MOST_POISON: _TURN,
    RulingKey.PREFERRED_SEQUENCE: _TURN,
    RulingKey.TOKEN_LEVELS: _TURN,
    RulingKey.BOULDER_ZERO: _TURN,
    RulingKey.RESET_SCOPE: _TURN,
    RulingKey.KEEP_TARGET: _TURN,
    RulingKey.ICE_PUSH: _TURN,
    RulingKey.REGENERATION: (MarkedIn.TURN, MarkedIn.SESSION),
    RulingKey.TRANSFORM: _TURN,
    RulingKey.NO_AI_RULE: _TURN,
    RulingKey.REPEAT: _TURN,
    RulingKey.FRIENDLY_TARGET: _TURN,
    RulingKey.TWO_ROLLED_RUNES: _TURN,
    RulingKey.PARTS: _TURN,
    RulingKey.ANTIENT_CONTROL: (MarkedIn.TURN, MarkedIn.SESSION),
    RulingKey.EFFECTS_DATA: _TURN,
    RulingKey.DEVOUR_POISON: _TURN,
    RulingKey.BOOMERANG: _TURN,
    RulingKey.PORTAL_TRAP: _TURN,
    RulingKey.ABSENT_HERO_TILE: _TURN,
    RulingKey.CARD_RULES: (MarkedIn.TURN, MarkedIn.SETUP),
    RulingKey.STUN_AND_ALOFT: (MarkedIn.TURN, MarkedIn.SESSION),
    RulingKey.TELEPORT_LANDING: _TURN,
    RulingKey.LORD_SEQUENCE: _TURN,
    RulingKey.REPEAT_SEQUENCES: _TURN,
    RulingKey.FROZEN_HERO: _TURN,
    RulingKey.NON_HERO_WEALTH: _TURN,
    RulingKey.RUNE_WHEN_ON_RUNE: _TURN,
    RulingKey.PART_PUSH: _TURN,
    RulingKey.PART_REJOIN: _TURN,
    RulingKey.RESET_TIMING: _TURN,
    RulingKey.KRAKEN_BAG: (*_CAVE, MarkedIn.DATA),
    RulingKey.KRAKEN_TIE: _CAVE,
    RulingKey.KRAKEN_DRAW: _CAVE,
    RulingKey.CAVE_ONCE: _SESSION,
    RulingKey.CAVE_PIECES: _SETUP,
    RulingKey.MONSTER_VULNERABILITIES: _SESSION,
    RulingKey.PORTAL_RUSH: _SESSION,
    RulingKey.PORTAL_TWELVE: _SESSION,
    RulingKey.DAGGER_HERO: _SESSION,
    RulingKey.HERO_POISON: _SESSION,
    RulingKey.CAMPAIGN_OPEN_ROOMS: _CAMPAIGN,
    RulingKey.CAMPAIGN_LORD: _CAMPAIGN,
    RulingKey.CAMPAIGN_HERO_DEATH: _CAMPAIGN,
    RulingKey.CAVE_IN_BATTLE: _SESSION,
    RulingKey.ANTIENT_SUMMON_ONCE: _SESSION,
    RulingKey.ALTHEA_CURE: _CAMPAIGN,
    RulingKey.VISIT_POOL: _CAMPAIGN,
    RulingKey.TAVERN_BET: _CAMPAIGN,
    RulingKey.SUMMONED_TURN: _TURN,
    RulingKey.TELEPORTED_BY_HEROES: (MarkedIn.TURN, MarkedIn.SESSION),
    RulingKey.FROZEN_TURN: _TURN,
    RulingKey.ANTIENT_TURNS: (MarkedIn.TURN, MarkedIn.SESSION),
    RulingKey.YILLEPH_FLIP: (MarkedIn.TURN, MarkedIn.SESSION),
    RulingKey.CLAW_HIT: _SESSION,
    RulingKey.INN_SLEEP: _CAMPAIGN,
    RulingKey.LAIR_LAST: _CAMPAIGN,
    RulingKey.TRILITHON_ARCH: _SETUP,
    RulingKey.RIDERS: (MarkedIn.TURN, MarkedIn.SESSION),
    RulingKey.PARTS_ON_CARDS: (MarkedIn.TURN, MarkedIn.SESSION),
}
BY_KEY: Mapping[RulingKey, Ruling] = {r.key: r for r in RULINGS}
BY_NUMBER: Mapping[int, Ruling] = {r.number: r for r in RULINGS}
SWITCHES: Mapping[RulingKey, Ruling] = {r.key: r for r in RULINGS if r.options and not r.setting}
NOT_A_SWITCH = "is not a switchable ruling (see `automa rulings`)"


def cite(key: RulingKey) -> str:
    """How the printout names ruling `key` in a sentence: "ruling 12"."""
    return f"ruling {ruling(key).number}"


def ruling(key: RulingKey) -> Ruling:
    return BY_KEY[key]


def option(chosen: Mapping[str, str], key: RulingKey) -> str:
    """The option in force for a switchable ruling: the scenario's choice, else ours."""
    entry = ruling(key)
    if entry.default is None:
        raise KeyError(f"ruling {key} is not a switch")
    return chosen.get(key, entry.default)


def key_of(word: str) -> RulingKey | None:
    """The ruling a scenario's `[rulings]` table names by `word`, or None if none is."""
    try:
        return RulingKey(word)
    except ValueError:
        return None


def check_choice(key: RulingKey, value: object) -> str | None:
    """What is wrong with `[rulings] key = value`, or None when it is a valid choice."""
    entry = SWITCHES.get(key)
    if entry is None:
        if BY_KEY[key].setting:
            return f"is set as {BY_KEY[key].setting}, not under [rulings]"
        return NOT_A_SWITCH
    values = [o.value for o in entry.options]
    if value not in values:
        return (f"ruling {entry.number} takes one of {', '.join(map(repr, values))}, "
                f"not {value!r}")
    return None
