"""Observers: addresses that are sent the public report after every hand-off and never order.

Registered with `new --player observer=ADDRESS` (as many as fifty), added with `players --set
observer=ADDRESS` and removed with `players --drop-observer ADDRESS`, each a roster record of the
moderator. The mail goes through `inbox` as the moderator runs it (a Maildir in, an outbox of
.eml files out), as in tests/test_inbox.py: the game is made with a fixed secret and game id.
"""

from __future__ import annotations

import email
import email.policy
import json
import re
from pathlib import Path

import pytest
from flowtext import written
from forging import resign
from mailboxes import write_maildir
from mailkinds import first_line, headline, report_title
from pydantic import TypeAdapter
from test_hostile_mail import too_wide

import gamecalls as g
from referee.base.flowing import FLOWED
from referee.contracts.results import PlayersView
from referee.store.dice import write_secret
from referee.store.journal import canonical

GAME = "watched"
SECRET = bytes.fromhex("5e" * 32)
ADDRESSES = {"german": "Kaiser@Example.org", "entente": "joffre@example.net",
             "moderator": "umpire@example.com"}
OBSERVERS = ["press@example.org", "Club@Example.com"]
DATE = "Sat, 01 Aug 1914 {:02d}:00:00 +0100"


# ---------------------------------------------------------------- helpers

def new_game(cli, folder: Path, observers: list[str] = OBSERVERS, **addresses) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    secret = folder / "fixed.secret"
    write_secret(secret, SECRET)
    journal = folder / "g.jsonl"
    items = [f"{side}={addr}" for side, addr in (addresses or ADDRESSES).items()] + \
        [f"observer={a}" for a in observers]
    r = cli("new", journal, "--scenario", "1914", "--game-id", GAME, "--secret-file", secret,
            *[a for item in items for a in ("--player", item)])
    assert r.exit_code == 0, r.output
    return journal


def listed(cli, journal: Path) -> dict:
    r = cli("players", journal, "--keys", "--format", "json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    TypeAdapter(PlayersView).validate_json(r.stdout, strict=True)
    return doc


def keys(cli, journal: Path) -> dict[str, str]:
    return {p["side"]: p["key"] for p in listed(cli, journal)["players"] if p.get("key")}


def records(journal: Path) -> list[dict]:
    return [json.loads(line) for line in journal.read_text(encoding="utf-8").splitlines()]


def message(frm: str, body: str, n: int, subject: str = "orders") -> bytes:
    return (f"From: {frm}\nTo: {ADDRESSES['moderator']}\nSubject: {subject}\n"
            f"Date: {DATE.format(8 + n)}\nMessage-ID: <m{n}@example.org>\nMIME-Version: 1.0\n"
            f"Content-Type: text/plain; charset=utf-8\n\n{body}\n").encode()


def inbox(cli, journal: Path, box: Path, outbox: Path) -> tuple[list[dict], list]:
    r = cli("inbox", journal, box, "--outbox", outbox, "--format", "json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    mails = [email.message_from_bytes(Path(p).read_bytes(), policy=email.policy.default)
             for p in doc["outbox"]]
    return doc["messages"], mails


def to(mails: list, address: str) -> list:
    return [m for m in mails if str(m["To"]).casefold() == address.casefold()]


def lines(text: str) -> list[str]:
    """A text's lines without their indents: a mail sends a line that goes on after a soft
    break flush left (mail/flowed.py), where the report printed indents it."""
    return [line.strip() for line in text.split("\n")]


def public_report(cli, journal: Path, since: int) -> str:
    """The public report as a mail lays it out (a line begun by a space a column shorter,
    for the space a flowed mail stuffs it with), read as written: no soft break's space."""
    token = FLOWED.set(True)
    try:
        r = cli("report", journal, "--as", "public", "--since", str(since))
    finally:
        FLOWED.reset(token)
    assert r.exit_code == 0, r.output
    return "\n".join(ln.rstrip() for ln in r.stdout.rstrip("\n").split("\n"))


def refused(r, journal: Path, before: bytes, words: str) -> None:
    """A usage error in one line naming what is wrong; the journal as it was."""
    assert r.exit_code == 2, r.output
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("referee: ") and words in lines[0], r.stderr
    assert journal.read_bytes() == before


# ---------------------------------------------------------------- registering

def test_observers_of_new_are_listed_in_text_and_json(tmp_path, cli):
    journal = new_game(cli, tmp_path / "g")
    doc = listed(cli, journal)
    assert doc["observers"] == OBSERVERS
    assert {p["side"] for p in doc["players"]} == {"german", "entente", "moderator"}
    text = cli("players", journal).stdout.splitlines()
    assert [line.split() for line in text if line.startswith("observer")] == \
        [["observer", a] for a in OBSERVERS]
    roster = [r for r in records(journal) if r.get("order") == "register players"]
    assert len(roster) == 1 and roster[0]["actor"] == "moderator"
    assert roster[0]["players"]["to"] == "moderator"            # the moderator's part only
    assert roster[0]["players"]["data"]["observers"] == OBSERVERS
    for reader in ("german", "entente", "public"):
        out = cli("log", journal, "--as", reader, "--format", "json").stdout
        assert not any(a.casefold() in out.casefold() for a in OBSERVERS), reader
    assert cli("verify", journal).exit_code == 0


def test_a_roster_without_observers_is_written_and_read_as_before(tmp_path, cli):
    journal = new_game(cli, tmp_path / "g", observers=[])
    roster = next(r for r in records(journal) if r.get("order") == "register players")
    # No key a game without observers never had (mail_entropy: dice mix in mail digests).
    assert set(roster["players"]["data"]) == {"players", "mail_entropy"}
    assert listed(cli, journal)["observers"] == []
    assert "observer" not in cli("players", journal).stdout
    assert cli("verify", journal).exit_code == 0


def test_an_observer_is_added_and_dropped_by_a_roster_record_each(tmp_path, cli):
    journal = new_game(cli, tmp_path / "g", observers=["press@example.org"])
    before = records(journal)
    r = cli("players", journal, "--set", "observer=club@example.com")
    assert r.exit_code == 0, r.output
    after = records(journal)
    assert len(after) == len(before) + 1 and after[:-1] == before
    added = after[-1]
    assert (added["actor"], added["order"], added["events"]) == ("moderator",
                                                                 "register players", [])
    assert added["prev"] == before[-1]["hash"]                 # chained like every record
    assert listed(cli, journal)["observers"] == ["press@example.org", "club@example.com"]
    r = cli("players", journal, "--drop-observer", "PRESS@example.org")
    assert r.exit_code == 0, r.output
    assert len(records(journal)) == len(after) + 1
    assert listed(cli, journal)["observers"] == ["club@example.com"]
    # The players' keys and addresses are untouched by either record.
    assert {p["side"]: p["address"] for p in listed(cli, journal)["players"]} == ADDRESSES
    assert cli("verify", journal).exit_code == 0


def test_an_address_of_a_player_cannot_be_an_observer(tmp_path, cli):
    secret = tmp_path / "s.secret"
    write_secret(secret, SECRET)
    target = tmp_path / "n.jsonl"
    r = cli("new", target, "--scenario", "1914", "--secret-file", secret,
            "--player", "german=kaiser@example.org", "--player", "observer=KAISER@example.org")
    assert r.exit_code == 2 and not target.exists(), r.output
    assert r.stderr.count("\n") == 1 and "cannot also be an observer" in r.stderr
    journal = new_game(cli, tmp_path / "g")
    before = journal.read_bytes()
    refused(cli("players", journal, "--set", "observer=joffre@EXAMPLE.net"), journal, before,
            "cannot also be an observer")
    refused(cli("players", journal, "--set", "entente=press@example.org"), journal, before,
            "observer press@example.org is the entente player's address too: a player cannot "
            "also be an observer")


@pytest.mark.parametrize("args, words", [
    (["--set", "observer=press@example.org"], "already an observer"),
    (["--set", "observer=new@example.org", "--set", "observer=NEW@example.org"], "twice"),
    (["--set", "observer=new@example.org\nBcc: all@example.org"], "not an email address"),
    (["--set", "observer=<new@example.org>"], "not an email address"),
    (["--set", "observer=new@example.org, other@example.org"], "not an email address"),
    (["--set", "observer="], "not an email address"),
    (["--set", "observer=" + "a" * 250 + "@example.org"], "not an email address"),
    (["--drop-observer", "nobody@example.org"], "not an observer of this game"),
    (["--set", "observers=new@example.org"], "observer"),
])
def test_a_bad_observer_is_refused_and_nothing_written(tmp_path, cli, args, words):
    journal = new_game(cli, tmp_path / "g")
    refused(cli("players", journal, *args), journal, journal.read_bytes(), words)


def test_at_most_fifty_observers(tmp_path, cli):
    fifty = [f"reader{i}@example.org" for i in range(50)]
    secret = tmp_path / "s.secret"
    write_secret(secret, SECRET)
    target = tmp_path / "n.jsonl"
    r = cli("new", target, "--scenario", "1914", "--secret-file", secret,
            *[a for x in [*fifty, "one.more@example.org"] for a in ("--player", f"observer={x}")])
    assert r.exit_code == 2 and not target.exists() and "at most 50" in r.stderr, r.output
    journal = new_game(cli, tmp_path / "g", observers=fifty)
    assert len(listed(cli, journal)["observers"]) == 50
    refused(cli("players", journal, "--set", "observer=one.more@example.org"), journal,
            journal.read_bytes(), "at most 50")
    # Dropping one makes room for another in the same record.
    r = cli("players", journal, "--drop-observer", fifty[0], "--set",
            "observer=one.more@example.org")
    assert r.exit_code == 0, r.output
    assert listed(cli, journal)["observers"] == [*fifty[1:], "one.more@example.org"]


def _rewrite_roster(journal: Path, edit) -> None:
    """Edit the roster record's data and chain the journal again (a hand-edited file)."""
    out, prev = [], None
    for rec in records(journal):
        if rec.get("order") == "register players":
            edit(rec["players"]["data"])
        rec.pop("hash", None)
        rec["prev"] = prev
        rec = resign(rec)
        prev = rec["hash"]
        out.append(rec)
    journal.write_bytes(b"".join(canonical(r) + b"\n" for r in out))


@pytest.mark.parametrize("edit", [
    lambda d: d.update(observers=["kaiser@example.org"]),           # a side's address
    lambda d: d.update(observers=["x@example.org", "X@example.org"]),
    lambda d: d.update(observers=["not an address"]),
    lambda d: d.update(observers=[f"r{i}@example.org" for i in range(51)]),
    lambda d: d.update(observers="press@example.org"),
], ids=["player", "twice", "address", "fifty-one", "not-a-list"])
def test_verify_refuses_a_hand_edited_roster_of_observers(tmp_path, cli, edit):
    journal = new_game(cli, tmp_path / "g")
    _rewrite_roster(journal, edit)
    r = cli("verify", journal)
    assert r.exit_code == 3 and "record 2" in r.stderr, r.output


# ---------------------------------------------------------------- the public report

def test_observers_get_the_public_report_after_each_hand_off_and_only_then(tmp_path, cli):
    journal = new_game(cli, tmp_path / "g")
    key = keys(cli, journal)
    state = g.open_game(journal).state
    hands = [c for side in ("german", "entente") for c in state.hands[side]]
    titles = [g.open_game(journal).data.cards[c].title for c in hands]
    secrets = [*key.values(), *(k.replace("-", "") for k in key.values()),
               ADDRESSES["german"], ADDRESSES["entente"]]

    def check(mail, address: str, since: int) -> str:
        assert str(mail["To"]) == address and str(mail["From"]) == ADDRESSES["moderator"]
        # Its thread (the game, the public, the season: a Gmail conversation), and what it
        # is by its first line.
        season = g.open_game(journal).data.label(g.open_game(journal).state.turn)
        assert str(mail["Subject"]) == f"[referee {GAME}] public, {season}", mail["Subject"]
        assert "report for the public" in report_title(mail)
        # Above the report, what the game waits on now, in its own words (2.0).
        body = written(mail.get_content())
        lead, _, report = body.partition("\n\n")
        assert first_line(mail).startswith("Waiting on the "), first_line(mail)
        assert " ".join(lead.split()) in " ".join(report.split()), lead
        # The mail's receipt signed by the game's key, as `report` does not sign it.
        unsigned = re.sub(r"\nSigned:\n  \S{64}\n  \S{64}\n  \S{44}\n", "\n", report)
        assert lines(unsigned.rstrip("\n")) == lines(public_report(cli, journal, since))
        raw = mail.as_string()
        assert "Order key" not in raw and "Your hand" not in body
        for secret in [*secrets, *(a for a in OBSERVERS if a != address)]:
            assert secret.casefold() not in raw.casefold(), secret
        return body

    # The opening: every player and every observer is owed a mail.
    empty = write_maildir(tmp_path / "empty", [])
    _, mails = inbox(cli, journal, empty, tmp_path / "out0")
    assert len(mails) == 4
    for address in OBSERVERS:
        [mail] = to(mails, address)
        body = check(mail, address, 0)
        for card, title in zip(hands, titles, strict=True):
            assert not re.search(rf"(?<![\w-]){re.escape(card)}(?![\w-])", body), card
            assert not re.search(rf"(?<![\w-]){re.escape(title)}(?![\w-])", body), title
    # Nothing new: nobody is sent anything.
    assert inbox(cli, journal, empty, tmp_path / "out1")[1] == []
    # The German's orders move the journal: each observer is sent what happened since.
    box = write_maildir(tmp_path / "day1", [message(
        ADDRESSES["german"], f"pass\nend turn\n\nOrder key: {key['german']}", 1)])
    out, mails = inbox(cli, journal, box, tmp_path / "out2")
    assert out[0]["status"] == "applied", out
    for address in OBSERVERS:
        [mail] = to(mails, address)
        body = check(mail, address, 2)
        assert "#3 German: pass" in body and "#1 " not in body
    # A rejected message moves nothing: its writer is answered, the observers sent nothing.
    box = write_maildir(tmp_path / "day2", [message(
        ADDRESSES["entente"], f"move fr-1 berlin\n\nOrder key: {key['entente']}", 2)])
    before = journal.read_bytes()
    out, mails = inbox(cli, journal, box, tmp_path / "out3")
    assert out[0]["status"] == "rejected" and journal.read_bytes() == before
    assert to(mails, ADDRESSES["entente"]) and not any(to(mails, a) for a in OBSERVERS)


def test_an_observer_added_later_is_sent_the_game_from_its_start_and_a_dropped_one_nothing(
        tmp_path, cli):
    journal = new_game(cli, tmp_path / "g", observers=["press@example.org"])
    empty = write_maildir(tmp_path / "empty", [])
    inbox(cli, journal, empty, tmp_path / "out0")
    assert cli("players", journal, "--drop-observer", "press@example.org",
               "--set", "observer=late@example.org").exit_code == 0
    _, mails = inbox(cli, journal, empty, tmp_path / "out1")
    assert not to(mails, "press@example.org")
    [mail] = to(mails, "late@example.org")
    body = re.sub(r"\nSigned:\n  \S{64}\n  \S{64}\n  \S{44}\n", "\n", written(mail.get_content()))
    assert lines(body.rstrip("\n").partition("\n\n")[2]) == \
        lines(public_report(cli, journal, 0))


# ---------------------------------------------------------------- observers never order

def _bodies(key: dict[str, str]) -> list[tuple[str, str]]:
    """(subject, body) of messages an observer might send: plain orders, orders with a side's
    key (learnt somehow), a reply to his report, nothing at all."""
    return [
        ("orders", "pass\nend turn"),
        ("orders", f"pass\nend turn\n\nOrder key: {key['german']}"),
        (f"Re: [referee {GAME} #2] public report, SUMMER 1914",
         f"pass\n\nOrder key: {key['entente']}\n{key['german']}"),
        ("hello", ""),
    ]


@pytest.mark.parametrize("case", range(4))
@pytest.mark.parametrize("sender", ["press@example.org", "PRESS@EXAMPLE.ORG"])
def test_a_mail_from_an_observer_applies_nothing(tmp_path, cli, data, case, sender):
    journal = new_game(cli, tmp_path / "g")
    subject, body = _bodies(keys(cli, journal))[case]
    before = journal.read_bytes()
    box = write_maildir(tmp_path / "box", [message(sender, body, 1, subject)])
    out, mails = inbox(cli, journal, box, tmp_path / "out0")
    assert journal.read_bytes() == before
    assert [(m["status"], m["side"], m["records"]) for m in out] == [("rejected", None, [])]
    assert "observers cannot give orders" in out[0]["reason"]
    [reply] = [m for m in to(mails, sender) if "report for the public" not in headline(m)]
    # In the conversation of his public reports: their subject, and the game's thread.
    [report] = [m for m in to(mails, sender) if "report for the public" in headline(m)]
    assert str(reply["Subject"]) == str(report["Subject"])
    assert str(reply["Subject"]).startswith("[referee "), reply["Subject"]
    assert reply["References"].split()[0] == report["References"].split()[0]
    assert reply["In-Reply-To"] == "<m1@example.org>"
    text = f"{reply['Subject']}\n{written(reply.get_content())}"
    # Nothing of his own message is echoed (case 2's subject names a record).
    assert "cannot give orders" in text and "#2" not in reply.as_string()
    # An observer writing in may want no more of these mails: he is told whom to ask.
    assert "ask the game's moderator to remove this address" in " ".join(text.split())
    assert not too_wide(reply), too_wide(reply)           # read on a phone, as every mail
    words = {a.name for a in data.areas.values()} | {c.title for c in data.cards.values()}
    assert not [w for w in words if re.search(rf"(?i)(?<!\w){re.escape(w)}(?!\w)", text)]
    assert "Order key" not in text and "Receipt" not in text
    # Once answered, never again; and still nothing applied.
    out, mails = inbox(cli, journal, box, tmp_path / "out1")
    assert [m["new"] for m in out] == [False] and mails == []
    assert journal.read_bytes() == before


def test_a_message_of_an_observer_about_another_game_is_left_to_that_game(tmp_path, cli):
    journal = new_game(cli, tmp_path / "g")
    box = write_maildir(tmp_path / "box", [message(
        "press@example.org", "pass", 1, "Re: [referee elsewhere #4] public report")])
    before = journal.read_bytes()
    out, mails = inbox(cli, journal, box, tmp_path / "out0")
    assert out[0]["status"] == "skipped" and "another game" in out[0]["reason"]
    assert not [m for m in to(mails, "press@example.org")
                if "report for the public" not in headline(m)]
    assert journal.read_bytes() == before


def test_a_roster_record_says_what_changed_and_names_no_address(tmp_path, cli):
    """A change of a player's address or of the observers was '#N Moderator: register
    players' with nothing under it in every report and log. Each reader (a side, the
    public) reads what changed, never an address: an address is its owner's and the
    moderator's alone."""
    journal = new_game(cli, tmp_path / "g", observers=["press@example.org"])
    since = len(records(journal)) - 1
    new_address = "joffre.new@example.net"
    for change in (["--set", f"entente={new_address}"], ["--set", "observer=club@example.com"],
                   ["--drop-observer", "press@example.org"],
                   ["--set", "moderator=umpire.new@example.net"], ["--new-key", "german"]):
        r = cli("players", journal, *change)
        assert r.exit_code == 0, r.output
    # Read as a sentence a person writes: a side's player is 'the Entente player' as every
    # report names him, and the moderator changing his own address is 'his own'.
    news = ["the moderator changed the Entente player's address", "an observer joined the game",
            "an observer left the game", "the moderator changed his own address",
            "the German player has a new order key (the old one no longer counts)"]
    secret = [new_address, "club@example.com", "press@example.org", "umpire.new@example.net",
              *ADDRESSES.values()]
    for reader in ("german", "entente", "public"):
        for command in (("log", journal, "--as", reader, "--since", str(since)),
                        ("report", journal, "--as", reader, "--since", str(since),
                         "--keep-place")):
            r = cli(*command)
            assert r.exit_code == 0, r.output
            text = " ".join(r.stdout.split())
            assert all(n in text for n in news), (command, r.stdout)
            assert "the moderator's own" not in text and "changed the moderator" not in text
            assert not [a for a in secret if a.lower() in r.stdout.lower()], r.stdout
        r = cli("log", journal, "--as", reader, "--since", str(since), "--format", "json")
        assert not [a for a in secret if a.lower() in r.stdout.lower()], r.stdout


def test_an_observer_is_answered_within_the_days_quota_of_a_registered_address(tmp_path, cli):
    # Anyone can write an observer's From: the answers to that address are bounded, as those
    # to any address registered in the game, and none is applied.
    from referee.mail.ledger import REGISTERED_PER_DAY

    journal = new_game(cli, tmp_path / "g")
    key = keys(cli, journal)
    inbox(cli, journal, write_maildir(tmp_path / "empty", []), tmp_path / "out0")
    before = journal.read_bytes()
    many = REGISTERED_PER_DAY + 3
    box = write_maildir(tmp_path / "box", [
        message("press@example.org", f"unsubscribe {n}\n\nOrder key: {key['german']}", n)
        for n in range(1, many + 1)])
    out, mails = inbox(cli, journal, box, tmp_path / "out1")
    assert journal.read_bytes() == before
    assert [m["status"] for m in out] == ["rejected"] * many
    assert len(to(mails, "press@example.org")) == REGISTERED_PER_DAY
    assert len([m for m in out if "no reply" in m["reason"]]) == many - REGISTERED_PER_DAY


def test_an_observers_report_says_by_when_the_side_waited_on_must_answer(tmp_path, cli, clock):
    # The public is told whom the game waits on and by when, as `status --as public` tells it
    # (a player is told his own deadline only: tests/test_deadlines.py).
    journal = new_game(cli, tmp_path / "g")
    assert cli("deadline", journal, "--set", "48h").exit_code == 0
    due = "German: Orders due by Wed 25 Nov 18:00 UTC."
    assert due in cli("status", journal, "--as", "public").stdout
    _, mails = inbox(cli, journal, write_maildir(tmp_path / "empty", []), tmp_path / "out0")
    for reader in OBSERVERS:
        [mail] = to(mails, reader)
        now = written(mail.get_content()).partition("\nNow\n---\n")[2]
        assert due in " ".join(now.split()), now
    for fmt in ("text", "markdown", "bbcode", "chat"):
        r = cli("report", journal, "--as", "public", "--format", fmt, "--keep-place")
        assert "Orders due by Wed 25 Nov 18:00 UTC" in " ".join(r.stdout.split()), fmt
