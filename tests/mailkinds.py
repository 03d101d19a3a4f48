"""What a mail of the referee's is, as a phone's mail list shows it: its subject (the game,
the reader and the season alone: referee/mail/subjects.py), then its text's first line,
which says what kind of mail it is (a report, a refusal, a reminder...)."""

from __future__ import annotations


def first_line(m) -> str:
    """The first line of text of a mail's plain-text body ("" for none)."""
    part = m.get_body(preferencelist=("plain",))
    text = part.get_content() if part is not None else ""
    return next((line.strip() for line in text.splitlines() if line.strip()), "")


def headline(m) -> str:
    """A mail's subject, then its first line of text."""
    return f"{m['Subject']} | {first_line(m)}"
