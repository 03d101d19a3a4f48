"""Hostile mail for `referee inbox`: whatever arrives in the mailbox, a stable exit and no harm.

Every message and every mailbox file is hostile. The rules under test:

- `inbox` exits 0 when every message was handled (applied, rejected, skipped, ...) and 3 when
  a mailbox or the outbox cannot be used (one line on stderr, "referee: ..."); never exit 4,
  never a traceback, never a hang;
- a message that fails any check appends nothing to the journal;
- a registered player whose message is not applied is told so (a reply to his registered
  address); a stranger's reply holds no area, unit, card, key or game tag; no mail goes to an
  empty or malformed address;
- the ledger (messages handled but not applied) only ever causes re-handling: never a wrong
  application, never a crash.

The game is made as in tests/test_inbox.py: game id `mailtest`, a fixed dice secret (so the
order keys are known), the German at Kaiser@Example.org, the Entente at joffre@example.net,
the moderator at umpire@example.com.
"""

from __future__ import annotations

import email
import email.policy
import json
import os
import re
import stat
import time
from pathlib import Path

import pytest
from flowtext import written
from forging import fixed_key
from mailboxes import write_maildir
from mailkinds import first_line, headline, report_title
from sharedgames import kept

from doors import console
from referee.store.dice import write_secret

GAME = "mailtest"
SECRET = bytes.fromhex("5e" * 32)
ADDRESSES = {"german": "Kaiser@Example.org", "entente": "joffre@example.net",
             "moderator": "umpire@example.com"}
KEYS = {"german": "94Y1-KQGC-1DED", "entente": "7SBM-7P19-Q341"}
DATE = "Sat, 01 Aug 1914 11:00:00 +0100"
TAG2 = f"Re: [referee {GAME} #2] german report, SUMMER 1914"   # the opening report's tag
SPY = "spy@bureau.example"


# ---------------------------------------------------------------- the game and the mail

def new_game(cli, folder: Path, addresses: dict[str, str] | None = None) -> Path:
    """A 1914 game with the fixed secret and the three addresses registered."""
    folder.mkdir(parents=True, exist_ok=True)
    secret = folder / "fixed.secret"
    write_secret(secret, SECRET)
    journal = folder / "g.jsonl"
    r = cli("new", journal, "--scenario", "1914", "--game-id", GAME, "--secret-file", secret,
            "--signing-key", fixed_key(folder.parent / "keys"),
            *[a for side, addr in (addresses or ADDRESSES).items()
              for a in ("--player", f"{side}={addr}")])
    assert r.exit_code == 0, r.output
    return journal


@pytest.fixture
def journal(tmp_path, tmp_path_factory) -> Path:
    """new_game's game in tmp_path/game, the test's own: a copy of one made once for the
    process (most tests here only read it, and making it cost more than a test's mail), with
    the referee home that made it (its key, the game's files and snapshots) copied into the
    test's, and the place of the secret noted again there, as `new` notes it."""
    from conftest import Cli

    made = kept(tmp_path_factory.getbasetemp(), "hostile-mail-game",
                lambda place, mp: new_game(Cli(), place / "game"))
    made.back(to=tmp_path, secret=("game/g.jsonl", "game/fixed.secret"))
    return tmp_path / "game" / "g.jsonl"


def mail(frm: str | None = ADDRESSES["german"], body: str | bytes | None = None, *,
         subject: str | None = TAG2, mid: str | None = "<m1@potsdam.example.org>",
         date: str | None = DATE, headers: str = "",
         ctype: str | None = "text/plain; charset=utf-8") -> bytes:
    """One message; by default the German's 'play offensive' with his key."""
    head = ""
    if frm is not None:
        head += f"From: {frm}\n"
    head += f"To: {ADDRESSES['moderator']}\n"
    if subject is not None:
        head += f"Subject: {subject}\n"
    if date is not None:
        head += f"Date: {date}\n"
    if mid is not None:
        head += f"Message-ID: {mid}\n"
    head += "MIME-Version: 1.0\n" + headers
    if ctype is not None:
        head += f"Content-Type: {ctype}\n"
    if body is None:
        body = f"play offensive\n\nOrder key: {KEYS['german']}\n"
    if isinstance(body, str):
        body = body.encode("utf-8")
    return head.encode("utf-8", "surrogateescape") + b"\n" + body


def write_mbox(path: Path, raws: list[bytes]) -> Path:
    path.write_bytes(b"".join(b"From sender@example Sat Aug  1 09:00:00 1914\n" + raw
                              + (b"" if raw.endswith(b"\n") else b"\n") + b"\n"
                              for raw in raws))
    return path



def eml(folder: Path, raw: bytes, name: str = "message.eml") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_bytes(raw)
    return path


# ---------------------------------------------------------------- running inbox

def clean(r, codes: tuple[int, ...] = (0, 3)) -> None:
    """No traceback, no internal error, no exit 4; every stderr line a 'referee: ' line, or
    with --format json the error object of that exit code."""
    text = (r.stdout or "") + (r.stderr or "")
    assert "Traceback" not in text, text
    assert "internal error" not in text, r.stderr
    assert r.exit_code in codes, (r.exit_code, r.stderr)
    for line in (r.stderr or "").splitlines():
        if line.startswith("{"):
            assert json.loads(line)["exit"] == r.exit_code, r.stderr
            continue
        assert line.startswith("referee: "), r.stderr


def one_line(r) -> str:
    lines = [ln for ln in r.stderr.splitlines() if not ln.startswith("referee: warning:")]
    assert len(lines) == 1, r.stderr
    return json.loads(lines[0])["error"] if lines[0].startswith("{") else lines[0]


def inbox(cli, journal: Path, *sources: Path, outbox: Path, codes=(0, 3)):
    r = cli("inbox", journal, *sources, "--outbox", outbox, "--format", "json")
    clean(r, codes)
    return r


def handled(cli, journal: Path, *sources: Path, outbox: Path) -> list[dict]:
    """An inbox run that must exit 0: each message's outcome."""
    r = inbox(cli, journal, *sources, outbox=outbox)
    assert r.exit_code == 0, r.stderr
    return json.loads(r.stdout)["messages"]


def records(journal: Path) -> list[dict]:
    return [json.loads(line) for line in journal.read_text(encoding="utf-8").splitlines()]


def read_mail(path: Path) -> email.message.EmailMessage:
    return email.message_from_bytes(path.read_bytes(), policy=email.policy.default)


def mails(outbox: Path) -> list[email.message.EmailMessage]:
    return [read_mail(p) for p in sorted(outbox.iterdir())] if outbox.exists() else []


def to(m) -> str:
    return str(m["To"] or "").casefold()


def replies_to(outbox: Path, address: str) -> list[email.message.EmailMessage]:
    return [m for m in mails(outbox) if to(m) == address.casefold()]


def not_applied_reply(outbox: Path, side: str) -> email.message.EmailMessage:
    """The 'not applied' reply to a side's registered address."""
    found = [m for m in replies_to(outbox, ADDRESSES[side])
             if "not applied" in headline(m)]
    assert len(found) == 1, [str(m["Subject"]) for m in mails(outbox)]
    return found[0]


def answered_either_way(out: list, journal: Path, before: bytes, outbox: Path):
    """A message the referee may apply or reject: if rejected, the journal is as it was and
    the sender has a 'not applied' reply (returned; None when it was applied)."""
    assert out[0]["status"] in ("applied", "rejected"), out
    if out[0]["status"] == "applied":
        return None
    assert journal.read_bytes() == before
    return not_applied_reply(outbox, "german")


def game_words(data) -> set[str]:
    return ({a.name for a in data.areas.values()} | set(data.areas)
            | {alias for a in data.areas.values() for alias in a.aliases}
            | {c.title for c in data.cards.values()} | {c.key for c in data.cards.values()})


def assert_no_game_content(m, data) -> None:
    text = f"{m['Subject']}\n{m.get_content()}"
    raw = m.as_string()
    for word in game_words(data):
        assert not re.search(rf"(?i)(?<!\w){re.escape(word)}(?!\w)", text), word
    assert not re.search(r"(?i)(?<![\w-])[a-z]{2}-(?:[a-z]-)?\d+", text), text
    for key in KEYS.values():
        assert key not in raw and key.replace("-", "") not in raw
    assert "Receipt:" not in text and "Order key:" not in text
    assert f"[referee {GAME}" not in raw


def too_wide(m) -> list[str]:
    """The lines of a mail's text over 72 columns, but an order alone on its line (indented
    two columns, as a mail lists the orders to paste back: an order is never split), whose
    words are no longer than an order's (a card's key, 26 characters, is the longest). A
    line is measured as sent (format=flowed: space-stuffed), a soft break's space aside."""
    sent = m.get_body(("plain",)).get_content()
    return [ln for ln, sent_ln in zip(written(sent).splitlines(), sent.splitlines())
            if len(sent_ln.rstrip()) > 72 and not (
                ln.startswith("  ") and not ln.startswith("   ") and "," not in ln
                and "→" not in ln and max(map(len, ln.split())) <= 40)]


def assert_outbox_safe(outbox: Path, data) -> None:
    """Every outbox mail is 0600, its lines within 72 columns (too_wide); a mail to anyone
    but a registered player or the moderator has no game content; a player's mail never
    holds the other side's key, the moderator's (told of a side's key in a stranger's mail:
    keyelsewhere.py) neither, its commands alone on their lines whatever their length."""
    if not outbox.exists():
        return
    players = {ADDRESSES["german"].casefold(): "german",
               ADDRESSES["entente"].casefold(): "entente"}
    for p in outbox.iterdir():
        assert stat.S_IMODE(os.lstat(p).st_mode) == 0o600, p
        m = read_mail(p)
        side = players.get(to(m))
        if to(m) == ADDRESSES["moderator"].casefold():
            wide = [ln for ln in too_wide(m) if not ln.startswith("  referee players ")]
            assert not wide and not any(k in m.as_string() for k in KEYS.values()), p.name
            continue
        assert not too_wide(m), (p.name, too_wide(m))
        if side is None:
            assert_no_game_content(m, data)
        else:
            other = KEYS["entente" if side == "german" else "german"]
            assert other not in m.as_string()


# ---------------------------------------------------------------- A. headers

def test_from_in_upper_or_lower_case_is_the_player(journal, cli, tmp_path, data):
    for i, frm in enumerate(("KAISER@EXAMPLE.ORG", "Wilhelm <kaiser@example.org>")):
        before = len(records(journal))
        order = "play offensive" if i == 0 else "move ge-1 liege"
        raw = mail(frm, f"{order}\n\nOrder key: {KEYS['german']}\n", mid=f"<case{i}@x>",
                   subject="my orders")
        out = handled(cli, journal, eml(tmp_path / f"in{i}", raw), outbox=tmp_path / f"out{i}")
        assert [(o["status"], o["side"]) for o in out] == [("applied", "german")], out
        assert len(records(journal)) == before + 1
        assert_outbox_safe(tmp_path / f"out{i}", data)


@pytest.mark.parametrize("frm", [
    f'"{ADDRESSES["german"]}" <{SPY}>',              # the registered address as display name
    f"=?utf-8?q?{ADDRESSES['german'].replace('@', '=40')}?= <{SPY}>",   # ... encoded
    f"{SPY}, {ADDRESSES['german']}",                 # several addresses, a stranger's first
    f"{SPY} ({ADDRESSES['german']})",                # the address in a comment
    f"{SPY}\r{ADDRESSES['german']}",                 # a bare CR
], ids=["display-name", "encoded-display-name", "two-addresses", "comment", "bare-cr"])
def test_a_from_that_only_mentions_the_registered_address_is_a_stranger(journal, cli, tmp_path,
                                                                          data, frm):
    """The German's key, but the From's mailbox is the spy's: nothing applied, and the spy's
    reply (if any) carries nothing of the game."""
    before = journal.read_bytes()
    out = handled(cli, journal, eml(tmp_path / "in", mail(frm)), outbox=tmp_path / "out")
    assert [o["status"] for o in out] == ["rejected"], out
    assert out[0]["side"] is None
    assert journal.read_bytes() == before
    assert_outbox_safe(tmp_path / "out", data)


def test_a_from_of_thousands_of_addresses_names_no_one_and_costs_nothing_to_read(
        journal, cli, tmp_path, data, monkeypatch):
    """A From listing twenty thousand addresses, the German's first (a third of a megabyte,
    under the size limit): no sender, so nothing applied and nothing of the game sent, and
    the header is never taken apart address by address (which costs the email package
    seconds, at every pass that reads the mailbox again)."""
    import email.headerregistry

    parsed = []
    real = email.headerregistry.AddressHeader.parse.__func__
    monkeypatch.setattr(email.headerregistry.AddressHeader, "parse", classmethod(
        lambda cls, value, kwds: parsed.append(len(value)) or real(cls, value, kwds)))
    crowd = ", ".join([ADDRESSES["german"]] + [f"x{i}@crowd.example" for i in range(20_000)])
    before = journal.read_bytes()
    out = handled(cli, journal, eml(tmp_path / "in", mail(crowd)), outbox=tmp_path / "out")
    assert [(o["status"], o["side"]) for o in out] == [("rejected", None)], out
    assert journal.read_bytes() == before
    assert max(parsed, default=0) < 10_000
    assert_outbox_safe(tmp_path / "out", data)


@pytest.mark.parametrize("header", ["Subject", "Message-ID"])
def test_a_header_of_sixty_thousand_encoded_words_is_not_taken_apart(
        journal, cli, tmp_path, data, monkeypatch, header):
    """A stranger's Subject (or Message-ID) of 60,000 encoded words: the email package's
    reading of it took 24 GB. A header longer than message.HEADER_MOST characters as sent is
    read as none, never handed to the package's header parser."""
    import email.headerregistry

    handed = []
    for kind in (email.headerregistry.UnstructuredHeader,
                 email.headerregistry.MessageIDHeader):
        real = kind.parse.__func__

        def parse(cls, value, kwds, real=real):
            handed.append(len(value))
            if len(value) > 10_000:       # as the package would, without its cost
                raise ValueError("too long for this test")
            return real(cls, value, kwds)

        monkeypatch.setattr(kind, "parse", classmethod(parse))
    words = " ".join(["=?utf-8?q?a?="] * 60_000)
    raw = mail(SPY, subject=words) if header == "Subject" else mail(SPY, mid=f"<{words}@x>")
    assert len(raw) > 800_000
    out = handled(cli, journal, eml(tmp_path / "in", raw), outbox=tmp_path / "out")
    assert [o["status"] for o in out] == ["rejected"], out
    assert max(handed, default=0) < 10_000, max(handed)
    assert_outbox_safe(tmp_path / "out", data)


def handed_to_the_parser(monkeypatch) -> list[int]:
    """The length of every header value the email package is asked to take apart."""
    import email.headerregistry

    handed: list[int] = []
    real = email.headerregistry.HeaderRegistry.__call__
    monkeypatch.setattr(email.headerregistry.HeaderRegistry, "__call__",
                        lambda self, name, value: handed.append(len(value)) or
                        real(self, name, value))
    return handed


@pytest.mark.parametrize("header", ["Content-Type", "Content-Transfer-Encoding"])
def test_a_structured_header_of_twenty_thousand_comments_is_not_taken_apart(
        journal, cli, tmp_path, data, monkeypatch, header):
    """A stranger's Content-Type (or transfer encoding) followed by 20,000 comments, 60 KB:
    the package's reading of it took 26 s (7 s), at every pass. It is read as empty: the
    message is then plain text, and nothing of the game goes to the stranger."""
    handed = handed_to_the_parser(monkeypatch)
    value = ("text/plain" if header == "Content-Type" else "7bit") + " (c)" * 20_000
    raw = mail(SPY, ctype=None, headers=f"{header}: {value}\n")
    out = handled(cli, journal, eml(tmp_path / "in", raw), outbox=tmp_path / "out")
    assert [o["status"] for o in out] == ["rejected"], out
    assert handed and max(handed) <= 2048, max(handed)
    assert_outbox_safe(tmp_path / "out", data)


def test_parts_with_long_headers_cost_at_most_a_messages_share(journal, cli, tmp_path, data,
                                                                 monkeypatch):
    """A hundred parts, each with three headers of 2,000 characters (each up to 12 ms to
    read), from the German: the package is handed at most 32 KB of a message's headers,
    and he is told that his message's headers are too long to read."""
    handed = handed_to_the_parser(monkeypatch)
    c = " (c)" * 490
    parts = "".join(f"--b\nContent-Type: application/x-{n}{c}\n"
                    f"Content-Transfer-Encoding: 7bit ({n}){c}\n"
                    f"Content-Disposition: inline ({n}){c}\n\nx\n" for n in range(100))
    mime = (f'Content-Type: multipart/mixed; boundary="b"\n\n{parts}--b\n'
            f"Content-Type: text/plain\n\nplay offensive\nOrder key: {KEYS['german']}\n--b--\n")
    before = journal.read_bytes()
    out = handled(cli, journal, eml(tmp_path / "in", multipart_mail(ADDRESSES["german"], mime)),
                  outbox=tmp_path / "out")
    assert [(o["status"], o["side"]) for o in out] == [("rejected", "german")], out
    assert journal.read_bytes() == before
    assert sum(handed) <= 32 * 1024 + 4 * 2048, sum(handed)
    said = " ".join(not_applied_reply(tmp_path / "out", "german").get_content().split())
    assert "headers run over 32768 characters" in said, said
    assert_outbox_safe(tmp_path / "out", data)


def test_a_message_of_sixty_thousand_parts_is_refused_unread(journal, cli, tmp_path, data,
                                                             monkeypatch):
    """60,000 empty parts under the size limit took the parser 3 s, at every pass: a player's
    message with more than 400 lines starting with '--' is answered with the limit, nothing
    applied, and the parser never sees it."""
    import email.feedparser

    fed = []
    real = email.feedparser.FeedParser.feed
    monkeypatch.setattr(email.feedparser.FeedParser, "feed",
                        lambda self, data: fed.append(len(data)) or real(self, data))
    mime = ('Content-Type: multipart/mixed; boundary="b"\n\n' + "--b\n\nx\n" * 60_000 +
            f"--b\nContent-Type: text/plain\n\nplay offensive\nOrder key: {KEYS['german']}\n"
            "--b--\n")
    raw = multipart_mail(ADDRESSES["german"], mime)
    assert len(raw) < 1 << 20
    before = journal.read_bytes()
    out = handled(cli, journal, eml(tmp_path / "in", raw), outbox=tmp_path / "out")
    assert [(o["status"], o["side"]) for o in out] == [("rejected", "german")], out
    assert journal.read_bytes() == before
    assert max(fed, default=0) < 65_536, max(fed)
    said = " ".join(not_applied_reply(tmp_path / "out", "german").get_content().split())
    assert "60002 lines starting with '--'" in said and "over the limit of 400" in said, said
    assert_outbox_safe(tmp_path / "out", data)


@pytest.mark.parametrize("frm", [
    f"{ADDRESSES['german']}, {SPY}",
    f"=?utf-8?q?{ADDRESSES['german'].replace('@', '=40')}?=",
    f"{ADDRESSES['german']} <{SPY}>",
    "\u212aaiser@Example.org",                       # KELVIN SIGN: casefolds to 'k'
], ids=["registered-first", "encoded-word-address", "unquoted-display", "kelvin-sign"])
def test_an_ambiguous_from_never_sends_game_content_to_the_stranger(journal, cli, tmp_path,
                                                                      data, frm):
    """Froms that Python's parseaddr reads as the German's address (3.11.7: the first of
    several addresses, an encoded word decoded into an address, casefold() equating the
    Kelvin sign with K). Each names no sender (mail/fromheader.py, base/addresses.py), even
    with the German's key; whatever happens, the stranger named in it gets no game content."""
    out = handled(cli, journal, eml(tmp_path / "in", mail(frm)), outbox=tmp_path / "out")
    assert len(out) == 1 and out[0]["status"] in ("applied", "rejected"), out
    assert_outbox_safe(tmp_path / "out", data)
    for m in mails(tmp_path / "out"):
        assert SPY not in to(m)


def encoded_word(text: str) -> str:
    """text as one RFC 2047 encoded word (its '=', '?', '@', '_' and blanks encoded)."""
    return "=?utf-8?q?" + "".join(f"={ord(c):02X}" if c in "=?@_ " else c for c in text) + "?="


@pytest.mark.parametrize("frm", [
    # decoded once, an address a To header decodes again into one with a line end
    encoded_word("=?utf-8?q?a=0Ab?=@x.org"),
    # decoded once, an address a To header decodes again into two addresses
    encoded_word(f"=?utf-8?q?victim=40x.org=2C{SPY.replace('@', '=40')}?=@e.org"),
    # an encoded word inside an address, as sent
    "a=?utf-8?q?=0A?=b@x.org",
], ids=["line-end", "second-address", "inside"])
def test_a_from_that_decodes_into_another_address_is_answered_by_no_one(journal, cli, tmp_path,
                                                                         data, frm):
    """Guards against: a stranger's From whose address, decoded, still holds an encoded word
    was taken as his address; the reply's To decoded it again, into a line end (no mail could
    be written, and every later run stopped on it: the game's mail was stuck) or into other
    people's addresses. Such a sender has no address; the German's orders beside it are
    applied and answered, and the next run has nothing left to do."""
    source = tmp_path / "in"
    eml(source / "new", mail(frm, body="hello\n", mid="<x1@x.org>"), "a-stranger.eml")
    eml(source / "new", mail(), "b-german.eml")
    out = handled(cli, journal, source, outbox=tmp_path / "out")
    assert sorted(m["status"] for m in out) == ["applied", "rejected"], out
    written = mails(tmp_path / "out")
    assert written and {to(m) for m in written} <= {a.casefold() for a in ADDRESSES.values()}, \
        [to(m) for m in written]
    again = handled(cli, journal, source, outbox=tmp_path / "out")
    assert {m["status"] for m in again} <= {"done", "known"}, again
    assert len(mails(tmp_path / "out")) == len(written)


def test_a_reply_owed_to_such_an_address_by_an_earlier_run_no_longer_stops_the_mail(
        journal, cli, tmp_path, monkeypatch):
    """A run that took such a From for an address (as earlier versions did: here the check
    is taken away for it) owes a reply no mail can be written to, and stops on it; the next
    run drops that reply and writes the German's answer and both reports."""
    from referee.mail import mailboxes, message, outboxmail

    source = tmp_path / "in"
    eml(source / "new", mail(encoded_word("=?utf-8?q?a=0Ab?=@x.org"), body="hello\n",
                             mid="<x1@x.org>"), "a-stranger.eml")
    eml(source / "new", mail(), "b-german.eml")
    with monkeypatch.context() as earlier:
        for module in (mailboxes, outboxmail):
            earlier.setattr(module, "reads_back", lambda address: True)
        earlier.setattr(message, "one_sender", lambda raw, name, address: True)
        r = inbox(cli, journal, source, outbox=tmp_path / "out")
    assert r.exit_code == 3 and "could not be written" in r.stderr, r.stderr
    handled(cli, journal, source, outbox=tmp_path / "out")
    assert sorted(to(m) for m in mails(tmp_path / "out")) == \
        sorted(ADDRESSES[s].casefold() for s in ("german", "entente")), \
        [to(m) for m in mails(tmp_path / "out")]


def test_a_player_address_in_bytes_that_are_not_utf8_is_refused_and_nothing_is_made(
        journal, tmp_path, cli):
    """Guards against: such an address broke the roster record's contract as it was written
    (exit 4) and left a journal without players and its secret behind."""
    odd = os.fsdecode(b"k\x80aiser@example.org")
    r = cli("new", tmp_path / "g.jsonl", "--scenario", "1914", "--player", f"german={odd}",
            "--player", "entente=joffre@example.net")
    assert r.exit_code == 2 and "not UTF-8" in r.stderr, r.output
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith("g.")]
    before = journal.read_bytes()
    r = cli("players", journal, "--set", f"german={odd}")
    assert r.exit_code == 2 and "not UTF-8" in r.stderr, r.output
    assert journal.read_bytes() == before


@pytest.mark.parametrize("address", ["a(note)b@example.org", "=?utf-8?q?hans=40x.org?=@a.org",
                                     "hans=?x@example.org"])
def test_a_player_address_a_mail_program_reads_otherwise_is_refused(tmp_path, cli, address):
    """An address given for a player must be the address his mail goes to: a comment in it is
    dropped by a mail program, an encoded word decoded into another address."""
    r = cli("new", tmp_path / "g.jsonl", "--scenario", "1914",
            "--player", f"german={address}", "--player", "entente=joffre@example.net")
    assert r.exit_code == 2, r.output
    assert "german=" in r.stderr and "not" in r.stderr and "address" in r.stderr, r.stderr
    assert not (tmp_path / "g.jsonl").exists()


@pytest.mark.parametrize("case", ["missing-from", "empty-file", "binary-file", "nul-in-from"])
def test_no_mail_goes_to_an_empty_or_malformed_address(journal, cli, tmp_path, data, case):
    """Guards against: a message without a usable sender gets a 'not accepted' reply written to
    'To:' (empty), or to an address with a NUL in it: a mail nobody can send."""
    raw = {"missing-from": mail(None),
           "empty-file": b"",
           "binary-file": bytes(range(256)) * 20,
           "nul-in-from": mail(f"{SPY}\x00{ADDRESSES['german']}", body="hello\n")}[case]
    before = journal.read_bytes()
    handled(cli, journal, eml(tmp_path / "in", raw), outbox=tmp_path / "out")
    assert journal.read_bytes() == before
    assert_outbox_safe(tmp_path / "out", data)
    for m in mails(tmp_path / "out"):
        address = str(m["To"] or "")
        assert re.fullmatch(r"[^\s@<>\x00-\x1f\x7f]+@[^\s@<>\x00-\x1f\x7f]+", address), \
            (address, str(m["Subject"]))


@pytest.mark.parametrize("who", ["stranger", "german"])
@pytest.mark.parametrize("mid", ["=?utf-8?q?orders=0Aone@x?=", "<orders\x0bone@potsdam.example>",
                                 "<orders\x1cone@potsdam.example>"],
                         ids=["encoded-newline", "vertical-tab", "file-separator"])
def test_a_message_id_with_a_line_break_in_it(journal, cli, tmp_path, data, who, mid):
    """Guards against (exit 4): the Message-ID goes unchecked into the reply's
    In-Reply-To/References, and EmailMessage refuses a header value with a line break (\\n, \\v,
    \\x1c...): ValueError in mail._write, 'internal error'. From a stranger it blocks every later
    run (the ledger is never saved); from the German his orders are already in the journal when it
    crashes, and no report is written."""
    frm = SPY if who == "stranger" else ADDRESSES["german"]
    before = journal.read_bytes()
    out = handled(cli, journal, eml(tmp_path / "in", mail(frm, mid=mid)), outbox=tmp_path / "out")
    if who == "stranger":
        assert [o["status"] for o in out] == ["rejected"]
        assert journal.read_bytes() == before
    else:
        assert [o["status"] for o in out] == ["applied"]
        assert any("report for the German player" in headline(m) for m in mails(tmp_path / "out"))
    assert_outbox_safe(tmp_path / "out", data)


@pytest.mark.parametrize("case", ["garbage-date", "year-99999", "offset-9999", "empty-message-id",
                                  "crlf-in-display-name", "over-1-mib"])
def test_a_players_message_with_a_broken_header_is_answered(journal, cli, tmp_path, data, case):
    """Guards against: a message from the German's address with his key whose Date or Message-ID
    cannot be parsed, or that is over 1 MiB (a screenshot attached), is 'rejected: the message
    cannot be read' with no reply at all (read_source sets Message.problem, and inbox() writes no
    reply on that path) and is put in the ledger, so it is never looked at again: the player's
    orders are lost without a word. It should be applied (a bad Date is no reason to drop orders: a
    missing Date is fine) or answered at his registered address."""
    raw = {
        "garbage-date": mail(date="the day after tomorrow"),
        "year-99999": mail(date="Fri, 31 Dec 99999 23:59:59 +0000"),
        "offset-9999": mail(date="Mon, 01 Jan 1900 00:00:00 +9999"),
        "empty-message-id": mail(mid="<>"),
        "crlf-in-display-name": mail(f"=?utf-8?q?Wilhelm=0D=0A?= <{ADDRESSES['german']}>"),
        "over-1-mib": mail(body=f"play offensive\n\nOrder key: {KEYS['german']}\n\n"
                                + ("y" * 76 + "\n") * 15000),
    }[case]
    before = journal.read_bytes()
    out = handled(cli, journal, write_mbox(tmp_path / "box.mbox", [raw]),
                  outbox=tmp_path / "out")
    assert len(out) == 1
    if out[0]["status"] == "applied":
        assert len(records(journal)) == len(before.splitlines()) + 1
    else:
        assert journal.read_bytes() == before
        if case == "over-1-mib":      # none of it read: why alone, nothing of the game
            (answer,) = [m for m in replies_to(tmp_path / "out", ADDRESSES["german"])
                         if not report_title(m)]        # his opening report beside it
            body = written(answer.get_body(("plain",)).get_content())
            assert body.startswith("Your message was not accepted: ") and \
                "Order key" not in body, body
        else:
            body = written(not_applied_reply(tmp_path / "out", "german").get_content())
            assert body.startswith("Your message was not applied: ")
    assert_outbox_safe(tmp_path / "out", data)


@pytest.mark.parametrize("date", [None, "Fri, 31 Dec 9999 23:59:59 -1200",
                                  "Thu, 01 Jan 1970 00:00:00 +0000",
                                  "Mon, 01 Jan 1900 00:00:00 -0000"],
                         ids=["missing", "far-future", "epoch", "far-past"])
def test_a_missing_or_odd_date_still_applies(journal, cli, tmp_path, date):
    out = handled(cli, journal, eml(tmp_path / "in", mail(date=date)), outbox=tmp_path / "out")
    assert [(o["status"], o["records"]) for o in out] == [("applied", [3])], out


def test_duplicate_message_id_headers(journal, cli, tmp_path, data):
    """Two Message-ID headers (the first counts): two copies in one mailbox, applied once."""
    raw = mail(headers="Message-ID: <second@potsdam.example.org>\n")
    out = handled(cli, journal, write_mbox(tmp_path / "box.mbox", [raw, raw]),
                  outbox=tmp_path / "out")
    assert sorted(o["status"] for o in out) == ["applied", "skipped"], out
    assert len(records(journal)) == 4
    assert_outbox_safe(tmp_path / "out", data)


def test_a_message_id_folded_over_two_lines(journal, cli, tmp_path, data):
    raw = mail(mid="<folded.1914\n .08.01@potsdam.example.org>")
    out = handled(cli, journal, eml(tmp_path / "in", raw), outbox=tmp_path / "out")
    assert [o["status"] for o in out] == ["applied"], out
    assert_outbox_safe(tmp_path / "out", data)


@pytest.mark.parametrize("subject,status", [
    ("Re: [referee othergame #3] german report", "skipped"),
    ("Re: [referee othergame #3] [referee mailtest #2]", "skipped"),       # the first tag counts
    (f"Re: [referee {GAME} #999999999] german report", "stale"),          # beyond the journal
    (f"Re: [referee {GAME} #9999999999] german report", "applied"),         # too long: no tag
    (f"Re: [referee {GAME} #-3] german report", "applied"),                 # not a tag
    (f"Re: [referee {GAME} #00000002] german report", "applied"),
])
def test_subject_tags(journal, cli, tmp_path, data, subject, status):
    before = journal.read_bytes()
    out = handled(cli, journal, eml(tmp_path / "in", mail(subject=subject)),
                  outbox=tmp_path / "out")
    assert [o["status"] for o in out] == [status], out
    if status == "skipped":
        assert journal.read_bytes() == before
        assert not any("not applied" in headline(m) for m in mails(tmp_path / "out"))
    assert_outbox_safe(tmp_path / "out", data)


def test_a_tag_older_than_the_last_report(journal, cli, tmp_path):
    """Once the opening report (record 2) was sent, '#0' and '#1' answer older mail: the
    decision then (before the set-up) is not today's, so stale, nothing applied."""
    handled(cli, journal, write_maildir(tmp_path / "empty", []), outbox=tmp_path / "out0")
    before = journal.read_bytes()
    for n in (0, 1):
        out = handled(cli, journal, eml(tmp_path / f"in{n}", mail(
            subject=f"Re: [referee {GAME} #{n}]", mid=f"<tag{n}@x>")), outbox=tmp_path / f"o{n}")
        assert len(out) == 1 and out[0]["status"] in ("stale", "applied"), out
        if out[0]["status"] == "stale":
            assert journal.read_bytes() == before


@pytest.mark.parametrize("how", ["stranger-first-in-an-earlier-run", "opponent-earlier-date"])
def test_a_message_id_taken_by_someone_else_does_not_suppress_a_players_orders(
        journal, cli, tmp_path, how):
    """Guards against: the 'second copy' rule trusts the Message-ID header of anyone. A stranger (or
    the opponent, who may be CC'd) sends a message with the Message-ID the German uses, dated
    earlier: it is rejected and its Message-ID lands in ledger['ids'], and the German's real message
    is then 'skipped: a second copy of a message already handled': his orders are dropped and he
    gets no reply. A second copy must be the same message (same sender and text), not just the same
    header."""
    mid = "<schlieffen.1914-08-01@potsdam.example.org>"
    real = mail(mid=mid)
    if how == "stranger-first-in-an-earlier-run":
        handled(cli, journal, eml(tmp_path / "in0", mail(SPY, "Hello!\n", mid=mid)),
                outbox=tmp_path / "out0")
        sources = [eml(tmp_path / "in1", real)]
    else:
        squat = mail(ADDRESSES["entente"], f"ok\n\nOrder key: {KEYS['entente']}\n", mid=mid,
                     date="Sat, 01 Aug 1914 08:00:00 +0100", subject="Re: my orders")
        sources = [write_mbox(tmp_path / "box.mbox", [real, squat])]
    out = handled(cli, journal, *sources, outbox=tmp_path / "out")
    mine = [o for o in out if o["from"] == ADDRESSES["german"].casefold()]
    assert [(o["status"], o["records"]) for o in mine] == [("applied", [3])], out
    assert records(journal)[3]["order"] == "play offensive"


def test_a_shared_address_for_both_sides(tmp_path, cli):
    """Guards against (minor): with one address registered for both sides (a solo test game, two
    players behind one family account) a message is matched to the first side with that address
    (entente) and only that side's key is looked for: the German's orders, with his key, are refused
    as 'not from a registered player with his order key'. The side should be the one whose key the
    message carries."""
    shared = "family@example.org"
    journal = new_game(cli, tmp_path / "game", {"german": shared, "entente": shared,
                                                "moderator": ADDRESSES["moderator"]})
    out = handled(cli, journal, eml(tmp_path / "in", mail(shared)), outbox=tmp_path / "out")
    assert [(o["status"], o["side"]) for o in out] == [("applied", "german")], out


def test_a_shared_address_replying_to_one_side_s_mail_is_the_side_whose_key_it_types(
        tmp_path, cli):
    """With one address for both sides, a Reply to the German's mail quotes the German's key;
    the Entente's player types his own key and his order above it: the mail is the
    Entente's (the key typed over the one quoted), and a mail typing both keys is neither
    side's, refused and nothing recorded."""
    shared = "family@example.org"
    journal = new_game(cli, tmp_path / "game", {"german": shared, "entente": shared,
                                                "moderator": ADDRESSES["moderator"]})
    before = journal.read_bytes()
    both = mail(shared, f"pass\n\nOrder key: {KEYS['entente']}\nOrder key: "
                        f"{KEYS['german']}\n", mid="<both@family.example.org>")
    out = handled(cli, journal, eml(tmp_path / "both", both), outbox=tmp_path / "o1")
    assert [(o["status"], o["side"]) for o in out] == [("rejected", None)], out
    assert journal.read_bytes() == before
    quoting = mail(shared, f"pass\n\nOrder key: {KEYS['entente']}\n\n> Your decision: ...\n"
                           f"> Order key: {KEYS['german']}\n", mid="<q@family.example.org>")
    out = handled(cli, journal, eml(tmp_path / "in", quoting), outbox=tmp_path / "o2")
    assert [o["side"] for o in out] == ["entente"], out


def test_the_moderator_cannot_send_orders_by_mail(journal, cli, tmp_path, data):
    """The moderator's address is the one the referee's mails come from: a mail from it is
    never read as a player's, and never answered (else a referee reading the mailbox it
    sends from would answer its own notices, to itself, without end)."""
    before = journal.read_bytes()
    out = handled(cli, journal, eml(tmp_path / "in", mail(ADDRESSES["moderator"])),
                  outbox=tmp_path / "out")
    assert [(o["status"], o["side"]) for o in out] == [("skipped", None)], out
    assert "never read as a player's mail" in out[0]["reason"]
    assert journal.read_bytes() == before
    assert not [m for m in mails(tmp_path / "out") if "not accepted" in str(m["Subject"])]
    assert_outbox_safe(tmp_path / "out", data)


def test_the_opponents_key_is_refused(journal, cli, tmp_path, data):
    """The German's address with the Entente's key: refused; the reply (to the German's
    address as registered, as to any forged From: its owner reads it) holds neither key nor
    anything of the game but its tag, in his reports' subject."""
    before = journal.read_bytes()
    raw = mail(body=f"play offensive\n\nOrder key: {KEYS['entente']}\n")
    out = handled(cli, journal, eml(tmp_path / "in", raw), outbox=tmp_path / "out")
    assert [(o["status"], o["side"]) for o in out] == [("rejected", None)], out
    assert journal.read_bytes() == before
    (reply,) = [m for m in mails(tmp_path / "out") if "not accepted" in first_line(m)]
    assert str(reply["To"]) == ADDRESSES["german"]
    assert str(reply["Subject"]).startswith(f"[referee {GAME}] German player, ")
    del reply["Subject"], reply["References"], reply["Message-ID"]   # the tag, thread, record
    assert_no_game_content(reply, data)
    assert_outbox_safe(tmp_path / "out", data)


# ---------------------------------------------------------------- B. bodies

def nested(depth: int, inner: str) -> str:
    for i in range(depth):
        inner = f'Content-Type: multipart/mixed; boundary="b{i}"\n\n--b{i}\n{inner}\n--b{i}--\n'
    return inner


def multipart_mail(frm: str, mime: str) -> bytes:
    """A message whose MIME structure (its Content-Type header, a blank line, the parts) is
    `mime`."""
    head, _, body = mime.partition("\n\n")
    return mail(frm, body, ctype=None, headers=head + "\n")


def test_multiparts_nested_16_deep_are_read_and_17_deep_refused(journal, cli, tmp_path, data):
    """The parser looks at each line once for every multipart it is in: a stranger's
    megabyte of empty lines nested 395 deep took 17 s. Sixteen levels are read (a forward
    of a forward nests nine); past them the German is told, and nothing is applied."""
    inner = f"Content-Type: text/plain\n\nplay offensive\nOrder key: {KEYS['german']}\n"
    out = handled(cli, journal, eml(tmp_path / "in", multipart_mail(
        ADDRESSES["german"], nested(16, inner))), outbox=tmp_path / "out")
    assert [o["status"] for o in out] == ["applied"], out
    before = journal.read_bytes()
    raw = multipart_mail(ADDRESSES["german"], nested(17, inner)).replace(b"<m1@", b"<m2@")
    out = handled(cli, journal, eml(tmp_path / "in2", raw), outbox=tmp_path / "out")
    assert [(o["status"], o["side"]) for o in out] == [("rejected", "german")], out
    assert "nested more than 16 deep" in out[0]["reason"]
    assert journal.read_bytes() == before
    assert_outbox_safe(tmp_path / "out", data)


@pytest.mark.parametrize("end", ["\n", "\r"], ids=["lf", "cr"])
def test_a_megabyte_of_short_lines_is_refused_unparsed(journal, cli, tmp_path, data,
                                                        monkeypatch, end):
    """300,000 lines (or 170,000 empty parts whose lines end in a bare CR, which the parser
    also takes for a line end and the count of '--' lines missed): refused before the
    parser is fed, the German told why."""
    import email.feedparser

    fed = []
    real = email.feedparser.BytesFeedParser.feed
    monkeypatch.setattr(email.feedparser.BytesFeedParser, "feed",
                        lambda self, data: fed.append(len(data)) or real(self, data))
    body = f"play offensive{end}Order key: {KEYS['german']}{end}" + f"x{end}" * 300_000
    raw = mail(body=body)
    before = journal.read_bytes()
    out = handled(cli, journal, eml(tmp_path / "in", raw), outbox=tmp_path / "out")
    assert [(o["status"], o["side"]) for o in out] == [("rejected", "german")], out
    assert "lines, over the limit of 200000" in out[0]["reason"], out
    assert max(fed, default=0) < 65_536
    parts = mail(body="--b\r\r" * 1_000, ctype='multipart/mixed; boundary="b"')
    out = handled(cli, journal, eml(tmp_path / "in2", parts.replace(b"<m1@", b"<m2@")),
                  outbox=tmp_path / "out")
    assert "1000 lines starting with '--'" in out[0]["reason"], out
    assert journal.read_bytes() == before
    assert_outbox_safe(tmp_path / "out", data)


def test_multiparts_nested_1000_deep_from_a_stranger(journal, cli, tmp_path, data):
    """Guards against (exit 4): Python's email parser recurses once per nesting level; ~1000 levels
    (a 65 KB message, far under the 1 MiB limit) raise RecursionError in mailtext.parse_message,
    which read_source does not catch: 'internal error', and since it happens before anything is
    handled, every later run dies on the same message."""
    inner = "Content-Type: text/plain\n\nhello\n"
    before = journal.read_bytes()
    out = handled(cli, journal, write_mbox(tmp_path / "box.mbox", [
        multipart_mail(SPY, nested(1000, inner)), mail()]), outbox=tmp_path / "out")
    assert sorted(o["status"] for o in out) == ["applied", "rejected"], out
    assert len(records(journal)) == len(before.splitlines()) + 1
    assert_outbox_safe(tmp_path / "out", data)


def test_a_multipart_without_boundary_is_answered(journal, cli, tmp_path, data):
    before = journal.read_bytes()
    raw = multipart_mail(ADDRESSES["german"], "Content-Type: multipart/mixed\n\n"
                         f"play offensive\nOrder key: {KEYS['german']}\n")
    out = handled(cli, journal, eml(tmp_path / "in", raw), outbox=tmp_path / "out")
    answered_either_way(out, journal, before, tmp_path / "out")
    assert_outbox_safe(tmp_path / "out", data)


def test_a_1_mb_body_of_100000_lines(journal, cli, tmp_path, data):
    body = (f"play offensive\nOrder key: {KEYS['german']}\n"
            + "# comment\n" * 99_990).encode()                     # 1,000,000-odd bytes
    assert 990_000 < len(body) < 1_040_000 and body.count(b"\n") == 99_992
    start = time.process_time()
    out = handled(cli, journal, eml(tmp_path / "in", mail(body=body)), outbox=tmp_path / "out")
    assert time.process_time() - start < 60
    assert [(o["status"], o["records"]) for o in out] == [("applied", [3])], out
    assert_outbox_safe(tmp_path / "out", data)


def test_a_mail_of_twenty_thousand_unreadable_orders_reads_up_to_the_first(
        journal, cli, tmp_path, data, monkeypatch):
    # Each line was read before any was decided, and each that reads as no order looked for
    # the verb it is near: 40,000 such lines took four seconds and 190 MB. The batch stops at
    # the first order it cannot read, so none after it is read.
    from referee.game import batch

    read: list[str] = []

    def counted(text, game_data):
        read.append(text)
        return parse_new_order(text, game_data)

    parse_new_order = batch.parse_new_order
    monkeypatch.setattr(batch, "parse_new_order", counted)
    body = f"Order key: {KEYS['german']}\n" + "".join(
        f"frobnicate{i} ge-1 liege\n" for i in range(20_000))
    before = journal.read_bytes()
    out = handled(cli, journal, eml(tmp_path / "in", mail(body=body)), outbox=tmp_path / "out")
    assert out[0]["status"] == "rejected" and "frobnicate0" in out[0]["reason"], out
    assert journal.read_bytes() == before
    assert read == ["frobnicate0 ge-1 liege"]
    assert_outbox_safe(tmp_path / "out", data)


@pytest.mark.parametrize("body,applied", [
    (b"play offensive\x00\n\nOrder key: " + KEYS["german"].encode() + b"\n", None),
    (b"play\x00 offensive\n\nOrder key: " + KEYS["german"].encode() + b"\n", False),
    (b"\x00\x00\x00\n" * 100, False),
], ids=["nul-at-end", "nul-inside", "only-nul"])
def test_a_body_with_nul_bytes(journal, cli, tmp_path, data, body, applied):
    before = journal.read_bytes()
    out = handled(cli, journal, eml(tmp_path / "in", mail(body=body)), outbox=tmp_path / "out")
    assert len(out) == 1 and out[0]["status"] in ("applied", "rejected"), out
    if applied is False:
        assert out[0]["status"] == "rejected" and journal.read_bytes() == before
    if out[0]["status"] == "rejected" and KEYS["german"] in body.decode("latin-1"):
        not_applied_reply(tmp_path / "out", "german")
    assert_outbox_safe(tmp_path / "out", data)


def test_invalid_utf8_labelled_utf8(journal, cli, tmp_path):
    body = b"play offensive \xff\xfe\xc3\n\nOrder key: " + KEYS["german"].encode() + b"\n"
    out = handled(cli, journal, eml(tmp_path / "in", mail(body=body)), outbox=tmp_path / "out")
    assert out[0]["status"] in ("applied", "rejected"), out
    if out[0]["status"] == "rejected":
        not_applied_reply(tmp_path / "out", "german")


@pytest.mark.parametrize("charset", ["unknown-8bit", '""', "x-no-such-charset"])
def test_an_unknown_charset_is_answered(journal, cli, tmp_path, data, charset):
    """Observed: rejected, 'the text part's charset ... is unknown', with a reply (also for an
    empty charset="" parameter and for unknown-8bit, which RFC 1428 defines as 8-bit text of
    an unknown charset: the fallback used for a missing charset would read both)."""
    before = journal.read_bytes()
    raw = mail(ctype=f"text/plain; charset={charset}",
               body=b"play offensive\n\nOrder key: " + KEYS["german"].encode() + b"\n")
    out = handled(cli, journal, eml(tmp_path / "in", raw), outbox=tmp_path / "out")
    reply = answered_either_way(out, journal, before, tmp_path / "out")
    if reply is not None:
        assert "charset" in reply.get_content()
    assert_outbox_safe(tmp_path / "out", data)


def test_html_only_with_script_and_style(journal, cli, tmp_path, data):
    html = ("<html><head><title>move ge-9 paris</title><style>p { } surrender</style>"
            "<script>propose armistice</script></head><body><p>play offensive</p>"
            f"<p>Order key: {KEYS['german']}</p><script>surrender</script></body></html>\n")
    out = handled(cli, journal, eml(tmp_path / "in", mail(body=html, ctype="text/html")),
                  outbox=tmp_path / "out")
    assert [(o["status"], o["records"]) for o in out] == [("applied", [3])], out
    assert [r["order"] for r in records(journal)[3:]] == ["play offensive"]
    assert_outbox_safe(tmp_path / "out", data)


def test_html_of_twenty_thousand_nested_blockquotes_is_read_in_little(journal, cli, tmp_path,
                                                                      data):
    """A stranger's HTML mail of 20,000 nested blockquotes (260 KB): each line was written
    out as deep as it was quoted, quadratic in the depth (25 s and 3.9 GB). Quoting is
    written out 20 deep at most; the lines stay quoted."""
    from referee.mail.htmltext import _HtmlText

    parser = _HtmlText()
    parser.feed("<html><body>" + "<blockquote>x" * 20_000)
    text = parser.text()
    assert len(text) < 2_000_000 and all(line.startswith("> ") for line in text.splitlines())
    html = "<html><body>" + "<blockquote>move ge-9 paris" * 20_000 + "\n"
    out = handled(cli, journal, eml(tmp_path / "in", mail(SPY, body=html, ctype="text/html")),
                  outbox=tmp_path / "out")
    assert [o["status"] for o in out] == ["rejected"], out
    assert_outbox_safe(tmp_path / "out", data)


@pytest.mark.parametrize("who", ["german", "stranger"])
def test_html_the_standard_parser_stumbles_on_is_read_as_text(journal, cli, tmp_path, data,
                                                              who):
    """'<![' followed by no name made the standard library's HTML parser raise an
    AssertionError: exit 4 at every run, for every game reading the mailbox. It reads as
    the text it is."""
    body = f"<p>play offensive</p><![ x<p>Order key: {KEYS['german']}</p>"
    raw = mail(ADDRESSES["german"] if who == "german" else SPY, body, ctype="text/html")
    before = journal.read_bytes()
    out = handled(cli, journal, eml(tmp_path / "in", raw), outbox=tmp_path / "out")
    if who == "german":
        assert [o["status"] for o in out] == ["applied"], out
    else:
        assert [o["status"] for o in out] == ["rejected"] and journal.read_bytes() == before
    assert_outbox_safe(tmp_path / "out", data)


def test_a_from_with_a_byte_that_is_no_text_is_a_stranger(journal, cli, tmp_path, data):
    """A From the header parser refuses (an encoded CR) is read as sent; a byte in it that
    is no text was kept as a lone surrogate, which no file can be written with: exit 4 at
    every run. It reads as U+FFFD: a stranger, refused."""
    raw = mail(b"=?utf-8?q?a=0Db?= <s\xffpy@evil.example>".decode("utf-8", "surrogateescape"))
    before = journal.read_bytes()
    out = handled(cli, journal, eml(tmp_path / "in", raw), outbox=tmp_path / "out")
    assert [(o["status"], o["side"], o["from"]) for o in out] == [
        ("rejected", None, "s\ufffdpy@evil.example")], out
    assert journal.read_bytes() == before
    assert_outbox_safe(tmp_path / "out", data)


@pytest.mark.parametrize("text_part", [True, False], ids=["with-text", "attachment-only"])
def test_orders_in_an_attachment_are_not_applied(journal, cli, tmp_path, data, text_part):
    """An attachment named orders.txt holding orders (and the key): only the body counts,
    so nothing is applied, and the German is told."""
    parts = (["Content-Type: text/plain\n\nHello,\n\nmy orders are attached.\n"]
             if text_part else [])
    parts.append('Content-Type: text/plain; name="orders.txt"\n'
                 'Content-Disposition: attachment; filename="orders.txt"\n\n'
                 f"play offensive\nOrder key: {KEYS['german']}\n")
    mime = ('Content-Type: multipart/mixed; boundary="z"\n\n'
            + "".join(f"--z\n{p}\n" for p in parts) + "--z--\n")
    before = journal.read_bytes()
    out = handled(cli, journal, eml(tmp_path / "in", multipart_mail(ADDRESSES["german"], mime)),
                  outbox=tmp_path / "out")
    assert [(o["status"], o["side"]) for o in out] == [("rejected", "german")], out
    assert journal.read_bytes() == before
    said = " ".join(not_applied_reply(tmp_path / "out", "german").get_content().split())
    assert "attachments were not read: orders go in the text of the mail" in said, said
    assert_outbox_safe(tmp_path / "out", data)


def test_orders_with_a_photo_attached_are_applied_and_the_photo_named_unread(
        journal, cli, tmp_path, data):
    """Orders in the text and a photo attached: the orders are applied, and his report says
    in one line that the attachment was not read."""
    mime = ('Content-Type: multipart/mixed; boundary="z"\n\n--z\nContent-Type: text/plain\n\n'
            f"play offensive\nOrder key: {KEYS['german']}\n\n--z\nContent-Type: image/jpeg\n"
            'Content-Disposition: attachment; filename="map.jpg"\n'
            "Content-Transfer-Encoding: base64\n\nAAAA\n--z--\n")
    out = handled(cli, journal, eml(tmp_path / "in", multipart_mail(ADDRESSES["german"], mime)),
                  outbox=tmp_path / "out")
    assert [(o["status"], o["side"]) for o in out] == [("applied", "german")], out
    said = [" ".join(m.get_body(("plain",)).get_content().split())
            for m in replies_to(tmp_path / "out", ADDRESSES["german"])]
    assert any("attachments were not read: orders go in the text of the mail" in t
               for t in said), said


def test_orders_in_a_forwarded_message_are_not_applied(journal, cli, tmp_path, data):
    mime = ('Content-Type: multipart/mixed; boundary="z"\n\n--z\nContent-Type: text/plain\n\n'
            "FYI\n--z\nContent-Type: message/rfc822\n\n"
            f"From: {ADDRESSES['german']}\nSubject: old\n\nplay offensive\n"
            f"Order key: {KEYS['german']}\n--z--\n")
    before = journal.read_bytes()
    out = handled(cli, journal, eml(tmp_path / "in", multipart_mail(ADDRESSES["german"], mime)),
                  outbox=tmp_path / "out")
    assert [o["status"] for o in out] == ["rejected"], out
    assert journal.read_bytes() == before
    assert_outbox_safe(tmp_path / "out", data)


def test_the_key_split_across_lines(journal, cli, tmp_path, data):
    """Observed: the key check (compact() of the whole raw message) finds it, but the second
    half is then read as an order: rejected with a reply naming that line."""
    k = KEYS["german"]
    raw = mail(body=f"play offensive\n\nOrder key: {k[:5]}\n{k[5:]}\n")
    before = journal.read_bytes()
    out = handled(cli, journal, eml(tmp_path / "in", raw), outbox=tmp_path / "out")
    answered_either_way(out, journal, before, tmp_path / "out")
    assert_outbox_safe(tmp_path / "out", data)


@pytest.mark.parametrize("where", ["html-comment", "header", "attachment"])
def test_the_key_only_where_nobody_reads_it(journal, cli, tmp_path, data, where):
    """Observed: the key check scans the whole raw message (headers, HTML comments,
    attachments), so a key found anywhere authenticates. Harmless (only its holder can put
    it there), but the message's orders are still only the body's."""
    k = KEYS["german"]
    if where == "html-comment":
        raw = mail(body=f"<p>play offensive</p><!-- Order key: {k} -->\n", ctype="text/html")
    elif where == "header":
        raw = mail(body="play offensive\n", headers=f"X-Order-Key: {k}\n")
    else:
        raw = multipart_mail(ADDRESSES["german"], (
            'Content-Type: multipart/mixed; boundary="z"\n\n--z\nContent-Type: text/plain\n\n'
            'play offensive\n--z\nContent-Type: text/plain; name="key.txt"\n'
            f'Content-Disposition: attachment; filename="key.txt"\n\n{k}\n--z--\n'))
    out = handled(cli, journal, eml(tmp_path / "in", raw), outbox=tmp_path / "out")
    assert out[0]["status"] in ("applied", "rejected"), out
    if out[0]["status"] == "applied":
        assert [r["order"] for r in records(journal)[3:]] == ["play offensive"]
    assert_outbox_safe(tmp_path / "out", data)


# ---------------------------------------------------------------- C. mailboxes

@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_an_mbox_that_is_a_fifo(journal, cli, tmp_path):
    fifo = tmp_path / "box.mbox"
    os.mkfifo(fifo)
    before = journal.read_bytes()
    r = inbox(cli, journal, fifo, outbox=tmp_path / "out", codes=(2,))   # typed: usage
    assert r.exit_code == 2 and str(fifo) in one_line(r)
    assert journal.read_bytes() == before and not (tmp_path / "out").exists()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_inside_a_maildir_does_not_hang(journal, tmp_path):
    """Guards against (hang): read_source reads every Maildir entry with mailbox.Maildir.get_bytes,
    which opens and reads it whatever it is: a FIFO in new/ (or a symlink to one, or to /dev/zero)
    blocks `inbox` forever (or eats the memory). home.read_named's rule, 'a FIFO never hangs', and
    its size limit are not applied to Maildir entries."""
    box = write_maildir(tmp_path / "Maildir", [mail()])
    os.mkfifo(box / "new" / "17999999.M9P9.mx.example.com")
    before = journal.read_bytes()
    # In this process: a hang is stopped by doors.console's alarm, which fails the test.
    code, _, stderr = console("inbox", journal, box, "--outbox", tmp_path / "out", "--no-map")
    assert code in (0, 3), stderr
    assert "Traceback" not in stderr
    if code == 3:
        assert journal.read_bytes() == before


def test_a_folder_that_is_not_a_maildir(journal, cli, tmp_path):
    folder = tmp_path / "folder"
    (folder / "inbox").mkdir(parents=True)
    (folder / "inbox" / "1.eml").write_bytes(mail())
    before = journal.read_bytes()
    r = inbox(cli, journal, folder, outbox=tmp_path / "out", codes=(2,))   # typed: usage
    assert r.exit_code == 2 and str(folder) in one_line(r)
    assert journal.read_bytes() == before


def test_a_maildir_with_a_subfolder(journal, cli, tmp_path, data):
    """A Maildir++ subfolder (.Orders) and a directory inside new/: neither is read, no
    crash; the top folder's messages are."""
    box = write_maildir(tmp_path / "Maildir", [mail(mid="<top@x>")])
    write_maildir(box / ".Orders", [mail(mid="<sub@x>", body=f"pass\n\nOrder key: "
                                                             f"{KEYS['german']}\n")])
    (box / "new" / "a-directory").mkdir()
    out = handled(cli, journal, box, outbox=tmp_path / "out")
    assert [(o["message_id"], o["status"]) for o in out] == [("<top@x>", "applied")], out
    assert_outbox_safe(tmp_path / "out", data)


def test_a_maildir_entry_that_is_a_symlink_to_etc_passwd(journal, cli, tmp_path, data):
    """Observed: the link is followed and /etc/passwd is read as a message (rejected: no
    sender). Nothing of it may reach the journal, stdout or the outbox."""
    target = Path("/etc/passwd")
    if not target.is_file():
        pytest.skip("no /etc/passwd")
    box = write_maildir(tmp_path / "Maildir", [])
    (box / "new" / "17000000.M1P1.mx.example.com").symlink_to(target)
    before = journal.read_bytes()
    r = inbox(cli, journal, box, outbox=tmp_path / "out")
    assert journal.read_bytes() == before
    secret_line = target.read_text(errors="replace").splitlines()[0]
    assert secret_line not in r.stdout
    for p in (tmp_path / "out").glob("*"):
        assert secret_line not in p.read_text(errors="replace")
    assert_outbox_safe(tmp_path / "out", data)


@pytest.mark.parametrize("content", [b"", os.urandom(4096), b"From \n", b"\x00" * 1000,
                                     b"From \x00\xff\n\nFrom \n" + bytes(range(256))],
                         ids=["empty", "random", "from-line-only", "zeros", "binary-mbox"])
def test_a_file_that_is_not_mail(journal, cli, tmp_path, data, content):
    path = tmp_path / "box"
    path.write_bytes(content)
    before = journal.read_bytes()
    r = inbox(cli, journal, path, outbox=tmp_path / "out")
    if r.exit_code == 0:
        assert all(o["status"] != "applied" for o in json.loads(r.stdout)["messages"])
    else:
        assert str(path) in one_line(r)
    assert journal.read_bytes() == before
    assert_outbox_safe(tmp_path / "out", data)


def test_a_path_that_does_not_exist(journal, cli, tmp_path):
    r = inbox(cli, journal, tmp_path / "nowhere.mbox", outbox=tmp_path / "out", codes=(2,))
    assert r.exit_code == 2 and "nowhere.mbox" in one_line(r)      # typed: usage, as new's
    assert not (tmp_path / "out").exists()


def test_a_message_file_over_the_limit(journal, cli, tmp_path):
    """Guards against: a single .eml over 1 MiB makes the whole run exit 2 ('larger than 1,048,576
    bytes; not a message', from home.read_named's UsageError), though the same message in an mbox or
    a Maildir is just one message rejected (and the other sources of the run are then not handled at
    all). Expected: handled as a message that cannot be read (exit 0), or exit 3."""
    big = eml(tmp_path / "in", mail(body="x" * 1_200_000 + "\n"), "big.eml")
    other = eml(tmp_path / "in", mail(mid="<small@x>"), "small.eml")
    r = inbox(cli, journal, big, other, outbox=tmp_path / "out")
    assert r.exit_code in (0, 3), r.stderr


def test_players_messages_over_the_limit_in_a_maildir_and_an_mbox_are_each_answered(
        journal, cli, tmp_path):
    """Guards against: two messages over the limit (none of their bytes read) were the same
    message to the ledger, the second 'already handled' and never answered; an mbox read one
    of up to 16 MB whole, and answered it from the header only if it fitted in memory.
    Each is answered from its header block at the registered address, as tick answers it,
    and known by it in the next run."""
    big = "y" * 75 + "\n"
    box = write_maildir(tmp_path / "md", [mail(body=big * 15_000, mid="<big1@x>")])
    mbox = write_mbox(tmp_path / "box.mbox", [mail(body=big * 15_000, mid="<big2@x>")])
    out = handled(cli, journal, box, mbox, outbox=tmp_path / "out")
    assert [(m["status"], m["from"]) for m in out] == \
        [("rejected", ADDRESSES["german"].lower())] * 2, out
    assert all("over the 1 MB the referee reads" in m["reason"] for m in out), out
    # His opening report goes too: neither answer carries it (no key was read).
    answers = [m for m in replies_to(tmp_path / "out", ADDRESSES["german"])
               if not report_title(m)]
    assert ["not accepted" in first_line(m) for m in answers] == [True, True], \
        [headline(m) for m in answers]
    assert all("over the 1 MB" in written(m.get_body(("plain",)).get_content()) for m in answers)
    again = handled(cli, journal, box, mbox, outbox=tmp_path / "out")
    assert {m["status"] for m in again} == {"known"}, again


def test_forged_mails_to_inbox_get_no_more_answers_than_a_registered_address_may(
        journal, cli, tmp_path, monkeypatch):
    """Anyone can forge the German's From (registered as Kaiser@Example.org) on mails over
    the limit, whose key is not read, or on mails without his key: inbox answers them all no
    more often than his address's one daily quota, as tick does, whatever the letter case
    it is written in."""
    from referee.mail import ledger as ledgermod

    monkeypatch.setattr(ledgermod, "REGISTERED_PER_DAY", 3)
    big = "y" * 75 + "\n"
    box = write_maildir(tmp_path / "md", [
        *(mail(body=big * 15_000, mid=f"<forged{i}@x>", subject=f"spam {i}")
          for i in range(3)),
        *(mail(body=f"hello {i}\n", mid=f"<keyless{i}@x>", subject=f"k{i}") for i in range(3))])
    out = handled(cli, journal, box, outbox=tmp_path / "out")
    assert [m["status"] for m in out] == ["rejected"] * 6, out
    answers = [m for m in replies_to(tmp_path / "out", ADDRESSES["german"])
               if "not accepted" in first_line(m)]
    assert len(answers) == 3, [headline(m) for m in answers]


def test_a_strangers_large_mail_under_a_players_message_id_hides_nothing_of_his(
        journal, cli, tmp_path):
    """Messages over the limit are known by their Message-ID and sender: a stranger's sent
    first under the Message-ID the German then uses is another message, and the German's is
    answered."""
    big = "y" * 75 + "\n"
    box = write_maildir(tmp_path / "md", [
        mail(SPY, body=big * 15_000, mid="<same@x>", date="Sat, 01 Aug 1914 10:00:00 +0100"),
        mail(body=big * 15_000, mid="<same@x>", date="Sat, 01 Aug 1914 11:00:00 +0100")])
    out = handled(cli, journal, box, outbox=tmp_path / "out")
    assert [(m["status"], m["side"]) for m in out] == [("rejected", None),
                                                      ("rejected", "german")], out
    assert ["not accepted" in first_line(m)
            for m in replies_to(tmp_path / "out", ADDRESSES["german"])
            if not report_title(m)] == [True]


def test_a_message_of_the_limit_exactly_is_read_from_an_mbox_as_from_a_maildir(
        journal, cli, tmp_path):
    """The limit counts a message's own bytes, not the line that begins it in an mbox."""
    from referee.mail.mailboxes import MAX_MESSAGE

    raw = mail()
    raw += b"x" * (MAX_MESSAGE - len(raw) - 1) + b"\n"
    assert len(raw) == MAX_MESSAGE
    out = handled(cli, journal, write_mbox(tmp_path / "box.mbox", [raw]),
                  outbox=tmp_path / "out")
    assert [m["status"] for m in out] == ["applied"], out


# ---------- permissions: a child process that file modes bind (tests/unprivileged.py)

@pytest.mark.parametrize("what", ["mbox", "maildir-new", "maildir-message"])
def test_a_mailbox_without_read_permission(unprivileged, cli, tmp_path, what):
    journal = new_game(cli, tmp_path / "game")
    if what == "mbox":
        source = write_mbox(tmp_path / "box.mbox", [mail()])
        locked = source
    else:
        source = write_maildir(tmp_path / "Maildir", [mail()])
        locked = source / "new" if what == "maildir-new" else next((source / "new").iterdir())
    before = journal.read_bytes()
    locked.chmod(0)
    r = inbox(unprivileged, journal, source, outbox=tmp_path / "out")
    assert journal.read_bytes() == before
    if what == "maildir-message":
        # One message this user may not read is set aside, named on one line; the rest of
        # the mailbox is handled (a later run, once it is readable, handles it).
        assert r.exit_code == 0, r.stderr
        (out,) = json.loads(r.stdout)["messages"]
        assert out["status"] == "unreadable" and "cannot be read" in out["reason"]
        assert out["where"].replace(":new/", "/new/") == str(locked)
        return
    assert r.exit_code == 3 and "cannot be read" in one_line(r)


# ---------------------------------------------------------------- D. the outbox

@pytest.mark.parametrize("kind", ["file", "dangling-symlink", "symlink-to-file", "under-a-file"])
def test_an_outbox_that_cannot_be_a_folder(journal, cli, tmp_path, kind):
    """Guards against (exit 4): write_outbox calls home.ensure_dir, which swallows FileExistsError,
    then home.write_new raises NotADirectoryError / FileNotFoundError, uncaught: 'internal error'.
    And it happens after the messages were applied and before the ledger is saved. Expected: exit 3,
    one line naming the outbox, the file left as it was."""
    if kind == "file":
        outbox = tmp_path / "outbox"
        outbox.write_text("keep me\n")
    elif kind == "dangling-symlink":
        outbox = tmp_path / "outbox"
        outbox.symlink_to(tmp_path / "nowhere")
    elif kind == "symlink-to-file":
        (tmp_path / "target").write_text("keep me\n")
        outbox = tmp_path / "outbox"
        outbox.symlink_to(tmp_path / "target")
    else:
        (tmp_path / "afile").write_text("keep me\n")
        outbox = tmp_path / "afile" / "outbox"
    r = inbox(cli, journal, eml(tmp_path / "in", mail(SPY, "hello\n")), outbox=outbox)
    assert r.exit_code == 3 and "outbox" in one_line(r)
    for p in (tmp_path / "outbox", tmp_path / "target", tmp_path / "afile"):
        if p.is_file():
            assert p.read_text() == "keep me\n"


def test_an_outbox_that_is_a_symlink_to_a_folder(journal, cli, tmp_path, data):
    """Observed: the link (named by the user) is followed; the mails land in its target."""
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "outbox").symlink_to(tmp_path / "elsewhere")
    handled(cli, journal, eml(tmp_path / "in", mail(SPY, "hello\n")), outbox=tmp_path / "outbox")
    assert len(list((tmp_path / "elsewhere").iterdir())) == 3
    assert_outbox_safe(tmp_path / "elsewhere", data)


def test_an_outbox_without_write_permission(unprivileged, cli, tmp_path):
    """Guards against (exit 4): PermissionError from home.write_new in mail._write is not caught:
    'internal error', after the German's orders were applied. Expected: exit 3, one line; and (this
    part holds) a later run with a writable outbox sends the German his report."""
    journal = new_game(cli, tmp_path / "game")
    source = eml(tmp_path / "in", mail())
    (tmp_path / "locked").mkdir()
    (tmp_path / "locked").chmod(0o500)
    r = unprivileged("inbox", journal, source, "--outbox", tmp_path / "locked", "--format", "json",
                     "--no-map")
    text = r.stdout + r.stderr
    again = unprivileged("inbox", journal, source, "--outbox", tmp_path / "open",
                         "--format", "json", "--no-map")
    assert again.exit_code == 0, again.stderr
    reports = [m for m in mails(tmp_path / "open") if "report for the German player" in headline(m)]
    assert len(reports) == 1
    last = records(journal)[-1]
    assert reports[0].get_content().rstrip("\n").endswith(f"{last['seq']}:{last['hash'][:32]}")
    assert "internal error" not in text and r.exit_code == 3, r.stderr


def test_replies_are_private_and_never_overwrite(journal, cli, tmp_path, data, monkeypatch):
    outbox = tmp_path / "out"
    outbox.mkdir()
    (outbox / "mine.eml").write_text("the moderator's own draft\n")
    os.chmod(outbox / "mine.eml", 0o644)
    handled(cli, journal, write_mbox(tmp_path / "box.mbox", [mail(), mail(SPY, "hi\n",
                                                                          mid="<s@x>")]),
            outbox=outbox)
    assert (outbox / "mine.eml").read_text() == "the moderator's own draft\n"
    new = [p for p in outbox.iterdir() if p.name != "mine.eml"]
    assert len(new) == 3
    for p in new:
        assert stat.S_IMODE(os.stat(p).st_mode) == 0o600
    # A name that is taken (forced here): the file there is never overwritten.
    import referee.mail.eml as mailmod

    monkeypatch.setattr(mailmod._secrets, "token_hex", lambda n=6: "mine")
    (outbox / "mine.eml").write_text("the moderator's own draft\n")
    cli("inbox", journal, eml(tmp_path / "in2", mail(SPY, "hi again\n", mid="<s2@x>")),
        "--outbox", outbox)
    assert (outbox / "mine.eml").read_text() == "the moderator's own draft\n"


def test_a_strangers_reply_holds_nothing_of_the_game(journal, cli, tmp_path, data):
    """A stranger who quotes the game (areas, units, cards, a guessed tag) gets a reply that
    repeats none of it; the players' report mails hold their own key only."""
    body = (f"Re: [referee {GAME} #2]\nmove ge-1 liege\nplay offensive\nParis Liège Verdun\n"
            "Order key: AAAA-BBBB-CCCC\n")
    out = handled(cli, journal, eml(tmp_path / "in", mail(SPY, body)), outbox=tmp_path / "out")
    assert [o["status"] for o in out] == ["rejected"], out
    (reply,) = replies_to(tmp_path / "out", SPY)
    assert_no_game_content(reply, data)
    assert "liège" not in reply.as_string().casefold()
    text = written(reply.get_body(("plain",)).get_content())
    assert "could not be matched" in text and max(map(len, text.splitlines())) <= 72, text
    assert_outbox_safe(tmp_path / "out", data)


# ---------------------------------------------------------------- E. replays and the ledger

def ledger_files() -> list[Path]:
    return sorted(Path(os.environ["REFEREE_HOME"]).rglob("*.ledger"))


def test_the_same_mbox_twice(journal, cli, tmp_path, data):
    box = write_mbox(tmp_path / "box.mbox", [
        mail(), mail(SPY, "hi\n", mid="<s@x>"),
        mail(subject="[referee othergame #1]", mid="<o@x>"),
        mail(body=f"surrender\n\nOrder key: {KEYS['entente']}\n", mid="<e@x>")])
    handled(cli, journal, box, outbox=tmp_path / "out1")
    after = journal.read_bytes()
    out = handled(cli, journal, box, outbox=tmp_path / "out2")
    assert {o["status"] for o in out} == {"known"}, out
    assert journal.read_bytes() == after
    assert mails(tmp_path / "out2") == []


def _early_rejected_then_legal(cli, journal: Path, tmp_path: Path, tagged: bool) -> Path:
    """The German's 'done' arrives before it is his turn (rejected), then the Entente pays the
    hits at Liège and fires, and the same 'done' would be legal (his retreat after combat).
    (The Entente is not asked for combat cards on turn 1: none of his could be played.)"""
    r = cli("order", journal, "--as", "german", "play offensive", "move ge-1 liege",
            "end movement", "done", "done", "done")
    assert r.exit_code == 0, r.output
    seq = records(journal)[-1]["seq"]
    subject = f"Re: [referee {GAME} #{seq}] german report" if tagged else "my orders"
    box = write_mbox(tmp_path / "box.mbox", [mail(body=f"done\n\nOrder key: {KEYS['german']}\n",
                                                  subject=subject, mid="<early@x>")])
    out = handled(cli, journal, box, outbox=tmp_path / "out1")
    assert [o["status"] for o in out] == ["rejected"], out
    r = cli("order", journal, "--as", "entente", "lose fort-liege", "lose fort-liege", "done",
            "lose fort-liege")
    assert r.exit_code == 0, r.output
    return box


# Only a tagged reply says which record it answered; an untagged message handled before a
# lost ledger is judged again as it stands now (a limit stated in docs/design.md).
@pytest.mark.parametrize("tagged", [True], ids=["tagged"])
@pytest.mark.parametrize("damage", ["garbage", "another-users-signature", "removed"])
def test_a_lost_ledger_never_applies_an_old_message(journal, cli, tmp_path, tagged, damage):
    """Guards against: messages handled but not applied are remembered only in the ledger, a
    per-user file keyed on the journal's absolute path (mail._ledger_path). Replaced by garbage or
    by another user's signed file, removed, or simply not found because the game folder was moved or
    another machine runs `inbox`: the German's old 'done', rejected when it came, is handled again
    and now applied, at a point of the game it was never written for. For a tagged message the
    Subject itself says which record it answered, yet the stale check only runs when ledger['sent']
    has the side (mail._handle)."""
    box = _early_rejected_then_legal(cli, journal, tmp_path, tagged)
    (ledger,) = ledger_files()
    if damage == "garbage":
        ledger.write_bytes(b"referee-signed 1\n" + b"0" * 64 + b"\n{\"handled\": \x00\xff")
    elif damage == "another-users-signature":
        import hashlib
        import hmac

        body = json.dumps({"game_id": GAME, "handled": {}, "ids": {}, "sent": {}}).encode()
        mac = hmac.new(os.urandom(32), body, hashlib.sha256).hexdigest().encode()
        ledger.write_bytes(b"referee-signed 1\n" + mac + b"\n" + body)
    else:
        ledger.unlink()
    before = journal.read_bytes()
    out = handled(cli, journal, box, outbox=tmp_path / "out2")
    assert [o["status"] for o in out] != ["applied"], out
    assert journal.read_bytes() == before


def test_a_forged_ledger_cannot_hide_a_new_message(journal, cli, tmp_path):
    """Another user's signed-looking ledger that lists the German's new message as handled
    (and mails as sent) is not believed: the message is applied."""
    import hashlib
    import hmac

    handled(cli, journal, write_maildir(tmp_path / "empty", []), outbox=tmp_path / "out0")
    raw = mail()
    (ledger,) = ledger_files()
    body = json.dumps({"game_id": GAME, "handled": {hashlib.sha256(raw).hexdigest(): "rejected"},
                       "ids": {"<m1@potsdam.example.org>": "rejected"},
                       "sent": {"german": 99, "entente": 99}}).encode()
    mac = hmac.new(os.urandom(32), body, hashlib.sha256).hexdigest().encode()
    ledger.write_bytes(b"referee-signed 1\n" + mac + b"\n" + body)
    out = handled(cli, journal, eml(tmp_path / "in", raw), outbox=tmp_path / "out")
    assert [(o["status"], o["records"]) for o in out] == [("applied", [3])], out


@pytest.mark.parametrize("kind", ["directory", "fifo", "symlink"])
def test_a_ledger_that_is_not_a_file(journal, cli, tmp_path, kind):
    handled(cli, journal, write_maildir(tmp_path / "empty", []), outbox=tmp_path / "out0")
    (ledger,) = ledger_files()
    ledger.unlink()
    if kind == "directory":
        ledger.mkdir()
    elif kind == "fifo":
        os.mkfifo(ledger)
    else:
        (tmp_path / "elsewhere").write_text("x")
        ledger.symlink_to(tmp_path / "elsewhere")
    if kind == "directory":
        # A ledger that cannot be kept: nothing is handled (a message handled without its
        # ledger entry could be answered twice, or applied after it was refused).
        before = journal.read_bytes()
        r = inbox(cli, journal, eml(tmp_path / "in", mail()), outbox=tmp_path / "out")
        assert r.exit_code == 3 and "ledger cannot be saved" in one_line(r)
        assert journal.read_bytes() == before
        return
    out = handled(cli, journal, eml(tmp_path / "in", mail()), outbox=tmp_path / "out")
    assert [o["status"] for o in out] == ["applied"], out
    if kind == "symlink":
        assert (tmp_path / "elsewhere").read_text() == "x"


def _receipt(m) -> str:
    last = written(m.get_content()).rstrip("\n").split("\n")[-1]
    assert last.startswith(f"Receipt: {GAME} "), last
    return last.split()[-1]


def rewound_on_purpose(journal) -> None:
    """What the moderator does after cutting a journal back himself: he removes the mark of
    what his referee last wrote to it, which the refusal names."""
    from forging import journal_mark

    journal_mark(journal).unlink()


def test_a_rewound_journal_gets_fresh_reports(journal, cli, tmp_path):
    """Guards against: the ledger remembers the report sent to each side by record number only
    (ledger['sent'][side] = seq). The German's 'play offensive' is applied (record 3, both players
    get a report with receipt 3:HASH); the moderator cuts the journal back to record 2 and enters
    'play limited_offensive' himself (another record 3); the next `inbox` sends the Entente nothing,
    because 'sent' is 3 again: his last receipt names a record that no longer exists (`verify
    --receipt` fails). 'sent' should keep the record's hash too."""
    box = write_mbox(tmp_path / "box.mbox", [mail()])
    cut = journal.read_bytes()
    out = handled(cli, journal, box, outbox=tmp_path / "out1")
    assert [(o["status"], o["records"]) for o in out] == [("applied", [3])]
    journal.write_bytes(cut)                                         # rewound by the moderator
    r = cli("order", journal, "--as", "german", "play limited_offensive")
    assert r.exit_code == 3 and "cut back" in r.stderr, r.output   # ... he must say so
    rewound_on_purpose(journal)
    r = cli("order", journal, "--as", "german", "play limited_offensive")
    assert r.exit_code == 0, r.output
    out = handled(cli, journal, box, outbox=tmp_path / "out2")
    assert all(o["status"] != "applied" for o in out), out         # not legal any more
    latest = {}
    sides = {a.casefold(): s for s, a in ADDRESSES.items()}
    for folder in ("out1", "out2"):                                  # later runs win
        for m in mails(tmp_path / folder):
            # A report, or the one reply to a message not applied, which holds the report.
            if re.search(r"report for the (German|Entente) player|not applied",
                         headline(m)):
                latest[sides[str(m["To"]).casefold()]] = _receipt(m)
    assert set(latest) == {"german", "entente"}
    for side, receipt in latest.items():
        r = cli("verify", journal, "--receipt", receipt)
        assert r.exit_code == 0, (side, receipt, r.output)


def test_a_tag_between_a_rewound_end_and_the_last_report(journal, cli, tmp_path, data):
    """Guards against (exit 2, whole run aborted): after the opening is applied by mail (records
    3-7, reports sent at 7) the moderator rewinds to record 2; a message tagged '#5' (a record that
    no longer exists, below ledger['sent']) makes mail._handle call _decision_of(journal, 5), i.e.
    open_game(upto=5): UsageError '--at 5: the journal has records 0 to 2', exit 2, with the
    messages before it in the same run applied but the ledger and the outbox not written."""
    cut = journal.read_bytes()
    opening = ("play offensive\nmove ge-1 liege\nend movement\ndone\ndone\n\n"
               f"Order key: {KEYS['german']}\n")
    out = handled(cli, journal, eml(tmp_path / "in1", mail(body=opening)),
                  outbox=tmp_path / "out1")
    assert out[0]["status"] == "applied" and len(out[0]["records"]) >= 4, out
    journal.write_bytes(cut)
    rewound_on_purpose(journal)
    before = journal.read_bytes()
    late = mail(subject=f"Re: [referee {GAME} #5] german report", mid="<late@x>",
                body=f"pass\n\nOrder key: {KEYS['german']}\n")
    r = inbox(cli, journal, eml(tmp_path / "in2", late), outbox=tmp_path / "out2")
    assert r.exit_code == 0, r.stderr
    (o,) = json.loads(r.stdout)["messages"]
    assert o["status"] in ("applied", "stale", "rejected"), o
    if o["status"] != "applied":
        assert journal.read_bytes() == before
    assert_outbox_safe(tmp_path / "out2", data)


# ---------------------------------------------------------------- F. a big mailbox

@pytest.mark.skipif(not os.environ.get("REFEREE_SLOW_TESTS"),
                    reason="about 10 s: set REFEREE_SLOW_TESTS=1")
def test_an_mbox_of_5_mb_with_2000_messages(journal, cli, tmp_path, data):
    """Measured (4.97 MB): about 6 s for the first run (1,999 strangers and one German
    message; 2,001 outbox files, each fsync'd), about 1 s for the second (all 'known'); about
    10 s for the whole test, building the mailbox included."""
    filler = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. " * 40 + "\n"
    raws = [mail(f"fan{i}@crowd.example", filler, mid=f"<n{i}@crowd.example>",
                 date=f"Sat, 01 Aug 1914 10:{i % 60:02d}:00 +0100") for i in range(1999)]
    raws.insert(1500, mail())
    box = write_mbox(tmp_path / "big.mbox", raws)
    assert 4_500_000 < box.stat().st_size < 5_500_000
    start = time.perf_counter()
    out = handled(cli, journal, box, outbox=tmp_path / "out")
    first = time.perf_counter() - start
    assert len(out) == 2000
    assert [o["status"] for o in out].count("applied") == 1
    start = time.perf_counter()
    out = handled(cli, journal, box, outbox=tmp_path / "out2")
    second = time.perf_counter() - start
    assert {o["status"] for o in out} == {"known"}
    assert first < 60 and second < 60, (first, second)


def test_a_plain_address_taken_without_the_round_trip_reads_back_by_it_too():
    """base/addresses.py takes a plain dot-atom address as reading back without setting it
    in a header: every such address, and ones a step from it, is judged as the round trip
    through a To header judges it."""
    import random
    import string
    from email.message import EmailMessage

    from referee.base import addresses

    def round_trip(address: str) -> bool:
        msg = EmailMessage()
        try:
            msg["To"] = address
            found = msg["To"].addresses
        except Exception:  # noqa: BLE001 - as reads_back takes it
            return False
        return "=?" not in address and len(found) == 1 and found[0].addr_spec == address

    rng = random.Random(7)
    atext = string.ascii_letters + string.digits + "!#$%&'*+/^_`{|}~-"
    odd = "=?.@()<>,;:\"\\ []"
    for _ in range(3000):
        local = ".".join("".join(rng.choices(atext, k=rng.randint(1, 6)))
                         for _ in range(rng.randint(1, 3)))
        domain = ".".join("".join(rng.choices(string.ascii_letters + "-", k=rng.randint(1, 5)))
                          for _ in range(rng.randint(1, 3)))
        address = f"{local}@{domain}"
        if rng.random() < 0.5:                      # a step away from plain
            at = rng.randrange(len(address) + 1)
            address = address[:at] + rng.choice(odd) + address[at:]
        assert addresses.reads_back(address) == round_trip(address), address


def test_html_of_three_hundred_thousand_tags_is_refused_before_it_is_parsed(journal, cli,
                                                                           tmp_path, data,
                                                                           monkeypatch):
    """A player's 1 MB HTML mail of 300,000 empty paragraphs cost the parser 2 s of the pass
    (its cost is per tag). Past MOST_TAGS tags the part is not read: the mail is refused
    saying why, and the parser is handed none of it."""
    from referee.mail import htmltext

    seen = []
    monkeypatch.setattr(htmltext._HtmlText, "handle_starttag",
                        lambda self, tag, attrs: seen.append(tag))
    html = ("<p>play offensive</p>" + "<p>" * 300_000 +
            f"<p>Order key: {KEYS['german']}</p>")
    before = journal.read_bytes()
    out = handled(cli, journal, eml(tmp_path / "in", mail(body=html, ctype="text/html")),
                  outbox=tmp_path / "out")
    assert [o["status"] for o in out] == ["rejected"], out
    assert "more than 100,000 tags" in out[0]["reason"], out
    assert journal.read_bytes() == before and seen == []
    assert_outbox_safe(tmp_path / "out", data)
    # A long thread's worth of tags is read as ever.
    assert htmltext.html_to_text("<p>x</p>" * 20_000).count("x") == 20_000
