"""Sides, nations, unit kinds and countries are the game's own names, declared in its files.

The data schema fixes none of them: a game declares its sides and nations in units.yaml
(`sides`, `nations`), its unit kinds in `unit_types`, its countries in map.yaml `countries`
and the nations' `home_country`; every other file may name only those, and each name it
does not declare is reported with its file and path, all at once (`referee games check`).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from datacopy import copy_game, edit, spot

from referee.base.errors import GameDataError
from referee.data.dataload import load_game
from referee.data.paths import default_games_dir

GAMES = default_games_dir()


def _copy(tmp_path: Path) -> Path:
    return copy_game(tmp_path, folder="") / "ttlm"


_edit = edit


def _rename_side(root: Path, old: str, new: str) -> None:
    """Every mention of a side's id (a whole word, or `<side>_parts`) in a game copy's YAML."""
    word = re.compile(rf"\b{old}(?=\b|_parts\b)")
    for path in root.rglob("*.yaml"):
        text = path.read_text(encoding="utf-8")
        path.write_text(word.sub(new, text), encoding="utf-8")


def test_a_new_nation_on_a_renamed_side_loads(tmp_path):
    """Another game's sides and nations load: `entente` renamed `allies`, with a nation `ru`
    (home country russia) that has armies, a template and build dates (units 1.2, 1.4, 7.6)."""
    d = _copy(tmp_path)
    _rename_side(d, "entente", "allies")
    _edit(d / "units.yaml", "allies: [fr, uk, be, us]", "allies: [fr, uk, be, us, ru]")
    _edit(d / "units.yaml", "  us: {name: United States,",
          "  ru: {name: Russian Empire, side: allies, home_country: russia}\n"
          "  us: {name: United States,")
    _edit(d / "units.yaml", "  us: {army: 5,", "  ru: {army: 2, infantry: 6}\n  us: {army: 5,")
    _edit(d / "units.yaml", "    code: I\n    nations: [ge, fr, uk, be, us]",
          "    code: I\n    nations: [ge, fr, uk, be, us, ru]")
    _edit(d / "charts.yaml", "    us: {infantry: 6, auxiliary: 3}",
          "    us: {infantry: 6, auxiliary: 3}\n    ru: {infantry: 4, auxiliary: 0}")
    _edit(d / "events.yaml", "build_dates:\n  units:\n",
          "build_dates:\n  units:\n    ru:\n      infantry: {from_turn: 1, rule: \"7.6\"}\n")
    data = load_game(d)
    assert data.sides == ("german", "allies")
    assert data.nation_side["ru"] == "allies" and data.units.mix["ru"] == {"army": 2,
                                                                          "infantry": 6}
    assert "russia" in data.countries
    assert data.scenarios["1914"].control["allies"]
    assert data.build_points(1) == {"german": 10, "allies": 8}      # 7.0 chart, turn 1
    assert data.card_limit(1914, "allies") == 5                      # 7.1 chart, 1914
    # The map draws a side in the colours its data gives (units.yaml side_colours).
    from referee.render.svgmap import control_colour, ink
    assert control_colour("allies", data) == "#9dbbe3" and ink("allies", data) == "#1d3f73"


def test_unknown_names_are_reported_with_their_file_and_path(tmp_path):
    """A nation, a side, a unit kind or a country the game does not declare is a problem
    naming the file and the path, each of them in one run (units.yaml sides/nations, 11.1)."""
    d = _copy(tmp_path)
    _edit(d / "units.yaml", "  us: {army: 5,", "  ru: {army: 2, infantry: 6}\n  us: {army: 5,")
    _edit(d / "units.yaml", "  be: {army: 1,  infantry: 3, fort: 3}",
          "  be: {army: 1,  infantry: 3, fort: 3, zeppelin: 1}")
    _edit(d / "map.yaml", "country: luxembourg", "country: ruritania")
    _edit(d / "scenarios/1914.yaml", "{id: fort-liege,        nation: be,",
          "{id: fort-liege,        nation: ru,")
    _edit(d / "scenarios/1914.yaml", "first_player: german", "first_player: austria")
    with pytest.raises(GameDataError) as err:
        load_game(d)
    problems = err.value.problems
    units, scenario = d / "units.yaml", d / "scenarios/1914.yaml"
    for file, at, says, where in (
            ("units.yaml", spot(units, "ru: {army: 2"), "unknown nation 'ru'", "counter_mix.ru"),
            ("units.yaml", spot(units, "zeppelin"), "unknown unit kind 'zeppelin'",
             "counter_mix.be.zeppelin"),
            ("map.yaml", spot(d / "map.yaml", "ruritania"), "unknown country 'ruritania'",
             "areas.luxembourg.country"),
            ("scenarios/1914.yaml", spot(scenario, "ru, area: liege"), "unknown nation 'ru'",
             "forts[6](fort-liege).nation"),
            ("scenarios/1914.yaml", spot(scenario, "austria"), "unknown side 'austria'",
             "first_player")):
        line = [p for p in problems if p.startswith(f"{file}:{at}: {says} (the game declares")]
        assert len(line) == 1 and line[0].endswith(f") (at {where})"), (file, says, problems)


# ---------------------------------------------------------------- the engine reads them

def _games(tmp_path: Path, edit) -> Path:
    """A games folder holding a copy of TTLM changed by edit(copy)."""
    games = tmp_path / "games"
    games.mkdir()
    edit(_copy(games))
    return games


def _case(tmp_path: Path, games: Path, **position) -> Path:
    """A what-if game on the changed data (a rulebook case position), with a fixed secret."""

    import gamecalls as g
    from casebook import SECRET, yaml_text
    from casebook import position as case_position

    sc = tmp_path / "case.yaml"
    sc.write_text(yaml_text(case_position("1914", **position), sort_keys=False),
                  encoding="utf-8")
    secret = tmp_path / "case.secret"
    secret.write_text(SECRET + "\n")
    journal = tmp_path / "case.jsonl"
    g.create_game(journal, str(sc), "committed", [], game_id="case", secret_file=secret,
                  games_dir=games)
    return journal


def _order(journal: Path, games: Path, side: str, text: str):
    """Submit one order; the rejection (rule, reason) or None when accepted."""
    import gamecalls as g
    from referee.base.errors import OrderError

    try:
        r = g.submit(journal, side, [text], games_dir=games)
    except OrderError as exc:
        return getattr(exc, "rule", None), str(exc)
    return (r.rejected[2].rule, r.rejected[2].reason) if r.rejected else None


@pytest.fixture(scope="module")
def movement_games(tmp_path_factory) -> Path:
    """TTLM's data with strategic movement limited to 1 unit per player turn (4.5) and sea
    movement without the coastal qualifier (4.6), as a game's data may say."""
    def edit(d: Path) -> None:
        _edit(d / "game.yaml", "units: {default: 2, turn_1: 1}", "units: {default: 1}")
        _edit(d / "game.yaml", "requires_coastal: true", "requires_coastal: false")

    return _games(tmp_path_factory.mktemp("movement"), edit)


def test_a_strategic_movement_limit_of_one_refuses_a_second_move(tmp_path, movement_games):
    """4.5: the number of units per player turn is the game's (game.yaml movement.strategic);
    at 1 a second strategic move in the same Entente player turn is refused."""
    games = movement_games
    journal = _case(tmp_path, games, turn=2, player="entente",
                    hands={"german": ["off-01"], "entente": ["off-03", "off-04"]},
                    add_units=["fr-i-03 fr infantry calais"])
    assert _order(journal, games, "entente", "play offensive") is None
    assert _order(journal, games, "entente", "strategic fr-i-02 rouen") is None
    rule, why = _order(journal, games, "entente", "strategic fr-i-03 dunkirk")
    assert rule == "4.5" and "limited to 1 unit this" in why


def test_sea_movement_without_the_coastal_qualifier_lands_inland(tmp_path, movement_games):
    """4.6 says a coastal Entente supply source; a game whose data drops "coastal"
    (movement.sea.requires_coastal: false, as AT ALL COSTS! 4.6 reads) lands in Paris."""
    import gamecalls as g

    games = movement_games
    hands = {"german": ["off-01"], "entente": ["off-03"]}
    journal = _case(tmp_path, games, player="entente", hands=hands)
    assert _order(journal, games, "entente", "play offensive") is None
    assert _order(journal, games, "entente", "sea uk-1 paris") is None
    assert g.open_game(journal, games_dir=games).state.armies["uk-1"].area == "paris"
    # With TTLM's own data Paris, an inland supply source, is refused (4.6).
    plain = tmp_path / "plain"
    plain.mkdir()
    journal = _case(plain, GAMES, player="entente", hands=hands)
    assert _order(journal, GAMES, "entente", "play offensive") is None
    assert _order(journal, GAMES, "entente", "sea uk-1 paris")[0] == "4.6"


def test_a_game_with_renamed_sides_plays(tmp_path):
    """Nothing in the engine names TTLM's sides: with `entente` renamed `allies` (and
    `german` `central`) random legal play runs, and the views name the new sides."""
    import gamecalls as g
    from referee.game.autoplay import autoplay
    from referee.game.views import state_view, status_view

    def rename(d: Path) -> None:
        _rename_side(d, "entente", "allies")
        _rename_side(d, "german", "central")

    games = _games(tmp_path, rename)
    journal = tmp_path / "renamed.jsonl"
    g.create_game(journal, "1914", games_dir=games)
    out = autoplay(journal, 11, max_records=40, check_every=10, games_dir=games)
    assert out.failure is None, out.failure
    game = g.open_game(journal, games_dir=games)
    assert len(game.records) > 30
    assert set(game.state.hands) == {"central", "allies"}
    assert {r["actor"] for r in game.records[1:]} <= {"central", "allies", "moderator"}
    for reader in ("central", "allies"):
        text = repr(state_view(game.state, game.data, reader)) + \
            repr(status_view(game.state, game.data, reader))
        assert "allies" in text and "central" in text
        assert "'entente'" not in text and "'german'" not in text


@pytest.mark.parametrize("records, readers", [
    pytest.param(30, ("allies", "moderator"), id="quick"),
    pytest.param(120, ("central", "allies", "public", "moderator"), id="full")])
def test_the_outputs_name_renamed_sides_as_the_data_does(tmp_path, cli, records, readers):
    """log, show, report, explain and dice name a game's sides as its data does: with
    `german` renamed `central` and `entente` `allies`, no line says German or Entente."""
    import gamecalls as g
    from referee.game.autoplay import autoplay

    def rename(d: Path) -> None:
        _rename_side(d, "entente", "allies")
        _rename_side(d, "german", "central")

    from casebook import SECRET

    games = _games(tmp_path, rename)
    journal = tmp_path / "renamed.jsonl"
    secret = tmp_path / "renamed.secret"
    secret.write_text(SECRET + "\n")
    secret.chmod(0o600)
    g.create_game(journal, "1914", "committed", [], game_id="renamed", secret_file=secret,
                  games_dir=games)
    out = autoplay(journal, 5, max_records=records, check_every=60, games_dir=games)
    assert out.failure is None, out.failure
    last = len(g.open_game(journal, games_dir=games).records) - 1
    texts = []
    for reader in readers:
        for command in (["log", journal], ["show", journal], ["dice", journal],
                        ["report", journal, "--since", "0"],
                        ["report", journal, "--since", "0", "--format", "bbcode"],
                        *(["explain", journal, str(seq)] for seq in range(0, last + 1, 23))):
            r = cli("--games", games, *command, "--as", reader, "--width", "400")
            assert r.exit_code == 0, (command, r.stderr)
            texts.append(r.stdout)
    text = "\n".join(texts)
    assert "Central" in text and "Allies" in text
    # Names the data itself gives (a card "German Military Crisis!", a victory level, the
    # country Germany heading the board) are the data's words; the lines are wide enough for
    # none of them to be wrapped.
    data = load_game(games / "ttlm")
    for name in [c.title for c in data.deck.cards] + \
            [n.name for n in data.units.nations.values()] + \
            [level.name for level in data.charts.victory.levels] + \
            [c.name for c in data.map.country_names]:
        text = text.replace(name, "")
    for old in ("German", "Entente"):
        lines = [line for line in text.splitlines() if old in line]
        assert not lines, f"{old} in {len(lines)} line(s), e.g. {lines[:3]}"


def test_the_log_names_renamed_sides_in_every_line_that_names_one(tmp_path):
    """The log's lines that name a side take its name from the data, the EFT box's owner
    (2.0 V.4), the side whose VP the game counts (3.1) and the Commonwealth's nation
    (8.2.3) too: with the sides renamed, each line says Central or Allies."""
    from referee.render.record_text import describe

    def rename(d: Path) -> None:
        _rename_side(d, "entente", "allies")
        _rename_side(d, "german", "central")

    data = load_game(_games(tmp_path, rename) / "ttlm")
    hidden = {"to": "central", "digest": "0" * 64}
    lines = {
        "Passed": ({"side": "allies"}, "Allies passes (2.0 II.1)"),
        "AreaControlChanged": ({"area": "liege", "control": "allies"},
                               "Liège is now Allies-Friendly (4.1)"),
        "GameEnded": ({"reason": "sudden death", "vp": 9, "level_name": "Decisive"},
                      "GAME OVER: sudden death. Modified Central VP 9: Decisive"),
        "EftUnitLost": ({"secret": hidden},
                        "Central loses a unit of an army in the EFT box (2.0 V.4; hidden, 1.4)"),
        "CommonwealthSwapped": ({"side": "allies", "unit": "uk-anzac", "name": "ANZAC",
                                 "secret": {"to": "allies", "digest": "0" * 64}},
                                "The ANZAC unit takes the place of a UK infantry unit in one "
                                "of the Allies armies (8.2.3; hidden, 1.4)"),
        "ProductionBegan": ({"bp": {"central": 10, "allies": 8}},
                            "Build Points (7.0): Central 10, Allies 8; orders are sealed "
                            "until both sides are done"),
    }
    for kind, (fields, line) in lines.items():
        assert describe({"type": kind, **fields}, data, "public") == line, kind
