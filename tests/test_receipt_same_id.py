"""`verify --receipt MAILBOX` where the mailbox holds the mails of two games made under one
game id (`new --game-id` is the moderator's to choose): a mail is of the journal's game
when what it carries says so (its Signed lines name this record 0, or are by a key the
journal names), not merely its game id; the others are counted, not taken for a rewrite.
A moderator who rewrote the journal from its start under a new key is still caught: the
player's genuine mails name the old record 0 and key, and none of the game the rewritten
journal is."""

from __future__ import annotations

import json

import pytest
from forging import as_user, records, shown, write_signed
from test_inbox import write_mbox
from test_mailflow import GAME, _game
from test_receipt_mailbox import _box, _distinct, _outbox, _played, other_game

from referee.store import signing


@pytest.fixture
def twin_games(tmp_path, cli):
    """The journal of game mailtest, its mails, and the opening mails of another game made
    under the same id (its own key, its own record 0) for the same players."""
    ours = tmp_path / "ours"
    ours.mkdir()
    journal = _game(ours, cli)
    _played(ours, cli, journal)
    theirs = other_game(tmp_path, cli, ours, GAME)
    other = theirs / "g.jsonl"
    first = records(journal)[0]
    assert records(other)[0]["hash"] != first["hash"]
    assert records(other)[0]["signing"] != first["signing"]
    return journal, other, _outbox(ours), _outbox(theirs)


@pytest.mark.parametrize("kind", ["mbox", "maildir"])
def test_mails_of_another_game_of_the_same_id_are_counted_not_taken_for_a_rewrite(
        twin_games, cli, tmp_path, kind):
    journal, other, mails, others = twin_games
    box = _box(kind, tmp_path / f"saved.{kind}", [*others[:1], *mails, *others[1:]])
    for game, ours, theirs in ((journal, mails, others), (other, others, mails)):
        r = cli("verify", game, "--receipt", box)
        assert r.exit_code == 0, r.output
        assert r.stderr == ""
        assert (f"{len(ours)} with a receipt of game {GAME}, {_distinct(ours)} receipt"
                in r.stdout), r.stdout
        assert (f"passed over: {len(theirs)} of another game with the same id (another "
                f"record 0 and key: not checked)") in r.stdout, r.stdout
        out = json.loads(cli("verify", game, "--receipt", box, "--format", "json").stdout)
        assert out["mailboxes"][0]["same_id"] == len(theirs)
        assert out["mailboxes"][0]["of_game"] == len(ours)


def test_a_journal_rewritten_from_its_start_under_a_new_key_is_still_caught(
        twin_games, cli, tmp_path, monkeypatch, referee_home):
    """The moderator makes a key of his own and writes the whole game again under it: his
    player's genuine mails name the old record 0 and the old key, no mail names the new
    ones, so they are checked and fail, beside the mails of another game of that id."""
    journal, _, mails, others = twin_games
    old = records(journal)[0]["signing"]["fingerprint"]
    recs = records(journal)
    recs[-1] = {**recs[-1], "at": "2001-01-01T00:00:00Z"}
    as_user(monkeypatch, tmp_path / "moderator-home")
    mine = signing.new_key()
    recs[0]["signing"] = mine.header_field()
    write_signed(journal, recs, mine)
    as_user(monkeypatch, referee_home)
    for raws in (mails, [*mails, *others]):
        box = write_mbox(tmp_path / f"saved-{len(raws)}.mbox", raws)
        r = cli("verify", journal, "--receipt", box)
        assert r.exit_code == 3, r.output
        assert f"{len(raws)} with a receipt of game {GAME}" in r.stdout, r.stdout
        assert "of another game with the same id" not in r.stdout
        assert "the key of receipt" in r.stderr and shown(old) in r.stderr, r.stderr
        assert "verify: FAILED" in r.stdout
