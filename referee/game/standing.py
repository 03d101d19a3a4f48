"""Where each side's standing orders are kept between his records, and how they change.

The current set of each side sits beside the journal in one file
(JOURNAL.standing, mode 0600), signed by this user's referee like its
snapshots: the referee applies what it holds the moment a decision comes up,
whoever's record raises it, and refuses a file it did not write. The set joins
the journal as a secret part (`standing`, for that side's eyes) of every
record the side itself makes -- every one, with or without standing orders,
so that neither the part nor its digest tells the opponent whether any exist
or when they changed. A standing order used is public anyway: the record that
applies it holds a StandingApplied event naming it. The file also names the
message that last changed each side's set: a change kept with that message's
records counts once the journal holds them, and a message of standing lines
alone is not applied twice when a run stops before noting it handled.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..base.errors import UsageError
from ..data.gamedata import GameData
from ..engine import standing as rules
from ..store import home, written
from ..store.journal import Journal


def store_path(journal: Path | str) -> Path:
    """The sealed file beside the journal that holds both sides' standing orders."""
    p = Path(journal)
    return p.with_name(p.name + ".standing")


def load(journal: Path | str, game: str | None = None,
         raw: bytes | None = None) -> dict[str, list[dict]]:
    """Both sides' standing orders as kept now ({} when none were ever given).

    The file is signed by this user's referee (home.write_signed), bound to its game (the
    hash of record 0: `game` when the caller has it, else read here) and numbered: a mark
    in this user's referee home (store/written.py) keeps the number of the copy written
    last. One planted, edited, copied from another game, put back from an older copy or
    taken away is refused with a clear error, never applied (or left out) for a side.
    A side's change kept with the records of his message counts once the journal (`raw`,
    its bytes when the caller holds them) holds that message (_settled)."""
    path = store_path(journal)
    game = game or _game_of(journal)
    if not os.path.lexists(path):
        last = written.standing_copy(game)[0] if game else 0
        if last:
            raise UsageError(f"{path} is gone, but this referee wrote copy {last} of it (taken "
                             f"away by someone who can write the folder, or by hand): no "
                             f"standing orders are applied. {_remedy(game)}")
        return {}
    payload = home.read_signed(path, max_bytes=1 << 20)
    sets = payload.get("standing") if payload else None
    if payload and payload.get("game") != game:
        raise UsageError(f"{path} holds the standing orders of another game (a copy from "
                         f"elsewhere): they are not applied. {_remedy(game)}")
    version = payload.get("version", 0) if payload else None
    last = payload.get("last", {}) if payload else None
    if not _well_formed(sets) or type(version) is not int or not _well_formed_last(last):
        raise UsageError(f"{path} was not written by this user's referee (or was changed "
                         f"since): its standing orders are not applied. {_remedy(game)}")
    older = written.standing_problem(game, version, payload.get("series")) if game else None
    if older:
        raise UsageError(f"{path} {older}: its standing orders are not applied. "
                         f"{_remedy(game)}")
    return _settled(journal, {side: _entries(entries) for side, entries in sets.items()},
                    last, raw)


def _entries(entries: list[dict]) -> list[dict]:
    return [{"text": e["text"], "turn": e.get("turn")} for e in entries]


def _settled(journal: Path | str, sets: dict[str, list[dict]], last: dict,
             raw: bytes | None) -> dict[str, list[dict]]:
    """The sets in force: a side's change kept just before the records of the message that
    made it (`before` its set until then) counts only once the journal holds that message,
    so that a run stopped between the two leaves the side's standing orders as they were,
    and the message, applied again whole, changes them once."""
    for side, change in last.items():
        if change["before"] is not None:
            raw = Journal(journal).raw() if raw is None else raw
            if change["mail"].encode() not in raw:
                sets[side] = _entries(change["before"])
    return sets


def made_by(journal: Path | str, side: str, mail: str, game: str | None = None) -> bool:
    """Whether the message whose digest is `mail` was the last to change side's standing
    orders, with no records (a run stopped before it noted the message handled: it is
    answered as applied, not applied again)."""
    change = _kept(store_path(journal), game or _game_of(journal))[1].get(side)
    return change is not None and change["mail"] == mail and change["before"] is None


def _kept(path: Path, game: str | None) -> tuple[int, dict]:
    """The number of the copy of the file in force and each side's last change by mail
    (0 and none: no copy, or none of this game's)."""
    payload = home.read_signed(path, max_bytes=1 << 20) or {}
    if payload.get("game") != game:
        return 0, {}
    version, last = payload.get("version"), payload.get("last", {})
    return (version if type(version) is int else 0,
            last if _well_formed_last(last) else {})


def _remedy(game: str | None) -> str:
    """What the moderator does to begin a game's standing orders again."""
    mark = written.standing_mark(game) if game else None
    also = f", and this referee's mark of it ({mark})," if mark is not None else ""
    return f"Remove it{also} and have each side give his standing orders again"


def forget(journal: Path | str) -> None:
    """Take the file away (a change that could be neither kept with its records nor taken
    back): the next reader is refused, told what to do, rather than given the change."""
    try:
        store_path(journal).unlink()
    except FileNotFoundError:
        pass


def _game_of(journal: Path | str) -> str | None:
    """The hash of the journal's record 0, which names its game; None when unreadable (a
    FIFO, a directory or a record 0 that is not JSON: never a hang)."""
    import json
    import stat

    try:
        fd = os.open(journal, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        with os.fdopen(fd, "rb", closefd=False) as f:
            line = f.readline(4 << 20)
        rec = json.loads(line)
    except (OSError, ValueError, RecursionError):
        return None
    finally:
        os.close(fd)
    got = rec.get("hash") if isinstance(rec, dict) else None
    return got if isinstance(got, str) else None


def _well_formed_last(last: object) -> bool:
    """Whether last has the shape save() writes: side -> {mail, before: set or None}."""
    return isinstance(last, dict) and all(
        isinstance(c, dict) and isinstance(c.get("mail"), str)
        and (c.get("before") is None or _well_formed({side: c["before"]}))
        for side, c in last.items())


def _well_formed(sets: object) -> bool:
    """Whether sets has the shape save() writes: side -> [{text, turn}]."""
    return isinstance(sets, dict) and all(
        isinstance(side, str) and isinstance(entries, list) and all(
            isinstance(e, dict) and isinstance(e.get("text"), str)
            and (e.get("turn") is None or type(e.get("turn")) is int) for e in entries)
        for side, entries in sets.items())


class NotWritten(UsageError):
    """The standing orders' file could not be written (a full disk, say): the moderator's to
    mend, never a refusal of the player who asked the change."""


def save(journal: Path | str, sets: dict[str, list[dict]], side: str | None = None,
         mail: dict | None = None, before: dict | None = None) -> None:
    """Write both sides' standing orders once `side` changed his: by the message `mail`
    (its digest kept, for _settled and made_by), with that message's records when `before`
    (the sets before the change) is given. Signed, readable by this user only, numbered one
    on from both the copy in force and the mark, in the mark's series (a new one without a
    mark: the file begun, or begun again once the moderator removed the mark, so that no
    copy from before is taken again); the file first, then the mark, so that a reader
    between the two, or a write cut short at either, finds the copy in force no older than
    the mark. The mark is kept as the others are, at best (written.py): one that could not
    be written only leaves the check a copy behind."""
    path = store_path(journal)
    home.key(create=True)
    game = _game_of(journal)
    version, last = _kept(path, game)
    series = None
    if game is not None:
        marked, series = written.standing_copy(game)
        version = max(version, marked)
    series = series or os.urandom(8).hex()
    last = {s: c for s, c in last.items() if s != side}
    if side is not None and mail is not None:
        last[side] = {"mail": mail["sha256"],
                      "before": None if before is None else before.get(side, [])}
    if not home.write_signed(path, {"game": game, "version": version + 1, "series": series,
                                    "standing": sets, "last": last}):
        raise NotWritten(f"cannot write the standing orders to {path}")
    os.chmod(path, 0o600)
    if game is not None:
        written.note_standing(game, version + 1, series)


def current(sets: dict[str, list[dict]], side: str, turn: int) -> list[dict]:
    """Side's standing orders still in force on turn (those for an earlier turn are gone)."""
    return rules.in_force(sets.get(side, []), turn)


def change(journal: Path | str, side: str, data: GameData, turn: int,
           add: list[str] = (), withdraw: list[str] = (), mail: dict | None = None
           ) -> list[dict]:
    """Add and withdraw standing orders of side, under the journal's lock (the one its
    appends take), by the message `mail` when a mail of standing lines alone asks it;
    returns his set in force. OrderSyntaxError for a phrase outside the vocabulary,
    UsageError for withdrawing one he has not given."""
    with Journal(journal).exclusive() as raw:
        sets = changed(load(journal, raw=raw), side, data, turn, add, withdraw)
        save(journal, sets, side, mail)
    return sets[side]


def changed(sets: dict[str, list[dict]], side: str, data: GameData, turn: int,
            add: list[str] = (), withdraw: list[str] = ()) -> dict[str, list[dict]]:
    """Both sides' standing orders once side adds and withdraws some (nothing is written;
    the errors are change's)."""
    sets = dict(sets)
    mine = current(sets, side, turn)
    for text in withdraw:
        entry = rules.parse_standing(text, data, turn)
        if not any(e["text"] == entry["text"] for e in mine):
            raise UsageError(f"'{text}' is not one of {data.player_words(side)}'s standing "
                             f"orders ({', '.join(rules.describe(e) for e in mine) or 'none'})")
        mine = rules.withdraw(mine, entry)
    for text in add:
        entry = rules.parse_standing(text, data, turn)
        army = entry["text"].split(" ", 1)[1] if entry["text"].startswith("eliminate ") else None
        if army is not None and not _may_be_own_army(army, side, data):
            raise UsageError(f"'{text}': {army} is not one of {data.player_words(side)}'s "
                             f"armies; a forced retreat eliminates one of his own (5.4)")
        mine = rules.add(mine, entry)
    sets[side] = mine
    return sets


def _may_be_own_army(name: str, side: str, data: GameData) -> bool:
    """Whether name can be one of side's armies: of one of his nations, and neither a unit on
    a template ('uk-1:infantry') nor a unit standing alone ('be-i-01': its type's code after
    the nation, units.yaml)."""
    nation, _, rest = name.partition("-")
    return ":" not in name and data.nation_side.get(nation) == side and \
        rest.split("-", 1)[0] not in data.units.id_code.values()


def part(sets: dict[str, list[dict]], side: str, turn: int, salt: str) -> dict:
    """The secret part every record of side carries: his whole set of standing orders."""
    return {"to": side, "salt": salt, "data": {"orders": current(sets, side, turn)}}
