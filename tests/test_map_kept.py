"""The static part of the whole map kept between runs (render/stored.py), and a close-up's,
each as its own kinds: a run after the first lays out and paints none of them again, and
draws the very same bytes; a kept file
this user's referee did not write as it stands (edited, cut short, under another key, or
signed but not what its name says) is made again, the picture unchanged; a new version of
the drawing code never reads an older one's files; at most MOST files of each kind stay,
the least recently used going first."""

from __future__ import annotations

import json
import os
import shutil
import sys
import zlib
from pathlib import Path
from weakref import WeakKeyDictionary

import pytest

import gamecalls as g
from casebook import new_game, saint_mihiel
from referee.render import closeup, impassable, mapbase, png, stored, svgmap
from referee.store import home


@pytest.fixture(scope="module")
def declared(tmp_path_factory) -> Path:
    """The 5.3.4 example's battle declared at Saint-Mihiel: the Entente is asked his
    decision, so his mail carries a close-up as well as the whole map."""
    tmp = tmp_path_factory.mktemp("kept")
    sc = saint_mihiel()
    journal = new_game(tmp, sc, dice="manual", name="kept")
    for text in ("play offensive", "move ge-1 st_mihiel", "end movement"):
        assert g.submit(journal, "german", [text]).rejected is None
    return journal


def _new_run(monkeypatch) -> None:
    """Forget what this process drew, as a new run starts."""
    monkeypatch.setattr(mapbase, "_KEPT", WeakKeyDictionary())
    monkeypatch.setattr(impassable, "_PLACED", WeakKeyDictionary())
    monkeypatch.setattr(svgmap, "_LAID", {})
    monkeypatch.setattr(png, "_BASES", {})
    monkeypatch.setattr(png, "_CLOSE_BASES", {})


def _pictures(journal: Path) -> list[bytes]:
    game = g.open_game(journal)
    close = closeup.closeup_png(game.state, game.data, "entente", game.game_id)
    assert close is not None
    return [svgmap.map_png(game.state, game.data, "entente", game.game_id), close]


def _counting(monkeypatch) -> list[str]:
    """Each Base made and each layer painted from here on, of the whole map ("base",
    "layer") or of a close-up ("close-up base", "close-up layer")."""
    made: list[str] = []
    base, paint = mapbase._base, png._drawn_base

    def making(data, scale, top, level, ids):
        made.append("base" if ids is None else "close-up base")
        return base(data, scale, top, level, ids)

    def painting(g, width):
        made.append("layer" if g.get("class") == "whole" else "close-up layer")
        return paint(g, width)

    monkeypatch.setattr(mapbase, "_base", making)
    monkeypatch.setattr(png, "_drawn_base", painting)
    return made


def _kept(kind: str) -> list[Path]:
    return sorted(stored.folder().glob(f"*.{kind}"))


def test_a_later_run_draws_the_same_bytes_from_the_kept_parts_and_makes_none(
        declared, monkeypatch):
    _new_run(monkeypatch)
    made = _counting(monkeypatch)
    first = _pictures(declared)
    assert {"base", "layer", "close-up base", "close-up layer"} <= set(made)
    assert len(_kept("base")) == made.count("base")
    assert len(_kept("closeup")) == made.count("close-up base") == 1
    assert len(_kept("layer")) == made.count("layer") == 1
    assert len(_kept("closelayer")) == made.count("close-up layer") == 1
    _new_run(monkeypatch)
    made.clear()
    assert _pictures(declared) == first
    assert made == []


def _edited(path: Path) -> None:
    blob = bytearray(path.read_bytes())
    blob[-1] ^= 1
    path.write_bytes(bytes(blob))


def _cut(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def _another_key(path: Path) -> None:
    """The same body under another user's key."""
    body = path.read_bytes().split(b"\n", 2)[2]
    home._KEY[str(home.key_path())] = os.urandom(home.KEY_BYTES)
    try:
        home.write_signed_bytes(path, body)
    finally:
        home._KEY.clear()


def _signed_but_not_one(path: Path) -> None:
    """Signed by this user's referee, naming itself, but not what a file of its name holds."""
    name = path.stem
    if path.suffix in (".base", ".closeup"):
        home.write_signed(path, {"name": name, "base": {"top": 0.0, "pos": {"x": [1, 2]}}})
    else:                   # its own head, its pixels deflated a pixel short
        name, width, height = _layer_head(path)
        home.write_signed_bytes(path, json.dumps([name, width, height]).encode() + b"\n" +
                                zlib.compress(bytes(width * height * 3 - 3)))


def _layer_head(path: Path) -> list:
    """A kept layer's head: its name, width and height."""
    return json.loads(path.read_bytes().split(b"\n", 2)[2].partition(b"\n")[0])


def _padded(path: Path) -> None:
    """A layer as written, signed, with more bytes after its pixels than they could take
    deflated (a Base's file: edited)."""
    if path.suffix in (".layer", ".closelayer"):
        _, width, height = _layer_head(path)
        body = path.read_bytes().split(b"\n", 2)[2]
        home.write_signed_bytes(path, body + bytes(width * height * 3 * 9 // 8 + 4096))
    else:
        _edited(path)


def _filed_under_another_name(path: Path) -> None:
    """What this user's referee wrote for another part (another level, another game's
    data) put where this one's goes: it names the other."""
    body = path.read_bytes().split(b"\n", 2)[2]
    if path.suffix in (".base", ".closeup"):
        kept = json.loads(body)
        home.write_signed(path, {**kept, "name": "0" * 40})
    else:
        head, _, rest = body.partition(b"\n")
        home.write_signed_bytes(path, json.dumps(["0" * 40, *json.loads(head)[1:]]).encode()
                                + b"\n" + rest)


def _an_area_short(path: Path) -> None:
    """A Base naming its part, signed, with an area of the front (or of the close-up) left
    out."""
    if path.suffix in (".base", ".closeup"):
        kept = json.loads(path.read_bytes().split(b"\n", 2)[2])
        kept["base"]["pos"].pop(next(iter(kept["base"]["pos"])))
        home.write_signed(path, kept)
    else:
        _edited(path)


def _taller(path: Path) -> None:
    """A layer naming its part, signed, of another height."""
    if path.suffix in (".layer", ".closelayer"):
        body = path.read_bytes().split(b"\n", 2)[2]
        head, _, rest = body.partition(b"\n")
        name, width, height = json.loads(head)
        pixels = zlib.decompress(rest) + bytes(width * 3)
        home.write_signed_bytes(path, json.dumps([name, width, height + 1]).encode() + b"\n"
                                + zlib.compress(pixels))
    else:
        _edited(path)


@pytest.fixture(scope="module")
def drawn(declared, tmp_path_factory) -> tuple[list[bytes], Path]:
    """The pictures of `declared` drawn once, by a new run in a home of its own: those
    pictures, and that home, holding the key that signed the parts kept there and them."""
    drawer = tmp_path_factory.mktemp("drawn-home")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("REFEREE_HOME", str(drawer))
        home._KEY.clear()
        _new_run(mp)
        first = _pictures(declared)
        kept = stored.folder().relative_to(drawer)
    home._KEY.clear()
    assert (drawer / kept).is_dir()
    return first, drawer


def _as_drawn(drawn) -> list[bytes]:
    """This home as the run that drew `drawn` left it: its key, and the parts it kept (the
    same files a first run here would write and sign); the pictures that run drew."""
    first, drawer = drawn
    for part in (home.key_path(), stored.folder()):
        theirs = drawer / part.relative_to(os.environ["REFEREE_HOME"])
        part.parent.mkdir(parents=True, exist_ok=True)
        if theirs.is_dir():
            shutil.copytree(theirs, part)
        else:
            shutil.copy2(theirs, part)
    home._KEY.clear()
    return first


@pytest.mark.parametrize("spoil", [_edited, _cut, _another_key, _signed_but_not_one,
                                   _filed_under_another_name, _an_area_short, _taller,
                                   _padded])
def test_a_kept_part_not_as_this_users_referee_wrote_it_is_made_again(declared, drawn,
                                                                      monkeypatch, spoil):
    first = _as_drawn(drawn)
    assert {p.suffix for p in stored.folder().iterdir()} >= {".base", ".closeup", ".layer",
                                                             ".closelayer"}
    spoilt = _kept("base") + _kept("closeup") + _kept("layer") + _kept("closelayer")
    for path in spoilt:
        spoil(path)
    _new_run(monkeypatch)
    made = _counting(monkeypatch)
    assert _pictures(declared) == first
    assert made.count("base") == len(_kept("base")) and made.count("layer") == 1
    assert made.count("close-up base") == len(_kept("closeup")) == 1
    assert made.count("close-up layer") == len(_kept("closelayer")) == 1


def test_a_new_version_of_the_drawing_code_reads_none_of_an_older_ones_parts(declared,
                                                                          drawn, monkeypatch):
    first = _as_drawn(drawn)                    # the parts this version keeps, as it drew them
    older, closer = set(_kept("base")), set(_kept("closeup"))
    layers = set(_kept("layer")) | set(_kept("closelayer"))
    _new_run(monkeypatch)
    monkeypatch.setattr(stored, "made_with", lambda: "another version")
    made = _counting(monkeypatch)
    assert _pictures(declared) == first
    assert made.count("base") == len(older) and made.count("close-up base") == len(closer)
    assert made.count("layer") + made.count("close-up layer") == len(layers) == 2
    assert len(_kept("base")) == 2 * len(older) and len(_kept("closeup")) == 2 * len(closer)


def test_a_kept_part_is_named_by_everything_it_is_made_from(monkeypatch):
    here = Path(stored.__file__).resolve().parent
    assert any((here / "fonts").iterdir())
    for module in ("labels.py", "mapbase.py", "png.py", "DejaVuSansCondensed.ttf"):
        with monkeypatch.context() as mp:
            real = Path.read_bytes
            mp.setattr(Path, "read_bytes", lambda p, m=module, real=real: b"changed"
                       if p.name == m else real(p))
            assert stored._code() != stored.CODE    # another name for every part
    assert stored._code() == stored.CODE
    import PIL

    made_with = stored.made_with()
    stored.made_with.cache_clear()
    with monkeypatch.context() as mp:
        mp.setattr(PIL, "__version__", "0.0")           # another Pillow measures and paints
        assert stored.made_with() != made_with
    stored.made_with.cache_clear()
    assert stored.made_with() == made_with
    names = {stored.key(src, font, top, level, ids) for src in ("a", "b")
             for font in (16.0, 17.0) for top in (200.0, 201.0) for level in (0, 1)
             for ids in (None, ("metz",), ("metz", "verdun"), ("metz", "nancy"))}
    assert len(names) == 64                 # each of what a level is made from names it apart
    assert stored.key("", 16.0, 200.0, 0) is None          # data made in memory: not kept


def test_at_most_MOST_of_each_kind_stay_the_least_recently_used_going_first(monkeypatch):
    monkeypatch.setattr(stored, "MOST", 3)
    for n in range(3):
        stored.write_base(f"b{n}", {"n": n})
        os.utime(stored.folder() / f"b{n}.base", (1_000_000 + n, 1_000_000 + n))
    stored.write_layer("keep", 1000, 1, [bytes(3000)])     # other kinds: not counted with them
    stored.write_base("c0", {"n": 0}, "closeup")
    for n in range(4):
        stored.write_layer(f"c{n}", 1000, 1, [bytes([n]) * 3000], "closelayer")
        os.utime(stored.folder() / f"c{n}-1000.closelayer", (1_000_000 + n, 1_000_000 + n))
    assert stored.read_base("b0") == {"n": 0}            # used now: the last to go
    stored.write_base("b3", {"n": 3})
    assert [p.stem for p in _kept("base")] == ["b0", "b2", "b3"]
    assert stored.read_base("c0", "closeup") == {"n": 0} and stored.read_base("c0") is None
    assert stored.read_layer("keep", 1000, 1) == bytes(3000)
    assert stored.read_layer("keep", 999, 1) is None       # another width is another file
    assert stored.read_layer("keep", 1000, 2) is None      # not the height asked
    assert stored.read_layer("keep", 1000, 1, "closelayer") is None    # another kind
    assert [p.stem for p in _kept("closelayer")] == ["c1-1000", "c2-1000", "c3-1000"]
    assert stored.read_layer("c3", 1000, 1, "closelayer") == bytes([3]) * 3000
    ahead = 4_000_000_000                                   # dated ahead of the clock
    os.utime(stored.folder() / "b0.base", (ahead, ahead))
    stored.write_base("b4", {"n": 4})
    assert [p.stem for p in _kept("base")] == ["b2", "b3", "b4"]     # not used since: first
    assert stored.read_base("b4") == {"n": 4}
    stored.write_layer("deep", 1000, 1, [bytes(3000)])
    body = (stored.folder() / "deep-1000.layer").read_bytes().split(b"\n", 2)[2]
    home.write_signed_bytes(stored.folder() / "deep-1000.layer",
                            b"[" * 100_000 + b"\n" + body.partition(b"\n")[2])
    assert stored.read_layer("deep", 1000, 1) is None


@pytest.mark.parametrize("writes_with_zlib_ng", [True, False])
def test_a_layer_reads_back_whichever_deflate_wrote_it(monkeypatch, writes_with_zlib_ng):
    """zlib-ng and zlib write the same format: a layer kept by either reads back by the
    other (zlib writes it where zlib-ng does not load)."""
    pixels = bytes(range(256)) * 30 + bytes(3000 * 7 - 7680)
    with monkeypatch.context() as mp:
        if not writes_with_zlib_ng:
            mp.setitem(sys.modules, "zlib_ng", None)         # `import zlib_ng` fails
        stored.write_layer("either", 1000, 7, [pixels[:9000], pixels[9000:]])
    with monkeypatch.context() as mp:
        if writes_with_zlib_ng:
            mp.setitem(sys.modules, "zlib_ng", None)
        assert stored.read_layer("either", 1000, 7) == pixels


def test_a_drawing_code_or_font_that_cannot_be_read_keeps_nothing(monkeypatch):
    real = Path.read_bytes
    with monkeypatch.context() as mp:
        mp.setattr(Path, "read_bytes", lambda p: real(p) if p.suffix != ".ttf" else
                   (_ for _ in ()).throw(IsADirectoryError(21, "a folder", str(p))))
        assert stored._code() == ""
    monkeypatch.setattr(stored, "CODE", "")
    assert stored.key("source", 16.0, 200.0, 0) is None


def test_a_cache_folder_that_is_not_one_leaves_the_pictures_as_they_are(declared, drawn,
                                                                        monkeypatch):
    first = _as_drawn(drawn)
    shutil.rmtree(stored.folder())
    stored.folder().write_text("not a folder")
    _new_run(monkeypatch)
    assert _pictures(declared) == first


def test_map_to_png_paints_from_the_drawing_and_so_reads_the_kept_layer(declared, cli,
                                                                        tmp_path, monkeypatch):
    """`referee map -o FILE.png` paints the drawing itself, as a mail does: a later run
    finds its static layer kept, and draws the same bytes as its SVG read back would."""
    _new_run(monkeypatch)
    first = tmp_path / "first.png"
    assert cli("map", declared, "--as", "entente", "-o", first).exit_code == 0
    _new_run(monkeypatch)
    made = _counting(monkeypatch)
    again = tmp_path / "again.png"
    assert cli("map", declared, "--as", "entente", "-o", again).exit_code == 0
    assert "layer" not in made and "base" not in made
    assert again.read_bytes() == first.read_bytes()
    svg = tmp_path / "map.svg"
    assert cli("map", declared, "--as", "entente", "-o", svg).exit_code == 0
    assert png.to_png(svg.read_text(encoding="utf-8")) == first.read_bytes()


def test_a_painter_installed_after_the_code_was_digested_keeps_and_reads_nothing(
        monkeypatch, tmp_path):
    """The painter is loaded after the digest was taken (stored.loaded): if its file has
    changed meanwhile, the run would file new pictures under the old code's name."""
    monkeypatch.setattr(stored, "CODE", stored.CODE)
    stored.loaded(png.__file__)                    # as it stands: nothing changes
    assert stored.CODE and stored.key("source", 16.0, 200.0, 0) is not None
    changed = tmp_path / "png.py"
    changed.write_text("# installed again\n")
    stored.loaded(str(changed))
    assert stored.CODE == "" and stored.key("source", 16.0, 200.0, 0) is None
