"""`referee reveal` on a skirmish journal: the moderator's last record holds the dice
secret; verify then recomputes every die from it without the secret file, a forged or
misplaced reveal fails naming its record, and no order is taken after it."""

from __future__ import annotations

import hashlib
import json

import jsonschema
import pytest
from forging import game_key, resign
from test_skirmish_mail import BRITISH, mail, mailed_patrol

from referee.contracts.schemas import schema
from referee.store.journal import line_of
from referee.table.skirmish.life import open_skirmish


@pytest.fixture
def game(cli, patrol):
    """The patrol after one test (a move), so that there are dice to check."""
    j = patrol
    r = cli("skirmish", "order", j, "--as", "british", "move B2 mode=manoeuvre command=yes")
    assert r.exit_code == 0, r.stderr
    return j


def records(j) -> list[dict]:
    return [json.loads(line) for line in j.read_bytes().splitlines()]


def rewrite(j, recs: list[dict]) -> None:
    """The journal written again with its chain sealed and signed afresh, as a forger holding
    the game's key would (without it, the first record he changed is named as unsigned)."""
    prev, out = None, []
    for rec in recs:
        rec = resign({**{k: v for k, v in rec.items() if k != "hash"}, "prev": prev},
                     game_key(recs[0]))
        prev = rec["hash"]
        out.append(line_of(rec))
    j.write_bytes(b"".join(out))


def revealed(cli, j) -> dict:
    r = cli("reveal", j, "--force", "--format", "json")
    assert r.exit_code == 0, r.stderr
    doc = json.loads(r.stdout)
    jsonschema.Draft202012Validator(schema("reveal-result")).validate(doc)
    return doc


def test_reveal_then_verify_recomputes_every_die_without_the_secret_file(cli, game,
                                                                       secret_file):
    assert revealed(cli, game)["seq"] == 2
    last = records(game)[-1]
    jsonschema.Draft202012Validator(schema("skirmish-journal-reveal")).validate(last)
    assert last["secret"] == secret_file.read_text().strip()
    assert hashlib.sha256(bytes.fromhex(last["secret"])).hexdigest() == \
        records(game)[0]["dice"]["commitment"]
    r = cli("verify", game)
    assert r.exit_code == 0, r.stderr
    assert "record 2 reveals the dice secret; it matches the commitment" in r.stdout
    assert "every die is the one the committed secret gives" in r.stdout


def test_a_die_changed_after_the_reveal_fails_verify(cli, game):
    revealed(cli, game)
    recs = records(game)
    die = recs[1]["test"]["dice"][0]["value"]
    other = 1 + die % 6
    recs[1]["test"]["dice"][0]["value"] = other         # and the result that die gives
    recs[1]["test"]["result"] = f'B2 may move up to {3 + other}" (manoeuvre)'
    rewrite(game, recs)
    r = cli("verify", game)
    assert r.exit_code != 0 and r.stdout.count("\n") <= 1
    assert "record 1 die 0 is not the committed die" in r.stderr


def test_no_order_is_taken_after_the_reveal(cli, game):
    revealed(cli, game)
    before = game.read_bytes()
    r = cli("skirmish", "order", game, "--as", "german", "move G2 mode=manoeuvre command=yes")
    assert r.exit_code != 0 and r.stdout == ""
    line, = r.stderr.strip().splitlines()
    assert "revealed in record 2" in line and "Traceback" not in r.stderr
    assert game.read_bytes() == before


def test_a_forged_reveal_fails_verify_naming_its_record(cli, game):
    revealed(cli, game)
    recs = records(game)
    recs[-1]["secret"] = "ab" * 32
    rewrite(game, recs)
    r = cli("verify", game)
    assert r.exit_code != 0
    assert "record 2 reveals a secret that does not match the commitment" in r.stderr


def test_a_record_after_the_reveal_fails_verify_naming_it(cli, game):
    revealed(cli, game)
    recs = records(game)
    recs.append({**recs[1], "seq": 3, "order": "done", "test": None})
    del recs[-1]["test"]
    rewrite(game, recs)
    r = cli("verify", game)
    assert r.exit_code != 0 and "record 3 comes after the dice secret was revealed" in r.stderr


@pytest.mark.parametrize("change", [{"actor": "british"}, {"order": "done"},
                                    {"test": None}, {"secret": "AB" * 32}])
def test_the_contract_takes_only_the_reveal_the_referee_writes(cli, game, change):
    revealed(cli, game)
    recs = records(game)
    recs[-1].update(change)
    rewrite(game, recs)
    r = cli("verify", game)
    assert r.exit_code != 0 and "record 2 breaks the journal's contract" in r.stderr


def test_reveal_twice_is_refused_and_before_the_end_needs_force(cli, game):
    before = game.read_bytes()
    r = cli("reveal", game)
    assert r.exit_code != 0 and "--force" in r.stderr and game.read_bytes() == before
    revealed(cli, game)
    after = game.read_bytes()
    r = cli("reveal", game, "--force")
    assert r.exit_code != 0 and "already revealed" in r.stderr
    assert game.read_bytes() == after


def test_the_report_shows_the_reveal(cli, game):
    revealed(cli, game)
    r = cli("skirmish", "report", game, "--format", "json")
    doc = json.loads(r.stdout)
    jsonschema.Draft202012Validator(schema("skirmish-report")).validate(doc)
    assert doc["revealed"] == {"record": 2, "secret": records(game)[-1]["secret"]}
    text = cli("skirmish", "report", game).stdout
    assert "#2 moderator: dice secret revealed" in text


def test_a_mailed_order_after_the_reveal_is_refused(cli, tmp_path, secret_file):
    j = tmp_path / "bymail.jsonl"
    keys = mailed_patrol(cli, j, secret_file)
    revealed(cli, j)
    before = j.read_bytes()
    box = tmp_path / "mail"
    box.mkdir()
    m = mail(box, 1, BRITISH, keys["british"], "move B2 mode=manoeuvre command=yes")
    r = cli("inbox", j, m, "--format", "json")
    (got,) = json.loads(r.stdout)["messages"]
    assert got["status"] == "refused", got
    assert "closed at record #1, its dice secret published" in got["reason"], got
    assert j.read_bytes() == before


def test_a_side_with_no_figure_fighting_ends_the_game_so_reveal_needs_no_force(cli, game):
    state = open_skirmish(game).state
    assert not state.over()
    german = [f for f in state.figures.values() if f.side == "german"]
    for f in german:                    # the commander killed, every section dispersed
        if f.section is None:
            f.killed = True
        else:
            state.sections[f.section].dispersed = True
    assert state.over()
    state.sections[german[-1].section].dispersed = False
    assert not state.over()


def test_no_moderator_s_command_writes_after_a_skirmish_s_reveal(cli, game, tmp_path):
    """A skirmish's reveal is a record of its own kind, not a campaign's SecretRevealed
    event: the journal's refusal knows it too. `mail` after it is refused (one line, exit 2,
    the journal as it was), so the game still reads and verifies."""
    revealed(cli, game)
    closed = game.read_bytes()
    box = tmp_path / "players.mbox"
    box.write_bytes(b"")
    for command in (("mail", game, "--from", "umpire@example.org"),
                    ("mail", game, "--in", box, "--out", f"outbox:{tmp_path / 'out'}")):
        r = cli(*command)
        assert r.exit_code == 2 and "revealed the dice secret" in r.stderr, r.output
        assert len(r.stderr.splitlines()) == 1 and game.read_bytes() == closed
    assert cli("verify", game).exit_code == 0


@pytest.mark.parametrize("command", [("skirmish", "order"), ("order",)])
def test_an_order_to_a_revealed_skirmish_is_an_order_refused_with_its_result(cli, game,
                                                                           command):
    """A `done` rolls nothing: an order to a closed game is refused as a campaign's is
    (scripting.md: kind order_rejected, not a dice error), and --format json still prints
    its result, nothing recorded and the order rejected, as a batch refused whole does."""
    revealed(cli, game)
    before = game.read_bytes()
    r = cli(*command, game, "--as", "british", "done", "--format", "json")
    assert r.exit_code == 1 and game.read_bytes() == before
    error = json.loads(r.stderr)
    why = "the dice secret was revealed in record 2: the game is closed and takes no more " \
        "orders (nothing was recorded)"
    assert (error["kind"], error["error"], error["rule"]) == ("order_rejected", why, None)
    out = json.loads(r.stdout)
    name = "skirmish-order-result" if command == ("skirmish", "order") else "skirmish-orders"
    jsonschema.Draft202012Validator(schema(name)).validate(out)
    assert out["rejected"] == {"index": 0, "order": "done", "error": why, "rule": None,
                               "kind": "order_rejected"}
    assert out.get("records", []) == [] and out.get("record") is None
    text = cli(*command, game, "--as", "british", "done")
    assert (text.exit_code, text.stdout, text.stderr) == (1, "", f"referee: {why}\n")
