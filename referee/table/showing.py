"""What a Table shows a reader of the game now: the views `show`, the board and `status`
print, each kept signed for the journal's bytes, and the reader's own standing orders."""

from __future__ import annotations

from ..base.errors import UsageError
from ..game import standing
from ..game.board import board_view
from ..game.halts import halted, outdated_now
from ..game.missednow import marked_missed
from ..game.views import state_view
from ..render.reports import shown


def report_views(table, reader: str, keep: bool = True, ruled=None) -> dict:
    """The views a report shows of the game now, each from the Table's kept copy when there
    is one (a report in four formats lists the reader's orders once); with keep False,
    each made, and not kept. ruled: the deadlines past their time as the next pass of tick
    rules them (missed, or `not_ruled` and why), as `status` shows them (Kind.report)."""
    game = table.game()
    state, data, game_id = game.state, game.data, game.game_id
    mode = game.header["dice"]["mode"]
    at, path = state.seq, table.path
    show = table.view(f"show:{reader}", _show_now, table, state, data, reader, game_id,
                      mode, keep=keep)
    board = table.view(f"board:{reader}", shown, board_view, at, path, state, data, reader,
                       show, keep=keep)
    # Made as `status` makes it (with the deadlines): kept under the same key, it is what
    # the reader's next `status` prints.
    status = table.view(f"status:{reader}", table.kind.status_view, table, reader, keep=keep)
    if status.get("deadlines"):         # a deadline passed since: said now, never kept
        status = {**status, "deadlines": marked_missed(status["deadlines"])}
        if ruled is not None:
            status = {**status, "deadlines": ruled(status["deadlines"])}
    return {"show": show, "board": board, "status": status}


def _show_now(table, state, data, reader: str, game_id: str, mode: str) -> dict:
    """The show view of the game now, as `show` makes it: closed, paused or outdated said
    so."""
    view = shown(state_view, state.seq, table.path, state, data, reader, game_id, None, mode)
    return halted(view, state, table.raw, lambda: table.records,
                  outdated_now(table.game(), table.path, table.games_dir))


def standing_of(table, reader: str) -> dict:
    """The sides' standing orders as kept for this game (none when the file is not this
    referee's: the report then asks every decision)."""
    if reader not in table.game().data.sides:
        return {}
    try:
        return standing.load(table.path, table.records[0]["hash"], table.raw)
    except UsageError:
        return {}
