"""A two-section skirmish played by mail through `inbox`: each side's orders come in its
mail with its order key; the German disputes the range of a British shot, and the
moderator's mail settles it. Replies and reports go to an outbox."""

from __future__ import annotations

import email
import json
import os
import re
import subprocess
import sys
from email.message import EmailMessage
from email.policy import default
from email.utils import formatdate

import pytest
from flowtext import mail_text, written

from referee.mail.ledger import REGISTERED_PER_DAY

BRITISH, GERMAN, UMPIRE = "tommy@example.org", "fritz@example.org", "umpire@example.com"
# The subject of the answer to a player's mail, as a campaign's names it: the game's tag at
# the journal's last record, then what became of the mail.
# An answer to a mail, as written: its text's first line says what became of the mail (its
# subject names the game, the reader and the turn alone).
ANSWER = re.compile(r"\n\n(?:Your mail was recorded: #\d|Nothing of your mail was recorded)")
# What ends a report mail, as a campaign's: the game's signing key, then the receipt.
RECEIPT = re.compile(r"Fingerprint: [0-9A-Z]{4}(?:-[0-9A-Z]{4}){3} \(the game's signing key\)\n"
                     r"Signed:\n  [A-Za-z0-9_-]{64}\n  [A-Za-z0-9_-]{64}\n  [A-Za-z0-9_-]{44}\n"
                     r"Receipt: \S+ [0-9]+:[0-9a-f]{32}\n\Z")


def without_receipt(body: str) -> str:
    """A report mail's text without the fingerprint and receipt lines it ends with (an
    AssertionError when it lacks them)."""
    tail = RECEIPT.search(body)
    assert tail is not None, body
    return body[:tail.start()]


def kind(m) -> str:
    """What an answer says became of the mail, by its first line: 'applied', 'not applied',
    'copy' (of a mail applied already), or '' for another mail (a report)."""
    text = m.get_payload(decode=True).decode()
    first = next((line for line in text.splitlines() if line.strip()), "")
    return "applied" if first.startswith("Your mail was recorded: #") else \
        "not applied" if first.startswith("Nothing of your mail was recorded") else \
        "copy" if first.startswith("This is a copy of your mail of ") else ""


def mailed_patrol(cli, journal, secret_file, *more: str) -> dict:
    """A new patrol game whose sides play by mail (and `more` players); their order keys."""
    r = cli("new", journal, "--game", "skirmish", "--scenario", "patrol", "--game-id", "patrol",
            "--secret-file", secret_file, "--player", f"british={BRITISH}", "--player",
            f"german={GERMAN}", *more)
    assert r.exit_code == 0, r.stderr
    return json.loads(cli("skirmish", "keys", journal, "--format", "json").stdout)["keys"]


def mail(folder, n: int, sender: str, key: str, *lines: str):
    msg = EmailMessage()
    msg["From"], msg["To"] = sender, "referee@example.com"
    msg["Subject"], msg["Message-ID"] = "orders", f"<m{n}@example.org>"
    msg["Date"] = formatdate(1_700_000_000 + 60 * n)
    msg.set_content(f"Order key: {key}\n\n" + "\n".join(lines) + "\n")
    path = folder / f"{n:02d}.eml"
    path.write_bytes(bytes(msg))
    return path


def test_a_skirmish_by_mail_with_a_disputed_range_settled(cli, tmp_path, secret_file):
    j = tmp_path / "patrol.jsonl"
    keys = mailed_patrol(cli, j, secret_file, "--player", f"moderator={UMPIRE}")
    box = tmp_path / "mail"
    box.mkdir()
    b, g, m = keys["british"], keys["german"], keys["moderator"]
    mails = [
        mail(box, 1, BRITISH, b, "move B2 mode=manoeuvre command=yes",
             "move B3 mode=stealthy command=yes", "done"),
        mail(box, 2, GERMAN, g, "move G2 mode=stealthy command=yes", "done"),
        # No off-table artillery in the patrol: its phase is passed over, fire comes next.
        mail(box, 3, BRITISH, b, "done"),                       # gallant and veteran fire
        mail(box, 4, GERMAN, g, "done"),
        mail(box, 5, BRITISH, b, "fire B1 at=G2 range=70 state=halted cover=none command=yes"),
        mail(box, 6, GERMAN, "WRONG-KEY", "dispute record=8 fact=range value=85"),
        mail(box, 7, GERMAN, g, "dispute record=8 fact=range value=85"),
        mail(box, 8, UMPIRE, m, "settle record=8 fact=range value=85"),
    ]
    out = tmp_path / "out"
    r = cli("inbox", j, *mails, "--outbox", out, "--format", "json")
    assert r.exit_code == 0, r.stderr
    got = [(x["side"], x["status"], x["records"]) for x in json.loads(r.stdout)["messages"]]
    assert got == [("british", "applied", [1, 2, 3]), ("german", "applied", [4, 5]),
                   ("british", "applied", [6]), ("german", "applied", [7]),
                   ("british", "applied", [8]), ("german", "refused", []),
                   ("german", "applied", [9]), ("moderator", "applied", [10])]
    doc = json.loads(cli("skirmish", "report", j, "--format", "json").stdout)
    assert doc["phase"] == "fire" and doc["turn"] == 1
    (dispute,) = doc["disputes"]
    assert dispute["declared"] == 70 and dispute["claimed"] == "85"
    assert dispute["ruling"]["value"] == 85
    shot = next(t for t in doc["tests"] if t["record"] == 8)
    assert shot["settled"] and shot["result"].startswith("void: out of range")
    assert all(f["state"] == "active" and f["pins"] == 0 for f in doc["figures"])
    replies = sorted(p.read_text() for p in out.iterdir())
    # A reply to each mail, written once the pass took them all: each reader's last keyed
    # one carries his report as the pass left the game (no report follows it), his earlier
    # ones say it follows; the keyless one tells nothing of the game.
    assert len(replies) == 8
    assert sum("\nForces:\n" in t for t in replies) == 3
    assert sum("Your report and your order key follow in the answer to your later mail."
               in t for t in replies) == 4
    assert any("the order key is missing or wrong" in t for t in replies)
    sent = {"fire B1 at=G2 range=70 state=halted cover=none command=yes",
            "move B2 mode=manoeuvre command=yes", "move B3 mode=stealthy command=yes",
            "move G2 mode=stealthy command=yes"}
    for p in out.iterdir():                 # read on a phone: an order alone may be longer
        body = email.message_from_bytes(p.read_bytes(), policy=default).get_content()
        long = [x for x in body.splitlines()       # a soft break's space shows nothing
                if len(x.rstrip()) > 72 and x.strip() not in sent]
        assert not long, (p.name, long)
    before = j.read_bytes()
    r = cli("inbox", j, *mails, "--format", "json")         # the same mails again: each
    assert {x["status"] for x in json.loads(r.stdout)["messages"]} == {"done"}   # answered once
    assert j.read_bytes() == before
    assert cli("verify", j, "--secret", secret_file).exit_code == 0


def test_a_skirmish_mail_is_read_with_the_skirmish_s_verbs(cli, tmp_path, secret_file,
                                                             monkeypatch):
    """The lines of a skirmish player's mail are told from his greeting and signature by the
    skirmish's own orders (engine/skirmish/order_text.py), not by TTLM's."""
    from referee.mail import message
    from referee.table.skirmish.order_text import KINDS

    j = tmp_path / "patrol.jsonl"
    keys = mailed_patrol(cli, j, secret_file)
    box = tmp_path / "mail"
    box.mkdir()
    read, given = message.order_lines, []

    def spy(body, key=None, verbs=message.CAMPAIGN_VERBS, **how):
        given.append(frozenset(verbs))
        return read(body, key, verbs, **how)

    monkeypatch.setattr(message, "order_lines", spy)
    sent = mail(box, 1, BRITISH, keys["british"], "move B2 mode=manoeuvre command=yes")
    r = cli("inbox", j, sent, "--format", "json")
    assert r.exit_code == 0, r.stderr
    assert [x["status"] for x in json.loads(r.stdout)["messages"]] == ["applied"]
    assert given == [frozenset(KINDS)]


def test_a_skirmish_player_s_prose_is_passed_over_and_named(cli, tmp_path, secret_file):
    """As for every game (docs/player.md): the prose around a skirmish player's orders is
    not read as orders, and the reply names it; an order under the signature is named too."""
    j = tmp_path / "patrol.jsonl"
    keys = mailed_patrol(cli, j, secret_file)
    box, out = tmp_path / "mail", tmp_path / "out"
    box.mkdir()
    sent = mail(box, 1, BRITISH, keys["british"], "Sorry, a slow week. My move:",
                "move B2 mode=manoeuvre command=yes", "Tommy", "-- ", "done")
    r = cli("inbox", j, sent, "--outbox", out, "--format", "json")
    assert r.exit_code == 0, r.stderr
    assert [x["status"] for x in json.loads(r.stdout)["messages"]] == ["applied"]
    replies = [mail_text(p) for p in out.glob("*.eml") if ANSWER.search(p.read_text())]
    [reply] = replies
    text = " ".join(reply.split())
    assert "Not read as orders (neither applied nor refused): above your orders 'Sorry, a " \
        "slow week. My move:', line 2 'Tommy'" in text, text
    assert "Below your signature" in text and "'done'" in text


def words(text: str) -> str:
    """text word for word, whatever its line breaks and indents."""
    return " ".join(text.split())


def as_mailed(cli, journal, side: str) -> str:
    """`skirmish report --as SIDE` as his mail carries it below its first lines: without the
    first paragraph of what he is asked, which the mail gives above the report."""
    from referee.render.record_text import wrap_lines

    doc = json.loads(cli("skirmish", "report", journal, "--as", side, "--format",
                         "json").stdout)
    first = "".join(f"{line}\n" for line in wrap_lines(doc["asked"][:1], 72, hang=0))
    report = cli("skirmish", "report", journal, "--as", side).stdout
    assert first in report, report
    return report.replace(first, "", 1)


TEST_1 = ('Tests:\n#1 British: move B2 mode=manoeuvre command=yes\n'
          '    D6=6 -> B2 may move up to 9" (manoeuvre) (Movement)\n')


def test_an_answer_carries_the_report_after_the_orders_and_its_reader_s_key(cli, tmp_path,
                                                                          secret_file):
    """A campaign's answer to a player's mail carries his report and his order key; a
    skirmish's carried only what was recorded or refused, so the player waited for another
    mail to read the result and find his key. Now the answer to a keyed mail, applied or
    refused, ends with its reader's report as the journal stands after it and his own key
    (no report of the same record is sent apart); a mail without the key, which may be
    anyone's, is told nothing of the game."""
    j = tmp_path / "patrol.jsonl"
    keys = mailed_patrol(cli, j, secret_file)
    box, out = tmp_path / "mail", tmp_path / "out"
    box.mkdir()
    mails = [mail(box, 1, BRITISH, keys["british"], "move B2 mode=manoeuvre command=yes"),
             mail(box, 2, GERMAN, keys["german"], "move G9 mode=stealthy command=yes"),
             mail(box, 3, GERMAN, "NOT-THE-KEY", "done")]
    r = cli("inbox", j, *mails, "--outbox", out, "--format", "json")
    assert [x["status"] for x in json.loads(r.stdout)["messages"]] == [
        "applied", "refused", "refused"], r.stdout
    got = [email.message_from_bytes(p.read_bytes(), policy=default) for p in out.iterdir()]
    answers = {str(m["In-Reply-To"]): (str(m["To"]), written(m.get_content())) for m in got}
    assert len(got) == len(answers) == 3 and None not in answers     # answers only
    for n, side, address, head in ((1, "british", BRITISH,
                                    "Your mail was recorded: #1\n#1 British: move B2"),
                                   (2, "german", GERMAN, "Nothing of your mail was recorded")):
        to, body = answers[f"<m{n}@example.org>"]
        assert to == address and body.startswith(head), body
        body = without_receipt(body)
        report = as_mailed(cli, j, side)       # after record 1
        if side == "british":       # his test is listed above the report, not again in it
            assert TEST_1 in report, report
            report = report.replace(TEST_1, "Other tests: none\n")
        # word for word: a mail sends the line after a soft break flush left (flowed.py)
        assert words(body).endswith(words(f"Report for the {side.title()} player\n" +
                                          report)) and \
            report.endswith(
            f"\nOrder key: {keys[side]}\n"), body
        other = keys["german" if side == "british" else "british"]
        assert other not in body
    to, body = answers["<m3@example.org>"]
    assert to == GERMAN and "the order key is missing or wrong" in body
    assert "Order key:" not in body and "Forces:" not in body and "#1" not in body, body
    assert not any(key in body for key in keys.values()), body
    # Yet it says where his key is and what to send, as a campaign's answer does, and
    # what to make of it if he did not write that mail.
    said = " ".join(body.split())
    assert "Your order key is at the end of each report the referee sends you, after the " \
        "words 'Order key'. Send your orders again with that line: reply to this mail, or " \
        "to your last report." in said and "If you did not write that message" in said, body


def test_forged_mails_without_the_key_get_a_bounded_number_of_answers(cli, tmp_path,
                                                                      secret_file):
    """Anyone can put a player's address in From: mails without his key are refused, and
    their answers to that address stop at the day's quota (ledger REGISTERED_PER_DAY), so
    the referee cannot be made to flood a player; each mail is still handled once."""
    j = tmp_path / "patrol.jsonl"
    mailed_patrol(cli, j, secret_file)
    box = tmp_path / "mail"
    box.mkdir()
    forged = [mail(box, n, BRITISH, "NOT-THE-KEY", "done") for n in range(1, 15)]
    out = tmp_path / "out"
    r = cli("inbox", j, *forged, "--outbox", out, "--format", "json")
    assert {x["status"] for x in json.loads(r.stdout)["messages"]} == {"refused"}
    answers = [p for p in out.glob("*.eml") if ANSWER.search(p.read_text())]
    assert len(answers) == REGISTERED_PER_DAY
    r = cli("inbox", j, *forged, "--outbox", out, "--format", "json")
    assert {x["status"] for x in json.loads(r.stdout)["messages"]} == {"done"}


def test_a_mail_with_no_text_to_read_is_refused_and_its_answers_bounded(cli, tmp_path,
                                                                       secret_file):
    """A mail from a player's address with no text part (a picture only) was an internal
    error at every pass. Its key cannot be read, so it may be anyone's: refused, nothing
    recorded, each answered once up to the day's quota, and handled once."""
    j = tmp_path / "p.jsonl"
    mailed_patrol(cli, j, secret_file)
    box = tmp_path / "box"
    box.mkdir()
    pictures = []
    for n in range(1, 15):
        path = mail(box, n, BRITISH, "unused", "done")
        msg = email.message_from_bytes(path.read_bytes())
        msg.replace_header("Content-Type", "image/png")
        path.write_bytes(msg.as_bytes())
        pictures.append(path)
    before = j.read_bytes()
    out = tmp_path / "out"
    r = cli("inbox", j, *pictures, "--outbox", out, "--format", "json")
    assert r.exit_code == 0, r.stderr
    got = json.loads(r.stdout)["messages"]
    assert {(x["side"], x["status"]) for x in got} == {("british", "refused")}
    assert all("no text part" in x["reason"] for x in got), got
    assert j.read_bytes() == before
    answers = [p for p in out.glob("*.eml") if ANSWER.search(p.read_text())]
    assert len(answers) == REGISTERED_PER_DAY
    r = cli("inbox", j, *pictures, "--outbox", out, "--format", "json")
    assert {x["status"] for x in json.loads(r.stdout)["messages"]} == {"done"}


def test_a_skirmish_inbox_holds_one_message_at_a_time(cli, tmp_path, secret_file,
                                                     monkeypatch):
    """Every message of the mailbox was read and parsed before the first was handled: 250
    strangers' mails of a megabyte took 584 MB. Each is now read when its turn comes and
    dropped once handled, as a campaign's inbox does."""
    from referee.mail import mailboxes

    held: set[int] = set()
    most = [0]
    load, release = mailboxes.Mailboxes.load, mailboxes.Mailboxes.release

    def loading(self, m, *a, **k):
        got = load(self, m, *a, **k)
        held.add(id(m))
        most[0] = max(most[0], len(held))
        return got

    def releasing(self, m):
        held.discard(id(m))
        return release(self, m)

    monkeypatch.setattr(mailboxes.Mailboxes, "load", loading)
    monkeypatch.setattr(mailboxes.Mailboxes, "release", releasing)
    j = tmp_path / "p.jsonl"
    keys = mailed_patrol(cli, j, secret_file)
    box = tmp_path / "box"
    box.mkdir()
    mails = [mail(box, n, f"s{n}@stranger.example", "none", "hello") for n in range(1, 6)]
    mails.append(mail(box, 6, BRITISH, keys["british"], "move B2 mode=manoeuvre command=yes"))
    r = cli("inbox", j, *mails, "--outbox", tmp_path / "out", "--format", "json")
    assert [x["status"] for x in json.loads(r.stdout)["messages"]] == ["refused"] * 5 + [
        "applied"]
    assert most[0] == 1, most


def test_a_mail_under_another_side_s_message_id_suppresses_nothing(cli, tmp_path,
                                                                   secret_file):
    """The German reuses the British mail's Message-ID (seen on a copy) and dates his mail
    earlier: both are applied, each as its own side's."""
    j = tmp_path / "p.jsonl"
    keys = mailed_patrol(cli, j, secret_file)
    box = tmp_path / "box"
    box.mkdir()
    british = mail(box, 5, BRITISH, keys["british"], "move B1 mode=stealthy command=yes",
                   "done")
    german = mail(box, 1, GERMAN, keys["german"], "done")
    german.write_bytes(german.read_bytes().replace(b"<m1@example.org>", b"<m5@example.org>"))
    r = cli("inbox", j, british, german, "--outbox", tmp_path / "out", "--format", "json")
    assert [(x["side"], x["status"]) for x in json.loads(r.stdout)["messages"]] == [
        ("german", "applied"), ("british", "applied")]


def test_a_keyless_mail_under_an_applied_mails_message_id_makes_no_copy_of_it_new(
        cli, tmp_path, secret_file):
    """Anyone who saw the British mail's Message-ID sends a keyless mail from the German's
    address under it: refused, and a relayed copy of the British mail (one more Received
    line) is still known as his, not answered a second time."""
    j = tmp_path / "p.jsonl"
    keys = mailed_patrol(cli, j, secret_file)
    box, out = tmp_path / "box", tmp_path / "out"
    box.mkdir()
    british = mail(box, 1, BRITISH, keys["british"], "move B2 mode=manoeuvre command=yes")
    forged = mail(box, 2, GERMAN, "NOT-THE-KEY", "hello")
    forged.write_bytes(forged.read_bytes().replace(b"<m2@example.org>", b"<m1@example.org>"))
    relayed = box / "relayed.eml"
    relayed.write_bytes(b"Received: from relay2.example.net\n" + british.read_bytes())
    seen = []
    for path in (british, forged, relayed):
        r = cli("inbox", j, path, "--outbox", out, "--format", "json")
        seen += [(x["side"], x["status"]) for x in json.loads(r.stdout)["messages"]]
    assert seen == [("british", "applied"), ("german", "refused"), ("british", "done")]
    answers = [email.message_from_bytes(p.read_bytes()) for p in out.glob("*.eml")]
    assert sorted(m["To"] for m in answers if kind(m)) == [GERMAN, BRITISH]


def test_a_mail_sent_again_under_another_message_id_is_applied_once(cli, tmp_path,
                                                                    secret_file):
    """The British mail comes again with the same Date, Subject and text under a new
    Message-ID (a gateway that rewrites it, a client that sends it twice): refused as a
    copy, answered, the journal as it was, in the same run or a later one; a new mail of
    his (a new Date) is read as ever."""
    j = tmp_path / "p.jsonl"
    keys = mailed_patrol(cli, j, secret_file)
    box, out = tmp_path / "box", tmp_path / "out"
    box.mkdir()
    first = mail(box, 1, BRITISH, keys["british"], "move B2 mode=manoeuvre command=yes")
    again = [box / "again-1.eml", box / "again-2.eml"]
    for n, path in enumerate(again):
        path.write_bytes(first.read_bytes().replace(b"<m1@example.org>",
                                                    f"<again{n}@example.org>".encode()))
    r = cli("inbox", j, first, again[0], "--outbox", out, "--format", "json")
    got = json.loads(r.stdout)["messages"]
    assert [(x["side"], x["status"]) for x in got] == [("british", "applied"),
                                                        ("british", "refused")]
    assert "a copy of your mail of" in got[1]["reason"] and "(record 1)" in got[1]["reason"]
    before = j.read_bytes()
    r = cli("inbox", j, again[1], "--outbox", out, "--format", "json")
    assert [x["status"] for x in json.loads(r.stdout)["messages"]] == ["refused"]
    assert j.read_bytes() == before
    answers = [email.message_from_bytes(p.read_bytes()) for p in out.glob("*.eml")]
    # Each copy is told what happened to it, no refusal: the mail was recorded once.
    assert sorted(kind(m) for m in answers if kind(m)) == ["applied", "copy", "copy"]
    later = mail(box, 2, BRITISH, keys["british"], "move B3 mode=stealthy command=yes")
    r = cli("inbox", j, later, "--outbox", out, "--format", "json")
    assert [x["status"] for x in json.loads(r.stdout)["messages"]] == ["applied"]


def test_a_mail_too_large_to_read_is_answered_from_its_header_by_tick(cli, tmp_path,
                                                                      secret_file):
    """tick reads a too-large mail's header only and owes its sender an answer: a skirmish
    never wrote it. The British player is told, once, at his registered address."""
    j, box, out = tmp_path / "p.jsonl", tmp_path / "box", tmp_path / "out"
    for sub in ("new", "cur", "tmp"):
        (box / sub).mkdir(parents=True)
    mailed_patrol(cli, j, secret_file, "--mail-in", box, "--mail-out", f"outbox:{out}")
    assert cli("tick", j, "--no-map").exit_code == 0
    big = mail(box / "new", 1, BRITISH, "unused", "x" * (1 << 20))
    for _ in range(2):
        r = cli("tick", j, "--no-map")
        assert r.exit_code == 0, r.stderr
    told = [email.message_from_bytes(p.read_bytes()) for p in out.glob("*.eml")]
    told = [m for m in told if kind(m) == "not applied"]
    assert [m["To"] for m in told] == [BRITISH]
    assert "over the 1 MB the referee reads" in " ".join(
        told[0].get_payload(decode=True).decode().split())
    assert big.exists()


def test_a_mail_too_large_to_read_is_answered_once_by_inbox_or_tick(cli, tmp_path,
                                                                   secret_file):
    """`inbox` answers a player's mail over the size limit as tick does: refused from its
    header, answered once at his registered address (no key can be read in it), whichever
    of the two reads it first; a stranger's is ignored, unanswered."""
    j, box, out = tmp_path / "p.jsonl", tmp_path / "box", tmp_path / "out"
    for sub in ("new", "cur", "tmp"):
        (box / sub).mkdir(parents=True)
    mailed_patrol(cli, j, secret_file, "--mail-in", box, "--mail-out", f"outbox:{out}")
    assert cli("tick", j, "--no-map").exit_code == 0
    before = j.read_bytes()
    big = mail(box / "new", 1, BRITISH, "unused", "x" * (1 << 20))
    stranger = mail(box / "new", 2, "who@example.net", "unused", "x" * (1 << 20))
    runs = [cli("inbox", j, big, stranger, "--outbox", out, "--format", "json")
            for _ in range(2)]
    assert all(r.exit_code == 0 for r in runs), runs[-1].stderr
    got = [[(x["side"], x["status"], x["new"]) for x in json.loads(r.stdout)["messages"]]
           for r in runs]
    assert got == [[("british", "refused", True), (None, "ignored", True)],
                   [("british", "done", False), (None, "ignored", True)]]
    assert "over the 1 MB" in json.loads(runs[0].stdout)["messages"][0]["reason"]
    assert cli("tick", j, "--no-map").exit_code == 0
    told = [email.message_from_bytes(p.read_bytes()) for p in out.glob("*.eml")]
    told = [m for m in told if kind(m)]
    assert [(m["To"], m["Subject"], kind(m), m["In-Reply-To"]) for m in told] == [
        (BRITISH, "[referee patrol] British player, turn 1", "not applied",
         "<m1@example.org>")]
    assert "over the 1 MB the referee reads" in " ".join(
        told[0].get_payload(decode=True).decode().split())
    assert j.read_bytes() == before


def test_a_pass_stopped_after_the_journal_answers_the_right_side_once(cli, tmp_path,
                                                                      secret_file):
    """Stopped after the British orders are in the journal: a keyless mail from the German's
    address under the same Message-ID is refused, telling nothing of the game; the British
    mail, read again, is answered once with its records."""
    j = tmp_path / "p.jsonl"
    keys = mailed_patrol(cli, j, secret_file)
    out, b1, b2 = tmp_path / "out", tmp_path / "b1", tmp_path / "b2"
    b1.mkdir()
    b2.mkdir()
    british = mail(b1, 1, BRITISH, keys["british"], "move B1 mode=stealthy command=yes")
    killed = subprocess.run([sys.executable, "-m", "referee", "inbox", str(j), str(british),
                             "--outbox", str(out)],
                            env={**os.environ, "REFEREE_FAULT": "direct applied"},
                            capture_output=True, timeout=120)
    assert killed.returncode == 70, killed.stderr
    forged = mail(b2, 1, GERMAN, "no-key", "hello")
    assert cli("inbox", j, forged, "--outbox", out).exit_code == 0
    assert cli("inbox", j, british, "--outbox", out).exit_code == 0
    answers = [email.message_from_bytes(p.read_bytes()) for p in out.glob("*.eml")]
    answers = [(m["To"], m.get_payload(decode=True).decode()) for m in answers
               if kind(m)]
    assert sorted(a[0] for a in answers) == [GERMAN, BRITISH]
    assert [t for to, t in answers if to == BRITISH][0].startswith("Your mail was recorded: #1")
    assert "move B1" not in [t for to, t in answers if to == GERMAN][0]


def test_mail_from_refuses_a_player_s_address_for_a_skirmish(cli, tmp_path, secret_file):
    """As `new --from` does: the referee's own address is no player's."""
    j = tmp_path / "p.jsonl"
    mailed_patrol(cli, j, secret_file)
    (tmp_path / "mb").write_bytes(b"")                  # an mbox with no mail yet
    r = cli("mail", j, "--in", str(tmp_path / "mb"), "--out", f"outbox:{tmp_path / 'ob'}",
            "--from", GERMAN)
    assert r.exit_code == 2 and "german's address" in r.stderr


def _to_the_british_artillery(cli, tmp_path, secret_file):
    """A patrol by mail through both sides' moves and the British artillery `done` (mail 3):
    the journal, the mailbox, the outbox and the four mails applied."""
    j = tmp_path / "p.jsonl"
    keys = mailed_patrol(cli, j, secret_file)
    box, out = tmp_path / "box", tmp_path / "out"
    box.mkdir()
    b, g = keys["british"], keys["german"]
    mails = [mail(box, 1, BRITISH, b, "move B2 mode=manoeuvre command=yes", "done"),
             mail(box, 2, GERMAN, g, "move G2 mode=stealthy command=yes", "done"),
             mail(box, 3, BRITISH, b, "done"),                  # off-table artillery
             mail(box, 4, GERMAN, g, "done")]
    r = cli("inbox", j, *mails, "--outbox", out, "--format", "json")
    assert [x["status"] for x in json.loads(r.stdout)["messages"]] == ["applied"] * 4
    return j, box, out, mails


def test_a_copy_whose_line_ends_a_relay_changed_is_still_a_copy(cli, tmp_path, secret_file):
    """The British artillery `done` comes again later under a new Message-ID with CRLF line
    ends (as an IMAP server or a relay may write it): still a copy, refused, and the
    gallant-fire step it would have closed is still his to play."""
    j, box, out, mails = _to_the_british_artillery(cli, tmp_path, secret_file)
    raw = mails[2].read_bytes().replace(b"<m3@example.org>", b"<m3-again@example.org>")
    again = box / "again.eml"
    again.write_bytes(raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))
    before = j.read_bytes()
    r = cli("inbox", j, again, "--outbox", out, "--format", "json")
    (got,) = json.loads(r.stdout)["messages"]
    assert got["status"] == "refused" and "a copy of your mail of" in got["reason"]
    assert j.read_bytes() == before


def test_a_relayed_copy_under_the_same_message_id_is_done_and_answered_once(
        cli, tmp_path, secret_file):
    """The British artillery `done` comes again under its own Message-ID as a relay or a
    mailing list passed it on (CRLF line ends; a Received line and a footer; a tag put in
    its subject): done, the journal as it was, and no second answer."""
    j, box, out, mails = _to_the_british_artillery(cli, tmp_path, secret_file)
    raw = mails[2].read_bytes()
    relayed = {"crlf": raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"),
               "footer": b"Received: from relay.example.net\n" + raw +
               b"\n-- \nScanned by ExampleAV\n",
               "tag": raw.replace(b"Subject: orders", b"Subject: [club] orders")}
    before, answers = j.read_bytes(), len(list(out.iterdir()))
    for name, copy in relayed.items():
        (box / f"{name}.eml").write_bytes(copy)
        r = cli("inbox", j, box / f"{name}.eml", "--outbox", out, "--format", "json")
        assert [x["status"] for x in json.loads(r.stdout)["messages"]] == ["done"], name
    assert j.read_bytes() == before and len(list(out.iterdir())) == answers


def test_a_keyed_mail_with_no_orders_is_refused_saying_so(cli, tmp_path, secret_file):
    """A player's keyed mail holding no order (a "thanks" above the report it quotes) records
    nothing and is answered once saying none was found, as the campaign's inbox answers it,
    not with an empty list of records."""
    j = tmp_path / "patrol.jsonl"
    keys = mailed_patrol(cli, j, secret_file)
    box, out = tmp_path / "mail", tmp_path / "out"
    box.mkdir()
    before = j.read_bytes()
    sent = mail(box, 1, BRITISH, keys["british"], "Thanks, see you next week.")
    r = cli("inbox", j, sent, "--outbox", out, "--format", "json")
    assert [x["status"] for x in json.loads(r.stdout)["messages"]] == ["refused"], r.stdout
    assert j.read_bytes() == before
    [reply] = [p.read_text() for p in out.glob("*.eml") if ANSWER.search(p.read_text())]
    text = " ".join(reply.replace("=\n", "").split())
    assert "Nothing of your mail was recorded: no orders found in the message" in text, text
    assert "was recorded: #" not in text


def test_a_sender_is_matched_to_a_side_by_case_only_never_casefolded(cli, tmp_path,
                                                                     secret_file):
    """straße@ and strasse@ are two mailboxes (mail/msgids.py): a mail from the one is no
    mail from the side registered with the other, even with that side's key (not applied,
    answered as a stranger's, not counted against his quota); the same address in other
    capitals is."""
    j = tmp_path / "p.jsonl"
    r = cli("new", j, "--game", "skirmish", "--scenario", "patrol", "--game-id", "patrol",
            "--secret-file", secret_file, "--player", "british=strasse@example.org",
            "--player", f"german={GERMAN}")
    assert r.exit_code == 0, r.stderr
    keys = json.loads(cli("skirmish", "keys", j, "--format", "json").stdout)["keys"]
    box = tmp_path / "mail"
    box.mkdir()
    other = mail(box, 1, "straße@example.org", keys["british"], "done")
    before = j.read_bytes()
    out = tmp_path / "out"
    r = cli("inbox", j, other, "--outbox", out, "--format", "json")
    assert r.exit_code == 0, r.stderr
    (got,) = json.loads(r.stdout)["messages"]
    assert (got["side"], got["status"]) == (None, "refused"), got
    assert j.read_bytes() == before
    assert not [p for p in out.glob("*.eml") if ANSWER.search(p.read_text())]
    told = [email.message_from_bytes(p.read_bytes(), policy=default)
            for p in out.glob("*.eml")]
    told = [str(m["To"]) for m in told if m["Subject"] == "referee: message not accepted"]
    assert told == ["straße@example.org"], told       # a stranger's answer, to him alone
    same = mail(box, 2, "STRASSE@example.org", keys["british"], "done")
    r = cli("inbox", j, same, "--outbox", out, "--format", "json")
    (got,) = json.loads(r.stdout)["messages"]
    assert got["side"] == "british" and got["status"] == "applied", got


# (the order refused, its lines as the answer quotes them: indented two columns, a line
# longer than 70 columns wrapped at its spaces, the rest indented two more: as a campaign's
# refusal quotes it, mail/refusal.py quoted_line)
REFUSED = [
    # no test of the movement phase
    ("fire B1 at=G2 range=70 state=halted cover=none command=yes",
     ["  fire B1 at=G2 range=70 state=halted cover=none command=yes"]),
    # move reads no range=; 76 columns
    ("move B3 mode=stealthy command=yes range=long cover=hard state=halted light=day",
     ["  move B3 mode=stealthy command=yes range=long cover=hard state=halted",
      "    light=day"]),
]


@pytest.mark.parametrize(("order", "quoted"), REFUSED)
def test_a_refused_line_is_quoted_on_a_line_of_its_own(cli, tmp_path, secret_file, order,
                                                       quoted):
    """The answer to a mail refused at a line quotes that line on its own, as a campaign's
    refusal does, not run into the sentence (where a phone breaks it anywhere); why it was
    refused follows without quoting it again."""
    j = tmp_path / "patrol.jsonl"
    keys = mailed_patrol(cli, j, secret_file)
    box, out = tmp_path / "mail", tmp_path / "out"
    box.mkdir()
    before = j.read_bytes()
    # A move that rolls no die first (a stealthy one): a line refused after a roll would
    # leave the line before it recorded (test_skirmish_dice_stand.py).
    sent = mail(box, 1, BRITISH, keys["british"], "move B2 mode=stealthy command=yes", order)
    r = cli("inbox", j, sent, "--outbox", out, "--format", "json")
    assert [x["status"] for x in json.loads(r.stdout)["messages"]] == ["refused"], r.stdout
    assert j.read_bytes() == before
    [reply] = [email.message_from_bytes(p.read_bytes(), policy=default)
               for p in out.glob("*.eml") if ANSWER.search(p.read_text())]
    lines = written(reply.get_content()).splitlines()
    assert lines[0].startswith("Nothing of your mail was recorded: ")
    at = lines.index("The line:")
    assert lines[at + 1:at + 3 + len(quoted)] == ["", *quoted, ""]
    rest = lines[at + 3 + len(quoted):]
    why = " ".join(rest[:rest.index("")])           # the report follows, after a blank line
    assert why.startswith("Why: ") and " ".join(order.split()[:2]) not in why, why
    assert all(len(line) <= 72 for line in lines)


def test_the_rule_a_refusal_cites_by_name_is_kept_on_one_line(cli, tmp_path, secret_file):
    """A skirmish's rules are cited by name: the answer's 'Why:' read "... (it belongs to
    fire) (rule" / "Sequence of Play)." on a phone; the name stays whole on its line. The
    phase it belongs to is named as a phase ("it belongs to fire" read as a test's name)."""
    j = tmp_path / "patrol.jsonl"
    keys = mailed_patrol(cli, j, secret_file)
    box, out = tmp_path / "mail", tmp_path / "out"
    box.mkdir()
    sent = mail(box, 1, BRITISH, keys["british"], REFUSED[0][0])
    assert cli("inbox", j, sent, "--outbox", out).exit_code == 0
    [reply] = [email.message_from_bytes(p.read_bytes(), policy=default)
               for p in out.glob("*.eml") if ANSWER.search(p.read_text())]
    lines = written(reply.get_content()).splitlines()
    at = next(n for n, line in enumerate(lines) if line.startswith("Why: "))
    assert lines[at:lines.index("", at)] == [
        "Why: fire is no test of the movement phase (it belongs to the fire",
        "phase) (rule Sequence of Play)."]


def test_skirmish_report_as_a_reader_tells_what_his_mail_asks(cli, tmp_path, secret_file):
    """`skirmish report --as SIDE` ends as SIDE's mailed report does: what he is asked now
    (his decision and the orders he may send, or whom the game waits on and what he may
    send meanwhile) and his own order key; the public is told whom the game waits on, with
    no key; --format json carries the same."""
    j = tmp_path / "patrol.jsonl"
    keys = mailed_patrol(cli, j, secret_file)
    box, out = tmp_path / "mail", tmp_path / "out"
    box.mkdir()
    sent = mail(box, 1, BRITISH, keys["british"], "move B2 mode=manoeuvre command=yes", "done")
    assert cli("inbox", j, sent, "--outbox", out).exit_code == 0
    reports = {}
    for p in out.glob("*.eml"):
        msg = email.message_from_bytes(p.read_bytes(), policy=default)
        if "\nForces:\n" in written(msg.get_content()):      # a report, or an answer carrying one
            reports[str(msg["To"])] = written(msg.get_content())
    for side, address in (("british", BRITISH), ("german", GERMAN)):
        body = without_receipt(reports[address])
        tail = body[body.index("\n\n", body.index("Forces:")):]     # after the report
        r = cli("skirmish", "report", j, "--as", side)
        assert r.exit_code == 0, r.stderr
        # The mail says the first paragraph of what is asked at its top alone.
        assert words(as_mailed(cli, j, side)).endswith(words(tail)) and \
            tail.endswith(f"\nOrder key: {keys[side]}\n")
        doc = json.loads(cli("skirmish", "report", j, "--as", side, "--format", "json").stdout)
        assert (doc["reader"], doc["order_key"]) == (side, keys[side])
        asked = tail.removesuffix(f"\nOrder key: {keys[side]}\n")
        assert " ".join(" ".join(doc["asked"][1:]).split()) == " ".join(asked.split())
        above = " ".join(body.partition("\n\nReport for ")[0].split())
        assert above.endswith(" ".join(doc["asked"][0].split())), body
    # the British is done with the movement phase; the German still owes his
    british = cli("skirmish", "report", j, "--as", "british").stdout
    assert "\nWaiting on the German player: turn 1, movement phase" in british
    assert "\nYour decision: turn 1, movement phase" in cli("skirmish", "report", j, "--as",
                                                           "german").stdout
    for options in ([], ["--as", "public"]):
        public = cli("skirmish", "report", j, *options)
        assert public.exit_code == 0, public.stderr
        assert public.stdout.endswith("\n\nWaiting on the German player: turn 1, movement "
                                      "phase: the tests of the\nphase with the facts each "
                                      "side declares, then done (Sequence of Play).\n"), \
            public.stdout
        doc = json.loads(cli("skirmish", "report", j, *options, "--format", "json").stdout)
        assert doc["reader"] == "public" and "order_key" not in doc
        assert doc["asked"] == ["Waiting on the German player: turn 1, movement phase: the "
                                "tests of the phase with the facts each side declares, then "
                                "done (Sequence of Play)."]
    r = cli("skirmish", "report", j, "--as", "french")
    assert r.exit_code == 2 and "--as 'french'" in r.stderr


def test_a_report_printed_without_the_key_points_to_the_mails(cli, tmp_path, secret_file):
    """`report --as SIDE` prints no order key (as a campaign's never does), so what it asks
    must not point to an Order key line below it: the reply keeps the one the mail gives."""
    j = tmp_path / "patrol.jsonl"
    keys = mailed_patrol(cli, j, secret_file)
    for side in ("british", "german"):
        r = cli("report", j, "--as", side)
        assert r.exit_code == 0, r.stderr
        flat = " ".join(r.stdout.split())
        assert keys[side] not in r.stdout and "Order key line below" not in flat
        if side == "german":                    # he waits for a British unit to move
            assert flat.endswith("keeping the Order key line your mail gives."), flat
            continue
        assert "Reply with one order a line, keeping the Order key line your mail gives, " \
            "each made as one of these" in flat and flat.endswith(" done"), flat


def test_the_moderator_is_mailed_his_key_then_only_when_a_dispute_asks_him(
        cli, tmp_path, secret_file):
    """The moderator's part in a skirmish is to settle disputes (the card's Disputes): he is
    mailed his order key once, at the start, and then only when a player disputes a fact,
    not a report at every record while nothing is asked of him."""
    j = tmp_path / "patrol.jsonl"
    keys = mailed_patrol(cli, j, secret_file, "--player", f"moderator={UMPIRE}")
    box, out = tmp_path / "mail", tmp_path / "out"
    box.mkdir()

    def to_umpire(*lines: tuple) -> list[str]:
        """The mails to the moderator written by one inbox run of the mails given."""
        before = set(out.iterdir()) if out.exists() else set()
        mails = [mail(box, n, sender, key, *said) for n, sender, key, *said in lines]
        none = tmp_path / "none.mbox"
        none.touch()
        r = cli("inbox", j, *(mails or [none]), "--outbox", out)
        assert r.exit_code == 0, r.output
        new = [email.message_from_bytes(p.read_bytes(), policy=default)
               for p in set(out.iterdir()) - before]
        return [written(m.get_body(("plain",)).get_content()) for m in new
                if str(m["To"]) == UMPIRE]

    [first] = to_umpire()
    assert f"Order key: {keys['moderator']}" in first, first
    b, g = keys["british"], keys["german"]
    assert to_umpire((1, BRITISH, b, "move B2 mode=manoeuvre command=yes", "done"),
                     (2, GERMAN, g, "done"), (3, BRITISH, b, "done"), (4, GERMAN, g, "done"),
                     (5, BRITISH, b, "fire B1 at=G2 range=70 state=halted cover=none "
                                     "command=yes")) == []
    [asked] = to_umpire((6, GERMAN, g, "dispute record=6 fact=range value=85"))
    assert "settle record=N" in asked and "range" in asked, asked
    # What he is asked is what his mail opens with, on a phone's first screen; not whom
    # the game waits on, with his question after the whole report.
    first = " ".join(asked.split("\n\n")[0].split())
    assert first == "Disputes for you to settle: record 6's range. Reply with settle " \
        "record=N fact=KEY value=VALUE, or settle record=N uphold=yes, keeping the Order " \
        "key line below.", asked
    assert to_umpire((7, BRITISH, b, "done")) == []
