"""Every unit on its area, as a counter, in a picture whose labels never overlap.

Random campaigns of 1914 (hidden army templates on), 1916, 1918 and AT ALL COSTS!, stopped at
several turns, are drawn for the German, the Entente and the public. In each picture, checked
from the drawing's own geometry (the shipped font measured by Pillow, the circles, boxes and
lines as the SVG gives them):

- every unit the reader may see (views.state_view) is drawn as exactly one counter, inside
  the picture, at its area: touching the area's ring or tied to its circle by a leader, or
  inside the box of an area off the front; no counter of a unit he may not see;
- no side list: nothing but counters names a unit, no "no room" panel;
- no two texts overlap, no counter meets another, an area's name, a mark, a region's label
  or a circle, and every text is at least 16 pixels high;
- the counters say what the reader may see (1.4): another side's hidden army shows '?'
  and no contents;
- each area's name and supply mark, on the whole map and on the close-up, is nearer its own
  area's circle than any other area's, so that the nearest circle is the right one.
"""

from __future__ import annotations

import re

import pytest

import gamecalls as g
import mapreading as mr
from casebook import new_game, position
from referee.game.autoplay import autoplay
from referee.game.views import state_view
from referee.render import closeup, svgmap

BIG = 10 ** 9
# (game, scenario, options, autoplay seed, the turns a picture is drawn after)
CAMPAIGNS = [("ttlm", "1914", {"hidden_templates": True}, 5, (2, 5, 8)),
             ("ttlm", "1916", {}, 3, (8, 11)),
             ("ttlm", "1918", {"hidden_templates": True}, 4, (16, 18)),
             ("aac", "1914", {}, 2, (1, 4))]
READERS = ("german", "entente", "public")
LEADER = 8.0           # a stack this near its area's ring needs no leader
# The names that at some heights of the map find no place near their circle nearer it than
# any other: Dunkirk, between Calais, Ostend and Ypres under the labels of two seas and
# their dashes; Strasbourg, on the map's eastern edge, named after its crowded neighbours
# have taken the places beside it.
NO_OWN_PLACE = {"dunkirk", "strasbourg"}


# The quick form's pictures: the first campaign's first turn, for each reader.
FEW = [CAMPAIGNS[0][:4] + (CAMPAIGNS[0][4][:1],)]


def _draw(tmp, campaigns) -> list[tuple[str, object, str, str]]:
    out = []
    for game, sc, options, seed, turns in campaigns:
        journal = new_game(tmp, position(sc, game=game), options, name=f"{game}{sc}",
                           game=game)
        for turn in turns:
            if turn > g.open_game(journal).state.turn:
                done = autoplay(journal, seed, until=turn - 1, check_every=BIG)
                assert done.failure is None, done.failure
            opened = g.open_game(journal)
            for reader in READERS:
                svg = svgmap.map_svg(opened.state, opened.data, reader, opened.game_id)
                out.append((f"{game} {sc} turn {opened.state.turn} {reader}", opened, reader,
                            svg))
    return out


@pytest.fixture(scope="module", params=[pytest.param(FEW, id="quick"),
                                      pytest.param(CAMPAIGNS, id="full")])
def pictures(request, tmp_path_factory) -> list[tuple[str, object, str, str]]:
    """(what, game, reader, svg) for each campaign, turn and reader: quick, the first
    campaign's first turn (1914 with hidden army templates at turn 2, for the German, the
    Entente and the public); full, every campaign and turn of CAMPAIGNS."""
    drawn = _draw(tmp_path_factory.mktemp("counters"), request.param)
    assert len(drawn) == len(READERS) * sum(len(turns) for *_, turns in request.param)
    return drawn


def visible_units(opened, reader: str) -> dict[str, str]:
    """unit id -> area, for every unit the reader may see on the map, off it and in the EFT
    box."""
    view = state_view(opened.state, opened.data, reader, opened.game_id)
    out = {u["id"]: area for area, info in view["areas"].items() for u in info["units"]}
    box = opened.data.eft_box
    for uid in view.get("eft_box") or []:
        out[uid] = box.id
    return out


def test_every_unit_the_reader_may_see_is_one_counter_at_its_area(pictures):
    for what, opened, reader, svg in pictures:
        root = mr.parse(svg)
        shown = mr.counters(root)
        want = visible_units(opened, reader)
        assert len(want) > 20, what
        assert sorted(c.unit for c in shown) == sorted(want), what
        assert all(c.area == want[c.unit] for c in shown), what
        width, height = (float(v) for v in root.get("viewBox").split()[2:])
        for c in shown:
            assert mr.inside(c.box, (0, 0, width, height)), (what, c.unit)


def test_each_counter_stands_at_its_area(pictures):
    """A stack touches its area's ring or a leader joins them; a counter off the front is
    inside its area's box."""
    for what, _, _, svg in pictures:
        root = mr.parse(svg)
        circles = mr.circles(root)
        leaders = mr.leaders(root)
        boxes = {el.get("id")[5:]: mr.rect_box(el.find(f"{mr.NS}rect"))
                 for el in root.iter(f"{mr.NS}g") if "offmap" in (el.get("class") or "")}
        boxes.update({el.get("id")[4:]: mr.rect_box(el.find(f"{mr.NS}rect"))
                      for el in root.iter(f"{mr.NS}g") if el.get("class") == "box"})
        assert len(mr.stacks(root)) > 15, what
        for stack in mr.stacks(root):
            area = stack.get("data-area")
            cx, cy, r = circles[area]
            (edge,) = [mr.rect_box(x) for x in stack.iter(f"{mr.NS}rect")
                       if x.get("class") == "counter-box"][:1] or [None]
            bound = _bound(stack)
            near = mr.box_to_point(bound, cx, cy) - r <= r + LEADER
            tied = [s for a, s in leaders if a == area and abs(
                ((s[0] - cx) ** 2 + (s[1] - cy) ** 2) ** 0.5 - r) < 1.5 and
                mr.box_to_point(bound, s[2], s[3]) < 1.5]
            assert edge is not None and (near or tied), (what, area)
        for c in mr.counters(root):
            if c.area in boxes:
                assert mr.inside(c.box, boxes[c.area]), (what, c.unit)


def _bound(stack) -> mr.Box:
    rects = [mr.rect_box(x) for x in stack.iter(f"{mr.NS}rect") if x.get("class") in
             ("counter-box", "stack-name-ground")]
    return (min(b[0] for b in rects), min(b[1] for b in rects), max(b[2] for b in rects),
            max(b[3] for b in rects))


def test_no_side_list_and_no_unit_named_outside_its_counter(pictures):
    for what, opened, reader, svg in pictures:
        root = mr.parse(svg)
        assert "no room" not in svg.lower(), what
        ids = set(visible_units(opened, reader))
        inside = {id(t) for c in mr.counters(root, keys=True) for t in c.element.iter()}
        for el in root.iter(f"{mr.NS}text"):
            if id(el) in inside:
                continue
            words = set(re.findall(r"[\w-]+", el.text or ""))
            assert not words & ids, (what, el.text)


def test_no_two_texts_or_counters_overlap_and_none_covers_a_circle(pictures):
    for what, _, _, svg in pictures:
        root = mr.parse(svg)
        parents = {c: p for p in root.iter() for c in p}
        texts = [(t.text, mr.text_box(t, parents)) for t in root.iter(f"{mr.NS}text")]
        assert len(texts) > 150, what
        for i, (a, box) in enumerate(texts):
            for b, other in texts[i + 1:]:
                assert not mr.meets(box, other), (what, a, b)
        placed = mr.labels(root)
        for i, (a, box) in enumerate(placed):
            for b, other in placed[i + 1:]:
                assert not mr.meets(box, other), (what, a, b)
        for area, (cx, cy, r) in mr.circles(root).items():
            for a, box in placed:
                assert mr.box_to_point(box, cx, cy) > r, (what, area, a)
        for t in root.iter(f"{mr.NS}text"):
            assert float(mr.styled(t, parents, "font-size")) >= 16, (what, t.text)


def test_a_counter_says_what_the_reader_may_see(pictures):
    """Nation letters and colour from the data; an army's number, strength and contents, or
    '?' and nothing else for another side's hidden template (1.4)."""
    for what, opened, reader, svg in pictures:
        data, state = opened.data, opened.state
        hidden = state.options.get("hidden_templates", False)
        shown = mr.counters(mr.parse(svg))
        assert len(shown) > 20, what
        for c in shown:
            nation = data.units.nations[c.element.get("data-nation")]
            look = nation.counter
            assert c.head.split(" ")[0] == look.letters, (what, c.unit)
            box = [r for r in c.element if r.get("class") == "counter-box"][0]
            assert box.get("fill") == look.fill
            army = state.armies.get(c.unit)
            if army is None:
                continue
            assert c.head == f"{look.letters} {c.unit.split('-', 1)[1]}"
            if hidden and reader != nation.side:
                assert (c.value, c.contents, c.strength) == ("?", None, None), (what, c.unit)
            else:
                assert c.value == c.strength == str(army.strength), (what, c.unit)
                assert (c.contents or "empty") in c.title
            assert ("E" in c.tags) is army.entrenched
            assert ("OoS" in c.tags) is (c.unit in state.oos)


def _to_edge(box: mr.Box, circle: tuple[float, float, float]) -> float:
    return mr.box_to_point(box, circle[0], circle[1]) - circle[2]


def test_a_name_or_mark_is_nearer_its_own_circle_than_any_other(pictures, monkeypatch):
    """A reader who looks for the circle nearest an area's name finds that area's: on the
    whole map and on a close-up (of the area holding most of the units he sees, as if a
    decision concerned it), each name as the shipped font draws it, and each supply mark,
    is nearer its own area's circle than any other area's (by the distance from its box to
    each circle's edge). Where the placer finds no such place near the circle
    (NO_OWN_PLACE), the name is tied to its circle by a leader."""
    seen = closeups = 0
    for what, opened, reader, svg in pictures:
        units = list(visible_units(opened, reader).values())
        focus = max(sorted(set(units)), key=units.count)
        monkeypatch.setattr(closeup, "decision_areas", lambda state, data, a=focus: [a])
        close = closeup.closeup_svg(opened.state, opened.data, reader, opened.game_id)
        closeups += close is not None
        for kind, text in (("whole", svg), ("close-up", close)):
            if text is None:
                continue
            root = mr.parse(text)
            circles = mr.circles(root)
            tied = {el.get("data-area") for el in root.iter(f"{mr.NS}line")
                    if el.get("class") == "leader" and el.get("data-area")}
            marks = [(g.get("data-area"), mr.rect_box(r)) for g in root.iter(f"{mr.NS}g")
                     if g.get("class") == "supply" for r in g if mr.tag(r) == "rect"]
            shown = [(area, box) for area, (_, box) in mr.names(root).items()]
            assert len(shown) == len(circles) > 1 and (marks or kind == "close-up"), what
            for n, (area, box) in enumerate(shown + marks):
                own = _to_edge(box, circles[area])
                other, nearest = min((_to_edge(box, c), a) for a, c in circles.items()
                                     if a != area)
                seen += 1
                if own < other:
                    continue
                assert n < len(shown) and area in NO_OWN_PLACE and area in tied, \
                    (what, kind, area, round(own, 1), nearest, round(other, 1))
    assert seen > 55 * len(pictures) and closeups > len(pictures) // 5   # 27: 1485, 5
