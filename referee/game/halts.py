"""A game that takes no orders now, though it is not over, as the views say it: closed for
good (its dice secret revealed before its end, or a journal holding its header alone) or
paused until the moderator resumes it; or played under older rules or other game data
than this referee decides under, until the moderator upgrades it (outdated). Worked out
from the refusal every order meets then (timeline.taking_orders, and replay.check_current
before it, the ones `order` and a mail pass give), never by checks of its own: a view lists
the orders `order` takes now (2.0), and none while it takes none. A game over says so by
its own keys (`game_over`, `result`, 3.0)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..base.readers import MODERATOR
from ..contracts.views import StateView, StatusView
from ..engine.state import State
from .pausedby import pause_of

if TYPE_CHECKING:
    from .timeline import NoOrdersTaken


def halt_of(state: State, raw: bytes) -> NoOrdersTaken | None:
    """The refusal any order to the game (its state, its journal's bytes raw) meets now, in
    a player's words; None while it takes orders, and once it is over (3.0)."""
    if not (state.revealed or state.pending is None or pause_of(raw) is not None):
        return None         # nothing that halts a game: no refusal to look for
    # start-up: the deadlines' module only for a game that may be halted
    from .timeline import GameOver, NoOrdersTaken, taking_orders

    try:
        taking_orders(state, raw)
    except GameOver:
        return None
    except NoOrdersTaken as exc:
        return exc
    return None


def outdated_now(game, path: Path, games_dir: Path | None) -> tuple[dict, str] | None:
    """What `outdated` says of a game (a replay.Game) that takes no orders until the
    moderator upgrades it, with the words of the refusal `order` gives then (path: the
    journal, as the command names it); None while it is under the current rules and data."""
    from .replay import outdated, outdated_words  # start-up: loaded by a read already

    older = outdated(game, games_dir)
    return None if older is None else (older, outdated_words(older, path))


def halted(view: dict[str, Any], state: State, raw: bytes, records: Callable[[], list[dict]],
           older: tuple[dict, str] | None = None) -> dict[str, Any]:
    """The status or show view (by its `legal`) as the reader reads it while the game takes
    no orders: nobody waited on, nothing asked and no order open, the refusal's words for
    its prompt, no deadline running while outdated (as once closed), and `closed`, `paused`
    or `outdated` saying why (since which record; a
    pause: what the game asks once it resumes; older rules: outdated_now, whose refusal
    `order` gives first, a pause said beside it); the view as it is while orders are taken,
    or once the game is over. records: the journal's, each at its seq, asked only for a game
    halted (a read of a game that takes orders checks no record twice)."""
    if view["game_over"]:
        return view
    halt = halt_of(state, raw)
    if halt is None and older is None:
        return view
    if halt is not None and halt.halted != "paused":
        older = None            # closed for good: no upgrade opens it again
    shape = StatusView if "legal" in view else StateView
    aids = view.get("_aids")
    out = {k: v for k, v in view.items() if k not in ("_aids", "owed")}
    out.update(waiting_on=None, waiting_on_all=[], decision=None,
               prompt=str(halt) if older is None else older[1])
    if shape is StatusView:
        out["legal"] = []
        if out["reader"] == MODERATOR:      # he reads the orders of the side waited on: none
            out["legal_for"] = None
    if older is not None:
        out["outdated"] = older[0]
        if out.get("deadlines"):    # no pass of tick plays it: none runs, as once closed
            out["deadlines"] = {**out["deadlines"], "due": []}
    pause = pause_of(raw) if halt is not None and halt.halted == "paused" else None
    if pause is not None:
        out["paused"] = {"by": pause.cause, "seq": pause.seq, "at": records()[pause.seq]["at"],
                         "side": pause.side, "waiting_on_all": view["waiting_on_all"],
                         "decision": view["decision"], "prompt": view["prompt"]}
    elif halt is not None:
        from .timeline import unset  # start-up: loaded by halt_of already
        seq = 0 if unset(state) else state.seq     # no record may follow the reveal
        out["closed"] = {"why": "no_setup" if unset(state) else "revealed", "seq": seq,
                         "at": records()[seq].get("at") or records()[seq].get("created_at")}
    out = shape.plain(**out)
    return out if aids is None else {**out, "_aids": aids}
