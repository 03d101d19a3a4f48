"""How each order came (docs/security.md): `log` and `explain` say it in the words, and with
the ⚑ mark, that the reports and mails give it (render/came.py), to the same readers.

- A decision the referee closed after a mail (`by: referee`, the only order open) is marked
  for every reader, with the rule of the decision it closed (2.0 II.3 at Liège).
- An order entered by hand at the referee (`order --as`, `by: hand`) and the referee's
  default at a missed deadline (`by: deadline`) are marked for that side and the moderator,
  as his report marks them; the other side's and the public's show none.
- `explain --format json` says how the order came (`by`, as every reader's copy of the
  record holds it) and the mark the reader is shown (`came`).
"""

from __future__ import annotations

import json
import re
from datetime import timedelta
from pathlib import Path

import pytest
from test_deadlines import DUE
from test_deadlines import new_game as clock_game
from test_hostile_mail import KEYS, eml, handled, mail, new_game, records
from test_mail_closed import LIEGE

from referee.mail.reminders import check_deadlines

CLOSED = "⚑ closed by the referee: the only order open (2.0 II.3)"
HAND = "⚑ entered by hand at the referee"
DEFAULT = "⚑ the referee's default: the deadline passed"
READERS = ("german", "entente", "public", "moderator")


def logged(cli, journal: Path, reader: str) -> dict[int, str]:
    """Each record's heading as `log` prints it to reader, by its number (unwrapped)."""
    r = cli("log", journal, "--as", reader, "--width", "400")
    assert r.exit_code == 0, r.output
    return {int(m[1]): m[0] for m in re.finditer(r"^#(\d+) .*$", r.stdout, re.M)}


def explained(cli, journal: Path, seq: int, reader: str) -> tuple[str, dict]:
    """`explain` of record seq for reader: its text (whitespace joined) and its JSON."""
    r = cli("explain", journal, str(seq), "--as", reader)
    assert r.exit_code == 0, r.output
    j = cli("explain", journal, str(seq), "--as", reader, "--format", "json")
    assert j.exit_code == 0, j.output
    return " ".join(r.stdout.split()), json.loads(j.stdout)


def marks(text: str) -> dict[int, str]:
    """Each record's ⚑ mark in a log or a report, by the record's number."""
    return {int(m[1]): m[2] for m in re.finditer(r"^#(\d+) .*? — (⚑ .*)$", text, re.M)}


@pytest.fixture
def closed(tmp_path, cli) -> tuple[Path, dict]:
    """A game whose German mail left 'done' the only order open at declaring battles: the
    referee closed it, and the record it wrote."""
    journal = new_game(cli, tmp_path / "game")
    body = "\n".join(LIEGE) + f"\n\nOrder key: {KEYS['german']}\n"
    out = handled(cli, journal, eml(tmp_path / "in", mail(body=body)), outbox=tmp_path / "out")
    assert [o["status"] for o in out] == ["applied"], out
    rec = records(journal)[-1]
    assert rec["by"] == "referee"
    return journal, rec


def test_log_marks_a_decision_the_referee_closed_for_every_reader(closed, cli):
    journal, rec = closed
    for reader in READERS:
        assert logged(cli, journal, reader)[rec["seq"]] == (
            f"#{rec['seq']} {rec['at']} German: done (declare battles) — {CLOSED}"), reader


def test_log_marks_an_order_by_hand_for_its_side_and_the_moderator(tmp_path, cli):
    journal = new_game(cli, tmp_path / "game")
    r = cli("order", journal, "--as", "german", *LIEGE[:2])
    assert r.exit_code == 0, r.output
    given = [rec for rec in records(journal) if rec.get("by") == "hand"]
    assert [rec["order"] for rec in given] == LIEGE[:2]
    for reader in READERS:
        lines = logged(cli, journal, reader)
        for rec in given:
            mark = f" — {HAND}" if reader in ("german", "moderator") else ""
            assert lines[rec["seq"]] == \
                f"#{rec['seq']} {rec['at']} German: {rec['order']}{mark}", reader


def test_log_marks_the_referee_s_default_for_its_side_and_the_moderator(tmp_path, cli,
                                                                        clock):
    journal = clock_game(tmp_path, cli, "--deadline", "48h", "--missed", "default")
    out = tmp_path / "out"
    check_deadlines(journal, out, DUE - timedelta(minutes=1))
    check_deadlines(journal, out, DUE)
    rec = records(journal)[-1]
    assert rec["by"] == "deadline"
    for reader in READERS:
        mark = f" — {DEFAULT}" if reader in ("german", "moderator") else ""
        assert logged(cli, journal, reader)[rec["seq"]] == \
            f"#{rec['seq']} {rec['at']} German: pass (card or pass){mark}", reader


def test_log_marks_what_each_reader_s_report_marks(closed, cli):
    """The same marks on the same records, for every reader, as his report from the start."""
    journal, _ = closed
    r = cli("order", journal, "--as", "german", "done", "done")
    assert r.exit_code == 0, r.output
    for reader in READERS:
        log = cli("log", journal, "--as", reader, "--width", "400").stdout
        report = cli("report", journal, "--as", reader, "--since", "0", "--keep-place",
                     "--width", "400").stdout
        assert marks(log) == marks(report) and marks(log), reader


# ---------------------------------------------------------------- explain

def test_explain_marks_a_decision_the_referee_closed_for_every_reader(closed, cli):
    journal, rec = closed
    for reader in READERS:
        text, doc = explained(cli, journal, rec["seq"], reader)
        assert f"German: done {CLOSED} The decision it answered" in text, (reader, text)
        assert doc["order"] == {"text": "done", "sealed": False, "by": "referee",
                                "came": CLOSED}, reader


def test_explain_marks_an_order_by_hand_for_its_side_and_the_moderator(tmp_path, cli):
    journal = new_game(cli, tmp_path / "game")
    r = cli("order", journal, "--as", "german", "play offensive")
    assert r.exit_code == 0, r.output
    seq = records(journal)[-1]["seq"]
    for reader in READERS:
        text, doc = explained(cli, journal, seq, reader)
        flagged = reader in ("german", "moderator")
        assert (HAND in text) == flagged, (reader, text)
        assert doc["order"] == {"text": "play offensive", "sealed": False, "by": "hand",
                                **({"came": HAND} if flagged else {})}, reader


def test_explain_marks_the_referee_s_default_for_its_side_and_the_moderator(tmp_path, cli,
                                                                            clock):
    journal = clock_game(tmp_path, cli, "--deadline", "48h", "--missed", "default")
    check_deadlines(journal, tmp_path / "out", DUE)
    rec = records(journal)[-1]
    assert rec["by"] == "deadline"
    for reader in READERS:
        text, doc = explained(cli, journal, rec["seq"], reader)
        flagged = reader in ("german", "moderator")
        assert (f"German: pass {DEFAULT} The decision" in text) == flagged, (reader, text)
        assert doc["order"].get("came") == (DEFAULT if flagged else None), reader
        assert doc["order"]["by"] == "deadline"


def test_explain_of_a_moderator_s_record_says_nothing_of_how_it_came(tmp_path, cli):
    journal = new_game(cli, tmp_path / "game")
    _, doc = explained(cli, journal, 1, "moderator")
    assert "by" not in doc["order"] and "came" not in doc["order"]
