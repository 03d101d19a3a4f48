"""The end of a seasonal turn played by mail alone, through the IMAP and SMTP servers the
tests start on 127.0.0.1, with everything that used to stall a game left to itself:

- the referee has an address of its own (`--from`), and the moderator's notices go to his;
- the Entente answers a reminder with `extend 24h`, then stays silent over his losses,
  which the referee pays for him as docs/moderator.md's table says (5.3.1);
- the German's first orders are refused; he answers the refusal with a mail holding a
  greeting, prose, his orders and a signature, which is applied;
- the referee's way to the IMAP server is down across the Entente's next deadline, and his
  orders, mailed before it, are applied after;
- under `--missed wait`, the silent German leaves the game to the moderator: `tick` exits
  non-zero and the moderator, at his own address, is told.

The game is tests/rulebook/5.3.1-verdun-three-hits.yaml's position (SPRING 1916, the
Entente owing three hits at Verdun), made on Monday 23 November 2026 at 18:00 UTC with
deadlines of 48h, reminders 24h and 2h before, one extension a side, policy default. Every
time below is worked out from those numbers.
"""

from __future__ import annotations

import email
import email.policy
import email.utils
import json
import re
from datetime import timedelta

import pytest
from mailkinds import first_line, headline
from test_defaults import ADDRESSES, START, VERDUN, VERDUN_STEPS, game
from test_outage import Behind as Relayed
from test_outage import relayed
from test_unattended import at, records, text_of, words
from ticklines import problem_text

import gamecalls as g
from referee.base.clock import NOW_VARIABLE

H, MINUTE = timedelta(hours=1), timedelta(minutes=1)
REFEREE = "referee@club.example"
SIDE_OF = {a: s for s, a in ADDRESSES.items()}


class Behind(Relayed):
    """The game's post, the referee reading its mail through a relay it can lose, and the
    players writing their own mails."""

    def write(self, side: str, body: str, answering) -> str:
        """side's own mail answering one of the referee's, his key quoted below it."""
        key = re.search(r"Order key: (\S+)", text_of(answering)).group(1)
        mid = f"<p{len(self.posted)}.{side}@players.example>"
        quoted = "\n".join(f"> {line}" for line in text_of(answering).splitlines())
        raw = (f"From: {ADDRESSES[side]}\nTo: {REFEREE}\nSubject: Re: {answering['Subject']}\n"
               f"In-Reply-To: {answering['Message-ID']}\nMessage-ID: {mid}\n"
               f"Date: {email.utils.formatdate(1_000_000_000 + len(self.posted))}\n\n"
               f"{body}\n\nOn Mon, 23 Nov 2026, {REFEREE} wrote:\n{quoted}\n").encode()
        assert key in raw.decode()
        self.posted[mid] = raw
        self.imap.deliver(self.folder, raw)
        return mid


@pytest.fixture
def post(servers, monkeypatch, tmp_path) -> Behind:
    found = relayed(servers, monkeypatch, tmp_path, Behind)
    yield found
    found.relay.down()


class Referee:
    """The game and the clock: each `tick` at a time the test sets; the mails each sent."""

    def __init__(self, cli, journal, post: Behind, monkeypatch):
        self.cli, self.journal, self.post, self.mp = cli, journal, post, monkeypatch
        self.read = 0

    def tick(self, moment, ok: bool = True) -> list:
        self.mp.setenv(NOW_VARIABLE, at(moment))
        r = self.cli("tick", self.journal, "--no-map", "--format", "json")
        assert (r.exit_code == 0) == ok, r.output
        new = self.post.received()[self.read:]
        self.read += len(new)
        return new

    def last_to(self, side: str, words_in: str):
        return [m for m in self.post.mails_to(side) if words_in in text_of(m)][-1]


def test_the_end_of_a_turn_by_mail_with_an_outage_a_silence_and_ordinary_mail(
        cli, post, tmp_path, monkeypatch):
    monkeypatch.setenv(NOW_VARIABLE, at(START))
    journal = game(tmp_path, "1916", VERDUN_STEPS, **VERDUN)
    assert cli("deadline", journal, "--set", "48h", "--extensions", "1").exit_code == 0
    assert cli("mail", journal, "--in", post.source, "--out", post.target, "--from",
               REFEREE).exit_code == 0
    ref = Referee(cli, journal, post, monkeypatch)
    state = g.open_game(journal).state
    assert (state.pending.kind, state.pending.side) == ("losses", "entente")

    # Monday 18:00: each player's report, from the referee's address, answers to it.
    opening = ref.tick(START)
    assert sorted(SIDE_OF[str(m["To"])] for m in opening) == ["entente", "german"]
    assert {(str(m["From"]), str(m["Reply-To"])) for m in opening} == {(REFEREE, REFEREE)}
    # Tuesday 18:00: the Entente's reminder names the loss the referee would take (5.3.1).
    [reminder] = ref.tick(START + 24 * H)
    assert str(reminder["To"]) == ADDRESSES["entente"]
    assert "answers for you with 'lose fr-2:infantry'" in words(text_of(reminder))
    # He replies to the reminder asking for a day more: Wednesday 18:00 becomes Thursday.
    post.send("entente", ["extend 24h"], reminder)
    [extended] = [m for m in ref.tick(START + 25 * H) if str(m["To"]) == ADDRESSES["entente"]]
    assert extended["In-Reply-To"] is not None
    assert "Orders due by Thu 26 Nov 18:00 UTC" in words(text_of(extended))

    # Then he is silent. Thursday 18:15 (the due time and 15 minutes' grace): the referee
    # pays his three hits as the table says: the army (5) first, infantry its most numerous
    # type; then the fort and the army tied at 4, the fort listed first; then the army.
    seq = records(journal)[-1]["seq"]
    ref.tick(START + 72 * H + 15 * MINUTE)
    paid = [(r["actor"], r["order"]) for r in records(journal)[seq + 1:]
            if r.get("clock", {}).get("missed") == "default"]
    assert paid == [("entente", "lose fr-2:infantry"), ("entente", "lose fort-verdun"),
                    ("entente", "lose fr-2:artillery")]
    assert g.open_game(journal).state.hands["entente"] == ["ers2-01"]     # no card spent

    # The German (retreats after combat, asked at 18:15) gets his first orders wrong.
    post.send("german", ["retreat fr-2 bar_le_duc"], ref.last_to("german", "Order key"))
    ref.tick(START + 73 * H)
    refusal = ref.last_to("german", "not applied")
    assert "not applied" in headline(refusal)
    # He answers the refusal as people write mail: a greeting, prose, the order, a closing.
    post.write("german", "Hello,\n\nSorry, my mistake. Here are my orders:\n\ndone\n\n"
                         "Cheers,\nHans\n-- \nHans Kaiser, Berlin", refusal)
    seq = records(journal)[-1]["seq"]
    ref.tick(START + 74 * H)
    assert [(r["actor"], r["order"]) for r in records(journal)[seq + 1:]] == [
        ("german", "done")]
    applied = ref.last_to("german", "Not read as orders")
    assert "Sorry, my mistake" in words(text_of(applied))

    # The Entente (asked at Thursday 20:00, due Saturday 20:00) mails his orders at 19:40;
    # the referee's way to the server is down from 19:30 to 21:00.
    post.relay.down()
    post.send("entente", ["done"], ref.last_to("entente", "Order key"))
    due = START + 74 * H + 48 * H
    for moment in (due - 20 * MINUTE, due + 20 * MINUTE, due + 50 * MINUTE):
        ref.tick(moment, ok=False)                      # the mail cannot be read: a problem
        assert not [r for r in records(journal)[seq + 1:]
                    if r.get("clock", {}).get("kind") == "missed"]
    post.relay.up()
    seq = records(journal)[-1]["seq"]
    ref.tick(due + H)
    assert [(r["actor"], r["order"]) for r in records(journal)[seq + 1:]
            if "clock" not in r] == [("entente", "done")]

    # The moderator changes the rule for a missed deadline to wait; the Entente's next
    # decision (card or pass, asked Saturday 21:00) goes unanswered.
    monkeypatch.setenv(NOW_VARIABLE, at(due + H))
    assert cli("deadline", journal, "--set", "48h", "--missed", "wait").exit_code == 0
    state = g.open_game(journal).state
    assert (state.pending.kind, state.pending.side) == ("card_or_pass", "entente")
    told = ref.tick(due + H + 48 * H + 15 * MINUTE, ok=False)
    [notice] = [m for m in told if str(m["To"]) == ADDRESSES["moderator"]]
    assert str(notice["From"]) == REFEREE and \
        first_line(notice).startswith("The game waits on you: the Entente player's orders "
                                      "were due by")
    r = cli("tick", journal, "--no-map")
    assert r.exit_code != 0 and "waits on the moderator" in problem_text(r), r.output
    # Nothing the referee sent was read back as a player's mail or answered to itself.
    assert not [m for m in post.received() if str(m["To"]) == REFEREE]
    assert cli("verify", journal).exit_code == 0
    assert json.loads(cli("status", journal, "--format", "json").stdout)
