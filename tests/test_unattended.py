"""A game that runs itself, end to end: after `referee new` the moderator does nothing.

The players (this test acting as them) read only what the SMTP server on 127.0.0.1
received and mail their orders into the IMAP folder `tick` reads; time moves only when
the test sets REFEREE_NOW. The game starts on Monday 23 November 2026 at 18:00 UTC with
`--deadline 48h --reminders 24h,2h --missed default --extensions 1`; every time below is
worked out by hand from those numbers. Then `tick` killed at each of its steps and run
again, and eight `tick`s at once on one game and one mailbox.
"""

from __future__ import annotations

import email
import email.policy
import email.utils
import json
import os
import re
from collections import Counter
from datetime import UTC, datetime, timedelta
from multiprocessing.process import BaseProcess
from pathlib import Path

import forkedruns
import pytest
from forging import fixed_key
from mailkinds import headline
from mailservers import (
    PASSWORD,
    ImapServer,
    Route,
    SmtpServer,
    mail_settings,
    route_through,
)

import gamecalls as g
from referee.base.clock import NOW_VARIABLE
from referee.base.flowing import FLOWED
from referee.cli.commands import _tick_document
from referee.cli.roundtrips import choose
from referee.engine import acting
from referee.mail import ledger as ledgermod
from referee.mail import tick as ticking
from referee.store import home as homemod

ADDRESSES = {"german": "kaiser@example.org", "entente": "joffre@example.net",
             "moderator": "umpire@example.com"}
SIDE_OF = {a: s for s, a in ADDRESSES.items()}
START = datetime(2026, 11, 23, 18, 0, tzinfo=UTC)           # a Monday
GAME_ID = "e2e"


def at(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


class Post(Route):
    """The game's mail as its players see it: the IMAP folder they write to, the mails
    the SMTP server received for them."""

    def __init__(self, imap: ImapServer, smtp: SmtpServer, folder: str):
        super().__init__(imap, smtp, folder)
        self.posted: dict[str, bytes] = {}         # Message-ID -> the raw message

    def received(self) -> list[email.message.EmailMessage]:
        return [email.message_from_bytes(raw, policy=email.policy.default)
                for _, _, raw in self.smtp.received]

    def mails_to(self, side: str) -> list[email.message.EmailMessage]:
        return [m for m in self.received() if str(m["To"]) == ADDRESSES[side]]

    def send(self, side: str, lines: list[str], answering) -> str:
        """side's reply to a mail of the referee's: his lines and his order key."""
        key = re.search(r"Order key: (\S+)", text_of(answering)).group(1)
        mid = f"<p{len(self.posted)}.{side}@players.example>"
        raw = (f"From: {ADDRESSES[side]}\nTo: {ADDRESSES['moderator']}\n"
               f"Subject: Re: {answering['Subject']}\nIn-Reply-To: {answering['Message-ID']}\n"
               f"Date: {email.utils.formatdate(1_000_000_000 + len(self.posted))}\n"
               f"Message-ID: {mid}\n\n" + "\n".join(lines) + f"\n\nOrder key: {key}\n"
               ).encode()
        self.posted[mid] = raw
        self.imap.deliver(self.folder, raw)
        return mid


@pytest.fixture
def post(servers, monkeypatch, tmp_path) -> Post:
    return route_through(servers, monkeypatch, tmp_path / "user", Post)


def text_of(mail) -> str:
    return mail.get_body(("plain",)).get_content()


def words(text: str) -> str:
    return " ".join(text.split())


def records(journal: Path) -> list[dict]:
    return [json.loads(line) for line in journal.read_text().splitlines()]


def new_game(cli, folder: Path, post: Post, secret: Path | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    journal = folder / f"{GAME_ID}.jsonl"
    r = cli("new", journal, "--scenario", "1914", "--game-id", GAME_ID,
            *(("--secret-file", secret) if secret else ()),
            "--signing-key", fixed_key(folder.parent / "keys"),
            *[a for side, address in ADDRESSES.items()
              for a in ("--player", f"{side}={address}")],
            "--mail-in", post.source, "--mail-out", post.target, "--deadline", "48h",
            "--reminders", "24h,2h", "--missed", "default", "--extensions", "1")
    assert r.exit_code == 0, r.output
    return journal


def tick(cli, journal: Path, command_line: bool = False) -> dict:
    """One pass: `referee tick` itself with command_line, else the function it calls (the
    command line's start costs more than the pass); the game's part of its JSON."""
    if command_line:
        r = cli("tick", journal, "--no-map", "--format", "json")
        assert r.exit_code == 0, r.output
        assert PASSWORD not in r.output
        return json.loads(r.stdout)["games"][0]
    token = FLOWED.set(True)            # its mails laid out as the command lays them out
    try:
        report = ticking.tick(journal, with_map=False)
    finally:
        FLOWED.reset(token)
    assert PASSWORD not in "\n".join(report.lines())
    return _tick_document(report)["games"][0]


# ---------------------------------------------------------------- the players' policy

def offered(mail) -> list[str]:
    """The orders a mail offers for the decision it asks (its 'Reply with one order per
    line' list: each code with its choices, and the 'Also:' ones)."""
    body = text_of(mail)
    tail = body.split("Reply with one order per line, made from these:", 1)[1]
    found = []
    for line in words(tail).split(" - ")[1:]:
        line = line.split(" Orders due by")[0].split(" Order key:")[0].rstrip(". ")
        if line.startswith("Also: "):
            found += line.removeprefix("Also: ").split(", ")
        elif " → " in line:
            code, choices = line.split(" → ", 1)
            found += [f"{code} {c}" for c in choices.split(", ")]
    return found


def cheapest(mail, journal: Path, side: str) -> list[str]:
    """What a player who wants the turn over sends: the first decision from what the mail
    offers (a pass, 'done', 'end turn', else the first choice), and each later decision of
    his before anything else happens (a dry run tells where the mail must stop) by the
    fixed policy of `make roundtrips`."""
    mine = offered(mail)
    first = next((o for o in ("pass", "done", "end turn", "end movement") if o in mine),
                 None)
    texts: list[str] = []
    game = g.open_game(journal)
    state, data = game.state, game.data
    while state.phase != "over" and acting(state, side):
        if texts or first is None:
            text = "pass" if state.pending.kind == "card_or_pass" else choose(state, data,
                                                                               side, [])
        else:
            text = first
        probe = g.submit(journal, side, [*texts, text], dry_run=True)
        assert probe.rejected is None, (texts, text, probe.rejected)
        texts.append(text)
        if probe.stopped is not None:
            break
        state = probe.state
    return texts


# ---------------------------------------------------------------- a game by mail only

class Table:
    """The game, its post and the clock: each pass of `tick` at a time the test sets."""

    def __init__(self, cli, journal: Path, post: Post, monkeypatch):
        self.cli, self.journal, self.post, self.mp = cli, journal, post, monkeypatch
        self.read = 0

    def tick_at(self, moment: datetime, command_line: bool = False
                ) -> list[tuple[str, str, str]]:
        """One `tick` at moment: the mails it sent, each (side, its subject and first line
        (mailkinds.headline), text)."""
        self.mp.setenv(NOW_VARIABLE, at(moment))
        game = tick(self.cli, self.journal, command_line)
        assert game["problems"] == [], game
        new = self.post.received()[self.read:]
        self.read += len(new)
        for m in new:
            assert email.utils.parsedate_to_datetime(m["Date"]) == moment
        return [(SIDE_OF[str(m["To"])], headline(m), words(text_of(m))) for m in new]

    def answer(self, side: str, moment: datetime, lines: list[str] | None = None) -> str:
        """side answers the last report he was sent (a mail with his key and the orders he
        may give; lines: the cheapest orders)."""
        self.mp.setenv(NOW_VARIABLE, at(moment))
        mail = [m for m in self.post.mails_to(side) if "Order key:" in text_of(m) and
                "Reply with one order per line" in text_of(m)][-1]
        return self.post.send(side, lines or cheapest(mail, self.journal, side), mail)

    def owing(self) -> list[str]:
        state = g.open_game(self.journal).state
        return [s for s in ("german", "entente") if acting(state, s)]


def mail_parts(journal: Path) -> dict[str, list[tuple[int, str]]]:
    """For each Message-ID the journal holds: (record, raw digest) of each record carrying it."""
    found: dict[str, list[tuple[int, str]]] = {}
    for rec in records(journal):
        part = (rec.get("mail") or rec.get("clock", {}).get("mail") or {})
        data = part.get("data", part) if isinstance(part, dict) else {}
        if data.get("message_id"):
            found.setdefault(data["message_id"], []).append((rec["seq"], data["sha256"]))
    return found


# The quick form ends with the first turn; the full form plays SUMMER and AUTUMN 1914.
@pytest.mark.parametrize("last_turn", [pytest.param(1, id="quick"), pytest.param(2, id="full")])
def test_a_game_played_by_mail_only_the_moderator_idle_after_new(cli, post, tmp_path,
                                                                  monkeypatch, last_turn):
    monkeypatch.setenv(NOW_VARIABLE, at(START))
    journal = new_game(cli, tmp_path / "games", post)
    t = Table(cli, journal, post, monkeypatch)
    h = timedelta(hours=1)
    minute = timedelta(minutes=1)
    reminders: list[tuple[str, str, datetime]] = []

    def tick_at(moment: datetime) -> list[tuple[str, str, str]]:
        sent = t.tick_at(moment)
        reminders.extend((side, re.search(r"your orders are due by ([^,]*),",
                                          " ".join(text.split())).group(1), moment)
                         for side, said, text in sent if " | A reminder: " in said)
        return sent

    # The first pass mails each player his report and key; the German is asked first (2.0
    # II.1), by Wednesday 18:00 (Monday 18:00 + 48h).
    sent = {side: text for side, _, text in t.tick_at(START, command_line=True)}
    assert set(sent) == {"german", "entente"}
    assert "Orders due by Wed 25 Nov 18:00 UTC." in sent["german"]
    assert "German: Orders due by Wed 25 Nov 18:00 UTC." in sent["entente"]  # the side waited on
    # The 24h reminder (Tuesday 18:00) to the German only, not a minute before.
    assert tick_at(START + 24 * h - minute) == []
    assert [(s, said.split(" | ")[0], said.split(" | ")[1][:50])
            for s, said, _ in tick_at(START + 24 * h)] == [
        ("german", "[referee e2e] German player, SUMMER 1914",
         "A reminder: your orders are due by Wed 25 Nov 18:0")]
    # He answers on Tuesday 19:00: the Entente is asked, by Thursday 19:00.
    german = t.answer("german", START + 25 * h)
    sent = {side: text for side, _, text in tick_at(START + 25 * h)}
    assert "Orders due by Thu 26 Nov 19:00 UTC." in sent["entente"]
    # The Entente asks for a day more (one extension a side): Friday 19:00.
    asked = t.answer("entente", START + 26 * h, ["extend 24h"])
    tick_at(START + 26 * h)
    extended = post.mails_to("entente")[-1]
    assert extended["In-Reply-To"] == asked
    assert "Orders due by Fri 27 Nov 19:00 UTC." in words(text_of(extended))
    # Then he is silent: reminded 24h and 2h before Friday 19:00, at those times only.
    for moment in (START + 73 * h - minute, START + 73 * h, START + 95 * h - minute,
                   START + 95 * h, START + 97 * h - minute):
        tick_at(moment)
    assert reminders == [
        ("german", "Wed 25 Nov 18:00 UTC", START + 24 * h),
        ("entente", "Fri 27 Nov 19:00 UTC", START + 73 * h),
        ("entente", "Fri 27 Nov 19:00 UTC", START + 95 * h)]
    assert g.open_game(journal).state.seq == records(journal)[-1]["seq"]
    assert records(journal)[-1]["order"] == "reminder sent"
    # Friday 19:00: the deadline passes, but a mail sent just before it may still be on its
    # way: nothing is ruled for 15 minutes. At 19:15 the referee passes for him (2.0 II.1) and
    # both players are told by mail, each by his report alone (no notice beside it); the
    # moderator is not: the game does not wait on him.
    assert tick_at(START + 97 * h) == []
    assert tick_at(START + 97 * h + 14 * minute) == []
    sent = tick_at(START + 97 * h + 15 * minute)
    missed = records(journal)[-1]
    assert (missed["actor"], missed["order"], missed["at"]) == ("entente", "pass",
                                                                 "2026-11-27T19:15:00Z")
    assert missed["clock"]["missed"] == "default" and missed["clock"]["rule"] == "2.0 II.1"
    assert sorted(side for side, _, _ in sent) == ["entente", "german"]
    told = sorted(side for side, said, text in sent if "orders were due by Fri 27 Nov 19:00 "
                  "UTC and none came: the referee answered for" in words(text) and
                  "with 'pass', the answer that does nothing (rule 2.0 II.1)" in words(text))
    assert told == ["entente", "german"]
    assert not [subject for side, subject, text in sent if side == "moderator"]
    logged = words(cli("log", journal).stdout)
    assert (f"#{missed['seq']} 2026-11-27T19:15:00Z Entente: pass (card or pass) The "
            f"Entente player's "
            f"orders were due by Fri 27 Nov 19:00 UTC and none came") in logged
    explained = words(cli("explain", journal, str(missed["seq"])).stdout)
    assert "none came" in explained and "2.0 II.1" in explained
    # The rest of the turns on time: each side answers the hour after it is asked.
    now = START + 97 * h
    while g.open_game(journal).state.turn <= last_turn:
        now += h
        for side in t.owing():
            t.answer(side, now)
        tick_at(now)
        assert now < START + 130 * h, "the turns do not end"
    assert g.open_game(journal).state.turn == last_turn + 1     # SUMMER (and AUTUMN) over
    assert tick_at(now + h) == []
    # Every player mail applied once: its records together, carrying its digest, and no
    # other message's; each marked read on the server.
    held = mail_parts(journal)
    assert set(held) == set(post.posted) and german in held
    for mid, parts in held.items():
        seqs = [seq for seq, _ in parts]
        assert seqs == list(range(seqs[0], seqs[0] + len(seqs))), (mid, seqs)
        assert len({digest for _, digest in parts}) == 1
    assert len({parts[0][1] for parts in held.values()}) == len(held)
    assert set(post.imap.seen(post.folder).values()) == {True}
    # Every mail delivered once: each Message-ID once. Each reader's mails share one subject
    # a season (a Gmail conversation), and a new season starts a new one.
    mails = post.received()
    assert len({str(m["Message-ID"]) for m in mails}) == len(mails)
    data = g.open_game(journal).data
    assert {str(m["Subject"]) for m in mails if str(m["To"]) == ADDRESSES["german"]} == {
        f"[referee e2e] German player, {data.label(n)}" for n in range(1, last_turn + 2)}
    assert reminders[3:] == []
    r = cli("verify", journal)
    assert r.exit_code == 0, r.output


# ---------------------------------------------------------------- killed, and run at once

FIXED_NOW = "2026-11-23T18:00:00Z"
ILLEGAL = ["move ge-1 liege"]           # not the Entente's unit, nor his turn: refused


# The key of every copy's referee home (store/home.py), which marks each mail's Message-ID
# (mail/msgids.py): the copies are the same referee, whose mails are the same mails.
HOME_KEY = "4b" * homemod.KEY_BYTES + "\n"


def _use_home(monkeypatch, folder: Path) -> None:
    """A per-user folder of its own (signing key, ledger, spool, locks) for one copy, with
    the same home key as every other."""
    settings = (Path(os.environ["REFEREE_HOME"]) / "mail.toml").read_text(encoding="utf-8")
    folder.mkdir(parents=True, exist_ok=True)
    homemod.write_new(folder / "key", HOME_KEY.encode())
    monkeypatch.setenv("REFEREE_HOME", str(folder))
    mail_settings(settings)             # the test servers, as route_through names them
    homemod._KEY.clear()


def _copy_of_the_game(cli, post: Post, root: Path, monkeypatch, secret: Path) -> Path:
    """One copy of the same game (fixed secret and time: the same records), its opening
    mails sent, then the German's orders and the Entente's refused order in its folder."""
    _use_home(monkeypatch, root / "home")
    monkeypatch.setenv(NOW_VARIABLE, FIXED_NOW)
    post.folder = _fresh_folder(post.imap, "copies")
    journal = new_game(cli, root / "games", post, secret)
    tick(cli, journal)
    post.posted.clear()
    post.send("german", ["pass", "end turn"], post.mails_to("german")[-1])
    post.send("entente", ILLEGAL, post.mails_to("entente")[-1])
    return journal


def _fresh_folder(imap: ImapServer, name: str) -> str:
    """An empty folder of this name (each copy of the game reads the same route)."""
    c = imap.client()
    try:
        c.delete(f'"{name}"')
    finally:
        c.logout()
    return imap.new_folder(name)


def _ledger() -> dict:
    (path,) = Path(os.environ["REFEREE_HOME"]).rglob("*.ledger")
    data = homemod.read_signed(path)
    data["outboxes"] = [Path(p).name for p in data["outboxes"]]   # each copy's own folder
    return data


def _mails(post: Post, since: int) -> list[tuple[str, ...]]:
    """Each mail the server received since: to whom, its subject, Message-ID, what it
    answers, its text."""
    return sorted((str(m["To"]), str(m["Subject"]), str(m["Message-ID"]),
                   str(m.get("In-Reply-To", "")), text_of(m))
                  for m in post.received()[since:])


def _end_state(journal: Path, post: Post, since: int) -> tuple:
    return journal.read_bytes(), _ledger(), _mails(post, since), \
        set(post.imap.seen(post.folder).values())


def _tick_process(cli, journal: Path, step: str | None = None) -> BaseProcess:
    """`referee tick` in a process of its own, forked from this one (the imports done), its
    fault set at step (os._exit(70) there): a real process, killed with what it held."""
    env = {ledgermod.FAULT_VARIABLE: step} if step is not None else {}
    return forkedruns.start(forkedruns.command, cli, "tick", journal, "--no-map", env=env)


_BASELINE: list[tuple] = []


def _baseline(cli, post: Post, tmp_path: Path, monkeypatch, secret: Path) -> tuple:
    """What one pass without a fault leaves (the same for every copy: made once)."""
    if _BASELINE:
        return _BASELINE[0]
    journal = _copy_of_the_game(cli, post, tmp_path / "baseline", monkeypatch, secret)
    since = len(post.smtp.received)
    tick(cli, journal)
    state = _end_state(journal, post, since)
    # The German's report answering his mail (his turn over, it opens with whom the game
    # waits on now, 2.0 II.1), the Entente's refusal with his report inside.
    assert [(m[0], m[1].split("] ")[1], m[4].split(":")[0]) for m in state[2]] == [
        (ADDRESSES["entente"], "Entente player, SUMMER 1914", "Your message was not applied"),
        (ADDRESSES["german"], "German player, SUMMER 1914", "Waiting on the Entente player")]
    assert "\nTO THE LAST MAN! — report for the German player" in state[2][1][4].replace("\r", "")
    assert state[3] == {True}
    _BASELINE.append(state)
    return state


KILL_STEPS = ("fetched", "applied", "ledger", "seen", "sent")


# The quick form: killed after the journal took the German's orders and before the ledger
# saved that his report answers his mail.
@pytest.mark.parametrize("steps", [pytest.param(("applied",), id="quick"),
                                   pytest.param(KILL_STEPS, id="full")])
def test_tick_killed_at_each_step_then_run_again_ends_as_a_run_without_the_kill(
        cli, post, tmp_path, monkeypatch, secret_file, steps):
    baseline = _baseline(cli, post, tmp_path, monkeypatch, secret_file)
    for step in steps:
        journal = _copy_of_the_game(cli, post, tmp_path / step, monkeypatch, secret_file)
        since = len(post.smtp.received)
        assert forkedruns.finish(_tick_process(cli, journal, step), 60) == 70, step
        for _ in range(2):                     # the rerun, then one more: nothing changes
            tick(cli, journal)
        journal_bytes, ledger, mails, seen = _end_state(journal, post, since)
        assert (journal_bytes, ledger, seen) == (baseline[0], baseline[1], baseline[3]), step
        if step != "sent":
            assert mails == baseline[2], step
            continue
        # Killed after the server took a mail and before it was marked sent: that one mail
        # goes twice, the same bytes under the same Message-ID (a mail program shows it once).
        extra = list((Counter(mails) - Counter(baseline[2])).elements())
        assert len(extra) == 1 and extra[0] in baseline[2]
        assert sorted(set(mails)) == baseline[2]


@pytest.mark.parametrize("ticks", [pytest.param(2, id="quick"), pytest.param(8, id="full")])
def test_eight_ticks_at_once_apply_and_answer_each_message_once(cli, post, tmp_path,
                                                                monkeypatch, secret_file, ticks):
    baseline = _baseline(cli, post, tmp_path, monkeypatch, secret_file)
    journal = _copy_of_the_game(cli, post, tmp_path / "eight", monkeypatch, secret_file)
    since = len(post.smtp.received)
    runs = [_tick_process(cli, journal) for _ in range(ticks)]
    for p in runs:
        assert forkedruns.finish(p) == 0
    assert _end_state(journal, post, since) == baseline
