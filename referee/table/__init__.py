"""The Table: one game's journal, opened once, through which every command and mail pass goes.

A Table reads the journal's bytes once and checks each record once; it keeps
every position it replays (the game now, the game after a record), the
signed views this user's referee kept for these bytes, and where each
reader's last report ended. Whatever it appends (orders, the moderator's
records) moves it on from the bytes it wrote, without reading the file again:
an append reads the file under its lock, and when those are the bytes the
Table holds, the batch starts from the Table's position.

Only the standard library and the journal's store are imported here, so the
quick paths of `status` and `show` can ask a Table for a kept view; the
rules load the first time a position must be replayed (`start-up`).
"""

from __future__ import annotations

import json
from pathlib import Path

from ..base.errors import JournalError, UsageError, quoted
from ..base.readers import check_reader
from ..store import snapshot
from ..store.journal import Journal, scan
from .kinds import KINDS, GameKind

# Imported for annotations only: the quick paths do without the typing module.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from ..game.batch import Submission
    from ..game.replay import Game, Position


class Table:
    """One game's journal: its bytes and records read and checked once, its positions
    replayed once each, its kept views, its bookmarks, and every append to it."""

    def __init__(self, path: Path | str, games_dir: Path | None = None,
                 contract: Callable[[int, bytes], None] | None = None):
        self.path = Path(path)
        self.games_dir = games_dir
        self.journal = Journal(self.path, contract)
        self._raw: bytes | None = None
        self._records: list[dict] | None = None
        self._games: dict[int | None, Game] = {}
        self._kind: GameKind | None = None
        # What a kind worked out once from the bytes held (its own checks): gone with them.
        self.memo: dict[str, Any] = {}

    @classmethod
    def writing(cls, path: Path | str, games_dir: Path | None = None) -> Table:
        """A Table that may append: every record it writes is held to its kind's contract
        first."""
        table = cls(path, games_dir)
        table.journal.contract = table._keep_contract
        return table

    def _keep_contract(self, seq: int, line: bytes) -> None:
        self.kind.keep_contract(seq, line)

    @property
    def name(self) -> str:
        """The journal's file name, as messages give it."""
        return self.journal.name

    # ------------------------------------------------------------ reading

    @property
    def raw(self) -> bytes:
        """The journal's bytes, read once (under a shared lock: never half an append)."""
        if self._raw is None:
            self._raw = self.journal.raw()
        return self._raw

    def vouched(self) -> bool:
        """Whether this user's referee provably wrote the bytes held (Journal.vouched: False
        for another's game; ForeignGameError for one passed off as his), worked out once."""
        if "vouched" not in self.memo:
            self.memo["vouched"] = self.journal.vouched(self.raw)
        return self.memo["vouched"]

    @property
    def records(self) -> list[dict]:
        """Every record, each checked once (JournalError names the first bad one)."""
        if self._records is None:
            self._records = list(scan(self.raw, self.name))
        return self._records

    def records_of(self, raw: bytes) -> list[dict]:
        """The records of raw (an append's bytes under its lock): the Table's own, checked
        once, when raw is what it holds; else raw's, checked now."""
        if self._raw is not None and raw == self._raw:
            return self.records
        return list(scan(raw, self.name))

    def last_seq(self) -> int:
        """The seq of the journal's last record, unchecked, for a message (-1 when it cannot
        be read)."""
        raw = self.raw
        try:
            seq = json.loads(raw[raw.rfind(b"\n", 0, len(raw) - 1) + 1:]).get("seq")
        except (ValueError, AttributeError, RecursionError):
            return -1
        return seq if isinstance(seq, int) else -1

    def whole(self) -> Table:
        """Check every record now, for a caller that reads them all: the positions it then
        replays are made from these records, and nothing is checked twice."""
        self.records  # noqa: B018 - read for its check
        return self

    def header_line(self, whole: bool = False) -> dict | None:
        """Record 0 as plain JSON, unchecked (None when it cannot be read): for choosing
        what to open, never for a ruling. From the first line alone, unless the bytes are
        read already or `whole` asks for them (a caller that needs them next)."""
        raw = self.raw if whole else self._raw
        first = self.journal.first_line() if raw is None else raw[:raw.find(b"\n") + 1]
        try:
            head = json.loads(first) if first.endswith(b"\n") else None
        except (ValueError, RecursionError):
            return None
        return head if isinstance(head, dict) else None

    @property
    def kind(self) -> GameKind:
        """The kind of game record 0 names (table/kinds.py): what answers every command."""
        if self._kind is None:
            self._kind = kind_of_header(self.header_line(), self.name)
        return self._kind

    def header_hash(self) -> str | None:
        """The hash record 0 gives itself, unchecked (None when it cannot be read): what
        files kept beside a game are bound to."""
        head = self.header_line()
        found = head.get("hash") if head is not None else None
        return found if isinstance(found, str) else None

    def game(self, upto: int | None = None) -> Game:
        """The game now, or as it stood after record upto (UsageError when the journal has
        no such record): replayed once, from this user's snapshot when one fits."""
        if upto is not None and self._games.get(None) is not None and \
                upto == self._games[None].state.seq:
            return self._games[None]
        if upto not in self._games:
            if upto is not None and self._records is None:
                # What vouches for a journal is its last record (vouched), and for the records
                # before it only through the whole chain: a look back checks every record,
                # also where the game now came from a snapshot without reading them.
                self.whole()
            self._games[upto] = self.kind.open(self, upto)
        return self._games[upto]

    def checked_records(self) -> list[dict] | None:
        """The records, when they were checked already (None: not read yet)."""
        return self._records

    def position(self, raw: bytes) -> Position:
        """The position after raw's last record (raw: the journal's bytes under an append's
        lock): the Table's own when raw holds its bytes, else read from raw."""
        held = self._position_for(raw)
        if held is not None:
            return held
        # start-up: the rules load only when a position is replayed
        from ..game.replay import position

        return position(self.journal, raw, self.games_dir)

    def checked_since_read(self) -> None:
        """Read everything again when next asked if the file is no longer the size it was
        when read (another process appended meanwhile): a look at its size, no read."""
        if self._raw is None:
            return
        try:
            size = self.path.stat().st_size
        except OSError:
            size = -1
        if size != len(self._raw):
            self.forget()

    def _position_for(self, raw: bytes) -> Position | None:
        """The position now, as a copy a batch may move on, when raw holds exactly the bytes
        this Table holds (None otherwise: the batch then reads them itself)."""
        if self._raw is None or raw != self._raw or None not in self._games:
            return None
        # start-up: only a batch asks
        from ..game.replay import Position

        now = self._games[None]
        last = self._records[-1] if self._records else None
        if last is None or last["seq"] != now.state.seq:
            return None
        return Position(now.header, now.data, now.state.clone(), now.state.seq, last["hash"],
                        False, 0, now.rules, now.bound, now.walk)

    # ------------------------------------------------------------ views and bookmarks

    def kept_view(self, key: str, bound: str) -> Any | None:
        """The view this user's referee kept for exactly these bytes and this game data
        (signed), or None."""
        return snapshot.load_view(self.path, self.raw, bound, key)

    def keep_view(self, key: str, view: Any, bound: str | None = None) -> None:
        """Keep a view made from these bytes (signed, bound to the game data; none for a
        game whose kind binds no data to its views)."""
        bound = bound if bound is not None else getattr(self.game(), "bound", "")
        if bound:
            snapshot.save_view(self.path, self.raw, bound, key, view)

    def view(self, key: str, make: Callable[..., Any], *args: Any, keep: bool = True) -> Any:
        """The view kept for these bytes under key, else make(*args), kept (with keep
        False: make(*args), neither looked for nor kept)."""
        if not keep:
            return make(*args)
        bound = self.game().bound
        view = self.kept_view(key, bound)
        if view is None:
            view = make(*args)
            self.keep_view(key, view, bound)
        return view

    def last_reported(self, reader: str) -> int:
        """The record the reader's last report ended at (0 if none is known)."""
        from . import bookmarks  # start-up: only a report keeps bookmarks

        hashes = {r["seq"]: r["hash"] for r in self.records}
        return bookmarks.last_reported(self.records[0]["game_id"], reader, hashes)

    def remember_reported(self, reader: str) -> None:
        """Note that the reader's report ended at the journal's last record."""
        from . import bookmarks  # start-up: only a report keeps bookmarks

        head, last = self.records[0], self.records[-1]
        bookmarks.remember_reported(head["hash"], head["game_id"], reader, last["seq"],
                                    last["hash"])

    def report(self, reader: str, since: int | None = None, remember: bool = True,
               keep_views: bool = True, held: bool = False,
               full_most: int | None = None, phone: bool = False,
               ruled=None) -> tuple[Any, dict]:
        """The report for reader (render/reports.py): every record after `since`, by default
        after his last report, whose end is then remembered (an asked-for range is a look
        back, not the news). The views it shows of the game now are kept for a later
        `status` or `show` unless keep_views is False (a mail pass: the journal moves on
        with the next message). held: the reader's mailed orders wait for the moderator's
        dice, so his decision is told without the orders open to him. full_most: the most
        records told in full, the earlier ones in brief (a mail's bound). phone: a mail's
        report, laid out for a phone while sealed plans are asked or revealed. ruled: the
        deadlines past their time as the next pass of tick rules them (Kind.report).
        UsageError for a record the journal does not hold."""
        from ..game import signedreceipt  # start-up: only a report needs it
        from ..game.audit import check_since  # start-up: only a report needs it
        from ..render.reports import build  # start-up: only a report needs it
        from . import showing  # start-up: only a report needs it

        whole, last = self.game(), self.records[-1]["seq"]
        start = self.last_reported(reader) if since is None else since
        check_since(start, last)
        begun = self.game(upto=start)
        check_reader(reader, begun.data.sides)
        views = showing.report_views(self, reader, keep_views, ruled)
        if held:        # his mailed orders wait for the moderator's dice: none asked again
            views = {**views, "status": {**views["status"], "_held": True}}
        doc, meta = build(whole, begun, self.records, reader, views,
                          showing.standing_of(self, reader), self.games_dir, full_most, phone)
        if not self.vouched():      # the key a journal names is vouched for by no one here
            meta["receipt"]["fingerprint"] = None
        # The game key's signature of the receipt, when this referee holds the key and wrote
        # the journal (game/signedreceipt.py): what makes the receipt proof to others.
        blob = signedreceipt.signed(self.records[0], self.records[-1]) if self.vouched() \
            else None
        meta["receipt"].update(signed=blob,
                               signature=signedreceipt.signature_of(blob) if blob else None)
        if remember and since is None:
            self.remember_reported(reader)
        return doc, meta

    # ------------------------------------------------------------ writing

    def submit(self, side: str, texts: list[str], **how: Any) -> Submission:
        """One side's batch of orders (game/batch.py's submit), decided from the position
        this Table holds when the journal has not moved; the Table moves on with it."""
        # start-up: the rules load only for a command that decides
        from ..game.batch import submit

        result = submit(self.path, side, texts, games_dir=self.games_dir,
                        start=self._position_for, **how)
        if result.raw is not None and not how.get("dry_run") and result.applied and \
                all(a.record for a in result.applied):
            self._moved(result.raw, [a.record for a in result.applied], result)
        elif result.raw is not None and result.raw != self._raw:
            self.forget()
        return result

    def append(self, build: Callable[[bytes], tuple[int, str, list[dict]]],
               **how: Any) -> tuple[bytes, list[dict]]:
        """Append what build(raw) returns under the journal's lock (store/journal.py), and
        move on to the bytes written."""
        raw, new = self.journal.append_raw(build, **how)
        self._moved(raw, new)
        return raw, new

    def _moved(self, raw: bytes, new: list[dict], result: Any = None) -> None:
        """The journal held raw when this Table last wrote (new: the records it wrote; result:
        the batch that wrote them). The records written are parsed from the bytes written
        when they follow the bytes held; else the records are checked again when asked."""
        old, records = self._raw, self._records
        before = self._games.get(None)
        self._raw, self._records, self._games, self.memo = raw, None, {}, {}
        if not new and raw == old:          # nothing written, nothing moved
            self._records = records
            if before is not None:
                self._games[None] = before
        elif old is not None and records is not None and new and \
                raw[:len(old)] == old and new[0]["seq"] == records[-1]["seq"] + 1:
            # Exactly the records written follow the bytes held: this Table wrote them.
            self._records = records + [json.loads(line) for line in
                                       raw[len(old):].splitlines()]
        if result is not None and result.state is not None and new:
            self._games[None] = self._after(result)

    def _after(self, result: Any) -> Game:
        """The game after a batch this Table submitted: the batch's own position."""
        # start-up: only after a batch
        from ..game.replay import Game

        game = Game(self.journal, result.data, result.header, result.state, self._raw,
                    result.rules, self._records)
        # The deadlines' walk goes on with it, to the next batch and the snapshot it keeps.
        game.bound, game.walk = result.bound, result.walk
        game.last = result.applied[-1].record["hash"]
        return game

    # ------------------------------------------------------------ the game's life

    @staticmethod
    def create(path: Path | str, scenario: str, games_dir: Path | None = None,
               **how: Any) -> Game:
        """A new game's journal (game/lifecycle.py's create_game: the secret first, then the
        journal, signed by the game's key); returns the game it begins with."""
        from ..game.lifecycle import create_game  # start-up: only new needs it

        return create_game(path, scenario, games_dir=games_dir, **how)

    def verify(self, **how: Any) -> Any:
        """Check the chain and every signature and decide every record again (game/
        verification.py; with the secret, every die too), on the bytes the Table read: what
        a command checks beside it (receipts) is checked on the same."""
        from ..game.verification import verify  # start-up: only verify needs it

        return verify(self.path, games_dir=self.games_dir, raw=self.raw, **how)

    def reveal(self, force: bool = False) -> dict:
        """Publish the dice secret in the journal (the game closes to orders)."""
        from ..game.lifecycle import reveal  # start-up: only reveal needs it

        return self._after_write(reveal(self.path, force, self.games_dir))

    def upgrade(self, signing_key: Path | None = None, adopt: bool = False) -> dict:
        """Move the game on to this referee's rules and data (and adopt an unsigned game)."""
        from ..game.lifecycle import upgrade  # start-up: only upgrade needs it

        return self._after_write(upgrade(self.path, self.games_dir, signing_key, adopt))

    def rekey(self, signing_key: Path | None = None) -> dict:
        """Hand the game to a new key, by a record signed by the key in force."""
        from ..game.lifecycle import rekey  # start-up: only rekey needs it

        return self._after_write(rekey(self.path, signing_key, self.games_dir))

    def register_sheets(self, items: list[str]) -> list[dict]:
        """Register players' dice sheets (SIDE=TIP each), a moderator's record each."""
        from ..game.lifecycle import register_sheets  # start-up: only players --sheet

        return self._after_write(register_sheets(self.path, items, self.games_dir))

    def _after_write(self, written: Any) -> Any:
        """What a write of the game layer returned; the journal is read again when next
        asked (those writes read and append under the journal's own lock)."""
        self.forget()
        return written

    def forget(self) -> None:
        """Read everything again when next asked (the journal moved under this Table)."""
        self._raw, self._records, self._games, self.memo = None, None, {}, {}


# ---------------------------------------------------------------- the kinds

def kind_named(name: str) -> GameKind:
    """The kind of this name (UsageError for one this referee does not know)."""
    if name == "campaign":
        from .campaign import CAMPAIGN  # start-up: a kind loads with its first game

        return CAMPAIGN
    if name == "skirmish":
        from .skirmish.kind import SKIRMISH  # start-up: a kind loads with its first game

        return SKIRMISH
    raise UsageError(f"a game of kind {name!r}: this referee plays the kinds "
                     f"{', '.join(KINDS)}")


def kind_of_header(head: dict | None, name: str = "journal") -> GameKind:
    """The kind record 0 names (the campaign when it names none: the first journals; a head
    that cannot be read is left to the campaign's checks, which say what is wrong).
    JournalError for a kind this referee does not play: the record was written elsewhere
    or edited."""
    named = head.get("game_kind", "campaign") if isinstance(head, dict) else "campaign"
    if named not in KINDS:
        shown = quoted(named, 40) if isinstance(named, str) else json.dumps(named)[:40]
        raise JournalError(f"{name}: record 0 names the kind of game {shown}, which this "
                           f"referee does not play (it plays {', '.join(KINDS)}); the record "
                           f"was edited or written by another program", record=0)
    return kind_named(named)


def game_kind(game: str, games_dir: Path | None = None) -> GameKind:
    """The kind that plays a game of the games directory (its game.yaml says)."""
    from ..data.catalog import kind_of  # start-up: only new, games list and check ask

    return kind_named(kind_of(game, games_dir))


def any_game_data(game: str, games_dir: Path | None = None) -> Any:
    """A game's data, whatever its kind (what `games list` and --version name)."""
    return game_kind(game, games_dir).load(game, games_dir)
