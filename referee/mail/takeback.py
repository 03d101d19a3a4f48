"""Mails owed to a side taken back from the spool before they go, to be written again as
one: the ledger's record of what he was told set back to where the first of them started
(ledger `starts`), his pictures with it; the pass then writes his report again, from
there to the journal's end (tick.py: the reports owed).

A mail that answered a message of his (a refusal, or the report answering orders applied)
is owed again as that answer: the reply the ledger kept with its start (ledger.note_start)
goes back among the replies owed, so the mail written again still answers his message, with
what it said of it; nothing of his mail goes unanswered.

The ledger is saved first, the mails removed after it: a pass killed between the two
leaves mails that still go, and a report after them that starts earlier than it need.
"""

from __future__ import annotations

from pathlib import Path

from ..store import home
from .delivery import spool_files
from .ledger import fault, save_ledger
from .named import own_name


def owed_by_name(spool: Path) -> dict[str, Path]:
    """The mails owed in a spool the referee sends from, by their names."""
    return {own_name(p.stem): p for p in spool_files(spool)}


def owed_to(ledger: dict, owed: dict[str, Path], side: str) -> dict[str, object]:
    """The mails owed to side (by name), each with where it started."""
    return {n: ledger["starts"][n][1] for n in owed
            if isinstance(ledger["starts"].get(n), list) and ledger["starts"][n][:1] == [side]}


def take_back_mails(spool: Path, ledger: dict, owed: dict[str, Path], sides: list[str]
                    ) -> dict[str, int]:
    """Each side's mails owed taken back (the ledger set back to the first one's start,
    saved, then the mails removed): how many, by side (a side with none left out)."""
    taken: dict[str, int] = {}
    gone: list[Path] = []
    for side in sides:
        mine = owed_to(ledger, owed, side)
        if not mine:
            continue
        starts = list(mine.values())
        first = min((s for s in starts if isinstance(s, list) and s[:1] and
                     isinstance(s[0], int)), key=lambda s: s[0], default=None)
        if first is None or any(not isinstance(s, list) for s in starts):
            ledger["sent"].pop(side, None)
        else:
            ledger["sent"][side] = first
        for part in ("maps", "closeups"):
            if isinstance(ledger.get(part), dict):
                ledger[part].pop(side, None)
        for n in mine:
            _owed_again(ledger, side, ledger["starts"][n][2:])
        gone += [owed[n] for n in mine]
        taken[side] = len(mine)
    if not gone:
        return taken
    save_ledger(ledger)
    fault("taken back")             # the ledger set back: the mails go after it
    for path in gone:
        path.unlink(missing_ok=True)
    home.sync_dir(spool)
    return taken


def _owed_again(ledger: dict, side: str, kept: list) -> None:
    """What a mail taken back answered, owed again: its reply entry among the replies owed,
    or the message its report answered with its notes (ledger.note_start kept them)."""
    answers = kept[0] if kept and isinstance(kept[0], dict) else {}
    entry = answers.get("owed")
    if isinstance(entry, dict) and entry not in ledger["owed"]:
        ledger["owed"].append(entry)
    message_id = answers.get("reply_to")
    if isinstance(message_id, str):
        ledger["reply_to"][side] = message_id
        notes = [n for n in answers.get("notes") or () if isinstance(n, str)]
        mine = ledger["notes"].setdefault(side, [])
        mine.extend(n for n in notes if n not in mine)
