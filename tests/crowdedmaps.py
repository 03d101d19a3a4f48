"""Crowded positions met in play, drawn once a module: the 1914 opening, where the armies
stand close along the frontier and Briey's stack nearer Thionville's circle than its own,
and a 1916 game where the 2. Armee has come into Amiens, whose armies stand in a column
rising to beside Artois's circle. The map tests of stacks (their leaders, their names)
read these pictures."""

from __future__ import annotations

import gamecalls as g
from casebook import new_game, position
from referee.render import svgmap

POSITIONS = {
    "1914 opening": position("1914"),
    "1916, the 2. Armee in Amiens": position(
        "1916", remove_units=["ge-2"], add_units=["ge-2 ge army amiens 4I+2A entrenched"]),
}


def crowded_pictures(tmp, prefix: str) -> dict[str, tuple[object, str]]:
    """Each crowded position: the game opened, and its map as the German sees it (SVG)."""
    out = {}
    for n, (what, sc) in enumerate(POSITIONS.items()):
        opened = g.open_game(new_game(tmp, sc, name=f"{prefix}{n}"))
        out[what] = (opened, svgmap.map_svg(opened.state, opened.data, "german",
                                            opened.game_id))
    return out
