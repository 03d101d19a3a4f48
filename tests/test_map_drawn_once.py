"""What a map picture costs is not paid twice: a counter's size is measured once for what it
writes (a layout asks it at every try of every level), and the picture is not filled with
its ground where the static layer is copied over it at once."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

import gamecalls as g
from casebook import new_game, position
from referee.render import counters as cnt
from referee.render import png, sharedmaps, svgmap
from referee.render.svgparts import WHOLE


@pytest.fixture(scope="module")
def opening(tmp_path_factory) -> Path:
    return new_game(tmp_path_factory.mktemp("once"), position("1914"), name="once")


def _counter(unit: str) -> cnt.Counter:
    return cnt.Counter(unit, "metz", "german", "ge", "#8aa37b", "#111111", "GE 7 once-only",
                       "6", "3 inf, 1 art, 1 cav", ("E", "OoS"), f"{unit} army", 6)


def test_a_counter_is_measured_once_for_what_it_writes(monkeypatch):
    measured = []
    real = cnt.text_width
    monkeypatch.setattr(cnt, "text_width",
                        lambda text, *a, **k: measured.append(text) or real(text, *a, **k))
    first = cnt.size(_counter("ge-97"), WHOLE)
    once = len(measured)
    assert once and cnt.size(_counter("ge-98"), WHOLE) == first   # another unit, same writing
    assert len(measured) == once


def test_the_ground_is_not_filled_under_the_static_layer(opening, monkeypatch):
    """The whole map: the static layer copied on top, the ground's colour under it, and no
    image of the picture's size made to be painted over."""
    game = g.open_game(opening)
    tree = svgmap.map_tree(game.state, game.data, "german", game.game_id)
    width, height = int(tree.get("width")), int(tree.get("height"))
    layer = png._base(next(el for el in tree if el.get("id") == "base"), width)
    made = []
    real = Image.new
    monkeypatch.setattr(Image, "new", lambda mode, size, *a, **k: made.append(tuple(size))
                        or real(mode, size, *a, **k))
    picture = Image.open(io.BytesIO(png.to_png(tree))).convert("RGB")
    assert (width, height) not in made
    assert picture.size == (width, height) and layer.height < height
    below = picture.crop((0, layer.height, 8, layer.height + 1)).getcolors()
    assert len(below) == 1                  # the ground's colour, as the palette keeps it


def test_the_static_part_is_built_once_for_each_base_and_copied(opening, monkeypatch):
    """Each reader's map of a position, and each record's, draws the same static part: it is
    built once, and each picture holds a copy of its own (a change to one is no other's)."""
    game = g.open_game(opening)
    built = []
    real = svgmap.impassable.draw
    monkeypatch.setattr(svgmap.impassable, "draw", lambda *a: built.append(1) or real(*a))
    trees = [svgmap.map_tree(game.state, game.data, side, game.game_id)
             for side in ("german", "entente", "german")]
    bases = [next(el for el in tree if el.get("id") == "base") for tree in trees]
    assert len(built) <= 1
    assert len({id(b) for b in bases}) == 3
    assert all(sharedmaps.same_drawing(bases[0], other) for other in bases[1:])
    bases[0].set("class", "changed")
    assert bases[1].get("class") == "whole"


def test_the_fine_band_is_made_once_for_the_bands_of_many_layers(opening, monkeypatch):
    """A static layer is drawn fine a band at a time: the bands of one layer, and of the
    next, are drawn on one picture filled again, not on a fresh one of a few megabytes
    each."""
    game = g.open_game(opening)
    tree = svgmap.map_tree(game.state, game.data, "german", game.game_id)
    base = next(el for el in tree if el.get("id") == "base")
    width = int(tree.get("width"))
    assert png._height(base) > 2 * png.BAND                  # three bands and more
    monkeypatch.setattr(png, "_FINE_BAND", [], raising=False)
    made = []
    real = Image.new
    monkeypatch.setattr(Image, "new", lambda mode, size, *a, **k: made.append(tuple(size))
                        or real(mode, size, *a, **k))
    first, again = png._drawn_base(base, width), png._drawn_base(base, width)
    assert [size for size in made if size[0] == width * png.FINE] == \
        [(width * png.FINE, png.BAND * png.FINE)]
    assert first.tobytes() == again.tobytes()


def test_only_the_tiles_drawn_in_are_halved(opening, monkeypatch):
    """Most of a static layer is its ground's colour, which halved stays that colour: only
    the fine tiles something is drawn in are halved, and the layer is the one drawn whole
    and halved at once, pixel for pixel."""
    game = g.open_game(opening)
    tree = svgmap.map_tree(game.state, game.data, "german", game.game_id)
    base = next(el for el in tree if el.get("id") == "base")
    width, height = int(tree.get("width")), png._height(base)
    halved = []
    real = Image.Image.reduce
    monkeypatch.setattr(Image.Image, "reduce", lambda self, factor, box=None: halved.append(
        (box[2] - box[0]) * (box[3] - box[1]) if box else self.width * self.height)
        or real(self, factor, box))
    layer = png._drawn_base(base, width)
    monkeypatch.setattr(Image.Image, "reduce", real)
    assert 0 < sum(halved) < 0.8 * (width * png.FINE) * (height * png.FINE)
    fine = Image.new("RGB", (width * png.FINE, height * png.FINE), "white")
    png.Painter(fine, png.FINE).element(base, {})
    assert layer.tobytes() == fine.reduce(png.FINE).tobytes()
