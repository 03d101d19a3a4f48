"""The rules version: which referee rules a journal record was decided under.

RULES_VERSION goes up by one whenever `decide` changes what it accepts or
what it produces for some order (a rule read anew, a card effect corrected).
A journal names the version it is played under in its header
(`rules_version`) and in every `upgrade` record; a header without the field
was written before versions were kept: version 1.

Replay never decides again: a record is replayed from its events. An event
written under an older version whose shape or meaning has since changed is
brought forward by the hooks below, so old records stay readable:

- EVENT_UPCASTERS[v][type](event dict) -> event dict: the event as version
  v + 1 writes it (applied step by step, before the event is validated);
- EVOLVE_AS[v][type](state, event, data): how an event of version v changes
  the state, where that differs from today's `evolve`.

Both tables are empty while nothing needs them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..base.rules import FIRST_RULES_VERSION, RULES_VERSION

EVENT_UPCASTERS: dict[int, dict[str, Callable[[dict], dict]]] = {}
EVOLVE_AS: dict[int, dict[str, Callable[[Any, Any, Any], None]]] = {}


def rules_of_header(header: dict) -> int:
    """The rules version record 0 names (1 when it names none: journals before versions)."""
    version = header.get("rules_version", FIRST_RULES_VERSION)
    return version if type(version) is int else -1


def upcast_events(events: list, rules: int) -> list:
    """The event dicts of a record made under `rules`, brought to the current version."""
    for version in range(rules, RULES_VERSION):
        table = EVENT_UPCASTERS.get(version)
        if table:
            events = [table[e["type"]](dict(e)) if isinstance(e, dict) and e.get("type")
                      in table else e for e in events]
    return events
