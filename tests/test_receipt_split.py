"""A report mailed ends with its receipt, whatever is put above it (a player's deadline,
map note and order key; an observer's map note): the player's and the public's mails part
a report from its receipt in one way."""

from __future__ import annotations

from referee.mail import observers, refusal

REPORT = "1914 SUMMER\n\nNow\n\nThe German player owes orders.\n\nReceipt: g1 #4 ab12cd34\n"


def test_a_report_parts_from_its_receipt_at_its_last_blank_line():
    assert refusal.split_receipt(REPORT) == (
        "1914 SUMMER\n\nNow\n\nThe German player owes orders.", "Receipt: g1 #4 ab12cd34")
    assert refusal.split_receipt(REPORT.rstrip("\n")) == refusal.split_receipt(REPORT)


def test_the_public_and_the_players_mails_part_it_alike():
    assert observers.split_receipt is refusal.split_receipt
