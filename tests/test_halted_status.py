"""A game that takes no orders now (closed by `reveal --force`, paused, or a journal that
holds its header alone) does not look live to a script: `status`, `show` and `report` give
no side waited on and no order open, say why at their top level (`closed`, `paused`), and
their text says it in words; every order `legal` listed before is refused then, exit 1."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from test_deadlines import DUE, new_game

from referee.mail.reminders import check_deadlines

SIDES = ("german", "entente", "moderator")


def _json(cli, *args) -> dict:
    r = cli(*args, "--format", "json")
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def _status(cli, journal: Path, reader: str) -> dict:
    return _json(cli, "status", journal, "--as", reader)


def _refused_all(cli, journal: Path, legal: list[str]) -> None:
    """Every order the live game listed is refused now: exit 1, nothing written."""
    before = journal.read_bytes()
    for text in legal:
        r = cli("order", journal, "--as", "german", text)
        assert r.exit_code == 1, (text, r.output)
    assert journal.read_bytes() == before


def _asks_nothing(view: dict) -> None:
    assert view["waiting_on"] is None and view["waiting_on_all"] == [], view
    assert view["decision"] is None and view["game_over"] is False, view
    assert "owed" not in view
    if "legal" in view:
        assert view["legal"] == [], view


def test_a_game_closed_by_its_reveal_asks_nothing_and_says_it_is_closed(cli, game):
    live = _status(cli, game, "german")
    assert live["waiting_on"] == "german" and live["legal"] and "closed" not in live
    assert cli("reveal", game, "--force").exit_code == 0
    last = json.loads(game.read_text().splitlines()[-1])
    for reader in SIDES:
        view = _status(cli, game, reader)
        _asks_nothing(view)
        assert view["closed"] == {"why": "revealed", "seq": last["seq"], "at": last["at"]}
        assert "closed" in view["prompt"] and "paused" not in view
        if reader == "moderator":
            assert view["legal_for"] is None
    shown = _json(cli, "show", game, "--as", "german")
    _asks_nothing(shown)
    assert shown["closed"]["why"] == "revealed"
    report = _json(cli, "report", game, "--as", "german")
    assert report["legal"] == [] and report["waiting_on"] is None
    assert report["closed"]["seq"] == last["seq"]
    text = cli("status", game, "--as", "german").stdout
    assert "closed" in text and "Orders open" not in text and "Waiting on" not in text, text
    _refused_all(cli, game, live["legal"])


@pytest.mark.parametrize("how", ["moderator", "missed"])
def test_a_paused_game_lists_no_order_it_refuses(cli, tmp_path, clock, how):
    """A pause refuses every order (game/timeline.py's taking_orders), so none is listed; the
    decision it resumes at is kept under `paused`, with what paused it."""
    journal = new_game(tmp_path, cli, "--deadline", "48h", "--missed", "pause")
    live = _status(cli, journal, "german")
    assert live["legal"]
    if how == "moderator":
        assert cli("deadline", journal, "--pause").exit_code == 0
    else:
        assert check_deadlines(journal, tmp_path / "out", DUE)
    clock(DUE)
    last = json.loads(journal.read_text().splitlines()[-1])
    for reader in SIDES:
        view = _status(cli, journal, reader)
        _asks_nothing(view)
        paused = view["paused"]
        assert paused["by"] == how and paused["seq"] == last["seq"], paused
        assert paused["waiting_on_all"] == ["german"] and paused["decision"] == "card_or_pass"
        assert paused["side"] == (None if how == "moderator" else "german")
        assert view["deadlines"]["paused"] is True and "closed" not in view
        assert "paused" in view["prompt"]
    report = _json(cli, "report", journal, "--as", "german")
    assert report["legal"] == [] and report["paused"]["seq"] == last["seq"]
    text = cli("status", journal, "--as", "german").stdout
    assert "Orders open" not in text and text.count("paused") >= 1, text
    assert "once it resumes" in text.lower(), text
    _refused_all(cli, journal, live["legal"])
    assert cli("deadline", journal, "--resume").exit_code == 0
    again = _status(cli, journal, "german")
    assert again["legal"] == live["legal"] and "paused" not in again


def _header_alone(game: Path) -> Path:
    """The game's journal cut back to its header (record 0), this referee's mark of what it
    wrote taken away, as on another machine: no set-up record, which `new` writes with it."""
    game.write_bytes(game.read_bytes().splitlines(keepends=True)[0])
    for mark in (Path(os.environ["REFEREE_HOME"]) / "written").glob("*.mark"):
        mark.unlink()
    return game


def test_an_order_to_a_journal_with_its_header_alone_is_not_told_the_game_is_over(cli, game):
    """No decision is asked, so no order is taken; but nothing ended the game (3.0): its
    refusal says why, never that the game is over, and so does `deadline --set`, refused
    as the order is (exit 1)."""
    _header_alone(game)
    r = cli("order", game, "--as", "german", "pass")
    assert r.exit_code == 1 and "set-up" in r.stderr and "game is over" not in r.stderr, \
        r.stderr
    assert "(rule 3.0)" not in r.stderr
    r = cli("deadline", game, "--set", "48h")
    assert r.exit_code == 1 and "set-up" in r.stderr, r.stderr


def test_a_journal_with_its_header_alone_is_neither_live_nor_over(cli, game):
    """status and show say what `order` says: nothing asked, the game closed, not over."""
    _header_alone(game)
    view = _status(cli, game, "german")
    _asks_nothing(view)
    assert view["closed"]["why"] == "no_setup" and view["closed"]["seq"] == 0
    assert "set-up" in view["prompt"]
    text = cli("status", game, "--as", "german").stdout
    assert "Nobody" not in text and "set-up" in text, text
    assert _json(cli, "show", game)["closed"]["why"] == "no_setup"


def test_a_game_under_older_rules_lists_no_order_until_its_upgrade(cli, tmp_path):
    """`order` refuses every order to a game played under older rules (exit 2, `referee
    upgrade`, replay.check_current): status, show and report list none either, and say why
    under `outdated`; once upgraded, the game is asked its decision again."""
    from test_versions import _rules9_game

    from referee.engine.versions import RULES_VERSION

    journal, _secret = _rules9_game(tmp_path)
    r = cli("order", journal, "--as", "entente", "done")
    assert r.exit_code == 2 and "referee upgrade" in r.stderr, r.output
    for reader in SIDES:
        view = _status(cli, journal, reader)
        _asks_nothing(view)
        assert view["outdated"]["rules"] == 9, view
        assert view["outdated"]["current_rules"] == RULES_VERSION
        assert "referee upgrade" in view["prompt"] and "closed" not in view, view
        if reader == "moderator":
            assert view["legal_for"] is None
    assert _json(cli, "show", journal, "--as", "entente")["outdated"]["rules"] == 9
    report = _json(cli, "report", journal, "--as", "entente")
    assert report["legal"] == [] and report["outdated"]["rules"] == 9
    text = cli("status", journal, "--as", "entente").stdout
    assert "Orders open" not in text and "referee upgrade" in text, text
    text = cli("report", journal, "--as", "entente").stdout
    assert "Your decision" not in text and "referee upgrade" in text, text
    assert cli("upgrade", journal).exit_code == 0
    again = _status(cli, journal, "entente")
    assert again["legal"] and "outdated" not in again and again["waiting_on"] == "entente"


def test_a_paused_game_under_older_rules_says_both(cli, tmp_path):
    """`order` gives the upgrade's refusal first (replay.check_current): the prompt; the pause
    is given beside it, with the decision the game resumes at."""
    from test_versions import _rules9_game

    journal, _secret = _rules9_game(tmp_path)
    assert cli("deadline", journal, "--pause").exit_code == 0
    view = _status(cli, journal, "entente")
    _asks_nothing(view)
    assert view["outdated"]["rules"] == 9 and "referee upgrade" in view["prompt"], view
    assert view["paused"]["by"] == "moderator" and view["paused"]["waiting_on_all"] == \
        ["entente"], view
    text = cli("status", journal, "--as", "entente").stdout
    assert "referee upgrade" in text and "paused" in text, text


def test_a_read_of_a_game_that_takes_orders_checks_no_record_for_the_halt(cli, game,
                                                                          monkeypatch):
    """The halt is looked for in the state and the journal's bytes: the records, each
    checked (a whole scan of a long journal, which a cold read makes beside the replay
    instead), are asked only of a game halted, to say since when. A `status` and `show` of
    a live game, kept views forgotten, never ask the Table for them; a closed game's do."""
    from referee.table import Table

    asked: list[int] = []
    real = Table.records

    def counting(self):
        asked.append(1)
        return real.fget(self)

    def forget_views() -> None:         # as `make bench` makes a read cold: the keys stay
        home = Path(os.environ["REFEREE_HOME"])
        for entry in home.iterdir():
            if entry.name not in ("key", "keys", "written", "games"):
                shutil.rmtree(entry) if entry.is_dir() else entry.unlink()

    monkeypatch.setattr(Table, "records", property(counting))
    closed = game.with_name("closed.jsonl")
    assert cli("new", closed, "--scenario", "1914", "--game-id", "closed").exit_code == 0
    assert cli("reveal", closed, "--force").exit_code == 0
    for args in (("status", game), ("show", game, "--format", "json")):
        forget_views()
        assert cli(*args).exit_code == 0
    assert asked == []
    forget_views()
    assert _status(cli, closed, "german")["closed"]["why"] == "revealed" and asked
