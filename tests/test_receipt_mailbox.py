"""`verify --receipt MAILBOX`: a player's saved mail, an mbox file or a Maildir folder, given
whole. Every receipt the referee's mails of the journal's game carry is checked, each once;
mails of another game, other senders' mails (a player's reply quoting a receipt), receipts
quoted ('>') and damaged messages are passed over and counted, never taken as the referee's.

The mails are the very ones the referee's outbox wrote for two games played by mail."""

from __future__ import annotations

import email
import email.policy
import json
from pathlib import Path

import pytest
from forging import as_user, records, write_resigned
from mailboxes import write_maildir
from test_inbox import ADDRESSES, KEYS, inbox, write_mbox
from test_mailflow import Table, _game

from referee.mail.mailboxes import MAX_MESSAGE

OTHER_GAME = "verdun-1916"


def _played(tmp: Path, cli, journal: Path) -> Table:
    """The game's opening mails, then the German's first order and the mails that answer
    it."""
    table = Table(tmp, cli, journal, KEYS)
    table.inbox()
    table.send("german", ["play offensive"])
    outcomes, _ = table.inbox()
    assert [o["status"] for o in outcomes] == ["applied"], outcomes
    return table


def _outbox(tmp: Path) -> list[bytes]:
    """Every mail the outbox runs under tmp wrote, in the order written."""
    return [p.read_bytes() for p in sorted(tmp.glob("out*/*.eml"), key=lambda p: (
        int(p.parent.name[3:]), p.stat().st_mtime_ns, p.name))]


def _receipt_of(raw: bytes) -> str:
    mail = email.message_from_bytes(raw, policy=email.policy.default)
    text = mail.get_body(("plain",)).get_content()
    return next(line for line in text.splitlines() if line.startswith("Receipt: "))


def other_game(tmp_path: Path, cli, ours: Path, game_id: str) -> Path:
    """The folder of another game, game_id, made beside ours by the same players with the
    same secret, its opening mails written into theirs/out1."""
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (theirs / "fixed.secret").write_bytes((ours / "fixed.secret").read_bytes())
    other = theirs / "g.jsonl"
    r = cli("new", other, "--scenario", "1914", "--game-id", game_id, "--secret-file",
            theirs / "fixed.secret",
            *[a for side, addr in ADDRESSES.items() for a in ("--player", f"{side}={addr}")])
    assert r.exit_code == 0, r.output
    write_maildir(theirs / "box", [])
    inbox(cli, other, theirs / "box", outbox=theirs / "out1")     # its opening mails
    return theirs


@pytest.fixture
def two_games(tmp_path, cli):
    """The journal of game mailtest; the referee's mails of it and of another game played
    beside it by the same players; and a German reply to the last mail quoting it whole."""
    ours = tmp_path / "ours"
    ours.mkdir()
    journal = _game(ours, cli)
    table = _played(ours, cli, journal)
    theirs = other_game(tmp_path, cli, ours, OTHER_GAME)
    mails, others = _outbox(ours), _outbox(theirs)
    last = email.message_from_bytes(mails[-1], policy=email.policy.default)
    quoted = "\n".join(f"> {line}" for line in
                       last.get_body(("plain",)).get_content().splitlines())
    reply = (f"From: {ADDRESSES['german']}\nTo: {ADDRESSES['moderator']}\n"
             f"Subject: Re: {last['Subject']}\nDate: Sat, 01 Aug 1914 10:00:00 +0000\n"
             f"Message-ID: <reply.1@potsdam.example.org>\nIn-Reply-To: {last['Message-ID']}\n"
             f"\npass\n\nOn Saturday the referee wrote:\n{quoted}\n").encode()
    assert table.sent and mails and others
    return journal, mails, others, reply


def _box(kind: str, path: Path, raws: list[bytes]) -> Path:
    return write_mbox(path, raws) if kind == "mbox" else write_maildir(path, raws)


def _distinct(raws: list[bytes]) -> int:
    return len({_receipt_of(raw) for raw in raws})


@pytest.mark.parametrize("kind", ["mbox", "maildir"])
def test_every_receipt_of_the_game_in_a_mailbox_is_checked_the_rest_counted(
        two_games, cli, tmp_path, kind):
    journal, mails, others, reply = two_games
    box = _box(kind, tmp_path / f"saved.{kind}", [*others[:1], *mails, reply, *others[1:],
                                                  mails[0]])
    r = cli("verify", journal, "--receipt", box)
    assert r.exit_code == 0, r.output
    distinct = _distinct(mails)
    assert 1 < distinct < len(mails)       # two mails at one record give one receipt
    total = len(mails) + len(others) + 2
    assert (f"mailbox {box}: {total} mails read, {len(mails) + 1} with a receipt of game "
            f"mailtest, {distinct} receipts checked ({len(mails) + 1 - distinct} already in "
            f"another mail); passed over: 1 not the referee's (replies, other senders), "
            f"{len(others)} of other games") in r.stdout, r.stdout
    assert f"receipts: {distinct} checked ({distinct} with a signature), each record is in " \
           f"the journal as it was" in r.stdout
    out = json.loads(cli("verify", journal, "--receipt", box, "--format", "json").stdout)
    assert out["receipts"] == distinct
    assert out["mailboxes"] == [{
        "mailbox": str(box), "mails": total, "of_game": len(mails) + 1, "checked": distinct,
        "duplicates": len(mails) + 1 - distinct, "not_referee": 1,
        "other_game": len(others), "same_id": 0, "no_receipt": 0, "bad_receipt": 0,
        "damaged": 0, "not_files": 0}]


def test_one_saved_mail_is_read_as_a_mailbox_of_one(two_games, cli, tmp_path):
    journal, mails, _, _ = two_games
    saved = tmp_path / "saved"             # no name tells what it is: its bytes do
    saved.write_bytes(mails[-1])
    r = cli("verify", journal, "--receipt", saved)
    assert r.exit_code == 0, r.output
    assert f"mailbox {saved}: 1 mail read, 1 with a receipt of game mailtest, 1 receipt " \
           f"checked" in r.stdout


@pytest.mark.parametrize("kind", ["mbox", "maildir"])
def test_a_journal_rewritten_after_the_mails_fails_from_the_first_record_rewritten(
        two_games, cli, tmp_path, kind, monkeypatch):
    journal, mails, others, _ = two_games
    box = _box(kind, tmp_path / f"saved.{kind}", [*mails, *others])
    recs = records(journal)
    first = int(_receipt_of(mails[0]).rpartition(" ")[2].split(":")[0])
    recs[first] = {**recs[first], "at": "2001-01-01T00:00:00Z"}
    write_resigned(journal, recs)      # chained and signed again by the game's key
    player = tmp_path / "player-home"  # the player checks it with his own referee
    player.mkdir(mode=0o700)
    as_user(monkeypatch, player)
    r = cli("verify", journal, "--receipt", box)
    assert r.exit_code == 3, r.output
    assert f"the journal differs from the receipts from record {first} on: rewritten " \
           f"since the mails were sent" in r.stdout, r.stdout
    assert f"receipt {first}:" in r.stderr and "rewritten after that mail" in r.stderr
    err = json.loads(cli("verify", journal, "--receipt", box, "--format", "json").stderr)
    assert err["record"] == first and err["mailboxes"][0]["other_game"] == len(others)
    assert err["mailboxes"][0]["checked"] == _distinct(mails)


def test_a_forged_receipt_in_a_quoted_line_is_never_the_referee_s(two_games, cli, tmp_path):
    """A reply quoting a receipt is another sender's; and in a mail of the referee's, a
    quoted receipt is a quote, and a line above its own receipt (a player's line a reply
    quotes back, his words a report shows) is not its receipt: none is taken, so a forgery
    cannot fail the journal."""
    journal, mails, _, _ = two_games
    forged = "Receipt: mailtest 2:" + "0" * 32
    reply = (f"From: {ADDRESSES['german']}\nTo: {ADDRESSES['moderator']}\nSubject: Re: x\n"
             f"Date: Sat, 01 Aug 1914 10:00:00 +0000\nMessage-ID: <reply.2@potsdam.example.org>"
             f"\n\npass\n\n> {forged}\n{forged}\n").encode()
    mail = email.message_from_bytes(mails[-1], policy=email.policy.default)
    part = mail.get_body(("plain",))
    text = part.get_content()
    part.set_content(f"  {forged}\n{forged}\n\n{text}> {forged}\n>{forged}\n  > {forged}\n",
                     params={"format": "flowed"})
    quoting = mail.as_bytes(policy=email.policy.SMTP.clone(linesep="\n"))
    assert b"@referee.invalid>" in quoting.split(b"\n\n")[0]
    box = write_mbox(tmp_path / "saved.mbox", [reply, quoting])
    r = cli("verify", journal, "--receipt", box)
    assert r.exit_code == 0, r.output
    assert f"mailbox {box}: 2 mails read, 1 with a receipt of game mailtest, 1 receipt " \
           f"checked; passed over: 1 not the referee's" in r.stdout, r.stdout
    assert r.stderr == ""
    # The same line where the mail's own receipt stands is the referee's word: it fails.
    part.set_content(text.replace(_receipt_of(mails[-1]), forged), params={"format": "flowed"})
    box = write_mbox(tmp_path / "forged.mbox",
                     [mail.as_bytes(policy=email.policy.SMTP.clone(linesep="\n"))])
    r = cli("verify", journal, "--receipt", box)
    assert r.exit_code == 3 and "receipt 2:" in r.stderr, r.output


@pytest.mark.parametrize("kind", ["mbox", "maildir"])
def test_a_damaged_message_is_skipped_and_counted(two_games, cli, tmp_path, kind):
    journal, mails, _, _ = two_games
    mail = email.message_from_bytes(mails[-1], policy=email.policy.default)
    head = [line for line in mails[-1].split(b"\n\n")[0].decode().split("\n")
            if not line.startswith(("MIME-Version:", "Content-"))]
    unknown = "\n".join([*head, "MIME-Version: 1.0",    # its text in no charset there is
                         "Content-Type: text/plain; charset=x-no-such-charset", "",
                         _receipt_of(mails[-1]), ""]).encode()
    assert mail["Message-ID"] in unknown.decode()
    huge = (f"From: {ADDRESSES['moderator']}\nSubject: big\nMessage-ID: <big@referee.invalid>"
            f"\n\n" + ("x" * 75 + "\n") * (MAX_MESSAGE // 76 + 10)).encode()
    box = _box(kind, tmp_path / f"saved.{kind}", [unknown, *mails, huge])
    r = cli("verify", journal, "--receipt", box)
    assert r.exit_code == 0, r.output
    assert f"{len(mails) + 2} mails read" in r.stdout
    assert "passed over: 2 damaged or too large to read" in r.stdout, r.stdout


def test_a_mailbox_without_a_receipt_of_the_game_is_refused_in_one_line(two_games, cli,
                                                                         tmp_path):
    journal, _, others, reply = two_games
    box = write_mbox(tmp_path / "theirs.mbox", [*others, reply])
    r = cli("verify", journal, "--receipt", box)
    assert r.exit_code == 2 and r.stdout == "", r.output
    assert r.stderr.count("\n") == 1 and "no mail in it carries a receipt of game mailtest" \
        in r.stderr
    folder = tmp_path / "not-a-maildir"
    folder.mkdir()
    r = cli("verify", journal, "--receipt", folder)
    assert r.exit_code == 2 and r.stderr.count("\n") == 1 and "Traceback" not in r.output


def test_a_line_of_the_player_s_a_refusal_quotes_back_is_not_its_receipt(tmp_path, cli):
    """A player's mail with a receipt line among his orders is refused, the line quoted back
    indented above the refusal's own receipt: only the receipt the mail ends with is the
    referee's."""
    journal = _game(tmp_path, cli)
    table = Table(tmp_path, cli, journal, KEYS)
    table.inbox()
    forged = "Receipt: mailtest 2:" + "0" * 32
    mid = table.send("german", ["play offensive", forged, "end movement"])
    outcomes, replies = table.inbox()
    assert [(o["message_id"], o["status"]) for o in outcomes] == [(mid, "rejected")]
    text = replies[0].get_body(("plain",)).get_content()
    assert f"\n   {forged}\n" in text and not text.rstrip().endswith(forged)
    box = write_maildir(tmp_path / "saved", _outbox(tmp_path))
    r = cli("verify", journal, "--receipt", box)
    assert r.exit_code == 0, r.output
    assert f"mailbox {box}: 3 mails read, 3 with a receipt of game mailtest, 1 receipt " \
           f"checked (2 already in another mail)" in r.stdout, r.stdout


def test_a_receipt_wrapped_under_a_long_game_id_is_read_whole_indented_or_not():
    """A receipt line too long for the mail goes on with its record and hash on the next
    line: indented as the report wraps it, or flush left as a mail sends a line after a soft
    break (mail/flowed.py). Either way the block is the receipt whole."""
    from referee.mail.receiptbox import receipt_blocks

    head = "Receipt: " + "a-game-whose-id-is-long-" * 2
    for cont in ("  12:" + "ab" * 16, "12:" + "ab" * 16):
        text = f"Your report.\n\n{head}\n{cont}\n"
        assert receipt_blocks(text) == [f"{head.strip()}\n{cont.strip()}"], cont
