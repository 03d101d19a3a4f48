"""A command that shows a game shows it as this referee's only when this referee provably
wrote it (Journal.vouched): its mark names the journal's last record, or one of its keys
signed that record. A journal passed off as its own (records edited and chained again
without the key, or an older copy put back) is refused on one line, exit 3, by every such
command, on the view kept for it too; a journal its referee holds nothing of (another's
game, or a copy read by a player) is shown as it says, and a report of it names no key as
the game's."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from forging import (
    as_user,
    forget_mark,
    old_game,
    records,
    shown,
    write_resigned,
    write_signed,
)

from referee.store import home, signing, written
from referee.store.chain import canonical, line_of, seal

# What shows a game, and the words that name the game's key in a report.
SHOWING = [["status"], ["show"], ["show", "--format", "json"], ["log"],
           ["report", "--since", "0"], ["explain", "2"], ["dice"], ["area", "liege"],
           ["map", "--format", "svg"], ["players"], ["deadline"], ["mail"],
           ["standing", "--as", "german"]]
KEY_LINE = "(the game's signing key)"


@pytest.fixture
def played(game, cli):
    """The test game two records on: the German's pass and move."""
    for order in ("pass", "move ge-5 luxembourg"):
        assert cli("order", game, "--as", "german", order).exit_code == 0
    return game


def _forged(journal, unsigned: bool = False) -> None:
    """Record 2's order edited, it and every record after it sealed and chained again by
    someone without the game's key: the signatures stay as they were, or are dropped."""
    recs, prev = records(journal), None
    recs[2]["order"] = "move ge-5 liege"
    out = []
    for n, rec in enumerate(recs):
        dropped = ("hash", "sig") if unsigned and n >= 2 else ("hash",)
        rec = seal({**{k: v for k, v in rec.items() if k not in dropped},
                    **({"prev": prev} if prev else {})})
        prev = rec["hash"]
        out.append(canonical(rec) + b"\n")
    journal.write_bytes(b"".join(out))


def _refused(cli, journal, words: str) -> None:
    before = journal.read_bytes()
    for command in SHOWING:
        r = cli(command[0], journal, *command[1:])
        assert r.exit_code == 3, (command, r.stdout[-300:], r.stderr)
        assert r.stderr.count("\n") == 1 and words in r.stderr, (command, r.stderr)
        assert r.stdout == "", command
    assert journal.read_bytes() == before


def test_every_command_that_shows_a_game_shows_its_own(played, cli):
    for command in SHOWING:
        r = cli(command[0], played, *command[1:])
        assert r.exit_code == 0, (command, r.stderr)
    key = json.loads(played.read_text().splitlines()[0])["signing"]["fingerprint"]
    report = cli("report", played, "--since", "0").stdout
    assert f"Fingerprint: {shown(key)} {KEY_LINE}" in report


def test_a_journal_edited_and_chained_again_without_the_key_is_refused(played, cli):
    _forged(played)
    _refused(cli, played, "is not signed by it: forged, or edited and chained again")


def test_with_its_mark_gone_the_signature_still_gives_it_away(played, cli):
    forget_mark(played)
    _forged(played)
    _refused(cli, played, "record 3 names key")


def test_a_journal_whose_signatures_were_dropped_is_refused(played, cli):
    """Records chained again without any signature, the mark gone: the header names a key
    this referee holds, so a record without a signature is no other game's."""
    forget_mark(played)
    _forged(played, unsigned=True)
    _refused(cli, played, "record 3 carries no signature")


def test_an_older_copy_put_back_is_refused_even_from_its_kept_view(game, cli):
    assert cli("order", game, "--as", "german", "pass").exit_code == 0
    older = game.read_bytes()
    assert cli("status", game).exit_code == 0          # its view is kept
    assert cli("order", game, "--as", "german", "move ge-5 luxembourg").exit_code == 0
    game.write_bytes(older)
    _refused(cli, game, "cut back: this referee wrote record 3")


def test_an_older_copy_read_by_a_script_is_refused_as_the_docs_say_reads_refuse_it(game, cli):
    """An older copy of a game kept beside it, read in the home that wrote the game, is
    refused, not shown with a warning: shown, it passes for the game as it stands. A script
    gets one error object of kind foreign_game, exit 3, nothing on stdout, and
    docs/scripting.md gives that kind to the commands that show a game too."""
    assert cli("order", game, "--as", "german", "pass").exit_code == 0
    copy = game.with_name("pos27.jsonl")
    shutil.copyfile(game, copy)
    copy.chmod(0o600)                       # private, as the game: no warning beside it
    assert cli("order", game, "--as", "german", "move ge-5 luxembourg").exit_code == 0
    for command in (["status"], ["status", "--as", "german"], ["show"], ["report"]):
        r = cli(command[0], copy, *command[1:], "--format", "json")
        assert r.exit_code == 3 and r.stdout == "", (command, r.stdout[-200:])
        assert len(r.stderr.splitlines()) == 1, (command, r.stderr)
        [line] = r.stderr.splitlines()

        error = json.loads(line)
        assert error["kind"] == "foreign_game" and error["exit"] == 3
        assert "cut back: this referee wrote record 3" in error["error"]
    assert cli("status", game, "--format", "json").exit_code == 0
    scripting = (Path(__file__).parents[1] / "docs" / "scripting.md").read_text("utf-8")
    [row] = [ln for ln in scripting.splitlines() if ln.startswith("| `ForeignGameError` |")]
    assert "command that shows a game" in row and "older copy put back" in row, row


def test_a_journal_extended_by_the_keys_holder_is_vouched_for_by_its_signature(played, cli):
    """Written on the moderator's other machine (his key, not his mark): the last record's
    signature, checked, vouches for it."""
    recs = records(played)
    forget_mark(played)
    write_resigned(played, recs)
    report = cli("report", played, "--since", "0")
    assert report.exit_code == 0 and KEY_LINE in report.stdout


def test_another_referees_game_is_shown_as_it_says_and_vouched_for_by_no_one(
        played, cli, monkeypatch, tmp_path):
    """A player's referee reading a copy: everything shows, and no report names a key as
    the game's, since nothing here checked that it signed the game."""
    player = tmp_path / "player-home"
    player.mkdir(mode=0o700)
    as_user(monkeypatch, player)
    for command in SHOWING:
        r = cli(command[0], played, *command[1:])
        assert r.exit_code == 0, (command, r.stderr)
    for fmt in ("text", "markdown", "bbcode", "json"):
        r = cli("report", played, "--since", "0", "--format", fmt)
        assert r.exit_code == 0 and "Fingerprint" not in r.stdout and KEY_LINE not in r.stdout
    assert json.loads(cli("report", played, "--format", "json").stdout)["receipt"][
        "fingerprint"] is None


def _forgers_key(monkeypatch, tmp_path, home):
    """A key of the intruder's own (made in his referee home), back as the referee's user."""
    as_user(monkeypatch, tmp_path / "intruder-home")
    key = signing.new_key()
    as_user(monkeypatch, home)
    return key


def _adopted(cli, tmp_path):
    """A game begun before signing, adopted by this referee (`upgrade --adopt`): record 0
    names no key, the adoption record names this referee's."""
    old = old_game(tmp_path / "adopted")
    assert cli("upgrade", old, "--adopt").exit_code == 0
    return old


@pytest.mark.parametrize("begun", ["signed", "adopted"])
def test_records_signed_again_by_a_key_of_the_intruders_are_refused(
        begun, played, cli, monkeypatch, tmp_path, referee_home):
    """Records edited, chained again and each signed by a key of the intruder's own: the last
    record names a key this referee does not hold, but the game names one it holds (record
    0, or the adoption) and no record of its hands the game on to the intruder's key."""
    journal = played if begun == "signed" else _adopted(cli, tmp_path)
    recs = records(journal)
    recs[-1]["at"] = "2026-01-01T00:00:00Z"
    write_signed(journal, recs, _forgers_key(monkeypatch, tmp_path, referee_home))
    _refused(cli, journal, f"record {len(recs) - 1} is signed by key")


@pytest.mark.parametrize("swap", ["the intruder's key", "another record's", "none"])
def test_a_last_record_whose_signature_was_swapped_is_refused(
        swap, played, cli, monkeypatch, tmp_path, referee_home):
    """The mark names the last record by its hash, which covers all of the record but its
    signature: a signature put in its place (the intruder's key's over the same hash,
    another record's of this game, or none) leaves the hash as the mark has it, and a
    report would name the key that signature names as the game's."""
    recs = records(played)
    sig = {"the intruder's key": lambda: _forgers_key(monkeypatch, tmp_path, referee_home)
           .sig(recs[-1]["hash"]), "another record's": lambda: recs[1]["sig"],
           "none": lambda: None}[swap]()
    recs[-1] = {k: v for k, v in recs[-1].items() if k != "sig"}
    if sig is not None:
        recs[-1]["sig"] = sig
    played.write_bytes(b"".join(line_of(rec) for rec in recs))
    _refused(cli, played, f"record {len(recs) - 1} ")


def test_a_game_handed_on_to_a_key_of_another_host_is_shown_as_it_says(
        played, cli, monkeypatch, tmp_path, referee_home):
    """The moderator moves the game to another host (its key copied there), which hands it
    to a key of its own (rekey) and plays on: this referee holds the game's first key and
    its mark, but a record it signed handed the game on, so what follows is that host's to
    vouch for: shown as it says, and no report names a key as the game's."""
    fpr = records(played)[0]["signing"]["fingerprint"]
    other = tmp_path / "other-host"
    (other / "keys").mkdir(parents=True, mode=0o700)
    shutil.copy2(referee_home / "keys" / f"{fpr}.key", other / "keys" / f"{fpr}.key")
    as_user(monkeypatch, other)
    assert cli("rekey", played).exit_code == 0
    assert cli("deadline", played, "--set", "48h").exit_code == 0
    as_user(monkeypatch, referee_home)
    for command in SHOWING:
        r = cli(command[0], played, *command[1:])
        assert r.exit_code == 0, (command, r.stderr)
    assert KEY_LINE not in cli("report", played, "--since", "0").stdout


@pytest.mark.parametrize("command", [["show", "--at", "1"],
                                     ["map", "--at", "1", "--format", "svg"]])
def test_a_look_back_is_refused_when_the_records_after_it_are_not_the_games(
        command, played, cli):
    """Records 1 and 2 edited and chained again, the last record left as written (its mark
    names it, its signature checks): the chain breaks after the record looked back at, and
    the last record vouches for the records before it only through the whole chain."""
    recs = records(played)
    recs[1]["at"] = "2026-01-01T00:00:00Z"
    prev, out = None, []
    for n, rec in enumerate(recs):
        if n <= 2:
            rec = seal({**{k: v for k, v in rec.items() if k != "hash"},
                        **({"prev": prev} if prev else {})})
        prev = rec["hash"]
        out.append(line_of(rec))
    played.write_bytes(b"".join(out))
    r = cli(command[0], played, *command[1:])
    assert r.exit_code == 3 and r.stdout == "", (r.stdout[-300:], r.stderr)
    assert "record 3 does not follow record 2" in r.stderr and r.stderr.count("\n") == 1


def test_a_mark_kept_before_marks_named_the_signature_is_vouched_by_the_key_then_alone(
        played, cli):
    """A mark that names the last record but not its signature (written before marks kept
    it): the signature is checked, the game shown with its key, and the mark completed, so
    that the next read needs no signature checked."""
    raw, last = played.read_bytes(), records(played)[-1]
    path = written.mark_path(written.game_of(raw))
    kept = home.read_signed(path)
    assert kept["sig"] == last["sig"]
    del kept["sig"]
    assert home.write_signed(path, kept)
    assert not written.names_last(raw, last)
    assert f"{KEY_LINE}" in cli("report", played, "--since", "0").stdout
    assert written.names_last(raw, last) and played.read_bytes() == raw


@pytest.mark.parametrize("signed", ["by the intruder's key", "by no key"])
def test_a_game_of_this_referees_rewritten_whole_under_its_id_is_refused(
        signed, played, cli, monkeypatch, tmp_path, referee_home):
    """Every record rewritten, record 0 too (the intruder's key named there, or no key and no
    signatures): no record names a key of this referee's, but it wrote a game of this id,
    and its mark says so; the intruder's game is not shown in its place."""
    recs = records(played)
    recs[2]["order"] = "move ge-5 liege"
    if signed == "by no key":
        recs = [{k: v for k, v in rec.items() if k not in ("signing", "sig")} for rec in recs]
        prev, out = None, []
        for rec in recs:
            rec = seal({**{k: v for k, v in rec.items() if k not in ("hash", "prev")},
                        **({"prev": prev} if prev else {})})
            prev = rec["hash"]
            out.append(line_of(rec))
        played.write_bytes(b"".join(out))
    else:
        key = _forgers_key(monkeypatch, tmp_path, referee_home)
        recs[0]["signing"] = key.header_field()
        write_signed(played, recs, key)
    _refused(cli, played, "this referee wrote game 'test-1914', but no record of this journal")


EVIL = "evil@attacker.example"


def _forged_copy(journal) -> bytes:
    """The journal with three records more, sealed and chained by someone without the key (no
    signature): the German's address his own, a deadline of his choosing, a mail route of
    his. Passed off as the game, each is refused (_refused); the tests below serve it in
    the journal's place only to some of a command's reads."""
    from referee.game.timeline import settings_body
    from referee.store.mailroute import route_body

    recs = records(journal)
    roster = {"at": "2026-01-01T00:00:00Z", "actor": "moderator", "order": "register players",
              "events": [], "players": {"to": "moderator", "salt": "00" * 16, "data": {
                  "players": [{"side": "german", "address": EVIL, "key_no": 0,
                               "key_digest": "0" * 64}], "mail_entropy": True}}}
    added = [roster, settings_body({"deadline": "999h"}),
             route_body(None, "outbox:/tmp/evil-outbox", "11" * 16)]
    out = [line_of(r) for r in recs]
    prev = recs[-1]["hash"]
    for n, body in enumerate(added, len(recs)):
        rec = seal({**body, "seq": n, "prev": prev})
        prev = rec["hash"]
        out.append(line_of(rec))
    return b"".join(out)


def _reads_served(monkeypatch, forged: bytes, served) -> None:
    """The journal's reads, counted from 1, find the forged copy in its place when
    served(n): someone who can write the folder swaps it in between the referee's reads
    (holding the journal's lock, he can time the swap to the read he wants)."""
    from referee.store import journal as journal_module

    real, count = journal_module._read_all, [0]

    def read(fd, path):
        count[0] += 1
        return forged if served(count[0]) else real(fd, path)

    monkeypatch.setattr(journal_module, "_read_all", read)


@pytest.mark.parametrize("command", [["players"], ["players", "--keys"], ["deadline"],
                                     ["mail"], ["deadline", "--format", "json"]])
def test_a_copy_put_in_place_after_the_check_is_never_shown(game, cli, monkeypatch, command):
    """What a command shows comes from bytes whose check passed: a command that read the
    journal again after Table.vouched (players, mail, deadline) showed a forged copy put in
    its place between the two reads, as the referee's own game."""
    for setting in (("players", game, "--set", "german=hans@example.org"),
                    ("deadline", game, "--set", "48h"),
                    ("mail", game, "--out", "outbox:/tmp/moderators-outbox")):
        assert cli(*setting).exit_code == 0
    genuine = cli(command[0], game, *command[1:])
    assert genuine.exit_code == 0, genuine.output
    _reads_served(monkeypatch, _forged_copy(game), lambda n: n > 1)
    r = cli(command[0], game, *command[1:])
    assert r.exit_code == 3 or r.stdout == genuine.stdout, (r.exit_code, r.stdout, r.stderr)
    for forged in (EVIL, "evil-outbox", "999h"):
        assert forged not in r.stdout


@pytest.mark.parametrize("read", [1, 2, 3, 4, 5])
def test_a_roster_record_keeps_nothing_of_a_copy_put_in_place_for_a_read(
        game, cli, monkeypatch, read):
    """`players --set` read the roster the new record keeps (every side's address but the
    one changed) from a read of its own, after the check that the journal is this referee's
    and before the append's: a forged copy served to that read had the moderator's key sign
    the forger's address as the German's (his mail, hand and all, then went to him)."""
    assert cli("players", game, "--set", "german=hans@example.org", "--set",
               "entente=joffre@example.net").exit_code == 0
    _reads_served(monkeypatch, _forged_copy(game), lambda n: n == read)
    cli("players", game, "--set", "observer=club@example.org")
    monkeypatch.undo()
    assert EVIL.encode() not in game.read_bytes()
    shown_now = cli("players", game)
    assert shown_now.exit_code == 0 and "hans@example.org" in shown_now.stdout
    assert cli("verify", game).exit_code == 0


def test_a_roster_record_is_made_from_the_roster_under_the_appends_lock(game, cli, monkeypatch):
    """Another roster record appended between the read `players --set` checks and its own
    append (a second moderator's command): nothing is written over it, and the command
    says to run it again."""
    from referee.mail import inbox
    from referee.table import Table

    assert cli("players", game, "--set", "german=hans@example.org").exit_code == 0
    append = Table.append

    def meanwhile(self, build, **how):
        monkeypatch.setattr(Table, "append", append)
        inbox.players(game, ["entente=foch@example.net"], [], False)
        return append(self, build, **how)

    monkeypatch.setattr(Table, "append", meanwhile)
    r = cli("players", game, "--set", "german=otto@example.org")
    assert r.exit_code == 2 and "players changed while this command ran" in r.stderr, r.output
    listed = cli("players", game).stdout
    assert "foch@example.net" in listed and "hans@example.org" in listed, listed
