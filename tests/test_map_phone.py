"""The pictures of a mail, read as a phone shows them (1,000 pixels wide, about 400 points).

A mail that asks a decision about a battle carries first the close-up of the battle's area
and its neighbours, then the whole map; the PNGs are decoded and the height of each label's
ink measured in the pixels (the font is shipped, so its capitals are exactly 0.729 of its
size high): every counter's letters and every area's name at least 24 pixels in the
close-up and 16 in the whole map. A mail that asks nothing and whose board has not changed
carries no picture and says which mail holds the last one. Each PNG is at most 150 KB.
"""

from __future__ import annotations

import email
import email.policy
import io
import zlib

import pytest
from mailboxes import write_maildir
from PIL import Image

import gamecalls as g
import mapreading as mr
from casebook import SECRET, saint_mihiel, yaml_text
from referee.mail.pictures import MailPictures
from referee.render import closeup, png, sharedmaps, svgmap
from referee.store.dice import secret_path, write_secret
from referee.table import Table

CAPITALS = 0.729                 # DejaVu Sans: the height of a capital letter, in ems
LIGHT = 150 * 1024


@pytest.fixture(scope="module")
def battle(tmp_path_factory) -> dict:
    """The 5.3.4 example up to its battle: the German 1st Army has moved into Saint-Mihiel
    and the Entente is asked its combat cards; each player registered for mail."""
    tmp = tmp_path_factory.mktemp("phone")
    sc = saint_mihiel()
    spath = tmp / "battle.yaml"
    spath.write_text(yaml_text(sc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    journal = tmp / "battle.jsonl"
    secret = secret_path(journal)       # beside the journal: each test has its own home
    write_secret(secret, bytes.fromhex(SECRET))
    g.create_game(journal, str(spath), "committed", [], game_id="phone", secret_file=secret,
                  players=["german=kaiser@example.org", "entente=joffre@example.net"])
    for text in ("play offensive", "move ge-1 st_mihiel", "end movement"):
        r = g.submit(journal, "german", [text], None)
        assert r.rejected is None, r.rejected
    return {"journal": journal, "tmp": tmp}


def ink_height(image: Image.Image, box: mr.Box) -> int:
    """The rows of a text's box that hold dark ink (its writing is #111 or #222)."""
    x0, y0, x1, y1 = (round(v) for v in box)
    crop = image.crop((x0 + 1, y0, x1 - 1, y1)).convert("L")
    w, h = crop.size
    px = crop.load()
    rows = [y for y in range(h) if any(px[x, y] < 110 for x in range(w))]
    return rows[-1] - rows[0] + 1 if rows else 0


def heights(svg: str, data: bytes) -> list[tuple[str, int, float]]:
    """(label, ink height in pixels, its font size) of every counter's head and area name."""
    root = mr.parse(svg)
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.size[0] == 1000
    parents = {c: p for p in root.iter() for c in p}
    out = []
    for t in root.iter(f"{mr.NS}text"):
        if t.get("class") in ("head", "name") and t.get("data-area", "x") and \
                mr.styled(t, parents, "font-weight") == "bold":
            if "key" in (parents[t].get("class") or ""):
                continue
            out.append((t.text, ink_height(image.convert("RGB"), mr.text_box(t, parents)),
                        float(mr.styled(t, parents, "font-size"))))
    return out


def test_the_closeup_and_the_whole_map_are_readable_on_a_phone(battle):
    """The label heights measured in the PNG: at least 24 pixels of writing in the
    close-up, 16 in the whole map (capitals 0.729 of that, less a pixel of antialiasing)."""
    game = g.open_game(battle["journal"])
    assert game.state.pending.side == "entente"
    near = closeup.closeup_areas(game.state, game.data)
    assert "st_mihiel" in near and "verdun" in near and 3 < len(near) <= closeup.MOST
    for svg, least in ((closeup.closeup_svg(game.state, game.data, "entente", game.game_id),
                        24), (svgmap.map_svg(game.state, game.data, "entente",
                                             game.game_id), 16)):
        data = png.to_png(svg)
        assert len(data) <= LIGHT
        found = heights(svg, data)
        assert len(found) > (6 if least == 24 else 80)
        for text, ink, size in found:
            assert size >= least and ink >= CAPITALS * least - 1, (least, text, ink, size)
        assert all(float(t.get("font-size") or 99) >= least
                   for t in mr.parse(svg).iter(f"{mr.NS}text")), least


def _mails(folder) -> dict[str, email.message.EmailMessage]:
    out = {}
    for p in sorted(folder.iterdir()):
        if p.suffix == ".eml":
            msg = email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
            out[str(msg["To"])] = msg
    return out


def test_a_mail_asking_a_battle_decision_carries_the_closeup_first_then_the_map(battle, cli):
    journal, tmp = battle["journal"], battle["tmp"]
    box = write_maildir(tmp / "box", [])
    r = cli("inbox", journal, box, "--outbox", tmp / "out", "--map")
    assert r.exit_code == 0, r.stderr
    mails = _mails(tmp / "out")
    asked = [(a.get_filename(), a.get_content())
             for a in mails["joffre@example.net"].iter_attachments()]
    assert [n for n, _ in asked] == ["closeup.png", "map.png"]
    told = [a.get_filename() for a in mails["kaiser@example.org"].iter_attachments()]
    assert told == ["map.png"]                    # the first map he is sent: the board is new
    # An open game: both see the same map, one picture naming both (sharedmaps.SharedMaps).
    assert [a.get_content() for a in mails["kaiser@example.org"].iter_attachments()] == \
        [asked[1][1]]
    for _, data in asked:
        image = Image.open(io.BytesIO(data))
        image.load()
        assert image.format == "PNG" and image.size[0] == 1000 and len(data) <= LIGHT


def test_a_mail_that_asks_nothing_of_an_unchanged_board_points_to_the_last_map(battle):
    """pictures.py: the side asked gets the pictures of a decision he was not sent yet; the
    other, whose board has not changed since his last map, none, and the line saying where
    that map is; the reply to the asked side's message not applied, none, and the line
    saying where both pictures are."""
    table = Table(battle["journal"])
    ledger = {"maps": {}}
    pictures = MailPictures(table, ledger, True)
    shown, note = pictures.for_mail("german")
    assert [n for n, _ in shown] == ["map.png"] and note == ""
    again = MailPictures(table, ledger, True)
    shown, note = again.for_mail("german")
    seq = table.game().state.seq
    assert shown == [] and note == (f"The board is as the map of the mail of record #{seq} "
                                    f"shows it (map.png there).")
    assert [n for n, _ in again.for_mail("entente")[0]] == ["closeup.png", "map.png"]
    assert again.for_mail("entente", refusal=True) == ([], (
        f"The board and your decision are as the pictures of the mail of record #{seq} show "
        f"them (closeup.png and map.png there)."))
    assert MailPictures(table, ledger, False).for_mail("entente") == ([], "")


def test_the_line_that_points_to_the_last_map_wraps_in_a_report_mail(battle):
    """From record 10 on the line naming the mail with the last map is over 72 columns: a
    report's mail wraps it as the reminder's does, and it reads whole."""
    from referee.mail.pictures import last_map_line
    from referee.mail.refusal import report_body

    note = last_map_line([123, "digest"])
    assert len(note) > 72
    body = report_body(Table(battle["journal"]), "german", 0, "KEY-KEY", map_note=note)
    at = [n for n, line in enumerate(body.splitlines()) if "The board is as the map" in line]
    lines = body.splitlines()[at[0]:at[0] + 2]
    assert " ".join(lines) == note and max(map(len, lines)) <= 72, lines


def test_map_close_up_draws_the_decisions_areas_and_refuses_when_there_are_none(battle, cli,
                                                                                tmp_path):
    out = tmp_path / "close.png"
    r = cli("map", battle["journal"], "--as", "entente", "--close-up", "-o", out)
    assert r.exit_code == 0, r.stderr
    assert Image.open(out).size[0] == 1000
    r = cli("map", battle["journal"], "--as", "entente", "--close-up", "--at", "1", "-o",
            tmp_path / "none.svg")
    assert r.exit_code == 2 and "concerns no area" in r.stderr and "Traceback" not in r.stderr


def test_a_reminder_says_which_mail_holds_the_last_map(battle, tmp_path):
    """A reminder carries no picture: it names the record of the mail with the last map."""
    from referee.base.clock import now
    from referee.mail.deadlinepost import Post
    from referee.mail.ledger import load_ledger, save_ledger

    table = Table(battle["journal"])
    head = table.records[0]["hash"]
    ledger = load_ledger("phone", head)
    assert Post(table, table.raw, tmp_path, now(), "phone").map_line("entente") == ""
    MailPictures(table, ledger, True).for_mail("entente")
    save_ledger(ledger)
    seq = table.game().state.seq
    assert Post(table, table.raw, tmp_path, now(), "phone").map_line("entente") == (
        f"The board is as the map of the mail of record #{seq} shows it (map.png there).")


def test_the_players_guide_shows_the_pictures_of_one_mail_and_explains_the_counters():
    """docs/player.md shows the close-up and the whole map of the demo's battle mail (drawn by
    `make docs`, referee/cli/docpictures.py) and says how to read a counter."""
    from pathlib import Path

    docs = Path(__file__).resolve().parent.parent / "docs"
    text = (docs / "player.md").read_text(encoding="utf-8")
    for name in ("mail-closeup.png", "mail-map.png"):
        assert f"]({name})" in text
        data = (docs / name).read_bytes()
        image = Image.open(io.BytesIO(data))
        image.load()
        assert image.format == "PNG" and image.size[0] == 1000 and len(data) <= LIGHT
    section = text[text.index("## The pictures"):text.index("## How to answer")]
    for words in ("`GE`", "white square", "`4I+1C+1A+1G`", "`?`", "`GE C01`", "`BE F 3`",
                  "`E` tag", "`OoS` tag", "gold ring"):
        assert words in section, words


def test_the_static_layer_drawn_band_by_band_is_the_layer_drawn_whole(battle, monkeypatch):
    """png.py draws the base group fine band by band, so that a tall map never takes the
    memory of its whole fine drawing at once: every line, name and circle that crosses a
    band's edge or lies inside a band is drawn, and the layer is the one drawn in one
    piece, pixel for pixel (a line's ends are put on whole pixels rounded down, the same
    whether the band puts an end above its first row or not)."""
    from PIL import ImageChops

    game = Table(battle["journal"]).game()
    for tree in (svgmap.map_tree(game.state, game.data, "german", game.game_id),
                 closeup.closeup_tree(game.state, game.data, "entente", game.game_id)):
        base = next(el for el in tree if el.get("id") == "base")
        ground = next(el for el in base if el.get("class") == "ground")
        height = round(float(ground.get("height")))
        assert height > 2 * png.BAND                     # at least three bands
        width = round(svgmap.WIDTH)
        fine = Image.new("RGB", (width * png.FINE, height * png.FINE), "white")
        png.Painter(fine, png.FINE).element(base, {})
        whole = fine.reduce(png.FINE)
        monkeypatch.setattr(png, "_BASES", {})
        monkeypatch.setattr(png, "_CLOSE_BASES", {})
        banded = png._base(base, width)
        assert banded.size == whole.size
        diff = ImageChops.difference(whole, banded).convert("L").point(lambda v: v > 0 and 255)
        assert diff.histogram()[255] == 0


def test_a_heavy_picture_is_deflated_harder_from_one_palette(battle, monkeypatch):
    """A picture over the light limit is deflated at the next level of png.TRIES, and the
    one after, until it fits: each level's bytes are those of that level alone, and the
    palette (the costly quantizing of every pixel) is found once for the levels that share
    its number of colours."""
    game = Table(battle["journal"]).game()
    image = Image.open(io.BytesIO(sharedmaps.SharedMaps(
        game.state, game.data, tuple(game.data.sides), game.game_id).png("german")))
    image = image.convert("RGB")
    keep = {"#c9a227"}
    first, second, third = (level for _, level in png.TRIES[:3])
    alone = {level: png._deflated(png._flat(image, keep, png.COLOURS), level)
             for level in (first, second, third)}
    assert len(alone[first]) > len(alone[second]) > len(alone[third])
    made = []
    flat = png._flat
    monkeypatch.setattr(png, "_flat", lambda *a: made.append(a[2]) or flat(*a))
    for level, light in ((first, len(alone[first])), (second, len(alone[first]) - 1),
                         (third, len(alone[second]) - 1)):
        monkeypatch.setattr(png, "LIGHT", light)
        made.clear()
        assert png.encode(image, keep) == alone[level]
        assert made == [png.COLOURS]
    monkeypatch.setattr(png, "LIGHT", len(alone[third]) - 1)     # then fewer colours
    made.clear()
    assert png.encode(image, keep) == png._deflated(
        png._flat(image, keep, png.COLOURS // 2), png.TRIES[3][1])
    assert made == [png.COLOURS, png.COLOURS // 2, png.COLOURS // 2]


def test_the_png_around_zlib_ngs_stream_reads_as_pillows_own_png_of_the_same_picture(battle):
    """A picture deflated by zlib-ng in chunks written by the referee reads back (Pillow, its
    chunks' CRCs checked) as the same palette and the same index at every pixel as
    Pillow's own PNG writer gives (8-bit indices, or 4 or 1 for a palette of up to 16 or 2
    colours), and is no heavier than Pillow's zlib at level 4 (the level used before, for
    its bytes): a phone shows the same picture for the same weight."""
    game = Table(battle["journal"]).game()
    image = Image.open(io.BytesIO(sharedmaps.SharedMaps(
        game.state, game.data, tuple(game.data.sides), game.game_id).png("german")))
    for colours in (png.COLOURS, png.COLOURS // 2, 2):
        flat = png._flat(image.convert("RGB"), set(), colours)
        pillows = io.BytesIO()
        flat.save(pillows, "PNG", compress_level=4)
        for level in {level for _, level in png.TRIES}:
            ours = png._deflated(flat, level)
            back = Image.open(io.BytesIO(ours))
            back.load()
            theirs = Image.open(io.BytesIO(pillows.getvalue()))
            assert back.format == "PNG" and back.mode == "P" and back.size == flat.size
            assert back.getpalette() == theirs.getpalette() == flat.getpalette()
            assert back.tobytes() == flat.tobytes() == theirs.convert("P").tobytes()
        if colours in {c for c, _ in png.TRIES}:
            assert len(png._deflated(flat, png.TRIES[0][1])) <= len(pillows.getvalue()) * 1.02
    ours, at, kinds = png._deflated(flat, png.TRIES[0][1]), 8, []
    while at < len(ours):                       # every chunk's CRC-32 over its kind and data
        size = int.from_bytes(ours[at:at + 4], "big")
        kind, data = ours[at + 4:at + 8], ours[at + 8:at + 8 + size]
        assert ours[at + 8 + size:at + 12 + size] == zlib.crc32(kind + data).to_bytes(4, "big")
        kinds.append(kind)
        at += 12 + size
    assert kinds == [b"IHDR", b"PLTE", b"IDAT", b"IEND"] and at == len(ours)
    for width, height, colours in ((1001, 7, 2), (1003, 5, 3), (999, 9, 12), (1, 1, 1),
                                   (7, 3, 16), (5, 4, 17), (13, 2, 256)):   # rows of odd bits
        odd = Image.new("P", (width, height))
        odd.putpalette([(37 * n + k * 91) % 256 for n in range(colours) for k in range(3)])
        odd.putdata([(n * 7 + n // width) % colours for n in range(width * height)])
        back = Image.open(io.BytesIO(png._deflated(odd, png.TRIES[0][1])))
        back.load()
        assert back.tobytes() == odd.tobytes() and back.getpalette() == odd.getpalette()
    see_through = Image.new("P", (4, 4))             # no alpha is dropped without a word
    see_through.putpalette([0, 0, 0, 128], "RGBA")
    with pytest.raises(ValueError, match="opaque"):
        png._deflated(see_through, png.TRIES[0][1])
    empty = Image.new("P", (1000, 0))                # no PNG has no rows: refused as one
    empty.putpalette([0, 0, 0])
    with pytest.raises(OSError, match="no pixels"):
        png._deflated(empty, png.TRIES[0][1])
