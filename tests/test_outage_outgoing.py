"""Deadlines an outgoing outage cannot run out: a side whose mail asking his decision has
not gone out (the SMTP server down when it was written) has not been asked. His deadline is
neither reminded nor ruled missed meanwhile, and once the mail goes out he is given the
game's time for the decision from then (docs/moderator.md, "A deadline and an outage").

The referee reaches the SMTP server through a relay on 127.0.0.1 that the test stops and
starts again. The game starts on Monday 23 November 2026 at 18:00 UTC with `--deadline 48h
--reminders 24h,2h --missed default`: the German's first orders are due by Wednesday
18:00.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from mailservers import HOST, Relay, mail_settings
from test_outage import pass_at
from test_unattended import START, Post, new_game, records, route_through, text_of, words

from referee.base.clock import NOW_VARIABLE

H, MINUTE = timedelta(hours=1), timedelta(minutes=1)
DUE = START + 48 * H


class Cut(Post):
    """The game's post, the referee sending its mail through a relay it can lose."""

    relay: Relay

    @property
    def target(self) -> str:
        return super().target.replace(f":{self.smtp.port}", f":{self.relay.port}")


@pytest.fixture
def post(servers, monkeypatch, tmp_path) -> Cut:
    found = route_through(servers, monkeypatch, tmp_path / "user", Cut)
    found.relay = Relay(found.smtp.port)
    mail_settings(f'[hosts."{HOST}"]\ntls = "required"\n'
                  f'ports = {[found.imap.port, found.relay.port]}\n')
    yield found
    found.relay.down()


def clock_facts(journal, kind: str) -> list[dict]:
    return [r for r in records(journal) if r.get("clock", {}).get("kind") == kind]


def test_no_deadline_runs_out_on_a_side_whose_opening_mail_never_left(cli, post, tmp_path,
                                                                     monkeypatch):
    monkeypatch.setenv(NOW_VARIABLE, START.strftime("%Y-%m-%dT%H:%M:%SZ"))
    journal = new_game(cli, tmp_path / "games", post)
    post.relay.down()
    pass_at(cli, journal, monkeypatch, START + 5 * MINUTE)     # the reports stay owed
    assert post.received() == []
    for moment in (DUE - 24 * H + 10 * MINUTE, DUE - 2 * H + 10 * MINUTE, DUE + 20 * MINUTE,
                   DUE + 24 * H):
        game = pass_at(cli, journal, monkeypatch, moment)
        assert game["problems"], game           # the moderator hears the mail is not sent
    assert clock_facts(journal, "missed") == [] and clock_facts(journal, "reminded") == []
    assert any("not ruled missed yet" in line and "has not gone out" in line
               for line in game["log"]), game["log"]
    # Thursday 18:00, a day after the deadline, the server is back: the reports go out, and
    # the German is given his 48 hours from now, told in the same pass.
    post.relay.up()
    back = DUE + 24 * H + 5 * MINUTE
    game = pass_at(cli, journal, monkeypatch, back)
    assert game["problems"] == [], game
    [given] = clock_facts(journal, "extend")
    assert (given["actor"], given["clock"]["side"], given["clock"]["by"]) == (
        "moderator", "german", "72h5m")
    assert clock_facts(journal, "missed") == []
    german = [words(text_of(m)) for m in post.mails_to("german")]
    assert len(german) == 2 and "Sat 28 Nov 18:05 UTC" in german[-1], german
    assert not any("A reminder" in m for m in german)
    # Given once: a later pass gives nothing more, and rules the deadline only after it.
    pass_at(cli, journal, monkeypatch, back + H)
    assert len(clock_facts(journal, "extend")) == 1
    pass_at(cli, journal, monkeypatch, back + 48 * H + 20 * MINUTE)
    assert clock_facts(journal, "missed")
