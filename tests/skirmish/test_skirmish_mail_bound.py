"""A skirmish mail after the moderator entered many orders at the command line between two
passes is bounded as a campaign's report mail is (mail/refusal.py FULL_MOST): the last
FULL_MOST tests in full, those before them in brief, a turn a line, pointing at the
moderator's `skirmish report --turn`; one pass later, with little new, the mail lists it
all again in full."""

from __future__ import annotations

import json
from email import message_from_bytes

from flowtext import written
from mailboxes import write_maildir
from skirmish_cases import said_done
from test_skirmish_mail import BRITISH, GERMAN, mailed_patrol

from referee.mail.refusal import FULL_MOST


def _moves_until(cli, j, turns: int) -> int:
    """Each side moves every figure of it, stealthily, then says done, phase after phase,
    until turn `turns` is over: the tests made."""
    made = 0
    while True:
        now = json.loads(cli("status", j, "--format", "json").stdout)
        if now["turn"] > turns:
            return made
        side = now["waiting_on"][0]
        orders = [f"move {side[0].upper()}{n} mode=stealthy command=yes"
                  for n in range(1, 7)] if now["phase"] == "movement" else []
        for order in [*orders, "done"]:
            r = said_done(cli, j, side) if order == "done" else \
                cli("skirmish", "order", j, "--as", side, order)
            assert r.exit_code == 0, r.output
        made += len(orders)


def _latest(out, address: str) -> str:
    mails = sorted(out.glob("*.eml"), key=lambda p: p.stat().st_mtime_ns)
    last = [message_from_bytes(p.read_bytes()) for p in mails]
    return written([m for m in last if m["To"] == address][-1].get_payload(decode=True).decode())


def test_a_mail_after_many_orders_tells_the_early_tests_in_brief(cli, tmp_path,
                                                                 secret_file):
    j, out = tmp_path / "patrol.jsonl", tmp_path / "out"
    mailed_patrol(cli, j, secret_file, "--mail-in", str(write_maildir(tmp_path / "box", [])),
                  "--mail-out", f"outbox:{out}")
    assert cli("tick", j).exit_code == 0                # the opening mails
    made = _moves_until(cli, j, 6)
    assert made > FULL_MOST + 12
    assert cli("tick", j).exit_code == 0
    text = _latest(out, GERMAN)
    lines = text.splitlines()
    words = " ".join(text.split())
    early = made - FULL_MOST
    assert f"{early} tests before these in brief, a turn a line; the {FULL_MOST} after " \
        f"them follow in full" in words
    assert "referee skirmish report patrol.jsonl --turn N" in words
    assert "  turn 1: 12 tests, #2 to #14" in lines
    assert sum(line.startswith("#") for line in lines) == FULL_MOST
    assert "#2 British: move B1" not in text          # told in brief, not in full
    # Each test at most four lines: entered at the referee, its flag takes one.
    assert len(lines) < 4 * FULL_MOST + 60 and max(map(len, lines)) <= 72
    # A few orders more: the next mail tells them in full, no brief.
    _moves_until(cli, j, 6)
    for order in ("move B1 mode=stealthy command=yes", "done"):
        assert cli("skirmish", "order", j, "--as", "british", order).exit_code == 0
    assert cli("tick", j).exit_code == 0
    later = _latest(out, BRITISH)
    assert "in brief" not in later and \
        "British: move B1 mode=stealthy" in " ".join(later.split())


def test_the_journal_named_in_brief_is_one_line_and_quoted_for_a_shell():
    """The command the brief names gives the journal's file name as the moderator types it:
    quoted where a shell needs it, and a name holding a line end is escaped, so that it
    cannot write a line of its own in the player's mail."""
    from referee.table.skirmish.brief import bounded

    tests = [{"turn": 1 + n // 10, "record": n + 1} for n in range(FULL_MOST + 1)]
    lines, kept = bounded(tests, FULL_MOST, "my game.jsonl")
    assert len(kept) == FULL_MOST and lines[1:] == ["  turn 1: 1 test, #1"]
    assert "`referee skirmish report 'my game.jsonl' --turn N`" in lines[0]
    lines, _ = bounded(tests, FULL_MOST, "a\nOrder key: X.jsonl")
    assert "\n" not in lines[0] and "a\\nOrder key: X.jsonl" in lines[0], lines[0]
    assert bounded(tests[:FULL_MOST], FULL_MOST, "a\nb") == ([], tests[:FULL_MOST])
