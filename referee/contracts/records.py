"""Journal records: the header (record 0) and every record after it, with the secret parts' data.

The chain of hashes proves a file intact, not who wrote it: anybody can write
a journal whose hashes check. Every record is therefore validated against
these shapes: before it is appended, when it is replayed from a journal this
referee did not sign, and when `verify` audits a journal.
"""

from typing import Annotated, Literal

from msgspec import Meta

from ..base.clock import ZONE_MOST, ZONE_PATTERN
from .base import Contract
from .events import Event
from .events_base import Secret
from .names import GAME_NAME_PATTERN
from .scenariomodels import Scenario

Die = Annotated[int, Meta(ge=1, le=6)]
Hex64 = Annotated[str, Meta(pattern=r"^[0-9a-f]{64}\Z")]


class DiceCommitment(Contract):
    mode: Literal["committed", "manual"]
    commitment: Hex64


Fingerprint = Annotated[str, Meta(pattern=r"^[0-9A-HJKMNP-TV-Z]{16}\Z")]
# A record's signature: the fingerprint of the key that signed it, a dot, and the Ed25519
# signature of its hash, base64url without padding (store/signing.py). Its form is checked
# with the signature itself (store/authorship.py), so reading a record pays only for a
# length bound here.
Signature = Annotated[str, Meta(min_length=103, max_length=103)]


class Signing(Contract):
    """A game's signing key as a header, an adoption or a key change names it: its public
    half (32 bytes, base64url without padding) and fingerprint."""

    alg: Literal["ed25519"]
    public: Annotated[str, Meta(pattern=r"^[A-Za-z0-9_-]{43}\Z")]
    fingerprint: Fingerprint


# How a side's order came: by the side's own mail (the message's digest is in the record's
# `mail` part, for the moderator's eyes), by hand at the referee (`order --as`), as the
# referee's default when a deadline passed (deadlines), or given by the referee when the
# only order open closed the decision (game/forced.py).
OrderSource = Literal["mail", "hand", "deadline", "referee"]


class JournalHeader(Contract):
    """Record 0 of a journal."""

    seq: Literal[0]
    kind: Literal["header"]
    prev: None
    hash: str
    schema_version: int
    game_id: Annotated[str, Meta(min_length=1, max_length=200)]
    game: Annotated[str, Meta(pattern=GAME_NAME_PATTERN)]
    game_name: str
    data_digest: str
    engine_version: str
    rules_version: Annotated[int, Meta(ge=1)] = 1    # absent: before versions were kept
    scenario: str
    scenario_data: Scenario
    options: dict[str, bool]
    dice: DiceCommitment
    created_at: str
    signing: Signing | None = None      # absent: a game begun before journals were signed
    sig: Signature | None = None


class SheetTip(Contract):
    """A player's dice sheet registered for his side: its tip (store/sheets.py)."""

    side: str
    tip: Hex64


class SheetLink(Contract):
    """A link of a side's dice sheet: its number (the tip is 0) and value."""

    side: str
    no: Annotated[int, Meta(ge=0)]
    value: Hex64


# A record's dice stream under rules 8 and later: its side, and the side's count of records
# with a dice_from, this one included; or a phase of sealed plans given at once, and its turn.
Stream = Annotated[str, Meta(pattern=r"^(plans-)?[a-z][a-z0-9_]{0,31}\.[1-9][0-9]{0,8}\Z")]


class DiceSource(Contract):
    """What a record's dice and draws mix in besides the secret, and what keys them: its
    side's latest revealed link, or the SHA-256 of the order lines of the mail it came in (a
    side without a sheet), and the stream ("german.4") that keys its dice in place of its
    number (rules 8 on); a record of sealed plans given at once, each side's plan link,
    keyed by the phase ("plans-production.5"). Rules 7 mixed in the latest link of every
    side, older rules a tip too, and kept the record's number."""

    links: list[SheetLink] = []
    mail: Hex64 | None = None
    stream: Stream | None = None


Duration = Annotated[str, Meta(pattern=r"^[0-9]{1,5}h([0-9]{1,2}m)?\Z|^[0-9]{1,2}m\Z")]
Stamp = Annotated[str, Meta(pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z\Z")]
# Stamp's form with each digit as 0 (stamps_in_form).
STAMP_FORM = b"0000-00-00T00:00:00Z"
_DIGITS_AS_0 = bytes.maketrans(b"123456789", b"000000000")


def stamps_in_form(stamps: list[str]) -> bool:
    """Whether each of the stamps is of Stamp's form, for them all at once: their lines, each
    digit made 0, are STAMP_FORM's (so no stamp holds an end of line): a regular expression
    run on each of a cold read's 3,300 records costs about a fortieth of it."""
    try:
        lines = "\n".join(stamps).encode("ascii")
    except UnicodeEncodeError:
        return False
    return lines.translate(_DIGITS_AS_0) == b"\n".join([STAMP_FORM] * len(stamps))


# The reminders a deadline may have (`deadline --reminders`).
MOST_REMINDERS = 10

class ClockFact(Contract):
    """A fact about the game's time (game/timeline.py): the deadline settings, a deadline
    extended, a reminder sent, a deadline missed, the game paused or resumed.

    `settings`: the duration of a hand-off's deadline (`deadline`; for one decision kind only
    with `decision`), the reminders before it, the missed-order policy, the extensions each
    side may ask for, whether a deadline skips the weekend and the game's time zone (`zone`,
    an IANA name like Europe/Paris: the weekend and every time shown are read there; UTC
    when no record names one); an absent member keeps the value before. `extend`: `side`'s
    deadline for the hand-off made by record `handoff` is `by` later. `reminded`: `side`
    was reminded `before` its deadline `due` (of `handoff`). `missed`: `side` let its
    deadline `due` pass; the policy `missed` was applied (with `default`, the record also
    holds the answer the referee gave for him, rule `rule`). `pause`, `resume`: no deadline
    runs while the game is paused; a resumed hand-off's deadline counts from the resume.
    `hold` (an `extend` of the moderator's only): the extension gives back time a player
    lost through no fault of his: his mailed orders held for the moderator's dice
    (mail/holdtime.py), or the mail asking his decision not yet gone out when the deadline
    came (mail/unasked.py); named by a digest that tells nothing of it, so that it is given
    back once. `given` (with `hold`): why the referee gave it, `held` or `unasked`, as its
    heading says (an older record has none: the time given back)."""

    kind: Literal["settings", "extend", "reminded", "missed", "pause", "resume"]
    deadline: Duration | None = None
    decision: Annotated[str, Meta(pattern=r"^[a-z_]{1,40}\Z")] | None = None
    reminders: Annotated[list[Duration], Meta(max_length=MOST_REMINDERS)] | None = None
    missed: Literal["default", "wait", "pause"] | None = None
    extensions: Annotated[int, Meta(ge=0, le=100)] | None = None
    skip_weekends: bool | None = None
    zone: Annotated[str, Meta(pattern=ZONE_PATTERN, max_length=ZONE_MOST)] | None = None
    side: Annotated[str, Meta(min_length=1, max_length=32)] | None = None
    handoff: Annotated[int, Meta(ge=1)] | None = None
    by: Duration | None = None
    before: Duration | None = None
    due: Stamp | None = None
    rule: Annotated[str, Meta(max_length=40)] | None = None
    hold: Annotated[str, Meta(pattern=r"^[0-9a-f]{16}\Z")] | None = None
    given: Literal["held", "unasked"] | None = None


class JournalRecord(Contract):
    """Every record after the header: one accepted order and its events."""

    seq: int
    prev: str
    hash: str
    at: Stamp                           # as the referee writes it: ISO 8601, UTC, seconds, Z
    # A side of the game or the moderator: apply_record checks it against the game's sides
    # (a length bound here, not a pattern, costs nothing per record).
    actor: Annotated[str, Meta(min_length=1, max_length=32)]
    order: str
    events: list[Event]
    dice: list[Die] = []
    private_order: Secret | None = None
    mail: Secret | None = None          # the message the order came in (moderator only)
    players: Secret | None = None       # a roster record: addresses, key digests (moderator)
    mail_route: Secret | None = None    # a mail route record: MailRoute (moderator)
    standing: Secret | None = None      # the actor's standing orders (his eyes only)
    sheet: SheetTip | None = None       # a dice sheet registered (order "register dice sheet")
    link: SheetLink | None = None       # the link of the actor's dice sheet it reveals
    dice_from: DiceSource | None = None     # what its dice mix in besides the secret
    clock: ClockFact | None = None      # a fact about the game's time (deadlines)
    by: OrderSource | None = None       # how a side's order came (absent: older records)
    signing: Signing | None = None      # an adoption or a key change: the key from here on
    sig: Signature | None = None        # absent: a record from before the game was signed


class BatchedRecord(JournalRecord):
    """A record as a cold read takes a batch of them straight into their class: its time
    read as text, then the times of the whole batch checked against Stamp's form at once
    (stamps_in_form), not by Stamp's regular expression each."""

    at: str
