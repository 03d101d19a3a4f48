"""The JSON documents the commands other than `status` and `show` print: order results, the
players, reports and their board, inbox results. Apart from views.py, whose views a read
prints: a read makes none of these classes.

Each carries `schema_version` and accepts added keys, so a script written
against one version survives new fields.
"""

from typing import Any, Literal

from msgspec import UNSET, UnsetType, field

from .base import Document
from .codes import MailCode, OrderKind
from .views import (
    CardView,
    ClosedShown,
    Deadlines,
    FortShown,
    GameResult,
    OutdatedShown,
    PausedShown,
    StatusView,
    UnitView,
)


class PlayerEntry(Document):
    side: str
    address: str
    key: str | None | UnsetType = UNSET


class SheetRegistered(Document):
    side: str
    tip: str
    seq: int


class PlayersView(Document):
    """What `players --format json` prints (keys only with --keys), the observers'
    addresses (sent the public report; they never order), and `sheets`: the dice sheets
    --sheet registered, each with its record, `unchanged`: the sides whose --set address
    was registered for them already (the same mailbox, however its letters are cased), for
    which nothing was written, and `new_key`: the sides whose order key is new (the old one
    no longer counts), given by --new-key or by a --set address that is another mailbox."""

    schema_version: int
    players: list[PlayerEntry]
    observers: list[str] | UnsetType = UNSET
    sheets: list[SheetRegistered] | UnsetType = UNSET
    unchanged: list[str] | UnsetType = UNSET
    new_key: list[str] | UnsetType = UNSET


class Rejection(Document):
    """The order refused: its index in the batch, its text, the error (as the text line says
    it), the rule it breaks, and the error's kind (the error object's `kind`: what a script
    reads to tell a stale view from an illegal order)."""

    index: int
    order: str
    error: str
    rule: str | None | UnsetType = UNSET
    kind: OrderKind


class AppliedOrder(Document):
    order: str
    seq: int
    events: list[dict[str, Any]]


class DroppedOrder(Document):
    """An order of the batch left out before it was checked, and why."""

    index: int
    order: str
    why: str


class OrderResult(Document):
    """What `order --format json` prints: its reader (the acting side, whose secrets the
    events show), the orders applied, the one rejected, those not applied after it, those
    dropped and the status now; with `--dry-run`, dry_run, the orders
    legal so far, where it stopped and those not checked, with the rejected one."""

    schema_version: int
    reader: str | UnsetType = UNSET     # whose view the events and status are (the side's)
    applied: list[AppliedOrder] | UnsetType = UNSET
    dry_run: bool | UnsetType = UNSET
    legal: list[str] | UnsetType = UNSET
    stopped: str | None | UnsetType = UNSET
    not_checked: list[str] | UnsetType = UNSET
    rejected: Rejection | None | UnsetType = UNSET
    not_applied: list[str] | UnsetType = UNSET
    dropped: list[DroppedOrder] | UnsetType = UNSET
    status: StatusView | None | UnsetType = UNSET


class Receipt(Document):
    seq: int
    hash: str
    # of the key that signed the record (signed games)
    fingerprint: str | None | UnsetType = UNSET
    # that key's Ed25519 signature of the receipt (base64url), when the referee that made
    # the report holds it; signed: what a mail's Signed lines hold (a byte naming their
    # form, the whole hash, record 0's, then it: game/signedreceipt.py)
    signature: str | None | UnsetType = UNSET
    signed: str | None | UnsetType = UNSET


class ReportVp(Document):
    """The VP total, its change since the report's start and the level of victory: once the
    game is over, the level its result counts (a surrender's is one level worse for the side
    that resigned than the level of the VP, 3.3), with the level the Victory Chart gives the
    VP beside it (`vp_level`, `vp_level_name`) only when that is another."""

    total: int
    change: int
    level: str
    level_name: str
    vp_level: str | UnsetType = UNSET
    vp_level_name: str | UnsetType = UNSET


class BoardFort(FortShown):
    besieged: bool                # units of the other side stand in its area (8.4)
    oos: bool | UnsetType = UNSET             # an Out of Supply marker on it (1.2.3)


class BoardArea(Document):
    id: str
    name: str
    control: str                  # a side id, disputed or neutral
    vp: int
    supply_source: str | None     # the side whose supply source it is (6.1)
    # what that source supplies now (6.2, 6.3): network (its side's units along Friendly
    # areas), own_area (only its side's units in its area: Disputed) or none (the area is
    # held by the other side, or neutral); given only with a supply source
    supplies: Literal["network", "own_area", "none"] | UnsetType = UNSET
    units: list[UnitView]         # as `show` gives them to the reader, forts apart
    fort: BoardFort | None
    battle: Literal["compulsory", "declared", "fighting", "fought"] | None     # 5.1


class BoardCountry(Document):
    id: str
    name: str
    areas: list[BoardArea]


class BoardVp(Document):
    total: int
    level: str
    level_name: str


class BoardCards(Document):
    hand: list[CardView] | None   # the reader's own hand; None for the public and the moderator
    hands: dict[str, list[CardView]] | None | UnsetType = UNSET     # the moderator's: every hand
    hand_sizes: dict[str, int]
    draw_pile: int
    discard: int


class BoardView(Document):
    """The board every report carries (`board` in `report --format json`): each area by
    country, as the reader may see it, and what lies off the map."""

    schema_version: int
    reader: str
    turn: int
    label: str
    phase: str
    countries: list[BoardCountry]
    vp: BoardVp
    cards: BoardCards
    eft_box: list[str] | None     # None: the game has no EFT box (AAC)
    eliminated_armies: list[str]
    force_pool: dict[str, dict[str, int]]
    nation_names: dict[str, str]     # each nation of force_pool by its name
    build_points: dict[str, int] | None     # until a production's plans are revealed (7.0)


class ReportView(Document):
    """What `report --format json` prints: the facts, and the document the text is made of;
    whose answer it waits on, what is asked, the deadlines, whether the game is over and
    its result, and an armistice proposed, as the reader's status-view says them."""

    schema_version: int
    game_id: str
    reader: str
    # the position read, as status names it: its last record (upto, receipt's seq), turn,
    # label and phase (the board's too)
    seq: int
    turn: int
    label: str
    phase: str
    since: int
    upto: int
    receipt: Receipt
    vp: ReportVp
    waiting_on: str | None
    waiting_on_all: list[str]       # every side that owes an answer, as in the status-view
    decision: str | None
    prompt: str                     # what is asked now, as the status-view says it
    legal: list[str]
    # the game takes no orders now, though not over (nobody is waited on, nothing is asked):
    # closed for good, or paused until the moderator resumes it; absent while it takes them
    closed: ClosedShown | UnsetType = UNSET
    paused: PausedShown | UnsetType = UNSET
    # played under older rules or other game data: no orders until the moderator upgrades it
    outdated: OutdatedShown | UnsetType = UNSET
    # a game with deadlines: each owing side's, as the status-view gives them to the reader
    deadlines: Deadlines | None | UnsetType = UNSET
    game_over: bool
    result: GameResult | None
    # an armistice proposed and not yet answered (3.2), as the status-view gives it
    armistice: str | UnsetType = UNSET
    armistice_heard: bool | UnsetType = UNSET
    armistice_to: str | UnsetType = UNSET
    board: BoardView
    dice: Literal["committed", "manual"] | UnsetType = UNSET     # manual: rolled by the players
    document: dict[str, Any]


class MessageOutcome(Document):
    where: str
    message_id: str
    from_: str = field(name="from")
    status: str     # applied | rejected | skipped | stale | held | known | automatic | failed
    side: str | None
    reason: str | None
    records: list[int]
    new: bool                   # false: handled by an earlier run (its status is then known)
    # why it was not applied, a stable name (codes.py); null: applied, or answered
    code: MailCode | None


class InboxResult(Document):
    """What `inbox --format json` prints."""

    schema_version: int
    messages: list[MessageOutcome]
    outbox: list[str]
