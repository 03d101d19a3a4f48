"""The shapes of the skirmish game (games/skirmish): its game file, the card's tables, a
scenario's forces, a journal record of a test, and the report `skirmish report` prints."""

from typing import Annotated, Any, ClassVar, Literal, Optional, Union

from msgspec import UNSET, Meta, UnsetType, field

from .base import Contract, Document, Frozen, Part
from .events_base import Secret
from .records import Hex64, Signature, Signing, Stream
from .results import Receipt, Rejection
from .skirmish_card import (  # noqa: F401  (the card's tables, read through this module too)
    Aimed,
    CountsAs,
    Facts,
    Inches,
    Melee,
    Modifier,
    Morale,
    Motivation,
    Movement,
    MoveMode,
    Name,
    Phase,
    PhaseSpec,
    Quality,
    Rally,
    ResultRow,
    Small,
    SpotRow,
    Spotting,
    SpotWhen,
    Surrender,
    TestKind,
    Text,
    Unaimed,
    Unpin,
    Weapon,
    Weapons,
)

FigureId = Annotated[str, Meta(pattern=r"^[A-Za-z][A-Za-z0-9]{0,11}\Z")]


class SkirmishFiles(Frozen):
    card: str = "card.yaml"


class SkirmishGame(Frozen):
    """game.yaml of a game of kind skirmish."""

    version: Annotated[int, Meta(ge=1, le=999)]
    kind: Literal["skirmish"]
    id: Name
    name: Text
    ruleset: Text = ""
    files: SkirmishFiles = field(default_factory=SkirmishFiles)
    scenarios: dict[Name, str]
    challenge_window: Small = 6


class SkirmishCard(Frozen):
    """card.yaml: every table of the quick reference."""

    qualities: list[Quality]
    facts: Facts
    sequence: list[PhaseSpec]
    motivation: Motivation
    movement: Movement
    spotting: Spotting
    weapons: Weapons
    aimed: Aimed
    unaimed: Unaimed
    melee: Melee
    morale: Morale
    rally: Rally
    unpin: Unpin
    surrender: Surrender
    # How often a test may be taken: "turn", once per subject a turn; "phase", once per
    # subject (and target, for a spotting test) a phase. A test not named has no limit
    # but the card's own (a figure fires once, a section moves once).
    attempts: dict[Literal["spot", "rally", "unpin"], Literal["turn", "phase"]] = {}
    # The fire phase in steps, best qualities first: the figures of one step fire together
    # (the referee names the step; one killed or pinned in it still fires in it). Empty in
    # journals made before steps: there no figure fires after a worse one has fired.
    fire_steps: list[list[Quality]] = []
    # A fire step waits on a side only while a figure of it may fire in the step as its
    # order would be checked (not after a stealthy move or a rush, a shot, a melee). False in
    # journals made before: a side was waited on while a figure of the step was on the
    # table, unpinned and in a section not routing, though it could not fire.
    steps_wait_on_fit: bool = False
    # Facts whose omission would favour the side declaring them, and the value a test
    # records when one is left out, so the report shows it and the opponent may dispute it.
    # Empty in journals made before: a fact left out there counted for nothing.
    defaults: dict[Name, Union[Name, bool]] = {}
    # An order declares only the facts its test can read for its firer's weapon and its
    # target (confined= an area weapon's, dice= a weapon firing several dice, advancing=
    # at a Ferocious target). False in journals made before: such a fact was recorded and
    # shown, and read by nothing.
    facts_read: bool = False
    # A move of the turn the moderator settles marks its figure as ruled: the mode it moved
    # by and whether it went into contact, or, a move it could not make (void), no move.
    # False in journals made before: the figure kept what its move declared.
    settled_moves: bool = False
    # A melee phase with no figure in contact (none moved into contact this turn, none held
    # in a melee of an earlier turn) is passed over, as a fire step with no figure fit is.
    # False in journals made before: the phase waited on both sides' done.
    melee_passed_over: bool = False
    # The disputes open wait on the moderator, as `status` (disputes_open, a line each) and
    # each pass of tick (dispute_open) say. False in journals made before: only his mail
    # and his report named them.
    disputes_wait: bool = False
    # An aimed shot's result gives each target's modified score and the scores the Aimed
    # Fire table needs ("G5 miss (score 6; 15+ pinned, 18+ killed)"), as unaimed fire gives
    # its "17+ needed". False in journals made before: the result named the outcome alone.
    aimed_scores: bool = False
    # A player's fire and melee forms name the figures they are open to: his firing now and
    # those that may fire unaimed only, the enemy no shot may take, the melees open to him.
    # False in journals made before: their reports read as then.
    forms_named: bool = False
    # A test that pins figures tells the pins each holds after it (a morale test's second
    # failure pins every figure, on top of pins held). False in journals made before.
    pins_told: bool = False
    # Movement (alternate units): a unit's turn ends when the other side moves a unit after
    # it, and a later move of a figure of it is refused (its figures that did not move stay
    # for the phase); every reader is told the same of who moves next. False in journals
    # made before: a side could go on moving a section it began whenever he liked.
    unit_turns: bool = False
    # Unaimed fire's result gives its dice against the score needed, each modifier raising
    # or lowering that score, none listed as added to the die. False in journals made
    # before: "D20=8; modifiers +1 target in hard cover -> G2 not pinned (18+ needed)".
    unaimed_needs: bool = False
    # A test a ruling makes void shows no modifier (it never counted) and its line leads
    # with void. False in journals made before: dice and modifiers, then "-> void: ...".
    voids_told: bool = False
    # Said once: a melee's outcome both attackers reach, and that the game waits on the
    # reader alone under his "Your decision:" line. False in journals made before:
    # "B5 3 v G6 1: G6 killed; B2 8 v G6 1: G6 killed", "Waiting on the British player".
    said_once: bool = False
    # A done closes what its side is asked now: a side the step or phase just ended asked
    # nothing of is refused a bare done until it makes a record of the new phase, and
    # `done PHASE` closes the phase it names. False in journals made before: a stray done
    # closed the next phase unseen.
    dones_asked: bool = False


class Figure(Frozen):
    id: FigureId
    name: Text = ""
    quality: Optional[Quality] = None       # the section's when not given
    weapon: Name
    role: Optional[Literal["squad_leader", "platoon_commander", "marksman", "bomber",
                           "sniper"]] = None
    body_armour: bool = False
    gas_mask: bool = False


class Section(Frozen):
    id: FigureId
    name: Text = ""
    quality: Quality
    figures: list[Figure]


class Force(Frozen):
    platoon_commander: Optional[Figure] = None
    sections: list[Section]


class SkirmishScenario(Frozen):
    """A scenario: the two sides, who moves first, each side's force, and the sides that
    have off-table artillery."""

    id: Name
    title: Text
    sides: Annotated[list[Name], Meta(min_length=2, max_length=2)]
    first: Name
    forces: dict[Name, Force]
    # The sides with off-table artillery: the card's artillery phase waits on them alone,
    # and is passed over when none has any. None (a scenario without the field, as in every
    # journal made before it): the phase waits on both sides, as it always did.
    off_table_artillery: Optional[Annotated[list[Name], Meta(max_length=2)]] = None
    # The sides that are 1914 British, who alone may use rapid fire (card, Unaimed Fire
    # Modifiers: "-1 ... 1914 British using rapid fire"): a `rapid=` of another side is
    # refused, and its unaimed fire's form leaves the fact out. None (a scenario without the
    # field, as in every journal made before it): any side may declare it, as it always could.
    british_1914: Optional[Annotated[list[Name], Meta(max_length=2)]] = None


class SkirmishTest(Document):
    """One test as the journal and the report hold it: who ordered it, the facts declared,
    every die with its faces, each modifier applied with its source, and the result."""

    record: int
    side: str
    order: str
    kind: str
    facts: dict[str, Any]
    dice: list[dict[str, Any]]
    modifiers: list[dict[str, Any]]
    result: str
    effects: list[dict[str, Any]]
    rule: str
    subject: str | None | UnsetType = UNSET  # the figure or section it is about (a melee's:
    # the defender, whose die is rolled first)
    turn: int | UnsetType = UNSET           # the report's: the turn and phase it was made in,
    phase: str | UnsetType = UNSET          # and whether a ruling settled it since
    settled: bool | UnsetType = UNSET
    # A settled test's rulings: their records, and each fact changed, [declared, ruled]
    ruling: dict[str, Any] | UnsetType = UNSET
    # A side that plays by mail: a test not taken from his mail (the moderator typed it)
    by_hand: bool | UnsetType = UNSET
    # The pins each figure the test pinned holds after it (card pins_told)
    pins_after: dict[str, int] | UnsetType = UNSET
    # Made void by a ruling, its dice counting for nothing (card voids_told)
    void: bool | UnsetType = UNSET


class SkirmishResult(Part):
    """How a skirmish ended (status and every report, once it is over; null before): the
    side that won (null when neither has a figure left fighting), the sides beaten, why in
    words, the record of the test it ended with, and the turn and phase it ended in."""

    winner: Optional[str]
    beaten: list[str]
    reason: str
    record: Optional[int]
    turn: int
    phase: str


class SkirmishRevealed(Part):
    """The record revealing the dice secret, and the secret (status and every report, once
    the journal holds it; null before)."""

    record: int
    secret: str


class SkirmishReport(Document):
    """`skirmish report`: the game, the turn and phase, whose move is awaited, every test
    (or those of the last turn) and each figure's state; with --as, what is asked now of
    that reader."""

    schema_version: int
    game_id: str
    game: str
    scenario: str
    turn: int
    phase: str                  # the card's phase under way; "over", "closed" once ended
    waiting: list[str]
    owed: dict[str, list[str]]      # the tests the card compels of each side before done
    firing: list[str] = []          # in a fire phase run in steps: the qualities firing now
    contacts: list[dict[str, Any]] = []   # melees still in contact: defender, attackers, turn
    # The figures contacted this turn, before their melee: defender, attackers, the records
    # of their moves, and whether the defender may still fire (card melee.contact_holds;
    # absent in a journal made before, whose moves named no figure contacted)
    contacted: list[dict[str, Any]] | UnsetType = UNSET
    # The melee phase of this turn passed over, no figure in contact (card
    # melee_passed_over): said, as the off-table artillery phase passed over is
    melee_passed: bool | UnsetType = UNSET
    claims: dict[str, list[str]] = {}     # the surrenders each side may claim now
    # The sides with off-table artillery, as the scenario says (its phase waits on them
    # alone, and is passed over when none has any); absent when the scenario does not say
    off_table_artillery: list[str] | UnsetType = UNSET
    tests: list[SkirmishTest]
    figures: list[dict[str, Any]]
    sections: list[dict[str, Any]]
    disputes: list[dict[str, Any]]
    revealed: Optional[SkirmishRevealed] = None     # the record revealing the dice secret, and it
    # A side has no figure left fighting (phase "over"), and how it ended; as the status's
    game_over: bool
    result: Optional[SkirmishResult]
    # `skirmish report --as`: who reads it, what his mail asks of him now (paragraph by
    # paragraph), and his own order key, which only a side's (or the moderator's) report
    # carries, as his mail does
    reader: str | UnsetType = UNSET
    asked: list[str] | UnsetType = UNSET
    order_key: str | UnsetType = UNSET
    # `report` and `skirmish report`, as a campaign's report: the tests after record since
    # (0: all; a skirmish keeps no reader's place), up to record upto, the journal's last,
    # whose receipt it gives; the dice mode; whom it waits on, as its status (waiting_on)
    # and as every report names every side owing an answer (waiting_on_all)
    since: int | UnsetType = UNSET
    upto: int | UnsetType = UNSET
    receipt: Receipt | UnsetType = UNSET
    dice: Literal["committed", "manual"] | UnsetType = UNSET
    waiting_on: list[str] | UnsetType = UNSET
    waiting_on_all: list[str] | UnsetType = UNSET


class SkirmishOrderResult(Document):
    """`skirmish order`: the record the order made (its test, dispute or ruling); for an
    order refused, none (null) and the order rejected, with why (the command's error)."""

    schema_version: int
    record: int | None
    body: dict[str, Any] | None
    rejected: Rejection | UnsetType = UNSET


class SkirmishOrders(Document):
    """`order` on a skirmish: the records a side's orders made, in order (up to one refused
    after a die was rolled: the command's error names it, and `rejected` the order), and
    `not_applied`: the orders of the batch that made no record, besides the one rejected (a
    refusal before any die rolled records none of them), as a campaign's order-result. With
    `--dry-run` (nothing recorded: records empty), as a campaign's: dry_run, the orders
    legal so far, where it stopped (the first order whose result needs dice) and the orders
    not checked, with the one rejected."""

    schema_version: int
    records: list[SkirmishOrderResult]
    rejected: Rejection | UnsetType = UNSET
    not_applied: list[str] | UnsetType = UNSET
    dry_run: bool | UnsetType = UNSET
    legal: list[str] | UnsetType = UNSET
    stopped: str | None | UnsetType = UNSET
    not_checked: list[str] | UnsetType = UNSET


class OpenDispute(Part):
    """A dispute the moderator has not settled (`settle`): the record of the test disputed,
    the fact, what its side declared and what the dispute claims, the side that disputes
    it and the record of its dispute."""

    record: int
    fact: str
    declared: Any
    claimed: Any
    by: str
    seq: int


class SkirmishStatus(Document):
    """`status` of a skirmish: the turn and phase of the card's sequence of play, the sides
    it waits on, and the tests the phase takes (each with the facts its side declares).
    Nothing of a skirmish is secret: every reader is shown the same. Version 2: `revealed`
    is the reveal's record and secret, or null (version 1: a boolean)."""

    VERSION: ClassVar[int] = 2
    schema_version: int
    game_id: str
    game: str
    scenario: str
    seq: int                    # the journal's last record
    turn: int
    phase: str                  # the card's phase under way; "over", "closed" once ended
    firing: list[str] = []      # in a fire phase run in steps: the qualities firing now
    waiting_on: list[str]
    waiting_on_all: list[str] | UnsetType = UNSET   # the same: as every status names them
    tests: list[str]            # the phase's tests, then `done`; once over, `dispute` if open
    owed: dict[str, list[str]]  # the tests the card compels of each side before its done
    claims: dict[str, list[str]] = {}   # the surrenders each side may claim now
    # The sides with off-table artillery, as the scenario says (SkirmishReport's)
    off_table_artillery: list[str] | UnsetType = UNSET
    prompt: str                 # what it asks now; once it has ended, how and who won
    game_over: bool             # a side has no figure left fighting (phase "over")
    # The record revealing the dice secret, and the secret: no more orders (phase "closed"
    # when it came before a side was beaten); null before. A boolean in documents of before.
    revealed: Optional[SkirmishRevealed]
    result: Optional[SkirmishResult]    # how it ended, once game_over
    # The disputes open, each waiting on the moderator's ruling (none once the secret is
    # published); absent in a document made before they were given
    disputes_open: list[OpenDispute] | UnsetType = UNSET


class SkirmishExplained(Document):
    """`explain` of a skirmish record: the order, who gave it and when, and the test it
    made (facts, each die, each modifier with its source, the result and its table), or the
    dispute or ruling it holds."""

    schema_version: int
    game_id: str
    seq: int
    actor: str
    order: str
    turn: int
    phase: str
    test: Optional[SkirmishTest] = None
    dispute: Optional[dict[str, Any]] = None
    settle: Optional[dict[str, Any]] = None
    revealed: Optional[str] = None          # the secret, for the record that reveals it
    # A test's: the records disputing its facts, and the moderator's rulings on it.
    disputed_in: list[int] | UnsetType = UNSET
    ruled_in: list[int] | UnsetType = UNSET
    # The HMAC message of each die of its test (store/dice.py below; player.md, A skirmish):
    # its stream and what it mixes in, so that anyone can check a die once the secret is
    # revealed, and the player his own mail's digest at once.
    hmac_inputs: Optional[list[str]] = None


class DiceOfASide(Part):
    """The dice one side rolled of one size: how many, and how often each face came."""

    side: str
    die: int
    rolled: int
    faces: list[int]            # faces[i]: how often face i + 1 came


class SkirmishDice(Document):
    """`dice` of a skirmish: every die each side's tests rolled, by size and face."""

    schema_version: int
    game_id: str
    dice: list[DiceOfASide]


class SkirmishAutoplay(Document):
    """`autoplay` of a skirmish: as a campaign's autoplay-result, its `result` the skirmish's
    (as `status` gives it, null until it is over), and `failure` the order the check took
    and the order refused (then exit 3), or null."""

    schema_version: int
    journal: str
    records: int                # played by this run
    turn: int                   # the turn the game is in after it
    game_over: bool
    result: Optional[SkirmishResult]
    failure: Optional[str]


# ---------------------------------------------------------------- the journal of a skirmish

class DieRolled(Contract):
    die: Annotated[int, Meta(ge=2, le=100)]
    value: Annotated[int, Meta(ge=1, le=100)]
    for_: Annotated[str, Meta(max_length=200)] = field(name="for")


class TestRecorded(Contract):
    kind: Literal["move", "spot", "fire", "unaimed", "melee", "morale", "rally", "unpin",
                  "surrender"]
    subject: Optional[str]
    facts: dict[str, Any]
    dice: list[DieRolled]
    modifiers: list[dict[str, Any]]
    result: Annotated[str, Meta(max_length=1000)]
    effects: list[dict[str, Any]]
    rule: str


class Disputed(Contract):
    record: Annotated[int, Meta(ge=1)]
    fact: str
    declared: Any
    claimed: Any


class Ruling(Contract):
    record: Annotated[int, Meta(ge=1)]
    upheld: bool = False
    fact: Optional[str] = None
    value: Any = None
    test: Optional[TestRecorded] = None


class Chained(Contract):
    seq: Annotated[int, Meta(ge=0)]
    prev: Optional[str]
    hash: str
    sig: Optional[Signature] = None     # store/signing.py


class DiceCommitment(Contract):
    mode: Literal["committed", "manual"]
    commitment: str
    # "side": each side's rolling record is keyed by the side's own count of them
    # (SkirmishDiceFrom); absent in games begun before, keyed by the record's number.
    keyed: Optional[Literal["side"]] = None


class SkirmishDiceFrom(Contract):
    """What keys a rolling record's dice in a game keyed by side: its stream, the side and
    its count of rolling records ("british.3"), and for an order that came by mail the
    SHA-256 of the mail's order lines, which its dice mix in."""

    stream: Stream
    mail: Optional[Hex64] = None


class SkirmishHeader(Chained):
    """Record 0 of a skirmish journal: the card and the scenario whole, the commitment."""

    kind: Literal["header"]
    schema_version: int
    game_id: str
    game: str
    game_kind: Literal["skirmish"]
    game_name: str
    data_digest: str
    engine_version: str
    scenario: str
    scenario_data: dict[str, Any]
    card_data: dict[str, Any]
    challenge_window: int
    players: dict[str, str] = {}        # side (or moderator) -> mail address
    dice: DiceCommitment
    created_at: str
    signing: Optional[Signing] = None


class SkirmishRecord(Chained):
    """A later record: a side's test or done, a dispute, or the moderator's ruling."""

    kind: Literal["skirmish"]
    at: str
    actor: str
    order: str
    turn: int
    phase: Phase
    test: Optional[TestRecorded] = None
    dispute: Optional[Disputed] = None
    settle: Optional[Ruling] = None
    mail: Optional[str] = None          # the Message-ID of the mail the order came in
    # Of that mail's Date, Subject and text: the same mail sent again under another
    # Message-ID is known for a copy.
    mail_content: Optional[Hex64] = None
    dice_from: Optional[SkirmishDiceFrom] = None    # its dice's key (a game keyed by side)


class SkirmishRoute(Chained):
    """The moderator's record of where the game's mail comes from and goes to (as a
    campaign's: store/mailroute.py), its addresses for the moderator's eyes."""

    kind: Literal["route"]
    at: str
    actor: Literal["moderator"]
    order: Literal["set mail route"]
    events: list[Any] = []
    mail_route: Secret


class SkirmishReveal(Chained):
    """The moderator's last record: the dice secret whose commitment the header holds, so
    anyone can recompute every die; no order is taken after it."""

    kind: Literal["reveal"]
    at: str
    actor: Literal["moderator"]
    order: Literal["reveal secret"]
    turn: int
    phase: Phase
    secret: Annotated[str, Meta(pattern=r"^[0-9a-f]{64}\Z")]


class SkirmishKeys(Document):
    """`skirmish keys`: each registered side's order key (for the moderator only)."""

    schema_version: int
    keys: dict[str, str]
