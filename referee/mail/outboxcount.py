"""How many mails a pass left in a game's `outbox:DIR` folder: no one sends them but the
moderator's mail program, so the pass says how many wait (tick's `outbox` line). Those the
game wrote, not all that are new in the folder: games may share one, and another worker's
game writes into it at the same time (noted.py)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .delivery import spool_files
from .noted import noting_written
from .tickgame import Game


@contextmanager
def outbox_counted(x: Game) -> Iterator[None]:
    """The mails the game wrote meanwhile into its `outbox:DIR` folder and left there,
    counted (x.outbox)."""
    if x.sends:
        yield
        return
    with noting_written() as written:
        try:
            yield
        finally:
            x.outbox += len(left_in(x.spool, written))


def left_in(folder: Path, written: list[Path]) -> set[Path]:
    """The mails of written that are in folder still (written there, not taken away), each
    as it was written."""
    there = {p.resolve() for p in spool_files(folder)}
    return {p for p in written if p.resolve() in there}
