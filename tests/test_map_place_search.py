"""labels._place works each place's score out a row at a time, inline: it must choose, for
any space and any search, the very place that the search written plainly chooses (a box of
each run of free cells, scored one by one by distance and turn, all sorted), so that the
map's pictures stay the same bytes. The plain search is kept here as the reference."""

from __future__ import annotations

import math
import random

import pytest

from referee.render import labels


def _score(box, x, y, r, px, py, font):
    dx, dy = (box[0] + box[2]) / 2 - x, (box[1] + box[3]) / 2 - y
    d = math.hypot(dx, dy) or 1.0
    near = math.hypot(max(box[0] - x, 0.0, x - box[2]), max(box[1] - y, 0.0, y - box[3]))
    return max(near - r, 0.0) + (1.0 - (dx * px + dy * py) / d) * font


def _corners(bits, x, kw):
    target = int(x // labels.CELL) - kw // 2
    out = []
    while bits:
        start = (bits & -bits).bit_length() - 1
        rest = bits >> start
        end = start + (~rest & (rest + 1)).bit_length() - 2
        out.append(min(max(target, start), end))
        bits &= ~(((1 << (end - start + 1)) - 1) << start)
    return out


def plain_order(space, x, y, r, w, h, prefer, reach, strict, font):
    """Every place of the search written plainly, in the order it tries them."""
    cell = labels.CELL
    kw = math.ceil(w / cell) + 1
    window = (x - r - reach - w, y - r - reach - h, x + r + reach + w, y + r + reach + h)
    px, py = math.cos(prefer), math.sin(prefer)
    dx, dy = (kw * cell - w) / 2, ((math.ceil(h / cell) + 1) * cell - h) / 2
    tried = []
    for j, bits, clear in space.openings(w, h, window, strict):
        y0 = j * cell + dy
        over = 0.0 if clear else labels.OVER * font
        for i in _corners(bits, x, kw):
            x0 = i * cell + dx
            box = (x0, y0, x0 + w, y0 + h)
            score = _score(box, x, y, r, px, py, font)
            if score - font * 2 <= reach:
                tried.append((score + over, box))
    return [box for _, box in sorted(tried)]


def plain(space, owner, x, y, r, w, h, prefer, reach, strict, font, apart=None, tie=None):
    """The place the search written plainly chooses (only looked for: nothing is kept)."""
    suspects = []
    for box in plain_order(space, x, y, r, w, h, prefer, reach, strict, font):
        if apart is not None and not labels.owns(space, owner, box, x, y, r, apart):
            continue
        leader = labels._leader(space, owner, box, x, y, r, suspects, tie)
        if leader is not False:
            return box, leader
    return None


def _crowded(rng: random.Random) -> labels.Space:
    """A map's space: circles of areas, names beside them, lines joining neighbours."""
    space = labels.Space((2.0, 40.0, 998.0, 900.0))
    circles = [(rng.uniform(0, 1000), rng.uniform(40, 900), rng.uniform(6, 24), f"a{n}")
               for n in range(rng.randrange(8, 40))]
    for x, y, r, owner in circles:
        space.add_circle(x, y, r, owner)
    for _ in range(rng.randrange(5, 50)):
        (x0, y0, _, a), (x1, y1, _, b) = rng.sample(circles, 2)
        space.add_segment(x0, y0, x1, y1, a, soft=rng.random() < 0.8)
    for _ in range(rng.randrange(5, 60)):
        x, y, _, owner = rng.choice(circles)
        x, y = x + rng.uniform(-60, 60), y + rng.uniform(-60, 60)
        space.add_box((x, y, x + rng.uniform(8, 80), y + rng.uniform(6, 30)), owner)
    space.circles = circles
    return space


def _search(rng: random.Random, space) -> tuple[str, tuple]:
    """A random search round one of the space's circles: its owner, then the circle, the
    label's size, the preferred direction, the reach, the strictness and the font."""
    x, y, r, owner = rng.choice(space.circles)
    w, h = rng.uniform(4, 90), rng.uniform(4, 60)
    font = rng.choice((10.0, 12.0, 13.5))
    prefer = rng.choice((math.pi / 2, -math.pi / 2, rng.uniform(-math.pi, math.pi)))
    reach = rng.choice((2.5, 8.0, 14.0)) * font
    strict = rng.choice((True, False, None))
    return owner, (x, y, r, w, h, prefer, reach, strict, font)


@pytest.mark.parametrize("seed", range(12))
def test_the_place_chosen_is_the_plain_search_s(seed):
    rng = random.Random(seed)
    space = _crowded(rng)
    chosen = 0
    for _ in range(60):
        owner, (x, y, r, w, h, prefer, reach, strict, font) = _search(rng, space)
        apart = rng.choice((None, None, rng.uniform(0, 2) * font))
        tie = rng.choice((None, font))
        want = plain(space, owner, x, y, r, w, h, prefer, reach, strict, font, apart, tie)
        got = labels._place(space, owner, x, y, r, w, h, prefer, reach, strict, font, False,
                            apart, tie=tie)
        assert got == want, (x, y, r, w, h, prefer, reach, strict, font, apart, tie)
        chosen += got is not None
        if got is not None and rng.random() < 0.5:
            labels.keep_place(space, owner, *got)
    assert chosen > 10      # the searches found places, not only none


@pytest.mark.parametrize("seed", range(6))
def test_every_place_comes_in_the_plain_search_s_order(seed):
    """The places are scored nearest rows first and given as soon as no row left can score
    under them: all of them, asked for to the last, still come in the plain order."""
    rng = random.Random(100 + seed)
    space = _crowded(rng)
    many = 0
    for _ in range(40):
        _, asked = _search(rng, space)
        want = plain_order(space, *asked)
        got = list(labels._in_order(space, *asked))
        assert got == want, asked
        many += len(want) > 20
    assert many > 5         # searches with many places to put in order, not only a few
