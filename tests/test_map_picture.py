"""The map as a phone shows it: legible at 1,000 pixels wide, and as PNG.

Legibility is checked on the SVG, with the shipped font's own widths (Pillow measures each
text in the font file png.py draws with): no two labels (area names, counters, supply
marks, the regions' labels) overlap, few lie over a line joining two neighbours (4.1) and
those on their own ground, no label meets an area's circle, every text of a counter fits
it; at the 1914 start of TTLM and AAC and in the middle of a random game with hidden
templates. Every fort is a counter of its side (8.4), and the top of the picture says who
it is for, the record and the turn. The PNG decodes, 1,000 pixels wide; `map --format png`
prints it, never to a terminal.
"""

from __future__ import annotations

import io
import math
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest
from PIL import Image

import gamecalls as g
import mapreading as mr
from casebook import new_game, position
from referee.game.autoplay import autoplay
from referee.render import svgmap
from referee.render.labels import segment_meets_box

NS = "{http://www.w3.org/2000/svg}"
BIG = 10 ** 9


@pytest.fixture(scope="module")
def pictures(tmp_path_factory) -> dict:
    """The SVG and game of: each game's 1914 start for the public, and a random TTLM game
    with hidden templates in its fourth turn for the German."""
    tmp = tmp_path_factory.mktemp("pictures")
    out = {}
    for game in ("ttlm", "aac"):
        journal = new_game(tmp, position("1914", game=game), name=game, game=game)
        opened = g.open_game(journal)
        out[game] = (svgmap.map_svg(opened.state, opened.data, "public", opened.game_id),
                     opened, "public", journal)
    journal = new_game(tmp, position("1914"), {"hidden_templates": True}, name="mid")
    done = autoplay(journal, 3, until=3, check_every=BIG)
    assert done.failure is None, done.failure
    opened = g.open_game(journal)
    assert opened.state.turn == 4
    out["mid"] = (svgmap.map_svg(opened.state, opened.data, "german", opened.game_id),
                  opened, "german", journal)
    return out


@pytest.mark.parametrize("which", ["ttlm", "aac", "mid"])
def test_no_label_meets_a_circle_or_another_label_nor_a_line_shows_through(pictures, which):
    """Names, counters, marks and the regions' labels meet no circle and no other label; a
    label lies over a line joining two neighbours (4.1) only where no place clear of the
    lines was near (labels.py), and then on its own ground, which hides the line under it:
    no line crosses a text."""
    svg, opened, _, _ = pictures[which]
    root = mr.parse(svg)
    boxes = mr.labels(root)
    names = [w for w, _ in boxes if w.startswith("name ")]
    assert len(boxes) > 60 and len(names) > 30
    for i, (what, a) in enumerate(boxes):
        for other, b in boxes[i + 1:]:
            assert not mr.meets(a, b), (what, other)
    links = mr.links(root)
    assert len(links) > 50
    grounds = {el.get("data-area"): mr.rect_box(el) for el in root.iter(f"{mr.NS}rect")
               if el.get("class") == "name-ground"}
    for what, box in boxes:
        if what.startswith("name ") and any(segment_meets_box(*seg, box)
                                            for _, _, seg in links):
            assert mr.inside(box, mr.grow(grounds[what[5:]], 0.5)), what
    texts = [t for g_ in root.iter(f"{NS}g") if g_.get("id") == "names"
             for t in g_.iter(f"{NS}text") if t.get("class") == "name"]
    assert len(texts) == len(names)   # a name is drawn after the lines, over its ground
    for cx, cy, r in mr.circles(root).values():
        for what, box in boxes:
            assert mr.box_to_point(box, cx, cy) > r, what


@pytest.mark.parametrize("which", ["ttlm", "aac", "mid"])
def test_every_area_is_named_on_the_map_and_every_text_fits_its_box(pictures, which):
    """Each area on the front has its name on the map beside it; every text of a counter
    lies inside the counter, as the shipped font draws it."""
    svg, opened, _, _ = pictures[which]
    root = mr.parse(svg)
    shown = mr.names(root)
    front = [a for a in opened.data.map.areas if a.kind != "sea_only"]
    assert {a: n for a, (n, _) in shown.items()} == {a.id: a.name for a in front}
    parents = {c: p for p in root.iter() for c in p}
    for c in mr.counters(root, keys=True):
        for t in c.element.iter(f"{mr.NS}text"):
            assert mr.inside(mr.text_box(t, parents), mr.grow(c.box, 0.5)), (c.unit, t.text)


def test_every_fort_shows_its_side_and_the_top_says_reader_record_and_turn(pictures):
    svg, opened, reader, _ = pictures["mid"]
    root = mr.parse(svg)
    shown = {c.unit: c for c in mr.counters(root)}
    for fid, f in opened.state.forts.items():
        side = opened.data.nation_side[f.nation]
        c = shown[fid]                # a counter at its area, in its nation's colours
        assert (c.area, c.side, c.strength, c.value) == (f.area, side, str(f.strength),
                                                         str(f.strength))
        box = [r for r in c.element if r.get("class") == "counter-box"][0]
        assert box.get("fill") == opened.data.units.nations[f.nation].counter.fill
    legend = root.find(f".//{NS}g[@id='legend']")
    top = [t.text for t in legend.iter(f"{NS}text")][:3]
    assert f"map for {reader.title()}" in top[0]
    assert f"record {opened.state.seq}" in top[1]
    assert f"Turn {opened.state.turn} of" in top[1] and opened.data.label(
        opened.state.turn) in top[1]
    assert all(float(t.get("font-size")) >= 16 for t in list(legend.iter(f"{NS}text"))[:3])


# ---------------------------------------------------------------- PNG

def decode(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG"
    return image


@pytest.mark.parametrize("which", ["ttlm", "aac"])
def test_the_keys_colours_are_drawn_exactly_in_the_png(pictures, which):
    """The key under the map tells each control's colour (German, Entente, Disputed,
    Neutral; games/<game>/units.yaml side_colours) with a swatch: in the PNG a phone shows,
    each swatch is its own colour, though no area on the map has it now. AAC's 1914 map has
    no Disputed or Neutral area, and its key showed them in the Russian counters' khaki and
    the Austro-Hungarian light blue, the palette's nearest."""
    from referee.render.png import to_png

    svg = pictures[which][0]
    root = ET.fromstring(svg)
    legend = next(el for el in root.iter(f"{NS}g") if el.get("id") == "legend")
    swatches = [(float(c.get("cx")), float(c.get("cy")), c.get("fill"))
                for c in legend.iter(f"{NS}circle") if c.get("fill", "").startswith("#")]
    assert len(swatches) == 4, swatches
    image = decode(to_png(svg)).convert("RGB")
    for x, y, fill in swatches:
        r, g, b = image.getpixel((round(x), round(y)))
        assert f"#{r:02x}{g:02x}{b:02x}" == fill, (x, y, fill)


@pytest.mark.parametrize("which", ["ttlm", "aac", "mid"])
def test_a_never_entered_box_keeps_its_colour_in_the_png(pictures, which):
    """A sea (4.2) and a neutral country (4.1) are boxes of their own colours, light blue
    and light grey, told in the key's 'Never entered'. With the key's swatches kept exact,
    TTLM's seas took the Neutral control's grey, the palette's nearest entry: a sea read
    as a Neutral area. Each box is drawn in its own colour."""
    from referee.render.png import to_png

    svg = pictures[which][0]
    root = ET.fromstring(svg)
    boxes = [(float(r.get("x")), float(r.get("y")), float(r.get("height")), r.get("fill"))
             for r in root.iter(f"{NS}rect") if r.get("class") == "region"]
    assert boxes
    image = decode(to_png(svg)).convert("RGB")
    for x, y, h, fill in boxes:
        r, g, b = image.getpixel((round(x + 4), round(y + h / 2)))
        assert f"#{r:02x}{g:02x}{b:02x}" == fill, (x, y, fill)


def test_map_format_png_prints_the_picture_and_o_writes_it(pictures, cli, tmp_path):
    """`map --format png` prints a PNG as wide and high as the SVG `map --format svg`
    prints, which holds every area with its control; `-o FILE.png` writes the same."""
    _, opened, _, journal = pictures["ttlm"]
    r = cli("map", journal, "--format", "svg")
    assert r.exit_code == 0, r.stderr
    root = ET.fromstring(r.stdout_bytes)
    areas = {el.get("id")[5:]: el.get("data-control") for el in root.iter(f"{NS}g")
             if (el.get("id") or "").startswith("area-")}
    assert areas == {a.id: opened.state.area_state(a.id, opened.data)
                     for a in opened.data.map.areas}
    r = cli("map", journal, "--format", "png")
    assert r.exit_code == 0, r.stderr
    image = decode(r.stdout_bytes)
    assert image.size == (svgmap.WIDTH, round(float(root.get("height"))))
    assert image.size[0] == 1000
    out = tmp_path / "m.png"
    r = cli("map", journal, "-o", out, "--format", "json")
    assert r.exit_code == 0, r.stderr
    assert '"format": "png"' in r.stdout and decode(out.read_bytes()).size == image.size


def test_bad_picture_options_are_one_line_usage_errors(pictures, cli, tmp_path):
    _, _, _, journal = pictures["aac"]
    before = journal.read_bytes()
    for bad in (["--format", "json"], [], ["-o", tmp_path / "x.svg", "--format", "png"],
                ["-o", tmp_path / "x.gif", "--format", "png"]):
        r = cli("map", journal, *bad)
        assert r.exit_code == 2 and len(r.stderr.strip().splitlines()) == 1, (bad, r.stderr)
        assert "Traceback" not in r.stderr
    assert journal.read_bytes() == before and not list(tmp_path.glob("x.*"))


@pytest.mark.skipif(os.name != "posix", reason="a pseudo-terminal")
def test_a_picture_is_not_printed_on_a_terminal(pictures):
    """`map --format png` with standard output on a terminal (a real pseudo-terminal) is
    refused: exit 2, one line saying to use -o or redirect, no bytes on the terminal."""
    import pty

    _, _, _, journal = pictures["aac"]
    main, child = pty.openpty()
    try:
        done = subprocess.run([sys.executable, "-m", "referee", "map", str(journal),
                               "--format", "png"], stdout=child, stderr=subprocess.PIPE,
                              stdin=subprocess.DEVNULL, timeout=60, env=dict(os.environ))
    finally:
        os.close(child)
    import select

    try:
        ready = select.select([main], [], [], 0)[0]
        shown = os.read(main, 65536) if ready else b""
    except OSError:
        shown = b""
    finally:
        os.close(main)
    err = done.stderr.decode()
    assert done.returncode == 2, err
    assert len(err.strip().splitlines()) == 1 and "-o" in err and "terminal" in err
    assert b"PNG" not in shown


@pytest.mark.parametrize("seed", range(6))
def test_the_free_places_are_every_box_clear_of_what_is_drawn(seed):
    """labels.Space.openings, which works a window's rows together in one integer, gives
    for each row exactly the top left corners (in cells) of the w x h boxes that lie in the
    window's columns and the space's bounds and touch no taken cell, nor a soft one when
    clear (strict None: those clear first, then the others), counted cell by cell."""
    import math
    import random

    from referee.render import labels

    rng = random.Random(seed)
    space = labels.Space((2.0, 40.0, 998.0, 1400.0))
    for _ in range(rng.randrange(5, 60)):
        x, y = rng.uniform(-20, 1000), rng.uniform(20, 1400)
        if rng.random() < 0.6:
            space.add_box((x, y, x + rng.uniform(1, 80), y + rng.uniform(1, 30)))
        else:
            space.add_segment(x, y, rng.uniform(0, 1000), rng.uniform(40, 1400),
                              soft=rng.random() < 0.7)
    cell = labels.CELL
    for _ in range(40):
        w, h = rng.uniform(3, 90), rng.uniform(3, 40)
        x, y = rng.uniform(-50, 1050), rng.uniform(0, 1450)
        window = (x, y, x + rng.uniform(0, 400), y + rng.uniform(0, 300))
        strict = rng.choice((True, False, None))
        got = list(space.openings(w, h, window, strict))
        kw, kh = math.ceil(w / cell) + 1, math.ceil(h / cell) + 1
        columns = {c for c in range(max(int(window[0] // cell), space.i0),
                                    int(window[2] // cell) + 2) if space.i0 <= c < space.i1}
        rows = range(max(int(window[1] // cell), space.j0),
                     min(int(window[3] // cell), space.j1 - kh) + 1)

        def fits(i: int, j: int, clear: bool, columns=columns, kw=kw, kh=kh) -> bool:
            return all(c in columns and not (space.hard.get(r, 0) >> c) & 1 and
                       not (clear and (space.soft.get(r, 0) >> c) & 1)
                       for r in range(j, j + kh) for c in range(i, i + kw))

        kinds = (True,) if strict else (False,) if strict is False else (True, False)
        want = []
        for j in rows:
            seen: set[int] = set()
            for clear in kinds:
                found = {i for i in columns if i not in seen and fits(i, j, clear)}
                if found:
                    want.append((j, sum(1 << i for i in found), clear))
                    seen |= found
        assert got == want, (w, h, window, strict)


@pytest.mark.parametrize("seed", range(6))
def test_the_free_places_follow_what_is_added_after_they_are_read(seed):
    """Space.openings reads the rows of cells kept as bytes (packed_rows), written when first
    read and again for the rows marked since: a space read, added to, copied and read again
    gives, at every read, what a space made afresh from its cells gives."""
    import random

    from referee.render import labels

    rng = random.Random(seed)
    space = labels.Space((2.0, 40.0, 998.0, 1400.0))
    spaces = [space]
    for _ in range(rng.randrange(20, 80)):
        space = rng.choice(spaces)
        x, y = rng.uniform(-20, 1000), rng.uniform(20, 1400)
        pick = rng.random()
        if pick < 0.4:
            space.add_box((x, y, x + rng.uniform(1, 80), y + rng.uniform(1, 30)))
        elif pick < 0.7:
            space.add_segment(x, y, rng.uniform(0, 1000), rng.uniform(40, 1400),
                              soft=rng.random() < 0.5)
        elif pick < 0.8:
            space.add_circle(x, y, rng.uniform(2, 30))
        elif pick < 0.9:
            spaces.append(space.copy())
        w, h = rng.uniform(3, 90), rng.uniform(3, 40)
        window = (x - 200, y - 150, x + 200, y + 150)
        strict = rng.choice((True, False, None))
        afresh = labels.Space.from_payload(space.payload())
        assert list(space.openings(w, h, window, strict)) == \
            list(afresh.openings(w, h, window, strict)), (w, h, window, strict)


@pytest.mark.parametrize("seed", range(8))
def test_a_leader_s_suspects_change_no_answer(seed):
    """Space.clear_path with suspects (what blocked the leaders tried before from the same
    circle, looked at first) answers as it does without them, for leaders crowded among
    labels, circles and other leaders: also a leader that passes within a pixel of a label
    kept only in the bucket next to the ones it passes through, which is not looked at."""
    import random

    from referee.render import labels

    rng = random.Random(seed)
    edges = [labels.BUCKET * k for k in range(1, 9)]
    space = labels.Space((0.0, 0.0, 600.0, 600.0))
    for _ in range(rng.randrange(30, 120)):
        x, y, owner = rng.uniform(0, 600), rng.uniform(0, 600), rng.choice("abc")
        pick = rng.random()
        if pick < 0.4:                  # a label ending half a pixel short of an edge
            e = rng.choice(edges)
            space.add_box((e - rng.uniform(1, 60), y, e - 0.5, y + rng.uniform(1, 20)), owner)
        elif pick < 0.6:
            space.add_box((x, y, x + rng.uniform(1, 60), y + rng.uniform(1, 20)), owner)
        elif pick < 0.8:
            space.add_circle(x, y, rng.uniform(2, 20), owner)
        else:
            space.add_segment(x, y, x + rng.uniform(-80, 80), y + rng.uniform(-80, 80), owner)
    for _ in range(10):
        x, y, owner = rng.uniform(0, 600), rng.uniform(0, 600), rng.choice("abc")
        suspects: list = []
        for _ in range(60):
            if rng.random() < 0.5:      # along an edge, on the side away from its labels
                e = rng.choice(edges) + rng.uniform(0, 0.4)
                leader = (e, rng.uniform(0, 600), e, rng.uniform(0, 600))
            else:
                leader = (x, y, rng.uniform(0, 600), rng.uniform(0, 600))
            assert space.clear_path(*leader, owner, suspects) == \
                space.clear_path(*leader, owner), (leader, owner)


@pytest.mark.parametrize("seed", range(6))
def test_a_search_that_found_no_place_is_not_made_again_in_vain(seed):
    """labels.place on a space that remembers the searches that found nothing (until
    something is added) places each label as on a space made afresh from its cells that
    remembers none, asked the same few searches again and again between the labels it
    adds."""
    import random

    from referee.render import labels

    rng = random.Random(seed)
    space = labels.Space((0.0, 0.0, 600.0, 600.0))
    for _ in range(rng.randrange(10, 40)):
        x, y = rng.uniform(0, 600), rng.uniform(0, 600)
        if rng.random() < 0.6:
            space.add_box((x, y, x + rng.uniform(5, 40), y + rng.uniform(5, 20)), "x")
        else:
            space.add_segment(x, y, rng.uniform(0, 600), rng.uniform(0, 600), "x",
                              soft=rng.random() < 0.6)
    circles = [(f"c{k}", rng.uniform(50, 550), rng.uniform(50, 550), rng.uniform(5, 15))
               for k in range(6)]
    for owner, x, y, r in circles:
        space.add_circle(x, y, r, owner)
    asks = [(*rng.choice(circles), rng.uniform(10, 40), rng.uniform(8, 20),
             rng.choice((math.pi / 2, -math.pi / 2)), rng.choice((60.0, 150.0)),
             rng.choice((True, False, None))) for _ in range(8)]
    class Forgetful(set):
        def add(self, asked) -> None:
            pass

    for _ in range(60):
        owner, x, y, r, w, h, prefer, reach, strict = rng.choice(asks)
        afresh = labels.Space.from_payload(space.payload())
        afresh.refused = Forgetful()
        assert labels.place(space, owner, x, y, r, w, h, prefer, reach, strict) == \
            labels.place(afresh, owner, x, y, r, w, h, prefer, reach, strict)


@pytest.mark.parametrize("seed", range(6))
def test_a_place_asked_to_read_as_its_own_is_nearer_its_circle_than_any_other(seed):
    """labels.place with apart gives a box at least that much nearer the edge of its
    owner's circle than the edge of any other owner's circle in the space, counted over
    every circle (not by the buckets labels.owns looks in), or none; and labels.owns
    answers as that count does, for boxes anywhere near."""
    import random

    from referee.render import labels

    rng = random.Random(seed)
    space = labels.Space((0.0, 0.0, 600.0, 600.0))
    circles = []
    for k in range(rng.randrange(8, 30)):
        x, y = rng.uniform(20, 580), rng.uniform(20, 580)
        if rng.random() < 0.3:
            space.add_box((x, y, x + rng.uniform(5, 40), y + rng.uniform(5, 20)), "x")
        elif rng.random() < 0.3:
            space.add_segment(x, y, rng.uniform(0, 600), rng.uniform(0, 600), "x",
                              soft=rng.random() < 0.6)
        r = rng.uniform(5, 25)
        circles.append((f"c{k}", x, y, r))
        space.add_circle(x, y, r, f"c{k}")

    def owned(box, owner, x, y, r, apart) -> bool:
        mine = labels.box_to_point(box, x, y) - r
        return all(labels.box_to_point(box, cx, cy) - cr >= mine + apart
                   for who, cx, cy, cr in circles if who != owner)

    found = 0
    for _ in range(40):
        owner, x, y, r = rng.choice(circles)
        w, h, apart = rng.uniform(10, 70), rng.uniform(8, 20), rng.choice((0.0, 3.0, 10.0))
        got = labels.place(space, owner, x, y, r, w, h, rng.uniform(-math.pi, math.pi),
                           rng.choice((40.0, 120.0)), rng.choice((True, False, None)),
                           keep=rng.random() < 0.5, apart=apart)
        if got is not None:
            found += 1
            assert owned(got[0], owner, x, y, r, apart), (got, owner, apart)
        for _ in range(20):
            bx, by = x + rng.uniform(-150, 150), y + rng.uniform(-150, 150)
            box = (bx, by, bx + w, by + h)
            assert labels.owns(space, owner, box, x, y, r, apart) == \
                owned(box, owner, x, y, r, apart), (box, owner, apart)
    assert found > 5
