"""How each event changes the state: the handlers behind events.evolve.

One function per event type, by topic as the events are: apply_turn,
apply_map, apply_combat, apply_production, each with its table BY_TYPE by event class. They
apply facts and check nothing: legality was settled by decide() before the
event was written.
"""

from __future__ import annotations

from . import apply_combat, apply_map, apply_production, apply_turn
from .evolve import BOARD_AREAS, HANDLERS


def _no_areas(state, event, data) -> tuple:
    return ()


def _tags(by_class: dict) -> dict:
    """A table by event class as evolve reads it: by the event's `type`."""
    return {cls.__struct_config__.tag: value for cls, value in by_class.items()}


for _part in (apply_turn, apply_map, apply_combat, apply_production):
    HANDLERS.update(_tags(_part.BY_TYPE))
    BOARD_AREAS.update(_tags(dict.fromkeys(_part.NO_UNIT_MOVES, _no_areas)))
    BOARD_AREAS.update(_tags(getattr(_part, "BOARD_AREAS", {})))
