"""`referee inbox` on a sample mailbox (tests/mail/): orders by email, all or nothing per message.

The game is made with a fixed secret and game id, so the players' order keys are fixed; the
sample messages are templates in tests/mail/ whose placeholders ({GAME}, {GERMAN_KEY},
{ENTENTE_KEY}) the test fills in. The mail of four days goes through `inbox` the way a
moderator would run it: a Maildir first, then the mbox his mail program keeps appending to, and
one .eml file; every run is repeated at the end to show that nothing is ever handled twice.
"""

from __future__ import annotations

import email
import email.policy
import email.utils
import hashlib
import json
import os
import re
import stat
from pathlib import Path

import pytest
from mailboxes import write_maildir
from mailkinds import first_line, headline, report_lead, report_title

from referee.store import home
from referee.store.dice import write_secret

MAIL = Path(__file__).parent / "mail"
GAME = "mailtest"
SECRET = bytes.fromhex("5e" * 32)
ADDRESSES = {"german": "Kaiser@Example.org", "entente": "joffre@example.net",
             "moderator": "umpire@example.com"}
# The order keys that SECRET and GAME give (referee.players.order_key): pinned, so that a
# change in how keys are derived is seen here and not only as a mailbox that stops working.
KEYS = {"german": "94Y1-KQGC-1DED", "entente": "7SBM-7P19-Q341"}
OTHER = {"german": "entente", "entente": "german"}

# Message-IDs of the sample messages.
ORDERS_ID = "<schlieffen.1914-08-01@potsdam.example.org>"       # 01, and 04 (its copy)
QP_ID = "<gqg.0802.joffre@example.net>"                          # 02
ALTERNATIVE_ID = "<cavalry.1914-08-03@potsdam.example.org>"      # 03
RESEND_ID = "<schlieffen.1914-08-01.resent@potsdam.example.org>"  # 05
STRANGER_ID = "<x1@bureau.example>"                              # 06
FORGED_ID = "<forged.1@relay.bureau.example>"                    # 07
OTHER_GAME_ID = "<verdun.1916@potsdam.example.org>"               # 08
STALE_ID = "<gqg.0803.second-thoughts@example.net>"              # 09
ILLEGAL_ID = "<gqg.0804.joffre@example.net>"                     # 10
ALL_IDS = [ORDERS_ID, QP_ID, ALTERNATIVE_ID, RESEND_ID, STRANGER_ID, FORGED_ID, OTHER_GAME_ID,
           STALE_ID, ILLEGAL_ID]

OPENING = ["play offensive", "move ge-1 Liège", "move ge-4:cavalry ardennes", "end movement",
           "done", "done"]


# ---------------------------------------------------------------- the mailbox

def message(name: str) -> bytes:
    """A sample message from tests/mail/ with this game's id and keys filled in."""
    text = (MAIL / name).read_text(encoding="utf-8")
    for k, v in {"{GAME}": GAME, "{GERMAN_KEY}": KEYS["german"],
                 "{ENTENTE_KEY}": KEYS["entente"]}.items():
        text = text.replace(k, v)
    assert not re.search(r"\{[A-Z_]+\}", text), f"{name}: a placeholder is left"
    return text.encode("utf-8")


def sha(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


def _mail(rec: dict) -> tuple[str, str]:
    """A record's message part: Message-ID and raw digest (its body digest is checked apart)."""
    data = rec["mail"]["data"]
    assert set(data) == {"message_id", "sha256", "body_sha256", "content_sha256"}
    return data["message_id"], data["sha256"]


def write_mbox(path: Path, raws: list[bytes]) -> Path:
    """An mbox file as a mail program keeps it: a 'From ' line before each message, a blank
    line after it (no body line of the samples starts with 'From ', so nothing is quoted)."""
    out = b""
    for raw in raws:
        sender = email.utils.parseaddr(
            email.message_from_bytes(raw, policy=email.policy.default)["From"])[1]
        assert raw.endswith(b"\n") and b"\nFrom " not in raw
        out += f"From {sender} Sat Aug  1 09:00:00 1914\n".encode() + raw + b"\n"
    path.write_bytes(out)
    return path



def line_of(raw: bytes, text: str) -> int:
    """The line number (from 1) of the unquoted body line `text` in a message."""
    body = email.message_from_bytes(raw, policy=email.policy.default).get_content()
    return body.split("\n").index(text) + 1


# ---------------------------------------------------------------- running the referee

def inbox(cli, journal: Path, *sources: Path, outbox: Path) -> tuple[dict, list[Path]]:
    """One `inbox` run: each message's outcome by Message-ID (a list: copies share one), and
    the mails it wrote."""
    r = cli("inbox", journal, *sources, "--outbox", outbox, "--format", "json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    by_id: dict[str, list[dict]] = {}
    for m in out["messages"]:
        by_id.setdefault(m["message_id"], []).append(m)
    written = [Path(p) for p in out["outbox"]]
    assert sorted(written) == sorted(outbox.iterdir() if outbox.exists() else [])
    return by_id, written


def new_mail_game(tmp_path: Path, cli) -> Path:
    """The 1914 game of these tests (GAME, SECRET: the players' keys are KEYS), its players
    at ADDRESSES: its journal."""
    secret = tmp_path / "fixed.secret"
    write_secret(secret, SECRET)
    journal = tmp_path / "g.jsonl"
    assert cli("new", journal, "--scenario", "1914", "--game-id", GAME, "--secret-file", secret,
               *[a for side, addr in ADDRESSES.items()
                 for a in ("--player", f"{side}={addr}")]).exit_code == 0
    return journal


def records(journal: Path) -> list[dict]:
    return [json.loads(line) for line in journal.read_text(encoding="utf-8").splitlines()]


def read_mail(path: Path) -> email.message.EmailMessage:
    return email.message_from_bytes(path.read_bytes(), policy=email.policy.default)


def sort_mails(written: list[Path]) -> tuple[dict, dict]:
    """The outbox mails (each 0600): the reports by side, the other replies by the Message-ID
    they answer."""
    reports, replies = {}, {}
    for p in written:
        assert stat.S_IMODE(os.stat(p).st_mode) == 0o600, p
        mail = read_mail(p)
        found = re.search(r"report for the (German|Entente) player", report_title(mail))
        found = found if found and "not applied" not in first_line(mail) else None
        if found:
            side = found.group(1).casefold()        # the side's name, read back as its id
            assert side not in reports, "two reports for one side"
            reports[side] = mail
        else:
            assert mail["In-Reply-To"] not in replies
            replies[mail["In-Reply-To"]] = mail
    return reports, replies


def check_report(mail, side: str, journal: Path, in_reply_to: str | None) -> str:
    """A player's report: To, Subject, In-Reply-To, his key (never the other's) and the receipt
    of the journal's last record (the first 32 hex digits of its hash) as the last line. Returns
    the receipt's SEQ:HASH."""
    last = records(journal)[-1]
    assert str(mail["To"]) == ADDRESSES[side]
    assert str(mail["From"]) == ADDRESSES["moderator"]
    # One subject for every mail to him in a season (a Gmail conversation); the first line
    # says it is his report; the record it ends at is in its Message-ID, marked for him.
    assert re.fullmatch(rf"\[referee {GAME}\] {side.title()} player, [A-Z]+ \d{{4}}",
                        str(mail["Subject"])), mail["Subject"]
    assert f"report for the {side.title()} player" in report_title(mail)
    # Above its title, what he is asked now: his decision, or whom the game waits on (2.0).
    assert report_lead(mail).startswith(("Your decision: ", "Waiting on the ")), mail
    assert str(mail["Message-ID"]).startswith(f"<rec.{GAME}.{last['seq']}.")
    assert mail["In-Reply-To"] == in_reply_to
    body = mail.get_content()
    lines = body.rstrip("\n").split("\n")
    assert f"Order key: {KEYS[side]}" in lines
    assert KEYS[OTHER[side]] not in body
    assert lines[-1] == f"Receipt: {GAME} {last['seq']}:{last['hash'][:32]}"
    return f"{last['seq']}:{last['hash'][:32]}"


def check_not_applied(mail, side: str, in_reply_to: str, journal: Path,
                      brief: bool = False) -> str:
    """The one reply to a player's message that was not applied: why first, then his report
    (his decision now), or with brief no report (a report of this run went to him first);
    his key, the receipt of the journal's last record last. Returns its body with its lines
    joined (a phrase may be wrapped across two)."""
    last = records(journal)[-1]
    assert str(mail["To"]).casefold() == ADDRESSES[side].casefold()
    assert str(mail["Subject"]).startswith(f"[referee {GAME}] {side.title()} player, ")
    assert str(mail["Message-ID"]).startswith(f"<rec.{GAME}.{last['seq']}.")
    assert mail["In-Reply-To"] == in_reply_to
    body = mail.get_content()
    assert body.startswith("Your message was not applied: ")
    lines = body.rstrip("\n").split("\n")
    assert f"Order key: {KEYS[side]}" in lines and ("Now" in lines) != brief
    assert lines[-1] == f"Receipt: {GAME} {last['seq']}:{last['hash'][:32]}"
    assert KEYS[OTHER[side]] not in body
    return " ".join(body.split())


def check_no_game_content(mail, to: str, in_reply_to: str, data) -> None:
    """The reply to a stranger or a forged From: nothing about the game in it; to a
    player's registered address (a forged From's answer reaches its owner), his game's tag
    alone, in his reports' subject (so that his reply to it is claimed by his game)."""
    assert str(mail["To"]) == to
    owner = to.casefold() in {a.casefold() for a in ADDRESSES.values()}
    if owner:
        assert re.fullmatch(rf"\[referee {GAME}\] (German|Entente) player, .+",
                            str(mail["Subject"])), str(mail["Subject"])
        mail = _untagged(mail)
    assert mail["In-Reply-To"] == in_reply_to
    text = f"{mail['Subject']}\n{mail.get_content()}"
    raw = mail.as_string()
    words = {a.name for a in data.areas.values()} | set(data.areas) | {
        alias for a in data.areas.values() for alias in a.aliases} | {
        c.title for c in data.cards.values()} | {c.key for c in data.cards.values()}
    for word in words:
        assert not re.search(rf"(?i)(?<!\w){re.escape(word)}(?!\w)", text), word
    assert not re.search(r"(?i)(?<![\w-])[a-z]{2}-(?:[a-z]-)?\d+", text), text   # unit ids
    for key in KEYS.values():
        assert key not in text and key not in raw and key.replace("-", "") not in raw
    assert "Receipt:" not in text and "Order key:" not in text
    assert f"[referee {GAME}" not in raw


def _untagged(mail):
    """mail without its subject and its Message-ID and References (the game's tag, thread
    and record), for checking the rest holds nothing of the game."""
    mail = email.message_from_bytes(mail.as_bytes(), policy=email.policy.default)
    for name in ("Subject", "Message-ID", "References"):
        del mail[name]
    return mail


def only(by_id: dict, mid: str) -> dict:
    assert len(by_id[mid]) == 1, by_id[mid]
    return by_id[mid][0]


# ---------------------------------------------------------------- the scenario

def test_a_sample_mailbox_goes_through_inbox_once(tmp_path, cli, data):
    """Four days of mail (tests/mail/README.md lists them): each message's orders are applied
    once or not at all, the outbox holds the right mails, and running again changes nothing."""
    secret = tmp_path / "fixed.secret"
    write_secret(secret, SECRET)
    journal = tmp_path / "g.jsonl"
    r = cli("new", journal, "--scenario", "1914", "--game-id", GAME, "--secret-file", secret,
            *[a for side, addr in ADDRESSES.items() for a in ("--player", f"{side}={addr}")])
    assert r.exit_code == 0, r.output
    r = cli("players", journal, "--keys", "--format", "json")
    assert r.exit_code == 0, r.output
    listed = {p["side"]: p for p in json.loads(r.stdout)["players"]}
    assert {s: p["address"] for s, p in listed.items()} == ADDRESSES
    assert {s: p.get("key") for s, p in listed.items() if s != "moderator"} == KEYS
    r = cli("status", journal, "--as", "german", "--format", "json")
    assert "play offensive" in json.loads(r.stdout)["legal"]

    raw = {n: message(n) for n in (
        "01-german-orders.eml", "02-entente-quoted-printable.eml", "03-german-alternative.eml",
        "05-german-resend.eml", "06-stranger.eml", "07-forged-from.eml", "08-other-game.eml",
        "09-entente-stale.eml", "10-entente-illegal.eml")}
    orders, qp, alternative, resend, stranger, forged, other_game, stale, illegal = raw.values()
    duplicate = bytes(orders)                                                 # 04

    before = journal.read_bytes()

    # ---- run 0: an empty Maildir; each player gets his opening report (record 2)
    empty = write_maildir(tmp_path / "empty", [])
    by_id, written = inbox(cli, journal, empty, outbox=tmp_path / "out0")
    assert by_id == {} and len(written) == 2
    reports, replies = sort_mails(written)
    assert replies == {}
    for side in KEYS:
        check_report(reports[side], side, journal, None)
    assert journal.read_bytes() == before

    # ---- run 1, a Maildir (1 August): the German's opening, a byte-identical second delivery,
    # a resend under a new Message-ID, a message for another game, a stranger, a forged From.
    # The files are not in Date order: the resend (09:30) comes first, and must not be the one
    # applied (it would be, with the same orders, if the files were read in their order).
    day1 = [resend, forged, stranger, orders, other_game, duplicate]
    maildir = write_maildir(tmp_path / "Maildir", day1)
    by_id, written = inbox(cli, journal, maildir, outbox=tmp_path / "out1")
    assert sum(len(v) for v in by_id.values()) == 6
    first, second = by_id[ORDERS_ID]
    assert (first["status"], first["side"], first["records"]) == ("applied", "german",
                                                                  [3, 4, 5, 6, 7, 8])
    assert second["status"] == "skipped" and second["records"] == []
    # The resend answers the mail of record 2 (its Subject says so), and its orders are those
    # his first mail applied: it is stale, nothing of it is applied, and it is told so.
    o = only(by_id, RESEND_ID)
    assert o["status"] == "stale" and o["records"] == []
    assert "record 2" in o["reason"] and "already applied as records 3–8" in o["reason"], o
    o = only(by_id, OTHER_GAME_ID)
    assert o["status"] == "skipped" and "othergame" in o["reason"]
    for mid in (STRANGER_ID, FORGED_ID):
        o = only(by_id, mid)
        assert o["status"] == "rejected" and o["side"] is None and o["records"] == []
    # The journal: the six orders once (not again for the copy or the resend, nothing for the
    # other game, the stranger or the forged From), each record keeping the message it came in
    # (a moderator part).
    recs = records(journal)
    assert [r["seq"] for r in recs] == list(range(9))
    assert [r["order"] for r in recs[3:]] == OPENING
    assert all(r["actor"] == "german" for r in recs[3:])
    for r in recs[3:]:
        assert r["mail"]["to"] == "moderator"
        assert _mail(r) == (ORDERS_ID, sha(orders))
    assert all("mail" not in r for r in recs[:3])
    # The outbox: the two reports (record 8), the reply to the resend, to the stranger and to
    # the forged From; nothing for the second copy and the other game's message.
    reports, replies = sort_mails(written)
    assert len(written) == 5 and len(reports) == 2 and len(replies) == 3
    receipts = {"german-8": check_report(reports["german"], "german", journal, ORDERS_ID)}
    check_report(reports["entente"], "entente", journal, None)
    # The German's report of his orders applied comes first; the resend's reply after it
    # says why only, and points to that report.
    order = [(read_mail(p)["In-Reply-To"], headline(read_mail(p))) for p in written]
    assert [n for n, (mid, _) in enumerate(order) if mid == RESEND_ID] > \
        [n for n, (_, said) in enumerate(order) if "report for the German player" in said]
    body = check_not_applied(replies[RESEND_ID], "german", RESEND_ID, journal, brief=True)
    assert "record 2" in body and "already applied as records 3–8" in body
    assert "in your report of record #8, sent to you with this mail" in body
    check_no_game_content(replies[STRANGER_ID], "spy@bureau.example", STRANGER_ID, data)
    check_no_game_content(replies[FORGED_ID], ADDRESSES["german"], FORGED_ID, data)
    with pytest.raises(AssertionError):            # (the check does see game content)
        check_no_game_content(reports["german"], ADDRESSES["german"], ORDERS_ID, data)

    # ---- run 2, the mbox (2 August): day 1 again, the German's opening once more by another
    # way (same Message-ID, one more header), and the German's multipart/alternative answer
    # (`hold`: the cavalry stays; its dice mix in the digest of that line). The Entente is not
    # asked for combat cards on turn 1: none of the defender's could be played then (2.0
    # II.3b, 9.3, 9.4, 9.5).
    mbox = tmp_path / "umpire.mbox"
    relayed = b"Delivered-To: umpire@example.com\n" + orders
    day1 = [*day1, relayed]
    write_mbox(mbox, [*day1, alternative])
    by_id, written = inbox(cli, journal, mbox, outbox=tmp_path / "out2")
    for mid in (RESEND_ID, OTHER_GAME_ID, STRANGER_ID, FORGED_ID):
        assert {o["status"] for o in by_id[mid]} == {"known"}, by_id[mid]
    assert sorted(o["status"] for o in by_id[ORDERS_ID]) == ["known", "known", "skipped"]
    o = only(by_id, ALTERNATIVE_ID)
    assert (o["status"], o["side"], o["records"]) == ("applied", "german", [9])
    recs = records(journal)
    assert len(recs) == 10 and recs[9]["order"] == "hold" and recs[9]["actor"] == "german"
    assert _mail(recs[9]) == (ALTERNATIVE_ID, sha(alternative))
    reports, replies = sort_mails(written)
    assert len(written) == 2 and replies == {}
    receipts["german-9"] = check_report(reports["german"], "german", journal, ALTERNATIVE_ID)
    check_report(reports["entente"], "entente", journal, None)

    # ---- run 3, the mbox (3 August): the Entente's quoted-printable answer (the fort pays
    # the artillery's hit), and the Entente answering the record-8 mail after the record-9
    # mail was sent to him
    write_mbox(mbox, [*day1, alternative, qp, stale])
    by_id, written = inbox(cli, journal, mbox, outbox=tmp_path / "out3")
    o = only(by_id, QP_ID)
    assert (o["status"], o["side"], o["records"]) == ("applied", "entente", [10])
    o = only(by_id, STALE_ID)
    assert o["status"] == "stale" and o["records"] == [], o
    assert "record 8" in o["reason"] and "decision has changed" in o["reason"]
    # He knows his mails by turn and step, as their subject and first line name them: the
    # record in brackets, for the moderator.
    assert o["reason"].startswith("it answers your mail of SUMMER 1914, "), o["reason"]
    assert "(record 8), and your decision has changed" in o["reason"], o["reason"]
    # In the player's words: the game's record, not the referee's file.
    assert "the game is at record 10" in o["reason"] and "journal" not in o["reason"], o
    recs = records(journal)
    assert len(recs) == 11 and recs[10]["order"] == "lose fort-liege" and \
        recs[10]["actor"] == "entente"
    assert _mail(recs[10]) == (QP_ID, sha(qp))
    assert not any("armistice" in r.get("order", "") for r in recs)
    reports, replies = sort_mails(written)
    assert len(written) == 3 and list(replies) == [STALE_ID]
    check_report(reports["entente"], "entente", journal, QP_ID)
    check_report(reports["german"], "german", journal, None)
    body = check_not_applied(replies[STALE_ID], "entente", STALE_ID, journal, brief=True)
    assert "record 8" in body and "reply to the latest mail" in body
    # It names that latest mail, among the mails of one subject, by the record it ends at
    # (its title names it): the report this run sent him (record 10).
    report = reports["entente"]
    assert str(report["Subject"]) == str(replies[STALE_ID]["Subject"])
    assert ", record 10, " in report_title(report), report_title(report)
    assert "Your latest mail is your report of record #10, sent with this one: reply to " \
        "that one." in " ".join(body.split())

    # ---- run 4, the mbox and one .eml file (4 August): an illegal retreat, then a legal order
    eml = tmp_path / "10-entente-illegal.eml"
    eml.write_bytes(illegal)
    before = journal.read_bytes()
    by_id, written = inbox(cli, journal, mbox, eml, outbox=tmp_path / "out4")
    o = only(by_id, ILLEGAL_ID)
    n = line_of(illegal, "retreat be-i-01 paris")
    assert n == 3
    assert o["status"] == "rejected" and o["records"] == []
    # The moderator's reason counts it among the orders, as the player's reply does.
    assert "line 1 ('retreat be-i-01 paris')" in o["reason"] and "(rule 5.4.1)" in \
        o["reason"], o["reason"]
    assert journal.read_bytes() == before                 # 'done' not applied either
    reports, replies = sort_mails(written)
    assert list(replies) == [ILLEGAL_ID]
    # One mail answers it: why, and his decision once more (no second 'nothing new' report).
    assert reports == {}                                  # nothing new for the German either
    body = check_not_applied(replies[ILLEGAL_ID], "entente", ILLEGAL_ID, journal)
    # Counted among his orders, not in the whole message (its greeting, a quoted mail).
    assert "line 1 of your orders failed" in body and "retreat be-i-01 paris" in body
    assert "(rule " in body and "Applied: nothing" in body

    # ---- every run again, and the whole mailbox at once: nothing changes, nothing is sent
    write_mbox(mbox, [*day1, qp, alternative, stale, illegal])
    ledger = sorted((p, p.read_bytes()) for p in Path(os.environ["REFEREE_HOME"]).rglob(
        "*.ledger"))
    for i, sources in enumerate([(empty,), (maildir,), (mbox,), (mbox, eml), (mbox, maildir, eml)]):
        by_id, written = inbox(cli, journal, *sources, outbox=tmp_path / f"again{i}")
        assert written == [], [read_mail(p)["Subject"] for p in written]
        assert {o["status"] for v in by_id.values() for o in v} <= {"known"}, by_id
        assert journal.read_bytes() == before
    assert sorted((p, p.read_bytes()) for p in Path(os.environ["REFEREE_HOME"]).rglob(
        "*.ledger")) == ledger

    # ---- verify: the dice again, and a receipt from a mail
    r = cli("verify", journal, "--secret", tmp_path / "fixed.secret")
    assert r.exit_code == 0 and "verify: OK" in r.stdout, r.output
    for receipt in receipts.values():
        r = cli("verify", journal, "--receipt", receipt)
        assert r.exit_code == 0 and "verify: OK" in r.stdout, r.output
    cut = tmp_path / "cut.jsonl"
    seq = int(receipts["german-8"].split(":")[0])
    cut.write_bytes(b"".join(journal.read_bytes().splitlines(keepends=True)[:seq]))
    r = cli("verify", cut, "--receipt", receipts["german-8"])
    assert r.exit_code == 3, r.output
    assert r.stderr.startswith("referee: ")

    # ---- what the players and the public see keeps no address, Message-ID, digest or key
    r = cli("log", journal, "--as", "moderator", "--format", "json")
    assert ORDERS_ID in r.stdout and ADDRESSES["entente"] in r.stdout   # (the moderator's do)
    for reader in ("german", "entente", "public"):
        r = cli("log", journal, "--as", reader, "--format", "json")
        assert r.exit_code == 0, r.output
        assert len(r.stdout.splitlines()) == 11
        assert "@" not in r.stdout
        # (Signatures and the header's public key are base64 of random-looking bytes: a
        # short id, such as x1, may turn up in one.)
        shown = re.sub(r'"(sig|public)":"[^"]*"', "", r.stdout)
        for mid in ALL_IDS:
            assert mid.strip("<>").split("@")[0] not in shown, (reader, mid)
        for raw_msg in raw.values():
            assert sha(raw_msg) not in r.stdout
        for key in KEYS.values():
            assert key not in r.stdout


def test_exit_codes_for_an_unreadable_mailbox(tmp_path, cli):
    """A missing path or a folder that is not a Maildir, typed on the command line: a usage
    error, exit 2 (as `new --mail-in` gives it), one line, nothing written."""
    secret = tmp_path / "fixed.secret"
    write_secret(secret, SECRET)
    journal = tmp_path / "g.jsonl"
    assert cli("new", journal, "--scenario", "1914", "--game-id", GAME, "--secret-file", secret,
               "--player", f"german={ADDRESSES['german']}").exit_code == 0
    before = journal.read_bytes()
    notmaildir = tmp_path / "folder"
    notmaildir.mkdir()
    for bad in (tmp_path / "missing.mbox", notmaildir):
        r = cli("inbox", journal, bad, "--outbox", tmp_path / "out")
        assert r.exit_code == 2, r.output
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("referee: ") and str(bad) in lines[0]
    assert journal.read_bytes() == before
    assert not (tmp_path / "out").exists()


def test_a_byte_identical_copy_without_message_id_is_applied_once(tmp_path, cli):
    """Two deliveries of one message without a Message-ID in one mailbox: applied once.

    The German's 'done' answers two decisions in a row here (declare battles, then his combat
    cards), so a second application of the same message would be legal — and wrong."""
    journal = new_mail_game(tmp_path, cli)
    r = cli("order", journal, "--as", "german", "play offensive", "move ge-1 liege",
            "end movement")
    assert r.exit_code == 0, r.output
    raw = (f"From: kaiser@example.org\nTo: umpire@example.com\n"
           f"Subject: Re: [referee {GAME} #5] german report\n"
           f"Date: Sat, 01 Aug 1914 11:00:00 +0100\n\ndone\n\n"
           f"Order key: {KEYS['german']}\n").encode()
    mbox = write_mbox(tmp_path / "box.mbox", [raw, raw])
    before = len(records(journal))
    r = cli("inbox", journal, mbox, "--outbox", tmp_path / "out", "--format", "json")
    assert r.exit_code == 0, r.output
    statuses = [m["status"] for m in json.loads(r.stdout)["messages"]]
    assert statuses.count("applied") == 1, statuses
    assert len(records(journal)) == before + 1


def test_a_second_copy_of_a_message_not_applied_is_skipped(tmp_path, cli):
    """A second copy of a message (same Message-ID, one more header: delivered another way)
    is skipped, also when the first copy was rejected: it is the same message, and its orders
    must not be applied later because they have become legal in the meantime."""
    journal = new_mail_game(tmp_path, cli)
    r = cli("order", journal, "--as", "german", "play offensive", "move ge-1 liege",
            "end movement", "done", "done", "done")
    assert r.exit_code == 0, r.output
    early = (f"From: kaiser@example.org\nTo: umpire@example.com\nSubject: my orders\n"
             f"Message-ID: <early@example.org>\nDate: Sat, 01 Aug 1914 11:00:00 +0100\n\n"
             f"done\n\nOrder key: {KEYS['german']}\n").encode()
    first = write_mbox(tmp_path / "first.mbox", [early])
    r = cli("inbox", journal, first, "--outbox", tmp_path / "out1", "--format", "json")
    assert r.exit_code == 0, r.output
    assert [m["status"] for m in json.loads(r.stdout)["messages"]] == ["rejected"]  # not his turn
    r = cli("order", journal, "--as", "entente", "lose fort-liege", "lose fort-liege", "done",
            "lose fort-liege")
    assert r.exit_code == 0, r.output                                    # now it is
    before = journal.read_bytes()
    again = write_mbox(tmp_path / "again.mbox", [b"Delivered-To: umpire@example.com\n" + early])
    r = cli("inbox", journal, again, "--outbox", tmp_path / "out2", "--format", "json")
    assert r.exit_code == 0, r.output
    (outcome,) = json.loads(r.stdout)["messages"]
    assert outcome["status"] == "skipped", outcome
    assert journal.read_bytes() == before


def test_text_lists_only_what_this_run_did(tmp_path, cli):
    """The mailbox keeps every message: a second run prints no line for a message an earlier
    run handled, only how many there were; JSON lists them all, each marked new or not."""
    journal = new_mail_game(tmp_path, cli)
    stranger = (b"From: spy@bureau.example\nTo: umpire@example.com\nSubject: hello\n"
                b"Message-ID: <spy.1@bureau.example>\nDate: Sat, 01 Aug 1914 10:00:00 +0100\n\n"
                b"pass\n")
    orders = (f"From: kaiser@example.org\nTo: umpire@example.com\nSubject: my orders\n"
              f"Message-ID: <first@example.org>\nDate: Sat, 01 Aug 1914 11:00:00 +0100\n\n"
              f"play offensive\n\nOrder key: {KEYS['german']}\n").encode()
    mbox = write_mbox(tmp_path / "box.mbox", [stranger])
    r = cli("inbox", journal, mbox, "--outbox", tmp_path / "out1")
    assert r.exit_code == 0, r.output
    assert r.stdout.splitlines()[0].startswith("rejected ")
    assert r.stdout.splitlines()[-1] == "1 message handled; 3 mails in the outbox"
    write_mbox(mbox, [stranger, orders])
    r = cli("inbox", journal, mbox, "--outbox", tmp_path / "out2")
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert [x.split()[0] for x in lines] == ["applied", "outbox", "outbox", "1"], lines
    assert "spy@bureau.example" not in r.stdout
    assert lines[-1] == ("1 message handled; 1 older message already handled; "
                         "2 mails in the outbox")
    r = cli("inbox", journal, mbox, "--outbox", tmp_path / "out3", "--format", "json")
    assert r.exit_code == 0, r.output
    assert [(m["status"], m["new"]) for m in json.loads(r.stdout)["messages"]] == \
        [("known", False), ("known", False)]
    r = cli("inbox", journal, mbox, "--outbox", tmp_path / "out4")
    assert r.stdout == ("0 messages handled; 2 older messages already handled; "
                        "0 mails in the outbox\n")


def test_a_refusal_says_which_check_failed_and_nothing_of_the_game(tmp_path, cli, data):
    """A mail matched to no player is answered with the check it failed: an address no
    player registered, a player's address without his key, or with a key that is not his.
    The answer goes to the address the mail came from, so a forged From's answer reaches
    the address's owner; it names nothing of the game. A mail from the address the
    referee's own mails come from (the moderator's) is neither read nor answered."""
    journal = new_mail_game(tmp_path, cli)
    before = journal.read_bytes()

    def sent(n: int, sender: str, key_line: str) -> bytes:
        return (f"From: {sender}\nTo: umpire@example.com\nSubject: orders\n"
                f"Message-ID: <check{n}@example.org>\nDate: Sat, 01 Aug 1914 1{n}:00:00 +0100"
                f"\n\nplay offensive\n\n{key_line}\n").encode()

    cases = {
        "<check1@example.org>": (sent(1, "spy@example.net", f"Order key: {KEYS['german']}"),
                                 "its sender's address is not one a player of this game "
                                 "registered (a player who has a new address writes from "
                                 "the one the moderator has, or asks him to register the "
                                 "new one)"),
        "<check3@example.org>": (sent(3, ADDRESSES["german"], "Greetings"),
                                 "it carries no order key"),
        "<check4@example.org>": (sent(4, ADDRESSES["german"], f"Order key: {KEYS['entente']}"),
                                 "the order key in it is not the one for its sender's address"),
    }
    box = write_mbox(tmp_path / "box.mbox", [raw for raw, _ in cases.values()])
    by_id, written = inbox(cli, journal, box, outbox=tmp_path / "out")
    assert journal.read_bytes() == before
    replies = {str(read_mail(p)["In-Reply-To"]): read_mail(p) for p in written
               if read_mail(p)["In-Reply-To"]}
    own = sent(2, ADDRESSES["moderator"], "")
    mine, _ = inbox(cli, journal, write_mbox(tmp_path / "own.mbox", [own]),
                    outbox=tmp_path / "out-own")
    assert only(mine, "<check2@example.org>")["status"] == "skipped"
    assert not list((tmp_path / "out-own").glob("*.eml"))
    for mid, (_, why) in cases.items():
        out = only(by_id, mid)
        assert out["status"] == "rejected" and why in out["reason"], out
        mail = replies[mid]
        assert why in " ".join(mail.get_content().split()), mail.get_content()
        check_no_game_content(mail, str(mail["To"]), mid, data)


def test_a_player_registered_with_the_moderator_s_address_is_a_player(tmp_path, cli):
    """The referee never reads as a player's the mail from the address its own mails come
    from, but a side registered with that very address is a player: his mail is his."""
    secret = tmp_path / "fixed.secret"
    write_secret(secret, SECRET)
    journal = tmp_path / "g.jsonl"
    shared = ADDRESSES["moderator"]
    assert cli("new", journal, "--scenario", "1914", "--game-id", GAME, "--secret-file", secret,
               "--player", f"german={shared}", "--player", f"entente={ADDRESSES['entente']}",
               "--player", f"moderator={shared}").exit_code == 0
    raw = (f"From: {shared}\nTo: {shared}\nSubject: orders\nMessage-ID: <own1@example.org>\n"
           f"Date: Sat, 01 Aug 1914 11:00:00 +0100\n\npass\n\nOrder key: {KEYS['german']}\n"
           ).encode()
    by_id, _ = inbox(cli, journal, write_mbox(tmp_path / "box.mbox", [raw]),
                     outbox=tmp_path / "out")
    assert only(by_id, "<own1@example.org>")["status"] == "applied"


@pytest.mark.parametrize("body,says", [
    ("play offensive\n\nThanks for the verification, forgot my key\n", "carries no order key"),
    ("play offensive\n", "carries no order key"),
    ("play offensive\n\nOrder key: 7SBM-7P19-Q342\n", "not the one for its sender"),
    ("play offensive\n" + " \n" * 120_000, "carries no order key"),
])
def test_which_key_check_failed_is_read_from_the_body_alone(tmp_path, cli, body, says):
    """A key is told wrong only when the body holds one (its alphabet, three groups of
    four) or an 'Order key:' line: never from a Message-ID's digits or a long word; and the
    body is read in one pass, however many blank lines it holds."""
    import email.utils

    journal = new_mail_game(tmp_path, cli)
    mid = email.utils.make_msgid(domain="potsdam.example.org")
    raw = (f"From: {ADDRESSES['german']}\nTo: umpire@example.com\nSubject: orders\n"
           f"Message-ID: {mid}\nDate: Sat, 01 Aug 1914 11:00:00 +0100\n\n{body}").encode()
    by_id, _ = inbox(cli, journal, write_mbox(tmp_path / "box.mbox", [raw]),
                     outbox=tmp_path / "out")
    out = only(by_id, mid)
    assert out["status"] == "rejected" and says in out["reason"], out


def test_a_mail_pass_keeps_no_views_and_status_after_it_reads_the_same(tmp_path, cli):
    """The reports a pass mails show views of the game as it stands after the message; the
    next message moves the journal on, so the pass keeps none of them (each would cost a
    file). `status` after the pass makes its own, and prints what it prints from a
    journal no pass has read."""
    journal = new_mail_game(tmp_path, cli)
    raw = (f"From: kaiser@example.org\nTo: umpire@example.com\n"
           f"Subject: Re: [referee {GAME} #1] german report\n"
           f"Date: Sat, 01 Aug 1914 11:00:00 +0100\n\nplay offensive\n\n"
           f"Order key: {KEYS['german']}\n").encode()
    before = len(records(journal))
    r = cli("inbox", journal, write_mbox(tmp_path / "box.mbox", [raw]), "--outbox",
            tmp_path / "out", "--format", "json")
    assert r.exit_code == 0, r.output
    assert len(records(journal)) == before + 1 and list((tmp_path / "out").glob("*.eml"))
    views = home.cache_dir("snapshots")
    assert not [p.name for p in views.glob("*.view")]
    copy = tmp_path / "copy" / "g.jsonl"      # the same bytes, read by nothing yet
    copy.parent.mkdir()
    copy.write_bytes(journal.read_bytes())
    copy.chmod(0o600)                         # private as the journal: no warning on it
    for side in ("german", "entente"):
        once = cli("status", journal, "--as", side, "--format", "json")
        assert once.exit_code == 0, once.output
        assert [p.name for p in views.glob("*status*.view")]
        fresh = cli("status", copy, "--as", side, "--format", "json")
        assert once.stdout.replace(str(journal), "") == fresh.stdout.replace(str(copy), "")
