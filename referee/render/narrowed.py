"""The orders open at a refused line, narrowed to the unit the line names: a typo in
'mvoe ge-2 liege' opened its reply with every move of every unit, sixty lines before the
decision. When the line names a unit that has orders open, those are listed (its own and
those of the units of its template, 8.1), with the orders of no unit ('end movement'); else
the whole list stays."""

from __future__ import annotations

from .grouped import UNIT_HEAD, _split


def _unit_of(order: str) -> str | None:
    """The unit an order is for ('move ge-2:cavalry eifel' -> 'ge-2:cavalry'), or None for
    an order of no unit (a card, 'end movement', a placement of an arrival by its kind)."""
    verb, head, _ = _split(order)
    words = head.split()
    if verb not in UNIT_HEAD or len(words) != 2 or "-" not in words[1]:
        return None
    return words[1]


def narrowed(legal: list[str], line: str) -> tuple[list[str], list[str]] | None:
    """(the orders kept, the units the line names) when the refused line names a unit with
    orders open in legal (a word of it, a unit's id; an army's names its template's units
    too); None when nothing narrows the list."""
    units = {u for u in map(_unit_of, legal) if u is not None}
    armies = {u.split(":")[0] for u in units}
    named = [w for w in dict.fromkeys(line.casefold().split()) if w in units or w in armies]
    if not named:
        return None
    kept = [o for o in legal if (u := _unit_of(o)) is None or u in named or
            u.split(":")[0] in named]
    if len(kept) == len(legal):
        return None
    return kept, named
