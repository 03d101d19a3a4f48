"""Events: the past-tense facts a journal record holds, one union tagged by `type`.

The members are defined by topic (events_turn, events_map, events_combat,
events_production); `schemas/events.json` is generated from this union.
"""

from typing import Union

from . import events_combat, events_map, events_production, events_turn
from .events_base import Ev


def _defined(*modules) -> tuple[type[Ev], ...]:
    """The events the modules define, module by module, each in the order of its source."""
    return tuple(cls for m in modules for cls in vars(m).values()
                 if isinstance(cls, type) and issubclass(cls, Ev) and cls.__module__ == m.__name__)


# Every event a journal record may hold, in the order of schemas/events.json.
EVENTS = _defined(events_turn, events_map, events_combat, events_production)
Event = Union[EVENTS]  # noqa: UP007 - a union of a tuple of classes built at run time
