"""Units taken off and put on in the state: the pieces, templates and pools the handlers move;
and cards put onto a pile, which never holds more than the deck.

Shared by the handlers of every topic (apply_map, apply_combat,
apply_production, apply_turn): a unit leaves the map, and a card goes onto the discard
pile, the same way whatever event moves it.
"""

from __future__ import annotations

import msgspec

from ..data.gamedata import GameData
from .state import Army, Piece, State, template_key


def details(e) -> dict:
    """An event's details: from its secret part when it has one (hidden templates, 1.4)."""
    return e.secret.data if e.secret is not None else msgspec.structs.asdict(e)


def take_piece(s: State, ref: str) -> None:
    """Remove a stand-alone piece, or one unit from an army template (ARMY:nation:kind)."""
    if ref in s.pieces:
        del s.pieces[ref]
        return
    army, key = template_key(s, ref)
    contents = s.armies[army].contents
    contents[key] -= 1
    if not contents[key]:
        del contents[key]


def join(army: Army, key: str, n: int = 1) -> None:
    """Put n units of a kind on an army's template."""
    army.contents[key] = army.contents.get(key, 0) + n


def put_piece(s: State, pid: str, nation: str, kind: str, area: str,
              entrenched: bool = False) -> None:
    """Stand a unit alone on the map; ids are never reused, so the serial follows the id."""
    s.pieces[pid] = Piece(pid, nation, kind, area, entrenched)
    prefix, _, num = pid.rpartition("-")
    if num.isdigit():
        s.serial[prefix] = max(s.serial.get(prefix, 0), int(num))


def to_pool(s: State, nation: str, kind: str, n: int = 1) -> None:
    """n units of a kind go back to their force pool (11.1)."""
    row = s.pool.setdefault(nation, {})
    row[kind] = row.get(kind, 0) + n


def back_to_pool(s: State, ref: str, nation: str, kind: str) -> None:
    """A unit leaves the map, alone or from its template, for its force pool (5.3.1, 6.5)."""
    take_piece(s, ref)
    to_pool(s, nation, kind)


def add_unit(s: State, key: str, area: str, into: str | None, new_id: str | None) -> None:
    """A unit comes out of its force pool onto the map: alone as new_id, or into an army."""
    nation, kind = key.split(":")
    s.pool[nation][kind] -= 1
    if into:
        join(s.armies[into], key)
    else:
        put_piece(s, new_id, nation, kind, area)


def replace_unit(s: State, ref: str, key: str, new_id: str | None, d: GameData) -> None:
    """A unit of another kind (from the pool) takes the place of ref, alone or on its template."""
    nation, kind = key.split(":")
    if ref in s.pieces:
        old = s.pieces.pop(ref)
        put_piece(s, new_id, nation, kind, old.area,
                  old.entrenched and kind in d.units.entrenching)
    else:
        army_id, _ = template_key(s, ref)
        take_piece(s, ref)
        join(s.armies[army_id], key)
    s.pool[nation][kind] -= 1


def unmark(s: State, unit: str) -> None:
    """An eliminated unit's OoS marker comes off with it (AAC 1.2.3)."""
    if unit in s.oos:
        s.oos.remove(unit)


def within_the_deck(cards: list, d: GameData, where: str) -> None:
    """Each card of the game is in one place at a time, so no pile, hand or list of them
    holds more than the deck: a record that makes one hold more is none the referee writes
    (ValueError), and replaying never works over lists that grow without end."""
    if len(cards) > len(d.cards):
        raise ValueError(f"{where} would hold {len(cards)} cards, more than the game's deck "
                         f"of {len(d.cards)}")


def onto_discard(s: State, cards: list[str], d: GameData) -> None:
    """Cards onto the discard pile, face up (within_the_deck)."""
    s.discard.extend(cards)
    within_the_deck(s.discard, d, "the discard pile")
