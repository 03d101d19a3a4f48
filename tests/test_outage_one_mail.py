"""One mail a pass to a side whose mail asking his orders waited out an outage: the time
given back is worked out before that mail goes, and the mail written again with it, so
he never gets the superseded deadline followed by the new one (mail/unaskedfold.py).

The referee sends through a relay on 127.0.0.1 that the test stops and starts again; the
game is test_outage_outgoing's (the German's first orders due Wednesday 25 November 18:00).
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from test_outage import pass_at
from test_outage_outgoing import DUE, MINUTE, H, clock_facts, post  # noqa: F401
from test_unattended import START, new_game, text_of, words

from referee.base.clock import NOW_VARIABLE
from referee.mail.ledger import FAULT_VARIABLE

BACK = DUE + 24 * H + 5 * MINUTE


def german_after_the_outage(cli, post, tmp_path, monkeypatch):  # noqa: F811
    """The game opened with the server down, a pass at the deadline and a day after it."""
    monkeypatch.setenv(NOW_VARIABLE, START.strftime("%Y-%m-%dT%H:%M:%SZ"))
    journal = new_game(cli, tmp_path / "games", post)
    post.relay.down()
    for moment in (START + 5 * MINUTE, DUE + 20 * MINUTE, DUE + 24 * H):
        pass_at(cli, journal, monkeypatch, moment)
    assert post.received() == []
    return journal


def killed_at(journal, monkeypatch, step: str) -> None:
    monkeypatch.setenv(NOW_VARIABLE, BACK.strftime("%Y-%m-%dT%H:%M:%SZ"))
    killed = subprocess.run([sys.executable, "-m", "referee", "tick", str(journal),
                             "--no-map"], capture_output=True, text=True, timeout=120,
                            env={**os.environ, FAULT_VARIABLE: step})
    assert killed.returncode == 70, killed.stderr


def test_the_mail_that_waited_out_the_outage_goes_once_with_the_deadline_given_back(
        cli, post, tmp_path, monkeypatch):  # noqa: F811
    journal = german_after_the_outage(cli, post, tmp_path, monkeypatch)
    post.relay.up()
    game = pass_at(cli, journal, monkeypatch, BACK)
    assert game["problems"] == [], game
    [mail] = [words(text_of(m)) for m in post.mails_to("german")]
    assert "Orders due by Sat 28 Nov 18:05 UTC" in mail, mail
    assert "Wed 25 Nov 18:00" not in mail.split("Since")[0], mail
    assert len(clock_facts(journal, "extend")) == 1
    # The record names the referee as the one who gave the time, and why; so does the log.
    assert "Referee: extend 72h5m (the mail asking the German player's orders left late)" \
        in mail, mail
    assert "Moderator: extend" not in mail, mail
    assert any("the referee extends the German player's deadline by 72h5m" in line and
               "the mail asking his orders went out only now" in line
               for line in game["log"]), game["log"]
    # The next passes send him nothing more about it.
    pass_at(cli, journal, monkeypatch, BACK + H)
    assert len(post.mails_to("german")) == 1
    assert len(clock_facts(journal, "extend")) == 1


@pytest.mark.parametrize("step", ["given back", "taken back", "sent"])
def test_a_pass_killed_while_the_time_is_given_back_first_sends_one_mail(
        cli, post, tmp_path, monkeypatch, step):  # noqa: F811
    """`tick` killed (a real process ended) after the extension, after the ledger was set
    back, after the mail went: the next pass finishes the work, the German gets one mail
    with the deadline given back, and the time is given once."""
    journal = german_after_the_outage(cli, post, tmp_path, monkeypatch)
    post.relay.up()
    killed_at(journal, monkeypatch, step)
    game = pass_at(cli, journal, monkeypatch, BACK + 2 * MINUTE)
    assert game["problems"] == [], game
    pass_at(cli, journal, monkeypatch, BACK + H)
    mails = [words(text_of(m)) for m in post.mails_to("german")]
    assert len(mails) == 1, mails
    assert "Orders due by Sat 28 Nov 18:05 UTC" in mails[0], mails
    assert len(clock_facts(journal, "extend")) == 1
