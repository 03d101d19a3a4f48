"""What `status`, `show` and `report` say, read by a player who has never seen the program:
the reader a title names, the player turn, a fort, the Build Points and a deadline, each in
words, as the rules and the game's data name them."""

from __future__ import annotations

import json

import pytest
from test_report_golden import BATTLES, PRODUCTION, SIEGE, _play
from typer.testing import CliRunner

from casebook import new_game
from referee.cli.app import app

TITLES = [("public", "for the public"), ("moderator", "for the moderator"),
          ("german", "for the German player"), ("entente", "for the Entente player")]


@pytest.mark.parametrize("reader,words", TITLES)
@pytest.mark.parametrize("command", ["status", "show", "report"])
def test_a_title_names_its_reader_in_words(game, cli, command, reader, words):
    """Each output is made for one reader (the public, the moderator or a side); its title
    names him as a person reads it, a side by its name, never by its id ('for german')."""
    for fmt in ("text", "markdown", "bbcode"):
        r = cli(command, game, "--as", reader, "--format", fmt)
        assert r.exit_code == 0, r.stderr
        first = r.stdout.strip().splitlines()[0]
        assert words in " ".join(r.stdout.split()[:20]), (fmt, first)
        assert f"for {reader}:" not in first and f"for {reader}," not in first, (fmt, first)


@pytest.mark.parametrize("command", ["status", "show"])
def test_the_situation_names_the_player_turn_once(game, cli, command):
    """In the German player turn of SUMMER 1914 (2.0 II), the situation says so once, as the
    map's third line does: 'German player turn', never 'player turn (German player turn)'
    nor a bare 'player turn' that does not say whose."""
    for reader in ("public", "german", "entente", "moderator"):
        r = cli(command, game, "--as", reader)
        assert r.exit_code == 0, r.stderr
        situation = r.stdout.split("Situation\n---------\n", 1)[1].split("\n\n", 1)[0]
        assert situation.endswith("SUMMER 1914, German player turn") or \
            situation == "SUMMER 1914 (turn 1), German player turn", situation
        assert situation.count("player turn") == 1, situation


def _words(text: str) -> str:
    return " ".join(text.split())


def test_the_sedan_0_fort_is_told_as_firing_no_dice(game, cli, tmp_path):
    """The Sedan 0 fort (8.4) is a fort of strength 0: still a unit, yet it has no Firepower
    and rolls no dice. show, the report's board, `area` and the map say so in words, where
    they read 'Sedan fort 0', 'fort 0/0' and a counter 'FR F 0'; a fort of another strength
    is shown by its number as before (Longwy 1)."""
    show = _words(cli("show", game).stdout)
    assert "Sedan fort 0 (fires no dice, 8.4)" in show
    assert "Longwy fort 1" in show
    board = _words(cli("report", game, "--since", "0").stdout)
    assert "fort 0 (fires no dice, 8.4)" in board and "0/0" not in board
    assert "fort Longwy 1/1" in board
    area = _words(cli("area", game, "sedan").stdout)
    assert "strength 0: it fires no dice" in area and "strength 0 of 0" not in area
    svg = cli("map", game, "--format", "svg").stdout
    sedan = svg.split('data-unit="fort-sedan"', 1)[1].split("</g>", 1)[0]
    assert "no fire" in sedan and "fires no dice" in sedan


@pytest.fixture(scope="module")
def over_the_card_limit(tmp_path_factory):
    """The siege of Verdun (test_report_golden.py) played into its AUTUMN 1914 production
    phase, where the German buys 8 cards with his 10 BP and the Entente spends nothing:
    once both plans are revealed, the German holds 11 cards and must discard the excess
    (2.0 V.3, 7.1), still in the production phase."""
    folder = tmp_path_factory.mktemp("card-limit")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("REFEREE_HOME", str(folder / "home"))
        journal = new_game(folder, SIEGE, {"hidden_templates": True}, "manual", name="siege")
        plan = [step for step in PRODUCTION if not step[1].startswith(("buy", "build"))]
        _play(journal, BATTLES + plan[:-1] + [("german", "buy 8", None), plan[-1]])
        planning = {reader: _report(journal, reader, 16) for reader in READERS}
        _play(journal, [("entente", "done", None)])
    return folder, planning, journal


READERS = ("german", "entente", "public")


def _report(journal, reader: str, since: int) -> str:
    r = CliRunner().invoke(app, ["report", str(journal), "--as", reader, "--since", str(since)])
    assert r.exit_code == 0, r.output
    return r.stdout


@pytest.mark.parametrize("reader", READERS)
def test_build_points_are_shown_only_until_the_plans_are_revealed(over_the_card_limit, cli,
                                                                  monkeypatch, reader):
    """Build Points not spent in the production phase are lost (7.0), and both plans are
    carried out as they are revealed: while the German discards over his card limit after
    that, the board shows no Build Points left over, where it read 'Build Points (7.0):
    German 10, Entente 8'. While the Entente still plans, both sides' BP are shown."""
    folder, planning, journal = over_the_card_limit
    monkeypatch.setenv("REFEREE_HOME", str(folder / "home"))
    status = json.loads(cli("status", journal, "--as", "german", "--format", "json").stdout)
    assert (status["phase"], status["decision"]) == ("production", "discard_excess")
    for fmt in ("text", "markdown", "json"):
        report = cli("report", journal, "--as", reader, "--since", "27", "--format", fmt)
        assert report.exit_code == 0, report.stderr
        assert "Build Points (7.0)" not in report.stdout, fmt
    board = json.loads(cli("report", journal, "--as", reader, "--since", "27", "--format",
                           "json").stdout)["board"]
    assert board.get("build_points") is None
    assert "Build Points (7.0): German 10, Entente 8" in _words(planning[reader])
