"""Every stack of counters reads as its own area's on a phone: a stack whose box stands as
near another area's circle as its own, or within a letter of it (edge to edge, the boxes as
the picture draws them), is tied to its own circle by a leader, unbroken and as thick as a
name's, from the circle's edge to the box's.

The positions are crowded ones met in play: the 1914 opening, where Briey's stack stands
nearer Thionville's circle than its own, and a 1916 game where the 2. Armee has come into
Amiens, whose three armies stand in a column rising to beside Artois's circle.
"""

from __future__ import annotations

import math

import pytest
from crowdedmaps import crowded_pictures

import mapreading as mr
from referee.render import labels, svgmap

FONT = 16.0            # the whole map's letter, in pixels (svgparts.WHOLE)
@pytest.fixture(scope="module")
def pictures(tmp_path_factory) -> dict[str, tuple[object, str]]:
    return crowded_pictures(tmp_path_factory.mktemp("stack-leaders"), "crowded")


def _bound(stack) -> mr.Box:
    rects = [mr.rect_box(x) for x in stack.iter(f"{mr.NS}rect")
             if x.get("class") in ("counter-box", "stack-name-ground")]
    return (min(b[0] for b in rects), min(b[1] for b in rects), max(b[2] for b in rects),
            max(b[3] for b in rects))


def _to_edge(box: mr.Box, circle: tuple[float, float, float]) -> float:
    return mr.box_to_point(box, circle[0], circle[1]) - circle[2]


def _leader(stack) -> tuple[float, float, float, float] | None:
    lines = [el for el in stack.iter(f"{mr.NS}line") if el.get("class") == "leader"]
    assert len(lines) <= 1
    return tuple(float(lines[0].get(k)) for k in ("x1", "y1", "x2", "y2")) if lines else None


def _crowded(svg: str, font: float) -> list[tuple[str, float, str, float, object, bool]]:
    """(area, to its own circle, the nearest other area, to its circle, the leader, whether
    the leader runs from the circle's edge to the box's) of each stack not a letter nearer
    its own circle than any other area's."""
    root = mr.parse(svg)
    circles = mr.circles(root)
    out = []
    for stack in mr.stacks(root):
        area, box = stack.get("data-area"), _bound(stack)
        own = _to_edge(box, circles[area])
        other, nearest = min((_to_edge(box, c), a) for a, c in circles.items() if a != area)
        if other < own + font:
            leader = _leader(stack)
            out.append((area, own, nearest, other, leader,
                        leader is not None and _tied(leader, box, circles[area])))
    return out


def _tied(leader, box: mr.Box, circle: tuple[float, float, float]) -> bool:
    """Whether a leader runs from the circle's edge to the box's edge."""
    cx, cy, r = circle
    return abs(math.hypot(leader[0] - cx, leader[1] - cy) - r) < 1.5 and \
        mr.box_to_point(box, leader[2], leader[3]) < 1.5


def test_a_stack_as_near_another_circle_as_its_own_has_a_leader(pictures):
    """The stacks of the crowded positions that stand nearer another circle than their own,
    or within a letter of one, are each tied to their own circle; Briey's in 1914 and
    Amiens' column in 1916 among them."""
    crowded = {}
    for what, (_, svg) in pictures.items():
        for area, own, nearest, other, leader, tied in _crowded(svg, FONT):
            crowded[what, area] = nearest
            assert leader is not None, (what, area, round(own, 1), nearest, round(other, 1))
            assert tied, (what, area, leader)
    assert crowded[("1914 opening", "briey")] == "thionville"
    assert crowded[("1916, the 2. Armee in Amiens", "amiens")] == "artois"


def test_a_stack_s_leader_reads_on_a_phone(pictures):
    """Unbroken, three pixels wide (a name's leader is), in the stack's side's ink, or the
    names' when the stack holds both sides' counters (Amiens)."""
    inks = {}
    for what, (opened, svg) in pictures.items():
        for stack in mr.stacks(mr.parse(svg)):
            for el in stack.iter(f"{mr.NS}line"):
                assert el.get("stroke-dasharray") is None and \
                    float(el.get("stroke-width")) >= 3, (what, stack.get("data-area"))
                sides = {c.get("data-side") for c in stack if c.get("class") == "counter"}
                want = svgmap.ink(sides.pop(), opened.data) if len(sides) == 1 \
                    else svgmap.LEAD_INK
                assert el.get("stroke") == want, (what, stack.get("data-area"))
                inks[what, stack.get("data-area")] = el.get("stroke")
    assert inks[("1916, the 2. Armee in Amiens", "amiens")] == svgmap.LEAD_INK


def test_a_label_touching_its_circle_is_tied_when_another_circle_is_as_near():
    """labels.place with tie: a box that touches its circle gets a leader when another
    area's circle is within `tie` as near, and none when the other stands further off."""
    for other_x, tied in ((180.0, True), (260.0, False)):
        space = labels.Space((0.0, 0.0, 400.0, 400.0))
        space.add_circle(100.0, 100.0, 20.0, "mine")
        space.add_circle(other_x, 100.0, 20.0, "theirs")
        got = labels.place(space, "mine", 100.0, 100.0, 20.0, 30.0, 16.0, 0.0, 40.0, True,
                           16.0, tie=16.0)
        assert got is not None
        box, leader = got
        assert box[0] - 120.0 <= labels.LEADER            # it touches its circle
        assert (leader is not None) is tied, (other_x, box)
        assert labels.place(labels.Space((0.0, 0.0, 400.0, 400.0)), "mine", 100.0, 100.0,
                            20.0, 30.0, 16.0, 0.0, 40.0)[1] is None
