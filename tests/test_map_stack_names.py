"""A stack of counters drawn where it could be read as another area's carries its own area's
name, framed, as the first line of its box (stackname.py): one that stands nearer another
area's circle than its own (edge to edge, the boxes as the picture draws them) is named,
one that stands a letter nearer its own than any other is not, and drawn as it was.

The positions are crowded ones met in play: the 1914 opening, where the Entente's and the
Germans' armies stand close along the frontier, and a 1916 game where the 2. Armee has come
into Amiens, whose armies stand in a column rising to beside Artois's circle.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from crowdedmaps import crowded_pictures
from PIL import ImageFont

import mapreading as mr
from referee.render import counters as cnt
from referee.render import labels, mapbase, mapkeys, stackname, stacks
from referee.render.svgparts import FONTS, WHOLE

FONT = WHOLE.font
@pytest.fixture(scope="module")
def pictures(tmp_path_factory) -> dict[str, tuple[object, str]]:
    return crowded_pictures(tmp_path_factory.mktemp("stack-names"), "named")


def _counters_box(stack) -> mr.Box:
    rects = [mr.rect_box(x) for x in stack.iter(f"{mr.NS}rect")
             if x.get("class") == "counter-box"]
    return (min(b[0] for b in rects), min(b[1] for b in rects), max(b[2] for b in rects),
            max(b[3] for b in rects))


def _to_edge(box: mr.Box, circle: tuple[float, float, float]) -> float:
    return mr.box_to_point(box, circle[0], circle[1]) - circle[2]


def test_a_stack_nearer_another_circle_than_its_own_carries_its_area_s_name(pictures):
    """Every stack whose counters stand nearer another area's circle than their own carries
    its area's name as the map writes it, over its counters, in the map's name style; most
    stacks a letter nearer their own circle than any other carry none (one named where it
    was first found nearer another's, then placed anew, keeps its name)."""
    named, plain = [], []
    for what, (opened, svg) in pictures.items():
        root = mr.parse(svg)
        circles = mr.circles(root)
        for st in mr.stacks(root):
            area = st.get("data-area")
            box = _counters_box(st)
            own = _to_edge(box, circles[area])
            other = min(_to_edge(box, c) for a, c in circles.items() if a != area)
            texts = [t for t in st if t.get("class") == "stack-name"]
            if other < own:
                assert len(texts) == 1, (what, area, round(own, 1), round(other, 1))
                t = texts[0]
                assert t.text == mapbase.area_name(opened.data.areas[area]), (what, area)
                assert (t.get("font-weight"), t.get("fill")) == ("bold", "#222222")
                assert float(t.get("font-size")) == FONT
                (ground,) = [r for r in st if r.get("class") == "stack-name-ground"]
                assert mr.rect_box(ground)[3] <= box[1] + 1.0, (what, area)   # over them
                named.append((what, area))
            elif own + FONT <= other and not texts:
                plain.append((what, area))
    assert len(named) >= 3 and len(plain) >= 10, (named, plain)


def test_a_named_stack_meets_no_other_label_and_the_key_says_what_it_means(pictures):
    """The taller box is placed as any: its name meets no label, counter or circle; the key
    under the map says what a framed name means, on a map that has one."""
    for what, (_, svg) in pictures.items():
        root = mr.parse(svg)
        boxes = mr.labels(root)
        named = [b for w, b in boxes if w.startswith("stack name ")]
        assert named, what
        for i, (a, box) in enumerate(boxes):
            for b, other in boxes[i + 1:]:
                assert not mr.meets(box, other), (what, a, b)
        for cx, cy, r in mr.circles(root).values():
            for box in named:
                assert mr.box_to_point(box, cx, cy) > r, what
        legend = " ".join(t.text for g_ in root.iter(f"{mr.NS}g") if g_.get("id") == "legend"
                          for t in g_.iter(f"{mr.NS}text"))
        assert mapkeys.STACK_NAME in legend, what


def _base(other: tuple[float, float]) -> mapbase.Base:
    """A bare map of two areas, 'mine' at (200, 200) and 'theirs' at `other`, with every
    side of 'mine' but the one towards 'theirs' taken."""
    space = labels.Space((0.0, 0.0, 600.0, 600.0))
    b = mapbase.Base(WHOLE, 0.0, 600.0, {"mine": (200.0, 200.0), "theirs": other}, [], [],
                     [], space=space)
    for a, (x, y) in b.pos.items():
        space.add_circle(x, y, b.ring(a) + 1.0, a)
    space.add_box((0.0, 0.0, 600.0, 170.0))            # above 'mine'
    space.add_box((0.0, 170.0, 150.0, 600.0))          # to its left
    space.add_box((250.0, 170.0, 600.0, 240.0))        # to its right
    return b


@pytest.mark.parametrize("other, named", [((200.0, 330.0), True), ((520.0, 560.0), False)])
def test_stacks_name_a_stack_placed_nearer_another_circle_only(other, named):
    """stacks.place_all: with room only below 'mine' and 'theirs' right under it, the stack
    stands nearer the other circle and carries the name given; with 'theirs' far off, the
    same stack carries none."""
    b = _base(other)
    counter = cnt.Counter("fr-i-01", "mine", "entente", "fr", "#aaccff", "#111111",
                          "FR I01", "", "", (), "fr-i-01 infantry", None)
    placed = stacks.place_all(b, {"mine": [counter] * 4}, {"mine": "Mine"})
    assert placed is not None and len(placed) == 1
    (st,) = placed
    box, r = st.box, b.ring("mine") + 1.0
    nearer_other = not labels.owns(b.space, "mine", box, 200.0, 200.0, r, 0.0)
    assert (st.name == "Mine") is named and nearer_other is named, (st.box, st.name)
    if named:
        _, high = stackname.size("Mine", WHOLE)
        assert min(y for _, _, y in st.cells) == pytest.approx(box[1] + high)


@pytest.mark.parametrize("name", ["Épinal", "Örebro", "Sarrebourg", "Somme"])
def test_the_frame_holds_every_letter_whole(name):
    """The frame round a stack's name holds its letters whole, as the shipped font draws
    them: the accent over a capital (É, Ö) under the frame's top, a descender (g) over its
    bottom, inside the stroke."""
    g = ET.Element("g")
    stackname.draw(g, name, "a", 100.0, 200.0, WHOLE, "#000000", "#ffffff")
    frame, text = g.find("rect"), g.find("text")
    inside = mr.grow(mr.rect_box(frame), -stackname.FRAME / 2)
    font = ImageFont.truetype(str(FONTS / mr.FILES[(True, False)]), int(FONT))
    _, top, _, bottom = font.getbbox(name, anchor="ls")
    base = float(text.get("y"))
    assert inside[1] < base + top, (name, inside, base + top)
    assert base + bottom < inside[3], (name, inside, base + bottom)
    high = stackname.size(name, WHOLE)[1]
    assert high == pytest.approx(inside[3] - inside[1] + 2 * stackname.FRAME)
