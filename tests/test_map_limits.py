"""What a group's own data or scenario may ask of the map picture: a long army id is cut
on its counter (its full id is the counter's title); data that leaves the map no room for
every counter is a game-data problem (exit 3) for `map`, and the mails go without pictures; a text
of thousands of letters is measured a bounded number of times."""

from __future__ import annotations

import email
import email.policy
import re

import pytest
from datacopy import copy_game, edit
from mailboxes import write_maildir

from referee.render import mapkeys


def test_a_long_army_id_is_cut_on_its_counter(cli, tmp_path):
    long_id = "ge-" + "W" * 120
    games = copy_game(tmp_path)
    edit(games / "ttlm" / "scenarios" / "1914.yaml", "{id: ge-1,", f"{{id: {long_id},")
    j = tmp_path / "w.jsonl"
    assert cli("--games", games, "new", j, "--scenario", "1914").exit_code == 0
    r = cli("--games", games, "map", j, "--as", "german", "-o", tmp_path / "m.svg")
    assert r.exit_code == 0, r.output
    svg = (tmp_path / "m.svg").read_text()
    assert "GE WWWWWWW\u2026" in svg and long_id in svg       # cut, and whole in its title


def test_data_that_leaves_no_room_is_one_line_for_map_and_mails_go_without_pictures(
        cli, tmp_path):
    games = copy_game(tmp_path)
    path = games / "ttlm" / "map.yaml"
    path.write_text(re.sub(r"at: \[[-0-9.]+, ([-0-9.]+)\]", r"at: [49.5, \1]",
                           path.read_text()))
    j = tmp_path / "row.jsonl"
    box, out = write_maildir(tmp_path / "box", []), tmp_path / "out"
    assert cli("--games", games, "new", j, "--scenario", "1914", "--player",
               "german=g@example.org", "--player", "entente=e@example.org", "--mail-in",
               box, "--mail-out", f"outbox:{out}").exit_code == 0
    r = cli("--games", games, "map", j, "--as", "german", "-o", tmp_path / "m.png")
    assert r.exit_code == 3 and "no room for every unit" in r.stderr
    assert "no room" in r.stderr.splitlines()[0] and not (tmp_path / "m.png").exists()
    r = cli("--games", games, "tick", j)
    assert r.exit_code == 0, r.output
    mails = [email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
             for p in out.glob("*.eml")]
    assert len(mails) == 2 and not any(any(m.iter_attachments()) for m in mails)


def test_a_text_of_thousands_of_letters_is_measured_a_bounded_number_of_times(monkeypatch):
    calls = []
    real = mapkeys.text_width

    def counting(text, size, bold=False):
        calls.append(len(text))
        return real(text, size, bold)

    monkeypatch.setattr(mapkeys, "text_width", counting)
    assert len(mapkeys.fit("Belgium" * 1714, 16, 300)) < 100
    assert len(calls) < 200
    calls.clear()
    lines = mapkeys.wrap("Belgium" * 1714, 16, 300)
    assert sum(len(line) for line in lines) <= mapkeys.LONGEST_TEXT and len(calls) < 10000


@pytest.mark.parametrize("each, tallest", [pytest.param(15, 1800, id="quick"),
                                           pytest.param(90, 8000, id="full")])
def test_a_stack_too_big_for_a_readable_map_is_a_problem_not_a_huge_picture(
        cli, tmp_path, monkeypatch, each, tallest):
    """A group's data that lets 90 German units stand in each of Metz, Thionville,
    Saarbrücken and Morhange: rather than a picture tens of thousands of pixels tall, `map`
    says the data leaves no room (exit 3). Quick: 15 in each against a limit of 1,800
    pixels (svgmap.TALLEST), the same climb to a level too tall at a few cheap levels."""
    from referee.render import svgmap

    monkeypatch.setattr(svgmap, "TALLEST", tallest)
    games = copy_game(tmp_path)
    units = games / "ttlm" / "units.yaml"
    edit(units, "stacking_limit: 3", "stacking_limit: 99")
    edit(units, "ge: {army: 11, infantry: 35,", "ge: {army: 11, infantry: 400,")
    scenario = games / "ttlm" / "scenarios" / "1914.yaml"
    areas = ["metz", "thionville", "saarbrucken", "morhange"]
    extra = "".join(f"  - {{id: ge-i-{n:03d}, nation: ge, type: infantry, "
                    f"area: {areas[n % 4]}}}\n" for n in range(100, 100 + 4 * each))
    text = scenario.read_text()
    scenario.write_text(text.replace("\nunits:\n", "\nunits:\n" + extra, 1))
    j = tmp_path / "many.jsonl"
    r = cli("--games", games, "new", j, "--scenario", "1914")
    assert r.exit_code == 0, r.output
    r = cli("--games", games, "map", j, "--as", "german", "-o", tmp_path / "m.png")
    assert r.exit_code == 3 and f"within {tallest} pixels" in r.stderr.splitlines()[0]


def test_a_first_guess_taller_than_a_picture_may_be_gives_way_to_the_levels_under_it(
        cli, tmp_path, monkeypatch):
    """The first level a map is tried at is a guess (svgmap.first_level): a guess whose map
    would be taller than TALLEST is not a reason to give up while a level under it gives
    every counter a place."""
    from referee.game.replay import open_game
    from referee.render import mapbase, svgmap

    j = tmp_path / "g.jsonl"
    assert cli("new", j, "--scenario", "1914").exit_code == 0
    game = open_game(j)
    monkeypatch.setattr(svgmap, "_LAID", {})
    scene = svgmap.scene_of(game.state, game.data, "german", game.game_id)
    top = mapkeys.header_height(scene.scale)
    drawn, _ = svgmap.layout(scene, top)
    level = next(n for n in range(svgmap.LEVELS)
                 if mapbase.base(game.data, scene.scale, top, n).bottom == drawn.bottom)
    monkeypatch.setattr(svgmap, "_LAID", {})
    monkeypatch.setattr(svgmap, "FILL_AT_0", -1.0)        # the guess: the highest level
    monkeypatch.setattr(svgmap, "TALLEST", drawn.bottom)  # too tall over the one it needs
    assert svgmap.first_level(drawn, svgmap._by_area(scene, drawn.pos)) > level
    again, _ = svgmap.layout(scene, top)
    assert again.bottom <= drawn.bottom


GERMAN_AREAS = ("aachen cologne eifel koblenz trier saarbrucken pfalz morhange sarrebourg "
                "strasbourg colmar mulhouse luxembourg thionville").split()


@pytest.mark.parametrize("in_metz, each, tallest", [pytest.param(16, 0, 2000, id="quick"),
                                                   pytest.param(56, 3, 8000, id="full")])
def test_a_map_that_fits_only_many_levels_above_the_guess_is_still_drawn(
        cli, tmp_path, monkeypatch, in_metz, each, tallest):
    """A group's scenario stacks 56 more German infantry in Metz and 3 in each other German
    area (stacking limit raised): the map fits from level 14 to 18 and is too tall from
    19. The search from the first guess goes up by doubling steps past 18, and a level too
    tall to draw ends the climb: the levels under it are searched by halves instead of
    the map going without a picture. Quick: 16 more in Metz against a limit of 2,000
    pixels (svgmap.TALLEST): guessed at level 1, it fits at 5 and is too tall from 6, so
    the climb (2, 4, 8) meets a level too tall the same way, at cheap levels."""
    from referee.render import svgmap

    monkeypatch.setattr(svgmap, "TALLEST", tallest)
    games = copy_game(tmp_path)
    units = games / "ttlm" / "units.yaml"
    edit(units, "stacking_limit: 3", "stacking_limit: 99")
    edit(units, "ge: {army: 11, infantry: 35,", "ge: {army: 11, infantry: 300,")
    places = ["metz"] * in_metz + [a for a in GERMAN_AREAS for _ in range(each)]
    extra = "".join(f"  - {{id: ge-i-{100 + k:03d}, nation: ge, type: infantry, area: {a}}}\n"
                    for k, a in enumerate(places))
    sc = games / "ttlm" / "scenarios" / "1914.yaml"
    sc.write_text(sc.read_text().replace("\nunits:\n", "\nunits:\n" + extra, 1))
    j = tmp_path / "g.jsonl"
    assert cli("--games", games, "new", j, "--scenario", "1914").exit_code == 0
    r = cli("--games", games, "map", j, "--as", "german", "-o", tmp_path / "m.png")
    assert r.exit_code == 0, r.stderr


def test_a_name_of_stacked_marks_is_drawn_whole_across_a_band_edge(tmp_path, monkeypatch):
    """map.yaml's names are free text: three letters under 25 combining accents stack up
    far above their line. The static layer drawn band by band (png.py) must still draw
    every such name whole where it crosses a band's edge, as the layer drawn in one piece
    does."""
    from PIL import Image, ImageChops

    from referee.render import png, svgmap
    from referee.table import Table

    def change(docs):
        for a in docs["map.yaml"]["areas"]:
            if a.get("kind") != "sea_only":
                a["name"] = a["name"][:3] + "\u0301" * 25
    games = copy_game(tmp_path, change, ("map.yaml",))
    j = tmp_path / "z.jsonl"
    Table.create(j, "1914", games, game_id="marks")
    game = Table(j, games_dir=games).game()
    tree = svgmap.map_tree(game.state, game.data, "german", game.game_id)
    base = next(el for el in tree if el.get("id") == "base")
    height = round(float(next(el for el in base if el.get("class") == "ground").get("height")))
    fine = Image.new("RGB", (1000 * png.FINE, height * png.FINE), "white")
    png.Painter(fine, png.FINE).element(base, {})
    whole = fine.reduce(png.FINE)
    monkeypatch.setattr(png, "_BASES", {})
    banded = png._base(base, 1000)
    diff = ImageChops.difference(whole, banded).convert("L").point(lambda v: 255 if v else 0)
    for edge in range(png.BAND, height, png.BAND):
        assert diff.crop((0, edge - 40, 1000, edge - 2)).histogram()[255] < 20, edge


def test_a_name_with_a_line_break_is_drawn_on_one_line(cli, tmp_path):
    """A name of map.yaml with a line break or a tab in it is written on one line, in the
    SVG and in the PNG (Pillow's layout could not measure the break: exit 4 before)."""
    def change(docs):
        for a in docs["map.yaml"]["areas"]:
            if a["id"] == "metz":
                a["name"] = "Metz\nand\r\nits\tforts"
    games = copy_game(tmp_path, change, ("map.yaml",))
    j = tmp_path / "n.jsonl"
    assert cli("--games", games, "new", j, "--scenario", "1914").exit_code == 0
    for out in ("m.svg", "m.png"):
        r = cli("--games", games, "map", j, "--as", "german", "-o", tmp_path / out)
        assert r.exit_code == 0, r.stderr
    assert "Metz and  its forts" in (tmp_path / "m.svg").read_text()
