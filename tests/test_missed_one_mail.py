"""One mail a player at a missed deadline, though a mail of the other side's came in the
same pass: the pass that reads the German's sealed plan writes each player's mail at once,
then rules the Entente's deadline missed. Those mails are taken back and written again
after the ruling (mail/missedfold.py): each player gets one mail, which says the deadline
passed and that the game waits; the moderator gets his own.

The game of test_unattended.py's post (IMAP and SMTP servers on 127.0.0.1) under the
policy wait, brought to production (7.0), a sealed plan both sides owe, asked at START and
due 48 hours later.
"""

from __future__ import annotations

from datetime import timedelta

from forging import fixed_key
from test_outage_outgoing import clock_facts
from test_unattended import (  # noqa: F401
    ADDRESSES,
    GAME_ID,
    START,
    Table,
    post,
    text_of,
    tick,
    words,
)

import gamecalls as g
from referee.base.clock import NOW_VARIABLE

DUE = START + timedelta(hours=48)


def _production(cli, tmp_path, post, monkeypatch) -> Table:  # noqa: F811
    """The game at production, each player sent his report asking his plan."""
    monkeypatch.setenv(NOW_VARIABLE, START.strftime("%Y-%m-%dT%H:%M:%SZ"))
    folder = tmp_path / "games"
    folder.mkdir()
    journal = folder / f"{GAME_ID}.jsonl"
    r = cli("new", journal, "--scenario", "1914", "--game-id", GAME_ID,
            "--signing-key", fixed_key(tmp_path / "keys"),
            *[a for side, address in ADDRESSES.items()
              for a in ("--player", f"{side}={address}")],
            "--mail-in", post.source, "--mail-out", post.target, "--deadline", "48h",
            "--reminders", "", "--missed", "wait")
    assert r.exit_code == 0, r.output
    for side in ("german", "entente"):
        for text in ("pass", "end turn"):
            assert g.submit(journal, side, [text]).rejected is None, text
    table = Table(cli, journal, post, monkeypatch)
    table.tick_at(START)
    return table


def test_a_plan_read_in_the_pass_that_rules_the_other_side_missed_leaves_one_mail_each(
        cli, tmp_path, post, monkeypatch):  # noqa: F811
    table = _production(cli, tmp_path, post, monkeypatch)
    table.answer("german", DUE - timedelta(hours=1), ["done"])
    monkeypatch.setenv(NOW_VARIABLE, (DUE + timedelta(minutes=30)).strftime("%Y-%m-%dT%H:%M:%SZ"))
    game = tick(cli, table.journal)
    by: dict[str, list[str]] = {}
    for m in post.received()[table.read:]:
        by.setdefault(str(m["To"]), []).append(words(text_of(m)))
    assert {a: len(t) for a, t in by.items()} == {
        ADDRESSES["german"]: 1, ADDRESSES["entente"]: 1, ADDRESSES["moderator"]: 1}, by
    [entente] = by[ADDRESSES["entente"]]
    assert "Your orders were due by Wed 25 Nov 18:00 UTC; that time has passed and the game " \
        "waits for them" in entente, entente
    assert "Orders due by Wed 25 Nov 18:00 UTC." not in entente, entente
    assert "Reply with one order per line" in entente, entente
    [german] = by[ADDRESSES["german"]]
    assert "missed: the game waits for them" in german, german
    assert [f["clock"]["side"] for f in clock_facts(table.journal, "missed")] == ["entente"]
    assert any("the game waits on the moderator" in p for p in game["problems"]), game


def _mails_to(post, table, side: str) -> list:  # noqa: F811
    return [m for m in post.received()[table.read:] if str(m["To"]) == ADDRESSES[side]]


def test_the_one_mail_still_answers_the_message_it_replaced_the_answer_of(
        cli, tmp_path, post, monkeypatch):  # noqa: F811
    """The German's mail, taken back and written again after the ruling, still answers his
    message: its In-Reply-To, what was applied from it and what was not read as orders."""
    table = _production(cli, tmp_path, post, monkeypatch)
    mid = table.answer("german", DUE - timedelta(hours=1), ["Sorry, late again.", "done"])
    monkeypatch.setenv(NOW_VARIABLE, (DUE + timedelta(minutes=30)).strftime("%Y-%m-%dT%H:%M:%SZ"))
    tick(cli, table.journal)
    [mail] = _mails_to(post, table, "german")
    assert mail["In-Reply-To"] == mid, mail["In-Reply-To"]
    text = words(text_of(mail))
    assert "missed: the game waits for them" in text, text
    assert "Applied from your mail: 'done'" in text and "Sorry, late again." in text, text


def test_a_refusal_taken_back_is_written_again_as_a_refusal(
        cli, tmp_path, post, monkeypatch):  # noqa: F811
    """A refused mail's answer is never lost to the fold: the player is told why his line
    was refused, in a mail answering it, written after the ruling."""
    table = _production(cli, tmp_path, post, monkeypatch)
    mid = table.answer("german", DUE - timedelta(hours=1), ["build ge infantry nowhere"])
    monkeypatch.setenv(NOW_VARIABLE, (DUE + timedelta(minutes=30)).strftime("%Y-%m-%dT%H:%M:%SZ"))
    tick(cli, table.journal)
    answers = [m for m in _mails_to(post, table, "german") if m["In-Reply-To"] == mid]
    assert len(answers) == 1, [str(m["Subject"]) for m in _mails_to(post, table, "german")]
    text = words(text_of(answers[0]))
    assert "Your message was not applied" in text and "nowhere" in text, text
