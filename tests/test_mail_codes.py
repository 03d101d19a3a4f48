"""What a script tells apart without reading a sentence (docs/scripting.md): each mail not
applied carries a stable `code` beside its `reason` (a stranger, a wrong key, a bad order and
a stale reply look alike in words), a mail handled by an earlier run keeps the side it was
taken as, and a game of a tick pass waiting on its moderator says why and for whom
(`waits_on_moderator_code`, `waits_on_moderator_sides`)."""

from __future__ import annotations

import json

from mailboxes import write_maildir
from test_inbox import ADDRESSES, KEYS, inbox, message, new_mail_game, only, write_mbox
from test_waits_on_moderator import held_for_dice, routed

from casebook import new_game, position
from referee.contracts.codes import MAIL_CODES


def _mail(n: int, sender: str, body: str) -> bytes:
    return (f"From: {sender}\nTo: umpire@example.com\nSubject: orders\n"
            f"Message-ID: <code{n}@example.org>\nDate: Sat, 01 Aug 1914 1{n}:00:00 +0100"
            f"\n\n{body}\n").encode()


def test_each_mail_refused_carries_the_code_of_why(tmp_path, cli):
    journal = new_mail_game(tmp_path, cli)
    german = ADDRESSES["german"]
    raws = [_mail(1, "spy@example.net", f"play offensive\n\nOrder key: {KEYS['german']}"),
            _mail(2, german, "play offensive\n\nGreetings"),
            _mail(3, german, f"play offensive\n\nOrder key: {KEYS['entente']}"),
            _mail(4, german, f"move ge-1 paris\n\nOrder key: {KEYS['german']}")]
    by_id, _ = inbox(cli, journal, write_mbox(tmp_path / "box.mbox", raws),
                     outbox=tmp_path / "out")
    got = {mid: (only(by_id, mid)["status"], only(by_id, mid)["code"]) for mid in by_id}
    assert got == {"<code1@example.org>": ("rejected", "stranger"),
                   "<code2@example.org>": ("rejected", "no_key"),
                   "<code3@example.org>": ("rejected", "wrong_key"),
                   "<code4@example.org>": ("rejected", "bad_order")}, got
    assert only(by_id, "<code4@example.org>")["side"] == "german"


def test_a_stale_reply_is_coded_stale_and_a_known_mail_keeps_its_side(tmp_path, cli):
    """The German's orders applied, then his resend answering the report before them
    (stale), and a line refused: run again, each is `known`, its side kept (the journal's
    for the mail applied, the ledger's for the others)."""
    journal = new_mail_game(tmp_path, cli)
    orders, resend = message("01-german-orders.eml"), message("05-german-resend.eml")
    bad = _mail(5, ADDRESSES["german"], f"move ge-1 paris\n\nOrder key: {KEYS['german']}")
    box = write_maildir(tmp_path / "Maildir", [orders, resend, bad])
    by_id, _ = inbox(cli, journal, box, outbox=tmp_path / "out1")
    first = {mid: (only(by_id, mid)["status"], only(by_id, mid)["code"]) for mid in by_id}
    assert first == {"<schlieffen.1914-08-01@potsdam.example.org>": ("applied", None),
                     "<schlieffen.1914-08-01.resent@potsdam.example.org>": ("stale", "stale"),
                     "<code5@example.org>": ("rejected", "bad_order")}, first
    again, _ = inbox(cli, journal, box, outbox=tmp_path / "out2")
    for mid in by_id:
        o = only(again, mid)
        assert (o["status"], o["new"], o["side"], o["code"]) == \
            ("known", False, "german", "already_handled"), o


def test_each_mail_code_is_listed_once():
    assert len(set(MAIL_CODES)) == len(MAIL_CODES)


def test_a_game_waiting_on_its_moderator_says_why_and_for_whom(tmp_path, cli):
    j, _box, _out = held_for_dice(tmp_path, cli)
    [game] = json.loads(cli("tick", j, "--no-map", "--format", "json").stdout)["games"]
    assert (game["waits_on_moderator_code"], game["waits_on_moderator_sides"]) == \
        ("held_for_dice", ["entente"]), game
    [message_] = game["messages"]
    assert (message_["status"], message_["code"]) == ("held", "held_for_dice"), message_


def test_a_side_without_an_address_is_coded_no_address(tmp_path, cli):
    j = new_game(tmp_path, position("1916", player="german", hands={"german": [],
                                                                     "entente": []}))
    assert cli("players", j, "--set", "entente=e@example.org").exit_code == 0
    routed(cli, j, tmp_path)
    r = cli("tick", j, "--no-map", "--format", "json")
    [game] = json.loads(r.stdout)["games"]
    assert (game["waits_on_moderator_code"], game["waits_on_moderator_sides"]) == \
        ("no_address", ["german"]), game
