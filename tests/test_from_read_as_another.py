"""A From that a mail program may read as someone else names no sender (docs/security.md):
a display name, or a comment, that is an address other than the From's, two addresses in
one From, and an encoded word that decodes to an address. With the German's address in it
and his key, such a mail is taken for nobody's: nothing applied, and no answer to him nor
to anyone else; a From with a plain display name is still his. The game is the one of
tests/test_hostile_mail.py, read by `inbox`."""

from __future__ import annotations

import pytest
from test_hostile_mail import ADDRESSES, KEYS, eml, handled, journal, mail, mails, records

SPY = "evil@attacker.example"
GERMAN = ADDRESSES["german"]

__all__ = ["journal"]       # the fixture, used by name


@pytest.mark.parametrize("frm", [
    f"{GERMAN} <{SPY}>",                                        # an address as the name
    f"{GERMAN}, {SPY}",                                         # two addresses
    f"=?utf-8?q?{GERMAN.replace('@', '=40').replace('.', '=2E')}?=",   # an encoded address
    f"{GERMAN} ({SPY})",                                        # another address in a comment
    f'"{SPY}" <{GERMAN}>',                                      # ... in a quoted name
], ids=["name-unquoted", "two-addresses", "encoded-word", "comment", "quoted-name"])
def test_a_from_read_as_another_sender_is_taken_for_none(journal, cli, tmp_path, frm):
    before = journal.read_bytes()
    out = handled(cli, journal, eml(tmp_path / "in", mail(frm)), outbox=tmp_path / "out")
    assert [(o["status"], o["side"], o["from"]) for o in out] == [("rejected", None, "")], out
    assert journal.read_bytes() == before
    answers = [m for m in mails(tmp_path / "out") if "m1@potsdam" in str(m["In-Reply-To"])]
    assert answers == [], [str(m["To"]) for m in answers]       # the opening reports alone


@pytest.mark.parametrize("frm", [f"Wilhelm <{GERMAN}>", f'"{GERMAN}" <{GERMAN}>',
                                 f"{GERMAN} <{GERMAN}>",
                                 f"=?utf-8?q?Wilhelm_II=2E?= <{GERMAN}>", f"{GERMAN} (home)"],
                         ids=["name", "own-address-as-name", "own-address-as-unquoted-name",
                              "encoded-name", "comment"])
def test_a_from_naming_him_alone_is_still_his(journal, cli, tmp_path, frm):
    before = len(records(journal))
    out = handled(cli, journal, eml(tmp_path / "in", mail(frm, f"play offensive\n\nOrder key: "
                                                          f"{KEYS['german']}\n")),
                  outbox=tmp_path / "out")
    assert [(o["status"], o["side"]) for o in out] == [("applied", "german")], out
    assert len(records(journal)) == before + 1
