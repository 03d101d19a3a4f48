"""More attacks on signed journals, each refused: a cut-back copy under another name or
path, a header rewritten with a handed-over key, a stripped game with another id, a
crafted signature in the hash check, and verify's checker left behind. Each docstring says
the attack and what stops it."""

from __future__ import annotations

import hashlib
import os
import shutil

import pytest
from forging import as_user, records, refuses_to_write, write_signed
from forking import count_forks
from test_signing_attacks import mailed_game, rechain_unsigned

from referee.store import signing
from referee.store.authorship import REKEY

# ---------------------------------------------------------------- the mark is kept per path


def test_tick_refuses_a_cut_back_copy_of_the_game_renamed_in_its_folder(cli, tmp_path):
    """tick and watch play every *.jsonl of a folder the intruder can write. He puts an
    older copy of the game (every record and signature genuine) under a new name and takes
    the live journal away. The referee's mark of what it last wrote follows the game (its
    id), not the file name: the copy lacks that record, and tick refuses it."""
    folder = tmp_path / "games"
    journal = mailed_game(cli, folder)
    older = journal.read_bytes()
    assert cli("order", journal, "--as", "german", "pass").exit_code == 0
    # Same name: refused, as designed.
    journal.write_bytes(older)
    r = cli("tick", folder, "--no-map")
    assert "cut back" in r.output, r.output
    # Another name in the same folder: the same cut-back game is played without a word.
    journal.rename(folder / "renamed.jsonl")
    for beside in folder.glob(journal.name + ".*"):        # its secret, as it was
        shutil.move(beside, folder / beside.name.replace(journal.name, "renamed.jsonl"))
    r = cli("tick", folder, "--no-map")
    assert "cut back" in r.output, r.output


def test_a_cut_back_journal_reached_by_another_spelling_of_its_path_is_refused(
        cli, game, tmp_path):
    """The same file reached through a symlinked folder or a path with `..` (a `watch`
    service started with /srv/games while the moderator types ~/games, say): a mark kept by
    path would not apply through the other spelling. The mark follows the game, so a journal
    cut back is refused however its path is written."""
    older = game.read_bytes()
    assert cli("order", game, "--as", "german", "pass").exit_code == 0
    game.write_bytes(older)                          # cut back by the intruder
    assert cli("deadline", game, "--set", "48h").exit_code == 3      # refused, as designed
    (tmp_path / "sub").mkdir()
    other = tmp_path / "sub" / ".." / game.name
    r = cli("deadline", other, "--set", "48h")
    assert r.exit_code == 3, r.output
    assert game.read_bytes() == older


def test_a_leaked_old_key_rewriting_the_header_gets_no_write(
        cli, game, tmp_path, monkeypatch, referee_home):
    """After `rekey` (the old key leaked), whoever holds the old key cuts the journal back
    to before the key change, changes one byte of the header's content (its creation time)
    and signs every record again with the old key. The mark names another header, so
    a mark keyed by the header would have called it another game and let the moderator's
    referee write on with the handed-over key. The mark follows the game's id and the keys
    that signed it, so the rewritten journal is refused."""
    old = records(game)[0]["signing"]["fingerprint"]
    assert cli("rekey", game, "--format", "json").exit_code == 0
    assert cli("order", game, "--as", "german", "pass").exit_code == 0
    recs = records(game)
    change = next(i for i, rec in enumerate(recs) if rec.get("order") == REKEY)
    leaked = signing.held(old)
    assert leaked is not None
    as_user(monkeypatch, tmp_path / "intruder-home")
    kept = recs[:change]
    kept[0]["created_at"] = kept[0]["created_at"][:-2] + "59"
    write_signed(game, kept, leaked)
    refuses_to_write(cli, game, monkeypatch, referee_home)


# ---------------------------------------------------------------- the adoption guard


def test_upgrade_shows_a_stripped_game_with_another_id_before_adopting_anything(cli, tmp_path):
    """The adoption guard's three signs of a stripped game are each in the intruder's hands:
    the game id (signs_game) and the path (the mark) he changes, and the `by` members he
    removes (verify still passes: a record without `by` says nothing of how its order
    came). He strips the signatures of the moderator's signed game, slips in a mail route
    of his own, and `upgrade` adopted it: the moderator's key would vouch for his records.
    upgrade now adopts only with --adopt, after showing the route and the players in force
    (what no signature can vouch for: the moderator's own check)."""
    folder = tmp_path / "games"
    journal = mailed_game(cli, folder)
    assert cli("order", journal, "--as", "german", "pass").exit_code == 0
    recs = records(journal)
    del recs[0]["signing"]
    recs[0]["game_id"] = "signed-2"
    for rec in recs:
        rec.pop("by", None)
    spy = tmp_path / "spy"
    recs.append({"at": recs[-1]["at"], "actor": "moderator", "order": "set mail route",
                 "events": [], "seq": len(recs),
                 "mail_route": {"to": "moderator", "salt": "00" * 16,
                                "data": {"source": None, "target": f"outbox:{spy}"}}})
    stripped = folder / "signed-2.jsonl"
    rechain_unsigned(stripped, recs)
    journal.unlink()
    stripped.chmod(0o600)
    r = cli("verify", stripped)
    assert r.exit_code == 0, r.output            # what the moderator is told to look at
    before = stripped.read_bytes()
    r = cli("upgrade", stripped)
    assert r.exit_code != 0, r.output
    assert stripped.read_bytes() == before
    # What upgrade shows before anything is adopted: the stranger's route stands out.
    assert f"mail out: outbox:{spy}" in r.stderr and "--adopt" in r.stderr, r.stderr


# ---------------------------------------------------------------- the hash check


def _fast_path_forgery(sig: str, nested: object) -> tuple[dict, bytes]:
    """A record whose stated hash is the SHA-256 of its line without the `hash` member and
    without the first `"sig":"<sig>"` found in it (a nested one, as the top-level member is
    escaped), together with its canonical line."""
    from referee.store.chain import canonical

    rec = {"seq": 1, "prev": "a" * 64, "at": "2024-01-01T00:00:00Z", "actor": "moderator",
           "order": "x", "events": [], "hash": "0" * 64, "sig": sig, "zz": nested}
    line = canonical(rec)
    member = b'"hash":"' + b"0" * 64 + b'",'
    at = line.find(member)
    found = b'"sig":"' + sig.encode() + b'"'            # unescaped: the nested one matches
    s0 = line.find(found)
    s1 = s0 + len(found)
    s0, s1 = (s0, s1 + 1) if line[s1:s1 + 1] == b"," else (s0 - 1, s1)
    rec["hash"] = hashlib.sha256(line[:at] + line[at + len(member):s0] + line[s1:]).hexdigest()
    return rec, canonical(rec)


@pytest.mark.parametrize("sig, nested", [
    ('x","y":"z', {"sig": "x", "y": "z", "a": 1}),      # quotes in sig
    ("a\\b", {"sig": "a\b"}),                          # a backslash in sig (\b in the line)
])
def test_the_quick_hash_check_agrees_with_record_hash_on_a_crafted_sig(sig, nested):
    """chain._hash_ok finds the `sig` member to cut by searching the line for
    `"sig":"` + sig + `"` with sig unescaped. A sig holding a quote or a backslash is escaped
    at the top level, so the search finds a nested member {"sig": ...} instead, cuts that,
    and hashes a body that still holds the top-level sig: check_line then accepts a record
    whose real hash (record_hash) is not the one it states. The comment `(a quote or
    backslash in it is escaped: no member found)` is wrong: a nested member can match."""
    from referee.base.errors import JournalError
    from referee.store.chain import _hash_ok, check_line, record_hash

    rec, line = _fast_path_forgery(sig, nested)
    assert record_hash(rec) != rec["hash"]              # the record does not match its hash
    assert _hash_ok(rec, line, rec["hash"], True) is False
    with pytest.raises(JournalError):
        check_line(line, 1, "a" * 64, "crafted.jsonl")


# ---------------------------------------------------------------- verify's forked checker


def test_verify_leaves_no_child_process_behind_whatever_ends_it(
        game, tmp_path, monkeypatch):
    """verify forks the signature checker (authorship._Beside) and reaps it only in
    settle(), which runs only when the proof ends or raises a JournalError. Any other error
    in between (a secret file that is not there: UsageError; Ctrl-C) leaves the child
    unreaped (a zombie in a long-lived process) or, when the CLI exits first, an orphan
    still checking a large journal, and its pipe open. The child should be reaped (or
    killed) whatever ends verify."""
    import time

    from referee.base.errors import UsageError
    from referee.game.verification import verify
    from referee.store import checking

    monkeypatch.setattr(checking, "worth_beside", lambda raw: True)     # a long journal
    forked = count_forks(monkeypatch)
    with pytest.raises(UsageError):
        verify(game, secret_file=tmp_path / "no-such.secret")
    assert forked, "verify forked no checker"
    time.sleep(0.5)                                    # the child's work is tiny here
    left = []
    for pid in forked:
        try:
            got, _ = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            continue                                    # reaped already: as it should be
        if got == 0:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
        left.append(pid)
    assert not left, f"child process(es) {left} left unreaped by verify"


def test_verify_started_with_sigchld_ignored_still_names_a_forged_signature(
        game, secret_file, monkeypatch):
    """A program that ignores SIGCHLD hands the end of verify's checker to the kernel, so
    verify cannot wait for it: the answer read whole from its pipe still counts (it once
    ended in an internal error, exit 4)."""
    import json
    import signal

    from referee.base.errors import JournalError
    from referee.game.verification import verify
    from referee.store import checking

    monkeypatch.setattr(checking, "worth_beside", lambda raw: True)     # a long journal
    lines = game.read_bytes().split(b"\n")
    rec = json.loads(lines[1])
    fpr, sig = rec["sig"].split(".")
    forged = sig[:10] + ("A" if sig[10] != "A" else "B") + sig[11:]
    lines[1] = lines[1].replace(sig.encode(), forged.encode())
    before = signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    try:
        verify(game, secret_file=secret_file)                   # the game as written
        game.write_bytes(b"\n".join(lines))
        with pytest.raises(JournalError) as err:
            verify(game, secret_file=secret_file)
    finally:
        signal.signal(signal.SIGCHLD, before)
    assert err.value.record == 1 and "forged" in str(err.value)
