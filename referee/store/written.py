"""What this user's referee last wrote to each game: a mark in his referee home.

Every signature of a journal cut back to an older copy of itself is genuine, so the
signatures alone cannot tell that records were taken away; and a key handed over by
`rekey` (perhaps because it leaked) still signs well. After each write the referee notes,
for the game (its id), the last record it wrote, the hash of the game's record 0, the keys
its journal names (record 0's, then each key change's: keychain.py), the keys that signed
the game and those handed over (every key of that chain but the one in force), signed with
this user's key like the snapshots. The mark follows the game, not the file: a copy under
another name, or reached by another path, is the same game; so is a copy from before a key
change, in a home that never made it (the game moved there afterwards with its key files).
Before the next write, and before inbox and tick act on a journal of that game (the same
record 0, or signed by one of those keys), the journal must still hold that record, and its
last record must not be signed by a key handed over (but for the key change itself). A
command that shows the game asks the same (Journal.vouched), and a mark that names the
journal's last record vouches for it with no signature checked.

A journal of the same game id with another record 0, signed by a key the mark does not
name, is another game (two games made with one --game-id): the mark says nothing of it, and
a write to either takes the mark over, so of two such games only the one written last is
held to it. A mark written before marks kept record 0 and the chain tells the game by the
keys it names alone, until the next write completes it. `note_game` also remembers, in the
folder `games`, each game this referee signs, so that `upgrade` never adopts one of them
stripped of its signatures. A lost or deleted mark only makes the check lenient again; the
moderator who restores a journal from a backup on purpose removes the mark the refusal
names. The mark also notes the path each write went through, and when (writtenat.py): a
write through another path that leaves the journal there an older copy says so, and the
refusal says where the record it names was written.

The standing orders' file beside a journal (game/standing.py) is signed too, and so just as
genuine when an older copy is put back: each copy is numbered, the number of the copy
written last is marked here (by the hash of record 0, which the file is bound to), and an
older copy is refused. The numbers run in a series, named at random when the file is begun
(again, once the moderator removed it and its mark): a copy of an earlier series is refused
however high its number.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from . import home, keychain, signing
from .chain import last_line, record_in

_MEMBER = b'"hash":"'
_KEPT = object()                    # note(): the mark's lost record stays as it was


def game_of(raw: bytes) -> str | None:
    """The game id record 0 of these journal bytes names (None when it cannot be read)."""
    game_id = head(raw).get("game_id")
    return game_id if isinstance(game_id, str) else None


def head(raw: bytes) -> dict:
    """Record 0 of these journal bytes ({} when it cannot be read)."""
    try:
        rec = json.loads(raw[:raw.find(b"\n")])
    except (ValueError, RecursionError):
        return {}
    return rec if isinstance(rec, dict) else {}


def game_file(folder: str, game_id: str, suffix: str) -> Path:
    """A file of this referee's home named for a game (its id's digest)."""
    name = hashlib.sha256(game_id.encode("utf-8", "surrogatepass")).hexdigest()[:40]
    return home.data_dir(folder, f"{name}.{suffix}")


def mark_path(game_id: str) -> Path:
    """Where the mark of a game is kept."""
    return game_file("written", game_id, "mark")


def _read(game_id: str) -> dict | None:
    mark = home.read_signed(mark_path(game_id))
    return mark if mark and mark.get("game_id") == game_id else None


def note(raw: bytes, last: dict, signer: str | None, following: str | None,
         handed: str | None, added: list[dict] = (), lost: dict | None | object = _KEPT,
         path: Path | str | None = None, fd: int | None = None, made: bool = False) -> None:
    """After a write: raw is the journal before it (its header, the keys it names), added
    the records written (none: raw is all of it), last its last record, signer the
    fingerprint that signed it, following the key that signs after it, handed the key a key
    change handed over (if any); lost, the record a repair cut that this referee had written
    (cut: None when it cut none), else the one the mark named lost before; path, the journal
    written, open as fd (writtenat.py: a write that leaves the journal the mark named
    before an older copy says so); made: the journal's creation here (the mark's `since`,
    the record the game came to this home at, is then 0)."""
    from . import writtenat  # start-up: what writes, not what reads

    header = head(raw)
    game_id = header.get("game_id")
    if not isinstance(game_id, str) or signer is None:
        return
    before = _read(game_id) or {}
    first = header.get("hash")
    if path is not None and first is not None and _first(before) == first:
        writtenat.warn_left(before, raw, path, fd, str(mark_path(game_id)))
    known = [*before.get("keys", []), *before.get("retired", [])]
    same = _first(before) == first or signer in known or handed in known
    keys = [k for k in before.get("keys", []) if same and k != handed]
    for k in (signer, following):
        if k and k not in keys and k != handed:
            keys.append(k)
    chain = _chain(before) if added and same and _first(before) == first else None
    chain = (keychain.chain(keychain.naming(raw)) if chain is None else chain) + \
        keychain.chain(added)
    retired = list(before.get("retired", [])) if same else []
    for fpr in [handed, *(f for _, f in chain if f != following)]:
        if fpr and fpr not in retired and fpr not in keys:
            retired.append(fpr)
    if lost is _KEPT:
        lost = before.get("lost") if same else None
    actor = last.get("actor")
    # The record the game stood at when this home first wrote to it: 0 for a game made here,
    # N for one that came here at record N (moved from another machine, or this home lost).
    since = before.get("since") if same and isinstance(before.get("since"), int) else \
        (0 if made or (before and same) else last["seq"] - len(added))
    home.write_signed(mark_path(game_id), {
        "game_id": game_id, "seq": last["seq"], "hash": last["hash"], "sig": last.get("sig"),
        "since": since,
        "signer": signer, "keys": keys[-20:], "retired": retired[-20:], "first": first,
        "chain": chain[-20:], **({"lost": lost} if lost else {}),
        **({"actor": actor} if isinstance(actor, str) else {}), **writtenat.noted(path)})


def _first(mark: dict) -> str | None:
    """The hash of the game's record 0 a mark names (None: a mark written before marks
    kept it)."""
    first = mark.get("first")
    return first if isinstance(first, str) else None


def _chain(mark: dict) -> list[list] | None:
    """The keys of the game a mark names, [record naming it, fingerprint] in order (None: a
    mark written before marks kept them)."""
    chain = mark.get("chain")
    return chain if isinstance(chain, list) and all(
        isinstance(k, list) and len(k) == 2 and isinstance(k[1], str) for k in chain) else None


def cut_too_far(keep: bytes, last: dict, signer: str | None) -> str | None:
    """Why `repair` must not cut a journal down to keep (last its last record), or None: a
    torn line holds one record at most, so when this referee's mark names a record beyond
    the one after keep, or one keep should hold and does not, whole records it wrote are
    gone too: a cut back, which a repair must not make good (problem's words)."""
    mark = _read(game_of(keep) or "")
    if mark and _same_game(mark, head(keep), signer) and mark.get("seq") == last["seq"] + 1:
        return None
    return problem(keep, last, signer)


def cut(keep: bytes, last: dict, signer: str | None, following: str | None,
        path: Path | str | None = None) -> None:
    """After `repair` cut the torn tail of a journal down to keep (last its last record): the
    mark names that record now. When the mark named the record after it, this referee wrote
    it whole (and may have mailed it) before the tail was torn: the mark keeps it as lost,
    with the side whose record it was as the mark itself names it (never read from the torn
    bytes, which anyone who can write the folder writes), so that repair, the players' next
    mails and a reply to it say so (lost); a cut that lost none forgets any loss before."""
    game_id = game_of(keep)
    before = _read(game_id) if game_id is not None else None
    was = before.get("seq") if before else None
    hash_ = before.get("hash") if before else None
    gone = None
    if type(was) is int and was > last["seq"] and isinstance(hash_, str) and \
            keep.find(_MEMBER + hash_.encode("ascii", "replace")) < 0:
        actor = before.get("actor")
        gone = {"seq": was, "hash": hash_, "actor": actor if isinstance(actor, str) else None}
    note(keep, last, signer, following, None, lost=gone, path=path)


def lost_record(game_id: object) -> dict | None:
    """The record of the game a repair cut after this referee wrote it ({seq, hash, actor}),
    or None."""
    mark = _read(game_id) if isinstance(game_id, str) else None
    gone = mark.get("lost") if mark else None
    return gone if isinstance(gone, dict) and type(gone.get("seq")) is int and \
        isinstance(gone.get("hash"), str) else None


def wrote(raw: bytes) -> dict | None:
    """This referee's mark of the game id these journal bytes name (None: it never wrote a
    game of that id)."""
    game_id = game_of(raw)
    return _read(game_id) if game_id is not None else None


def came_at(game_id: str) -> int:
    """The record the game stood at when this home first wrote to it (0: made here, or
    before marks kept it)."""
    mark = _read(game_id) or {}
    since = mark.get("since")
    return since if isinstance(since, int) and since > 0 else 0


def written_at(game_id: str) -> str | None:
    """The path (absolute, links resolved) this referee wrote the game through last, as its
    mark notes it (None: no mark, or one written before marks noted paths)."""
    mark = _read(game_id)
    at = mark.get("path") if mark else None
    return at if isinstance(at, str) else None


def problem(raw: bytes, last: dict, signer: str | None) -> str | None:
    """Why the referee must not act on these bytes of a journal, or None."""
    header = head(raw)
    game_id = header.get("game_id")
    mark = _read(game_id) if isinstance(game_id, str) else None
    if not mark or not _same_game(mark, header, signer):
        return None                     # never written here, or another game of that id
    retired = mark.get("retired") or []
    seq, hash_ = mark.get("seq"), mark.get("hash")
    if not isinstance(hash_, str) or raw.find(_MEMBER + hash_.encode("ascii", "replace")) < 0:
        from . import writtenat  # start-up: only a journal cut back

        there = writtenat.written_to(mark)
        if there is not None:
            return (f"cut back: this referee wrote record {seq} ({str(hash_)[:12]}…) of game "
                    f"{game_id}, which this journal does not hold: {there} (a copy of the "
                    f"game played on there, or this journal an older copy, restored or put in "
                    f"its place by someone who can write the folder); to play on this "
                    f"journal, remove {mark_path(str(game_id))} and run the command again")
        return (f"cut back: this referee wrote record {seq} ({str(hash_)[:12]}…) of game "
                f"{game_id}, which this journal does not hold (an older copy, restored or "
                f"put in its place by someone who can write the folder); if you restored it "
                f"on purpose, remove {mark_path(str(game_id))} and run the command again")
    if signer in retired and not (last.get("hash") == hash_ and signer == mark.get("signer")):
        return (f"record {last.get('seq')} is signed by key {signer}, which this referee "
                f"handed over to another key (rekey): whoever still holds the old key wrote it")
    return None


def rewound(raw: bytes) -> str | None:
    """Why these journal bytes, whole, are not what this referee wrote to their game (cut
    back, or last signed by a key it handed over: problem's words), or None (no mark of the
    game here, or another game of that id): what `verify` adds to its own checks in the home
    of the game's referee, who alone can tell that records were taken away."""
    last = record_in(last_line(raw)) if raw.endswith(b"\n") else {}
    return problem(raw, last, signing.signer_of(last.get("sig"))) if last else None


def older_copy(raw: bytes, last: dict, signer: str | None) -> str | None:
    """Why a journal whose last record is signed by a key this referee does not hold is an
    older copy of a game it wrote, from before a key change (the current key file alone
    moved with the game, as the guide says): the record 0 its mark names, its last record
    signed (checked against the public half the journal names) by a key that the mark's
    chain hands over, and without the record the mark names. None otherwise."""
    header = head(raw)
    game_id = header.get("game_id")
    mark = _read(game_id) if isinstance(game_id, str) and signer else None
    chain = _chain(mark) if mark and _first(mark) == header.get("hash") else None
    handed = [(seq, nxt) for (_, fpr), (seq, nxt) in zip(chain or [], (chain or [])[1:])
              if fpr == signer]
    hash_ = mark.get("hash") if mark else None
    if not handed or not isinstance(hash_, str) or \
            raw.find(_MEMBER + hash_.encode("ascii", "replace")) >= 0:
        return None
    public = keychain.public(raw, str(signer))
    if public is None or not signing.checks(last.get("sig"), last.get("hash"), public):
        return None
    change, following = handed[-1]
    return (f"an older copy of game {game_id}, from before its rekey at record {change}: "
            f"its last record, {last.get('seq')}, is signed by key {signing.shown(signer)}, "
            f"which record {change} handed over to key {signing.shown(following)}, and this "
            f"referee wrote record {mark['seq']} ({hash_[:12]}…) since; restore the current "
            f"journal in its place (docs/moderator.md, Restoring a journal from a backup; if "
            f"you restored this copy on purpose, remove {mark_path(str(game_id))})")


def _same_game(mark: dict, header: dict, signer: str | None) -> bool:
    """Whether a journal of this record 0 whose last record signer signed is the game of the
    mark: the same record 0, whatever key of its chain signs now (a key change, a move to
    another home), or, as a mark written before marks kept record 0 can tell, signed by a
    key the mark names (a journal rewritten whole, record 0 too, with a key handed over is
    thus no other game). Another game that only reuses the id is neither."""
    first = _first(mark)
    return first is not None and first == header.get("hash") or \
        signer in (mark.get("keys") or []) or signer in (mark.get("retired") or [])


def names_last(raw: bytes, last: dict) -> bool:
    """Whether this referee's mark of the game names the last record of raw: it wrote that
    very record, and through the hash chain every record before it. Its signature too,
    which the hash does not cover: a report names the key that signed the last record as
    the game's (a mark written before marks kept it names none, and the signature is then
    checked)."""
    mark = wrote(raw)
    return bool(mark) and isinstance(last.get("hash"), str) and \
        mark.get("hash") == last["hash"] and mark.get("seq") == last.get("seq") and \
        isinstance(mark.get("sig"), str) and mark["sig"] == last.get("sig")


def signed_last(raw: bytes, last: dict) -> None:
    """After the last record of raw was found signed by this referee's key: its signature
    added to a mark that names that record without one (written before marks kept it), so
    that the next read is vouched for by the mark alone, as after a write."""
    mark = wrote(raw)
    if mark and mark.get("sig") is None and isinstance(last.get("sig"), str) and \
            mark.get("hash") == last.get("hash") and mark.get("seq") == last.get("seq"):
        home.write_signed(mark_path(mark["game_id"]), {**mark, "sig": last["sig"]})


def note_game(game_id: str, fpr: str) -> None:
    """Remember that this referee signs the game `game_id` (new, an adoption)."""
    home.write_signed(_game_path(game_id), {"game_id": game_id, "key": fpr})


def signs_game(game_id: str) -> str | None:
    """The key this referee signed the game with, when it ever did."""
    note = home.read_signed(_game_path(game_id))
    return note.get("key") if note and note.get("game_id") == game_id else None


def _game_path(game_id: str) -> Path:
    return game_file("games", game_id, "game")


# ---------------------------------------------------------------- the standing orders' file

def _standing_path(game: str) -> Path:
    return game_file("written", game, "standing")


def standing_mark(game: str) -> Path | None:
    """The mark of a game's standing orders, when this referee keeps one."""
    path = _standing_path(game)
    return path if path.exists() else None


def note_standing(game: str, version: int, series: str | None = None) -> None:
    """After the standing orders' file of a game (the hash of its record 0) is written: the
    number of that copy and its series."""
    home.write_signed(_standing_path(game), {"game": game, "version": version,
                                             "series": series})


def standing_copy(game: str) -> tuple[int, str | None]:
    """The number and series of the standing orders' copy this referee wrote last for the
    game, from one read of its mark (0 and None: none is marked; a series of None, a mark
    written before series were kept)."""
    mark = home.read_signed(_standing_path(game))
    mark = mark if mark and mark.get("game") == game else {}
    version, series = mark.get("version"), mark.get("series")
    return (version if type(version) is int else 0,
            series if isinstance(series, str) else None)


def standing_problem(game: str, version: int, series: str | None = None) -> str | None:
    """Why a signed standing orders' file of this number and series is not the copy this
    referee wrote last for the game, nor a later one (an older copy put back, or one from
    before the file was begun again), or None. No mark (written before marks were kept, or
    the mark deleted) leaves the file's signature to decide."""
    last, kept = standing_copy(game)
    if version >= last and (kept is None or series == kept):
        return None
    what = f"copy {version} of the standing orders" if kept is None or series == kept else \
        "a copy of the standing orders from before they were begun again"
    return (f"is {what}, but this referee wrote copy {last} "
            f"(an older one was put back by someone who can write the folder); if you "
            f"restored it on purpose, remove {_standing_path(game)}")
