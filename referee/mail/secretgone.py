"""A game whose dice secret is nowhere the referee looks for it: a problem of that game on
every pass of `tick` and `watch`, not a quiet pass.

Without the secret the game rolls no die and deals no card, and its players' order keys,
which claim their mail, cannot be made: a pass that said "all handled" of it would leave
the moderator to find out when the next order fails. A secret that is there but changed
already stops the game (secrets.load_secret); a missing one is said here, naming where it
was looked for. A game whose secret is revealed in its journal needs the file no more: it
is closed, and rolls nothing again.
"""

from __future__ import annotations

from ..store.revealed import GameClosed, refuse_after_reveal
from ..store.secrets import load_secret, secret_candidates


def secret_gone(table) -> str | None:
    """The problem line of a game (its Table) whose dice secret is missing, or None."""
    header = table.records[0]
    if load_secret(table.path, header) is not None:
        return None
    try:
        refuse_after_reveal(table.raw, table.name)
    except GameClosed:
        return None
    places = " nor at ".join(str(p) for p in secret_candidates(table.path, header))
    return (f"the dice secret is missing: it is not at {places}, so the game can roll no "
            f"die, deal no card nor make its players' order keys, and their mail is not "
            f"taken: put the game's secret file back there (docs/moderator.md, The game's "
            f"key: back it up, move a game)")
