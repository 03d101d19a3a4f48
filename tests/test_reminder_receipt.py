"""A reminder ends as every mail to a player does (player.md, Receipts): his order key,
then the key that signs the game and the receipt of the record the mail was made after
(the reminder's own record is written after it and moves nothing)."""

from __future__ import annotations

import email
import email.policy
from datetime import timedelta

from flowtext import written
from test_deadlines import DUE, new_game, order, records

from referee.mail.reminders import check_deadlines
from referee.render.reports import receipt_text


def test_a_reminder_ends_with_the_order_key_the_fingerprint_and_the_receipt(tmp_path, cli,
                                                                             clock):
    journal = new_game(tmp_path, cli, "--deadline", "48h")
    order(journal, "german", "play offensive")
    before = records(journal)
    out = tmp_path / "out"
    assert check_deadlines(journal, out, DUE - timedelta(hours=24))
    (mail,) = out.glob("*remind*.eml")
    text = written(email.message_from_bytes(mail.read_bytes(), policy=email.policy.default)
                   .get_body(("plain",)).get_content())
    tail = receipt_text(before[0], before[-1]).splitlines()
    lines = text.rstrip("\n").splitlines()
    assert lines[-len(tail):] == tail, lines[-4:]
    assert lines[-len(tail) - 1].startswith("Order key: ")
    assert tail[-1].startswith("Receipt: ") and tail[0].startswith("Fingerprint: ")
    assert len(records(journal)) == len(before) + 1       # the reminder's record, after it
