"""Every version of the game data a journal may have been played with, kept by its digest.

A journal's header names the digest of the game data it was created with
(and each `upgrade` record the digest it moved to). When the game's YAML
files change, an older game still opens and replays with its own data,
found by that digest in one of two places:

- the snapshots shipped with the referee, one for each released version of
  the data (`games/history/GAME/DIGEST.json.gz`, written by `make setup`);
- this user's referee folder (`data_dir("gamedata")`), where the referee
  keeps the data of every game he created or upgraded when the shipped
  snapshots do not hold it (his own edited YAML, `--games DIR`).

A snapshot is the gzipped canonical JSON of the data document, the one the
digest is taken over (dataload.read_document). Files are hostile: a
snapshot is read only if it is a regular file of bounded size, inflated to a
bounded size, parsed as JSON only (never unpickled or executed), its
digest recomputed and compared with its name, and its data validated and
cross-checked like data read from YAML. Anything else is refused, naming
the file.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from ..base.errors import GameDataError, JournalError, UsageError
from ..base.rules import FIRST_RULES_VERSION, RULES_VERSION
from ..store import home
from . import compiled
from .gamedata import GameData
from .paths import GAME_NAME

DIGEST = re.compile(r"^[0-9a-f]{64}\Z")
MAX_PACKED = 1 << 20            # a snapshot file, compressed
MAX_DOCUMENT = 8 << 20          # what it inflates to (today's data: about 0.3 MiB)
PACKAGE = Path(__file__).resolve().parent.parent        # the referee package
SHIPPED_DIR = PACKAGE.parent / "games" / "history"
_LOADED: dict[str, GameData] = {}


def shipped_dir() -> Path:
    """Where the snapshots shipped with the referee are: the source tree or the installed copy."""
    for candidate in (SHIPPED_DIR, PACKAGE / "_games" / "history"):
        if candidate.is_dir():
            return candidate
    return SHIPPED_DIR


def user_dir() -> Path:
    """Where this user's referee keeps the data versions of his games."""
    return home.data_dir("gamedata")


def is_stored(data: GameData) -> bool:
    """Whether data came from a snapshot by digest (not from the game's data files now)."""
    return data.source.startswith("digest:")


def _name(game: str, digest: str) -> str:
    return f"{game}/{digest}.json.gz"


def pack(document: dict) -> bytes:
    """A data document as a snapshot file: its canonical JSON, gzipped (no time stamp)."""
    import gzip  # start-up: data is packed by `new`, `upgrade` and `make setup`, never a read

    # start-up: dataload (YAML, checks) loads only where data is read from YAML or a snapshot
    from .dataload import canonical_document

    return gzip.compress(canonical_document(document), compresslevel=9, mtime=0)


def unpack(blob: bytes, where: str) -> dict:
    """The data document a snapshot file holds (GameDataError when it is not one)."""
    import zlib  # start-up: only an older data version is read from its snapshot

    try:
        inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
        text = inflater.decompress(blob, MAX_DOCUMENT + 1)
        if len(text) > MAX_DOCUMENT or inflater.unconsumed_tail:
            raise GameDataError([f"{where}: inflates to more than {MAX_DOCUMENT} bytes"])
        if not inflater.eof:
            raise GameDataError([f"{where}: the compressed data is cut short"])
        document = json.loads(text.decode("utf-8"))
    except (zlib.error, UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise GameDataError([f"{where}: not a game data snapshot ({exc})"]) from None
    if not isinstance(document, dict):
        raise GameDataError([f"{where}: not a game data snapshot (not a JSON object)"])
    return document


def _read(path: Path, digest: str, root: Path) -> GameData:
    """The data a snapshot file holds, checked against the digest it is filed under."""
    # start-up: dataload (YAML, checks) loads only when no compiled copy of the version serves
    from .dataload import build_game, document_digest

    try:
        blob = home.read_named(path, "a game data snapshot", MAX_PACKED)
    except UsageError as exc:               # a directory, a FIFO, unreadable, too large
        raise GameDataError([str(exc)]) from None
    document = unpack(blob, str(path))
    if document_digest(document) != digest:
        raise GameDataError([f"{path}: its content does not match the digest it is filed "
                             f"under ({digest[:12]}): it was edited or planted; it is not used"])
    try:
        data = build_game(root, document, [])
    except GameDataError as exc:
        raise GameDataError([f"{path}: {line}" for line in exc.problems]) from None
    data.source = f"digest:{digest}"
    return data


def find(game: str, digest: str, root: Path) -> GameData | None:
    """The game data of this digest from the shipped or the user's snapshots, or None when
    neither holds it (GameDataError when a file filed under it is not that data)."""
    if not GAME_NAME.match(game) or not DIGEST.match(digest):
        return None
    key = f"{game}/{digest}"
    if key in _LOADED:
        return _LOADED[key]
    for folder in (shipped_dir(), user_dir()):
        path = folder / _name(game, digest)
        if not os.path.lexists(path):
            continue
        data = compiled.load_stored(root, game, digest)
        if data is None:
            data = _read(path, digest, root)
            compiled.save_stored(data, game)
        _LOADED[key] = data
        return data
    return None


def resolve(game: str, digest: str, root: Path, name: str, record: int) -> GameData:
    """The game data a journal names by digest (JournalError, naming the record, when this
    referee has no copy of it or the copy it has is not that data)."""
    try:
        data = find(game, digest, root)
    except GameDataError as exc:
        raise JournalError(f"{name}: record {record} names game data {digest[:12]}, but the "
                           f"snapshot of it is refused: {exc.lines()[0]}", record=record) from None
    if data is None:
        raise JournalError(
            f"{name}: record {record} was made with game data {digest[:12]}, which this "
            f"referee does not have: the game data changed since, and that version is neither "
            f"shipped with the referee nor kept in {user_dir()}; open the game with the data "
            f"it was made with (--games DIR)", record=record)
    return data


def _document_now(data: GameData) -> tuple[dict | None, list[str]]:
    """The data document of data's game directory as its files are now, or None with their
    problems when they have some or no longer are that data."""
    # start-up: dataload (YAML, checks) loads only where data is read from YAML or a snapshot
    from .dataload import document_digest, read_document

    problems: list[str] = []
    document = read_document(Path(data.root), problems)
    if problems or document_digest(document) != data.digest:
        return None, problems
    return document, problems


def keep(data: GameData, game: str) -> None:
    """Make sure the data a journal is created or upgraded with can be found by its digest
    later: if no snapshot holds it, write one into this user's folder from the YAML files
    (best effort: a failure to write only loses the later convenience)."""
    if any((folder / _name(game, data.digest)).is_file() for folder in (shipped_dir(),
                                                                          user_dir())):
        return
    document, _ = _document_now(data)
    if document is None:
        return                              # the files changed under us: nothing to keep
    path = user_dir() / _name(game, data.digest)
    try:
        home.ensure_dir(path.parent)
        home.replace_atomically(path, pack(document))
    except OSError:
        pass


FILED = "filed.json"          # in the shipped history: the rules each data version was filed under
MAX_FILED = 1 << 20
_FILED: dict = {}


def filed_rules(game: str, digest: str) -> int:
    """The rules version in force when this version of the data was filed in the shipped
    history: a game made with it names no older rules. A version the history does not
    list (this user's own data) was kept by a referee that writes its rules version into
    every journal, so it is no older than the first rules version that did."""
    if not _FILED:
        _FILED.update(_read_filed())
    got = _FILED.get(game, {}).get(digest) if isinstance(_FILED.get(game), dict) else None
    return got if type(got) is int and got >= FIRST_RULES_VERSION else FIRST_RULES_VERSION + 1


def _read_filed() -> dict:
    """The shipped index of filed.json (its `games` member), {} when it cannot be read."""
    try:
        blob = home.read_named(shipped_dir() / FILED, "the data history's index", MAX_FILED)
        games = json.loads(blob.decode("utf-8")).get("games")
    except (UsageError, ValueError, UnicodeDecodeError, AttributeError, RecursionError):
        return {}
    return games if isinstance(games, dict) else {}


def _file_under_rules(game: str, digest: str) -> None:
    """Note in the shipped index that this data version is filed under today's rules."""
    path = shipped_dir() / FILED
    index = json.loads(path.read_text()) if path.is_file() else {"games": {}}
    filed = index["games"].setdefault(game, {})
    if digest not in filed:
        filed[digest] = RULES_VERSION
        path.write_text(json.dumps(index, indent=1, sort_keys=True) + "\n")
        _FILED.clear()


def write_shipped(data: GameData, game: str) -> Path | None:
    """Add the snapshot of data to the shipped history (make setup), filed under today's
    rules version; None if it is there."""
    path = shipped_dir() / _name(game, data.digest)
    _file_under_rules(game, data.digest)
    if path.is_file():
        return None
    document, problems = _document_now(data)
    if document is None:
        raise GameDataError(problems or [f"{data.root}: changed while it was read"])
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(pack(document))
    return path
