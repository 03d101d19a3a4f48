"""What several commands share: the --games directory, the output formats, --as and --width."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer

from ..base.readers import readers_of
from . import commands

# The --games option of the application, read by every command that opens a game.
GAMES: dict[str, Optional[Path]] = {"dir": None}


class Fmt(str, Enum):
    text = "text"
    json = "json"


class MapFmt(str, Enum):
    text = "text"
    json = "json"
    svg = "svg"
    png = "png"


class ShowFmt(str, Enum):
    text = "text"
    markdown = "markdown"
    bbcode = "bbcode"
    chat = "chat"
    json = "json"


class BbDialect(str, Enum):
    common = "common"
    bgg = "bgg"
    phpbb = "phpbb"
    smf = "smf"


class DiceMode(str, Enum):
    committed = "committed"
    manual = "manual"


READER_HELP = ("Who reads it: a side of the game, public (a forum spectator: no hand, "
               "no deck order, no sealed plan) or moderator (everything). Default: public.")
WIDTH_HELP = "Wrap text at this many columns (an order line is never split)."
# What a bounded option counts, for its out-of-range error: '--width 10: at least 40 columns'.
OPTION_UNITS = {"width": "column", "interval": "second"}   # the unit of each, singular
SHOW_FMT_HELP = ("text, markdown, bbcode, chat (markdown in posts of at most 2,000 characters, "
                 "a 'post N of M' line between two) or json.")
DIALECT_HELP = ("The forum --format bbcode is for: common (default: only the tags BoardGameGeek, "
                "phpBB and SMF all know), or bgg, phpbb, smf for that forum's own (fixed-width "
                "tables, lists).")


def complete_reader(ctx: typer.Context, incomplete: str) -> list[str]:
    """Shell completion for --as: the sides of the journal's game (before a journal is named,
    or when it cannot be read, those of the default game), public, moderator."""
    try:
        sides = commands.game_sides(ctx.params.get("journal"), GAMES["dir"])
    except Exception:  # noqa: BLE001 - completion offers the readers it knows rather than fail
        sides = ()
    return [r for r in readers_of(sides) if r.startswith(incomplete)]


# The --bbcode-dialect option of every command that has --format bbcode.
Dialect = Annotated[BbDialect, typer.Option("--bbcode-dialect", help=DIALECT_HELP)]

# The --as option of every command that shows the game to one reader.
Reader = Annotated[str, typer.Option("--as", help=READER_HELP, autocompletion=complete_reader)]


def shipped_games() -> dict[str, list[str]]:
    """The games of the built-in games directory and their scenarios, as its folders name
    them (a listing, no file read): what the help of `new` offers."""
    from ..data.paths import default_games_dir  # start-up: a listing for the help only

    try:
        root = default_games_dir()
        return {p.name: sorted(s.stem for s in (p / "scenarios").glob("*.yaml"))
                for p in sorted(root.iterdir()) if (p / "game.yaml").is_file()}
    except OSError:
        return {}


def games_help() -> tuple[str, str]:
    """The help of `new --game` and `new --scenario`, from the games shipped."""
    games = shipped_games()
    listed = ", ".join(games) or "see `referee games list`"
    scenarios = "; ".join(f"{g}: {', '.join(s)}" for g, s in games.items() if s)
    return (f"The game: a folder of the games directory ({listed}).",
            f"A scenario of the game ({scenarios}) or a scenario YAML file.")
