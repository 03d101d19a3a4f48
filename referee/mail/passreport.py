"""What a pass of `tick` did, as it prints it: each game's lines (told as the game is done
when the pass is given somewhere to tell them: tick.tick's tell), the folder's problems,
the messages no game claimed, and the tally it ends with."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from ..base.clock import stamp
from ..base.errors import EXIT_INTEGRITY, RefereeError, one_line
from ..base.plurals import counted, joined
from .delivery import TransportError
from .mailboxdown import MailboxDown
from .serverdown import ServerDown
from .tickgame import Game


@dataclass
class TickReport:
    games: list[Game]
    unclaimed: list[str]
    broken: list[str]                   # journals that could not be read
    fresh: list[str] = field(default_factory=list)     # unclaimed, not told of before
    later: int = 0      # unclaimed, not told now nor known as told (unclaimed.told_now)
    waiting: list[dict] = field(default_factory=list)   # held for a game not played now
    unknown: list[str] = field(default_factory=list)    # unreadable, its game not known
    found: int = 0                      # the journals the pass found, read or not
    held: list[str] = field(default_factory=list)       # journals another process held
    down: list[MailboxDown] = field(default_factory=list)   # mailboxes that could not be read
    exports: list[Path] = field(default_factory=list)   # redacted exports passed over
    servers: list[ServerDown] = field(default_factory=list)     # SMTP servers down
    handed: list[str] = field(default_factory=list)     # games handed over: their lines
    # Games handed over whose journal the folder no longer holds, that the pass found mail
    # for (handedhere.marked_away): their lines, not counted among the folder's games.
    away: list[str] = field(default_factory=list)

    @property
    def passed(self) -> list[str]:
        """The line that names the redacted exports the pass passed over (none or one), and one
        for each game handed over to another machine: no problem, told so that the moderator
        knows the pass saw them."""
        if not self.exports:
            return self.handed + self.away
        names = joined([one_line(p.name) for p in self.exports])
        one = len(self.exports) == 1
        return [f"passed   {names}: {'a redacted export' if one else 'redacted exports'} "
                f"(`referee log --format json`), not {'a game' if one else 'games'}: no game "
                f"is played from {'it' if one else 'them'}", *self.handed, *self.away]

    @property
    def problems(self) -> list[str]:
        """Every problem once: a mailbox that could not be read, or an SMTP server that could
        not be sent through (each of its games counts it among its own), once for all its
        games."""
        shared = [d.problem for d in [*self.down, *self.servers]]
        return self.broken + shared + [p for x in self.games for p in x.problems
                                       if p not in shared]

    @property
    def notes(self) -> list[str]:
        """The games' lines that stand from pass to pass and are no problem (Game.note)."""
        return [line for x in self.games for line in x.notes]

    @property
    def busy(self) -> list[str]:
        """The games passed over, their lock held by another process: each as its line."""
        return self.held + [f"{x.game_id}: {x.busy}" for x in self.games if x.busy]

    def lines(self, told: Collection[str] = ()) -> list[str]:
        """The pass's lines not told yet, but for the problems in told (of the folder, or
        of a game: watch named them before, and they stand as they were), and the exports'
        line when told holds it (watch: it stands as it was)."""
        out = [f"problem  {p}" for p in self.broken if p not in told]
        out += [line for line in self.passed if line not in told]
        out += [f"problem  {d.problem}" for d in [*self.down, *self.servers]
                if d.problem not in told]
        out += [f"busy     {p}" for p in self.held]
        for x in self.games:
            out += [line for line in x.lines[x.shown:] if not quiet(line, told)]
        if self.fresh:              # told once a message, not again at every pass
            more = len(self.unclaimed) - len(self.fresh) - self.later
            out.append(f"{counted(len(self.fresh), 'new message')} no game claims (no "
                       f"game's tag or order key, or several games' tags or keys): left for "
                       f"the moderator"
                       + (f" ({more} more told of before)" if more else "")
                       + self._maybe_theirs())
        return out

    def _maybe_theirs(self) -> str:
        if not self.unknown:
            return ""
        return (f"; {', '.join(self.unknown)} cannot be read and nothing is known of "
                f"{'its game' if len(self.unknown) == 1 else 'their games'}: any may be "
                f"{'its' if len(self.unknown) == 1 else 'theirs'}, taken once "
                f"{'it' if len(self.unknown) == 1 else 'they'} can be read")


def quiet(line: str, told: Collection[str]) -> bool:
    """Whether a game's line names one of the problems in told (`GAME: problem  WHAT` for
    the problem `GAME: WHAT`), or is one of the standing notes in told (Game.note)."""
    game, sep, rest = line.partition(": problem  ")
    return (bool(sep) and f"{game}: {rest}" in told) or line in told


def teller(tell: Callable[[str], None] | None) -> Callable[[Game], None]:
    """What tells a game's new lines as it is done (nothing without tell): each line once,
    the game keeping how many were told (the rest are the report's lines)."""
    def done(x: Game) -> None:
        if tell is not None:
            for line in x.lines[x.shown:]:
                tell(line)
            x.shown = len(x.lines)
    return done


def stamped(moment: datetime, lines: Iterable[str]) -> list[str]:
    """A pass's lines as `tick` and `watch` print them: each begins with the pass's time
    (ISO 8601, UTC, to the second), since a cron or service log has no time of its own."""
    at = stamp(moment)
    return [f"{at} {line}" for line in lines]


def tally(report: TickReport) -> str:
    """The line every pass of `tick` ends with: its games, and how many were handled, how
    many passed over (busy, or handed over to another machine: not handled here) and how
    many problems are left when some are."""
    games = counted(max(report.found, len(report.games)), 'game')
    busy, handed = len(report.busy), len(report.handed)
    if not report.problems and not busy and not handed:
        return f"{games}: all handled"
    handled = sum(not x.problems and not x.busy for x in report.games)
    left = [f"{busy} busy (their mail waits for the next pass)"] if busy else []
    if handed:
        left.append(f"{handed} handed over to another machine")
    if report.problems:
        left.append(counted(len(report.problems), 'problem'))
    return f"{games}: {handled} handled, {', '.join(left)}"


class ModeratorError(RefereeError):
    """A pass whose every problem is a game waiting on its moderator (a deadline missed
    under `--missed wait`, orders held for his dice, a side with no address): nothing
    failed, but he must act. Exit 3 as a pass left undone, so that cron's mail or a failed
    systemd unit tells him; its kind tells a script it is no server's refusal."""

    kind = "moderator"
    exit_code = EXIT_INTEGRITY


def kind_of(x: Game) -> str | None:
    """The kind of error a game's problems make: None with none, `moderator` when its one
    problem is waiting on its moderator, `transport` when any other is left."""
    if not x.problems:
        return None
    return ModeratorError.kind if x.problems == [x.moderator] else TransportError.kind


def summary(report: TickReport, shown: bool = False) -> RefereeError | None:
    """The one-line error of a pass that left something undone (None: all handled, or
    passed over while busy): its first problem, or, when the text lines above named every
    problem (shown), how many there are, so that a log taking both streams has each
    problem once. A ModeratorError when each is a game waiting on its moderator, else a
    TransportError naming first a problem that is not."""
    if not report.problems:
        return None
    waits = {x.moderator for x in report.games if x.moderator}
    failed = [p for p in report.problems if p not in waits]
    error = TransportError if failed else ModeratorError
    if shown:
        return error(f"{counted(len(report.problems), 'problem')} in "
                     f"{counted(max(report.found, len(report.games)), 'game')} (see above)")
    first = (failed or report.problems)[0]
    more = len(report.problems) - 1
    return error(first + (f" (and {counted(more, 'more problem')} above)" if more else ""))
