"""The room a reinforcement plan counts (engine/room.py) is the room moves into armies make
when they are played out (1.2.2, 2.0 I, 8.1).

While nothing of a side's arrivals can be placed in an area, the plan stays open if units
moved into armies there could make room (room_in, counted). Here that answer is compared
with tests/roomplay.py, which plays every legal move into an army there, up to two, and
every way of emptying one army there into the others, on a copy of the state and looks for
a place: at every reinforcement-plan position of the stored games and of random ones (its
own arrivals, and probes: each kind of unit it has in an area at the stacking limit,
arriving there), and at crafted positions. A break of the counting (an empty army's pair,
a template, a marker) is caught (the negative controls below).
"""

from __future__ import annotations

import gzip
import hashlib
import inspect
from pathlib import Path

import pytest
import roomplay

import gamecalls as g
from casebook import AAC_SWITCHES, data_copy, new_game, position
from referee.engine import reinforce, room
from referee.game.autoplay import autoplay
from referee.game.verification import verify

HERE = Path(__file__).parent / "replays"


@pytest.fixture
def sweep(monkeypatch):
    """Every position a reinforcement plan asks about, compared as it is asked."""
    found = roomplay.Sweep()
    asked = reinforce._room_to_make

    def compared(s, d, side):
        found.position(s, d, side)
        return asked(s, d, side)

    monkeypatch.setattr(reinforce, "_room_to_make", compared)
    return found


def _stored(tmp_path: Path, name: str) -> Path:
    journal = tmp_path / "g.jsonl"
    journal.write_bytes(gzip.decompress((HERE / name).read_bytes()))
    journal.chmod(0o600)
    return journal


@pytest.mark.parametrize("name, least", [
    ("ttlm-1914-seed7.jsonl.gz", 20), ("ttlm-1916-seed8.jsonl.gz", 250),
    ("ttlm-1918-seed9.jsonl.gz", 180)])
def test_the_counted_room_of_every_plan_of_a_stored_game_is_the_played_room(
        tmp_path, sweep, name, least):
    verify(_stored(tmp_path, name))
    assert not sweep.differ, "\n".join(sweep.differ[:10])
    # Compared where it matters, with room and without: the test cannot pass empty.
    assert sweep.compared >= least and 0 < sweep.room < sweep.compared, vars(sweep)


GAMES = [  # (game, scenario, hidden templates, seed, records)
    ("ttlm", "1914", True, 1, 400), ("ttlm", "1918", False, 2, 400),
    ("aac", "1914", True, 3, 400), ("ttlm", "1916", False, 4, 600),
    ("ttlm", "1918", True, 5, 600), ("aac", "1914", False, 6, 600),
    ("ttlm", "1914", False, 7, 900), ("aac", "1914", True, 8, 900)]


@pytest.mark.parametrize("game, scenario, hidden, seed, records", GAMES,
                         ids=[f"{g_}-{sc}-{'hidden' if h else 'open'}-{n}"
                              for g_, sc, h, n, _ in GAMES])
def test_the_counted_room_of_every_plan_of_a_random_game_is_the_played_room(
        tmp_path, sweep, game, scenario, hidden, seed, records):
    journal = tmp_path / "g.jsonl"
    secret = tmp_path / "fixed.secret"
    secret.write_text(hashlib.sha256(f"room-{seed}".encode()).hexdigest() + "\n")
    secret.chmod(0o600)
    g.create_game(journal, scenario, game=game, game_id=f"room-{seed}", secret_file=secret,
                  options=[f"hidden_templates={str(hidden).lower()}"])
    out = autoplay(journal, seed, max_records=records, check_every=10_000)
    assert out.failure is None, out.failure
    assert not sweep.differ, "\n".join(sweep.differ[:10])
    assert sweep.compared > 0, vars(sweep)


# Crafted positions: (scenario, turn, units, area, arrivals, room?, what it tries). Each
# area is at the stacking limit of three, nothing arriving can be placed there as it stands.
CRAFTED = [
    ("1916", 9, ["uk-5 uk army england empty", "uk-i-01 uk infantry england",
                 "uk-i-02 uk infantry england", "uk-a-01 uk artillery england"],
     "england", ["uk:artillery"], True, "two into an empty army (2.0 I case)"),
    ("1916", 9, ["uk-5 uk army england empty", "uk-i-01 uk infantry england",
                 "uk-i-02 uk infantry england", "uk-a-01 uk artillery england"],
     "england", ["uk-4", "uk:artillery"], None,
     "an arriving army: placed as it stands, an empty army counting none"),
    ("1918", 17, ["uk-1 uk army england empty", "uk-a-01 uk artillery england",
                  "uk-2 uk army england 4I+2A", "uk-i-01 uk infantry england"],
     "england", ["uk:artillery"], True, "one into an empty army, the arrival after it"),
    ("1918", 17, ["uk-1 uk army england 4I+2A", "uk-2 uk army england 3I+2A",
                  "uk-3 uk army england 4I+2A"], "england", ["uk:artillery"], False,
     "full templates everywhere"),
    ("1918", 17, ["uk-1 uk army england 4I+2A", "uk-2 uk army england 3I+2A",
                  "uk-i-01 uk infantry england"], "england", ["uk:artillery"], True,
     "a stand-alone unit into an army holding units"),
    ("1918", 17, ["fr-1 fr army amiens 3I+2A", "uk-1 uk army amiens 4I+2A",
                  "be-i-01 be infantry amiens"], "amiens", ["fr:infantry"], False,
     "mixed nations: nothing joins another's army"),
    ("1918", 17, ["uk-1 uk army amiens empty", "uk-i-01 uk infantry amiens",
                  "fr-1 fr army amiens 3I+2A", "fr-a-01 fr artillery amiens"],
     "amiens", ["fr:infantry"], False, "one unit into an empty army frees nothing"),
    ("1918", 17, ["fr-1 fr army amiens 2I+1usI", "uk-1 uk army amiens 3I+2A",
                  "fr-a-01 fr artillery amiens"], "amiens", ["fr:infantry"], True,
     "US infantry in any army: frees the French template"),
    ("1918", 17, ["uk-1 uk army amiens empty", "uk-cw-01 uk commonwealth amiens",
                  "uk-i-01 uk infantry amiens", "fr-1 fr army amiens 3I+2A"],
     "amiens", ["fr:infantry"], True, "a Commonwealth unit and a UK one into an empty army"),
    # Found by the random games: an army's only unit does not free its place by going into
    # x when a unit of x went into that same army; a unit of a fuller army may follow one
    # into an empty army, and the arrival take its place in its template.
    ("1918", 17, ["uk-1 uk army amiens 4I", "uk-2 uk army amiens 1I",
                  "fr-a-01 fr artillery amiens"], "amiens", ["fr:infantry"], False,
     "the only unit of the army a unit went into"),
    ("1918", 17, ["uk-1 uk army amiens empty", "uk-i-01 uk infantry amiens",
                  "fr-1 fr army amiens 2I+1usI+2A", "fr-a-01 fr artillery amiens"],
     "amiens", ["fr:infantry"], True, "a unit of a fuller army after one into an empty army"),
    # Found by the stored 1916 game: an army of two units is emptied, both going into armies
    # holding units (US infantry into a UK army, 8.1), and counts none; or the second goes
    # into an empty army and the arrival after it.
    ("1918", 18, ["fr-10 fr army artois empty", "uk-2 uk army artois 3I+1CW",
                  "uk-3 uk army artois 2usI", "uk-5 uk army artois 1I+1usI+2A+1C",
                  "us-1 us army artois empty"], "artois", ["us:biplane"], True,
     "an army of two units emptied into an army holding units"),
    ("1918", 18, ["uk-2 uk army artois 3I+1CW", "uk-3 uk army artois 2usI",
                  "uk-5 uk army artois 1I+2usI+2A+1C", "us-1 us army artois empty"],
     "artois", ["us:biplane"], True,
     "an army of two units emptied, one into an army holding units, one into an empty army"),
    ("1918", 18, ["uk-2 uk army artois 3I+1CW", "uk-3 uk army artois 2usI",
                  "uk-5 uk army artois 1I+2usI+2A+1C"], "artois", ["us:biplane"], False,
     "an army of two units, room for one of them in another army"),
    # Found by the stored 1916 game (record 1246): an army of three units is emptied into
    # one army holding units, whose template has room for all three, and counts none; or
    # the last goes into an empty army and the arrival after it; not when one of the three
    # has nowhere to go (an empty French army takes it, but not the US biplane after it).
    ("1918", 18, ["fr-10 fr army artois empty", "uk-2 uk army artois 3I+1CW",
                  "uk-3 uk army artois 3usI", "uk-5 uk army artois 1I+2A+1C",
                  "us-1 us army artois empty"], "artois", ["us:biplane"], True,
     "an army of three units emptied into an army holding units"),
    ("1918", 18, ["fr-10 fr army artois empty", "uk-2 uk army artois 3I+1CW",
                  "uk-3 uk army artois 3usI", "uk-5 uk army artois 2I+2A+1C",
                  "us-1 us army artois empty"], "artois", ["us:biplane"], True,
     "an army of three units emptied, the last into an empty army"),
    ("1918", 18, ["fr-10 fr army artois empty", "uk-2 uk army artois 3I+1CW",
                  "uk-3 uk army artois 3usI", "uk-5 uk army artois 2I+2A+1C"],
     "artois", ["us:biplane"], False, "an army of three units, one with nowhere to go"),
]


def _state(tmp_path: Path, scenario: str, turn: int, units: list[str], game: str = "ttlm",
           games_dir: Path | None = None):
    sc = position(scenario, turn=turn, game=game,
                  units=units + ["ge-9 ge army metz 1I"])
    journal = new_game(tmp_path, sc, game=game, games_dir=games_dir)
    opened = g.open_game(journal, games_dir=games_dir) if games_dir else g.open_game(journal)
    return opened.state, opened.data


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """Each crafted position's state and data (and the OoS position's, under "oos"), made
    once for the module: the tests read them, and change only a clone."""
    kept: dict = {}

    def position_of(scenario: str, turn: int | None = None, units: list[str] = ()):
        key = (scenario, turn, tuple(units))
        if key not in kept:
            where = tmp_path_factory.mktemp("crafted")
            kept[key] = (_oos_position(where) if scenario == "oos" else
                         _state(where, scenario, turn, list(units)))
        return kept[key]
    return position_of


def _answers(s, d, side: str, area: str, units: list[str]):
    t = roomplay.with_arrivals(s, d, side, area, units)
    assert t.stack_count(area, side, d) >= d.units.stacking_limit
    return roomplay.compare(t, d, side, area)      # None: placeable as it stands


@pytest.mark.parametrize("scenario, turn, units, area, arriving, room_there, what", CRAFTED,
                         ids=[c[-1] for c in CRAFTED])
def test_the_counted_room_of_a_crafted_position_is_the_played_room(
        made, scenario, turn, units, area, arriving, room_there, what):
    s, d = made(scenario, turn, units)
    want = None if room_there is None else (room_there, room_there)
    assert _answers(s, d, "entente", area, arriving) == want, what
    sweep = roomplay.Sweep()
    sweep.position(roomplay.with_arrivals(s, d, "entente", area, arriving), d, "entente")
    assert not sweep.differ, "\n".join(sweep.differ)


def _oos_position(tmp_path: Path):
    """Amiens at the limit under AT ALL COSTS! switches (OoS markers stay, AAC 1.2.3): an
    empty UK army, a stand-alone UK artillery, two French armies it may not join (8.1)."""
    return _state(tmp_path, "1918", 17, ["uk-1 uk army amiens empty",
                                         "uk-a-01 uk artillery amiens",
                                         "fr-1 fr army amiens 3I",
                                         "fr-2 fr army amiens 3I"],
                  games_dir=data_copy(AAC_SWITCHES))


def test_an_out_of_supply_marker_counts_as_played(made):
    """An OoS marker keeps an army from taking an arrival (AAC 1.2.3, 6.5), not a unit moved
    in: the artillery goes into the empty army, the arriving one may not follow it."""
    s, d = made("oos")
    assert _answers(s, d, "entente", "amiens", ["uk:artillery"]) == (True, True)
    s = s.clone()
    s.oos = ["uk-1"]
    assert _answers(s, d, "entente", "amiens", ["uk:artillery"]) == (False, False)


# The counting broken as it plausibly could be (engine/room.py with one change): each break
# is caught by some position above.
BREAKS = {
    "an empty army's pair counted from one unit": ("joining[i + 1:]", "joining[i:]"),
    "template capacity ignored": ("template_violation(s, d, army, dict(after)) is None",
                                  "True"),
    "supply markers ignored": ("not marked(s, d, ", "not (lambda *a: False)(s, d, "),
    "an emptied army's units held to a template one at a time": ("added[y.id] + [key]",
                                                                  "[key]"),
}


def _broken(old: str, new: str):
    source = inspect.getsource(room)
    assert source.count(old) >= 1, old
    ns = {"__name__": room.__name__, "__package__": room.__package__}
    exec(compile(source.replace(old, new), room.__file__, "exec"), ns)
    return ns["room_in"]


@pytest.mark.parametrize("name", sorted(BREAKS))
def test_a_broken_count_is_caught(made, monkeypatch, name):
    monkeypatch.setattr(room, "room_in", _broken(*BREAKS[name]))
    caught = []
    for scenario, turn, units, area, arriving, _, what in CRAFTED:
        s, d = made(scenario, turn, units)
        got = _answers(s, d, "entente", area, arriving)
        caught += [what] * (got is not None and got[0] != got[1])
    s, d = made("oos")
    s = s.clone()
    s.oos = ["uk-1"]
    counted, played = _answers(s, d, "entente", "amiens", ["uk:artillery"])
    caught += ["marked"] * (counted != played)
    assert caught, f"{name}: no position tells the broken count from the played one"
