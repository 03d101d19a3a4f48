"""The JSON documents the commands print, other than the views and results of views.py,
and the error object a failed command prints on stderr with `--format json`.

One class per shape, named in OUTPUTS by its schema name. A command builds its document
as the class (`Document.of`: the version set, every field's type checked) and prints it;
the tests also run every command and validate what it prints against the JSON Schemas.
"""

from typing import Any, Literal, Optional

from msgspec import UNSET, UnsetType

from .base import Document, Part
from .codes import WaitCode
from .mailboxread import MailboxRead
from .records import OrderSource
from .results import MessageOutcome
from .views import Deadlines, FortShown, GameResult

# ---------------------------------------------------------------- the error object

class ErrorObject(Document):
    """What stderr holds, one line, when a command run with `--format json` fails: `error` is
    the message the text line gives after `referee: `, `kind` the stable name of the error
    (usage, order_syntax, ambiguous_order, illegal_order, dice, dice_sheet, stale_view,
    order_rejected, unsigned_game, clock_behind, other_game, game_data, journal, foreign_game,
    storage, busy, transport, moderator, invariant, interrupted, internal), `rule` its rule
    number if it has one, `exit` the exit code."""

    schema_version: int
    error: str
    kind: str
    rule: Optional[str]
    exit: int
    problems: Optional[list[str]] | UnsetType = UNSET      # game_data: every problem found
    # journal: the record at fault, when known
    record: Optional[int] | UnsetType = UNSET
    # verify: each check it made, passed or failed, one line each, then its verdict
    checks: Optional[list[str]] | UnsetType = UNSET
    # verify --receipt MAILBOX: what each mailbox gave (VerifyResult's)
    mailboxes: Optional[list[MailboxRead]] | UnsetType = UNSET
    # the warnings the command met before it failed (a journal others can read), each as
    # its `referee: warning: ` line says it: with --format json no such line is printed
    warnings: list[str] | UnsetType = UNSET


class WarningsOnly(Document):
    """What stderr holds, one line, when a command run with `--format json` met warnings and
    printed no document to carry them (`log`'s JSONL): the warnings alone."""

    schema_version: int
    warnings: list[str]


# ---------------------------------------------------------------- playing

class SigningKey(Part):
    """A game's key: its fingerprint as people read it, and the file of its private half."""

    fingerprint: str
    file: str


class NewGame(Document):
    """`new`: the journal made, the game, where the dice secret is, the game's signing key,
    the sides whose players were registered, how many observers were, and the public status
    (a status-view)."""

    schema_version: int
    journal: str
    game_id: str
    game: str
    scenario: str
    dice: Literal["committed", "manual"]
    secret_file: str
    signing_key: SigningKey
    players: list[str]
    observers: int | UnsetType = UNSET
    status: dict[str, Any]
    mail_in: Optional[str] | UnsetType = UNSET             # the mail route set at `new`, if any
    mail_out: Optional[str] | UnsetType = UNSET
    mail_from: Optional[str] | UnsetType = UNSET            # the referee's own address, if set


class StandingOrders(Document):
    """`standing`: the side's standing orders in force, each as its phrase."""

    schema_version: int
    side: str
    standing: list[str]


# ---------------------------------------------------------------- keeping the record

class VerifyResult(Document):
    """`verify` when nothing is damaged (damage is an error object, exit 3): `result` is ok,
    chain_only (an export: chain and redactions) or older_rules (exit 5); `lines` what the
    text says, one per kind of check."""

    schema_version: int
    journal: str
    result: Literal["ok", "chain_only", "older_rules"]
    records: int
    older: int
    export: Optional[str]
    receipts: int           # the receipts checked: each pasted, and each mailbox's
    # the keys that signed it, in order (none: unsigned)
    keys: list[str] | UnsetType = UNSET
    # the first signed record (0, or the adoption)
    signed_from: Optional[int] | UnsetType = UNSET
    lines: list[str]
    # --receipt MAILBOX: what each mailbox gave
    mailboxes: list[MailboxRead] | UnsetType = UNSET


class Adoption(Part):
    """A game begun before signing, adopted: the record, and the key that signs from it."""

    seq: int
    fingerprint: str
    file: str


class UpgradeResult(Document):
    """`upgrade`: the last record written, the rules and game data the game moves between
    (the same when only adopted), and the adoption when the game was begun before signing."""

    schema_version: int
    journal: str
    seq: int
    from_rules: int
    rules: int
    from_data_digest: str
    data_digest: str
    adopted: Adoption | None | UnsetType = UNSET


class RekeyResult(Document):
    """`rekey`: the record that hands the game to a new key, the key before and the new one
    (fingerprints), and the file of the new key's private half."""

    schema_version: int
    journal: str
    seq: int
    from_fingerprint: str
    fingerprint: str
    file: str


class HandoverResult(Document):
    """`handover`: the game handed over to another machine as of its record seq; what to
    copy there (the journal, its dice secret where this machine keeps it, the key file);
    the standing orders' file that does not move (signed here), if any; and the mark to
    remove to take the game back here."""

    schema_version: int
    journal: str
    game_id: str
    seq: int
    secret: str | None
    key_file: str
    standing: str | None
    mark: str


class RevealResult(Document):
    """`reveal`: the record that holds the dice secret now."""

    schema_version: int
    journal: str
    seq: int


class RepairResult(Document):
    """`repair`: whether a torn last line was repaired, the complete records kept, the
    backup; `mended` when the line lacked only its end and held the record this referee
    wrote last, which was kept (its end put back) rather than cut."""

    schema_version: int
    journal: str
    repaired: bool
    records: int
    backup: Optional[str]
    mended: bool = False


class AutoplayResult(Document):
    """`autoplay`: records played, the turn reached, the result once over, and the invariant
    broken (then exit 3), if any."""

    schema_version: int
    journal: str
    records: int
    turn: int
    game_over: bool
    result: Optional[GameResult]
    failure: Optional[str]


# ---------------------------------------------------------------- explain / dice

class OrderShown(Part):
    text: str
    sealed: bool
    # Set only on a record that seals orders of a plan its side did not end in it (7.0,
    # 2.0 I, 2.0 V.3): a part of the plan, as the report tells it (game/planparts.py).
    part: bool | UnsetType = UNSET
    # How a side's order came, as its record says (every reader's copy holds it): by the
    # side's mail, by hand at the referee (`order --as`), the referee's default at a missed
    # deadline, or the referee's as the only order open; absent on a moderator's record.
    by: OrderSource | UnsetType = UNSET
    # The mark the reader's report gives it, in the same words (render/came.py): the
    # referee's closing for every reader, a hand order or a default for its side and the
    # moderator; absent when there is none.
    came: str | UnsetType = UNSET


class DecisionShown(Part):
    kind: str
    side: str
    waiting_on: list[str]
    rule: str
    prompt: str
    # A sealed plan (2.0 I, 7.0): the prompt its side was asked it under, his plan so far
    # counted, for a reader who may see that plan, where it differs from `prompt`.
    own_prompt: Optional[str] = None


class Derivation(Part):
    message: str
    digest: str
    byte_at: int
    byte: int
    value: int
    matches: bool


class Roll(Part):
    die: int
    value: int
    purpose: Optional[str]
    hmac_input: Optional[str] | UnsetType = UNSET          # committed dice: the HMAC's message
    derived: Optional[Derivation] | UnsetType = UNSET      # once the secret is revealed


class Shuffle(Part):
    """A shuffle of the deck by draws from the record's stream (1.3): the cards shuffled,
    the stream index of its first draw and how many it took, the first draw's HMAC message."""

    cards: int
    first: int
    draws: int
    hmac_input: str


class RecordDice(Part):
    mode: Literal["committed", "manual"]
    revealed: bool
    rolls: list[Roll]
    shuffles: list[Shuffle] | UnsetType = UNSET     # only when the record shuffled the deck


class Explanation(Document):
    """`explain`: one record as the reader may see it (record 0, the header, has no `at`,
    order, decision or dice)."""

    schema_version: int
    game_id: str
    seq: int
    reader: str
    actor: str
    at: Optional[str] | UnsetType = UNSET
    order: Optional[OrderShown]
    decision: Optional[DecisionShown]
    checks: list[str]
    dice: Optional[RecordDice]
    # Sentences, as `log` tells the events to the reader (render/audit.py): each hit the
    # record scored and how it was paid, each hit it paid for an earlier record (5.3).
    hits: list[str]
    changes: list[str]      # each of its events the reader may see, as `log` tells it


class ChiSquare(Part):
    statistic: float
    df: int
    p_value: float
    rough: bool


class DiceTally(Part):
    dice: int
    faces: list[int]
    by_purpose: dict[str, list[int]]
    expected: float
    chi_square: Optional[ChiSquare]


class DiceCounts(Document):
    """`dice`: each side's dice (and all of them) by face and purpose, with a chi-square."""

    schema_version: int
    game_id: str
    seq: int
    reader: str
    mode: Literal["committed", "manual"]
    sides: dict[str, DiceTally]
    all: DiceTally
    unattributed: int


# ---------------------------------------------------------------- area / map

class UnitShown(Part):
    id: str
    side: str
    nation: str
    type: str
    name: Optional[str] | UnsetType = UNSET
    entrenched: bool | UnsetType = UNSET
    strength: Optional[int] | UnsetType = UNSET
    contents: Optional[dict[str, int]] | UnsetType = UNSET
    summary: Optional[str] | UnsetType = UNSET
    oos: bool | UnsetType = UNSET


class Neighbour(Part):
    id: str
    name: str
    control: str


class AreaShown(Part):
    id: str
    name: str
    aliases: list[str]
    kind: str
    country: str
    control: str
    terrain: str
    vp: int
    coastal: bool
    supply_source: Optional[str]
    conditional_supply_source: Optional[str]
    always_supplied: bool
    fort: Optional[FortShown]
    battle: Optional[Literal["compulsory", "declared", "fighting", "fought"]]
    units: list[UnitShown]
    neighbours: list[Neighbour]
    borders: list[str]


class AreaHead(Document):
    schema_version: int
    game_id: str
    game_name: str
    seq: int
    reader: str
    turn: int
    label: str


class AreaView(AreaHead):
    """`area NAME`: one area as the reader may see it."""

    area: AreaShown


class AreaLine(Part):
    id: str
    name: str
    control: str
    vp: int
    terrain: str


class AreaList(AreaHead):
    """`area --list`: every area with its control, VP and terrain."""

    areas: list[AreaLine]


class MapArea(Part):
    id: str
    name: str
    control: str
    battle: bool
    units: list[str]


class MapResult(Document):
    """`map`: the picture written (its path, format and size) and what it shows: each area's
    control, whether it is a Battle Area, and the units the reader may see there."""

    schema_version: int
    file: str
    format: Literal["svg", "png"]
    bytes: int
    game_id: str
    seq: int
    reader: str
    areas: list[MapArea]


# ---------------------------------------------------------------- games / schema / demo

class GameEntry(Part):
    id: str
    readable: bool
    name: Optional[str]
    scenarios: list[str]
    # the side ids `--as` and `--player SIDE=` take: a script learns them here, not from an
    # error's text
    sides: list[str]


class GamesList(Document):
    """`games list`: each game of the games directory (an unreadable one has no name)."""

    schema_version: int
    games: list[GameEntry]


class SheetMade(Document):
    """`sheet new`: the file written, its number of links and the tip to register."""

    schema_version: int
    file: str
    links: int
    tip: str


class GamesCheck(Document):
    """`games check` on sound data (problems are an error object, kind game_data): the
    counts, scenarios and digest, and `notes`, the descriptive lines the text lists."""

    schema_version: int
    directory: str
    name: str
    areas: int
    cards: int
    scenarios: list[str]
    digest: str
    notes: list[str]


class SchemaList(Document):
    """`schema` without a name: the names of the schemas."""

    schema_version: int
    schemas: list[str]


class SchemaDocument(Document):
    """`schema NAME`: the JSON Schema, whole, under `schema`."""

    schema_version: int
    name: str
    schema: dict[str, Any]


class DemoStep(Part):
    side: str
    orders: list[str]
    events: list[str]


class DemoResult(Document):
    """`demo`: the journal and secret written, each batch of orders with the events it
    caused as the side saw them, the Entente's status after (a status-view), what verify
    said."""

    schema_version: int
    journal: str
    secret: str
    steps: list[DemoStep]
    status: dict[str, Any]
    verify: list[str]


class MailRouteShown(Document):
    """`mail`: where the game's mail comes from and goes to, and the address the referee's
    mails come from (null: not set; the moderator's address is used); never a password."""

    schema_version: int
    journal: str
    source: Optional[str]
    target: Optional[str]
    sender: Optional[str]


class GameTick(Part):
    """One game's part of a pass: its route, the new messages it handled (each as `inbox`
    gives it), one log line per action, and what was left undone."""

    journal: str
    game_id: str
    source: Optional[str]
    target: Optional[str]
    messages: list[MessageOutcome]
    log: list[str]
    problems: list[str]
    busy: Optional[str]     # passed over: its lock held by another process (null: not)
    outbox: int             # the mails this pass left in its `outbox:DIR` folder, to send
    # The one of `problems` saying the game goes on only when the moderator acts, and what
    # he may do (null: it does not wait on him)
    waits_on_moderator: Optional[str]
    # The kind of error its problems make, as tick's error object names it: null with
    # none, `moderator` when its one problem is waits_on_moderator, else `transport`
    kind: Optional[str]
    # Why it waits on the moderator, a stable name, and the sides that wait concerns (both
    # null when it does not wait on him)
    waits_on_moderator_code: Optional[WaitCode]
    waits_on_moderator_sides: Optional[list[str]]


class WaitingMail(Document):
    """A message a game of the folder would claim that the pass cannot play (its journal
    cannot be read, or two journals hold it): left where it is, for the next pass."""

    where: str
    game_id: str
    journals: list[str]


class MailboxDown(Part):
    """A mailbox the pass could not read, once for all the games reading it: its route (no
    password), why, the games whose mail waits on it, and its line among `problems` (each
    of those games lists it among its own problems too)."""

    source: str
    why: str
    games: list[str]
    problem: str


class ServerDown(Part):
    """An SMTP server the pass could not send through, once for all the games whose session
    to it failed in the same words: the server (`smtp HOST:PORT`), why, the games whose mail
    stays owed, and its line among `problems` (each of those games lists it among its own
    problems too)."""

    server: str
    why: str
    games: list[str]
    problem: str


class TickResult(Document):
    """`tick`: each game's pass, the places of the messages no game claimed (left for the
    moderator), those waiting for a game not played now, every problem (once each: a
    mailbox that could not be read is one, `mailboxes` naming its games), the games passed
    over while another process held them (`busy`, their mail left for the next pass), the
    redacted exports of the folder passed over (`exports`: no games, no problem); `ok` when
    nothing failed (exit 0), busy games or not."""

    schema_version: int
    ok: bool
    games: list[GameTick]
    unclaimed: list[str]
    waiting: list[WaitingMail]
    problems: list[str]
    busy: list[str]         # the games passed over (locked by another process), a line each
    mailboxes: list[MailboxDown]    # the mailboxes that could not be read, one entry each
    servers: list[ServerDown]       # the SMTP servers that could not be sent through
    exports: list[str]      # the redacted exports of the folder (their paths), passed over


OUTPUTS: dict[str, type[Document]] = {
    "error": ErrorObject,
    "warnings": WarningsOnly,
    "new-game": NewGame,
    "standing-orders": StandingOrders,
    "verify-result": VerifyResult,
    "upgrade-result": UpgradeResult,
    "rekey-result": RekeyResult,
    "handover-result": HandoverResult,
    "reveal-result": RevealResult,
    "repair-result": RepairResult,
    "autoplay-result": AutoplayResult,
    "explanation": Explanation,
    "dice-counts": DiceCounts,
    "area-view": AreaView,
    "area-list": AreaList,
    "map-result": MapResult,
    "games-list": GamesList,
    "games-check": GamesCheck,
    "sheet-made": SheetMade,
    "schema-list": SchemaList,
    "schema-document": SchemaDocument,
    "demo-result": DemoResult,
    "deadlines": Deadlines,
    "mail-route": MailRouteShown,
    "tick-result": TickResult,
}
