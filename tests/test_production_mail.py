"""The mails a player reads in the first production phase of a 1914 game played by mail
(7.0), then at the sealed reinforcements that follow it (2.0 I), read as on a phone: what
is asked and how to answer (the sealed plan, an example of it) on the first screen, no
paragraph said twice, every list short with the areas long lines share named once, and the
whole board after them. Nothing he needs to write his
plan is lost: the BP, the costs and limits with their rules, every area he may build in.

The mails are those of the real mail path (inbox with an outbox): at the start of the
phase, when the German has sealed his plan first (his answer, and the Entente's news),
and when the Entente's plan reveals both."""

from __future__ import annotations

import pytest
from mailboxes import write_maildir
from sharedgames import played_apart
from test_deadlines import ADDRESSES, mails, new_game, player_mail, text_of

import gamecalls as g
from referee.mail.inbox import inbox as mail_inbox

# A phone's first screen: the lines a mail shows before its reader scrolls.
SCREEN = 25
# The most lines an item of a list has (a list cut short says so).
ITEM_MOST = 5

GERMAN_PLAN = ["buy 1", "build ge infantry cologne", "entrench ge-1", "done"]
ENTENTE_PLAN = ["build fr infantry paris", "done"]


def _pass(tmp_path, journal, name: str, box=None) -> dict[str, str]:
    """One inbox pass: the text of its mail to each player, by side."""
    out = tmp_path / name
    mail_inbox(journal, [box or write_maildir(tmp_path / f"empty-{name}", [])], out,
               with_map=False)
    got = {str(m["To"]).casefold(): text_of(m) for m in mails(out)}
    return {side: got[a.casefold()] for side, a in ADDRESSES.items() if a.casefold() in got}


@pytest.fixture(scope="module")
def phase(tmp_path_factory) -> dict[str, str]:
    """The mails of the production phase, by name: start-SIDE, sealed-first (the Entente's,
    once the German has sealed), own-plan (the German's answer), revealed-SIDE; played once
    for the module's tests, which only read them."""
    from conftest import Cli

    tmp_path = tmp_path_factory.mktemp("phase")
    with played_apart(tmp_path):
        return _phase(tmp_path, Cli())


def _phase(tmp_path, cli) -> dict[str, str]:
    journal = new_game(tmp_path, cli, "--deadline", "48h")
    _pass(tmp_path, journal, "opening")
    for side, line in (("german", "pass"), ("german", "end turn"), ("entente", "pass"),
                       ("entente", "end turn")):
        assert g.submit(journal, side, [line]).rejected is None, (side, line)
    start = _pass(tmp_path, journal, "start")
    first = _pass(tmp_path, journal, "first", player_mail(tmp_path, "german", GERMAN_PLAN, 1))
    last = _pass(tmp_path, journal, "last", player_mail(tmp_path, "entente", ENTENTE_PLAN, 2))
    return {"start-german": start["german"], "start-entente": start["entente"],
            "sealed-first": first["entente"], "own-plan": first["german"],
            "revealed-german": last["german"], "revealed-entente": last["entente"]}


def _paragraphs(text: str) -> list[str]:
    return [" ".join(p.split()) for p in text.split("\n\n") if p.strip()]


def _items(text: str) -> list[list[str]]:
    """The items of the mail's lists, each as its lines."""
    items: list[list[str]] = []
    for line in text.split("\n"):
        if line.startswith("- "):
            items.append([line])
        elif line.startswith("  ") and items and not line.startswith("   "):
            items[-1].append(line)
        elif not line.startswith("  "):
            items.append([]) if items and items[-1] else None
    return [i for i in items if i]


def test_the_first_screen_says_what_is_asked_and_how_to_answer(phase):
    for name, text in phase.items():
        screen = " ".join(" ".join(text.split("\n")[:SCREEN]).split())
        assert all(len(line) <= 72 for line in text.split("\n")), name
        if name == "own-plan":          # the German has sealed: nothing is asked of him
            assert screen.startswith("Waiting on the Entente player: production"), screen
            assert "Nothing is asked of you now." in screen, text
            continue
        assert screen.startswith("Your decision: "), (name, screen)
        assert "all in one mail" not in " ".join(text.split()), text   # parts are taken
        assert "Orders due by " in screen, (name, screen)
        if name.startswith("revealed"):     # the sealed reinforcements next (2.0 I)
            assert "one sealed plan (2.0 I): one order per line, in one mail or in parts " \
                   "over several" in screen, text
            assert "For example: place " in screen, (name, text)
        else:                               # his own production plan (7.0)
            assert "one sealed plan (7.0): one order per line, in one mail or in parts " \
                   "over several, and end it with done" in screen, text
            assert "For example, this plan of your own orders" in screen, (name, text)
            assert " done It costs " in screen and "BP and leaves" in screen, (name, text)


def test_no_paragraph_is_said_twice(phase):
    for name, text in phase.items():
        paras = _paragraphs(text)
        twice = {p for p in paras if paras.count(p) > 1}
        assert not twice, (name, twice)
        joined = " ".join(text.split())
        asked = " ".join(text.split("\n\n")[0].split("\nOrders due by ")[0].split())
        assert joined.count(asked) == 1, (name, asked)
        due = "Orders due by Wed 25 Nov 18:00 UTC."
        # Once, his own; or, his plan sealed, the Entente's he waits on.
        assert joined.count(due) == 1, (name, joined.count(due))
        assert name != "own-plan" or f"Entente: {due}" in joined, (name, joined)
        assert "Build Points (7.0): German 10, Entente 8" not in joined, name


def test_the_lists_are_short_and_lose_nothing_needed_to_plan(phase):
    for name, text in phase.items():
        long = [i for i in _items(text) if len(i) > ITEM_MOST]
        assert not long, (name, long)
    asked = " ".join(phase["sealed-first"].split())
    for needed in ("You have 8 BP to spend in this production phase", "the card limit is 5 "
                   "(7.1)", "What each order costs (7.6)", "at most 1 BP of it this turn (7.4)",
                   "build fr infantry → any of the 44 areas listed below",
                   "build fr artillery → Sedan [into fr-5]", "ENGLAND [into uk-1]",
                   "More time: a line 'extend 24h' alone in a mail"):
        assert needed in asked, needed
    listed = asked.partition("The 44 areas: ")[2].partition(".")[0].split(", ")
    assert len(listed) == 44 and {"Ostend", "Paris", "Verdun", "Épinal"} <= set(listed), listed


def test_the_whole_board_follows_what_is_asked(phase):
    """The mail carries the game: the whole board, every country and what lies off the map,
    after what is asked, the costs and the orders open; the Build Points said once."""
    revealed = phase["revealed-german"]
    asked, _, board = revealed.partition("\nBoard\n-----\n")
    assert "Your decision: " in asked and board, revealed
    assert "- Cologne, German: ge-i-03 (infantry), fort 3/3" in board, board
    assert "- Aachen, German: ge-1 [4I+1C+1A+1G] entrenched" in board, board
    assert "- Paris, Entente: fr-i-02 (infantry), fr-i-03 (infantry), fort 6/6" in board
    for name, text in phase.items():
        board = text.partition("\nBoard\n-----\n")[2]
        for country in ("United Kingdom", "Belgium", "Germany", "France", "Off the map"):
            assert f"\n{country}\n" in f"\n{board}", (name, country, board)
        assert "Force pool, German Empire: " in board, name
