"""A mail's text as format=flowed (RFC 3676, delsp=no), so that a mail program that knows it
(on a phone above all) reflows the prose to its screen, and one that does not shows the
text as the referee wrote it, each line within 72 columns.

The wrappers (render/layout.py, render/record_text.py) end a line they broke inside a
paragraph or a list item with a space: a soft line break, which the reader may join to the
next line. Every other line is hard and ends in no space: a table's row, the orders to
copy, a rule under a title, a receipt's Signed lines, a quoted order. The signature
separator "-- " stays as it is (4.3). A line that begins with a space, '>' or "From " is
space-stuffed (4.4): a reader that knows the format takes the added space away, and
would otherwise read a quote, or lose an indent."""

from __future__ import annotations

FLOWED = {"format": "flowed", "delsp": "no"}

SIGNATURE = "-- "


def flowed(text: str) -> str:
    """text with each line as RFC 3676 sends it: a soft break kept (one trailing space after
    a word, as the wrappers leave it: more, or a line of spaces alone, is hard), every other
    line's trailing spaces dropped, and the lines that need it space-stuffed. A line that
    goes on after a soft break loses its indent (a list item's hanging one): a reader that
    joins the lines would show it as a run of spaces inside the sentence (4.1: the joined
    line is the lines' text end to end), and one that does not shows it flush left."""
    out: list[str] = []
    soft = False
    for line in text.split("\n"):
        sent = _line(line.lstrip(" ") if soft else line)
        soft = sent.endswith(" ") and sent != SIGNATURE
        out.append(_stuffed(sent))
    return "\n".join(out)


def _line(line: str) -> str:
    if line == SIGNATURE:
        return line
    bare = line.rstrip()
    return bare + " " if bare and len(line) == len(bare) + 1 else bare


def _stuffed(line: str) -> str:
    return " " + line if line.startswith((" ", ">", "From ")) else line
