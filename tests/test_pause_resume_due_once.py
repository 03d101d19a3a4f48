"""A mail after the moderator resumed a game with deadlines gives each player's own deadline
once, where every other mail gives it (mail/pauselead.py): the resume's lead says his
deadline runs again, and the time is the one under his decision (a news mail: its deadline
line; a report: the lead's first sentence, the full line at its end as in every report).
The others' news mails, which give no deadline of theirs, keep the time the resume set (their
reports give it in their Now section: test_resume_wait_due_once.py)."""

from __future__ import annotations

from test_news_mail import ENTENTE, GERMAN, OBSERVER, game  # noqa: F401 - game: a fixture

DUE = "Wed 25 Nov 20:00 UTC"


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_the_news_of_a_resume_gives_his_deadline_once(game):  # noqa: F811
    game.run("deadline", "--pause")
    mails = game.run("deadline", "--resume")
    (german, _), = mails[GERMAN]
    flat = _flat(german)
    assert flat.count(DUE) == 1, german
    assert flat.startswith("The moderator resumed the game: your deadline runs again. "
                           "Your decision: "), german
    assert f"Orders due by {DUE}. More time: a line 'extend 24h'" in flat, german
    for reader in (ENTENTE, OBSERVER):
        (text, _), = mails[reader]
        assert _flat(text).startswith(
            f"The moderator resumed the game: the German player's orders are now due by "
            f"{DUE}."), text
        assert _flat(text).count(DUE) == 1, text


def test_a_report_after_a_resume_gives_his_deadline_as_any_report_does(game):  # noqa: F811
    """He mails his orders before a pass has told him of the resume: his report opens with
    it, and says when his orders are due once above its title, as a report without a pause
    does (its own line at the end too)."""
    game.send("german", ["pass"], "<before@example.org>")
    (plain, _), = game.tick()[GERMAN]
    game.run("deadline", "--pause")
    assert game.cli("deadline", game.journal, "--resume").exit_code == 0
    game.send("german", ["move ge-1 cologne"], "<after@example.org>")
    (resumed, _), = game.tick()[GERMAN]
    assert _flat(resumed).startswith("The moderator resumed the game: your deadline runs "
                                     "again. Your decision: "), resumed
    for text in (plain, resumed):
        above = _flat(text.split("TO THE LAST MAN!")[0])
        assert above.count(DUE) == 1 and f"Orders due by {DUE}." in above, text
        assert _flat(text).count(DUE) == 2, text
