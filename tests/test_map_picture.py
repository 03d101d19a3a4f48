"""The map as a phone shows it: legible at 1,000 pixels wide, and as PNG.

Legibility is checked on the SVG, with the shipped font's own widths (Pillow measures each
text in the font file png.py draws with): no two labels (area names, units, fort and supply
marks, the regions' labels) overlap, no line joining two neighbours (4.1) crosses a label,
no label meets an area's circle; at the 1914 start of TTLM and AAC and in the middle of a
random game with hidden templates. Every fort shows its side (8.4), and the top of the
picture says who it is for, the record and the turn. The PNG decodes, 1,000 pixels wide;
`map --format png` prints it, never to a terminal.
"""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest
from PIL import Image, ImageFont
from test_map_regions import segment_meets_box

import gamecalls as g
from casebook import new_game, position
from referee.game.autoplay import autoplay
from referee.game.views import state_view
from referee.render import png, svgmap
from referee.render.svgparts import text_width

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


_FONTS: dict[bool, ImageFont.FreeTypeFont] = {}


def measured(text: str, size: float, bold: bool) -> float:
    """How wide the shipped font draws a text."""
    if bold not in _FONTS:
        name = "DejaVuSansCondensed-Bold.ttf" if bold else "DejaVuSansCondensed.ttf"
        _FONTS[bold] = ImageFont.truetype(str(png.FONTS / name), 200)
    return _FONTS[bold].getlength(text) * size / 200


def text_box(el: ET.Element) -> tuple[float, float, float, float]:
    """The box a text is drawn in: its measured width, the font's ascent and descent."""
    size = float(el.get("font-size"))
    w = measured(el.text or "", size, el.get("font-weight") == "bold")
    x, y = float(el.get("x")), float(el.get("y"))
    x0 = {"middle": x - w / 2, "end": x - w}.get(el.get("text-anchor"), x)
    return x0, y - size * 0.93, x0 + w, y + size * 0.24


def rect_box(el: ET.Element) -> tuple[float, float, float, float]:
    x, y = float(el.get("x")), float(el.get("y"))
    return x, y, x + float(el.get("width")), y + float(el.get("height"))


def labels_on_the_map(root: ET.Element) -> list[tuple[str, tuple]]:
    """(what, box) of every label drawn on the map part: names and units of the areas, their
    fort and supply marks, the regions' labels."""
    out = []
    for g_ in root.iter(f"{NS}g"):
        gid = g_.get("id") or ""
        if gid.startswith("area-") and "offmap" not in g_.get("class"):
            for el in g_:
                cls = el.get("class") or ""
                if el.tag == f"{NS}text" and cls in ("name", "unit"):
                    out.append((f"{gid} {el.text}", text_box(el)))
                elif el.tag == f"{NS}rect" and cls in ("fort", "supply"):
                    out.append((f"{gid} {cls}", rect_box(el)))
        elif gid.startswith("impassable-") and "unplaced" not in (g_.get("class") or ""):
            out.append((gid, rect_box(g_.find(f"{NS}rect"))))
    return out


def meets(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("which", ["ttlm", "aac", "mid"])
def test_no_label_crosses_a_line_a_circle_or_another_label(pictures, which):
    svg, opened, _, _ = pictures[which]
    root = ET.fromstring(svg)
    boxes = labels_on_the_map(root)
    names = [w for w, _ in boxes if " " in w and not w.endswith(("fort", "supply"))]
    assert len(boxes) > 60 and len(names) > 30
    for i, (what, a) in enumerate(boxes):
        for other, b in boxes[i + 1:]:
            assert not meets(a, b), (what, other)
    lines = [el for el in root.iter(f"{NS}line") if el.get("class") == "link"]
    assert len(lines) > 50
    for el in lines:
        x0, y0, x1, y1 = (float(el.get(k)) for k in ("x1", "y1", "x2", "y2"))
        for what, box in boxes:
            assert not segment_meets_box(x0, y0, x1, y1, box), (what, el.get("data-from"),
                                                                el.get("data-to"))
    circles = [el for el in root.iter(f"{NS}circle") if el.get("class") == "shape"]
    for c in circles:
        cx, cy, r = float(c.get("cx")), float(c.get("cy")), float(c.get("r"))
        for what, (x0, y0, x1, y1) in boxes:
            d = ((max(x0 - cx, 0, cx - x1)) ** 2 + (max(y0 - cy, 0, cy - y1)) ** 2) ** 0.5
            assert d > r, what


@pytest.mark.parametrize("which", ["ttlm", "aac", "mid"])
def test_every_area_is_named_on_the_map_and_every_unit_is_shown(pictures, which):
    """Each area's name is on the map beside it; each unit the reader may see is in its
    area's element (beside it, or listed under the map when there is no room), and the
    placer's width of a text is never less than the font's."""
    svg, opened, reader, _ = pictures[which]
    root = ET.fromstring(svg)
    view = state_view(opened.state, opened.data, reader, opened.game_id)
    for el in root.iter(f"{NS}g"):
        gid = el.get("id") or ""
        if not gid.startswith("area-"):
            continue
        area = gid[5:]
        texts = [t.text for t in el.iter(f"{NS}text")]
        if "offmap" not in el.get("class"):
            named = [t for t in el if t.get("class") == "name"]
            assert [t.text for t in named] == [opened.data.areas[area].name], area
        shown = " ".join(t or "" for t in texts)
        for u in view["areas"][area]["units"]:
            if u["type"] != "fort":
                assert re.search(rf"(?<![\w-]){re.escape(u['id'])}(?![\w-])", shown), \
                    (area, u["id"])
        for t in el.iter(f"{NS}text"):
            bold = t.get("font-weight") == "bold"
            size = float(t.get("font-size"))
            assert text_width(t.text, size, bold) >= measured(t.text, size, bold) - 0.01


def test_every_fort_shows_its_side_and_the_top_says_reader_record_and_turn(pictures):
    svg, opened, reader, _ = pictures["mid"]
    root = ET.fromstring(svg)
    forts = {f.area: f for f in opened.state.forts.values()}
    for area, f in forts.items():
        side = opened.data.nation_side[f.nation]
        el = root.find(f".//{NS}g[@id='area-{area}']")
        marks = [r for r in el if r.get("class") == "fort"]
        if marks:                     # against its circle, in its side's colour
            (mark,) = marks
            assert mark.get("data-side") == side
            assert mark.get("fill") == svgmap.control_colour(side, opened.data)
            assert mark.get("data-strength") == str(f.strength)
        else:                         # no room there: written with its side
            assert any(t.text == f"fort {f.strength} ({side.capitalize()})"
                       for t in el.iter(f"{NS}text")), area
    legend = root.find(f".//{NS}g[@id='legend']")
    top = [t.text for t in legend.iter(f"{NS}text")][:3]
    assert f"map for {reader}" in top[0]
    assert f"record {opened.state.seq}" in top[1]
    assert f"Turn {opened.state.turn} of" in top[1] and opened.data.label(
        opened.state.turn) in top[1]
    assert all(float(t.get("font-size")) >= 13 for t in list(legend.iter(f"{NS}text"))[:3])


# ---------------------------------------------------------------- PNG

def decode(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG"
    return image


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
