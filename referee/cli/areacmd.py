"""`referee area`: read the game, find the area, print it (render/areas.py lays it out)."""

from __future__ import annotations

from pathlib import Path

from ..base.errors import UNREADABLE, UsageError
from ..base.readers import PUBLIC, check_name, check_reader
from ..render.areas import area_document, area_view, areas_document, areas_view, find_area
from ..render.documents import side_colours
from ..render.formats import render
from ..table.kinds import unplayable
from . import commands


def area_command(journal: Path, name: list[str], listing: bool, reader: str, fmt: str,
                 games_dir: Path | None = None, width: int = 72, dialect: str = "common") -> str:
    """What `referee area` prints: one area (NAME) or every area (--list), for one reader (1.1,
    1.4)."""
    reader = check_name(reader or PUBLIC)
    if listing and name:
        raise UsageError("give an area name or --list, not both")
    if not listing and not name:
        raise UsageError("name an area (its id, name or an alias), or use --list")
    commands.check_private(journal)
    game = commands.needing(journal, "area", "area", games_dir, shown=True).game()
    check_reader(reader, game.data.sides)
    try:
        if listing:
            view = areas_view(game.state, game.data, reader, game.game_id)
        else:
            view = area_view(game.state, game.data, find_area(" ".join(name), game.data),
                             reader, game.game_id)
    except UNREADABLE as exc:
        raise unplayable(journal, game.state.seq, exc, "cannot be shown") from None
    if fmt == "json":
        return commands.dump(view)
    doc = areas_document(view) if listing else \
        area_document(view, side_colours(game.data))
    return render(doc, fmt, width, dialect)
