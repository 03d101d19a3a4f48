"""The map picture (`referee map`, the map.png of `inbox`'s mails): one SVG per reader.

Checked by parsing the SVG as XML: every area is one element `area-<id>` whose
`data-control` and fill follow the state's control (1.2), before and after a battle
(5.1.1: a move into an Enemy area makes it Disputed and a Battle Area; 5.3.4: the
defender annihilated, the area is German-Friendly); the drawn links are exactly the
adjacency of map.yaml (4.1); nothing in it runs or refers outside the file; a name from
the data is escaped; with hidden templates (1.4) a reader sees the contents of his own
armies only; `--at` out of range is a usage error.
"""

from __future__ import annotations

import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml
from PIL import Image

import gamecalls as g
import mapreading as mr
from casebook import new_game, position, saint_mihiel, yaml_text
from referee.data.paths import default_games_dir
from referee.render import mapkeys, sharedmaps, svgmap

NS = "{http://www.w3.org/2000/svg}"
# The fill of an area by its control (the German green and Entente blue of the map, 6.1).
FILL = {"german": "#a9c59a", "entente": "#9dbbe3", "disputed": "#f0a35e", "neutral": "#dcdcdc"}


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg.encode("utf-8"))


def tag(el: ET.Element) -> str:
    return el.tag.removeprefix(NS)


def area_elements(root: ET.Element) -> dict[str, list[ET.Element]]:
    out: dict[str, list[ET.Element]] = {}
    for el in root.iter():
        i = el.get("id") or ""
        if i.startswith("area-"):
            out.setdefault(i[5:], []).append(el)
    return out


def check_areas(svg: str, game) -> dict[str, ET.Element]:
    """Each area of the data is one element with its control and the fill of that control."""
    found = area_elements(parse(svg))
    assert set(found) == {a.id for a in game.data.map.areas}
    out = {}
    for a in game.data.map.areas:
        (el,) = found[a.id]
        control = game.state.area_state(a.id, game.data)
        assert el.get("data-control") == control, a.id
        shapes = [c for c in el if "shape" in (c.get("class") or "").split()]
        assert len(shapes) == 1 and shapes[0].get("fill") == FILL[control], a.id
        out[a.id] = el
    return out


# ---------------------------------------------------------------- a battle (5.3.4 example)

@pytest.fixture(scope="module")
def battle(tmp_path_factory) -> dict:
    """The 5.3.4 example: the German 1st Army attacks a lone French infantry at Saint-Mihiel
    (forced dice) and the Entente annihilates it. Maps drawn before the move, in the battle and
    after it."""
    tmp = tmp_path_factory.mktemp("battle")
    sc = saint_mihiel()
    journal = new_game(tmp, sc, dice="manual", name="battle")
    maps = {}

    def step(side: str, text: str, dice: str | None = None) -> None:
        r = g.submit(journal, side, [text], dice)
        assert r.rejected is None, r.rejected

    def draw(name: str, reader: str = "public") -> None:
        game = g.open_game(journal)
        maps[name] = (svgmap.map_svg(game.state, game.data, reader, game.game_id), game)

    draw("before")
    step("german", "play offensive")
    step("german", "move ge-1 st_mihiel")
    draw("moved")
    step("german", "end movement")
    draw("declared")
    step("entente", "done", "6,6")
    draw("fighting")
    step("entente", "done", "6,1,1,1,6,6,6,6")
    step("entente", "annihilate")
    draw("retreat")
    step("german", "done")                  # no retreat after combat (5.2.1 e): battle over
    draw("after")
    draw("after-german", "german")
    return {"journal": journal, "maps": maps}


def test_every_area_is_one_element_coloured_by_control_around_a_battle(battle):
    """1.2 and 5.1.1: Saint-Mihiel is Entente, then Disputed and a Battle Area while the battle
    is declared and fought; German-Friendly once the defender is annihilated (5.3.4), still
    the Battle Area until its retreat phase is over (5.2.1 e), then a German area only."""
    expect = {"before": ("entente", False), "moved": ("disputed", True),
              "declared": ("disputed", True),
              "fighting": ("disputed", True), "retreat": ("german", True),
              "after": ("german", False),
              "after-german": ("german", False)}
    decided = {"moved": True, "declared": True, "fighting": True, "retreat": True}
    for name, (control, fought) in expect.items():
        svg, game = battle["maps"][name]
        els = check_areas(svg, game)
        el = els["st_mihiel"]
        assert el.get("data-control") == control, name
        assert (el.get("data-battle") == "true") is fought, name
        # the decision asked concerns the battle: a gold ring round its area
        assert (el.get("data-decision") == "true") is decided.get(name, False), name
        assert len([c for c in el if c.get("class") == "decision"]) == int(decided.get(name, 0))
        rings = [c for c in el if c.get("class") == "battle"]
        assert len(rings) == int(fought), name
        # no other area is marked: there is one battle
        assert [a for a, e in els.items() if e.get("data-battle")] == (["st_mihiel"] if fought
                                                                       else []), name
    assert len(set(FILL.values())) == 4


def test_units_forts_supply_vp_and_legend(battle):
    """What an area shows: its units as counters beside it (1.2), its fort and strength
    (8.4), a supply source and its side (6.1), its VP (3.1); the legend: turn, season, VP
    total and level."""
    svg, game = battle["maps"]["after"]
    els = check_areas(svg, game)
    root = parse(svg)
    texts = lambda el: [t.text for t in el.iter(f"{NS}text")]   # noqa: E731
    shown = {c.unit: c for c in mr.counters(root)}
    army = shown["ge-1"]                                   # defensive fire missed: all there
    assert (army.area, army.head, army.value, army.contents) == ("st_mihiel", "GE 1", "7",
                                                                 "5I+2A")
    assert army.strength == "7" and "ge-1" in army.title and "[5I+2A]" in army.title
    fort = shown["fort-verdun"]
    strength = str(game.state.forts["fort-verdun"].strength)
    assert (fort.area, fort.value, fort.strength) == ("verdun", strength, strength)
    assert fort.head.endswith(" F") and fort.side == "entente"
    assert str(game.data.areas["verdun"].vp) in texts(els["verdun"])
    marks = {g.get("data-area"): g for g in root.iter(f"{NS}g") if g.get("class") == "supply"}
    src = [a for a in game.data.map.areas if a.supply_source][:3]
    for a in src:
        assert marks[a.id].get("data-side") == a.supply_source
    legend = " ".join(t.text for t in root.find(f".//{NS}g[@id='legend']").iter(f"{NS}text"))
    view_label = game.data.label(game.state.turn)
    assert f"Turn {game.state.turn} of" in legend and view_label in legend
    assert re.search(r"VP \d+: \w+", legend)
    for key in ("a battle area (5.1.1)", "the decision asked now concerns this area",
                "E: entrenched (4.3); OoS: out of supply (6.5)", "Kingdom of Belgium"):
        assert key in legend, key
    eng = els["england"]
    assert "offmap" in eng.get("class")
    assert {c.unit for c in shown.values() if c.area == "england"} == {
        u.id for u in (*game.state.armies.values(), *game.state.pieces.values())
        if getattr(u, "area", None) == "england" and getattr(u, "status", "map") == "map"}
    assert any(c.area == "england" for c in shown.values())
    assert root.find(f".//{NS}g[@id='box-eft']") is not None


def test_links_are_exactly_the_adjacency(battle, data):
    """4.1: a line for every pair of neighbours in map.yaml, and for no other pair."""
    svg, _ = battle["maps"]["before"]
    drawn = [frozenset((el.get("data-from"), el.get("data-to")))
             for el in parse(svg).iter(f"{NS}line") if el.get("class") == "link"]
    adjacency = {frozenset((a.id, b)) for a in data.map.areas for b in a.neighbours}
    assert len(drawn) == len(set(drawn))
    assert set(drawn) == adjacency
    assert frozenset(("metz", "verdun")) not in set(drawn)      # the Woëvre between them


SAFE_TAGS = {"svg", "g", "title", "rect", "circle", "line", "text"}


def executable_or_external(svg: str) -> list[str]:
    """Every element or attribute that could run or fetch something."""
    bad = []
    if re.search(r"<!DOCTYPE|<!ENTITY|<\?xml-stylesheet", svg, re.I):
        bad.append("a DOCTYPE, entity or stylesheet")
    for el in parse(svg).iter():
        if tag(el) not in SAFE_TAGS:
            bad.append(f"element {tag(el)}")
        for k, v in el.attrib.items():
            name = k.rsplit("}", 1)[-1].lower()
            if name.startswith("on") or name == "style":
                bad.append(f"{tag(el)} {k}")
            if name == "href" and not v.startswith("#"):
                bad.append(f"{tag(el)} {k}={v}")
            if re.search(r"url\((?!#)|javascript:|data:", v, re.I):
                bad.append(f"{tag(el)} {k}={v}")
    return bad


def test_nothing_executable_or_external_and_small(battle):
    for svg, _ in battle["maps"].values():
        assert executable_or_external(svg) == []
        assert len(svg.encode("utf-8")) < 250_000       # a counter for every unit
    assert executable_or_external('<svg xmlns="http://www.w3.org/2000/svg"><script/>'
                                  '<g onload="x()"/><a href="http://x"/></svg>') == [
        "element script", "g onload", "element a", "a href=http://x"]


def test_a_name_from_the_data_is_escaped(battle, tmp_path):
    """A copy of the data whose area name holds markup: it is text in the SVG, never markup."""
    root = tmp_path / "games" / "ttlm"
    shutil.copytree(default_games_dir() / "ttlm", root)
    path = root / "map.yaml"
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    evil = 'Verdun <script>alert("x")</script> & "co"'
    for a in doc["areas"]:
        if a["id"] == "verdun":
            a["name"] = evil
    path.write_text(yaml_text(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    data = g.game_data("ttlm", tmp_path / "games")
    _, game = battle["maps"]["after"]
    svg = svgmap.map_svg(game.state, data, "public", game.game_id)
    assert "<script" not in svg and executable_or_external(svg) == []
    el = area_elements(parse(svg))["verdun"][0]
    assert el.findtext(f"{NS}title").startswith(evil)
    name = mr.names(parse(svg))["verdun"][0]
    assert name.endswith("\u2026") and evil.startswith(name[:-1]) and len(name) > 20
    assert 'Verdun &lt;script&gt;alert("x")&lt;/script&gt; &amp; "co"' in svg


def test_finishing_a_picture_makes_every_attribute_xml_text_on_one_line():
    """svgmap.finish looks at an element's attributes together and cleans them one by one
    only when one needs it: an element with one bad value among plain ones is cleaned, a
    value that is no string yet becomes one, and plain values stay the very same strings."""
    svg = ET.Element("svg")
    plain = ET.SubElement(svg, "g", {"x": "12.5", "data-area": "verdun"})
    mixed = ET.SubElement(svg, "g", {"x": "3", "data-name": "Ver\x0bdun\u2028Nord\x01",
                                     "data-side": "german"})
    other = ET.SubElement(svg, "g", {"x": "1"})
    other.attrib["y"] = 7
    kept = plain.get("data-area")
    svgmap.finish(svg, 10, 10)
    assert mixed.attrib == {"x": "3", "data-name": "Verdun Nord", "data-side": "german"}
    assert other.get("y") == "7" and plain.get("data-area") is kept
    ET.fromstring(ET.tostring(svg))


# ---------------------------------------------------------------- hidden templates (1.4)

@pytest.fixture(scope="module")
def hidden(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("hidden")
    return new_game(tmp, position("1914"), {"hidden_templates": True}, name="hidden")


def shown_contents(svg: str) -> dict[str, str]:
    """army id -> what its counter shows of its contents: 'hidden' for '?' and nothing
    under it."""
    out = {}
    for c in mr.counters(parse(svg)):
        if c.head and c.unit.count("-") == 1 and not c.unit.startswith("fort"):
            out[c.unit] = "hidden" if c.value == "?" else (c.contents or "empty")
    return out


@pytest.mark.parametrize("reader", ["german", "entente", "public", "moderator"])
def test_hidden_templates_show_only_the_readers_own_armies(hidden, reader):
    """1.4: with hidden templates an army's contents are seen by its owner (and the moderator);
    the other side and the public see that it is there, not what it holds."""
    game = g.open_game(hidden)
    svg = svgmap.map_svg(game.state, game.data, reader, game.game_id)
    shown = shown_contents(svg)
    on_map = {a.id: a for a in game.state.armies.values() if a.status == "map"}
    assert set(shown) == set(on_map)
    for aid, a in on_map.items():
        side = game.data.nation_side[a.nation]
        if reader in (side, "moderator"):
            assert shown[aid] != "hidden" and re.fullmatch(r"\d[\dA-Z+a-z]*|empty|", shown[aid])
        else:
            assert shown[aid] == "hidden", (reader, aid)
            (c,) = [c for c in mr.counters(parse(svg)) if c.unit == aid]
            assert c.contents is None and c.strength is None and "[hidden]" in c.title
            assert not re.search(rf"(?<![\w-]){re.escape(aid)}(?![\w-])[^<]*\d+[ICAGBTS]",
                                 svg), (reader, aid)


def _laid_out_for_each(journal, readers, monkeypatch) -> tuple[int, dict[str, str]]:
    """How many layouts drawing the map for each reader made, and each reader's map."""
    made = []
    real = svgmap._laid_out

    def counting(*args):
        made.append(1)
        return real(*args)

    monkeypatch.setattr(svgmap, "_LAID", {})
    monkeypatch.setattr(svgmap, "_laid_out", counting)
    game = g.open_game(journal)
    maps = {r: svgmap.map_svg(game.state, game.data, r, game.game_id) for r in readers}
    return len(made), maps


def test_one_layout_serves_readers_shown_the_same_counters_and_no_other(battle, hidden,
                                                                         monkeypatch):
    """Both players' maps of an open game show the same counters: they are laid out once,
    and differ only in whom they are for. Under hidden templates (1.4) each side sees
    other counters than the other side: each reader's map is laid out on its own, and the
    other side's contents stay out of it."""
    made, maps = _laid_out_for_each(battle["journal"], ("german", "entente"), monkeypatch)
    assert made == 1
    assert maps["german"].replace("for German", "for Entente") == maps["entente"]
    made, maps = _laid_out_for_each(hidden, ("german", "entente"), monkeypatch)
    assert made == 2
    for reader, svg in maps.items():
        shown = shown_contents(svg)
        game = g.open_game(hidden)
        theirs = [a.id for a in game.state.armies.values() if a.status == "map"
                  and game.data.nation_side[a.nation] != reader]
        assert theirs and all(shown[a] == "hidden" for a in theirs)


# ---------------------------------------------------------------- the command

def test_map_command_writes_svg_and_rejects_bad_arguments(battle, cli, tmp_path):
    journal = battle["journal"]
    out = tmp_path / "m.svg"
    r = cli("map", journal, "--as", "german", "-o", out, "--at", "3")
    assert r.exit_code == 0, r.stderr
    root = parse(out.read_text(encoding="utf-8"))
    assert area_elements(root)["st_mihiel"][0].get("data-control") == "disputed"
    last = len(journal.read_text(encoding="utf-8").splitlines()) - 1
    for at in (str(last + 1), "-1", "999999"):
        r = cli("map", journal, "-o", tmp_path / "x.svg", "--at", at)
        assert r.exit_code == 2 and len(r.stderr.strip().splitlines()) == 1, (at, r.stderr)
        assert "--at" in r.stderr and "Traceback" not in r.stderr
    for bad in (["-o", tmp_path / "x.txt"], ["-o", tmp_path / "no" / "x.svg"],
                ["-o", tmp_path / "x.svg", "--as", "nobody"]):
        r = cli("map", journal, *bad)
        assert r.exit_code == 2 and len(r.stderr.strip().splitlines()) == 1, (bad, r.stderr)
    assert not (tmp_path / "x.svg").exists()


# ---------------------------------------------------------------- the outbox

def test_outbox_mails_carry_each_players_map(tmp_path, cli, monkeypatch):
    """`inbox --outbox DIR`: each player's report carries map.png, a PNG that decodes, 1,000
    pixels wide, drawn from the SVG made for him (hidden templates, 1.4: his own armies'
    contents only; every area with its control); drawn once for each player; with --no-map,
    no attachment."""
    import email
    import email.policy
    import io

    from mailboxes import write_maildir
    from PIL import Image

    from referee.render import png as pngmod
    from referee.store.dice import write_secret

    drawn: dict[bytes, str] = {}
    real = pngmod.to_png

    def recording(svg, width=None) -> bytes:
        out = real(svg, width)
        drawn[out] = svg if isinstance(svg, str) else svgmap.as_text(svg)
        return out

    monkeypatch.setattr(pngmod, "to_png", recording)
    secret = tmp_path / "s.secret"
    write_secret(secret, bytes.fromhex("5e" * 32))
    journal = tmp_path / "g.jsonl"
    r = cli("new", journal, "--scenario", "1914", "--game-id", "maptest", "--secret-file",
            secret, "--option", "hidden_templates=true",
            "--player", "german=kaiser@example.org", "--player", "entente=joffre@example.net")
    assert r.exit_code == 0, r.stderr
    box = write_maildir(tmp_path / "box", [])
    r = cli("inbox", journal, box, "--outbox", tmp_path / "plain", "--no-map")
    assert r.exit_code == 0, r.stderr
    assert len(list((tmp_path / "plain").iterdir())) == 2 and not drawn
    for p in (tmp_path / "plain").iterdir():
        msg = email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
        assert not list(msg.iter_attachments())
    # the reports were sent: a new record is needed for new mails
    r = cli("order", journal, "--as", "german", "pass")
    assert r.exit_code in (0, 1), r.stderr
    r = cli("inbox", journal, box, "--outbox", tmp_path / "out", "--map")
    assert r.exit_code == 0, r.stderr
    assert len(drawn) == 2                       # one drawing for each player
    game = g.open_game(journal)
    side_of = {"kaiser@example.org": "german", "joffre@example.net": "entente"}
    seen = set()
    for p in (tmp_path / "out").iterdir():
        msg = email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
        side = side_of[str(msg["To"])]
        (att,) = list(msg.iter_attachments())
        assert att.get_content_type() == "image/png" and att.get_filename() == "map.png"
        png = att.get_content()
        image = Image.open(io.BytesIO(png))
        image.load()
        assert image.format == "PNG" and image.size[0] == svgmap.WIDTH
        svg = drawn[png]
        assert f"map for {side.title()}" in svg
        check_areas(svg, game)
        shown = shown_contents(svg)
        for a in game.state.armies.values():
            if a.status == "map":
                own = game.data.nation_side[a.nation] == side
                assert (shown[a.id] != "hidden") is own, (side, a.id)
        seen.add(side)
    assert seen == {"german", "entente"}


def test_the_written_file_is_named_on_one_line_without_terminal_escapes(battle, cli, tmp_path):
    """A file name holding a newline or a terminal escape is written, and the line saying so
    quotes it instead of sending the raw bytes to the terminal."""
    out = tmp_path / "a\x1b[31m\nb.svg"
    r = cli("map", battle["journal"], "-o", out)
    assert r.exit_code == 0, r.stderr
    assert out.exists() and len(r.stdout.strip().splitlines()) == 1
    assert "\x1b" not in r.stdout


def test_the_drawings_caches_give_up_the_least_recently_used_entry_one_at_a_time():
    """render/memo.py: a run of entries used once (close-ups) pushes out one entry at a
    time, the oldest unused, never the one in use (a level of the whole map); a make that
    fails keeps nothing and pushes nothing out."""
    from referee.render.memo import remembered

    memo: dict = {}
    made = []

    def make(key):
        return lambda: made.append(key) or key.upper()

    assert remembered(memo, "level", make("level"), 3) == "LEVEL"
    for key in ("a", "b", "c", "d"):
        remembered(memo, key, make(key), 3)
        assert remembered(memo, "level", make("level"), 3) == "LEVEL"   # used at each mail
    assert list(memo) == ["c", "d", "level"]            # a and b went, oldest first
    assert made.count("level") == 1

    def failing():
        raise ValueError("no room")

    with pytest.raises(ValueError):
        remembered(memo, "huge", failing, 3)
    assert list(memo) == ["c", "d", "level"]


def test_a_cache_by_weight_keeps_its_budget_and_not_the_heaviest():
    """memo.Weighed (the painter's texts): the least recently used go first while the
    whole weighs more than its budget, a value over its most for one is made each time and
    never kept, and a value asked again is made once."""
    from referee.render.memo import Weighed

    kept = Weighed(budget=100, most_each=40)
    made = []

    def get(key: str, weight: int) -> str:
        return kept.get(key, lambda: made.append(key) or key * 2, lambda v: weight)

    for key in ("a", "b", "c"):
        assert get(key, 30) == key * 2
    assert get("a", 30) == "aa"                     # kept: made once, now the last used
    get("d", 30)                                    # 120 > 100: b, the oldest unused, goes
    assert list(kept.items) == ["c", "a", "d"] and kept.held == 90
    get("e", 41)                                    # over 40 for one: made, not kept
    get("e", 41)
    assert list(kept.items) == ["c", "a", "d"] and made.count("e") == 2
    assert made.count("a") == 1 and kept.held <= 100
    kept.clear()
    assert kept.items == {} and kept.held == 0


def test_a_static_layer_drawn_here_is_known_by_its_base_and_painted_as_its_content(
        battle, monkeypatch):
    """png._base keeps a layer drawn in this process by the Base it was drawn from, without
    writing it out; painted so, each picture is the same, byte for byte, as when the layer
    is known by its content (the document written and read back), for the whole map and a
    close-up, at two positions."""
    from referee.render import closeup, png

    games = [battle["maps"][name][1] for name in ("before", "declared", "after")]
    trees = [svgmap.map_tree(x.state, x.data, reader, x.game_id)
             for x in games for reader in ("german", "public")]
    close = [closeup.closeup_tree(x.state, x.data, "entente", x.game_id) for x in games]
    trees += [t for t in close if t is not None]
    assert len(trees) > 6                       # a close-up among them
    monkeypatch.setattr(png, "_BASES", {})
    monkeypatch.setattr(png, "_CLOSE_BASES", {})
    written = []
    real = png.ET.tostring
    monkeypatch.setattr(png.ET, "tostring", lambda el, *a, **k: written.append(el) or
                        real(el, *a, **k))
    known = [png.to_png(t) for t in trees]
    assert written == []                        # no layer written out to be compared
    marks = [key[0] for memo in (png._BASES, png._CLOSE_BASES) for key in memo]
    assert len(marks) == len(set(map(id, marks))) >= 2
    monkeypatch.setattr(png, "_BASES", {})
    monkeypatch.setattr(png, "_CLOSE_BASES", {})
    from_text = [png.to_png(svgmap.as_text(t)) for t in trees]
    assert len(written) >= len(trees)           # each text's layer known by its content
    assert known == from_text


TEXTS = ["2", "3I+1C+1A", "GE F", "Liège", "Saint-Quentin", "VP 4", "-", "Ô ß ç"]


@pytest.mark.parametrize("k, top", [(1, None), (2, 0), (2, 3)])
def test_the_painters_text_is_pillows_own_pixel_for_pixel(k, top):
    """png.Painter.text keeps each text's coverage and blends it itself: what it paints is
    what Pillow's ImageDraw.text paints, at every fraction of a pixel a text may start at
    (below zero too, in a band under the first), in each face, size, anchor and colour, a
    text drawn twice (its coverage then kept) as the first time."""
    from PIL import ImageDraw

    from referee.render import png
    from referee.render.svgparts import face

    png._COVERAGE.clear()
    size = (420 * k, 360 * k)
    ours, pillows = Image.new("RGB", size, "white"), Image.new("RGB", size, "white")
    painter, theirs = png.Painter(ours, k, top), ImageDraw.Draw(pillows)
    cases = 0
    for again in (0, 200):          # the same texts at the same fractions, whole pixels on
        for n, text in enumerate(TEXTS):
            for m, anchor in enumerate(png.ANCHOR):
                for frac in (0.0, 0.25, 0.5, 0.9):
                    x, y = again + 20 + n * 23 + frac, -2.3 + n * 19 + frac * 7 + m * 45
                    style = {"font-size": f"{10 + n % 5 * 1.5}", "text-anchor": anchor,
                             "fill": ("#000000", "#c0392b", "#2e6da4")[n % 3],
                             "font-weight": "bold" if n % 2 else "normal",
                             "font-style": "italic" if n % 4 == 3 else "normal"}
                    el = ET.Element("text", {"x": f"{x:.2f}", "y": f"{y:.2f}"})
                    el.text = text
                    painter.text(el, style)
                    bold, italic, px, pil_anchor = painter._font(style)
                    theirs.text((painter._n(el, "x"), painter._n(el, "y")), text,
                                png._colour(style["fill"]), face(bold, italic, px), pil_anchor)
                    cases += 1
    assert cases == len(TEXTS) * 2 * 3 * 4
    # most of the second round was kept (220.9 and 20.9 part at other fractions: not all)
    assert len(png._COVERAGE.items) <= cases * 3 // 4
    assert ours.tobytes() == pillows.tobytes()
    assert ours.getcolors(1 << 20) != Image.new("RGB", size, "white").getcolors()


# ---------------------------------------------------------------- one picture for the sides

def _painting(monkeypatch) -> list[ET.Element]:
    """The drawings png.to_png paints, as they are handed to it."""
    from referee.render import png

    painted, real = [], png.to_png
    monkeypatch.setattr(png, "to_png", lambda tree, *a: painted.append(tree) or real(tree, *a))
    return painted


def _top_line(tree: ET.Element) -> str:
    return next(t.text for t in tree.iter("text") if t.get("class") == "reader")


def test_sides_shown_the_same_map_get_one_picture_that_names_them_both(battle, monkeypatch):
    """An open game: both sides see every counter alike, so their mails share one whole map,
    painted once, whose top names both; it is the drawing each would have had alone but for
    that line."""
    painted = _painting(monkeypatch)
    game = g.open_game(battle["journal"])
    maps = sharedmaps.SharedMaps(game.state, game.data, ("german", "entente"), game.game_id)
    assert maps.png("entente") == maps.png("german") and len(painted) == 1
    # In words each reads as his own map: not 'for German and Entente'.
    assert _top_line(painted[0]).endswith("map (the same for both sides)")
    assert painted[0].findtext("title").endswith("(the same for both sides)")
    for reader in ("german", "entente"):
        alone = svgmap.map_tree(game.state, game.data, reader, game.game_id)
        assert _top_line(alone).endswith(f"map for {reader.title()}")
        for tree in (alone, painted[0]):      # whom it is for aside, the drawing he had alone
            next(t for t in tree.iter("text") if t.get("class") == "reader").text = ""
            tree.find("title").text = ""
        assert sharedmaps.same_drawing(alone, painted[0])


def test_sides_shown_other_armies_under_hidden_templates_each_get_their_own(hidden,
                                                                            monkeypatch):
    """1.4: each side sees what his own armies hold and not the other's; their maps differ,
    so each is painted on its own and names only its reader."""
    painted = _painting(monkeypatch)
    game = g.open_game(hidden)
    maps = sharedmaps.SharedMaps(game.state, game.data, ("german", "entente"), game.game_id)
    german, entente = maps.png("german"), maps.png("entente")
    assert german != entente and len(painted) == 2
    assert [_top_line(t).rsplit(" ", 1)[-1] for t in painted] == ["German", "Entente"]
    assert maps.png("german") == german and len(painted) == 2      # kept, not painted again
    both = ("german", "entente")
    assert not sharedmaps.same_drawing(*(svgmap.map_tree(game.state, game.data, r, game.game_id,
                                                     shown_to=both) for r in both))


def _drawings(monkeypatch) -> list[str]:
    """The readers whose whole or close-up map is drawn, as each drawing is begun."""
    begun, real = [], svgmap.start
    monkeypatch.setattr(svgmap, "start", lambda scene, *a: begun.append(
        getattr(scene.view, "plain", scene.view).get("reader")) or real(scene, *a))  # unread
    return begun


def _noted_for(monkeypatch, reader: str) -> None:
    """The reader's view, as the shared maps are drawn from it, holds a note no drawing
    reads inside what every drawing reads (the areas): his scene differs from the other's
    where the drawing looks."""
    real = sharedmaps.scene_of

    def noted(state, data, r, *args):
        scene = real(state, data, r, *args)
        if r == reader:
            area = next(iter(scene.view["areas"]))
            scene.view["areas"] = {**scene.view["areas"], area: {
                **scene.view["areas"][area], "unread note": "for him alone"}}
        return scene

    monkeypatch.setattr(sharedmaps, "scene_of", noted)


def test_a_map_made_of_what_the_first_readers_is_is_not_drawn_again(battle, monkeypatch):
    """An open game: the Entente's scene holds what the German's drawing read of his (their
    views differ only where no map looks: whose hand, whom it is for), so the map is drawn
    once, for both, and painted once."""
    painted, begun = _painting(monkeypatch), _drawings(monkeypatch)
    game = g.open_game(battle["journal"])
    maps = sharedmaps.SharedMaps(game.state, game.data, ("german", "entente"), game.game_id)
    assert maps.png("entente") == maps.png("german")
    assert begun == ["german"] and len(painted) == 1


def test_maps_made_of_different_things_are_both_drawn_and_still_shared_when_alike(
        battle, monkeypatch):
    """A view that differs where the drawing reads it: each map is drawn and compared, and
    the drawings, the same, are shared."""
    painted, begun = _painting(monkeypatch), _drawings(monkeypatch)
    _noted_for(monkeypatch, "entente")
    game = g.open_game(battle["journal"])
    maps = sharedmaps.SharedMaps(game.state, game.data, ("german", "entente"), game.game_id)
    assert maps.png("entente") == maps.png("german")
    assert begun == ["german", "entente"] and len(painted) == 1


def test_maps_that_differ_are_never_shared_even_where_nothing_is_hidden(battle,
                                                                         monkeypatch):
    """The drawings decide, not the options: a mark only one side is drawn keeps the two
    pictures apart, each naming its own reader."""
    painted = _painting(monkeypatch)
    _noted_for(monkeypatch, "entente")
    real = sharedmaps.scene_map

    def marked(scene, *args):
        tree = real(scene, *args)
        if scene.view["reader"] == "entente":
            ET.SubElement(tree, "circle", {"cx": "9", "cy": "9", "r": "4", "fill": "#000000"})
        return tree

    monkeypatch.setattr(sharedmaps, "scene_map", marked)
    game = g.open_game(battle["journal"])
    maps = sharedmaps.SharedMaps(game.state, game.data, ("german", "entente"), game.game_id)
    assert maps.png("german") != maps.png("entente") and len(painted) == 2
    assert [_top_line(t).rsplit(" ", 1)[-1] for t in painted] == ["German", "Entente"]


def test_a_view_looked_at_whole_counts_as_read_whole():
    """A drawing that reads the view's keys, items or length may read anything: no other
    reader's scene is taken for his then."""
    for look in (list, dict, len, lambda v: v.items(), lambda v: {**v}):
        view = sharedmaps.Reads({"seq": 1, "hand": []})
        look(view)
        assert view.whole
    view = sharedmaps.Reads({"seq": 1, "hand": []})
    assert view["seq"] == 1 and view.get("turn") is None and "label" not in view
    assert set(view.seen) == {"seq", "turn", "label"} and not view.whole


def test_same_drawing_tells_any_change_apart(battle):
    game = g.open_game(battle["journal"])

    def tree(reader="german", shown_to=("german", "entente")):
        return svgmap.map_tree(game.state, game.data, reader, game.game_id,
                               shown_to=shown_to)

    assert sharedmaps.same_drawing(tree("german"), tree("entente"))
    assert not sharedmaps.same_drawing(tree("german", ()), tree("entente", ()))
    for change in ("attribute", "text", "element", "last"):
        other = tree()
        name = next(t for t in other.iter("text") if t.get("class") == "name")
        if change == "attribute":
            name.set("x", "1")
        elif change == "text":
            name.text += "x"
        elif change == "element":
            other.find("g").append(ET.Element("circle"))
        else:
            other.append(ET.Element("circle"))
        assert not sharedmaps.same_drawing(tree(), other), change


def test_same_drawing_tells_a_text_moved_out_of_its_group():
    """The same elements in the same order, but a text no longer in the group whose colour
    it takes: another picture."""
    inside = '<svg><g fill="#ff0000"><text>x</text></g></svg>'
    outside = ET.fromstring('<svg><g fill="#ff0000"/><text>x</text></svg>')
    assert [e.tag for e in ET.fromstring(inside).iter()] == [e.tag for e in outside.iter()]
    assert sharedmaps.same_drawing(ET.fromstring(inside), ET.fromstring(inside))
    assert not sharedmaps.same_drawing(ET.fromstring(inside), outside)


@pytest.mark.parametrize(("readers", "words"), [
    (("german",), "German"), (("german", "entente"), "German and Entente"),
    (("public",), "the public"), (("moderator",), "the moderator")])
def test_a_picture_names_its_readers_as_people_read_them(readers, words):
    assert mapkeys.readers_words(readers) == words


@pytest.mark.parametrize(("readers", "words"), [
    (("german",), "for German"), (("german", "entente"), "(the same for both sides)"),
    (("german", "entente", "public"), "(the same for both sides and the public)")])
def test_a_shared_picture_says_it_is_the_same_for_its_readers(readers, words):
    assert mapkeys.for_words(readers) == words


@pytest.mark.parametrize(("phase", "words"), [
    ("player_turn", "German player turn"), ("combat", "combat, German player turn")])
def test_a_picture_says_whose_player_turn_once(phase, words):
    """The picture's third line names the phase and whose player turn it is (2.0 II), the
    player turn once: it read 'player turn, German player turn'."""
    assert mapkeys.phase_words({"phase": phase, "player": "german"}) == words


def test_the_picture_of_a_game_ended_by_a_surrender_gives_its_result(game, cli):
    """3.3: the German resigning at 12 VP (a Stalemate) makes a Marginal Entente Victory. The
    picture's third line said 'over, German player turn · VP 12: Stalemate', as if the game
    had ended in a stalemate, and a player turn still ran."""
    assert g.submit(game, "german", ["resign"]).rejected is None
    svg = cli("map", game, "--format", "svg").stdout
    line = svg[svg.index('class="phase"'):]
    line = line[line.index(">") + 1:line.index("</text>")]
    assert line == "game over \u00b7 VP 12: Stalemate \u00b7 result: Marginal Entente " \
                   "Victory", line
