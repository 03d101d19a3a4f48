"""A deadline held for a mail one address refuses for now is held no longer than the game's
time for the decision past it (docs/moderator.md, "A deadline and an outage"): a server
that answers 450 to one player's address at every pass (his mailbox full) must not let him
hold his own deadline for ever. A server down for everyone keeps the hold as long as it
lasts.

The game starts on Monday 23 November 2026 at 18:00 UTC with `--deadline 48h --reminders
24h,2h --missed default`: the German's first orders are due by Wednesday 18:00, and a hold
for his mail lasts until Friday 18:00 at most.
"""

from __future__ import annotations

from datetime import timedelta

from test_outage import pass_at
from test_outage_outgoing import clock_facts, post  # noqa: F401 (the fixture)
from test_unattended import ADDRESSES, START, new_game, text_of, words

from referee.base.clock import NOW_VARIABLE

H, MINUTE = timedelta(hours=1), timedelta(minutes=1)
DUE = START + 48 * H
HELD_NOW = "not ruled missed yet (the mail asking them has not gone out"


def opened_refused(cli, post, tmp_path, monkeypatch):  # noqa: F811
    """The game opened, the server refusing the German's address for now: his report
    stays owed, the Entente's goes."""
    post.smtp.held.add(ADDRESSES["german"])
    monkeypatch.setenv(NOW_VARIABLE, START.strftime("%Y-%m-%dT%H:%M:%SZ"))
    journal = new_game(cli, tmp_path / "games", post)
    game = pass_at(cli, journal, monkeypatch, START + 5 * MINUTE)
    assert any("refused for now for kaiser@example.org" in p for p in game["problems"]), game
    assert post.mails_to("german") == [] and len(post.mails_to("entente")) == 1
    return journal


def test_a_deadline_held_for_a_mail_refused_for_now_is_ruled_once_the_hold_ran_out(
        cli, post, tmp_path, monkeypatch):  # noqa: F811
    journal = opened_refused(cli, post, tmp_path, monkeypatch)
    for moment in (DUE + 20 * MINUTE, DUE + 24 * H, DUE + 48 * H + 10 * MINUTE):
        game = pass_at(cli, journal, monkeypatch, moment)
        assert any(HELD_NOW in line for line in game["log"]), game["log"]
    assert clock_facts(journal, "missed") == []
    # Friday 18:20: the game's 48 hours past his deadline have run, the grace too: his
    # deadline is ruled as the game's policy says, and the moderator is told once.
    game = pass_at(cli, journal, monkeypatch, DUE + 48 * H + 20 * MINUTE)
    [missed] = clock_facts(journal, "missed")
    assert (missed["clock"]["side"], missed["clock"]["missed"]) == ("german", "default")
    said = [line for line in game["log"] if "refused for now by the server" in line]
    assert len(said) == 1 and "Fri 27 Nov 18:00 UTC" in said[0] and \
        "the moderator is told" in said[0], game["log"]
    told = [words(text_of(m)) for m in post.mails_to("moderator")
            if "refuses it for now" in text_of(m)]
    assert len(told) == 1, told
    assert "since Mon 23 Nov 18:05 UTC" in told[0] and \
        "referee players" in told[0] and "--set german=ADDRESS" in told[0], told[0]
    later = pass_at(cli, journal, monkeypatch, DUE + 48 * H + 2 * H)
    assert not any("refused for now by the server" in line for line in later["log"])
    assert len([m for m in post.mails_to("moderator")
                if "refuses it for now" in text_of(m)]) == 1
    # His mailbox emptied at last: his mails go, and no time is given back for that hold.
    post.smtp.held.discard(ADDRESSES["german"])
    pass_at(cli, journal, monkeypatch, DUE + 72 * H)
    assert post.mails_to("german")
    assert clock_facts(journal, "extend") == []


def test_a_mailbox_emptied_within_the_hold_costs_its_player_nothing(
        cli, post, tmp_path, monkeypatch):  # noqa: F811
    journal = opened_refused(cli, post, tmp_path, monkeypatch)
    pass_at(cli, journal, monkeypatch, DUE + 40 * H)
    post.smtp.held.discard(ADDRESSES["german"])
    game = pass_at(cli, journal, monkeypatch, DUE + 47 * H)
    assert game["problems"] == [], game
    [given] = clock_facts(journal, "extend")
    assert (given["clock"]["side"], given["clock"]["by"]) == ("german", "95h")
    assert clock_facts(journal, "missed") == []


def test_a_server_down_for_everyone_keeps_the_hold_past_that_time(
        cli, post, tmp_path, monkeypatch):  # noqa: F811
    journal = opened_refused(cli, post, tmp_path, monkeypatch)
    post.relay.down()               # then nobody's mail goes: the hold is the outage's
    for moment in (DUE + 24 * H, DUE + 48 * H + 20 * MINUTE, DUE + 72 * H):
        game = pass_at(cli, journal, monkeypatch, moment)
        assert game["problems"], game
        assert any(HELD_NOW in line for line in game["log"]), game["log"]
    assert clock_facts(journal, "missed") == []
    assert not [m for m in post.mails_to("moderator") if "refuses it for now" in text_of(m)]
