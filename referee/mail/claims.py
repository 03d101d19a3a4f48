"""Which game each message a pass found belongs to, and each game's messages kept on disk
until its inbox reads them (tick.py). A message's bytes are dropped once it is claimed: a
pass holds the bytes of one message at a time (of the others, their places and digests),
however much mail its source holds (a flood of strangers' mail, or of mail naming a game's
tag); what the pass does with each message is what it would do holding them all.

A message goes to the game its subject tag (`[referee GAMEID]`, or an earlier version's
`[referee GAMEID #N]`) names, its case ignored unless two games' ids differ in case alone
(a tag naming a game not reading this mailbox claims it for none; tags naming several
games, to the one of them whose order key for its sender's side it carries, severaltags.py),
else to the one game whose order key it carries, else to the one game one of whose sides
registered its From (from such an address in several games: answered once, strays.py); one
over the size limit is kept aside with its header (tick answers a player's).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from ..base.addresses import address_key
from ..base.gameids import REFEREE_TAG
from ..store import home
from ..store.players import compact
from . import message as mailtext
from .delivery import Fetched
from .headers import header_block
from .robots import automatic_headers, thread_games
from .severaltags import keyed, taking
from .strays import sender_games, stray
from .tickgame import Game

SWEEP_AFTER = 3600.0        # seconds: a private folder a killed pass left behind
IN_USE = "in-use"           # the lock file of a private folder, held while a pass uses it


def claimant(raw: bytes, games: list[Game]) -> Game | None:
    """The game a message belongs to (claim)."""
    return claim(raw, games)[0]


def claim(raw: bytes, games: list[Game]) -> tuple[Game | None, bool]:
    """The game a message belongs to: the one its subject tag names (tags naming several:
    the one of them whose order key for its sender's side it carries), else the one game
    whose order key it carries, else (an automatic one) the one game whose mail thread it
    refers to, or (any other) the one game one of whose sides registered its From; None
    when no game, or more than one, claims it. And whether its tags named several."""
    try:
        msg = mailtext.parse_message(raw)
        subject = mailtext.header_text(msg, "Subject")
    except Exception:  # noqa: BLE001 - the email package raises many kinds on hostile mail
        return _unreadable_claimant(raw, games), False
    named = tagged(subject, games)
    if named is not None and len(named) < 2:
        return (named[0] if named else None), False
    try:
        text = compact(raw.decode("utf-8", "replace") + mailtext.plain_body(msg))
    except (mailtext.MailError, RecursionError, LookupError, ValueError):
        text = compact(raw.decode("utf-8", "replace"))
    if named is not None:
        owners = keyed(named, address_key(mailtext.sender_address(msg)), text)
        return (owners[0] if len(owners) == 1 else None), True
    owners = _by_key(text, games)
    if not owners and automatic_headers(msg) is not None:
        # A bounce returning only the headers of the referee's mail: the game whose thread
        # they refer to (robots.py), so that the game's moderator hears of it.
        named = thread_games(raw)
        owners = [x for x in games if x.game_id in named]
    elif not owners:                # a player's fresh mail: his game's (strays.py)
        owners = sender_games(msg, games)
    return (owners[0] if len(owners) == 1 else None), False


def _unreadable_claimant(raw: bytes, games: list[Game]) -> Game | None:
    """The game a message that cannot be read whole belongs to (past the bounds of parts,
    lines or nesting, or broken): the one its header block's tag names, else the one game
    whose order key its bytes carry; its inbox then answers, as `inbox` does, that the
    message cannot be read. None when neither says one game (tags naming several: its
    sender and key cannot be read to choose)."""
    try:
        head = header_block(raw[:65536])
        named = tagged(mailtext.header_text(head, "Subject"), games)
    except Exception:  # noqa: BLE001 - a header block nothing can read: no tag
        named = None
    if named is None:
        named = _by_key(compact(raw.decode("utf-8", "replace")), games)
    return named[0] if len(named) == 1 else None


def tagged(subject: str, games: list[Game]) -> list[Game] | None:
    """None when the subject has no referee tag; else the games its tags name, each once
    (empty when one of them names none of the games): the one spelt as a tag is, else the
    one whose id differs from it in case alone, as inbox and the stale check ignore case (a
    mail program, or a player, may change it). When several differ from it in case alone
    (`referee new` allows `alpha` beside `Alpha`), it names none: no game reads another's
    mail."""
    named: list[Game] = []
    for tag in REFEREE_TAG.finditer(subject):
        exact = [x for x in games if x.game_id == tag.group(1)]
        folded = [x for x in games if x.game_id.casefold() == tag.group(1).casefold()]
        found = exact or (folded if len(folded) == 1 else [])
        if not found:
            return []
        named += [x for x in found if x not in named]
    return named if named else None


def _by_key(text: str, games: list[Game]) -> list[Game]:
    """The games one of whose order keys text (compacted) carries."""
    return [x for x in games if any(k in text for k in _compacted(x))]


def _compacted(game: Game) -> tuple[str, ...]:
    """A game's order keys as claimant compares them, worked out once a pass (a pass over a
    thousand games compares each message with every key)."""
    if game.compacted is None:
        game.compacted = tuple(compact(k) for k in game.keys)
    return game.compacted


@dataclass
class Spool:
    """One game's claimed messages: the Maildir holding them (new/000000.eml and on, in
    the order found; in the pass's private folder, Claims.private) and each as found, its
    bytes dropped; problem: they could not all be kept (the game's mail is then unread this
    pass, read again on the next)."""

    folder: Path | None = None
    messages: list[Fetched] = field(default_factory=list)
    problem: str | None = None

    def place(self, i: int) -> Path:
        return self.folder / "new" / message_name(i) if self.folder else Path()


@dataclass
class Claims:
    """The messages of one source as the games claimed them; those over the size limit and
    those no game claimed with their places in the order found."""

    spools: dict[str, Spool] = field(default_factory=dict)
    oversize: list[tuple[int, Fetched]] = field(default_factory=list)
    # From a side's address in several games: each with what answers it (strays.py).
    aside: list[tuple[int, Fetched, Callable]] = field(default_factory=list)
    unclaimed: list[tuple[int, Fetched]] = field(default_factory=list)
    # A game the pass cannot play would claim it (withheld.py): each with that game's.
    held: list[tuple[object, Fetched]] = field(default_factory=list)
    withheld: list = field(default_factory=list)
    games: list[Game] = field(default_factory=list)     # those the pass plays
    # The games of the user's other folders reading the source (otherfolders.py), and the
    # messages one of them would claim: left for their folder's pass, never unclaimed.
    elsewhere: list[Game] = field(default_factory=list)
    theirs: list[Fetched] = field(default_factory=list)
    # The pass's private folder holding each game's Maildir, and its lock, held while the
    # pass uses it (no other pass's sweep removes it): one for all the games of the
    # source, made when the first message is kept, removed whole at the end.
    private: Path | None = None
    lock: IO[str] | None = None

    def hold(self, f: Fetched) -> bool:
        """Whether a game the pass cannot play would claim f, or is one of several games of
        the folder its tags name (held for it, then); or a game of another folder would
        (left for that folder's pass)."""
        waits = _unplayable_claimant(f.raw, self.withheld) or \
            _named_unplayable(f.raw, self.games, self.withheld)
        if waits is not None:
            self.held.append((waits, _without_bytes(f)))
        elif any(claimant(f.raw, [x]) is x for x in self.elsewhere):
            self.theirs.append(_without_bytes(f))
            return True
        return waits is not None

    def keep(self, x: Game, f: Fetched) -> None:
        """f onto x's spool, on disk."""
        spool = self.spools.setdefault(x.game_id, Spool())
        if spool.problem is None:
            try:
                if spool.folder is None:
                    spool.folder = self._maildir(len(self.spools))
                home.write_new(spool.place(len(spool.messages)), f.raw, sync=False)
            except OSError as exc:
                spool.problem = f"its mail cannot be kept for it to read " \
                                f"({exc.strerror or exc}); the next pass reads it again"
        spool.messages.append(_without_bytes(f))

    def _maildir(self, n: int) -> Path:
        """The n-th game's Maildir (new/ alone) in the pass's private folder."""
        if self.private is None:
            self.private, self.lock = _private_folder()
        folder = self.private / f"{n:06d}"
        folder.mkdir(mode=0o700)
        (folder / "new").mkdir(mode=0o700)
        return folder


@contextmanager
def claimed(found: Iterable[Fetched], games: list[Game], withheld: list = (),
            elsewhere: list[Game] = ()) -> Iterator[Claims]:
    """The messages found, each claimed as it comes (its bytes dropped then); the pass's
    private folder, with the games' Maildirs in it, removed afterwards. withheld: the games
    of the source that the pass cannot play (withheld.py), whose messages are held, neither
    taken nor unclaimed; elsewhere: those of the user's other folders, whose messages are
    left for them."""
    claims = Claims(withheld=list(withheld), games=list(games), elsewhere=list(elsewhere))
    try:
        with taking() as taken:
            _claim_each(found, games, claims, taken)
            yield claims
    finally:
        if claims.lock is not None:
            claims.lock.close()
        if claims.private is not None:
            shutil.rmtree(claims.private, ignore_errors=True)


def _claim_each(found: Iterable[Fetched], games: list[Game], claims: Claims,
                taken: dict[str, str]) -> None:
    """Each message found into claims as it comes; one that tags naming several games gave
    to one of them noted in taken (severaltags.py: its inbox reads it as its own)."""
    for i, f in enumerate(found):
        if f.oversize:
            claims.oversize.append((i, f))      # its header only
            continue
        owner, several = claim(f.raw, games)
        if owner is not None and several:
            taken[hashlib.sha256(f.raw).hexdigest()] = owner.game_id
        aside = stray(f, games) if owner is None else None
        if aside is not None:
            claims.aside.append((i, *aside))
        elif owner is None:
            if not claims.hold(f):
                claims.unclaimed.append((i, _without_bytes(f)))
        else:
            claims.keep(owner, f)


def _unplayable_claimant(raw: bytes, withheld: list):
    """The first unplayable game that, alone, would claim the message (twins each as their
    journal says), or None."""
    return next((w for w in withheld for x in w.games if claimant(raw, [x]) is x), None)


def _named_unplayable(raw: bytes, games: list[Game], withheld: list):
    """The first unplayable game among the several games of the folder that the message's
    tags name, or None: a later pass that can play it may give the message to any of them
    by its key (severaltags.py), so it is not unclaimed meanwhile."""
    unplayable = [x for w in withheld for x in w.games]
    if not unplayable:
        return None
    try:
        subject = mailtext.header_text(header_block(raw[:65536]), "Subject")
    except Exception:  # noqa: BLE001 - a header block nothing can read: no tag
        return None
    named = tagged(subject, [*games, *unplayable]) or []
    if len(named) < 2:
        return None
    return next((w for w in withheld if any(x is y for x in w.games for y in named)), None)


def message_name(i: int) -> str:
    return f"{i:06d}.eml"


def _without_bytes(f: Fetched) -> Fetched:
    return Fetched(f.where, b"", f.uid, f.oversize)


def _private_folder() -> tuple[Path, IO[str]]:
    """A new private folder under this user's `incoming` folder, and its lock, held: those
    a killed pass left there over an hour ago, whose lock no one holds, are removed (their
    messages are still in the source, unread)."""
    import portalocker

    base = home.ensure_dir(home.data_dir("incoming"))
    _sweep(base)
    folder = Path(tempfile.mkdtemp(dir=base))
    lock = open(folder / IN_USE, "x")
    portalocker.lock(lock, portalocker.LOCK_EX)
    return folder, lock


def _sweep(base: Path, older_than: float = SWEEP_AFTER) -> None:
    limit = time.time() - older_than
    for entry in base.iterdir():
        try:
            if entry.is_dir() and entry.stat().st_mtime < limit and not _in_use(entry):
                shutil.rmtree(entry, ignore_errors=True)
        except OSError:
            pass


def _in_use(folder: Path) -> bool:
    """Whether a pass still holds the lock of a private folder (one without a lock file
    is a killed pass's, made before its lock was taken: it is that old). OSError when the
    lock file cannot be opened (a link, say): the folder is then left alone."""
    import portalocker

    try:        # never through a link, never waiting on a FIFO put in its place
        fd = os.open(folder / IN_USE, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except FileNotFoundError:
        return False
    with os.fdopen(fd) as fh:
        try:
            portalocker.lock(fh, portalocker.LOCK_EX | portalocker.LOCK_NB)
        except portalocker.LockException:
            return True
        portalocker.unlock(fh)
        return False
