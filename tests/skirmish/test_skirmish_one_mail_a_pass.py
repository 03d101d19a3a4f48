"""A skirmish pass of `tick` sends each player one mail: the answer to his mail, carrying
his report as the pass left the game (what was recorded, the board and what he is asked
next), or the report alone when he sent nothing; two mails of his get two answers, the last
carrying the report. It sent a player whose mail was taken before the other side's in the
same pass his answer (with a report that was stale by the end of the pass: "Waiting on the
British player"), then a second report asking him the next phase. A pass killed at any
step still sends each mail once, and no report after an answer that carried it."""

from __future__ import annotations

import email
import json
import os
import subprocess
import sys
from email.policy import default

import pytest
from mailboxes import write_maildir
from test_skirmish_mail import BRITISH, GERMAN, UMPIRE, mail, mailed_patrol

from referee.mail.ledger import FAULT_VARIABLE

SPOT = "spot B4 at=G5 range=30 light=day state=halted cover=soft"


class Route:
    """A patrol whose mail comes into a Maildir and goes into an outbox folder (the game's
    route, as `tick` reads and writes it); each pass's mails, by address."""

    def __init__(self, cli, tmp_path, secret_file):
        self.cli, self.j, self.n = cli, tmp_path / "patrol.jsonl", 0
        self.box, self.out = write_maildir(tmp_path / "box", []), tmp_path / "out"
        self.keys = mailed_patrol(cli, self.j, secret_file, "--player", f"moderator={UMPIRE}",
                                  "--mail-in", self.box, "--mail-out", f"outbox:{self.out}")
        self.seen: set[str] = set()
        assert self.tick() and self.mails()        # the reports of the start, each his key

    def post(self, side: str, *lines: str) -> int:
        self.n += 1
        who = {"british": BRITISH, "german": GERMAN, "moderator": UMPIRE}[side]
        mail(self.box / "new", self.n, who, self.keys[side], *lines)
        return self.n

    def tick(self, fault: str | None = None) -> list[tuple[str, str]]:
        """One pass (killed at the step fault names): each mail's side and status."""
        if fault is None:
            r = self.cli("tick", self.j, "--no-map", "--format", "json")
            assert r.exit_code == 0, r.output
            return [(x["side"], x["status"]) for x in
                    json.loads(r.stdout)["games"][0]["messages"]] or [("", "")]
        killed = subprocess.run([sys.executable, "-m", "referee", "tick", str(self.j),
                                 "--no-map"], env={**os.environ, FAULT_VARIABLE: fault},
                                capture_output=True, text=True, timeout=120)
        assert killed.returncode == 70, killed.stderr
        return []

    def mails(self) -> dict[str, list]:
        """The mails written since the last call, by address, in the order written."""
        paths = [p for p in (*self.out.glob("*.eml"), *self.out.glob("sent/*.eml"))
                 if p.name not in self.seen]
        got: dict[str, list] = {}
        for p in sorted(paths, key=lambda p: p.stat().st_mtime_ns):
            self.seen.add(p.name)
            m = email.message_from_bytes(p.read_bytes(), policy=default)
            got.setdefault(str(m["To"]), []).append(m)
        return got


def _text(m) -> str:
    return " ".join(m.get_content().split())


@pytest.fixture
def route(cli, tmp_path, secret_file):
    return Route(cli, tmp_path, secret_file)


def test_both_sides_mailing_in_one_pass_get_one_answer_each(route):
    """The German's done, then the British's orders and done: the phase moves to fire. The
    German's one mail answers his and asks him the fire phase; no report follows it."""
    route.post("british", "move B1 mode=assault contact=yes at=G1 command=yes")
    route.tick()
    route.mails()
    g = route.post("german", "done")
    b = route.post("british", SPOT, "done")
    assert route.tick() == [("german", "applied"), ("british", "applied")]
    got = route.mails()
    assert set(got) == {BRITISH, GERMAN}, got            # the moderator: nothing asked
    (german,), (british,) = got[GERMAN], got[BRITISH]
    assert german["In-Reply-To"] == f"<m{g}@example.org>"
    assert british["In-Reply-To"] == f"<m{b}@example.org>"
    told = _text(german)
    assert told.startswith("Your mail was recorded: #3")
    assert "Your decision: turn 1, fire phase" in told
    assert "Waiting on the British player" not in told      # stale by the pass's end
    assert "#4 British: spot B4 at=G5" in told            # the British test, in his report
    assert "Order key: " + route.keys["german"] in told
    assert "Your decision: turn 1, fire phase" in _text(british)


def test_two_mails_of_one_player_get_two_answers_the_last_with_the_report(route):
    """Two German mails and a British one in a pass: the German gets two answers, the first
    saying that his report follows, the last carrying it as the pass left the game; the
    British one mail, the answer to his."""
    route.post("british", "move B1 mode=assault contact=yes at=G1 command=yes")
    route.post("german", "done")
    route.post("british", SPOT, "done")
    route.tick()
    route.mails()
    first = route.post("german", "fire G5 at=B2 range=10 state=halted cover=none command=yes")
    route.post("british", "done")
    last = route.post("german", "done")
    assert [s for _, s in route.tick()] == ["applied"] * 3
    got = route.mails()
    assert [m["In-Reply-To"] for m in got[GERMAN]] == [f"<m{first}@example.org>",
                                                       f"<m{last}@example.org>"]
    early, late = map(_text, got[GERMAN])
    assert "Forces:" not in early and "Order key" not in early
    assert early.endswith("Your report and your order key follow in the answer to your "
                          "later mail.")
    assert "Forces:" in late and "Order key: " + route.keys["german"] in late
    assert "Your decision: turn 1, fire phase (regular" in late
    (british,) = got[BRITISH]
    assert _text(british).startswith("Your mail was recorded:")
    assert "fire phase (regular" in _text(british) and "#6 German: fire G5" in _text(british)


@pytest.mark.parametrize("fault", ["direct applied", "direct answered"])
def test_a_pass_killed_sends_each_mail_once_and_one_a_player(route, fault):
    """Killed once the German's mail was taken (before the ledger knew it), or once his
    answer was written (before the British's was): the next pass sends each answer once,
    each carrying its reader's report, and no report after it."""
    route.post("british", "move B1 mode=assault contact=yes at=G1 command=yes")
    route.tick()
    route.mails()
    route.post("german", "done")
    route.post("british", SPOT, "done")
    route.tick(fault)
    route.tick()
    route.tick()
    got = route.mails()
    assert set(got) == {BRITISH, GERMAN} and len(got[GERMAN]) == len(got[BRITISH]) == 1, \
        {a: [_text(m)[:60] for m in ms] for a, ms in got.items()}
    assert "Your decision: turn 1, fire phase" in _text(got[GERMAN][0])
    assert "Your decision: turn 1, fire phase" in _text(got[BRITISH][0])
