"""What a mail of the referee's is, as a phone's mail list shows it: its subject (the game,
the reader and the season alone: referee/mail/subjects.py), then its text's first line,
which says what it answers or wants of its reader (a report: what is asked of him now; a
refusal, a reminder...), and a report's title, which names its reader and records."""

from __future__ import annotations

import re

from flowtext import written

# A title as the text format lays it out: its lines, then a rule of '=' as wide.
_TITLE = re.compile(r"(?:^|\n\n)((?:[^\n]+\n)+?)=+\n")


def _text(m) -> str:
    part = m.get_body(preferencelist=("plain",))
    return written(part.get_content()) if part is not None else ""


def first_line(m) -> str:
    """The first line of text of a mail's plain-text body ("" for none)."""
    return next((line.strip() for line in _text(m).splitlines() if line.strip()), "")


def report_title(m) -> str:
    """The title of the report a mail carries, its lines joined ("" for none)."""
    found = _TITLE.search(_text(m))
    return " ".join(found[1].split()) if found else ""


def report_lead(m) -> str:
    """The paragraph right above the report's title, its lines joined: what the report asks
    of its reader now ("" for a mail with no report)."""
    text = _text(m)
    found = _TITLE.search(text)
    above = text[:found.start(1)].strip() if found else ""
    return " ".join(above.split("\n\n")[-1].split()) if above else ""


def headline(m) -> str:
    """A mail's subject, its first line of text, then the title of the report it carries."""
    return f"{m['Subject']} | {first_line(m)} | {report_title(m)}"
