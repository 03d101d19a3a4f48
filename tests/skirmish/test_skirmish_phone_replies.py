"""The sample patrol by mail as a player on a phone plays it: each mail is a Reply to the
referee's latest mail to him (or an older one), appended to the game's mbox, and `tick`
reads it. A plain Reply quotes the referee's mail, key and all, under the orders."""

from __future__ import annotations

import email
import email.policy
import email.utils
import json
import mailbox
from pathlib import Path

from test_skirmish_mail import BRITISH, GERMAN, UMPIRE

# A phone's Reply: the orders, then the referee's mail quoted ('> ') below them.
QUOTE = "quote"


class Phone:
    """A patrol whose mail comes in through an mbox and goes out to an outbox folder; each
    player's replies to the mails he was sent."""

    def __init__(self, cli, tmp_path: Path):
        self.cli, self.n = cli, 0
        self.j, self.box, self.out = (tmp_path / "p.jsonl", tmp_path / "mail.mbox",
                                      tmp_path / "outbox")
        self.box.write_bytes(b"")
        r = cli("new", self.j, "--game", "skirmish", "--scenario", "patrol", "--game-id",
                "patrol", "--player", f"british={BRITISH}", "--player", f"german={GERMAN}",
                "--player", f"moderator={UMPIRE}", "--mail-in", self.box, "--mail-out",
                f"outbox:{self.out}")
        assert r.exit_code == 0, r.output
        self.keys = json.loads(cli("skirmish", "keys", self.j, "--format", "json").stdout
                               )["keys"]
        self.tick()

    def tick(self) -> list[dict]:
        """One pass: what became of each mail it read."""
        r = self.cli("tick", self.j, "--format", "json")
        assert r.exit_code == 0, r.output
        return json.loads(r.stdout)["games"][0]["messages"]

    def mails_to(self, address: str) -> list:
        """The referee's mails to address, the oldest first."""
        found = [email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
                 for p in self.out.rglob("*.eml")]
        return sorted((m for m in found if m["To"] == address),
                      key=lambda m: (email.utils.parsedate_to_datetime(m["Date"]),
                                     _record(m)))

    def reply(self, address: str, body: str, to=None, quote: bool = False,
              written: bool = False):
        """A reply from address to the mail `to` (the latest to him with his key when None):
        body, then the mail quoted when quote. The mail replied to. written: as Python's
        email package writes it (bytes(msg): a header over 78 columns it cannot fold, the
        referee's long Message-ID, RFC 2047-encoded), not as mailbox writes it (unfolded)."""
        to = to if to is not None else self.keyed(address)[-1]
        text = body
        if quote:
            text += "\n\n" + "\n".join(
                "> " + line for line in to.get_body(("plain",)).get_content().splitlines())
        self.n += 1
        m = email.message.EmailMessage()
        m["From"], m["To"], m["Subject"] = address, to["From"], "Re: " + to["Subject"]
        m["In-Reply-To"], m["References"] = to["Message-ID"], to["Message-ID"]
        m["Message-ID"] = f"<phone{self.n}@example.org>"
        m["Date"] = email.utils.formatdate(1_795_000_000 + 60 * self.n)
        m.set_content(text + "\n")
        box = mailbox.mbox(self.box)
        box.add(bytes(m) if written else m)
        box.close()
        return to

    def keyed(self, address: str) -> list:
        """The referee's mails to address that carry his order key (a report, or an answer
        to a mail that carried it), the oldest first."""
        return [m for m in self.mails_to(address)
                if "Order key: " in m.get_body(("plain",)).get_content()]

    def answer(self) -> str:
        """The text of the referee's answer to the last mail sent, its words as they run."""
        ident = f"<phone{self.n}@example.org>"
        found = [m for a in (BRITISH, GERMAN, UMPIRE) for m in self.mails_to(a)
                 if m["In-Reply-To"] == ident]
        assert len(found) == 1, ident
        return " ".join(found[0].get_body(("plain",)).get_content().split())

    def status(self) -> dict:
        return json.loads(self.cli("status", self.j, "--format", "json").stdout)


def _record(m) -> int:
    """The record a mail of the referee's was written at, as its Message-ID names it."""
    return int(m["Message-ID"].split(".")[2])


def _statuses(found: list[dict]) -> list[tuple[str, str]]:
    return [(x["side"], x["status"]) for x in found]


def test_a_phone_s_reply_is_keyed_by_the_quoted_copy_of_the_referee_s_mail(cli, tmp_path,
                                                                             clock):
    """The key only in the quoted copy (a plain Reply): taken, as a campaign's mail is. But
    a key of the other side quoted makes no mail of that side: the German's mail, quoted
    whole, sent on from the British address, is neither the British's (his key is not in
    it) nor the German's (not his address); the German's address with the British key
    quoted is refused too. Nothing of them is recorded."""
    p = Phone(cli, tmp_path)
    before = p.j.read_bytes()
    p.reply(BRITISH, "move G1 mode=rush", to=p.keyed(GERMAN)[-1], quote=True)
    p.reply(GERMAN, f"move B2 mode=manoeuvre command=yes\n\n> Order key: {p.keys['british']}")
    found = p.tick()
    assert _statuses(found) == [("british", "refused"), ("german", "refused")], found
    assert all("the order key is missing or wrong" in x["reason"] for x in found)
    assert p.j.read_bytes() == before
    report = p.keyed(BRITISH)[-1]           # an answer to a keyless mail carries no key
    p.reply(BRITISH, "move B2 mode=manoeuvre command=yes", to=report, quote=True)
    found = p.tick()
    assert _statuses(found) == [("british", "applied")], found[0]["reason"]
    assert p.answer().startswith("Your mail was recorded: #")


def test_a_phone_s_full_stop_ending_an_order_is_no_part_of_it(cli, tmp_path, clock):
    """`Done.` and `command=yes.`: each line read again without the full stop (or '!',
    '…') a phone ends it with, as a campaign's order is; a line that reads as no order
    either way is refused as typed, with its first error, and records nothing."""
    p = Phone(cli, tmp_path)
    p.reply(BRITISH, "Move B2 mode=manoeuvre command=yes.\nDone.", quote=True)
    found = p.tick()
    assert _statuses(found) == [("british", "applied")], found[0]["reason"]
    assert [r["order"] for r in _records(p)[-2:]] == ["Move B2 mode=manoeuvre command=yes",
                                                      "Done"]
    before = p.j.read_bytes()
    p.reply(GERMAN, "move G2 mode=stealthy command=yes\nDone with it.", quote=True)
    found = p.tick()
    assert _statuses(found) == [("german", "refused")]
    assert "'it.' is not a word of an order" in found[0]["reason"], found[0]["reason"]
    assert p.j.read_bytes() == before
    p.reply(GERMAN, "move G2 mode=stealthy command=yes!\ndone…", quote=True)
    found = p.tick()
    assert _statuses(found) == [("german", "applied")], found[0]["reason"]
    assert [r["order"] for r in _records(p)[-2:]] == ["move G2 mode=stealthy command=yes",
                                                      "done"]


def _records(p: Phone) -> list[dict]:
    return [json.loads(line) for line in p.j.read_text().splitlines()]


def _text(m) -> str:
    return " ".join(m.get_body(("plain",)).get_content().split())


def test_a_reply_to_an_older_mail_is_stale_once_the_phase_moved_on(cli, tmp_path, clock):
    """The German's "done" in reply to his mail of the veterans' fire step, once the
    regulars' step has begun (the patrol has no off-table artillery: fire follows
    movement): refused as stale, as a campaign's is, saying so and what to do; nothing
    recorded, and his regulars still fire. Both sides' replies to the same step's mails are
    no stale ones: the other side's orders in it change nothing he is asked."""
    p = Phone(cli, tmp_path)
    p.reply(BRITISH, "move B2 mode=manoeuvre command=yes\ndone", quote=True)
    p.tick()
    p.reply(GERMAN, "done", quote=True)
    p.tick()
    veterans = p.keyed(GERMAN)[-1]
    assert "Your decision: turn 1, fire phase (gallant and veteran figures fire now)" in \
        _text(veterans)
    p.reply(BRITISH, "done", quote=True)
    p.reply(GERMAN, "done", to=veterans, quote=True)
    found = p.tick()
    assert _statuses(found) == [("british", "applied"), ("german", "applied")], found
    assert "regular and stubborn and ferocious figures fire now" in p.status()["prompt"]
    before, last = p.j.read_bytes(), _records(p)[-1]["seq"]
    p.reply(GERMAN, "done", to=veterans, quote=True)
    found = p.tick()
    assert _statuses(found) == [("german", "refused")]
    # He knows the mail he answered by its turn and step, as its first line named them;
    # its record is in brackets, for the moderator.
    assert found[0]["reason"] == (
        f"it answers your mail of turn 1, fire phase (gallant and veteran figures fire now) "
        f"(record {_record(veterans)}), and your decision has changed since (the game is at "
        f"record {last}); reply to the latest mail")
    assert p.j.read_bytes() == before
    assert "german" in p.status()["waiting_on"]
    answer = p.answer()
    assert answer.startswith("Nothing of your mail was recorded: it answers your mail of "
                             "turn 1, fire phase (gallant and veteran figures fire now) "
                             "(record ")
    # Its opening is a sentence, with its full stop, as every other answer's is.
    assert f"(the game is at record {last}); reply to the latest mail. Your decision: " \
        in answer, answer
    assert "Your decision: turn 1, fire phase" in answer and "Order key: " in answer


def test_an_address_two_sides_share_is_told_apart_by_the_key_typed_not_the_one_quoted(
        cli, tmp_path, secret_file):
    """One player plays both sides from one address: his German 'done', typed with the
    German key above a quoted mail of the British player's (key and all), is the German's,
    not the British side's whose key comes first among the players."""
    j, both = tmp_path / "p.jsonl", "both@example.org"
    r = cli("new", j, "--game", "skirmish", "--scenario", "patrol", "--game-id", "patrol",
            "--secret-file", secret_file, "--player", f"british={both}", "--player",
            f"german={both}")
    assert r.exit_code == 0, r.stderr
    keys = json.loads(cli("skirmish", "keys", j, "--format", "json").stdout)["keys"]
    msg = email.message.EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = both, "referee@example.com", "orders"
    msg["Message-ID"], msg["Date"] = "<both-1@example.org>", email.utils.formatdate(1.7e9)
    msg.set_content(f"Order key: {keys['german']}\n\ndone\n\n> Your decision: turn 1\n"
                    f"> Order key: {keys['british']}\n")
    path = tmp_path / "both.eml"
    path.write_bytes(bytes(msg))
    r = cli("inbox", j, path, "--format", "json")
    assert r.exit_code == 0, r.stderr
    told = json.loads(r.stdout)["messages"][0]
    assert (told["status"], told["side"]) == ("applied", "german"), told


def test_a_stale_reply_whose_in_reply_to_is_encoded_is_still_stale(cli, tmp_path, clock):
    """A reply written by Python's email package to an old mail of the referee's: its
    In-Reply-To, the referee's Message-ID, too long to fold, is RFC 2047-encoded
    (=?utf-8?q?=3Crec=2E...). Read decoded, it is still known to answer that mail, and a
    stale `done` is refused, not applied to the phase that came since."""
    p = Phone(cli, tmp_path)
    first = p.keyed(GERMAN)[-1]
    p.reply(BRITISH, "done", quote=True)
    p.reply(GERMAN, "done", quote=True)
    p.tick()
    before = p.j.read_bytes()
    p.reply(GERMAN, "done", to=first, quote=True, written=True)
    raw = p.box.read_bytes().decode()
    assert "\nIn-Reply-To: =?utf-8?q?=3Crec=2Epatrol=2E" in raw, raw[-2000:]
    found = p.tick()
    assert _statuses(found) == [("german", "refused")], found
    assert found[0]["reason"].startswith(
        f"it answers your mail of turn 1, movement phase (record {_record(first)}), and your "
        f"decision has changed "), found
    assert p.j.read_bytes() == before
