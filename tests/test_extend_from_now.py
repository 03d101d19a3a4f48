"""The hint a missed deadline gives the moderator works whenever he runs it.

The referee's mail and line for a game waiting on a missed deadline offered `referee
extend JOURNAL SIDE 24h`; an extension adds to the deadline, so run more than a day after
it passed, that command was refused (24h more ends in the past). The hint now counts from
now (`--from-now`): the new deadline is the duration after the moment he runs it. The
refusal of an extension that ends in the past names that command.

The game of test_deadlines.py (`--deadline 48h`, policy wait): the German's first orders
asked at START, due 48 hours later; the moderator has an address, so he is told.
"""

from __future__ import annotations

import email
import email.policy
from datetime import timedelta

from commandclock import START
from test_deadlines import new_game

from referee.base.clock import for_players
from referee.mail.reminders import check_deadlines, waits_on_the_moderator
from referee.table import Table

DUE = START + timedelta(hours=48)


def _late(tmp_path, cli, clock):
    """The German's deadline ruled missed half an hour after it; the moderator's notice."""
    journal = new_game(tmp_path, cli, "--deadline", "48h")
    clock(DUE + timedelta(minutes=30))
    out = tmp_path / "out"
    check_deadlines(journal, out, DUE + timedelta(minutes=30))
    [notice] = [email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
                for p in out.glob("*-missed-*-moderator.eml")]
    return journal, notice.get_body(("plain",)).get_content()


def test_the_hint_of_a_missed_deadline_works_a_week_later(tmp_path, cli, clock):
    journal, notice = _late(tmp_path, cli, clock)
    [hint] = [line.strip() for line in notice.splitlines() if "referee extend" in line]
    assert hint == f"referee extend {journal} german 24h --from-now", notice
    line = waits_on_the_moderator(Table(journal), str(journal))
    assert f"`referee extend {journal} german 24h --from-now`" in line, line
    later = DUE + timedelta(days=7, hours=3)
    clock(later)
    r = cli(*hint.split()[1:])
    assert r.exit_code == 0, r.output
    shown = cli("deadline", journal).stdout
    assert f"German: Orders due by {for_players(later + timedelta(hours=24))}" in shown, shown
    assert "missed" not in shown, shown


def test_an_extension_ending_in_the_past_names_the_one_from_now(tmp_path, cli, clock):
    journal, _ = _late(tmp_path, cli, clock)
    clock(DUE + timedelta(days=2))
    before = journal.read_bytes()
    r = cli("extend", journal, "german", "24h")
    assert r.exit_code == 1 and r.stderr.count("\n") == 1, r.output
    assert f"or 24h from now: `referee extend {journal} german 24h --from-now`" in r.stderr, \
        r.stderr
    assert journal.read_bytes() == before


def test_from_now_refuses_a_deadline_later_than_the_duration(tmp_path, cli, clock):
    journal = new_game(tmp_path, cli, "--deadline", "48h")
    before = journal.read_bytes()
    r = cli("extend", journal, "german", "24h", "--from-now")
    assert r.exit_code == 1 and r.stderr.count("\n") == 1, r.output
    assert "later than 24h from now" in r.stderr and "Traceback" not in r.output, r.stderr
    assert journal.read_bytes() == before
