"""The games this referee knows: their names, their data (compiled or from YAML), their
optional rules."""

from __future__ import annotations

import os
from pathlib import Path

from ..base.errors import UsageError, quoted
from . import compiled
from .gamedata import GameData
from .paths import GAME_NAME, default_games_dir, source_digest

_DATA_CACHE: dict[tuple[Path, str], GameData] = {}


def load_game(root: Path) -> GameData:
    """A game's data read from its YAML files (GameDataError lists every problem)."""
    from .dataload import load_game as load  # start-up: YAML only when no compiled copy fits

    return load(root)


def game_data(game: str = "ttlm", games_dir: Path | None = None) -> GameData:
    """The data of a game: its compiled copy when that fits the files, else read from YAML.

    Loaded once per process for each content of the files (the content
    digest, not the modification time, says whether they changed).
    """
    root = Path(games_dir or default_games_dir()) / game
    if not os.path.isdir(root):
        raise UsageError(f"{root}: not a game data directory")
    source = source_digest(root)
    if source is None:                   # nothing can be kept for data that cannot be digested
        return load_game(root)
    key = (root.resolve(), source)
    if key not in _DATA_CACHE:
        data = compiled.load(root, source)
        if data is None:
            data = load_game(root)
            data.source = source
            compiled.save_user(data, source)
        _DATA_CACHE[key] = data
    return _DATA_CACHE[key]


def folder_kind(root: Path) -> str:
    """`kind` of a game folder's game.yaml: the name of the GameKind that plays it
    (table/kinds.py), 'campaign' when it names none."""
    from .dataload import read_yaml  # start-up: YAML, only where a game's kind is asked

    raw = read_yaml(Path(root) / "game.yaml", [])
    kind = raw.get("kind") if isinstance(raw, dict) else None
    return kind if isinstance(kind, str) else "campaign"


def kind_of(game: str, games_dir: Path | None = None) -> str:
    """The kind of a game of the games directory: 'campaign' (TTLM's system) or another
    game's own (the skirmish's)."""
    return folder_kind(Path(games_dir or default_games_dir()) / game)


def parse_options(items: list[str], data: GameData) -> dict[str, bool]:
    """Optional rules from KEY=VALUE strings, on top of the game's defaults."""
    opts = data.option_defaults()
    for item in items:
        key, sep, value = item.partition("=")
        key = key.strip().replace("-", "_")
        if key not in opts:
            raise UsageError(f"--option {item!r}: unknown option; the options are "
                             f"{', '.join(sorted(opts))}")
        v = value.strip().casefold() if sep else "true"
        if v not in ("true", "false", "on", "off", "yes", "no", "1", "0"):
            raise UsageError(f"--option {item!r}: the value must be true or false")
        opts[key] = v in ("true", "on", "yes", "1")
    return opts


def game_names(games_dir: Path | None = None) -> list[str]:
    """The games of a games directory: its folders holding a game.yaml."""
    root = Path(games_dir or default_games_dir())
    try:
        return sorted(p.name for p in root.iterdir()
                      if GAME_NAME.match(p.name) and (p / "game.yaml").is_file())
    except OSError:
        return []


def check_game_name(game: str, games_dir: Path | None = None) -> str:
    """The game named by --game, or a usage error naming the games there are."""
    names = game_names(games_dir)
    if game not in names:
        raise UsageError(f"--game {quoted(game)}: no such game; the games are "
                         f"{', '.join(names) or 'none'}")
    return game
