"""A count and its noun as plain English: "1 card", "5 cards", "0 hits".

Reports, mails and messages are read by players, moderators and forum readers: a number
known when the text is made is followed by its noun in the singular for one and the plural
otherwise, never "card(s)". Texts kept in journal records (an event's reason, an order's
text) are left as they were written: a journal stays the same bytes for the same play.
"""

from __future__ import annotations


def counted(n: int, singular: str, plural: str | None = None) -> str:
    """'1 card', '5 cards', '0 cards'; an irregular noun names its plural: 1 army, 2 armies."""
    return f"{n} {noun(n, singular, plural)}"


def noun(n: int, singular: str, plural: str | None = None) -> str:
    """The noun alone for a count of n: 'card' for 1, 'cards' for any other count."""
    return singular if n == 1 else plural or singular + "s"
