"""Game data compiled to JSON: validated once, then read without YAML or cross-checks.

Loading a game from its YAML files (parse, validate, cross-check) costs more
than replaying a whole campaign, so the validated data is kept in compiled
form, bound to the content digest of the YAML files it came from:

- the copy `make setup` writes into the package (`referee/_compiled/`), which
  is trusted like the code beside it;
- copies in this user's cache, signed with his key, made the first time a
  game directory is loaded from YAML (a copy of the data, `--games DIR`);
- copies of older data versions, signed the same way and filed under their
  digest, made the first time one is read from its snapshot (datastore.py).

A compiled copy whose digest is not that of the files on disk now is never
used; neither is an unsigned or foreign one in the cache.

`make setup` writes the package copies with build.py.
"""

import json
from pathlib import Path

import msgspec

from .. import __version__
from ..contracts.chartmodels import Charts
from ..contracts.deckmodels import DeckData
from ..contracts.eventmodels import EventsData
from ..contracts.gamemodels import GameInfo
from ..contracts.mapmodels import MapData
from ..contracts.scenariomodels import Scenario
from ..contracts.unitmodels import UnitsData
from ..store import home
from .gamedata import GameData
from .paths import source_digest

# Raised when a copy made before would now read differently: 2, side_colours gained `forum`,
# which an older version's copy lacks and its snapshot gets from upcast.py.
FORMAT = 2
PACKAGE_DIR = Path(__file__).resolve().parent.parent / "_compiled"


class Compiled(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """The compiled form of one game directory."""

    format: int
    engine: str
    source: str
    digest: str
    info: GameInfo
    map: MapData
    units: UnitsData
    deck: DeckData
    charts: Charts
    events: EventsData
    scenarios: dict[str, Scenario]


def _build(root: Path, c: Compiled) -> GameData | None:
    if c.format != FORMAT or c.engine != __version__:
        return None
    data = GameData(root, c.info, c.map, c.units, c.deck, c.charts, c.events,
                    scenarios=c.scenarios, digest=c.digest)
    data.source = c.source
    return data


def _form(data: GameData, source: str) -> Compiled:
    return Compiled(format=FORMAT, engine=__version__, source=source, digest=data.digest,
                    info=data.info, map=data.map, units=data.units, deck=data.deck,
                    charts=data.charts, events=data.events, scenarios=data.scenarios)


def _user_path(source: str) -> Path:
    return home.cache_dir("compiled") / f"{source[:40]}.json"


def load(root: Path, source: str) -> GameData | None:
    """The compiled data of the game directory root whose files digest to source, or None."""
    packaged = PACKAGE_DIR / f"{root.name}.json"
    try:
        c = msgspec.json.decode(packaged.read_bytes(), type=Compiled)
        if c.source == source:
            return _build(root, c)
    except (OSError, msgspec.DecodeError):
        pass
    return _signed(root, _user_path(source), source)


def _signed(root: Path, path: Path, source: str, digest: str | None = None) -> GameData | None:
    """The data of a signed compiled copy in this user's cache, if it is this source's (and
    this digest's); None for anything else."""
    payload = home.read_signed(path)
    if payload is None or payload.get("source") != source or \
            (digest is not None and payload.get("digest") != digest):
        return None
    try:
        return _build(root, msgspec.convert(payload, Compiled))
    except msgspec.ValidationError:
        return None


def save_user(data: GameData, source: str) -> None:
    """Keep a signed compiled copy in this user's cache (best effort)."""
    home.write_signed(_user_path(source), msgspec.to_builtins(_form(data, source)))


def _stored_path(game: str, digest: str) -> Path:
    return home.cache_dir("compiled") / f"{game}-{digest}.json"


def load_stored(root: Path, game: str, digest: str) -> GameData | None:
    """The compiled copy of an older data version (datastore.py) this user's referee made, or
    None: a version read from its snapshot is built and upcast once, then read as JSON."""
    return _signed(root, _stored_path(game, digest), f"digest:{digest}", digest)


def save_stored(data: GameData, game: str) -> None:
    """Keep a signed compiled copy of an older data version read from its snapshot (best
    effort; the source names the digest, so it is never taken for the data files' own)."""
    home.write_signed(_stored_path(game, data.digest),
                      msgspec.to_builtins(_form(data, data.source)))


def write_package_copy(root: Path) -> Path:
    """Compile a game directory from its YAML into the package (make setup)."""
    from .dataload import load_game  # start-up: YAML is read only by make setup, not to load

    data = load_game(root)
    PACKAGE_DIR.mkdir(exist_ok=True)
    out = PACKAGE_DIR / f"{root.name}.json"
    out.write_bytes(json.dumps(msgspec.to_builtins(_form(data, source_digest(root))),
                               separators=(",", ":")).encode())
    return out
