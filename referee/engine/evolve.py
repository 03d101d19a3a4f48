"""Events: past-tense facts written in the journal, and evolve(), which applies them.

Every event is a contract class tagged by `type`, defined by topic in
referee/contracts/events_*.py; the union of them all (contracts/events.py) is
what a record's `events` hold. evolve() never
checks anything: legality was settled by decide() before the event was
written. A secret part (a drawn card, a shuffled deck) sits in `secret` as
{to, salt, data}; other readers see only its digest (journal.redact). With
hidden army templates (option 1.4) the details of what enters or leaves an
army template outside a battle are such a part, for the owner's eyes: the
public fields then say only what anyone may know, and evolve reads the
details from the secret.
"""

from collections.abc import Callable
from typing import Any

import msgspec

from ..base.structs import plain
from ..contracts.events import Event
from ..contracts.events_base import Ev
from ..data.gamedata import GameData
from .armistice_heard import HEARD_AFTER, note_heard
from .state import KEPT_BOARD, State
from .versions import EVOLVE_AS, RULES_VERSION

# Each event class keeps its tag as a plain class attribute: the `type` property would build
# msgspec's config object on every read, and replaying reads it for every event.
for _cls in Event.__args__:
    _cls.type = _cls.__struct_config__.tag


def parse_events(raw: list[dict]) -> list[Ev]:
    """Validate the events of one journal record (msgspec.ValidationError when malformed)."""
    return msgspec.convert(raw, list[Event])


def dump(event: Ev) -> dict:
    """An event as the JSON object written in the journal."""
    return plain(event)


# ---------------------------------------------------------------- evolve

# How each event type changes the state: apply.py fills this table from its topic modules
# (the engine package imports it), so that this module, which they read the event models
# beside, needs nothing of theirs.
HANDLERS: dict[str, Callable[[State, Any, GameData], None]] = {}


# Which map areas' units an event may change, asked of the state before it is applied
# (apply.py fills it from its topic modules): an empty tuple for an event that moves, adds
# and removes no unit, the areas of a move for a move. After any other event, and after any
# event of older rules, the board is worked out again whole (state.board).
BOARD_AREAS: dict[str, Callable[[State, Any, GameData], Any]] = {}


# What an event type leaves valid of the answers worked out before it, as entries for the
# state's cache after it (sealed.py: a plan's worked-out state survives sealing an order).
# The module that works an answer out registers what keeps it, at its import: before that
# import no cache holds one of its answers, and its entry would carry nothing, so what a
# state carries does not depend on whether the rules' modules were loaded yet.
KEEPS: dict[str, Callable[[dict], dict]] = {}


def evolve(state: State, event: Ev, data: GameData, rules: int = RULES_VERSION) -> State:
    """Apply one event to the state in place and return it; never checks legality. An event
    of a record made under older rules (`rules`) evolves as those rules had it (versions.py)."""
    kind = event.type
    current = HANDLERS[kind]
    older = EVOLVE_AS.get(rules)            # None under the current rules
    handler = older and older.get(kind) or current
    cache = state._cache
    if cache or kind in KEEPS:
        _evolve_keeping(state, event, data, handler, handler is current)
        return state
    # Nothing worked out before it, so nothing to keep through it: a replay's every event but
    # a sealed plan's (about 6,900 in a cold read of a campaign).
    handler(state, event, data)
    if state.armistice is not None and kind in HEARD_AFTER:     # a proposal open (3.2)
        note_heard(state, event, data)
    if cache:
        cache.clear()
    return state


def _evolve_keeping(state: State, event: Ev, data: GameData, handler: Callable,
                    current: bool) -> None:
    """evolve with the state's cache holding answers worked out before the event: those the
    event leaves valid are kept through it (the board, KEEPS)."""
    kind = event.type
    cache = state._cache
    board = cache.get("board")          # kept: (a board, the areas touched since), or None
    kept = (board, _NONE) if board is not None else cache.get(KEPT_BOARD)
    # With no board kept, none is kept after: a replay reads one only at a player turn's
    # start, and working out the areas of every move between two of them costs more than
    # the whole board at each (a cold read of a campaign: 1,487 moves against 94 boards).
    touched = BOARD_AREAS.get(kind) if kept is not None and current else None
    areas = touched(state, event, data) if touched is not None else None
    keep = KEEPS.get(kind) if current else None
    carried = keep(cache) if keep is not None else None
    unmoved = areas is not None and not areas
    cache.clear()
    if unmoved:                         # its handler may read the board, which stays as it is
        cache[KEPT_BOARD] = kept
    handler(state, event, data)
    if state.armistice is not None and kind in HEARD_AFTER:     # a proposal open (3.2)
        note_heard(state, event, data)
    board = cache.get("board") if unmoved else None
    cache.clear()
    if carried:
        cache.update(carried)
    if board is not None:
        cache[KEPT_BOARD] = (board, _NONE)
    elif areas is not None:             # worked out at the board's next read (state.board)
        cache[KEPT_BOARD] = (kept[0], kept[1] | set(areas)) if areas else kept


_NONE: frozenset = frozenset()
