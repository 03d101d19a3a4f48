"""The messages of a mail source that no game claims: which ones an IMAP folder held unread
at the last pass (so a pass does not read them again), which ones it held for a game the
pass could not play (withheld.py: not read again while that game stays unplayable), which
files of a Maildir a pass dealt with (a game took them, or none claimed them: known_files),
and which ones the moderator has been told of (so a pass tells him once per message, not at
every pass). All are kept in this user's data folder, signed like the ledgers: a lost or
planted file only repeats a read or a line."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ..store import home
from ..store.locks import BusyError, let_go, open_lock, take
from . import gameindex
from .tickgame import game_tag

# Places told of at the most, each kept as a short digest: past it, the oldest are
# forgotten and told again (a mailbox holding more unclaimed mail than this).
MOST_TOLD = 100_000


def _path(source: str, what: str = "") -> Path:
    tag = hashlib.sha256(source.encode()).hexdigest()[:32]
    return home.data_dir("mailboxes") / f"{tag}{what}"


def _kept(source: str, uidvalidity: str, readers: str) -> dict:
    """What this user's referee kept of an IMAP folder at the last pass; nothing when the
    folder's UIDs were renumbered or the games reading it are not the same (a message no
    game claimed, or held, may be claimed now)."""
    kept = home.read_signed(_path(source))
    if not isinstance(kept, dict) or kept.get("source") != source or not uidvalidity or \
            kept.get("uidvalidity") != uidvalidity or kept.get("readers") != readers:
        return {}
    return kept


def readers_of(group: list) -> str:
    """What decides which game claims a message: the games reading the folder, with their
    tags and keys. When it changes (a game added, a copy moved away, a new key), a message
    no game claimed before may be claimed now."""
    said = sorted(f"{x.game_id}/{x.header_hash}/{','.join(sorted(x.keys))}/"
                  f"{','.join(sorted(x.addresses.values()))}" for x in group)
    return hashlib.sha256("\n".join(said).encode()).hexdigest()


def unclaimed_before(source: str, uidvalidity: str, readers: str) -> dict[str, str]:
    """The messages of this folder that no game claimed in an earlier pass (UID -> place),
    as this user's referee kept them (_kept)."""
    found = _kept(source, uidvalidity, readers).get("unclaimed")
    return {k: v for k, v in found.items() if isinstance(v, str)} if isinstance(found, dict) \
        else {}


def held_before(source: str, uidvalidity: str, readers: str) -> dict[str, dict]:
    """The messages of this folder an earlier pass held for a game it could not play
    (UID -> {"where": its place, "tags": that game's tags}), as this user's referee kept
    them (_kept)."""
    found = _kept(source, uidvalidity, readers).get("held")
    return {k: v for k, v in found.items() if isinstance(v, dict) and
            isinstance(v.get("where"), str) and isinstance(v.get("tags"), list)} \
        if isinstance(found, dict) else {}


def keep_unclaimed(source: str, folder, readers: str, before: dict[str, str],
                   now: dict[str, str], held: tuple[dict, dict] = ({}, {})) -> None:
    """Remember the unclaimed messages still unread on the server, and those held (held:
    as they were kept before, and as they are now; best effort: without it they are only
    read again)."""
    unseen = set(folder.unseen_uids)
    kept = {uid: where for uid, where in {**before, **now}.items() if uid in unseen}
    waiting = {uid: entry for uid, entry in held[1].items() if uid in unseen}
    if kept == before and not now and waiting == held[0]:
        return
    try:
        home.keep_signed(_path(source), {"source": source, "unclaimed": kept,
                                         "held": waiting,
                                         "uidvalidity": folder.uidvalidity,
                                         "readers": readers})
    except OSError:
        pass


def not_told(source: str, places: list[str], known_as: list[str] | None = None,
             whole: bool = True, since: int | None = None) -> list[str] | None:
    """Of the unclaimed messages of a source (their places, as a pass names them), those the
    moderator has not been told of by an earlier pass; the ones told of are then these, and
    a message gone from the source is forgotten. known_as: what tells each message from
    another at the same place, where a place is only a position (an mbox's #N); by default
    its place. whole: whether the pass saw every message of the source; one that left some
    unread (an IMAP folder's reading budget, its unclaimed mail read again because the
    games reading it changed) forgets none: those it did not read are still there. since:
    the memory's mark (told_mark) from before the pass listed the source; a message told
    after it (by a pass beside this one, of mail that came after this pass listed the
    source) is not known to be gone, and is kept; by default the source was listed now.
    Read, decided and written back under the memory's lock, so that two passes at once
    (a cron `tick` beside `watch`) neither both tell a message nor drop what the other
    recorded. None when another pass holds it for longer than this one waits (locks.py):
    this pass tells none of them, the next one does."""
    try:
        with _told_lock(source):
            return _not_told(source, places, known_as, whole, since)
    except BusyError:
        return None


def told_mark(source: str) -> int:
    """The mark of a source's told memory now: a pass takes it before it lists the source,
    and gives it to not_told (since)."""
    return _told_kept(source)[0]


@contextmanager
def _told_lock(source: str) -> Iterator[None]:
    """The lock of a source's told memory, held (none when its file cannot be opened or
    locked at all, a link or a FIFO put in its place among them (locks.open_lock): the
    memory cannot be written either, or no lock is kept there; each pass then decides
    alone, as before there was a lock)."""
    path = _path(source, ".told.lock")
    try:
        fd: int | None = open_lock(home.ensure_dir(path.parent) / path.name)
    except OSError:
        fd = None
    try:
        if fd is not None:
            try:
                take(fd, True, "the memory of unclaimed mail told")
            except OSError:
                pass                    # no lock kept there: this pass decides alone
        yield
    finally:
        if fd is not None:
            let_go(fd)


def _told_kept(source: str) -> tuple[int, dict[str, int]]:
    """A source's told memory: how many times it was written, and each message told of (its
    digest, oldest first) with the count it was written at then (0 when not kept)."""
    kept = home.read_signed(_path(source, ".told"))
    if not isinstance(kept, dict) or kept.get("source") != source:
        return 0, {}
    told, at, count = kept.get("told"), kept.get("at"), kept.get("count")
    digests = [d for d in told if isinstance(d, str)] if isinstance(told, list) else []
    marks = [n if isinstance(n, int) else 0 for n in at] \
        if isinstance(at, list) and len(at) == len(digests) else [0] * len(digests)
    return count if isinstance(count, int) else 0, dict(zip(digests, marks))


def _not_told(source: str, places: list[str], known_as: list[str] | None,
              whole: bool, since: int | None) -> list[str]:
    count, before = _told_kept(source)
    since = count if since is None else since
    now = [_told_digest(p) for p in (places if known_as is None else known_as)]
    fresh = [p for p, d in zip(places, now) if d not in before]
    listed = set(now)
    after = {d: n for d, n in before.items() if d in listed or n > since or not whole}
    after.update((d, count + 1) for d in dict.fromkeys(now) if d not in after)
    if fresh or set(after) != set(before):
        told = list(after.items())[-MOST_TOLD:]
        try:
            home.write_signed(_path(source, ".told"), {
                "source": source, "count": count + 1, "told": [d for d, _ in told],
                "at": [n for _, n in told]})
        except OSError:
            pass
    return fresh


def told_now(pending: list[tuple[str, tuple]]) -> tuple[list[str], int]:
    """For each source with its unclaimed messages (source, not_told's other arguments),
    those to tell the moderator of now; and how many unclaimed messages are neither told
    now nor known as told before (their source's memory held by another pass: the next
    pass tells them)."""
    fresh: list[str] = []
    later = 0
    for source, told in pending:
        found = not_told(source, *told)
        if found is None:
            later += len(told[0])
        else:
            fresh += found
    return fresh, later


def _told_digest(place: str) -> str:
    return hashlib.sha256(place.encode("utf-8", "surrogatepass")).hexdigest()[:20]


def known_files(source: str, readers: str) -> tuple[dict[str, dict], dict[str, tuple]]:
    """The files of a Maildir that earlier passes dealt with: those each game took (by game
    tag: {"mark": its journal's [size, last record's hash] then, "files": {place: print}}),
    and, while the games reading the Maildir are the same, those no game claimed ({place:
    (print, how the pass named it)}). Nothing when this user's referee kept nothing for
    this source; tick judges whether each game still holds what it took."""
    kept = home.read_signed(_path(source, ".files"))
    if not isinstance(kept, dict) or kept.get("source") != source:
        return {}, {}
    took = kept.get("taken")
    taken = {k: v for k, v in took.items() if isinstance(v, dict)} \
        if isinstance(took, dict) else {}
    shown: dict[str, tuple] = {}
    left = kept.get("unclaimed")
    if kept.get("readers") == readers and isinstance(left, dict):
        for place, held in left.items():
            if isinstance(held, dict) and isinstance(held.get("print"), list) and \
                    isinstance(held.get("shown"), str):
                shown[place] = (held["print"], held["shown"])
    return taken, shown


def keep_known_files(source: str, readers: str, taken: dict[str, dict],
                     unclaimed: dict[str, tuple[list, str]]) -> None:
    """Remember a Maildir's files a pass dealt with (known_files' forms; best effort:
    without it they are only read again, and the ledgers still answer each once)."""
    home.write_signed(_path(source, ".files"), {
        "source": source, "readers": readers, "taken": taken,
        "unclaimed": {place: {"print": printed, "shown": shown}
                      for place, (printed, shown) in unclaimed.items()}})


def still_held(took: dict[str, dict], group: list) -> dict[str, tuple[list, dict]]:
    """Of the files each game took in earlier passes (by game tag: the mark of its journal
    then, [size, last record's hash], and the files), those of the games of this source
    whose journal still holds what it held then, with its mark now."""
    out = {}
    games = {game_tag(x.game_id, x.header_hash): x for x in group}
    for tag, entry in took.items():
        x = games.get(tag)
        then, files = entry.get("mark"), entry.get("files")
        now = gameindex.mark_of(x.printed) if x is not None else None
        if now is None or not isinstance(files, dict) or not isinstance(then, list) or \
                len(then) != 2:
            continue
        if now == then or gameindex.holds(x.journal, *then):
            out[tag] = (now, files)
    return out


def gone_games(took: dict[str, dict], tags: set[str], withheld: list
               ) -> dict[str, tuple[list, dict]]:
    """Of the files each game took in earlier passes, those of the games no folder of this
    user reads the Maildir with now (a finished game removed, or moved to a folder not
    passed over yet), as they were: mail a game handled is not made unclaimed by its
    leaving. A game reading it again is judged by its journal (still_held)."""
    mine = tags | {tag for w in withheld if w.journals for tag in w.tags}  # a mark alone: gone
    return {tag: (entry["mark"], entry["files"]) for tag, entry in took.items()
            if tag not in mine and isinstance(entry.get("files"), dict) and
            isinstance(entry.get("mark"), list) and len(entry["mark"]) == 2}


def mbox_marks(digests: dict[str, str]) -> dict[str, dict]:
    """What each message of an mbox is known by among the files games took (it has no
    print of its own, and is read at every pass): the digest of its Message-ID and text
    (mailboxes.told_identity), at its place."""
    return {where: {"digest": hashlib.sha256(said.encode("utf-8", "surrogatepass"))
                    .hexdigest()[:32]} for where, said in digests.items()}


def not_handled(left: list, held: dict[str, tuple[list, dict]], marks: dict) -> list:
    """Of the messages no game claims now, those no game took in an earlier pass as they are
    now (an mbox's, read again at every pass, whose game has left the folder since: it
    handled them; a message that changed, or came in its place, is not one of them)."""
    done = {p for _, files in held.values() for p, v in files.items() if marks.get(p) == v}
    return [f for f in left if f.where not in done]


def taken_now(held: dict[str, tuple[list, dict]], taken: list[tuple],
              prints: dict[str, list], there: set[str]) -> dict[str, dict]:
    """What the games took, to remember: the files held before that are still there, and
    those taken in this pass (prints: of the files read, and an mbox's messages' marks), each
    game's with its journal's mark after its mail was
    handled (taken under its lock: a journal put back later does not hold it). A mail too
    large to read changed no journal (its answer is written before this, toolarge.py): the
    journal as the pass found it will do. A file whose game's mark is not known is not
    remembered."""
    out = {tag: {"mark": mark, "files": {p: v for p, v in files.items()
                                         if p in there or prints.get(p) == v}}
           for tag, (mark, files) in held.items()}
    for f, x in taken:
        mark = x.took or (gameindex.mark_of(x.printed) if f.oversize else None)
        if f.where not in prints or mark is None:
            continue
        entry = out.setdefault(game_tag(x.game_id, x.header_hash), {"mark": None, "files": {}})
        if entry["mark"] not in (None, mark) and not gameindex.holds(x.journal, *entry["mark"]):
            entry["files"] = {}     # put back since they were judged held: read them again
        entry["mark"] = mark
        entry["files"][f.where] = prints[f.where]
    return {tag: entry for tag, entry in out.items() if entry["mark"] and entry["files"]}
