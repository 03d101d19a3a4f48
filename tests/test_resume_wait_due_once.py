"""After the moderator resumed a game with deadlines and a side's orders made a record, each
reader's report gives each deadline once (mail/pauselead.py): the resume's lead says whose
deadline runs again, and the time is the one the report's Now section gives beside whom it
waits on, as in every report. The waited-on side's mail gives his own under his decision
(test_pause_resume_due_once.py); `report`, which has no resume lead, gives it once in each
format, its JSON keeping the deadline's fields."""

from __future__ import annotations

import json

from test_news_mail import ENTENTE, GERMAN, OBSERVER, game  # noqa: F401 - game: a fixture

DUE = "Wed 25 Nov 20:00 UTC"
WAIT = f"German: Orders due by {DUE}."


def _flat(text: str) -> str:
    return " ".join(text.split())


def _resumed_then_played(game) -> dict[str, list]:  # noqa: F811
    """Paused (its news mailed), resumed, and the German's card played before a pass mails
    the resume: each reader's mail tells both records."""
    game.run("deadline", "--pause")
    assert game.cli("deadline", game.journal, "--resume").exit_code == 0
    game.send("german", ["play offensive"], "<resumed@example.org>")
    return game.tick()


def test_the_others_reports_after_a_resume_give_the_germans_time_once(game):  # noqa: F811
    mails = _resumed_then_played(game)
    for reader in (ENTENTE, OBSERVER):
        (text, _), = mails[reader]
        flat = _flat(text)
        assert flat.startswith("The moderator resumed the game: the German player's deadline "
                               "runs again. Waiting on the German player: movement phase"), text
        assert WAIT in _flat(text.partition("\nNow\n---\n")[2]), text
        assert flat.count(DUE) == 1, text


def test_the_waited_on_players_report_still_gives_his_time_once_above(game):  # noqa: F811
    mails = _resumed_then_played(game)
    (text, _), = mails[GERMAN]
    flat = _flat(text)
    assert flat.startswith("The moderator resumed the game: your deadline runs again. "
                           "Your decision: movement phase"), text
    above = _flat(text.split("TO THE LAST MAN!")[0])
    assert above.count(DUE) == 1 and f"Orders due by {DUE}." in above, text
    assert flat.count(DUE) == 2, text       # and its own line at the end, as every report


def test_report_after_a_resume_gives_each_readers_wait_once_in_each_format(game):  # noqa: F811
    _resumed_then_played(game)
    for reader in ("entente", "public", "moderator"):
        for fmt in ("text", "markdown", "bbcode"):
            r = game.cli("report", game.journal, "--as", reader, "--format", fmt,
                         "--since", "5", "--keep-place")
            assert r.exit_code == 0, r.output
            flat = _flat(r.stdout)
            assert flat.count(DUE) == 1 and "resumed the game" in flat, (reader, fmt, r.stdout)
        r = game.cli("report", game.journal, "--as", reader, "--format", "json",
                     "--since", "5", "--keep-place")
        assert r.exit_code == 0, r.output
        assert f'"words": "Orders due by {DUE}"' in r.stdout, r.stdout
        json.loads(r.stdout)
