"""A walk passes over the records that change nothing of it, and is the walk that works
everything out again after every record.

Walk.step (game/clockwalk.py) leaves alone a record without a clock part after which the
decision, the turn, the phase, the sides and the sides waited on are what they were: most
records of a campaign, the orders sealed into a plan (2.0 I, 2.0 V.3, 7.0) among them, but not
the plan a side not asked first closes, which changes only whom the game waits on. Here
random games with deadlines (random legal play between passes of the referee's deadline
check, which send reminders and rule deadlines missed under each policy, the referee
answering for a silent side; extensions given and asked for; pauses and resumes; a
deadline set for one kind of decision) and the stored campaigns are read cold, and after
every record the walk is compared with one that works out the hand-offs of every side
afresh at each record, as the walk did before it passed over any.
"""

from __future__ import annotations

import gzip
import random
from datetime import timedelta
from pathlib import Path

import pytest
from commandclock import START

import gamecalls as g
from referee.base.errors import OrderError, UsageError
from referee.engine import acting, sealed_sides, waiting_on
from referee.game import clockwalk, replay
from referee.game.autoplay import autoplay
from referee.game.clockwalk import Walk
from referee.game.timeline import extend, pause_or_resume, set_deadlines, settings_fact
from referee.mail.reminders import check_deadlines
from referee.store import checking
from referee.store.journal import Journal

REPLAYS = Path(__file__).parent / "replays"
STORED = ["ttlm-1914-seed7.jsonl", "ttlm-1916-seed8.jsonl", "ttlm-1918-seed9.jsonl"]
SECRET = "5e" * 32


@pytest.fixture
def compared(monkeypatch):
    """Walk.step, each walk beside a twin stepped through the same records with nothing
    left alone; after every record the two must keep the same walk. Counts the records
    walked and those the walk left alone (not a side's hand-off looked at), and among
    these the records of a sealed plan."""
    step, hand_offs = Walk.step, Walk.hand_offs
    seen = {"walked": 0, "left alone": 0, "sealed left alone": 0, "waited on anew": 0}
    looked = []

    def looking(self, *args, **kwargs):
        looked.append(self)
        return hand_offs(self, *args, **kwargs)

    def both(self, state, rec, sides, name):
        twin = self.__dict__.setdefault("_twin", Walk.from_kept(self.kept()))
        looked.clear()
        still = self._still
        step(self, state, rec, sides, name)
        alone = not any(w is self for w in looked)
        if not alone and rec_clock(rec) is None and still is not None and \
                still[0] == (state.pending, state.turn, state.phase, sides):
            seen["waited on anew"] += 1     # only the sides waited on changed
        assert not alone or rec_clock(rec) is None, "a fact about time left alone"
        twin._asked = twin._still = None           # every side's hand-off worked out afresh
        step(twin, state, rec, sides, name)
        seq = rec["seq"] if type(rec) is dict else rec.seq
        assert self.kept() == twin.kept(), f"{name}: record {seq}: the walks differ"
        for side in waiting_on(state) if state.pending is not None else ():
            assert self.due(state, side, name) == twin.due(state, side, name), seq
        assert waiting_on(state) == acting_sides(state), seq
        seen["left alone" if alone else "walked"] += 1
        if alone and sealed_sides(state):
            seen["sealed left alone"] += 1

    monkeypatch.setattr(Walk, "step", both)
    monkeypatch.setattr(Walk, "hand_offs", looking)
    return seen


def acting_sides(state) -> list[str]:
    """The sides engine.acting says may answer now, the pending side first: whom the game
    waits on, asked side by side."""
    p = state.pending
    if p is None:
        return []
    return [p.side] + [s for s in state.hands if s != p.side and acting(state, s)]


def rec_clock(rec):
    return clockwalk.clock_of(rec) if type(rec) is dict else rec.clock


def _read_cold(journal: Path, beside: bool, monkeypatch) -> replay.Position:
    """The journal replayed and walked from its start (read under another name, which no
    snapshot fits): its records read straight into their class while their lines are
    checked beside, or read as JSON."""
    raw = journal.read_bytes()
    cold = journal.with_name(f"cold-{beside}-{journal.name}")
    cold.write_bytes(raw)
    with monkeypatch.context() as m:
        m.setattr(checking, "worth_beside", lambda _raw: beside)
        pos = replay.position(Journal(cold), raw, None, walk=True)
    assert not pos.from_snapshot and pos.read == raw.count(b"\n") - 1
    return pos


def _random_game(tmp_path: Path, seed: int, clock) -> Path:
    """A 1914 game with deadlines, played at random: runs of random orders, each some hours
    after the last, between the moderator's and the sides' doings about time."""
    rng = random.Random(seed)
    secret = tmp_path / "r.secret"
    secret.write_text(SECRET + "\n")
    secret.chmod(0o600)
    journal = tmp_path / f"random-{seed}.jsonl"
    policy = rng.choice(["default", "wait"])
    g.create_game(journal, "1914", game_id=f"walk-{seed}", secret_file=secret,
                  clock=settings_fact("48h", "24h,2h", policy, 2, False))
    now, out = START, tmp_path / "out"
    for _ in range(40):
        now += timedelta(hours=rng.choice([1, 5, 20, 30, 50]))
        clock(now)
        doing = rng.random()
        try:
            if doing < 0.55:
                autoplay(journal, rng.randrange(10_000), max_records=rng.randint(1, 25))
                _close_other_plan(journal, rng)
            elif doing < 0.75:
                check_deadlines(journal, out, now)
            elif doing < 0.85:
                side = rng.choice(["german", "entente", None])
                extend(journal, rng.choice(["moderator", side or "moderator"]), side,
                       rng.choice(["6h", "1d"]))
            elif doing < 0.92:
                pause_or_resume(journal, True)
                now += timedelta(hours=rng.choice([2, 60]))
                clock(now)
                pause_or_resume(journal, False)
            else:
                kind = g.open_game(journal).state.pending.kind
                set_deadlines(journal, settings_fact(rng.choice(["12h", "3d"]), None, None,
                                                     None, None, decision=kind))
        except (OrderError, UsageError):    # nobody owes orders, no extension left: refused
            pass
    return journal


def _close_other_plan(journal: Path, rng: random.Random) -> None:
    """Where both sides are asked for a sealed plan, now and then the side not asked first
    closes his before the other (random play answers the side asked first): the decision
    asked stays the same, and the sides waited on change."""
    state = g.open_game(journal).state
    others = [s for s in sealed_sides(state) if s != state.pending.side]
    if others and rng.random() < 0.7:
        g.submit(journal, others[0], ["done"])


@pytest.mark.parametrize("seed", [1, 3, 4])
def test_a_random_game_with_deadlines_walks_as_every_record_worked_out(
        seed, tmp_path, clock, compared, monkeypatch):
    journal = _random_game(tmp_path, seed, clock)
    kinds = {r["clock"]["kind"] for r in g.open_game(journal).records if "clock" in r}
    assert {"settings", "extend", "reminded", "missed", "pause", "resume"} <= kinds, kinds
    for beside in (True, False):
        before = dict(compared)
        _read_cold(journal, beside, monkeypatch)
        got = {k: compared[k] - before[k] for k in compared}
        assert got["walked"] > 40 and got["left alone"] > 100, got
        assert got["sealed left alone"] > 20 and got["waited on anew"] > 0, got


@pytest.mark.parametrize("name", STORED)
def test_a_stored_campaign_walks_as_every_record_worked_out(name, tmp_path, compared,
                                                           monkeypatch):
    journal = tmp_path / name
    journal.write_bytes(gzip.decompress((REPLAYS / f"{name}.gz").read_bytes()))
    journal.chmod(0o600)
    _read_cold(journal, True, monkeypatch)
    assert compared["left alone"] > 200 and compared["walked"] > 50, compared
    assert compared["sealed left alone"] > 50, compared


def test_a_walk_that_left_alone_the_records_of_a_sealed_plan_is_caught(tmp_path, clock,
                                                                      compared, monkeypatch):
    """Negative control: taking every decision for one a side answers alone (as though none
    were a sealed plan), the walk no longer asks whom the game waits on before it leaves a
    record alone, misses a plan closed by the side not asked first, which leaves the
    decision asked as it was, and the comparison fails."""
    journal = _random_game(tmp_path, 1, clock)
    monkeypatch.setattr(clockwalk, "sealed_kind", lambda kind: False)
    with pytest.raises(AssertionError, match="the walks differ"):
        _read_cold(journal, True, monkeypatch)
