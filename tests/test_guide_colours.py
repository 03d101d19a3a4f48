"""docs/player.md tells each game's area colours as its map draws them (games/<game>/
units.yaml side_colours): the Entente's areas blue in TO THE LAST MAN!, pink in AT ALL
COSTS!. The guide gave TTLM's blue alone, and an AAC player read his pink map against it."""

from __future__ import annotations

import colorsys
from pathlib import Path

import gamecalls as g

GUIDE = Path(__file__).resolve().parents[1] / "docs" / "player.md"


def _hue(fill: str) -> str:
    """'blue' or 'pink': the family a side's fill is seen in (its hue, in degrees)."""
    r, gr, b = (int(fill[i:i + 2], 16) / 255 for i in (1, 3, 5))
    hue = colorsys.rgb_to_hsv(r, gr, b)[0] * 360
    return "blue" if 180 <= hue < 260 else "pink" if hue >= 300 or hue < 30 else f"{hue:.0f}"


def test_the_guide_gives_each_games_entente_colour_as_its_data():
    text = " ".join(GUIDE.read_text(encoding="utf-8").split())
    for game, title in (("ttlm", "TO THE LAST MAN!"), ("aac", "AT ALL COSTS!")):
        colour = _hue(g.game_data(game).units.side_colours["entente"].fill)
        assert f"{colour} in {title}" in text, (game, colour)
