"""A remark opening a mail is named in the reply as not read, as every remark is: 'Ok sorry'
was ("Not read as orders (neither applied nor refused): above your orders 'Ok sorry'."), but 'Ivan
here. Attack!' went without a word, taken for a greeting because it was a few words ending
in '!'. Only a greeting proper ('Hello Bob,') is passed over without a word. Neither is read
as an order; the orders after them are applied. Both games of the campaign engine."""

from __future__ import annotations

import re

import pytest
from mailboxes import write_maildir
from test_deadlines import mails, text_of
from test_inbox import ADDRESSES, GAME, KEYS, SECRET

import gamecalls as g
from referee.mail.inbox import inbox as mail_inbox
from referee.store.dice import write_secret

NOT_READ = "Not read as orders (neither applied nor refused):"


def _german_mail(tmp_path, game: str, opening: str) -> tuple[list[str], str]:
    """A 1914 game of `game` and the German's mail opening with that line before his
    orders: the orders applied, and the text of the mail answering it, its lines joined."""
    secret = tmp_path / "fixed.secret"
    write_secret(secret, SECRET)
    journal = tmp_path / "g.jsonl"
    g.create_game(journal, "1914", game_id=GAME, secret_file=secret, game=game,
                  players=[f"{side}={addr}" for side, addr in ADDRESSES.items()])
    before = len(journal.read_text().splitlines())
    raw = (f"From: {ADDRESSES['german']}\nTo: {ADDRESSES['moderator']}\nSubject: orders\n"
           f"Date: Tue, 24 Nov 2026 10:00:00 +0000\nMessage-ID: <opening@example.org>\n\n"
           f"{opening}\n\npass\nend turn\n\nSent from my phone\n\n"
           f"Order key: {KEYS['german']}\n").encode()
    outcomes, _ = mail_inbox(journal, [write_maildir(tmp_path / "box", [raw])],
                             tmp_path / "out", with_map=False)
    assert [o.status for o in outcomes] == ["applied"], outcomes
    applied = [re.search(r'"order":"([^"]*)"', line)[1]
               for line in journal.read_text().splitlines()[before:]]
    [reply] = [m for m in mails(tmp_path / "out") if str(m["To"]) == ADDRESSES["german"]]
    return applied, " ".join(text_of(reply).split())


@pytest.mark.parametrize("game", ["ttlm", "aac"])
@pytest.mark.parametrize("opening", ["Ok sorry", "Hans here. Attack!", "Here we go!"])
def test_a_remark_opening_a_mail_is_named_as_not_read(tmp_path, game, opening):
    applied, said = _german_mail(tmp_path, game, opening)
    assert applied == ["pass", "end turn"], applied
    assert f"{NOT_READ} above your orders '{opening}'." in said, said[:400]


@pytest.mark.parametrize("opening", ["Hello Bob,", "Dear Moderator,", "Hi!"])
def test_a_greeting_opening_a_mail_is_passed_over_without_a_word(tmp_path, opening):
    applied, said = _german_mail(tmp_path, "ttlm", opening)
    assert applied == ["pass", "end turn"], applied
    assert NOT_READ not in said, said[:400]
