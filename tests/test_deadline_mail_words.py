"""A deadline's mails as their readers take them on a phone: a reminder's first line says
when the orders are due and how long is left; a mail about a side's missed deadline says
"your orders" to that side's own player and "the German player's orders" to anyone else;
the moderator's pause mail gives him the command that resumes the game.

The game is the 1914 game of test_deadlines.py: begun on Monday 23 November 2026 at 18:00
UTC, the German player owes his card or a pass (2.0 II.1) by Wednesday 25 November 18:00
UTC with `--deadline 48h`: 19:00 CET in Paris (UTC+1 in winter).
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from mailkinds import first_line
from test_deadlines import ADDRESSES, DUE, mails, new_game, text_of

from referee.game.timeline import NoOrdersTaken, extend
from referee.mail.reminders import check_deadlines, waits_on_the_moderator
from referee.table import Table

PARIS_DUE = "Wed 25 Nov 19:00 CET (18:00 UTC)"
# Why the game of paused_by_a_missed_deadline is paused: the German's deadline, record 4.
MISSED_WHY = "the German player missed his deadline of Wed 25 Nov 18:00 UTC (record 4)"
CARD_OR_PASS = ("play an Offensive-type card or pass in this player turn, SUMMER 1914 "
                "(2.0 II.1)")


def flat(mail) -> str:
    return " ".join(text_of(mail).split())


def by_reader(folder) -> dict[str, str]:
    """Each mail's text by its reader (moderator, german, entente), its lines joined."""
    reader = {address: side for side, address in ADDRESSES.items()}
    return {reader[str(m["To"])]: flat(m) for m in mails(folder)}


def test_a_reminder_s_first_line_says_when_the_orders_are_due(tmp_path, cli, clock):
    journal = new_game(tmp_path, cli, "via_cli", "--deadline", "48h", "--zone",
                       "Europe/Paris")
    for before, left in ((24, "in 24 hours"), (2, "in 2 hours")):
        out = tmp_path / f"out{before}"
        check_deadlines(journal, out, DUE - timedelta(hours=before))
        [reminder] = mails(out)
        lines = text_of(reminder).splitlines()
        assert all(len(line) <= 72 for line in lines), lines
        opening = " ".join(text_of(reminder).split("\n\n")[0].split())
        assert opening == (f"A reminder: your orders are due by {PARIS_DUE}, {left}: "
                           f"{CARD_OR_PASS}."), opening
        assert first_line(reminder).startswith("A reminder: your orders are due by Wed 25")
        # Then his orders open and the extensions left; the time is given once, above.
        assert "Reply with one order per line" in flat(reminder)
        assert flat(reminder).count(PARIS_DUE) == 1, flat(reminder)
        assert "Orders due by" not in flat(reminder), flat(reminder)
        assert ("More time: a line 'extend 24h' alone in a mail (2 extensions left of the 2 "
                "this game allows).") in flat(reminder), flat(reminder)


def test_a_reminder_sent_late_counts_the_time_really_left(tmp_path, cli, clock):
    """A pass that runs after the 2h reminder's time (a machine asleep) tells the time left
    then: 1 hour and 30 minutes, not the 2 hours the reminder was set for."""
    journal = new_game(tmp_path, cli, "--deadline", "48h", "--reminders", "2h")
    check_deadlines(journal, tmp_path / "out", DUE - timedelta(minutes=90))
    [reminder] = mails(tmp_path / "out")
    assert flat(reminder).startswith("A reminder: your orders are due by Wed 25 Nov 18:00 "
                                     "UTC, in 1 hour and 30 minutes: play an"), flat(reminder)


def test_a_default_answer_is_told_to_the_side_as_yours_and_to_others_in_words(
        tmp_path, cli, clock):
    journal = new_game(tmp_path, cli, "--deadline", "48h", "--missed", "default")
    check_deadlines(journal, tmp_path / "out", DUE)
    told = by_reader(tmp_path / "out")
    assert told["german"].startswith("Your orders were due by Wed 25 Nov 18:00 UTC and none "
                                     "came."), told["german"]
    assert "the referee answered for you with 'pass'" in told["german"], told["german"]
    assert told["entente"].startswith("The German player's orders were due by Wed 25 Nov "
                                      "18:00 UTC and none came."), told["entente"]
    assert "the referee answered for the German player with 'pass'" in told["entente"]
    assert not any("German's" in text for text in told.values()), told


def test_a_missed_deadline_under_wait_names_the_side_in_words_to_the_moderator(
        tmp_path, cli, clock):
    journal = new_game(tmp_path, cli, "--deadline", "48h")
    check_deadlines(journal, tmp_path / "out", DUE + timedelta(hours=1))
    [notice] = [m for m in mails(tmp_path / "out") if m["To"] == ADDRESSES["moderator"]]
    # His first line says what the mail wants of him: the game waits on him.
    assert first_line(notice).startswith("The game waits on you: the German player's orders "
                                         "were due by"), first_line(notice)


def test_the_moderator_s_commands_name_the_journal_wherever_he_types_them(
        tmp_path, cli, clock, monkeypatch):
    """`tick .`, run from cron in the games' folder, names each journal by a path relative
    to that folder: the commands mailed to the moderator name it whole, for he types them
    wherever he reads his mail."""
    journal = new_game(tmp_path, cli, "--deadline", "48h")
    monkeypatch.chdir(tmp_path)
    check_deadlines(Path(journal.name), tmp_path / "out", DUE + timedelta(hours=1))
    [notice] = [m for m in mails(tmp_path / "out") if m["To"] == ADDRESSES["moderator"]]
    lines = text_of(notice).splitlines()
    assert f"  referee extend {journal} german 24h --from-now" in lines, lines


def test_the_late_side_s_wait_mail_says_he_may_still_ask_for_more_time(tmp_path, cli,
                                                                        clock):
    """Under --missed wait his deadline has passed, but an extension runs from it: 'extend
    24h' mailed now is granted and the game waits on the moderator no more. His mail says
    so, as every other mail with his deadline does; the other side's says nothing of it."""
    journal = new_game(tmp_path, cli, "--deadline", "48h")
    check_deadlines(journal, tmp_path / "out", DUE + timedelta(hours=1))
    told = by_reader(tmp_path / "out")
    # Due Wed 25 Nov 18:00 UTC: 24h from it is the last moment an 'extend 24h' is granted.
    assert ("More time: a line 'extend 24h' alone in a mail (2 extensions left of the 2 "
            "this game allows), read by the referee before Thu 26 Nov 18:00 UTC: it counts "
            "from the "
            "deadline that passed.") in told["german"], told["german"]
    assert "extend 24h" not in told["entente"], told["entente"]


def paused_by_a_missed_deadline(tmp_path, cli) -> tuple:
    """A game paused by the German's missed deadline (policy pause): its journal, and the
    mails of the pause."""
    journal = new_game(tmp_path, cli, "--deadline", "48h", "--missed", "pause")
    out = tmp_path / "out"
    check_deadlines(journal, out, DUE)
    return journal, out


def test_a_pause_is_told_to_the_side_as_yours_and_to_others_in_words(tmp_path, cli, clock):
    _, out = paused_by_a_missed_deadline(tmp_path, cli)
    told = by_reader(out)
    assert told["german"].startswith("The game is paused: your orders were due by Wed 25 Nov "
                                     "18:00 UTC and none came"), told["german"]
    for reader in ("entente", "moderator"):
        assert told[reader].startswith("The game is paused: the German player's orders were "
                                       "due by Wed 25 Nov 18:00 UTC"), told[reader]
    for reader in ("german", "entente"):
        assert "no orders are taken until the moderator resumes it." in told[reader]
    assert not any("German's" in text for text in told.values()), told


def test_the_moderator_s_pause_mail_gives_him_the_command_that_resumes_it(tmp_path, cli,
                                                                         clock):
    journal, out = paused_by_a_missed_deadline(tmp_path, cli)
    [mail] = [m for m in mails(out) if m["To"] == ADDRESSES["moderator"]]
    assert "no orders are taken until you resume it:" in flat(mail), flat(mail)
    assert "moderator resumes" not in flat(mail), flat(mail)
    # The command alone on its line, whole, to be copied, as the wait notice gives his.
    lines = text_of(mail).splitlines()
    assert f"  referee deadline {journal} --resume" in lines, lines
    assert all(len(line) <= 72 for line in lines if not line.startswith("  referee "))


def test_an_extension_refused_in_a_paused_game_says_why_and_how_it_resumes(tmp_path, cli,
                                                                           clock):
    """`extend` in a paused game is refused in words filled in: why it is paused, and, to
    the moderator, the command that resumes this journal; a player's `extend 24h` by mail
    (the same function, as that side) is told why, and no command."""
    journal, _ = paused_by_a_missed_deadline(tmp_path, cli)
    clock(DUE)                  # the clock where the pause left the journal
    r = cli("extend", journal, "german", "24h")
    assert r.exit_code == 1, r.output
    assert r.stderr.strip() == (
        f"referee: extend: the game is paused: {MISSED_WHY}; no orders are taken until the "
        f"moderator resumes it (`referee deadline {journal} --resume`)"), r.stderr
    with pytest.raises(NoOrdersTaken) as refused:
        extend(journal, "german", "german", "24h")
    assert str(refused.value) == (f"extend: the game is paused: {MISSED_WHY}; no orders are "
                                  f"taken until the moderator resumes it")


def test_a_player_s_orders_refused_in_a_paused_game_say_why_it_is_paused(tmp_path, cli,
                                                                         clock):
    """The referee knows why the game is paused (the last record that paused it): a side's
    deadline missed under the policy pause, named with its time, or the moderator's
    `deadline --pause`, with the record of each."""
    journal = new_game(tmp_path, cli, "--deadline", "48h", "--missed", "pause")
    check_deadlines(journal, tmp_path / "out", DUE)
    clock(DUE)
    r = cli("order", journal, "--as", "german", "pass")
    assert r.exit_code == 1 and f"the game is paused: {MISSED_WHY}; no orders" in \
        r.stderr, r.stderr
    assert cli("deadline", journal, "--resume").exit_code == 0
    assert cli("deadline", journal, "--pause").exit_code == 0
    paused_at = len(journal.read_text().splitlines()) - 1
    r = cli("order", journal, "--as", "german", "pass")
    assert r.exit_code == 1 and (f"the game is paused: the moderator paused it (record "
                                 f"{paused_at}); no orders") in r.stderr, r.stderr


def test_the_pass_s_problem_line_of_a_paused_game_says_why_it_is_paused(tmp_path, cli,
                                                                        clock):
    """The line that says a paused game waits on the moderator names what paused it: the
    side and the deadline he missed, or the moderator himself, at which record."""
    journal, _ = paused_by_a_missed_deadline(tmp_path, cli)
    clock(DUE)
    resume = f"`referee deadline {journal.name} --resume` resumes it"
    assert waits_on_the_moderator(Table(journal).whole(), journal.name) == (
        f"the game is paused and waits on the moderator: {MISSED_WHY}; {resume}")
    assert cli("deadline", journal, "--resume").exit_code == 0
    assert cli("deadline", journal, "--pause").exit_code == 0
    paused_at = len(journal.read_text().splitlines()) - 1
    assert waits_on_the_moderator(Table(journal).whole(), journal.name) == (
        f"the game is paused and waits on the moderator: the moderator paused it (record "
        f"{paused_at}); {resume}")
