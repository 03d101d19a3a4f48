"""`referee autoplay` plays a skirmish through its kind: random legal orders (randomplay.py)
for whoever the game waits on, each played as `order` plays it, until a side has no figure
left fighting (the referee's reading of the card: that side has lost) or until turn T is
over (`--until T`: every phase of the card's sequence of play gone through). The same seed,
game and secret give the same journal, byte for byte; the journal verifies after. A game
its dice cannot be rolled for (manual dice, the secret file missing, the secret published
before a side was beaten) is refused in one line, exit 2, nothing written; an order the
check took and the order refused stops it in one line, exit 3, as a campaign's broken
invariant does. A game over rolls nothing and is told as it ended, its secret file gone or
not."""

from __future__ import annotations

import json

import jsonschema
import pytest
from forging import as_user, fixed_key

from referee.base.errors import IllegalOrderError
from referee.contracts.schemas import schema
from referee.data.paths import default_games_dir
from referee.table.skirmish import life
from referee.table.skirmish.loading import load_skirmish

NOW = "2026-03-01T18:00:00Z"
SEQUENCE = [p.phase for p in load_skirmish(default_games_dir() / "skirmish").card.sequence]


def records(journal) -> list[dict]:
    return [json.loads(line) for line in journal.read_bytes().splitlines()]


def one_line(r, code: int) -> str:
    assert r.exit_code == code, (r.stdout, r.stderr)
    (line,) = r.stderr.strip().splitlines()
    return line


def patrol(cli, journal, secret_file, *more: str):
    journal.parent.mkdir(exist_ok=True)
    secret_file.chmod(0o600)
    r = cli("new", journal, "--game", "skirmish", "--scenario", "patrol", "--game-id",
            "patrol-auto", "--secret-file", secret_file, *more)
    assert r.exit_code == 0, r.stderr
    return journal


@pytest.fixture
def game(cli, tmp_path, secret_file, monkeypatch):
    monkeypatch.setenv("REFEREE_NOW", NOW)
    return patrol(cli, tmp_path / "patrol.jsonl", secret_file)


def fighting(cli, journal) -> set[str]:
    """The sides with a figure still fighting, read from the public report: active, and
    not in a dispersed section (the card's Morale)."""
    doc = json.loads(cli("show", journal, "--format", "json").stdout)
    dispersed = {s["id"] for s in doc["sections"] if s["dispersed"]}
    return {f["side"] for f in doc["figures"]
            if f["state"] == "active" and f["section"] not in dispersed}


def test_the_same_seed_plays_the_same_patrol_to_its_end(cli, tmp_path, secret_file,
                                                      monkeypatch):
    """Two moderators, each with the game made from the same key, secret and id, play it
    with seed 5: one asks for text, the other JSON; the journals are the same bytes."""
    monkeypatch.setenv("REFEREE_NOW", NOW)
    key = fixed_key(tmp_path / "keys")
    outs, journals = [], []
    for n, fmt in enumerate(("text", "json")):
        (tmp_path / f"home{n}").mkdir(mode=0o700)
        as_user(monkeypatch, tmp_path / f"home{n}")
        journal = patrol(cli, tmp_path / f"g{n}" / "patrol.jsonl", secret_file,
                         "--signing-key", key)
        r = cli("autoplay", journal, "--seed", "5", "--format", fmt)
        assert r.exit_code == 0 and not r.stderr, r.stderr
        outs.append(r.stdout)
        journals.append(journal)
        assert cli("verify", journal, "--secret", secret_file).exit_code == 0
    assert journals[0].read_bytes() == journals[1].read_bytes()
    doc = json.loads(outs[1])
    jsonschema.Draft202012Validator(schema("skirmish-autoplay")).validate(doc)
    recs = records(journals[1])
    assert doc["records"] == len(recs) - 1 and doc["game_over"] and doc["failure"] is None
    left = fighting(cli, journals[1])
    assert len(left) == 1, left             # played to the end: one side has lost
    (winner,) = left
    assert doc["result"]["winner"] == winner and doc["result"]["beaten"] == \
        [s for s in ("british", "german") if s != winner]
    assert doc["turn"] == doc["result"]["turn"] == recs[-1]["turn"]
    assert outs[0] == f"{doc['records']} records played; turn {doc['turn']}; game over: " \
                      f"the {winner.title()} side won\n"
    r = cli("autoplay", journals[1], "--seed", "5")     # over: nothing more to play
    assert r.exit_code == 0 and r.stdout.startswith("0 records played;"), r.stderr
    assert journals[0].read_bytes() == journals[1].read_bytes()


def test_until_stops_once_the_turn_is_over(cli, game):
    r = cli("autoplay", game, "--seed", "3", "--until", "1")
    assert r.exit_code == 0, r.stderr
    played = records(game)[1:]
    assert played and all(rec["turn"] == 1 for rec in played)
    # The turn ends with the last phase of the sequence of play closed by a done.
    assert played[-1]["phase"] == SEQUENCE[-1] and played[-1]["order"].startswith("done")
    assert r.stdout == f"{len(played)} records played; turn 2; game not over\n"
    status = json.loads(cli("status", game, "--format", "json").stdout)
    assert (status["turn"], status["phase"], status["game_over"]) == (2, SEQUENCE[0], False)
    before = game.read_bytes()
    again = cli("autoplay", game, "--seed", "3", "--until", "1", "--format", "json")
    doc = json.loads(again.stdout)
    assert (doc["records"], doc["turn"], doc["game_over"], doc["result"]) == (0, 2, False, None)
    assert game.read_bytes() == before
    r = cli("autoplay", game, "--seed", "3", "--until", "2")
    assert r.exit_code == 0, r.stderr
    assert {rec["turn"] for rec in records(game)[len(played) + 1:]} <= {2}
    assert cli("verify", game).exit_code == 0


def _fifth_refused(monkeypatch):
    """The fifth order random play gives from now is refused as it is played, after the
    check took it (the game's fault, as autoplay tells it); the real way of playing it."""
    real, calls = life.submit_many, []

    def refusing(path, side, texts, *a, **k):
        calls.append(texts)
        if len(calls) == 5:
            raise IllegalOrderError(texts[0], "Sequence of Play", "refused for the test")
        return real(path, side, texts, *a, **k)
    monkeypatch.setattr(life, "submit_many", refusing)
    return real


def test_an_order_the_check_took_and_the_order_refused_stops_it_exit_3(cli, game,
                                                                        monkeypatch):
    real = _fifth_refused(monkeypatch)
    r = cli("autoplay", game, "--seed", "3")
    line = one_line(r, 3)
    assert line.startswith("referee: random play broke the game at record 5: ") and \
        "refused for the test" in line and line.endswith("every record before it"), line
    assert [rec["seq"] for rec in records(game)] == [0, 1, 2, 3, 4]
    assert r.stdout.startswith("4 records played; turn 1; game not over")
    monkeypatch.setattr(life, "submit_many", real)
    assert cli("verify", game).exit_code == 0
    _fifth_refused(monkeypatch)
    r = cli("autoplay", game, "--seed", "3", "--format", "json")
    assert r.exit_code == 3
    assert "refused for the test" in json.loads(r.stdout)["failure"]
    error = json.loads(one_line(r, 3))
    assert (error["kind"], error["exit"]) == ("invariant", 3)


def test_a_game_without_its_secret_file_is_refused(cli, game, secret_file):
    before = game.read_bytes()
    secret_file.rename(secret_file.with_name("elsewhere.secret"))
    line = one_line(cli("autoplay", game), 2)
    assert "dice secret is needed" in line and str(secret_file) in line, line
    assert game.read_bytes() == before


def test_a_game_over_plays_nothing_and_is_told_as_it_ended_its_secret_file_gone_or_not(
        cli, game, secret_file):
    """Nothing is rolled once a side is beaten: the secret file is not asked for (the
    moderator may have put it away), and the line and the document tell the game as it
    ended, with no record played."""
    first = cli("autoplay", game, "--seed", "1")
    assert first.exit_code == 0 and "game over: the " in first.stdout, first.stdout
    (winner,) = fighting(cli, game)
    secret_file.rename(secret_file.with_name("elsewhere.secret"))
    before = game.read_bytes()
    again = cli("autoplay", game, "--seed", "2")
    assert again.exit_code == 0, again.stderr
    assert again.stdout.startswith("0 records played; turn ") and \
        again.stdout.rstrip().endswith(f"game over: the {winner.title()} side won"), \
        (again.stdout, winner)
    doc = json.loads(cli("autoplay", game, "--format", "json").stdout)
    assert doc["records"] == 0 and doc["game_over"] and doc["result"]["winner"] == winner
    assert game.read_bytes() == before


def test_a_game_with_manual_dice_is_refused(cli, tmp_path, secret_file, monkeypatch):
    monkeypatch.setenv("REFEREE_NOW", NOW)
    journal = patrol(cli, tmp_path / "manual.jsonl", secret_file, "--dice", "manual")
    before = journal.read_bytes()
    assert "manual dice" in one_line(cli("autoplay", journal), 2)
    error = json.loads(one_line(cli("autoplay", journal, "--format", "json"), 2))
    assert error["kind"] == "usage" and "manual dice" in error["error"]
    assert journal.read_bytes() == before


def test_a_game_closed_by_its_secret_published_is_refused(cli, game):
    assert cli("reveal", game, "--force").exit_code == 0
    before = game.read_bytes()
    line = one_line(cli("autoplay", game, "--seed", "1"), 2)
    assert "closed" in line and "record 1" in line, line
    assert game.read_bytes() == before


def test_the_failure_names_the_record_the_refused_order_would_have_been(cli, game,
                                                                         monkeypatch):
    """The fifth order refused: the journal holds records 0 to 4, and the order refused
    would have been record 5, the one the line names; in the document alike."""
    _fifth_refused(monkeypatch)
    r = cli("autoplay", game, "--seed", "3", "--format", "json")
    assert [rec["seq"] for rec in records(game)] == [0, 1, 2, 3, 4]
    assert json.loads(r.stdout)["failure"].startswith("record 5: ")
    assert json.loads(one_line(r, 3))["error"].startswith(
        "random play broke the game at record 5: ")
