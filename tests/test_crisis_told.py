"""A Military Crisis! played is told as a player says it (9.8, 9.9): one line names the card,
its rule and the crisis it declares, and the card's leaving play, when that was its last
crisis, follows it once; never "plays German Military Crisis! as crisis" with the crisis
played again two lines on. Every reader and form reads it so: log, report (text and
markdown), explain and the mail that answers the order."""

from __future__ import annotations

import json

import pytest

import casebook
import gamecalls as g

PLAYED = ("Entente plays German Military Crisis! (9.9), the Crisis in the Balkans: the "
          "German player must remove 2 GE infantry-type units")
REMOVED = ("German Military Crisis! is removed from play: its last crisis, Crisis in the "
           "Balkans, has been played (9.9)")


def _game(folder):
    sc = casebook.position("1918", turn=16, player="entente",
                           hands={"german": ["off-01"],
                                  "entente": ["crisis-german-01", "off-03"]},
                           units=["ge-i-01 ge infantry metz", "ge-i-02 ge infantry laon",
                                  "ge-i-03 ge infantry lille",
                                  "fr-i-01 fr infantry paris"])
    return casebook.new_game(folder, sc)


@pytest.fixture(scope="module")
def journal(tmp_path_factory):
    path = _game(tmp_path_factory.mktemp("crisis"))
    r = g.submit(path, "entente", ["play german_military_crisis"])
    assert r.rejected is None, r.rejected
    return path


def _words(text: str) -> str:
    return " ".join(text.replace("#", " ").split())


def _told_once(text: str) -> None:
    words = _words(text)
    assert PLAYED in words, words
    assert REMOVED in words, words
    assert words.index(PLAYED) < words.index(REMOVED), words
    assert "as crisis" not in words and words.count("Entente plays") == 1, words


@pytest.mark.parametrize("reader", ["german", "entente", "moderator", "public"])
def test_the_log_and_the_report_tell_the_crisis_in_one_line_then_the_removal(
        journal, cli, reader):
    for args in (["log"], ["report", "--since", "0"],
                 ["report", "--since", "0", "--format", "markdown"]):
        r = cli(*args, journal, "--as", reader)
        assert r.exit_code == 0, r.stderr
        _told_once(r.stdout[r.stdout.index("play german_military_crisis"):])


@pytest.mark.parametrize("reader", ["german", "public"])
def test_explain_tells_the_crisis_as_the_log_does(journal, cli, reader):
    log = cli("log", journal, "--as", reader).stdout
    seq = log[:log.index(": play german_military_crisis")].rsplit("#", 1)[1].split()[0]
    doc = json.loads(cli("explain", journal, seq, "--as", reader, "--format", "json").stdout)
    _told_once("\n".join(doc["changes"]))
    _told_once(cli("explain", journal, seq, "--as", reader).stdout)


def test_the_answer_to_the_order_tells_the_crisis_as_the_log_does(tmp_path, cli):
    journal = _game(tmp_path)
    r = cli("order", journal, "--as", "entente", "play german_military_crisis")
    assert r.exit_code == 0, r.stderr
    _told_once(r.stdout)
