"""A game's journal made to look like a redacted export is no export to a pass.

A pass passes over quietly the redacted exports saved in its games' folder (`referee log
--as SIDE --format json > SIDE.jsonl`, as the game-over mail asks); but their bytes alone
(a whole chain, a secret part a digest) are also what anyone who can write the folder makes
of a live journal, by digesting one of its secret parts in place (every hash and signature
still holds) or by copying an older export over it. Only a file the referee never knew as a
game's journal is passed over: one at a name the folder's index knows, at the path its
game's mark names, or with a dice secret beside it is a game's journal, whose failure is a
problem line (exit 3) that never calls it an export, and whose mail waits for it."""

from __future__ import annotations

import json
import os
import shutil

import pytest
from mailboxes import write_maildir
from test_tick_index import _export_beside, _folder, _mail_pass, _outbox
from test_transport import mail, new_game, records
from ticklines import unstamped

from referee.mail import gameindex
from referee.store import home as homemod
from referee.store import written
from referee.store.chain import is_secret_part, line_of, secret_digest


def _digest_a_secret(journal) -> int:
    """The first secret part of the journal replaced by its digest, its line written back
    (the hash, which covers the digest only, and the signature unchanged); its record."""
    lines = journal.read_bytes().splitlines(keepends=True)
    for n, line in enumerate(lines):
        rec = json.loads(line)
        for event in rec.get("events") or []:
            part = event.get("secret")
            if is_secret_part(part):
                event["secret"] = {"to": part["to"],
                                   "digest": secret_digest(part["salt"], part["data"])}
                lines[n] = line_of(rec)
                journal.write_bytes(b"".join(lines))
                return n
    raise AssertionError("no secret part in the journal")


def _waiting(tmp_path) -> int:
    """The messages of game alpha's Maildir no pass has read yet."""
    return len(list((tmp_path / "box-alpha" / "new").iterdir()))


def _problem_of(r, name: str) -> str:
    (line,) = [ln for ln in unstamped(r.stdout) if name in ln]
    return line


def test_a_journal_with_a_secret_digested_in_place_is_its_games_problem(
        cli, tmp_path, monkeypatch):
    games, made = _folder(cli, tmp_path, monkeypatch)
    journal, keys = made["alpha"]
    kept = tmp_path / "alpha-kept.jsonl"
    shutil.copyfile(journal, kept)
    n = _digest_a_secret(journal)
    journal.chmod(0o644)
    _mail_pass(tmp_path, "alpha", "german", keys, "<d1@example.org>")
    before = _outbox(tmp_path, "alpha")
    r = cli("tick", games, "--no-map")
    assert r.exit_code == 3, r.output
    line = _problem_of(r, "alpha.jsonl")
    assert line.startswith(f"problem  {journal}: game alpha's journal") and \
        f"record {n} holds a secret part" in line, line
    assert "redacted export" not in r.output and "passed" not in r.output, r.output
    assert "can be read by other users" in r.stderr, r.stderr
    assert _outbox(tmp_path, "alpha") == before and _waiting(tmp_path) == 1
    doc = json.loads(cli("tick", games, "--no-map", "--format", "json").stdout)
    assert not doc["ok"] and doc["exports"] == [] and \
        any(p.startswith(f"{journal}: game alpha's journal") for p in doc["problems"]), doc
    journal.write_bytes(kept.read_bytes())          # the journal put back
    journal.chmod(0o600)
    r = cli("tick", games, "--no-map")
    assert r.exit_code == 0, r.output
    assert records(journal)[-1]["order"] == "pass"
    seen = len(records(journal))
    assert cli("tick", games, "--no-map").exit_code == 0
    assert len(records(journal)) == seen            # applied once


def test_an_older_export_copied_over_a_journal_is_refused_as_cut_back(
        cli, tmp_path, monkeypatch):
    games, made = _folder(cli, tmp_path, monkeypatch)
    journal, keys = made["alpha"]
    export = _export_beside(cli, games, journal)
    older = tmp_path / "entente-older.jsonl"
    export.rename(older)
    assert cli("order", journal, "--as", "german", "pass").exit_code == 0
    kept = tmp_path / "alpha-kept.jsonl"
    shutil.copyfile(journal, kept)
    journal.write_bytes(older.read_bytes())
    write_maildir(tmp_path / "box-alpha", [mail("german", keys["german"], ["end turn"],
                                                 "<c2@example.org>")])
    r = cli("tick", games, "--no-map")
    assert r.exit_code == 3, r.output
    line = _problem_of(r, "alpha.jsonl")
    assert line.startswith(f"problem  {journal}: cut back: this referee wrote record"), line
    assert _waiting(tmp_path) == 1
    assert "redacted export" not in r.output, r.output
    journal.write_bytes(kept.read_bytes())
    assert cli("tick", games, "--no-map").exit_code == 0
    seen = len(records(journal))
    assert seen == len(records(kept)) + 1 and records(journal)[-1]["order"] == "end turn"
    assert cli("tick", games, "--no-map").exit_code == 0
    assert len(records(journal)) == seen


@pytest.mark.parametrize("known_by", ["index", "mark", "secret"])
def test_one_sign_of_a_journal_is_enough(cli, tmp_path, monkeypatch, known_by):
    """Each of the three signs alone keeps a disguised journal a game's problem: the
    folder's index, the game's mark, the dice secret beside it."""
    games, made = _folder(cli, tmp_path, monkeypatch)
    journal = made["alpha"][0]
    _digest_a_secret(journal)
    secret = journal.with_name(f"{journal.name}.secret")
    if known_by != "index":
        gameindex._path(games.resolve()).unlink()
    if known_by != "mark":
        written.mark_path("alpha").unlink()
    if known_by != "secret":
        secret.rename(tmp_path / "alpha.secret")
    r = cli("tick", games, "--no-map")
    assert r.exit_code == 3, r.output
    assert _problem_of(r, "alpha.jsonl").startswith(f"problem  {journal}: game alpha's "), \
        r.stdout
    assert "redacted export" not in r.output, r.output


def test_a_disguised_journal_named_alone_is_its_games_problem(cli, tmp_path, monkeypatch):
    games, made = _folder(cli, tmp_path, monkeypatch)
    journal = made["alpha"][0]
    _digest_a_secret(journal)
    r = cli("tick", journal, "--no-map")
    assert r.exit_code == 3, r.output
    assert "redacted export" not in r.output, r.output


def test_the_exports_of_a_game_this_referee_never_knew_are_passed_over(
        cli, tmp_path, monkeypatch, tmp_path_factory):
    """An export of another referee's game (a player's log of a game elsewhere), saved in
    the folder: no game, no problem, as the exports of the folder's own games."""
    games, made = _folder(cli, tmp_path, monkeypatch)
    ours = os.environ["REFEREE_HOME"]
    monkeypatch.setenv("REFEREE_HOME", str(tmp_path_factory.mktemp("another-home")))
    homemod._KEY.clear()
    elsewhere = tmp_path / "elsewhere"
    theirs, _ = new_game(cli, elsewhere, "zulu", None, "--mail-in",
                         str(write_maildir(tmp_path / "zbox", [])),
                         "--mail-out", f"outbox:{tmp_path / 'zout'}")
    export = _export_beside(cli, elsewhere, theirs, "zulu-entente.jsonl")
    monkeypatch.setenv("REFEREE_HOME", ours)
    homemod._KEY.clear()
    shutil.copyfile(export, games / export.name)
    r = cli("tick", games, "--no-map")
    assert r.exit_code == 0, r.output
    assert _problem_of(r, "zulu-entente.jsonl").startswith(
        "passed   zulu-entente.jsonl: a redacted export"), r.stdout
    doc = json.loads(cli("tick", games, "--no-map", "--format", "json").stdout)
    assert doc["ok"] and doc["exports"] == [str(games / export.name)], doc
