"""What `verify --receipt MAILBOX` read of a player's mailbox (mail/receiptbox.py): a part
of verify's JSON answer, and of its error object when it fails."""

from .base import Part


class MailboxRead(Part):
    """What `verify --receipt MAILBOX` read of one mailbox: the mails read; those carrying a
    receipt of the game; the receipts checked (each once) and those already in another
    mail; the mails passed over, by why (not the referee's, of other games, without a
    receipt, with one that does not read as one, damaged or over the size limit); same_id,
    the mails of another game made under the game's id (another record 0 and key), set
    aside when the mailbox holds mails of this game."""

    mailbox: str
    mails: int
    of_game: int
    checked: int
    duplicates: int
    not_referee: int
    other_game: int
    same_id: int
    no_receipt: int
    bad_receipt: int
    damaged: int
    not_files: int
