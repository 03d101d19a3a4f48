"""A player's note beside his dispute: the '#' lines of the mail that raised it (not read as
orders), kept in the game's ledger (its part `dispute_notes`), never in the journal, so
that the moderator asked to settle the dispute reads the player's reason with it, and
forgotten once it is settled. A note is a mail's text: at most MOST_LINES lines of at most
MOST_CHARS characters are kept, the rest cut with CUT at the end of the last line kept;
the kind shows it quoted, each line behind '> ', so that no line of it reads as the
referee's (table/skirmish/quotednotes.py)."""

from __future__ import annotations

from ..base.readers import MODERATOR
from . import message as mailtext
from .observers import sent_mark, still_held

PART = "dispute_notes"      # the ledger's part: {dispute's record: {mark, lines}}
MOST_LINES = 5
MOST_CHARS = 200
CUT = " [cut]"


def note_of(body: str) -> list[str]:
    """The note of a mail's text: its '#' lines (message.comment_lines), cut to the bounds."""
    lines = mailtext.comment_lines(body, MOST_LINES + 1)
    kept = [t if len(t) <= MOST_CHARS else t[:MOST_CHARS].rstrip() + CUT
            for t in lines[:MOST_LINES]]
    if len(lines) > MOST_LINES and not kept[-1].endswith(CUT):
        kept[-1] += CUT
    return kept


def _open(table) -> set[int]:
    """The records of the disputes open now (the kind's decision for the moderator)."""
    return set(table.kind.decision(table, None, MODERATOR))


def keep_note(ledger: dict, table, records: list[int], note: list[str]) -> None:
    """The note of a mail kept beside each dispute it raised (records: those it made), as
    the journal holds them (a set-back journal holds another record there: not its note)."""
    disputes = _open(table).intersection(records) if note else set()
    notes = _notes(ledger)
    for seq in sorted(disputes):
        notes[str(seq)] = {"mark": sent_mark(table.records[seq]), "lines": list(note)}


def open_notes(ledger: dict, table) -> dict[int, list[str]]:
    """The notes of the disputes open now, by the dispute's record; a note of one settled
    (or gone with a set-back) is forgotten."""
    open_, notes = _open(table), _notes(ledger)
    kept = {}
    for key, entry in list(notes.items()):
        seq = still_held(entry.get("mark") if isinstance(entry, dict) else None,
                         table.records)
        lines = entry.get("lines") if isinstance(entry, dict) else None
        if seq in open_ and str(seq) == key and isinstance(lines, list) and \
                all(isinstance(x, str) for x in lines):
            kept[seq] = lines[:MOST_LINES]
        else:
            del notes[key]
    return kept


def _notes(ledger: dict) -> dict:
    if not isinstance(ledger.get(PART), dict):
        ledger[PART] = {}
    return ledger[PART]
