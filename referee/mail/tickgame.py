"""A game as `tick` sees it: its journal, id, route, spool and what claims its mail, read
from its journal (or from the folder's index, gameindex.py), and the journals of a folder."""

from __future__ import annotations

import hashlib
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from ..base.errors import RefereeError, StorageError, UsageError, one_line
from ..base.readers import MODERATOR
from ..store import home
from ..store.journal import Journal, is_redacted_part, placed_parts, scan
from ..store.locks import let_go, open_lock, take
from ..store.mailroute import former_outboxes, mail_route, route_problem
from ..store.players import order_key, roster
from ..store.secrets import load_secret
from ..table import Table
from . import gameindex
from .headeralone import refuse_header_alone
from .leftover import named
from .moderatorwait import wait_code
from .secretgone import secret_gone


@dataclass
class Game:
    """A game as tick sees it: its journal, id, route, spool and the keys that claim mail."""

    journal: Path
    game_id: str
    header_hash: str
    source: str | None
    target: str | None
    keys: list[str]
    addresses: dict[str, str] = field(default_factory=dict)     # side -> address registered
    lines: list[str] = field(default_factory=list)
    messages: list[dict] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    # Its lines that stand from pass to pass and are no problem (`watch` logs them as it
    # does a standing problem: standingproblems.py), each as logged, the game's id first.
    notes: list[str] = field(default_factory=list)
    kind: str = "campaign"      # its GameKind's name
    routed: bool = True         # its kind has a mail route of its own (GameKind features)
    direct: bool = False        # its kind reads each mail whole (GameKind mail "direct")
    # Whether this pass read all of the game's new mail (None: not yet; a game with no
    # source has no mail to read): a deadline is ruled missed only after such a read.
    read: bool | None = None
    former: list[str] = field(default_factory=list)     # outbox folders of earlier routes
    indexed: bool = False       # served by the folder's index, its journal not opened
    printed: list | None = None     # the journal's fingerprint before it was read
    compacted: tuple[str, ...] | None = None    # keys as tick.claimant compares them
    # Its journal's mark ([size, last record's hash]) right after this pass handled its mail,
    # under its lock: what the Maildir files it took are known against (unclaimed.py).
    took: list | None = None
    # Whether this pass gave the game mail it claimed, new or known (a message a pass killed
    # before it was marked read comes again, known: what that pass left undone is done now).
    claimed: bool = False
    busy: str | None = None     # why the pass passed it over: a lock another process held
    shown: int = 0              # its lines told already, as the game was done (passreport)
    outbox: int = 0             # the mails this pass left in its `outbox:DIR` folder
    unsent: str | None = None   # its SMTP session failed as a whole (serverdown.py)
    # The problem saying the game waits on the moderator, and what he may do (wait_on_him);
    # why, as a stable name (moderatorwait.py), and the sides it concerns.
    moderator: str | None = None
    wait_code: str | None = None
    wait_sides: list[str] | None = None

    @property
    def sends(self) -> bool:
        """Whether the referee sends its spool: an `outbox:DIR`'s mails are out once written
        there, for the moderator's mail program."""
        return not (self.target or "").startswith("outbox:")

    @property
    def spool(self) -> Path:
        """Where its owed mails wait: the outbox folder of `outbox:DIR`, else a folder of
        this user's own."""
        if self.target and not self.sends:
            return Path(self.target.removeprefix("outbox:"))
        return home.data_dir("spool", game_tag(self.game_id, self.header_hash))

    def log(self, line: str) -> None:
        self.lines.append(f"{self.game_id}: {line}")

    def note(self, line: str) -> None:
        """A line that stands while its cause does (a deadline no pass can rule missed yet):
        logged by every pass of `tick`, by `watch` as a standing problem is."""
        self.log(line)
        self.notes.append(self.lines[-1])

    def pass_over(self, why: str) -> None:
        """Passed over this pass, its lock held by another process: not a problem, its
        mail left unread for the next pass (and no deadline ruled meanwhile)."""
        self.read = False
        self.busy = f"{why}: passed over, its mail waits for the next pass"
        self.log(f"busy     {self.busy}")

    def fail(self, problem: str) -> None:
        """A problem of the game, told once a pass (the same one met again is not)."""
        if f"{self.game_id}: {problem}" in self.problems:
            return
        self.problems.append(f"{self.game_id}: {problem}")
        self.log(f"problem  {problem}")

    def wait_on_him(self, problem: str) -> None:
        """The game goes on only when the moderator acts: a problem, named as such."""
        self.fail(problem)
        self.moderator = f"{self.game_id}: {problem}"
        self.wait_code, self.wait_sides = wait_code(problem)


def game_tag(game_id: str, header_hash: str) -> str:
    return hashlib.sha256(f"{game_id}/{header_hash}".encode()).hexdigest()[:32]


def journals_in(path: Path) -> list[Path]:
    """The journal named, or every *.jsonl journal of a folder (in name order)."""
    if path.is_dir():
        found = sorted(p for p in path.glob("*.jsonl") if p.is_file())
        if not found:
            raise UsageError(f"{path}: no journal (*.jsonl) in this folder")
        return found
    if not path.is_file():
        raise UsageError(f"{path}: no such journal or folder of journals")
    return [path]


def exported_game(journal: Path) -> str | None:
    """The id of the game a file's bytes are a redacted export of (its chain whole, a secret
    part in it a digest), or None: a game's own journal, or no sound chain at all. Read as
    bytes alone, whoever signed its last record: an export made before the game's last
    records is an older copy of its chain, which a read of the game refuses as cut back.
    The bytes cannot tell an export from a game's journal made to look like one: what the
    referee knows of the file does (folderexports.py)."""
    try:
        with Journal(journal).shared() as raw:
            records = list(scan(raw, journal.name))
    except (RefereeError, OSError):
        return None
    if any(is_redacted_part(p) for rec in records for p in placed_parts(rec)):
        game = records[0].get("game_id")
        return game if isinstance(game, str) else None
    return None


def load_game(journal: Path, games_dir: Path | None) -> Game:
    """A game's route and the order keys that claim its mail (UsageError when its route is
    not one the referee would write: a forged record is played no further than verify
    would let it). A game whose kind has no mail route of its own is passed over."""
    printed = gameindex.fingerprint(journal)      # before the journal is read
    table = Table(journal, games_dir).whole()
    head = table.records[0]
    if "route" not in table.kind.features:
        return Game(journal, head["game_id"], head["hash"], None, None, [],
                    kind=table.kind.name, routed=False)
    refuse_header_alone(table)          # no set-up record: a problem, its mail left unread
    route = mail_route(table.records)
    wrong = route_problem(route)
    if wrong is not None:
        raise UsageError(f"the mail route in force is not one the referee writes ({wrong}); "
                         f"`referee verify {named(journal)}` names the record")
    keys, addresses = _claims(table)
    game = Game(journal, head["game_id"], head["hash"], route["source"], route["target"],
                keys, addresses, kind=table.kind.name, direct=table.kind.mail == "direct",
                former=former_outboxes(table.records), printed=printed)
    gone = secret_gone(table) if not game.direct else None   # a direct kind's keys raise
    if gone is not None:
        game.fail(gone)
    return game


def _claims(table: Table) -> tuple[list[str], dict[str, str]]:
    """The order keys that claim a game's mail, and its sides' addresses. A game whose kind
    reads its mail directly asks the kind (its moderator orders by mail too)."""
    if table.kind.mail == "direct":
        people = table.kind.players(table)
        return list(table.kind.order_keys(table).values()), \
            {s: a for s, a in people.items() if s != MODERATOR}
    game = table.game()
    secret = load_secret(game.journal.path, game.header)
    keys = []
    people = roster(table.records)
    if secret is not None:
        keys = [order_key(secret, game.game_id, side, p.get("key_no") or 0)
                for side, p in people.items() if side != MODERATOR]
    addresses = {side: str(p.get("address", "")) for side, p in people.items()
                 if side != MODERATOR}
    return keys, addresses


@contextmanager
def game_lock(x: Game):
    """One tick at a time per game: a second one waits for the first (within a pass, a
    few seconds at most: locks.BusyError)."""
    path = home.data_dir("locks") / f"{game_tag(x.game_id, x.header_hash)}.lock"
    try:
        fd = open_lock(home.ensure_dir(path.parent) / path.name)
    except OSError as exc:
        raise StorageError(f"{path}: game {one_line(x.game_id)}'s lock cannot be taken "
                           f"({exc.strerror}); nothing was handled") from None
    try:
        try:
            take(fd, True, f"game {one_line(x.game_id)}'s lock")
        except OSError as exc:          # no lock kept there (BusyError is the pass's)
            raise StorageError(f"{path}: game {one_line(x.game_id)}'s lock cannot be taken "
                               f"({exc.strerror}); nothing was handled") from None
        yield
    finally:
        let_go(fd)
