"""A deadline ruled missed in the pass that wrote a player's mail before the ruling: that
mail taken back, and written again after it, so that he gets one mail a pass.

A pass first takes the game's new mail through `inbox`, which writes a reply to each
message it applies and each other player's report when the game moved, then checks the
deadlines (tick.py). A side's plan read in the pass that rules the other side's deadline
missed gave each player a mail written before the ruling (the late side's still giving
his deadline as if it were to come), and the missed deadline's notice after it: two mails,
the first superseded. So, before a check that will rule a deadline missed (the policy at
it: the referee's answer, the game waiting or paused), every player's mails still owed in
the spool are taken back (takeback.py) and the reports owed after the check write each
one again, from where the first of them started to the journal's end: the ruling among
its records, the late side's deadline as passed, with what follows (reminders._due_line).
The notice then goes to nobody the pass sends a report (missednotice._unreported). A side
held for a mail not yet gone out (unasked.py) keeps his: his time is given back once it
goes, and no deadline of his is ruled meanwhile.

Only where the referee sends the spool himself, and writes the players' reports: an
outbox's mails are the moderator's mail program's once written.
"""

from __future__ import annotations

from datetime import datetime

from ..base.plurals import counted
from ..base.readers import MODERATOR
from ..render.documents import players_words
from ..table import Table
from .ledger import load_ledger
from .reminders import rules_now
from .takeback import owed_by_name, owed_to, take_back_mails
from .tickgame import Game
from .unasked import kept_unasked


def fold_before_ruling(x: Game, games_dir, now: datetime, rule_missed: datetime | None
                       ) -> list[str]:
    """Before the check of a pass of `tick` (under the game's lock): each player's mails
    owed taken back when the check will rule a deadline missed; a log line each side."""
    if x.direct or not x.sends or not x.keys or rule_missed is None:
        return []
    owed = owed_by_name(x.spool)
    if not owed:                    # the common case: nothing waits to go
        return []
    ledger = load_ledger(x.game_id, x.header_hash)
    held = kept_unasked(ledger)
    sides = sorted({s[0] for n in owed if isinstance(s := ledger["starts"].get(n), list) and
                    s[:1] and isinstance(s[0], str) and s[0] != MODERATOR and
                    s[0] not in held})
    sides = [s for s in sides if owed_to(ledger, owed, s)]
    if not sides or not rules_now(Table(x.journal, games_dir), x.spool, now, rule_missed,
                                  x.sends):
        return []
    return [f"deadline: {counted(n, 'mail')} to {players_words([side])} written before "
            f"the deadline this pass rules missed taken back: his report is written again "
            f"after the ruling"
            for side, n in take_back_mails(x.spool, ledger, owed, sides).items()]
