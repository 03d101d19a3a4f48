"""Reminders come between a hand-off and its deadline, never with the hand-off itself.

A reminder due at the moment a side's deadline began to run (24h before a 24h deadline), or
before it, would be the hand-off's own mail again, sent in the same pass and recorded for
every report to list. So each deadline has only the game's reminders due after its hand-off,
its resume or its last extension (game/clockwalk.py Due.reminders), and a reminder no
deadline of the game can have is refused when it is given. The game starts on Monday 23
November 2026 at 18:00 UTC (test_deadlines.py).
"""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from test_deadlines import DUE, START, at, mails, new_game, order, records, text_of

from referee.mail.reminders import check_deadlines, quiet_until


def _reminded(journal) -> list[tuple[int, str]]:
    return [(r["clock"]["handoff"], r["clock"]["before"]) for r in records(journal)
            if r.get("clock", {}).get("kind") == "reminded"]


def _reminders_set(journal) -> list[str]:
    return [r["clock"]["reminders"] for r in records(journal)
            if r.get("clock", {}).get("reminders") is not None][-1]


def test_a_24h_deadline_is_reminded_2h_before_and_not_at_its_hand_off(tmp_path, cli, clock):
    """`new --deadline 24h` keeps, of the usual reminders (24h, 2h), the one shorter than
    the deadline: nothing goes out with the first hand-off, the 2h reminder comes in time."""
    journal = new_game(tmp_path, cli, "via_cli", "--deadline", "24h")
    assert _reminders_set(journal) == ["2h"]
    out = tmp_path / "out"
    for moment in (START, START + timedelta(minutes=5)):
        assert check_deadlines(journal, out, moment) == []
    assert quiet_until(journal, START + timedelta(minutes=5)) == START + timedelta(hours=22)
    assert check_deadlines(journal, out, START + timedelta(hours=22)) == [
        "reminder: the German player, orders due by Tue 24 Nov 18:00 UTC (2h before)"]
    assert _reminded(journal) == [(1, "2h")] and len(mails(out)) == 1


def test_a_deadline_set_shorter_than_a_reminder_skips_it_at_each_hand_off(tmp_path, cli,
                                                                         clock):
    """The reminders stay when the moderator shortens the deadline (a later longer one, or
    another kind's, may use them again); a hand-off too short for one is not reminded then."""
    journal = new_game(tmp_path, cli, "--deadline", "48h")          # reminders 24h, 2h
    clock(START + timedelta(hours=1))
    assert cli("deadline", journal, "--set", "24h").exit_code == 0
    assert _reminders_set(journal) == ["24h", "2h"]
    out = tmp_path / "out"
    assert check_deadlines(journal, out, START + timedelta(hours=1)) == []
    clock(START + timedelta(hours=5))
    order(journal, "german", "pass")            # his next decision: a hand-off at 23:00
    handoff = records(journal)[-1]["seq"]
    assert check_deadlines(journal, out, START + timedelta(hours=5)) == []
    moment = START + timedelta(hours=27)
    assert quiet_until(journal, START + timedelta(hours=5)) == moment
    assert check_deadlines(journal, out, moment) == [
        "reminder: the German player, orders due by Tue 24 Nov 23:00 UTC (2h before)"]
    assert _reminded(journal) == [(handoff, "2h")]


def test_an_extension_after_a_missed_deadline_is_reminded_only_after_it(tmp_path, cli,
                                                                        clock):
    """The moderator gives 24h more after the deadline passed: the 24h reminder of the new
    deadline would be due at the old one, before the extension, and is not sent with it;
    the 2h one is."""
    journal = new_game(tmp_path, cli, "--deadline", "48h")
    out = tmp_path / "out"
    check_deadlines(journal, out, DUE - timedelta(minutes=1))           # the 2h reminder
    [line] = check_deadlines(journal, out, DUE + timedelta(minutes=20))
    assert line.startswith("missed: the German player") and "waiting" in line
    clock(DUE + timedelta(hours=1))
    assert cli("extend", journal, "german", "24h").exit_code == 0
    assert check_deadlines(journal, out, DUE + timedelta(hours=1)) == []
    assert quiet_until(journal, DUE + timedelta(hours=1)) == DUE + timedelta(hours=22)
    assert check_deadlines(journal, out, DUE + timedelta(hours=22)) == [
        "reminder: the German player, orders due by Thu 26 Nov 18:00 UTC (2h before)"]
    assert _reminded(journal) == [(1, "2h"), (1, "2h")]


def test_an_extension_made_early_keeps_the_reminders_after_it(tmp_path, cli, clock):
    """A guard (it passes on the code before too): a deadline extended soon after its
    hand-off still has its 24h reminder, which falls after the extension was made."""
    journal = new_game(tmp_path, cli, "--deadline", "48h")
    clock(START + timedelta(hours=1))
    assert cli("extend", journal, "german", "24h").exit_code == 0
    out = tmp_path / "out"
    assert check_deadlines(journal, out, DUE - timedelta(minutes=1)) == []
    assert check_deadlines(journal, out, DUE) == [
        "reminder: the German player, orders due by Thu 26 Nov 18:00 UTC (24h before)"]


@pytest.mark.parametrize("options, says", [
    (["--deadline", "24h", "--reminders", "30h"], "--reminders '30h': the game's longest "
     "deadline is 24h, so a reminder 30h before it comes at the hand-off or earlier; give "
     "reminders shorter than 24h"),
    (["--deadline", "2d", "--reminders", "2h,2d"], "--reminders '48h': the game's longest "
     "deadline is 48h"),
])
def test_a_reminder_no_deadline_can_have_is_refused_at_new(tmp_path, cli, clock, options,
                                                           says):
    r = cli("new", tmp_path / "g.jsonl", "--scenario", "1914", *options)
    assert r.exit_code == 2 and r.stderr.count("\n") == 1 and says in r.stderr, r.stderr
    assert not list(tmp_path.iterdir())


def test_a_reminder_no_deadline_can_have_is_refused_by_deadline(tmp_path, cli, clock):
    """Against the longest deadline the game has once the change is made: a kind's longer
    deadline makes room for a reminder the others skip."""
    journal = new_game(tmp_path, cli, "--deadline", "48h")
    before = journal.read_bytes()
    for options in (["--reminders", "72h"], ["--set", "24h", "--reminders", "30h,2h"]):
        r = cli("deadline", journal, *options)
        assert r.exit_code == 2 and r.stderr.count("\n") == 1, r.output
        assert "the game's longest deadline is" in r.stderr, r.stderr
        assert journal.read_bytes() == before
    r = cli("deadline", journal, "--set", "72h", "--kind", "movement", "--reminders",
            "60h,24h", "--format", "json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["due"][0]["due"] == at(DUE)        # the German's: 48h
    assert check_deadlines(journal, tmp_path / "out", START + timedelta(minutes=5)) == []
    assert check_deadlines(journal, tmp_path / "out", DUE - timedelta(hours=24)) == [
        "reminder: the German player, orders due by Wed 25 Nov 18:00 UTC (24h before)"]
    [mail] = mails(tmp_path / "out")
    assert "Wed 25 Nov 18:00 UTC" in text_of(mail)


def test_new_with_empty_reminders_sets_none_as_deadline_does(tmp_path, cli, clock):
    """`deadline --reminders ''` takes every reminder away, but `new --reminders ''` gave the
    usual ones (24h, 2h): the same words meant opposite things. Both mean none now; a game
    reminded of nothing is sent no reminder before its deadline."""
    journal = new_game(tmp_path, cli, "via_cli", "--deadline", "48h", "--reminders", "")
    assert _reminders_set(journal) == []
    out = tmp_path / "out"
    assert check_deadlines(journal, out, START + timedelta(hours=47)) == []
    assert _reminded(journal) == []
    other = tmp_path / "other"
    other.mkdir()
    assert _reminders_set(new_game(other, cli, "via_cli", "--deadline", "48h")) == \
        ["24h", "2h"]
