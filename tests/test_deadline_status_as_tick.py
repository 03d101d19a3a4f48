"""`status` and `deadline` tell of a deadline that has passed what the next pass of `tick`
does with it: the function the pass decides by decides the view (mail/nextpass.py). A
deadline whose side was never mailed his decision is not missed (the pass gives the time
back once the mail goes), nor one within the grace a mail on its way has; one the pass
rules missed is, with what follows by the policy. `status` said `missed: "wait"` where
`tick` then said "not ruled missed yet" and extended the deadline.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from commandclock import START

DUE = START + timedelta(hours=48)


def _game(tmp_path, cli):
    journal = tmp_path / "dl.jsonl"
    (tmp_path / "box.mbox").write_bytes(b"")
    r = cli("new", journal, "--scenario", "1914", "--game-id", "dl", "--deadline", "48h",
            "--player", "german=hans@example.org", "--player", "entente=fr@example.org",
            "--mail-in", tmp_path / "box.mbox", "--mail-out", f"outbox:{tmp_path / 'out'}")
    assert r.exit_code == 0, r.output
    return journal


def _due(cli, journal, command="status") -> dict:
    args = ["--as", "german"] if command == "status" else []
    r = cli(command, journal, *args, "--format", "json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    [due] = (doc["deadlines"] if command == "status" else doc)["due"]
    return due


def _tick(cli, journal) -> tuple[int, list[str]]:
    r = cli("tick", journal, "--format", "json")
    return r.exit_code, json.loads(r.stdout)["games"][0]["log"]


def test_a_deadline_whose_side_was_never_mailed_is_not_told_missed(tmp_path, cli, clock):
    journal = _game(tmp_path, cli)
    clock(DUE + timedelta(days=1))              # no pass ran: the first mail has not gone
    for command in ("status", "deadline"):
        due = _due(cli, journal, command)
        assert "missed" not in due, due
        assert due["not_ruled"].startswith("the mail asking them has not gone out"), due
    text = " ".join(cli("status", journal, "--as", "german").stdout.split())
    assert "; not ruled missed yet (the mail asking them has not gone out: the time is " \
           "given back once it has)." in text, text
    said = _due(cli, journal)["not_ruled"]
    code, log = _tick(cli, journal)
    assert code == 0 and any(f"not ruled missed yet ({said})" in line for line in log), log
    assert any("extends the German player's deadline" in line for line in log), log


def test_status_tells_the_grace_and_then_the_ruling_as_tick_does_them(tmp_path, cli, clock):
    journal = _game(tmp_path, cli)
    clock(START + timedelta(hours=1))
    assert _tick(cli, journal)[0] == 0          # the opening mails go out: he is asked
    clock(DUE + timedelta(minutes=5))           # within the grace
    due = _due(cli, journal)
    assert "missed" not in due and "of grace" in due["not_ruled"], due
    code, log = _tick(cli, journal)
    assert code == 0 and any(f"not ruled missed yet ({due['not_ruled']})" in line
                             for line in log), log
    clock(DUE + timedelta(hours=1))             # past it: the pass rules it, as status says
    due = _due(cli, journal)
    assert due["missed"] == "wait" and "not_ruled" not in due, due
    code, log = _tick(cli, journal)
    assert code == 3 and any(line.startswith("dl: missed: the German player's orders")
                             for line in log), log
    assert _due(cli, journal)["missed"] == "wait"


def test_a_mailbox_that_is_not_there_rules_nothing_and_status_says_so(tmp_path, cli, clock):
    journal = _game(tmp_path, cli)
    clock(START + timedelta(hours=1))
    assert _tick(cli, journal)[0] == 0
    (tmp_path / "box.mbox").unlink()
    clock(datetime(2026, 11, 26, 18, 0, tzinfo=UTC))
    due = _due(cli, journal)
    assert "missed" not in due and "could not be read in full" in due["not_ruled"], due


def test_report_tells_a_deadline_past_its_time_as_status_does(tmp_path, cli, clock):
    """docs/scripting.md: report's deadlines are as status gives them. report marked the
    deadline `missed` by the clock alone where status said the next pass does not rule it."""
    journal = _game(tmp_path, cli)
    clock(DUE + timedelta(days=1))              # no pass ran: the first mail has not gone
    said = _due(cli, journal)
    r = cli("report", journal, "--as", "german", "--format", "json", "--keep-place")
    assert r.exit_code == 0, r.output
    [due] = json.loads(r.stdout)["deadlines"]["due"]
    assert due == said and "missed" not in due, due

