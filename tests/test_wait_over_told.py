"""At a deadline missed under `--missed wait` the moderator is mailed that the game waits on
him; the late player may still end that wait himself, by an extension in his mail or by his
orders. The moderator's mail says so (until when, with how many extensions left), and when
the player's own mail ends the wait, one short mail tells the moderator that it no longer
waits on him: acting on the first mail alone, he would add an extension of his own. It is
written once, whatever passes follow; his own extension ends the wait without one.

The game is test_unattended.py's (Monday 23 November 2026 18:00 UTC, 48h deadlines,
reminders 24h and 2h before, one extension a side), its policy set to wait: the German's
first decision is due Wednesday 25 November at 18:00 UTC.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from mailservers import route_through
from test_late_extension import DUE, H, at
from test_unattended import START, Post, Table, new_game, records, text_of, words
from ticklines import problem_text

from referee.base.clock import NOW_VARIABLE


@pytest.fixture
def post(servers, monkeypatch, tmp_path) -> Post:
    return route_through(servers, monkeypatch, tmp_path / "user", Post)


def _missed(cli, post, tmp_path, monkeypatch, extensions: str = "1"):
    """The German's deadline missed at Wednesday 18:00 and ruled at 18:20: the moderator's
    mails so far."""
    journal = new_game(cli, tmp_path / "games", post)
    assert cli("deadline", journal, "--missed", "wait", "--extensions",
               extensions).exit_code == 0
    table = Table(cli, journal, post, monkeypatch)
    table.tick_at(START)
    monkeypatch.setenv(NOW_VARIABLE, at(DUE + timedelta(minutes=20)))
    r = cli("tick", journal, "--no-map")
    assert r.exit_code != 0 and "waits on the moderator" in problem_text(r), r.output
    return journal, table


def _tick(cli, journal, monkeypatch, moment):
    monkeypatch.setenv(NOW_VARIABLE, at(moment))
    return cli("tick", journal, "--no-map")


def test_the_moderators_missed_mail_says_the_player_may_still_extend_and_until_when(
        cli, post, tmp_path, clock, monkeypatch):
    _missed(cli, post, tmp_path, monkeypatch)
    [mail] = post.mails_to("moderator")
    said = words(text_of(mail))
    assert ("The German player may still extend it himself, with a line 'extend 24h' in a "
            "mail read by the referee before Thu 26 Nov 18:00 UTC (1 extension left of the 1 "
            "this game allows).") in said, said
    assert "you are mailed that the game no longer waits on you for him" in said


def test_a_player_without_extensions_left_is_told_as_such_to_the_moderator(
        cli, post, tmp_path, clock, monkeypatch):
    _missed(cli, post, tmp_path, monkeypatch, extensions="0")
    [mail] = post.mails_to("moderator")
    assert "extend 24h" not in text_of(mail) and "may still extend" not in text_of(mail)


def test_the_players_own_extension_ends_the_wait_and_the_moderator_is_told_once(
        cli, post, tmp_path, clock, monkeypatch):
    journal, table = _missed(cli, post, tmp_path, monkeypatch)
    table.answer("german", DUE + H, ["extend 24h"])
    assert _tick(cli, journal, monkeypatch, DUE + H).exit_code == 0
    assert [r["actor"] for r in records(journal)
            if r.get("clock", {}).get("kind") == "extend"] == ["german"]
    mails = post.mails_to("moderator")
    assert len(mails) == 2, [text_of(m) for m in mails]
    said = words(text_of(mails[-1]))
    assert said.startswith("The game no longer waits on you for the German player's orders, "
                           "due by Wed 25 Nov 18:00 UTC and missed"), said
    assert "extended his deadline himself by mail (24h, record" in said
    assert "now due by Thu 26 Nov 18:00 UTC" in said
    assert "Nothing is asked of you for him" in said
    # Later passes, and one at the same time, tell it no second time.
    for moment in (DUE + H, DUE + 2 * H, DUE + 3 * H):
        assert _tick(cli, journal, monkeypatch, moment).exit_code == 0
    assert len(post.mails_to("moderator")) == 2


def test_the_players_orders_end_the_wait_and_the_moderator_is_told(
        cli, post, tmp_path, clock, monkeypatch):
    journal, table = _missed(cli, post, tmp_path, monkeypatch)
    table.answer("german", DUE + H)
    assert _tick(cli, journal, monkeypatch, DUE + H).exit_code == 0
    mails = post.mails_to("moderator")
    assert len(mails) == 2, [text_of(m) for m in mails]
    said = words(text_of(mails[-1]))
    assert "The game no longer waits on you for the German player's orders" in said
    assert "the German player's orders came by mail (record" in said
    assert _tick(cli, journal, monkeypatch, DUE + 2 * H).exit_code == 0
    assert len(post.mails_to("moderator")) == 2


def test_the_moderators_own_extension_ends_the_wait_without_a_mail(
        cli, post, tmp_path, clock, monkeypatch):
    journal, table = _missed(cli, post, tmp_path, monkeypatch)
    monkeypatch.setenv(NOW_VARIABLE, at(DUE + H))
    assert cli("extend", journal, "german", "24h", "--from-now").exit_code == 0
    table.answer("german", DUE + 2 * H, ["extend 24h"])
    assert _tick(cli, journal, monkeypatch, DUE + 2 * H).exit_code == 0
    assert [r["actor"] for r in records(journal)
            if r.get("clock", {}).get("kind") == "extend"] == ["moderator", "german"]
    assert len(post.mails_to("moderator")) == 1


@pytest.mark.parametrize("later, told", [(2 * H, True), (30 * H, False)])
def test_a_wait_ended_before_the_referee_told_them_is_news_only_for_a_day(
        cli, post, tmp_path, clock, monkeypatch, later, told):
    """The wait began and the player's orders ended it under a referee that did not tell
    such ends (the telling switched off for those passes); the next pass tells it if it
    comes within a day, and keeps it as told without a mail after that."""
    with monkeypatch.context() as m:
        m.setattr("referee.mail.waiting.tell_wait_over", lambda *a: None)
        journal, table = _missed(cli, post, tmp_path, monkeypatch)
        table.answer("german", DUE + H)
        assert _tick(cli, journal, monkeypatch, DUE + H).exit_code == 0
    assert len(post.mails_to("moderator")) == 1
    for moment in (DUE + H + later, DUE + 2 * H + later):
        assert _tick(cli, journal, monkeypatch, moment).exit_code == 0
    assert len(post.mails_to("moderator")) == (2 if told else 1)


def test_a_wait_ended_by_mail_read_days_later_is_still_told(cli, post, tmp_path, clock,
                                                            monkeypatch):
    """The host stopped for two days after the missed deadline: the player's orders read
    at the first pass after it still end a wait the moderator was told of, and he is told."""
    journal, table = _missed(cli, post, tmp_path, monkeypatch)
    table.answer("german", DUE + H)
    assert _tick(cli, journal, monkeypatch, DUE + 50 * H).exit_code == 0
    mails = post.mails_to("moderator")
    assert len(mails) == 2, [text_of(m) for m in mails]
    assert "The game no longer waits on you for the German player's orders" in \
        words(text_of(mails[-1]))
