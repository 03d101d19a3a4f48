"""Mails owed to a side taken back from the spool before they go, to be written again as
one: the ledger's record of what he was told set back to where the first of them started
(ledger `starts`), his pictures with it; the pass then writes his report again, from
there to the journal's end (tick.py: the reports owed).

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
