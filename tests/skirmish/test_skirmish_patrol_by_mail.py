"""The sample patrol played by mail for two full turns, through `inbox` and through `tick`:
each side's mail carries its orders and its order key; the referee answers each mail and
sends every player the report. On the way: a spotting roll taken again (refused: one a
phase), a kill the card compels a morale test for (the British `done` is refused until
it is taken), a cover left out, disputed and settled by the moderator's mail, and a
melee that carries into turn 2 (the German figure in contact may not walk away; the
British `done` waits for the melee again). `verify --secret` passes at the end.

The dice are committed, so the test picks a secret whose dice give the three results the
story needs (a kill, a pin, a melee with no result), read off the card's tables, and
checks them from the secret itself, as verify does."""

from __future__ import annotations

import hashlib
import json
from email import message_from_bytes
from email.policy import default

import pytest
from mailboxes import write_maildir
from test_hostile_mail import too_wide
from test_skirmish_mail import BRITISH, GERMAN, UMPIRE, mail, mailed_patrol

from referee.store.dice import below
from referee.store.sheets import lines_digest

SHOT_1 = ("fire G5 at=B2 range=10 state=halted cover=none command=yes", "done")
SHOT_2 = ("fire G2 at=B3 range=10 state=halted command=yes", "done")
MELEE = ("melee G1 attackers=B1", "done")


def _die(secret: bytes, stream: str, lines: tuple[str, ...], i: int, sides: int) -> int:
    """Die i of a mailed order: keyed by its side's count of rolling records, mixing in
    the digest of the mail's order lines."""
    return 1 + below(secret, "patrol", stream, i, sides, f"mail={lines_digest(list(lines))}")


def _story_secret() -> bytes:
    """The first secret (of sha256 of 0, 1, 2, ...) whose dice tell the story: record 6,
    G5's aimed shot (the German's first roll), 18+ ("18-20: Killed"); record 9, G2's shot
    (his second), 15 or 16 ("15-17: Pinned", and "14 or less: Miss" once hard cover's -2
    is counted); record 15, the melee (the British's third roll), B1's D6 two above G1's
    (G1: +1 Stubborn, +1 body armour, so equal scores: no result)."""
    for n in range(20000):
        s = hashlib.sha256(str(n).encode()).digest()
        if _die(s, "german.1", SHOT_1, 0, 20) >= 18 and \
                15 <= _die(s, "german.2", SHOT_2, 0, 20) <= 16 and \
                _die(s, "british.3", MELEE, 1, 6) == _die(s, "british.3", MELEE, 0, 6) + 2:
            return s
    raise AssertionError("no secret tells the story")


class Post:
    """The players' and the moderator's mails, and `inbox` run on each batch of them (via
    "inbox"), or `tick` on the game's route, a Maildir and an outbox folder (via "tick")."""

    def __init__(self, cli, journal, tmp_path, keys, via: str):
        self.cli, self.j, self.tmp, self.keys, self.n = cli, journal, tmp_path, keys, 0
        self.out, self.via = tmp_path / "out", via

    def send(self, *mails: tuple[str, tuple[str, ...]]) -> list[tuple[str, str, list]]:
        """Each (side, lines) mailed, then one pass: (side, status, records) each."""
        box = self.tmp / ("box/new" if self.via == "tick" else f"batch{self.n}")
        box.mkdir(exist_ok=True)
        who = {"british": BRITISH, "german": GERMAN, "moderator": UMPIRE}
        sent = []
        for side, lines in mails:
            self.n += 1
            sent.append(mail(box, self.n, who[side], self.keys[side], *lines))
        if self.via == "tick":
            r = self.cli("tick", self.j, "--format", "json")
            found = json.loads(r.stdout)["games"][0]["messages"]
        else:
            r = self.cli("inbox", self.j, *sent, "--outbox", self.out, "--format", "json")
            found = json.loads(r.stdout)["messages"]
        assert r.exit_code == 0, r.output
        return [(x["side"], x["status"], x["records"]) for x in found]

    def reply_to(self, n: int) -> str:
        """The referee's answer to mail n, its words as they run (it is wrapped at 72)."""
        for p in self.out.glob("*.eml"):
            msg = message_from_bytes(p.read_bytes())
            if msg["In-Reply-To"] == f"<m{n}@example.org>":
                return " ".join(msg.get_payload(decode=True).decode().split())
        raise AssertionError(f"mail {n} was not answered")

    def mails_to(self, address: str) -> list:
        """Every mail the referee wrote to address."""
        found = [message_from_bytes(p.read_bytes()) for p in self.out.glob("*.eml")]
        return [m for m in found if m["To"] == address]

    def status(self) -> dict:
        return json.loads(self.cli("status", self.j, "--format", "json").stdout)


@pytest.mark.parametrize("via", ["inbox", "tick"])
def test_a_patrol_by_mail_for_two_full_turns(cli, tmp_path, via):
    secret = tmp_path / "story.secret"
    secret.write_text(_story_secret().hex() + "\n")
    j = tmp_path / "patrol.jsonl"
    # Record 1 is the game's mail route (tick reads it; inbox is given its own folders).
    route = ("--mail-in", str(write_maildir(tmp_path / "box", [])), "--mail-out",
             f"outbox:{tmp_path / 'out'}")
    post = Post(cli, j, tmp_path, mailed_patrol(cli, j, secret, "--player",
                                                f"moderator={UMPIRE}", *route), via)
    spot = "spot B4 at=G5 range=30 light=day state=halted cover=soft"
    # Turn 1, movement: B1 assaults into contact with G1; B4 looks for the sniper.
    assert post.send(("british", ("move B1 mode=assault contact=yes at=G1 command=yes",)),
                     ("german", ("done",)),
                     ("british", (spot,)),
                     ("british", (spot, "done"))) == [
        ("british", "applied", [2]), ("german", "applied", [3]),
        ("british", "applied", [4]), ("british", "refused", [])]
    assert "B4 has taken its spot test at G5 this phase already (record 4)" in \
        post.reply_to(4)
    # No off-table artillery in the patrol: fire follows movement at once, no mail asks for
    # the artillery phase. The veterans' step, the regulars' step, the raw step.
    assert [s for _, s, _ in post.send(
        ("british", ("done",)),
        ("german", SHOT_1),
        ("british", ("done",)),
        ("german", SHOT_2),
        ("british", ("dispute record=9 fact=cover value=hard", "done")),
        ("british", ("done",)),
        ("moderator", ("settle record=9 fact=cover value=hard",)))] == ["applied"] * 7
    doc = json.loads(cli("skirmish", "report", j, "--format", "json").stdout)
    tests = {t["record"]: t for t in doc["tests"]}
    assert tests[6]["result"].startswith("B2 killed (score ")
    assert tests[9]["facts"]["cover"] == "hard" and tests[9]["settled"]
    assert [(d["declared"], d["claimed"]) for d in doc["disputes"]] == [("none", "hard")]
    # 15 or 16, less 2 for hard cover: a miss
    assert tests[9]["result"] in (f"B3 miss (score {n}; 15+ pinned, 18+ killed)" for n in (13, 14))
    b3 = next(f for f in doc["figures"] if f["id"] == "B3")
    assert b3["pins"] == 0 and doc["phase"] == "melee"
    # Melee: equal scores, no result; both stay in contact. Morale: owed for B2.
    got = post.send(("british", MELEE), ("german", ("done",)),
                    ("british", ("done",)))
    assert got[:2] == [("british", "applied", [15, 16]), ("german", "applied", [17])]
    assert got[2] == ("british", "refused", [])
    assert "owes 1: morale B trigger=killed first" in post.reply_to(post.n)
    # His mail says so where it asks him, in its opening lines, not only in the report.
    assert "Your decision: turn 1, morale phase: the tests of the phase with the facts each " \
        "side declares, then done (Sequence of Play). Before your done, the card compels: " \
        "morale B trigger=killed." in post.reply_to(post.n)
    assert "British owes" not in post.reply_to(post.n)      # said there once
    assert post.send(("british", ("morale B trigger=killed", "done")),
                     ("german", ("done",))) == [
        ("british", "applied", [18, 19]), ("german", "applied", [20])]
    now = post.status()
    assert (now["turn"], now["phase"]) == (2, "movement")
    # Turn 2: G1 may not walk out of the melee; the British must fight it again.
    got = post.send(("british", ("done",)), ("german", ("move G1 mode=stealthy command=yes",)))
    assert got == [("british", "applied", [21]), ("german", "refused", [])]
    assert "G1 is in contact with B1 (melee of turn 1)" in post.reply_to(post.n)
    _done_until(post, "melee")
    assert post.status()["owed"] == {"british": ["melee G1 attackers=B1"]}
    assert post.send(("british", ("done",)))[0][1] == "refused"
    assert "figures in contact must fight" in post.reply_to(post.n)
    assert post.send(("british", ("melee G1 attackers=B1", "done")))[0][1] == "applied"
    _done_until(post, "movement", turn=3)
    assert cli("verify", j, "--secret", secret).exit_code == 0
    told = [m.get_payload(decode=True).decode() for m in post.mails_to(GERMAN)
            if m["Subject"] == "[referee patrol] German player, turn 2"
            and "turn 2, melee phase" in m.get_payload(decode=True).decode()]
    assert any("British owes, before done (the card compels them): melee G1 attackers=B1"
               in text and "in contact: G1 with B1 (melee of turn 1)" in text
               for text in told)                 # the mail says what is owed, and why
    # Two turns and no mail asked for the off-table artillery phase; every report said why.
    texts = [m.get_payload(decode=True).decode() for a in (BRITISH, GERMAN, UMPIRE)
             for m in post.mails_to(a)]
    assert not any("artillery phase" in text for text in texts)
    reports = [text for text in texts if "\nForces:\n" in text]
    assert reports and all("\nNo off-table artillery in this scenario: its phase is passed "
                           "over\n" in text for text in reports)
    # Every line of every mail of the two turns within 72 columns, as a phone shows it.
    for path in post.out.glob("*.eml"):
        msg = message_from_bytes(path.read_bytes(), policy=default)
        assert not too_wide(msg), (msg["To"], too_wide(msg))


def _done_until(post: Post, phase: str, turn: int | None = None) -> None:
    """Each side waited on mails what it owes, then done, until the game is in phase."""
    for _ in range(20):
        now = post.status()
        if now["phase"] == phase and turn in (None, now["turn"]):
            return
        side = now["waiting_on"][0]
        got = post.send((side, (*now["owed"].get(side, []), "done")))
        assert got[0][1] == "applied", post.reply_to(post.n)
    raise AssertionError(f"never reached {phase}")
