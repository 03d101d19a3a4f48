"""A mail's first line when its news is the moderator's pause or resume: what it does to the
reader's orders and deadline, before anything else the mail opens with (an armistice
proposal, what is asked of him). The record told among the others says it in passing; a
player who owes orders reads first that his deadline stopped, or when it now falls: where
the mail gives his deadline anyway (under his decision, or its own line), that it runs again,
so that the time is said once, where every other mail says it. So for another side's deadline
that the report below gives beside whom the game waits on (its Now section, as every report
does): the lead says whose deadline runs again, the report when it falls."""

from __future__ import annotations

from ..base.clock import for_players
from ..data.gamedata import GameData
from ..engine import waiting_on
from ..game.clockwalk import Due, clock_of
from ..game.timeline import paused, timeline_of
from ..render.documents import side_name
from ..render.formats import render
from ..render.record_text import prose
from ..render.reports import NOW_TITLES
from ..render.sections import Document

PAUSE, RESUME = "pause", "resume"


def pause_lead(table, reader: str, since: int, due: str | None = None,
               report: Document | None = None) -> str:
    """The line a mail to reader opens with, a blank line after it, when the records after
    since (his last mail's) paused or resumed the game and it is still so. Nothing when
    they did neither, or a later one undid it. due: the deadline line the mail gives him
    (reminders.deadline_lines); report: the report the mail gives, whose Now section gives
    the deadlines of the sides it waits on (render/documents.deadline_note). A resume does
    not repeat a time either gives."""
    kinds = [f["kind"] for f in (clock_of(r) for r in table.records[since + 1:])
             if f is not None and f.get("kind") in (PAUSE, RESUME)]
    if not kinds or (kinds[-1] == PAUSE) != paused(table.raw):
        return ""
    game = table.game()
    if kinds[-1] == PAUSE:
        stopped = "your deadline is stopped" if reader in waiting_on(game.state) else \
            "no deadline runs"
        return prose("The moderator paused the game: no orders are taken and "
                     f"{stopped} until he resumes it.") + "\n\n"
    dues = [] if game.walk is None else timeline_of(
        game.walk, game.state, game.data, game.state.seq, game.last, table.name).dues
    waits = _waits(report)
    told = [_resumed(d, _gives(due, d)) if d.side == reader else
            _resumed(d, f"{side_name(d.side)}: {d.words}" in waits,
                     f"{GameData.player_words(d.side)}'s") for d in dues]
    return prose("The moderator resumed the game: " +
                 ("; ".join(told) if told else "orders are taken again") + ".") + "\n\n"


def _resumed(d: Due, given: bool, whose: str = "your") -> str:
    """What the resume does to d: that it runs again when the mail gives its time anyway
    (given), else when the orders are now due."""
    return f"{whose} deadline runs again" if given else \
        f"{whose} orders are now due by {for_players(d.due, d.zone)}"


def _waits(report: Document | None) -> str:
    """The report's Now section as text, its lines joined: whom it waits on and by when."""
    if report is None:
        return ""
    now = [s for s in report.sections if s.title in NOW_TITLES]
    return " ".join(render(Document("", now), "text", 400).split())


def _gives(due: str | None, d: Due) -> bool:
    """Whether the deadline line a mail gives (its lines wrapped) names d's time."""
    return bool(due) and for_players(d.due, d.zone) in " ".join(due.split())
