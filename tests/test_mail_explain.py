"""A player who holds only his mail asks what happened: a mail whose one line is
`explain N` (with his order key) is answered with what `referee explain N --as SIDE` gives
his side, once however many runs read it, and nothing is written to the journal; a record
the game does not hold, or the line among orders, is refused in one line. Before, the line
was prose ("Not read as orders") and the mail refused as holding no orders."""

from __future__ import annotations

import re

from flowtext import written
from leakcheck import Truth, find
from leakcheck import flat as lc_flat
from test_hostile_mail import (
    ADDRESSES,
    KEYS,
    eml,
    handled,
    mail,
    new_game,
    records,
    replies_to,
)
from test_sheets import GAME, SECRET

import gamecalls as g
from referee.cli.demo import DEMO_OPENING
from referee.mail.refusal import report_body
from referee.store.dice import write_secret
from referee.table import Table


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def body(m) -> str:
    return written(m.get_body(preferencelist=("plain",)).get_content())


def played(cli, tmp_path):
    """A game where the German played his card by mail."""
    journal = new_game(cli, tmp_path / "game")
    first = mail(body=f"play offensive\n\nOrder key: {KEYS['german']}\n")
    out = handled(cli, journal, eml(tmp_path / "in0", first), outbox=tmp_path / "out0")
    assert out[0]["status"] == "applied", out
    return journal


def asked(cli, journal, tmp_path, lines: str, name: str, side: str = "german",
          mid: str = "<q1@example.org>"):
    raw = mail(frm=ADDRESSES[side], body=f"{lines}\n\nOrder key: {KEYS[side]}\n", mid=mid)
    return handled(cli, journal, eml(tmp_path / f"in-{name}", raw),
                   outbox=tmp_path / f"out-{name}")


def test_explain_alone_is_answered_as_his_side_sees_it_and_records_nothing(cli, tmp_path):
    journal = played(cli, tmp_path)
    before = journal.read_bytes()
    out = asked(cli, journal, tmp_path, "explain 2", "a", side="entente")
    assert out[0]["status"] == "answered", out
    assert journal.read_bytes() == before
    (reply,) = replies_to(tmp_path / "out-a", ADDRESSES["entente"])
    text = body(reply)
    expected = cli("explain", journal, "2", "--as", "entente")
    assert expected.exit_code == 0, expected.stderr
    # word for word: the mail sends a wrapped line's next one flush left (mail/flowed.py)
    assert " ".join(expected.stdout.split()) in " ".join(text.split()), text
    assert "Not read as orders" not in text and "no orders found" not in text
    assert "Order key:" in text       # his report follows, as a refused mail's reply carries
    # The same mail again, in a later run: nothing more, no second answer.
    again = asked(cli, journal, tmp_path, "explain 2", "a2", side="entente")
    assert again[0]["status"] == "known" and not again[0]["new"], again
    assert replies_to(tmp_path / "out-a2", ADDRESSES["entente"]) == []
    assert journal.read_bytes() == before


def test_explain_out_of_range_or_among_orders_is_refused_in_one_line(cli, tmp_path):
    journal = played(cli, tmp_path)
    before = journal.read_bytes()
    out = asked(cli, journal, tmp_path, "explain 99", "b")
    assert out[0]["status"] == "rejected", out
    assert "no record 99 to explain: the game's records are 0 to 3" in out[0]["reason"]
    (reply,) = replies_to(tmp_path / "out-b", ADDRESSES["german"])
    assert "no record 99 to explain" in flat(body(reply))
    out = asked(cli, journal, tmp_path, "explain 1\npass", "c", mid="<q2@example.org>")
    assert out[0]["status"] == "rejected", out
    assert "line 2: a mail asking for a record explained ('explain 12') holds nothing " \
        "else" in out[0]["reason"], out
    assert journal.read_bytes() == before


def test_the_answer_shows_his_side_nothing_secret_from_it(cli, tmp_path):
    """Secrets by default (test_leaks.py's check): record 1 deals the hands from the shuffled
    deck; the Entente's answer names no card of the German's hand nor the deck's order,
    which the moderator's `explain 1` shows (the control that the check can fail)."""
    journal = played(cli, tmp_path)
    asked(cli, journal, tmp_path, "explain 1", "d", side="entente")
    (reply,) = replies_to(tmp_path / "out-d", ADDRESSES["entente"])
    truth = Truth(journal)
    secret = truth.never_visible("entente")
    german = {c for c, kind in truth.hidden_cards("entente").items() if kind == "hand"}
    assert german and secret
    text = lc_flat(body(reply))
    assert [t for t in secret if find(t, text) >= 0] == []
    titles = {truth.card_title[c] for c in german} - {
        truth.card_title[c] for c in truth.own_cards("entente")}
    assert "Record 1 explained" in text and titles
    said = text.split("Below: what you are asked now")[0]
    assert [t for t in titles if t in said] == []
    whole = lc_flat(cli("explain", journal, "1", "--as", "moderator").stdout)
    assert [t for t in secret if find(t, whole) >= 0] and [t for t in titles if t in whole]


def test_a_players_mail_names_the_line_he_mails_not_a_command(tmp_path, cli):
    """A dice line ends with where it is checked: in the moderator's report the command
    (`explain N`), in a player's mail the line he mails for it (he has no journal)."""
    path = tmp_path / "h.jsonl"
    secret = tmp_path / "s.secret"
    write_secret(secret, SECRET)
    g.create_game(path, "1914", game_id=GAME, secret_file=secret)
    g.submit(path, "german", DEMO_OPENING + ["done", "done", "done"])
    seq = [r for r in records(path) if r.get("dice")][-1]["seq"]
    mailed = flat(report_body(Table.writing(path), "german", seq - 1, "KEY"))
    # The audit's part of the line, after the plain words, ends with it.
    assert f"mail 'explain {seq}')." in mailed, mailed
    assert f"; explain {seq})" not in mailed
    printed = flat(cli("report", path, "--as", "german", "--since", str(seq - 1)).stdout)
    assert f"; explain {seq})." in printed and "mail 'explain" not in printed, printed


def test_a_record_number_no_keyboard_types_is_refused_in_one_line(cli, tmp_path):
    """'²' reads as a digit to Python's str.isdigit, and a thousand digits make a number
    int() refuses: each was a failure of the whole game at every pass (its other mail
    unread, its deadline held); each is one refusal, as the command line's explain gives."""
    journal = played(cli, tmp_path)
    before = journal.read_bytes()
    for n, number in enumerate(("²", "٣", "9" * 5000)):
        out = asked(cli, journal, tmp_path, f"explain {number}", f"odd{n}",
                    mid=f"<odd{n}@example.org>")
        assert out[0]["status"] == "rejected", out
        assert "to explain: the game's records are 0 to" in out[0]["reason"], out
        assert "\n" not in out[0]["reason"] and len(out[0]["reason"]) < 300, out
    assert journal.read_bytes() == before


def test_explain_with_the_record_written_as_reports_write_it_is_answered(cli, tmp_path):
    """`explain #2`: the '#' of a record's number as every report writes it is no comment."""
    journal = played(cli, tmp_path)
    out = asked(cli, journal, tmp_path, "explain #2", "hash", side="entente")
    assert out[0]["status"] == "answered", out
    out = asked(cli, journal, tmp_path, "explain 2 # what was that?", "hash2",
                side="entente", mid="<q2@example.org>")
    assert out[0]["status"] == "answered", out
