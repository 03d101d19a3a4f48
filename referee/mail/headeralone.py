"""A campaign's journal holding its header alone, without the set-up record `referee new`
writes with it (a journal cut back on a machine that holds no mark of it, or a torn `new`
repaired): no decision is asked, and nothing ended the game (3.0). A mail pass plays
nothing of it: `tick` names it in one problem line at every pass, as it names a damaged
journal, its mail left unread for the pass after the moderator puts the journal back, and
`inbox` refuses it (exit 2). No player is told the game is over or closed, and no
moderator's mail asks him to publish a secret: what the game lacks is his to restore.
"""

from __future__ import annotations

from ..base.errors import UsageError

RESTORE = ("; nothing of it is played and its mail waits unread until you put back the "
           "journal from your last backup (docs/moderator.md, Restoring a journal from a "
           "backup) or make the game again with `referee new`")


def refuse_header_alone(table) -> None:
    """UsageError naming the journal when the game of table (a Table read whole) is a
    campaign whose journal holds no set-up record; nothing otherwise."""
    if table.kind.mail == "direct":         # a skirmish's card and journal are its own
        return
    from ..game.timeline import NO_SETUP, unset  # start-up: a mail pass reads the rules

    if unset(table.game().state):
        raise UsageError(f"{table.name}: {NO_SETUP}{RESTORE}")
