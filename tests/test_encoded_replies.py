"""In-Reply-To and References are read decoded (RFC 2047: a mail program writes a Message-ID
too long to fold as =?utf-8?q?...?=), and a decoded id counts only as the id sent would: one
of this game, made for the reply's sender."""

from __future__ import annotations

from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default

from referee.mail.answered import answered_record
from referee.mail.msgids import message_id

RECORD = {"seq": 12, "hash": "ab" * 32}


def _reply(sender: str, ident: str, header: str = "In-Reply-To"):
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = sender, "referee@example.com", "Re: orders"
    m[header] = ident
    m.set_content("done\n")
    raw = bytes(m)                              # as the email package writes it
    assert b"=?utf-8?q?=3Crec=2E" in raw, raw
    return message_from_bytes(raw, policy=default)


def test_an_encoded_reply_header_names_the_record_of_the_mail_it_answers(tmp_path):
    ident = message_id("fritz@example.org", "x" * 24, ("patrol", RECORD))
    for header in ("In-Reply-To", "References"):
        found = answered_record(_reply("fritz@example.org", ident, header),
                                "fritz@example.org", "Re: orders", "patrol")
        assert found is not None and found.seq == 12, header


def test_an_encoded_id_of_another_reader_or_game_names_nothing(tmp_path):
    others = (message_id("tommy@example.org", "x" * 24, ("patrol", RECORD)),
              message_id("fritz@example.org", "x" * 24, ("patrol-two", RECORD)))
    for ident in others:
        assert answered_record(_reply("fritz@example.org", ident), "fritz@example.org",
                               "Re: orders", "patrol") is None, ident


def test_a_word_of_an_unknown_charset_does_not_hide_a_good_encoded_id_beside_it(tmp_path):
    """Each encoded word is decoded on its own: one that cannot be (its charset unknown)
    is kept as sent, and the id encoded beside it still names its record."""
    ident = message_id("fritz@example.org", "x" * 24, ("patrol", RECORD))
    good = bytes(_reply("fritz@example.org", ident, "References"))
    for bad in (b"=?x-no-such-charset?q?a?= ", b"=?utf-8?b?@@@?= "):
        raw = good.replace(b"References: ", b"References: " + bad, 1)
        found = answered_record(message_from_bytes(raw, policy=default), "fritz@example.org",
                                "Re: orders", "patrol")
        assert found is not None and found.seq == 12, bad
