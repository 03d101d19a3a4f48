"""Signed journals: who can write a game, and what verify proves of who wrote it.

The intruder of these tests can write the game folder (the journal and what lies beside
it) and run the referee's own code, but has no key of the moderator's referee home; the
other user runs the referee with a home of his own. Each forgery is chained again with
the project's own code, so only the signatures can tell it.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from flowtext import mail_text
from forging import as_user, game_key, old_game, records, resign, shown, write_signed
from forking import count_forks
from mailboxes import write_maildir
from mailservers import forge_route

from referee.store import signing
from referee.store.authorship import ADOPT, REKEY
from referee.store.journal import line_of, seal

ADDRESSES = {"german": "kaiser@example.org", "entente": "joffre@example.net",
             "moderator": "umpire@example.com"}





def mailed_game(cli, folder: Path, game_id: str = "signed") -> Path:
    """A game with players, read from a Maildir and written to an outbox (tick plays it)."""
    folder.mkdir(parents=True, exist_ok=True)
    box = write_maildir(folder.parent / f"{game_id}-box", [])
    journal = folder / f"{game_id}.jsonl"
    r = cli("new", journal, "--scenario", "1914", "--game-id", game_id,
            *[a for side, address in ADDRESSES.items()
              for a in ("--player", f"{side}={address}")],
            "--mail-in", str(box), "--mail-out", f"outbox:{folder.parent / 'out'}")
    assert r.exit_code == 0, r.output
    return journal


def append_forged(journal: Path, body: dict, holder: bool = False) -> dict:
    """body appended as the next record, chained with the referee's own code (and signed
    again as the key's holder could, with holder)."""
    recs = records(journal)
    rec = {"at": recs[-1]["at"], **body, "seq": len(recs), "prev": recs[-1]["hash"]}
    rec = resign(rec, game_key(recs[0])) if holder else seal(rec)
    with open(journal, "ab") as fh:
        fh.write(line_of(rec))
    return rec


def rechain(journal: Path, recs: list[dict]) -> None:
    """Every hash and link made again after an edit, as anyone can (no signature)."""
    prev, out = None, []
    for rec in recs:
        rec = {**{k: v for k, v in rec.items() if k != "hash"}, "prev": prev}
        rec = seal(rec)
        prev = rec["hash"]
        out.append(line_of(rec))
    journal.write_bytes(b"".join(out))


# ---------------------------------------------------------------- new: the game's key

def test_new_keeps_the_key_in_the_referee_home_and_signs_every_record(cli, tmp_path,
                                                                      referee_home):
    journal = tmp_path / "war.jsonl"
    r = cli("new", journal, "--scenario", "1914", "--format", "json")
    assert r.exit_code == 0, r.output
    said = json.loads(r.stdout)["signing_key"]
    recs = records(journal)
    fpr = recs[0]["signing"]["fingerprint"]
    assert said == {"fingerprint": shown(fpr), "file": str(referee_home / "keys" /
                                                           f"{fpr}.key")}
    assert (referee_home / "keys" / f"{fpr}.key").stat().st_mode & 0o777 == 0o600
    assert not [p for p in tmp_path.iterdir() if p.suffix == ".key"]      # none beside it
    public = signing.public_of(recs[0]["signing"])
    assert all(signing.checks(rec["sig"], rec["hash"], public) for rec in recs)
    text = cli("new", tmp_path / "b.jsonl", "--scenario", "1914").stdout
    assert "signed by key" in text and str(referee_home / "keys") in text


def test_a_key_file_beside_the_journal_is_refused(cli, tmp_path):
    r = cli("new", tmp_path / "war.jsonl", "--scenario", "1914", "--signing-key",
            tmp_path / "mine.key")
    assert r.exit_code == 2 and "beside the journal" in r.stderr
    assert not (tmp_path / "war.jsonl").exists() and not (tmp_path / "mine.key").exists()


def test_the_first_mail_and_every_report_show_the_fingerprint_above_the_receipt(cli,
                                                                                 tmp_path):
    journal = tmp_path / "g" / "war.jsonl"
    journal.parent.mkdir()
    cli("new", journal, "--scenario", "1914", "--player", "german=kaiser@example.org",
        "--player", "entente=joffre@example.net")
    fpr = shown(records(journal)[0]["signing"]["fingerprint"])
    r = cli("inbox", journal, write_maildir(tmp_path / "box", []), "--outbox", tmp_path / "o")
    assert r.exit_code == 0, r.output
    mails = list((tmp_path / "o").glob("*.eml"))
    assert mails and all(re.search(rf"Fingerprint: {fpr} \(the game's signing key\)\n"
                                   rf"Signed:\n(  [A-Za-z0-9_-]{{64}}\n){{2}}"
                                   rf"  [A-Za-z0-9_-]{{44}}\nReceipt: ",
                                   mail_text(m)) for m in mails)
    report = cli("report", journal, "--as", "public").stdout.splitlines()
    assert report[-2] == f"Fingerprint: {fpr} (the game's signing key)"


# ---------------------------------------------------------------- writing: the key's holder only

def test_an_order_by_a_user_without_the_key_is_refused_and_changes_nothing(
        cli, game, tmp_path, monkeypatch):
    before = game.read_bytes()
    fpr = records(game)[0]["signing"]["fingerprint"]
    as_user(monkeypatch, tmp_path / "another-home")
    for argv in (["order", game, "--as", "entente", "surrender"],
                 ["players", game, "--set", "german=spy@example.org"],
                 ["mail", game, "--out", f"outbox:{tmp_path / 'o'}"],
                 ["deadline", game, "--set", "24h"], ["extend", game, "24h"],
                 ["reveal", game, "--force"], ["upgrade", game], ["rekey", game],
                 ["standing", game, "--as", "german", "--add", "stand and fight"]):
        r = cli(*argv)
        assert r.exit_code == 3, (argv, r.output)
        assert r.stderr.strip() == (f"referee: {game.name}: not a game of this referee: key "
                                    f"{shown(fpr)} not in REFEREE_HOME "
                                    f"({tmp_path / 'another-home' / 'keys'}); nothing was "
                                    f"written"), (argv, r.stderr)
        assert game.read_bytes() == before
    # Reading works for anyone.
    for argv in (["status", game], ["show", game, "--format", "json"], ["verify", game],
                 ["log", game], ["mail", game]):
        assert cli(*argv).exit_code == 0, argv


def test_a_game_planted_in_the_folder_is_neither_played_nor_touched(cli, tmp_path,
                                                                     monkeypatch, referee_home):
    """A game made by someone else's referee (his key, his route) and copied into the
    folder the moderator's tick runs over: one line says so; the moderator's own game in
    the folder is played as ever."""
    folder = tmp_path / "games"
    own = mailed_game(cli, folder, "own")
    as_user(monkeypatch, tmp_path / "intruder-home")
    pwned = tmp_path / "PWNED"
    planted = mailed_game(cli, tmp_path / "elsewhere", "planted")
    forge_route(planted, None, f"sendmail:/bin/sh -c 'touch {pwned}'", signed=True)
    shutil.copy(planted, folder / "planted.jsonl")
    shutil.copy(planted.with_name("planted.jsonl.secret"), folder / "planted.jsonl.secret")
    fpr = records(planted)[0]["signing"]["fingerprint"]
    as_user(monkeypatch, referee_home)
    before = (folder / "planted.jsonl").read_bytes()
    r = cli("tick", folder, "--no-map")
    assert r.exit_code == 3, r.output
    assert f"planted.jsonl: not a game of this referee: key {shown(fpr)}" in r.stdout
    assert not pwned.exists() and (folder / "planted.jsonl").read_bytes() == before
    assert any(rec.get("order") == "set up" for rec in records(own))
    assert list((tmp_path / "out").glob("*.eml")), "the moderator's own game was played"


def test_a_game_begun_before_signing_is_read_but_not_played_until_adopted(cli, tmp_path):
    folder = tmp_path / "games"
    old = old_game(folder)
    before = old.read_bytes()
    assert cli("status", old).exit_code == 0
    r = cli("tick", folder, "--no-map")
    assert r.exit_code == 3 and "not signed" in r.stdout and "referee upgrade" in r.stdout
    assert old.read_bytes() == before
    # upgrade first shows what adopting would vouch for: the route and the players in force.
    r = cli("upgrade", old)
    assert r.exit_code == 2 and "begun before journals were signed" in r.stderr and \
        "players:" in r.stderr and "--adopt" in r.stderr, r.output
    assert old.read_bytes() == before
    # Adopted (and moved on to today's rules in the same write), it is played on.
    r = cli("upgrade", old, "--adopt", "--format", "json")
    assert r.exit_code == 0, r.output
    adopted = json.loads(r.stdout)["adopted"]
    assert adopted["seq"] == 9
    recs = records(old)
    assert recs[9]["order"] == ADOPT and recs[9]["signing"]["fingerprint"] == \
        adopted["fingerprint"].replace("-", "")
    assert old.read_bytes().startswith(before)              # the old records as they were
    assert all("sig" not in rec for rec in recs[:9]) and all("sig" in r for r in recs[9:])
    r = cli("order", old, "--as", "entente", "lose fort-liege")
    assert r.exit_code == 0, r.output
    r = cli("verify", old, "--key", adopted["fingerprint"])
    assert r.exit_code == 5, r.output                     # records 1-8: older rules
    assert "signatures: records 0-8 before signing, covered by record 9 (the adoption)" \
        in r.stdout
    assert f"signatures: records 9-11, each signed by the game's key " \
           f"{adopted['fingerprint']}" in r.stdout
    assert cli("upgrade", old).exit_code == 2               # nothing left to do


# ---------------------------------------------------------------- forgeries: verify and tick

def _forge_roster(journal: Path, holder: bool) -> dict:
    """The German's address changed to the intruder's in a copied roster record."""
    roster = next(r for r in records(journal) if r.get("order") == "register players")
    part = json.loads(json.dumps(roster["players"]))
    for p in part["data"]["players"]:
        if p["side"] == "german":
            p["address"] = "spy@example.org"
    return append_forged(journal, {"actor": "moderator", "order": "register players",
                                   "events": [], "players": part}, holder)


def _forge_order(journal: Path, holder: bool) -> dict:
    return append_forged(journal, {"actor": "german", "order": "surrender", "events": [],
                                   "by": "mail"}, holder)


def _forge_route(journal: Path, holder: bool) -> dict:
    forge_route(journal, None, "smtp://referee@mail.intruder.example", signed=holder)
    return records(journal)[-1]


def _forge_header(journal: Path, holder: bool) -> dict:
    """The header's dice downgraded from committed to manual, every record chained again."""
    recs = records(journal)
    recs[0]["dice"]["mode"] = "manual"
    rechain(journal, recs)
    return records(journal)[0]


@pytest.mark.parametrize("forge", [_forge_roster, _forge_order, _forge_route, _forge_header])
def test_a_forged_record_is_caught_by_verify_and_refused_by_tick(cli, tmp_path, forge):
    folder = tmp_path / "games"
    journal = mailed_game(cli, folder)
    forged = forge(journal, False)
    before = journal.read_bytes()
    r = cli("verify", journal)
    assert r.exit_code == 3, r.output
    assert f"record {forged['seq']}:" in r.stderr and "without the game's key" in r.stderr
    r = cli("tick", folder, "--no-map")
    assert r.exit_code == 3 and "not a game of this referee" in r.stdout, r.output
    assert journal.read_bytes() == before
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").glob("*.eml"))
    r = cli("order", journal, "--as", "german", "pass")
    assert r.exit_code == 3 and "not a game of this referee" in r.stderr
    assert journal.read_bytes() == before


def test_a_signature_spelt_otherwise_is_no_signature(cli, game):
    """Base64 has spare bits in its last sign: a signature written with them set says the
    same bytes, but only the referee's one spelling is taken."""
    recs = records(game)
    sig = recs[-1]["sig"]
    last = sig[-1]
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    twin = alphabet[alphabet.index(last) ^ 1]              # the low spare bit flipped
    recs[-1]["sig"] = sig[:-1] + twin
    game.write_bytes(b"".join(line_of(r) for r in recs))
    r = cli("verify", game)
    assert r.exit_code == 3 and f"record {recs[-1]['seq']}" in r.stderr


# ---------------------------------------------------------------- a pinned key

def test_a_journal_signed_again_under_a_new_key_fails_with_the_receipts_fingerprint(
        cli, tmp_path, monkeypatch):
    journal = mailed_game(cli, tmp_path / "games")
    cli("order", journal, "--as", "german", "pass")
    report = cli("report", journal, "--as", "german").stdout.splitlines()
    fingerprint, receipt = report[-2:]
    assert cli("verify", journal, "--receipt", f"{fingerprint}\n{receipt}").exit_code == 0
    # Someone rewrites the whole game under a key of his own: it verifies as signed...
    as_user(monkeypatch, tmp_path / "intruder-home")
    key = signing.new_key()
    recs = records(journal)
    recs[0]["signing"] = key.header_field()
    write_signed(journal, recs, key)
    assert cli("verify", journal).exit_code == 0
    # ... but not with the fingerprint the players were given.
    pinned = fingerprint.split()[1]
    r = cli("verify", journal, "--key", pinned)
    assert r.exit_code == 3 and f"--key {pinned} did not sign this journal" in r.stderr
    # (The receipt's hash alone catches it too: the header names the new key.)
    r = cli("verify", journal, "--receipt", f"{fingerprint}\n{receipt}")
    assert r.exit_code == 3 and "rewritten" in r.stderr, r.output
    # --key reads a fingerprint as typed: any case, O for 0, no dashes.
    r = cli("verify", journal, "--key", pinned.lower().replace("-", "").replace("0", "o"))
    assert r.exit_code == 3 and "did not sign this journal" in r.stderr


def test_verify_key_takes_the_fingerprint_line_as_a_mail_shows_it(cli, tmp_path):
    """verify --key takes the key as `new`, a mail or a receipt shows it: the mail's line
    pasted whole, without its label or its note, as --receipt reads it; anything else on the
    line is refused in one line."""
    journal = mailed_game(cli, tmp_path / "games")
    line = cli("report", journal, "--as", "german").stdout.splitlines()[-2]
    key = line.split()[1]
    assert line == f"Fingerprint: {key} (the game's signing key)"
    for given in (line, f"  {line}\n", line.removesuffix(" (the game's signing key)"),
                  line.removeprefix("Fingerprint: "), key, key.lower()):
        r = cli("verify", journal, "--key", given)
        assert r.exit_code == 0, (given, r.output)
    for given in (f"{line} and more", f"Fingerprint: {key} {key}", f"Receipt: {key}"):
        r = cli("verify", journal, "--key", given)
        assert r.exit_code == 2 and len(r.stderr.strip().splitlines()) == 1, (given, r.output)
        assert "--key" in r.stderr and "16 letters and digits" in r.stderr, r.stderr


def test_a_key_change_is_signed_by_the_old_key_and_both_keys_verify(cli, game, tmp_path):
    old = records(game)[0]["signing"]["fingerprint"]
    r = cli("rekey", game, "--format", "json")
    assert r.exit_code == 0, r.output
    new = json.loads(r.stdout)["fingerprint"].replace("-", "")
    change = records(game)[-1]
    assert change["order"] == REKEY and change["sig"].startswith(old + ".")
    assert cli("order", game, "--as", "german", "pass").exit_code == 0
    assert records(game)[-1]["sig"].startswith(new + ".")
    for fpr in (old, new):
        r = cli("verify", game, "--key", shown(fpr))
        assert r.exit_code == 0, r.output
    assert f"{shown(old)} for records 0-2, {shown(new)} for record 3" in r.stdout
    # A later record signed by the old key after the change is a forgery.
    recs = records(game)
    recs[-1] = resign(recs[-1], old)
    game.write_bytes(b"".join(line_of(r) for r in recs))
    r = cli("verify", game)
    assert r.exit_code == 3 and f"record {recs[-1]['seq']}" in r.stderr


# ---------------------------------------------------------------- how orders came

def test_each_side_sees_the_orders_given_for_him_by_hand_flagged(cli, game):
    assert cli("order", game, "--as", "german", "pass").exit_code == 0
    rec = records(game)[-1]
    assert rec["by"] == "hand"
    mine = cli("report", game, "--as", "german", "--since", "1").stdout
    theirs = cli("report", game, "--as", "entente", "--since", "1").stdout
    assert "#2 German: pass (card or pass) — ⚑ entered by hand at the referee" in mine
    assert "#2 German: pass (card or pass)\n" in theirs and "⚑" not in theirs


def test_a_journal_cut_back_to_an_older_copy_is_neither_written_nor_mailed(cli, tmp_path):
    """Every signature of an older copy is genuine; the referee's mark of the record it last
    wrote tells it was cut back, until the moderator says he restored it on purpose."""
    from forging import journal_mark

    folder = tmp_path / "games"
    journal = mailed_game(cli, folder)
    older = journal.read_bytes()
    assert cli("order", journal, "--as", "german", "pass").exit_code == 0
    journal.write_bytes(older)
    for argv in (["order", journal, "--as", "german", "pass"], ["tick", folder, "--no-map"],
                 ["verify", journal]):      # nothing in it is forged, but records are gone
        r = cli(*argv)
        assert r.exit_code == 3 and "cut back: this referee wrote record 4" in r.output, \
            (argv, r.output)
        assert journal.read_bytes() == older
    assert str(journal_mark(journal)) in r.output
    journal_mark(journal).unlink()                             # restored on purpose
    assert cli("verify", journal).exit_code == 0
    assert cli("order", journal, "--as", "german", "pass").exit_code == 0


def test_a_skirmish_is_signed_and_verify_names_a_record_added_without_the_key(cli, patrol):
    r = cli("skirmish", "order", patrol, "--as", "british", "move B2 mode=manoeuvre command=yes")
    assert r.exit_code == 0, r.output
    recs = records(patrol)
    fpr = recs[0]["signing"]["fingerprint"]
    r = cli("verify", patrol, "--key", shown(fpr))
    assert r.exit_code == 0 and f"each signed by the game's key {shown(fpr)}" in r.stdout, \
        r.output
    last = recs[-1]
    append_forged(patrol, {k: v for k, v in last.items()
                           if k not in ("seq", "prev", "hash", "sig")})
    r = cli("verify", patrol)
    assert r.exit_code == 3 and f"record {len(recs)}:" in r.stderr and \
        "without the game's key" in r.stderr, r.output
    r = cli("verify", patrol, "--key", "0000-0000-0000-0000")
    assert r.exit_code == 3


@pytest.mark.parametrize("fork", [True, False])
def test_verify_names_the_first_unsigned_record_whether_checked_beside_or_here(
        cli, game, monkeypatch, fork):
    """verify checks the signatures in a process forked beside its own work; without fork
    (not POSIX) it checks them itself; either way the first forged record is named, before
    what deciding a later record again would say."""
    import os

    from referee.store import checking

    if fork:                        # as for a long journal, on two processors
        monkeypatch.setattr(checking, "worth_beside", lambda raw: True)
    else:
        monkeypatch.delattr(os, "fork")
    forks = count_forks(monkeypatch) if fork else []
    _forged_is_named(cli, game)
    assert bool(forks) == fork


def _forged_is_named(cli, game) -> None:
    """An order, then a record whose signature, of the right form, is copied from the record
    before (not this record's), then another after it: verify fails naming the first."""
    assert cli("order", game, "--as", "german", "pass").exit_code == 0
    forged = append_forged(game, {"actor": "german", "order": "pass", "events": [],
                                  "sig": records(game)[-1]["sig"]})
    append_forged(game, {"actor": "entente", "order": "nonsense", "events": []}, holder=True)
    r = cli("verify", game)
    assert r.exit_code == 3, r.output
    assert f"record {forged['seq']}: its signature is not by the game's key" in r.stderr, \
        r.stderr

def test_verify_of_a_short_journal_checks_its_signatures_without_a_process(cli, game,
                                                                          monkeypatch):
    """A process forked for the signatures of a few records costs more than checking them
    (checking.worth_beside, as for a cold read): verify checks them itself, and still names
    the first forged record before what deciding a later one again would say."""
    forks = count_forks(monkeypatch)
    assert cli("verify", game).exit_code == 0
    _forged_is_named(cli, game)
    assert forks == []


def test_a_skirmish_of_another_referee_is_not_read_for_mail(cli, tmp_path, monkeypatch,
                                                            referee_home):
    journal = tmp_path / "patrol.jsonl"
    as_user(monkeypatch, tmp_path / "another-home")
    assert cli("new", journal, "--game", "skirmish", "--scenario", "patrol", "--player",
               "british=tommy@example.org").exit_code == 0
    as_user(monkeypatch, referee_home)
    before = journal.read_bytes()
    r = cli("inbox", journal, write_maildir(tmp_path / "box", []), "--outbox", tmp_path / "o")
    assert r.exit_code == 3 and "not a game of this referee" in r.stderr, r.output
    assert journal.read_bytes() == before and not (tmp_path / "o").exists()



def test_a_receipt_given_right_after_a_key_change_verifies_with_its_fingerprint(cli, game):
    """The line above a receipt names the key that signed its record: just after `rekey`,
    the key handed over (which signed the key change), so the pair pasted verifies."""
    assert cli("rekey", game).exit_code == 0
    fingerprint, receipt = cli("report", game, "--as", "german").stdout.splitlines()[-2:]
    r = cli("verify", game, "--receipt", f"{fingerprint}\n{receipt}")
    assert r.exit_code == 0, r.output
    new = records(game)[-1]["signing"]["fingerprint"]
    assert cli("order", game, "--as", "german", "pass").exit_code == 0
    assert f"Fingerprint: {shown(new)} " in cli("report", game, "--as", "german").stdout


def test_a_refused_rekey_or_adoption_leaves_no_key_behind(cli, game, tmp_path, monkeypatch,
                                                          referee_home):
    keys = referee_home / "keys"
    mine = sorted(keys.iterdir())
    assert cli("rekey", game).exit_code == 0
    r = cli("rekey", game, "--signing-key", next(p for p in sorted(keys.iterdir())
                                                 if p not in mine))
    assert r.exit_code == 2 and "signs the game already" in r.stderr
    as_user(monkeypatch, tmp_path / "other-home")
    assert cli("rekey", game).exit_code == 3                     # another referee's game
    assert not (tmp_path / "other-home" / "keys").exists()
    as_user(monkeypatch, referee_home)
    before = sorted(keys.iterdir())
    stripped = tmp_path / "stripped.jsonl"
    recs = [{k: v for k, v in rec.items() if k not in ("sig", "signing")}
            for rec in records(game)]
    rechain(stripped, recs)
    stripped.chmod(0o600)
    r = cli("upgrade", stripped, "--adopt")
    assert r.exit_code == 2 and "not adopted" in r.stderr, r.output
    assert sorted(keys.iterdir()) == before


def test_verify_forks_no_checker_for_a_header_it_refuses(cli, game, monkeypatch):
    import os

    forks = []
    real = os.fork
    monkeypatch.setattr(os, "fork", lambda: forks.append(1) or real())
    recs = records(game)
    recs[0]["signing"]["fingerprint"] = "0" * 16
    rechain(game, recs)
    r = cli("verify", game)
    assert r.exit_code == 3 and "record 0" in r.stderr and forks == [], r.output
