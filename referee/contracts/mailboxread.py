"""What `verify --receipt MAILBOX` read of a player's mailbox (mail/receiptbox.py): a part
of verify's JSON answer, and of its error object when it fails."""

from .base import Part


class MailboxRead(Part):
    """What `verify --receipt MAILBOX` read of one mailbox: the mails read; those carrying a
    receipt of the game; the receipts checked (each once) and those already in another
    mail; the mails passed over, by why (not the referee's, of other games, without a
    receipt, with one that does not read as one, damaged or over the size limit)."""

    mailbox: str
    mails: int
    of_game: int
    checked: int
    duplicates: int
    not_referee: int
    other_game: int
    no_receipt: int
    bad_receipt: int
    damaged: int
