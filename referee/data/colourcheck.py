"""The map's colours told apart (units.yaml): a nation's counters never drawn in a colour a
reader takes for the fill of the other side's areas.

On the map picture an area is filled in its controlling side's colour (`side_colours`) and
each unit is a counter in its nation's (`nations.*.counter`). A Russian counter as green as
the German areas reads, at a glance on a phone, as a German unit. Two colours are told apart
when their CIE 1976 colour difference (ΔE*ab, the distance between them in CIELAB) is at
least MOST_ALIKE; below it they are the same colour to a hurried eye.
"""

from __future__ import annotations

from .gamedata import GameData
from .problems import At

MOST_ALIKE = 10.0          # ΔE*ab: below this, two fills read as one colour


def check_colours(data: GameData) -> list[str]:
    """Each nation's counter fill against the area fill of every side but its own (a side
    the game does not declare is reported by namecheck.py, and skipped here)."""
    out: list[str] = []
    u, fu = data.units, At(data.info.files.units)
    for nat, nation in u.nations.items():
        if nation.counter is None or nation.side not in u.sides:
            continue
        for side, colours in u.side_colours.items():
            if side == nation.side or side not in u.sides:
                continue
            apart = difference(nation.counter.fill, colours.fill)
            if apart < MOST_ALIKE:
                out.append(fu.at("nations", nat, "counter", "fill").says(
                    f"{nation.counter.fill} is too like the {data.side_name(side)} side's "
                    f"area fill {colours.fill} (a colour difference of {apart:.1f}, under "
                    f"{MOST_ALIKE:.0f}): a reader would take these counters for that "
                    f"side's; choose a colour further from it"))
    return out


def difference(one: str, other: str) -> float:
    """The CIE 1976 colour difference of two '#rrggbb' colours (sRGB, D65 white)."""
    a, b = _lab(one), _lab(other)
    return sum((x - y) ** 2 for x, y in zip(a, b)) ** 0.5


def _lab(colour: str) -> tuple[float, float, float]:
    """A '#rrggbb' colour in CIELAB."""
    r, g, b = (_linear(int(colour[i:i + 2], 16) / 255) for i in (1, 3, 5))
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
    fx, fy, fz = _f(x), _f(y), _f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def _linear(c: float) -> float:
    """An sRGB channel (0 to 1) without its gamma."""
    return ((c + 0.055) / 1.055) ** 2.4 if c > 0.04045 else c / 12.92


def _f(t: float) -> float:
    return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116
