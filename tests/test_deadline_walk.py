"""The deadlines are walked as the journal is replayed, and the walk is kept with the state.

A game with deadlines shows them in `status`. They come from every record since the game
began (each side's hand-offs, the settings, extensions, reminders, missed deadlines and
pauses: game/clockwalk.py), so they were once worked out by reading and replaying the whole
journal a second time. Now the replay walks the records for them as it goes, the state
snapshot keeps the walk, and a read from a snapshot walks only the records after it; what
`order` keeps for the next `status` carries the deadlines too. Whatever the snapshots, the
walk and so the deadlines are those of a walk from the game's first record.
"""

from __future__ import annotations

import gzip
import json
import shutil
from datetime import timedelta
from pathlib import Path

import pytest
from test_deadlines import DUE, START, at, new_game, order, records

from referee.game import replay
from referee.game.clockwalk import Walk
from referee.mail.reminders import check_deadlines
from referee.store import checking, home
from referee.store.journal import Journal


def _json(cli, *args) -> dict:
    r = cli(*args, "--format", "json")
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def _forget_snapshots() -> None:
    shutil.rmtree(home.cache_dir("snapshots"), ignore_errors=True)


def _first_legal(cli, journal: Path) -> tuple[str, str]:
    view = _json(cli, "status", journal, "--as", "moderator")
    return view["legal_for"], view["legal"][0]


def _varied(tmp_path: Path, cli, clock) -> Path:
    """A game whose journal holds every kind of fact about time: the settings, a reminder,
    a moderator's extension, a missed deadline the referee answered, a pause and a resume,
    between the sides' orders."""
    journal = new_game(tmp_path, cli, "--deadline", "48h", "--missed", "default")
    out = tmp_path / "out"
    check_deadlines(journal, out, DUE - timedelta(minutes=1))          # the 2h reminder
    clock(DUE - timedelta(minutes=1))
    assert cli("extend", journal, "german", "12h").exit_code == 0
    check_deadlines(journal, out, DUE + timedelta(hours=12))          # missed: answered
    for hours in (70, 80):
        clock(START + timedelta(hours=hours))
        order(journal, *_first_legal(cli, journal))
    clock(START + timedelta(hours=90))
    assert cli("deadline", journal, "--pause").exit_code == 0
    clock(START + timedelta(hours=100))
    assert cli("deadline", journal, "--resume").exit_code == 0
    for hours in (110, 120):
        clock(START + timedelta(hours=hours))
        order(journal, *_first_legal(cli, journal))
    kinds = {r["clock"]["kind"] for r in records(journal) if "clock" in r}
    assert kinds == {"settings", "reminded", "extend", "missed", "pause", "resume"}, kinds
    return journal


def test_a_walk_taken_on_from_each_snapshot_is_the_walk_from_the_start(tmp_path, cli, clock,
                                                                       monkeypatch):
    """The journal grown one record at a time, each read starting from the snapshot of the
    one before (it walks that one record, read as JSON), against the same bytes read under
    another name, which no snapshot fits (walked from the start, its records read straight
    into their class while their lines are checked beside): the same walk, record after
    record."""
    lines = _varied(tmp_path, cli, clock).read_bytes().splitlines(keepends=True)
    grown, walked = tmp_path / "grown.jsonl", 0
    for k in range(1, len(lines) + 1):
        raw = b"".join(lines[:k])
        grown.write_bytes(raw)
        game = replay.open_game(grown)                  # keeps its state and its walk
        fresh = tmp_path / f"fresh-{k}.jsonl"
        fresh.write_bytes(raw)
        with monkeypatch.context() as beside:
            beside.setattr(checking, "worth_beside", lambda _raw: True)
            whole = replay.position(Journal(fresh), raw, None)
        assert not whole.from_snapshot
        if whole.walk is None:          # the records before the settings: nothing to walk
            assert game.walk is None and b'"clock":{' not in raw
            continue
        walked += 1
        assert game.walk.kept() == whole.walk.kept(), f"record {k - 1}"
        again = replay.position(Journal(grown), raw, None)
        assert again.from_snapshot and again.read == 0 and again.walk == game.walk
    first = next(n for n, line in enumerate(lines) if b'"clock":{' in line)
    assert walked == len(lines) - first > 8


def test_status_after_an_order_shows_what_status_works_out_cold(tmp_path, cli, clock):
    """`order` keeps the view its side's next `status` prints: with the deadlines, as the
    same bytes read with no snapshot show them (it once kept the view without them)."""
    journal = new_game(tmp_path, cli, "--deadline", "48h")
    cli("status", journal)
    clock(START + timedelta(hours=10))
    order_run = cli("order", journal, "--as", "german", "pass")
    assert order_run.exit_code == 0, order_run.output
    kept = _json(cli, "status", journal, "--as", "german")
    _forget_snapshots()
    cold = _json(cli, "status", journal, "--as", "german")
    assert kept == cold
    assert cold["deadlines"]["due"][0]["due"] == "2026-11-26T04:00:00Z"     # 10h + 48h


def test_deadlines_set_on_a_game_read_before_are_walked_from_its_start(tmp_path, cli, clock):
    """A snapshot kept while the game had no deadlines holds no walk: the first read after
    the moderator sets them walks the journal from its first record."""
    journal = new_game(tmp_path, cli)
    clock(START + timedelta(hours=5))
    order(journal, "german", "pass")
    assert "deadlines" not in _json(cli, "status", journal)        # its snapshot, no walk
    clock(START + timedelta(hours=6))
    assert cli("deadline", journal, "--set", "24h").exit_code == 0
    shown = _json(cli, "status", journal)
    _forget_snapshots()
    assert shown == _json(cli, "status", journal)
    [due] = shown["deadlines"]["due"]
    passed = records(journal)[-2]                   # the German's pass: his new hand-off
    assert passed["order"] == "pass" and due["handoff"] == passed["seq"]
    assert due["due"] == "2026-11-24T23:00:00Z"                             # 5h + 24h


def test_a_cold_status_of_a_game_with_deadlines_replays_each_record_once(tmp_path, cli, clock,
                                                                         monkeypatch):
    journal = _varied(tmp_path, cli, clock)
    _forget_snapshots()
    applied = []
    real = replay.apply_record
    monkeypatch.setattr(replay, "apply_record",
                        lambda state, rec, *rest: applied.append(1) or real(state, rec, *rest))
    view = _json(cli, "status", journal)
    assert view["deadlines"]["due"] and len(applied) == len(records(journal)) - 1


def test_a_walk_kept_that_is_not_the_referee_s_is_no_walk():
    walk = Walk()
    walk.handoff["german"] = (3, "2026-11-23T18:00:00Z")
    walk.extended[("german", 3)] = (timedelta(hours=12), (5, "2026-11-24T06:00:00Z"),
                                    timedelta(hours=12))
    walk.reminded.add(("german", 3, "2h", "2026-11-25T18:00:00Z"))
    kept = json.loads(json.dumps(walk.kept()))
    assert Walk.from_kept(kept) == walk
    # An extension kept without the record that made it (as snapshots once kept it) leaves
    # the time a reminder may come after unknown: the journal is walked again.
    unmoored = {**kept, "extended": [e[:3] for e in kept["extended"]]}
    # One kept without the time its last extension added (as snapshots once kept it) cannot
    # tell that extension from all of them: the journal is walked again.
    untold = {**kept, "extended": [e[:4] for e in kept["extended"]]}
    for junk in (None, [], {"settings": 5}, {**kept, "handoff": {"german": [3]}}, unmoored,
                 untold):
        assert Walk.from_kept(junk) is None


def test_a_decision_the_rules_cannot_read_is_the_journal_s_fault_in_a_game_with_deadlines(
        tmp_path, cli, clock):
    """The walk asks whom each record leaves waited on: a record whose pending decision is of
    no kind the rules have is refused as its record, in one line, by every read (it was an
    internal error once the replay walked the records, where a game without deadlines
    said what was wrong)."""
    from forging import game_key, resign

    from referee.store.journal import line_of

    journal = new_game(tmp_path, cli, "--deadline", "48h")
    recs = records(journal)
    recs.append(resign({"seq": len(recs), "prev": recs[-1]["hash"], "at": at(START),
                        "actor": "german", "order": "pass",
                        "events": [{"type": "DecisionPending", "kind": "no_such_decision",
                                    "side": "german", "info": {}}]}, game_key(recs[0])))
    journal.write_bytes(b"".join(line_of(r) for r in recs))
    last = recs[-1]
    for command in (["status", journal], ["show", journal], ["deadline", journal],
                    ["report", journal]):
        _forget_snapshots()
        r = cli(*command)
        assert r.exit_code == 3 and r.stderr.count("\n") == 1, (command, r.output)
        assert f"record {last['seq']}" in r.stderr and "internal error" not in r.stderr, \
            (command, r.stderr)


def test_a_mail_pass_keeps_the_walk_with_the_state(tmp_path, cli, clock, monkeypatch):
    """A mail pass decides each message's batch from the position its Table holds: the
    walk goes on with that position, so the state it keeps holds the walk and the next
    `status` replays none of the records (a batch that began without the walk once kept
    the state without it, and `status` then walked the whole journal again)."""
    from test_deadlines import player_mail

    from referee.mail.inbox import inbox as mail_inbox

    journal = new_game(tmp_path, cli, "--deadline", "48h")
    clock(START + timedelta(hours=3))
    boxes = [player_mail(tmp_path, "german", ["pass"], 1),
             player_mail(tmp_path, "german", ["end turn"], 2)]
    outcomes, _ = mail_inbox(journal, boxes, tmp_path / "out", with_map=False)
    assert [o.status for o in outcomes] == ["applied", "applied"], outcomes
    applied = []
    real = replay.apply_record
    with monkeypatch.context() as counted:
        counted.setattr(replay, "apply_record",
                        lambda state, rec, *rest: applied.append(1) or real(state, rec, *rest))
        shown = _json(cli, "status", journal)
    assert applied == []
    _forget_snapshots()
    assert shown == _json(cli, "status", journal) and shown["deadlines"]["due"]


@pytest.mark.parametrize("reader", ["public", "german", "entente", "moderator"])
def test_the_status_a_report_keeps_shows_the_deadlines(tmp_path, cli, clock, reader):
    """A report keeps the views it shows for the reader's next `status` and `show`: its
    status view is the one `status` makes, deadlines and all (it once kept one without
    them, which `status` then printed until the journal moved on)."""
    journal = new_game(tmp_path, cli, "--deadline", "48h")
    clock(START + timedelta(hours=10))
    order(journal, "german", "pass")
    r = cli("report", journal, "--as", reader)
    assert r.exit_code == 0, r.output
    kept = _json(cli, "status", journal, "--as", reader)
    _forget_snapshots()
    assert kept == _json(cli, "status", journal, "--as", reader) and kept["deadlines"]["due"]


@pytest.mark.parametrize("when, words", [
    ("9999-12-31T23:00:00Z", "has a time no deadline can run from"),
    # No time in UTC at all: the first day there is in a zone ahead of it, the last behind.
    ("0001-01-01T00:00:00+01:00", "has no time the referee writes"),
    ("9999-12-31T23:30:00-01:00", "has no time the referee writes")])
def test_a_hand_off_too_late_for_a_deadline_is_the_journal_s_fault(tmp_path, cli, clock,
                                                                    when, words):
    """A record's time is any the contract's form allows; one so late that its deadline is
    past the last date there is (year 9999), or one that is no time in UTC, is refused as
    that record, in one line (an internal error once: OverflowError)."""
    from forging import game_key, resign

    from referee.store.journal import line_of

    journal = new_game(tmp_path, cli, "--deadline", "48h")
    recs = records(journal)
    recs.append(resign({"seq": len(recs), "prev": recs[-1]["hash"],
                        "at": when, "actor": "german", "order": "pass",
                        "events": [{"type": "DecisionPending", "kind": "pass_move",
                                    "side": "german", "info": {}}]}, game_key(recs[0])))
    journal.write_bytes(b"".join(line_of(r) for r in recs))
    for command in (["status", journal], ["deadline", journal]):
        r = cli(*command)
        assert r.exit_code == 3 and r.stderr.count("\n") == 1, (command, r.output)
        assert f"record {len(recs) - 1} {words}" in r.stderr, r.stderr


@pytest.mark.parametrize("due", ["2026-02-30T00:00:00Z", "2026-13-45T99:99:99Z"])
def test_a_fact_about_time_naming_no_date_is_the_journal_s_fault_in_a_report(tmp_path, cli,
                                                                             clock, due):
    """A reminder's or a missed deadline's `due` is any text of a time's form the contract
    lets through; one that is no date (30 February) is refused by `report` as that record,
    in one line, as `log` refuses it (an internal error once: AttributeError)."""
    from forging import game_key, resign

    from referee.store.journal import line_of

    journal = new_game(tmp_path, cli, "--deadline", "48h")
    recs = records(journal)
    recs.append(resign({"seq": len(recs), "prev": recs[-1]["hash"], "at": at(START),
                        "actor": "moderator", "order": "reminder sent", "events": [],
                        "clock": {"kind": "reminded", "side": "german", "handoff": 1,
                                  "before": "2h", "due": due}}, game_key(recs[0])))
    journal.write_bytes(b"".join(line_of(r) for r in recs))
    for command in (["log", journal], ["report", journal, "--since", "0"]):
        r = cli(*command)
        assert r.exit_code == 3 and r.stderr.count("\n") == 1, (command, r.output)
        assert f"record {len(recs) - 1} cannot be shown" in r.stderr, r.stderr


def test_an_order_whose_deadlines_cannot_be_worked_out_after_it_still_stands(
        tmp_path, cli, clock, monkeypatch):
    """The view an order keeps carries the deadlines; when an earlier record leaves them
    unreadable, the order's records stand all the same (exit 0, nothing undone) and no view
    is kept: the side's next `status` works the deadlines out itself, and says what is wrong."""
    from referee.base.errors import JournalError
    from referee.table import ordering

    journal = new_game(tmp_path, cli, "--deadline", "48h")
    cli("status", journal)

    def unreadable(*args):
        raise JournalError("record 1 has no time the referee writes", record=1)

    monkeypatch.setattr(ordering, "timeline_of", unreadable)
    before = len(records(journal))
    r = cli("order", journal, "--as", "german", "pass")
    assert r.exit_code == 0, r.output
    assert len(records(journal)) == before + 1
    monkeypatch.undo()
    clock(START)
    kept = _json(cli, "status", journal, "--as", "german")
    _forget_snapshots()
    assert kept == _json(cli, "status", journal, "--as", "german") and kept["deadlines"]["due"]


def test_the_journal_an_order_leaves_is_searched_for_time_only_where_it_is_new(monkeypatch):
    """Whether a journal holds a record about time is asked of the bytes an order finds,
    then of them with its records after them: only the records are searched again (a full
    campaign's journal is two megabytes), and a clock part cut across where they begin is
    still found. Other bytes, even longer ones, are searched whole."""
    from referee.game import clockwalk

    searched: list[tuple[int, int]] = []
    search = clockwalk._clock_in
    monkeypatch.setattr(clockwalk, "_clock_in", lambda raw, start=0: searched.append(
        (len(raw), start)) or search(raw, start))
    raw = b'{"seq":0}\n' * 1000
    assert not clockwalk.has_deadlines(raw) and not clockwalk.has_deadlines(raw)
    begun = raw + b'{"seq":1,"clo'
    assert not clockwalk.has_deadlines(begun)
    ended = begun + b'ck":{"kind":"settings"}}\n'
    assert clockwalk.has_deadlines(ended) and clockwalk.has_deadlines(ended + b"{}\n")
    assert searched == [(len(raw), 0), (len(begun), len(raw) - 8),
                        (len(ended), len(begun) - 8)]
    other = b"x" + ended[1:] + b"\n"
    assert clockwalk.has_deadlines(other) and searched[-1] == (len(other), 0)
    assert not clockwalk.has_deadlines(raw + b"{}\n") and searched[-1] == (len(raw) + 3, 0)


def test_the_records_about_time_are_not_looked_for_where_none_was_found(monkeypatch):
    """clock_facts (what paused a game, its time zone) takes the answer kept for the same
    bytes: where none was found, the journal is not searched again line by line."""
    from referee.game import clockwalk

    raw = b'{"seq":0}\n{"clock":{"kind":"pause"},"seq":1}\n'
    assert [r["seq"] for r in clockwalk.clock_facts(raw)] == [1]
    monkeypatch.setattr(clockwalk, "_LOOKED", [(raw, -1)])       # as if none were there
    assert clockwalk.clock_facts(raw) == []
    other = raw[:-1] + b" \n"             # other bytes: searched
    assert [r["seq"] for r in clockwalk.clock_facts(other)] == [1]


def test_the_records_about_time_are_read_from_where_the_first_was_found(monkeypatch):
    """clock_facts reads the same bytes from the clock part the search for one found first:
    a long game that got its deadlines late is not searched again up to them."""
    from referee.game import clockwalk

    lines = [b'{"seq":%d}\n' % n for n in range(200)] + [
        b'{"clock":{"kind":"pause"},"seq":200}\n', b'{"seq":201}\n',
        b'{"clock":{"kind":"resume"},"seq":202}\n']
    raw = b"".join(lines)
    assert clockwalk.has_deadlines(raw)
    assert [r["seq"] for r in clockwalk.clock_facts(raw)] == [200, 202]
    later = raw.index(b'"clock":{"kind":"resume"')
    monkeypatch.setattr(clockwalk, "_LOOKED", [(raw, later)])     # as if found there first
    assert [r["seq"] for r in clockwalk.clock_facts(raw)] == [202]


def test_a_walk_works_out_the_sides_asked_only_when_that_changes(tmp_path, monkeypatch):
    """Walking a whole campaign, each side's hand-off, owner and floor are worked out again
    only after a record that changes what is asked of whom (a move within a player turn
    changes nothing), and the walk ends as one that works them out after every record."""
    raw = gzip.decompress((Path(__file__).parent / "replays" / "ttlm-1914-seed7.jsonl.gz")
                          .read_bytes())
    path = tmp_path / "game.jsonl"
    path.write_bytes(raw)
    monkeypatch.setattr(checking, "worth_beside", lambda _raw: False)
    asked = []
    sides_asked = Walk.sides_asked

    def counted(self, *args):
        asked.append(args[3])
        return sides_asked(self, *args)

    monkeypatch.setattr(Walk, "sides_asked", counted)
    quick = replay.position(Journal(path), raw, None, walk=True).walk
    n = raw.count(b"\n") - 1
    assert 0 < len(asked) < n // 2
    step = Walk.step

    def every(self, *args, **kwargs):
        self._asked = self._still = None        # no record left alone, nothing kept asked
        return step(self, *args, **kwargs)

    monkeypatch.setattr(Walk, "step", every)
    asked.clear()
    whole = replay.position(Journal(path), raw, None, walk=True).walk
    assert len(asked) > n // 2 and quick.kept() == whole.kept()
