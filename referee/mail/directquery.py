"""A question mailed to a game whose mail is read directly (the skirmish's: direct.py):
`explain N`, a line alone in a mail with the player's order key, answered as a campaign
answers it (queries.py): with what `referee explain N --as SIDE` gives his side, once, and
nothing written to the journal (the ledger alone keeps the mail as handled). A line among
orders is no order: the mail is refused whole, as a campaign refuses it."""

from __future__ import annotations

from .queries import ANSWERED, EXPLAIN_LINE, answer_text, asks, explain_by_mail
from .reminders import EXTEND_LINE

# The lines a direct game's mail reads beside its orders, wherever they stand, and the
# words never taken for prose (nor a slip of them: 'explian 12'); `extend`, which a game
# without deadlines answers (noclock.py).
HEADS = (EXPLAIN_LINE, EXTEND_LINE)
WORDS = ("explain", "extend")


def asked(table, read: list[tuple[int, str]], out) -> bool:
    """Whether a mail's order lines (read, numbered as in the mail) ask for a record
    explained; if so, out answered (its record in out.explained) or refused in one line,
    nothing applied."""
    if not asks(read):
        return False
    explain_by_mail(table, read, None, None, out)
    if out.status != ANSWERED:
        out.status = "refused"
    return True


def answer_head(table, h, report_follows: bool) -> str:
    """The head of the answer to a mail asking for a record explained: the record as the
    side may see it (and, report_follows, a line saying that his report comes below)."""
    return answer_text(table, h.side, h.explained, below=report_follows) + "\n"
