"""The JSON documents `status` and `show` print, the views (results.py holds the other
commands': reports, order and inbox results).

Each carries `schema_version` and accepts added keys, so a script written
against one version survives new fields.
"""

from typing import Literal

from msgspec import UNSET, UnsetType

from .base import Document, Part


class FortShown(Part):
    id: str
    name: str
    nation: str
    side: str | None
    printed: int
    strength: int | None
    in_play: bool


class DeadlineDue(Part):
    """One side's deadline for the decision it owes: the record that asked it (`handoff`),
    the time in UTC (`due`, ISO 8601) and in the players' words, the extensions granted:
    all the time they added (`extended`) and the time the last one added (`last_extension`);
    `missed`, once the time has passed, what follows by the policy at a missed deadline
    (wait: the game waits for the side; pause; default: the referee answers for it);
    `not_ruled` in its place (status, deadline), once the time has passed, when the next
    pass of tick does not rule it missed: why, in the words tick logs (the mail asking the
    side has not gone out, and the time is given back once it has; a mail sent in time may
    still be on its way; his mailed orders are held for the moderator's dice; no pass
    plays the game)."""

    side: str
    decision: str
    due: str
    words: str
    handoff: int
    extended: str | None | UnsetType = UNSET
    last_extension: str | None | UnsetType = UNSET
    missed: Literal["default", "wait", "pause"] | UnsetType = UNSET
    not_ruled: str | UnsetType = UNSET


class Deadlines(Document):
    """`deadline` and `extend`, and `deadlines` in a status-view: each owing side's deadline
    (none while the game is paused: no deadline runs), whether the game is paused, the
    policy at a missed deadline, the game's time zone its times are told in (`zone`, an
    IANA name like Europe/Paris; absent: UTC); `records` the records the command
    appended."""

    schema_version: int
    paused: bool
    policy: Literal["default", "wait", "pause"]
    zone: str | UnsetType = UNSET
    due: list[DeadlineDue]
    records: list[int] | UnsetType = UNSET


class UnitView(Document):
    id: str
    side: str
    nation: str
    type: str
    name: str | None | UnsetType = UNSET
    entrenched: bool | UnsetType = UNSET
    strength: int | None | UnsetType = UNSET
    contents: dict[str, int] | None | UnsetType = UNSET
    summary: str | None | UnsetType = UNSET
    # an Out of Supply marker on it (1.2.3); left out when none
    oos: bool | UnsetType = UNSET


class AreaView(Document):
    name: str
    control: str                  # a side id, disputed or neutral
    vp: int
    units: list[UnitView]


class CardView(Document):
    id: str
    key: str
    title: str


class VpLine(Document):
    label: str
    vp: int


class VpView(Document):
    """The VP total, its breakdown and the level of victory: once the game is over, the
    level its result counts, with the level the Victory Chart gives the VP beside it
    (`vp_level`, `vp_level_name`) only when that is another (a surrender, 3.3), as a
    report's vp (ReportVp) gives them."""

    total: int
    level: str
    level_name: str
    breakdown: list[VpLine]
    vp_level: str | UnsetType = UNSET
    vp_level_name: str | UnsetType = UNSET


class DeckView(Document):
    draw_pile: int
    discard: list[CardView]
    removed: list[CardView]


class ClosedShown(Part):
    """Why a game that is not over takes no orders any more, for good: `revealed`, its dice
    secret published before its end (`reveal --force`) by record `seq`; `no_setup`, its
    journal holding the header alone (record 0), without the set-up record `new` writes
    with it. `at`: that record's time, UTC."""

    why: Literal["revealed", "no_setup"]
    seq: int
    at: str


class PausedShown(Part):
    """What paused the game, no orders taken until the moderator resumes it: `by` the
    `moderator` (his `deadline --pause`) or a deadline `missed` under the policy pause (the
    `side`'s; null for the moderator's), at record `seq`, whose time is `at` (UTC); and what
    the game asks once it resumes: `waiting_on_all`, `decision`, `prompt`."""

    by: Literal["moderator", "missed"]
    seq: int
    at: str
    side: str | None
    waiting_on_all: list[str]
    decision: str | None
    prompt: str


class GameResult(Part):
    """How a campaign ended (`result` once `game_over`; null before): what its GameEnded event
    recorded (`reason` in the engine's words, the final modified `vp`, the `level` of victory
    and its `level_name`, the result: for a surrender one level worse for the side that
    resigned, 3.3), then `ending`, the kind of ending (`decisive_victory`: a level that ends
    the game reached at a check, 3.2; `armistice`: a proposal accepted, 3.2; `surrender`: a
    side resigned, 3.3; `last_turn`: the last seasonal turn played, 2.0 VI; null for a
    reason the engine never writes) and its `rule`; `winner`, the side the level is won by
    (null: no side wins, a stalemate); `by`, the side whose order ended it (who resigned, or
    who accepted the other's armistice; null for a level reached or the last turn); and the
    `turn`, its `label` and the `record` it ended at."""

    reason: str
    vp: int | None
    level: str | None
    level_name: str | None
    ending: Literal["decisive_victory", "armistice", "surrender", "last_turn"] | None
    rule: str | None
    winner: str | None
    by: str | None
    turn: int
    label: str | None
    record: int


class OutdatedShown(Part):
    """The rules and game data a game is played under (`rules`, `data_digest`) and those
    this referee decides under (`current_rules`, `current_data_digest`): it takes no orders
    until the moderator moves it on with `referee upgrade` (moderator.md, Versions)."""

    rules: int
    data_digest: str
    current_rules: int
    current_data_digest: str


class StateView(Document):
    """What `show --format json` prints."""

    schema_version: int
    game_id: str
    game_name: str
    scenario: str
    seq: int
    reader: str
    turn: int
    last_turn: int
    season: str
    year: int
    label: str
    phase: str
    player: str | None
    dice: Literal["committed", "manual"] | UnsetType = UNSET     # manual: rolled by the players
    waiting_on: str | None
    waiting_on_all: list[str]
    decision: str | None
    prompt: str
    vp: VpView
    areas: dict[str, AreaView]
    hand_sizes: dict[str, int]
    deck: DeckView
    eliminated_armies: list[str]
    eft_box: list[str] | None     # None: the game has no EFT box (AAC)
    force_pool: dict[str, dict[str, int]]
    # each nation of force_pool by its name in the game's data ('ge': 'German Empire')
    nation_names: dict[str, str]
    options: dict[str, bool]
    # each optional rule in play (options true) with its rule number ('hidden_templates': '1.4')
    option_rules: dict[str, str] | UnsetType = UNSET
    game_over: bool
    result: GameResult | None
    # the game takes no orders now, though not over (nobody is waited on, nothing is asked):
    # closed for good, or paused until the moderator resumes it; absent while it takes them
    closed: ClosedShown | UnsetType = UNSET
    paused: PausedShown | UnsetType = UNSET
    # played under older rules or other game data: no orders until the moderator upgrades it
    outdated: OutdatedShown | UnsetType = UNSET
    # the game's words, when not TTLM's (AAC: impulse)
    terms: dict[str, str] | None | UnsetType = UNSET
    hand: list[CardView]
    hands: dict[str, list[CardView]] | None | UnsetType = UNSET
    locked: list[str] | None | UnsetType = UNSET
    # a side's own standing orders in force, each as its phrase (the sides only)
    standing: list[str] | UnsetType = UNSET


class HeldOrders(Document):
    """A side's mailed orders held for the moderator's dice in a manual-dice game (the mail
    ledger's, mail/waiting.py), in his status alone: the record they wait at, the mail's
    Date (None when it had none), the lines as the player gave them, the dice they roll in
    words, and the command that enters them, DICE for the dice he rolls."""

    side: str
    record: int
    date: str | None
    lines: list[str]
    dice: str
    command: str


class StatusView(Document):
    """What `status --format json` prints (`legal` is empty for the public reader)."""

    schema_version: int
    game_id: str
    seq: int
    reader: str
    game_name: str
    # the game's id (as `new --game` and `games list` name it) and the scenario it was begun
    # from, as a skirmish's status gives them
    game: str | UnsetType = UNSET
    scenario: str | UnsetType = UNSET
    turn: int
    label: str
    phase: str
    dice: Literal["committed", "manual"] | UnsetType = UNSET     # manual: rolled by the players
    player: str | None | UnsetType = UNSET        # whose player turn it is (2.0 II), if any
    waiting_on: str | None
    waiting_on_all: list[str]
    decision: str | None
    prompt: str
    legal_for: str | None
    legal: list[str]
    # what legal_for owes before his 'done' is taken (a retreat 8.1 or 9.1.6 compels), with
    # its rule: why the engine refuses 'done' now; absent when 'done' is open or not asked
    owed: str | UnsetType = UNSET
    game_over: bool
    result: GameResult | None
    # the game takes no orders now, though not over (nobody is waited on, nothing is asked):
    # closed for good, or paused until the moderator resumes it; absent while it takes them
    closed: ClosedShown | UnsetType = UNSET
    paused: PausedShown | UnsetType = UNSET
    # played under older rules or other game data: no orders until the moderator upgrades it
    outdated: OutdatedShown | UnsetType = UNSET
    # the game's words, when not TTLM's (AAC: impulse)
    terms: dict[str, str] | None | UnsetType = UNSET
    deadlines: Deadlines | None | UnsetType = UNSET      # a game with deadlines: each owing side's
    # the side whose armistice proposal waits for the other's answer (3.2), while one does
    armistice: str | UnsetType = UNSET
    # whether the side it waits on has had a decision to make since (it lapses at the end
    # of the season only then, 2.0 VI), while one does
    armistice_heard: bool | UnsetType = UNSET
    # the side it waits on, whom the status names (3.2), while one does
    armistice_to: str | UnsetType = UNSET
    # a side's own standing orders in force, each as its phrase (the sides only)
    standing: list[str] | UnsetType = UNSET
    # mailed orders held for the moderator's dice (the moderator only, when there are any)
    held: list[HeldOrders] | UnsetType = UNSET
