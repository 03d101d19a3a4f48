"""An SMTP server a pass of `tick` could not send through, told once for all its games.

Several games of a folder may send through one SMTP server (a host of a dozen games on
its own server). When a session to it fails before a mail is given (the server down,
refusing the login, resting after a stall: breaker.py), every one of those games keeps its
mails owed, for the same reason, and would tell it in a line of its own, the same words a
game. The pass names it once, as one problem: the server, why, the games whose mail stays
owed and what to check (smtpsaid.py). Each of those games still counts it among its own
problems, as a mailbox no pass could read is counted (mailboxdown.py); a failure that
names a mail (refused, held for now, sent in part) stays the game's own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..base.errors import RefereeError, one_line
from .tickgame import Game

OWED = "; every mail stays owed"
# A session that failed before any mail went: smtpsaid.session_failure, or the server's
# rest (delivery.SmtpSession); what is left of it after the words of the mails it sent is
# a game's own (sending._stopped: "(N others sent)").
DOWN = re.compile(r"(smtp \S+:\d+): (.+?)" + re.escape(OWED) + r"(?:: (.+))?", re.S)


@dataclass
class ServerDown:
    """An SMTP server the pass could not send through: which, why, its games, the line."""

    server: str
    why: str
    games: list[str]
    problem: str

    def document(self) -> dict:
        """As `tick --format json` lists it (`servers`)."""
        return {"server": self.server, "why": self.why, "games": self.games,
                "problem": self.problem}


def failed(x: Game, exc: RefereeError) -> None:
    """Game x's sending ended with exc: a session to its SMTP server that failed before any
    mail went, kept to be told once with the other games it holds (grouped); any other
    failure x's own problem, told as the game is done."""
    said = str(exc)
    if DOWN.fullmatch(said) is None or said.endswith(" sent)"):
        x.fail(said)
    else:
        x.unsent = said


def grouped(games: list[Game]) -> list[ServerDown]:
    """Each failure the games' sessions met (failed), once for the games that met it in the
    same words: one problem naming them, which each of them counts among its own."""
    by_said: dict[str, list[Game]] = {}
    for x in games:
        if x.unsent is not None:
            by_said.setdefault(x.unsent, []).append(x)
    out = []
    for said, group in by_said.items():
        m = DOWN.fullmatch(said)
        assert m is not None        # failed kept no other
        ids = [one_line(x.game_id) for x in group]
        whose = f"game {ids[0]}" if len(ids) == 1 else f"games {', '.join(ids)}"
        problem = f"{m[1]}: {m[2]}; every mail of {whose} stays owed" + \
            (f": {m[3]}" if m[3] else "")
        for x in group:
            x.problems.append(problem)
        out.append(ServerDown(m[1], m[2], [x.game_id for x in group], problem))
    return out
