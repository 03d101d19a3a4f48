"""A level of the whole map too short for an area's counters even with the map to themselves
is given up before any counter is placed (stacks.place_all, fits_alone): the levels tried
under the one a position is drawn at mostly fail so, and the search is spared placing
most of the map first to find out. The answer is the one placing that area first on the
bare map gives, it is kept with the base, and it gives up no level the placing itself
would have kept, at the positions of a random game."""

from __future__ import annotations

import dataclasses

import pytest

import gamecalls as g
from casebook import new_game, position
from referee.game.autoplay import autoplay
from referee.render import labels, mapbase, mapkeys, stacks, svgmap

BIG = 10 ** 9


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """A 1914 game played at random into its third turn, and its opening (record 1)."""
    journal = new_game(tmp_path_factory.mktemp("short"), position("1914"), name="short")
    done = autoplay(journal, 5, until=2, check_every=BIG)
    assert done.failure is None, done.failure
    return journal


def _scene(journal, upto, reader="german"):
    opened = g.open_game(journal, upto)
    scene = svgmap.scene_of(opened.state, opened.data, reader, opened.game_id)
    return opened, scene, mapkeys.header_height(scene.scale)


def _bare(base: mapbase.Base, area: str, cs) -> bool:
    """Whether the area's counters find a place with nothing else placed: place_area on a
    copy of the base's free space, as the first area of a placing is put."""
    return stacks.place_area(base.space.copy(), base, area, cs) is not None


def test_the_opening_is_drawn_at_level_3_because_strasbourg_has_no_place_at_2(game):
    """At the start of 1914 the German units of Strasbourg find no place at level 2 where
    they read as Strasbourg's, nor room for the taller box that carries its name (stackname.py),
    whatever else is placed: the map is drawn at level 3, where every area's counters find
    one."""
    opened, scene, top = _scene(game, 1)
    drawn, _ = svgmap.layout(scene, top)
    by_area = svgmap._by_area(scene, drawn.pos)
    low, one = (mapbase.base(opened.data, scene.scale, top, n) for n in (2, 3))
    assert drawn.bottom == one.bottom
    assert [a for a, cs in by_area.items() if cs and not _bare(low, a, cs)] == ["strasbourg"]
    assert all(_bare(one, a, cs) for a, cs in by_area.items() if cs)


def test_a_level_too_short_for_an_area_alone_is_given_up_before_any_counter_is_placed(
        game, monkeypatch):
    opened, scene, top = _scene(game, 1)
    low = mapbase.base(opened.data, scene.scale, top, 0)
    by_area = svgmap._by_area(scene, low.pos)
    placed = []
    real = stacks.place_area
    monkeypatch.setattr(stacks, "place_area",
                        lambda *a: placed.append(a[2]) or real(*a))
    assert stacks.place_all(low, by_area) is None
    assert placed == []
    one = mapbase.base(opened.data, scene.scale, top, 3)
    assert stacks.place_all(one, by_area) is not None
    assert set(placed) == {a for a, cs in by_area.items() if cs}


@pytest.mark.parametrize("upto", [1, 40, 80, 123])
def test_fits_alone_answers_as_the_area_placed_first_on_the_bare_map(game, upto):
    """For every area holding counters, at the levels from 0 to 3, for both sides: the
    answer is place_area's on a copy of the bare map, and asking leaves the base's own
    free space as it was."""
    for reader in ("german", "entente"):
        opened, scene, top = _scene(game, upto, reader)
        for level in range(4):
            base = mapbase.base(opened.data, scene.scale, top, level)
            before = base.space.payload()
            by_area = svgmap._by_area(scene, base.pos)
            for area, cs in by_area.items():
                if cs:
                    assert stacks.fits_alone(base, area, cs) == _bare(base, area, cs), \
                        (reader, level, area)
            assert base.space.payload() == before


def test_an_answer_is_worked_out_once_for_a_base_an_area_and_its_counters(game,
                                                                           monkeypatch):
    opened, scene, top = _scene(game, 1)
    base = mapbase.base(opened.data, scene.scale, top, 0)
    base.alone.clear()
    asked = []
    real = stacks._alone
    monkeypatch.setattr(stacks, "_alone",
                        lambda b, a, cs, n: asked.append(a) or real(b, a, cs, n))
    by_area = svgmap._by_area(scene, base.pos)
    for _ in range(3):
        assert stacks.place_all(base, by_area) is None
    assert asked and len(asked) == len(set(asked))
    other = mapbase.base(opened.data, scene.scale, top, 1)
    other.alone.clear()
    stacks.fits_alone(other, "aachen", by_area["aachen"])
    assert asked[0] == asked[-1] == "aachen" and asked.count("aachen") == 2
    # Counters of the same sizes (another unit's title) are the same question.
    renamed = [dataclasses.replace(c, unit=c.unit + "x", title=c.title + " (renamed)")
               for c in by_area["aachen"]]
    assert stacks.fits_alone(other, "aachen", renamed) is True
    assert asked.count("aachen") == 2


def test_the_failed_searches_left_on_the_base_are_bounded(game, monkeypatch):
    """The searches a look on the bare map finds nothing for stay on the base's own space,
    kept as long as the base (a `watch` process's life): past stacks.REFUSED they go (a
    look leaves at most 12: two reaches, three shapes, near and far), the answers
    unchanged."""
    asked = []
    for upto in (1, 40, 80, 123):
        opened, scene, top = _scene(game, upto)
        base = mapbase.base(opened.data, scene.scale, top, 0)
        asked += [(a, cs) for a, cs in svgmap._by_area(scene, base.pos).items() if cs]

    def ask_all() -> int:
        base.alone.clear()
        base.space.refused.clear()
        most = 0
        for a, cs in asked:
            assert stacks.fits_alone(base, a, cs) == _bare(base, a, cs), a
            most = max(most, len(base.space.refused))
        return most

    unbounded = ask_all()
    monkeypatch.setattr(stacks, "REFUSED", 2)
    bounded = ask_all()
    assert unbounded > 2 + 12 >= bounded, (unbounded, bounded)


@pytest.mark.parametrize("upto", [1, 25, 50, 75, 100, 123])
def test_giving_up_early_keeps_every_layout_the_placing_alone_would_make(game, upto,
                                                                        monkeypatch):
    """The same map with and without the early look, at positions of the random game:
    the same level and every counter in the same place."""
    for reader in ("german", "entente"):
        _, scene, top = _scene(game, upto, reader)
        monkeypatch.setattr(svgmap, "_LAID", {})
        early = svgmap.layout(scene, top)
        monkeypatch.setattr(svgmap, "_LAID", {})
        with monkeypatch.context() as m:
            m.setattr(stacks, "_too_short", lambda *a: False)
            late = svgmap.layout(scene, top)
        assert early[0].bottom == late[0].bottom and early[1] == late[1], (upto, reader)


def test_a_place_only_looked_for_is_the_one_kept_and_adds_nothing():
    space = labels.Space((0.0, 0.0, 400.0, 400.0))
    space.add_circle(200.0, 200.0, 10.0, "a")
    space.add_box((150.0, 215.0, 260.0, 240.0), "b")
    before = space.payload()
    looked = labels.place(space, "a", 200.0, 200.0, 10.0, 40.0, 20.0, 1.57, 120.0,
                          keep=False)
    assert looked is not None and space.payload() == before
    assert labels.place(space, "a", 200.0, 200.0, 10.0, 40.0, 20.0, 1.57, 120.0) == looked
    assert space.payload() != before
