"""The impassable regions on the map picture: seas and neutral countries (TTLM 4.1, 4.2;
AAC 4.2).

Checked on the SVG parsed as XML, for both games: every region of map.yaml's `impassable` is
drawn with its name and kind, a dashed tick leads from it to each area it touches and ends
within NEAR pixels of that area's centre; no part of it meets an area's circle or the pale
ground of an area's name; a region that touches no area (AAC's Black Sea) is named in the
margin only; every drawn element lies inside the viewBox; a hostile region name from a copy
of the data is escaped and clipped.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

import pytest
from datacopy import copy_game
from test_map import executable_or_external

import gamecalls as g
import mapreading as mr
from casebook import new_game, position
from referee.data.catalog import game_data
from referee.render import impassable, svgmap
from referee.render.labels import segment_meets_box
from referee.render.svgparts import WHOLE

NS = "{http://www.w3.org/2000/svg}"
NEAR = 60.0          # a tick ends this close to the centre of the area it leads to


@pytest.fixture(scope="module")
def maps(tmp_path_factory) -> dict:
    """The 1914 map of each game as the public sees it, with its game."""
    tmp = tmp_path_factory.mktemp("regions")
    out = {}
    for game in ("ttlm", "aac"):
        journal = new_game(tmp, position("1914", game=game), name=game, game=game)
        opened = g.open_game(journal)
        out[game] = (svgmap.map_svg(opened.state, opened.data, "public", opened.game_id),
                     opened)
    return out


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg.encode("utf-8"))


def circles(root: ET.Element) -> dict[str, tuple[float, float, float]]:
    """Area id -> (cx, cy, r) of its circle on the map."""
    out = {}
    for el in root.iter(f"{NS}g"):
        if (el.get("id") or "").startswith("area-") and "offmap" not in el.get("class"):
            for c in el.iter(f"{NS}circle"):
                if c.get("class") == "shape":
                    out[el.get("id")[5:]] = (float(c.get("cx")), float(c.get("cy")),
                                             float(c.get("r")))
    return out


def name_grounds(root: ET.Element) -> dict[str, tuple[float, float, float, float]]:
    """Area id -> the box of the ground drawn under its name."""
    return {el.get("data-area"): box_of(el) for el in root.iter(f"{NS}rect")
            if el.get("class") == "name-ground"}


def regions_drawn(root: ET.Element) -> dict[str, ET.Element]:
    layer = root.find(f".//{NS}g[@id='impassable']")
    return {} if layer is None else {el.get("id")[len("impassable-"):]: el
                                     for el in layer.findall(f"{NS}g")}


def box_of(rect: ET.Element) -> tuple[float, float, float, float]:
    x, y = float(rect.get("x")), float(rect.get("y"))
    return x, y, x + float(rect.get("width")), y + float(rect.get("height"))


def segment_to_point(x0, y0, x1, y1, px, py) -> float:
    dx, dy = x1 - x0, y1 - y0
    t = max(0.0, min(1.0, ((px - x0) * dx + (py - y0) * dy) / (dx * dx + dy * dy or 1)))
    return math.hypot(x0 + t * dx - px, y0 + t * dy - py)


def box_to_point(box, px, py) -> float:
    x0, y0, x1, y1 = box
    return math.hypot(max(x0 - px, 0, px - x1), max(y0 - py, 0, py - y1))


def boxes_meet(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("game", ["ttlm", "aac"])
def test_every_region_is_drawn_with_its_name_and_a_tick_to_each_area(maps, game):
    """4.1, 4.2 (AAC 4.2): each impassable region with an area on the map is drawn, named,
    marked as a sea or a neutral country, and tied by a tick to each area it touches."""
    svg, opened = maps[game]
    root = parse(svg)
    drawn, areas = regions_drawn(root), circles(root)
    want = {r.id: r for r in opened.data.map.impassable if r.touches}
    assert set(drawn) == set(want) and want
    fills = {}
    for rid, r in want.items():
        el = drawn[rid]
        assert el.get("data-kind") == r.kind
        assert [t.text for t in el.iter(f"{NS}text")] == [r.name]
        (rect,) = el.iter(f"{NS}rect")
        fills.setdefault(r.kind, set()).add(rect.get("fill"))
        ticks = {t.get("data-area"): t for t in el.iter(f"{NS}line")}
        assert set(ticks) == set(r.touches), rid
        for area, t in ticks.items():
            cx, cy, rad = areas[area]
            end = math.hypot(float(t.get("x2")) - cx, float(t.get("y2")) - cy)
            assert rad < end <= NEAR, (rid, area, end)
    assert all(len(f) == 1 for f in fills.values())
    if len(fills) == 2:                                  # seas and neutral countries differ
        assert fills["sea"] != fills["neutral_country"]


@pytest.mark.parametrize("game", ["ttlm", "aac"])
def test_no_region_meets_an_area_circle_or_name(maps, game):
    """A region's box, label and ticks stay off every area's circle and the ground of every
    area's name, and off the other regions' boxes."""
    svg, _ = maps[game]
    root = parse(svg)
    areas, names = circles(root), name_grounds(root)
    boxes = []
    assert regions_drawn(root) and len(names) == len(areas) > 30
    for rid, el in regions_drawn(root).items():
        (rect,) = el.iter(f"{NS}rect")
        box = box_of(rect)
        boxes.append(box)
        for area, (cx, cy, r) in areas.items():
            assert box_to_point(box, cx, cy) > r, (rid, area)
        for area, ground in names.items():
            assert not boxes_meet(box, ground), (rid, area)
        (text,) = el.iter(f"{NS}text")           # the label is centred in its box
        assert box[0] < float(text.get("x")) < box[2] and box[1] < float(text.get("y")) < box[3]
        for t in el.iter(f"{NS}line"):
            x0, y0, x1, y1 = (float(t.get(k)) for k in ("x1", "y1", "x2", "y2"))
            for area, (cx, cy, r) in areas.items():
                assert segment_to_point(x0, y0, x1, y1, cx, cy) > r, (rid, area)
            for area, ground in names.items():
                assert not segment_meets_box(x0, y0, x1, y1, ground), (rid, t.get("data-area"),
                                                                      area)
    assert not any(boxes_meet(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1:])


def test_a_region_off_the_map_is_named_in_the_margin_only(maps):
    """AAC 4.2 names the Black Sea; no area of the reconstructed map touches it, so it is
    listed in the margin, not drawn at a made-up place; the legend keys both kinds."""
    svg, opened = maps["aac"]
    root = parse(svg)
    assert [r.id for r in opened.data.map.impassable if not r.touches] == ["black_sea"]
    legend = root.find(f".//{NS}g[@id='impassable-legend']")
    row = legend.find(f"{NS}g[@id='impassable-black_sea']")
    assert [t.text for t in row.iter(f"{NS}text")] == ["Black Sea"]
    everywhere = [el for el in root.iter() if el.text and "Black Sea" in el.text]
    assert everywhere == list(row.iter(f"{NS}text"))
    assert "black_sea" not in regions_drawn(root)
    keys = " ".join(t.text for t in legend.iter(f"{NS}text"))
    assert "sea, not playable (4.2)" in keys and "neutral country (4.1)" in keys


def drawn_extent(el: ET.Element, parents: dict) -> tuple[float, float, float, float] | None:
    """The box an element covers (a text as wide as its font draws it)."""
    t = el.tag.removeprefix(NS)
    f = lambda k: float(el.get(k))                                      # noqa: E731
    if t == "circle":
        return f("cx") - f("r"), f("cy") - f("r"), f("cx") + f("r"), f("cy") + f("r")
    if t == "rect":
        return box_of(el)
    if t == "line":
        return min(f("x1"), f("x2")), min(f("y1"), f("y2")), max(f("x1"), f("x2")), \
            max(f("y1"), f("y2"))
    if t == "text":
        return mr.text_box(el, parents)
    return None


@pytest.mark.parametrize("game", ["ttlm", "aac"])
def test_the_view_box_holds_every_drawn_element(maps, game):
    svg, _ = maps[game]
    root = parse(svg)
    vx, vy, vw, vh = (float(v) for v in root.get("viewBox").split())
    assert (float(root.get("width")), float(root.get("height"))) == (vw, vh)
    assert regions_drawn(root) and root.find(f".//{NS}g[@id='impassable-legend']") is not None
    parents = {c: p for p in root.iter() for c in p}
    for el in root.iter():
        ext = drawn_extent(el, parents)
        if ext is not None:
            assert vx <= ext[0] and ext[2] <= vx + vw and vy <= ext[1] and ext[3] <= vy + vh, \
                (el.tag, el.attrib, el.text)


def test_a_hostile_region_name_is_escaped_and_clipped(maps, tmp_path):
    """A name from a data file is data: markup and 5 KB of it become plain, clipped text,
    and the SVG still parses (control characters never load: test_disguised_names.py)."""
    evil = '<script>alert("x")</script> & "Nord"[31m ' + "Z" * 5000

    def change(docs):
        for r in docs["map.yaml"]["impassable"]:
            if r["id"] in ("north_sea", "switzerland"):
                r["name"] = evil
            if r["id"] == "strait_of_dover":
                r["name"], r["touches"] = evil, []           # in the margin only

    games = copy_game(tmp_path, change, ("map.yaml",))
    data = g.game_data("ttlm", games)
    _, opened = maps["ttlm"]
    svg = svgmap.map_svg(opened.state, data, "public", opened.game_id)
    root = parse(svg)
    assert "<script" not in svg and "\x1b" not in svg and "\x07" not in svg
    assert executable_or_external(svg) == [] and len(svg.encode("utf-8")) < 250_000
    shown = [t.text for t in root.iter(f"{NS}text") if t.text and t.text.startswith("<script")]
    assert len(shown) == 3
    plain = evil
    for text in shown:
        assert text.endswith("\u2026") and plain.startswith(text[:-1])
        assert len(text) in (impassable.LABEL_CHARS, impassable.LEGEND_CHARS)
    drawn = regions_drawn(root)
    assert {"north_sea", "switzerland"} <= set(drawn) and "strait_of_dover" not in drawn
    assert root.find(f".//{NS}g[@id='impassable-legend']/{NS}g[@id='impassable-strait_of_dover']"
                     ) is not None


def test_the_rest_of_the_picture_is_as_it_was(maps, tmp_path):
    """The regions only add elements: the same game on a copy of the data without them draws
    the same areas with the same control and contents, the same links and the same legend (a
    label may stand elsewhere: it keeps clear of the regions)."""
    def change(docs):
        docs["map.yaml"]["impassable"] = []
        for a in docs["map.yaml"]["areas"]:
            a.pop("borders", None)

    svg, opened = maps["ttlm"]
    data = g.game_data("ttlm", copy_game(tmp_path, change, ("map.yaml",)))
    bare = svgmap.map_svg(opened.state, data, "public", opened.game_id)
    assert "impassable" not in bare

    def shape(root: ET.Element) -> dict:
        """Each area's control and what its hover text says it holds; each link; the
        legend's texts."""
        out = {}
        for el in root.iter(f"{NS}g"):
            key = el.get("id") or ""
            if key.startswith(("area-", "box-")):
                out[key] = (el.get("data-control"), el.findtext(f"{NS}title"))
            elif key in ("links", "legend"):
                out[key] = [(k.text, k.get("data-from"), k.get("data-to")) for k in el]
        return out

    assert shape(parse(svg)) == shape(parse(bare)) and len(shape(parse(bare))) > 40


def test_the_taken_cells_answer_as_a_set_of_the_cells_would():
    """impassable._Taken keeps the cells taken as one integer a row, and those left of the
    picture or far right of it apart; whatever boxes and cells are added, it answers
    every question a placement asks, anywhere, as the set of the cells themselves does:
    a box free or not, a cell taken or not, and after joining two."""
    import random

    rng = random.Random(7)
    far = impassable.ROW_CELLS * impassable.CELL

    def box() -> tuple[float, float, float, float]:
        x = rng.choice((rng.uniform(-300, 900), rng.uniform(far - 200, far + 200)))
        y = rng.uniform(-300, 900)
        return x, y, x + rng.uniform(0, 120), y + rng.uniform(0, 60)

    def cell() -> tuple[int, int]:
        edge = impassable.ROW_CELLS
        return rng.choice((rng.randrange(-60, 200), rng.randrange(edge - 40, edge + 40))), \
            rng.randrange(-60, 200)

    for _ in range(30):
        kept, cells = [impassable._Taken(), impassable._Taken()], [set(), set()]
        for which in (0, 1):
            for _ in range(rng.randrange(1, 25)):
                if rng.random() < 0.6:
                    b = box()
                    kept[which].add_box(b)
                    cells[which].update(impassable._cells(b))
                else:
                    seg = impassable._segment(*box())
                    kept[which].add_cells(seg)
                    cells[which].update(seg)
        joined, both = kept[0] | kept[1], cells[0] | cells[1]
        for taken, truth in ((kept[0], cells[0]), (joined, both)):
            for _ in range(200):
                b = box()
                assert taken.free(b) == (not any(c in truth for c in impassable._cells(b)))
                c = cell()
                assert taken.has(*c) == (c in truth)
            assert all(taken.has(*c) for c in truth)
        assert kept[0].rows is not joined.rows and kept[0].apart is not joined.apart


def test_regions_off_the_picture_are_placed_as_a_set_of_cells_would_place_them():
    """The placing reads the cells taken off the picture too: a tick from an area placed
    left of the picture does not cross a box kept clear there."""
    data = game_data("ttlm")
    pos = {"amiens": (-150.0, 200.0)}
    placed, margin = impassable._place(data, pos, 1000.0, 1000.0, WHOLE,
                                       ((-300.0, -300.0, -20.0, 1300.0),))
    assert placed == [] and len(margin) == len(data.map.impassable)


@pytest.mark.parametrize("pts", [[(300.0, 200.0)], [(120.0, 80.0), (180.5, 95.25)],
                                 [(500.0, 400.0), (520.0, 380.0), (610.0, 455.5)]])
def test_a_labels_places_come_best_first_each_once(pts):
    """impassable._candidates gives every place of the grid within REACH, each once, in
    the order of its score (short ticks, out from the centre of the map), ties by place."""
    dx, dy = 0.6, -0.8
    bounds = (30.0, 20.0, 900.0, 1200.0)
    got = list(impassable._candidates(pts, dx, dy, bounds))
    tx, ty = sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)
    grid = [(tx + i * impassable.STEP, ty + j * impassable.STEP)
            for i in range(-32, 33) for j in range(-32, 33)]
    inside = [(x, y) for x, y in grid if 30 <= x <= 900 and 20 <= y <= 1200]
    scored = sorted((sum(math.hypot(x - px, y - py) for px, py in pts) / len(pts)
                     - 0.8 * ((x - tx) * dx + (y - ty) * dy), x, y) for x, y in inside)
    assert impassable.REACH / impassable.STEP == 32
    assert got == [(x, y) for _, x, y in scored] and len(set(got)) == len(got) > 100
