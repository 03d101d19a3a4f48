"""Did you mean: the nearest names to a misspelt area, unit id or card in a rejected order.

Areas are public (1.1): every area name may be suggested. Unit ids and cards
are drawn only from what the order's reader may see (views.py): the units on
the map as `show` shows them to him (an army template of the other side under
option hidden_templates, 1.4, gives no unit on it), the public EFT box and
eliminated armies, his own armies and units wherever they are; cards only
from his own hand (never another hand or the draw pile, 1.3). A suggestion
is worked out from the words typed and that reader's view alone, so whether
one is given tells him nothing either.
"""

from __future__ import annotations

from ..base.errors import OrderError
from ..base.nearness import did_you_mean, nearest
from ..data.gamedata import GameData, fold
from ..engine.movement import template_ref
from ..engine.reading import area_choices
from ..engine.state import State
from .views import unit_views

# Order fields that name a unit, an area or a card (engine/order_text.py).
_UNIT_FIELDS = ("unit", "army", "into")
_UNIT_LISTS = ("taking", "units")
_AREA_FIELDS = ("area", "to")
_CARD_FIELDS = ("card",)


def visible_units(state: State, data: GameData, reader: str) -> dict[str, str]:
    """Every unit id the reader may see (folded id -> id): the map as unit_views shows it to
    him (a template's units only where its contents are shown, 1.4), the EFT box and the
    eliminated armies (public, 2.0 V.4, 5.4), and his own armies and units anywhere."""
    ids: list[str] = []
    for area in data.areas:
        for u in unit_views(state, data, area, reader):
            ids.append(u["id"])
            if u["type"] == "army" and u.get("contents"):
                army = state.armies[u["id"]]
                ids += [template_ref(army, key) for key in u["contents"]]
    for a in state.armies.values():
        side = data.nation_side[a.nation]
        if a.status in ("eft", "eliminated") or side == reader:
            ids.append(a.id)
    box = data.eft_box.id if data.eft_box else None
    for p in state.pieces.values():
        if p.area not in data.areas and (p.area == box or
                                         data.nation_side[p.nation] == reader):
            ids.append(p.id)
    return {fold(i): i for i in ids}


def hand_cards(state: State, data: GameData, reader: str) -> dict[str, str]:
    """The cards in the reader's own hand (folded key, title or id -> key, the word an order
    takes: 'entente_military_crisis', not its title), 1.3."""
    out: dict[str, str] = {}
    for card in state.hands.get(reader, []):
        ct = data.cards[card]
        for n in (ct.key, ct.title, card):
            out.setdefault(fold(n), ct.key)
    return out


def _unknown_names(order, state: State, data: GameData, reader: str, units: dict[str, str]
                   ) -> tuple[str, list[str]] | None:
    """(what was typed, the names nearest to it) for the first name in a parsed order that
    names no unit the reader may see, no area or no card (JSON orders name ids raw)."""
    nations = set(data.units.nations)
    for f in _UNIT_FIELDS + _UNIT_LISTS:
        value = getattr(order, f, None)
        for ref in ((value,) if isinstance(value, str) else value or ()):
            if ref.partition(":")[0] in nations:        # 'ge:infantry': a kind, not a unit
                continue
            if fold(ref) not in units or units[fold(ref)].casefold() != ref.casefold():
                return ref, nearest(ref, units)
    for f in _AREA_FIELDS + ("path",):
        value = getattr(order, f, None)
        for area in ((value,) if isinstance(value, str) else value or ()):
            if area not in data.areas and area not in data.impassable:
                return area, nearest(area, area_choices(data))
    cards = [getattr(order, f, None) for f in _CARD_FIELDS] + list(getattr(order, "cards", ()))
    for card in cards:
        if isinstance(card, str) and card not in data.card_types and card not in data.cards:
            return card, nearest(card, hand_cards(state, data, reader))
    return None


def amend(exc: OrderError, order, state: State, data: GameData, reader: str) -> OrderError:
    """The rejection of an order, with 'did you mean' at its end when the order names a unit,
    an area or a card that the reader cannot see or the game does not have (1.1, 1.3, 1.4)."""
    if getattr(exc, "suggested", False) or state is None:
        return exc
    unknown = getattr(exc, "unknown", None)
    names: list[str] = []
    if unknown is not None and unknown[0] != "verb":  # the order could not be read
        kind, words = unknown
        choices = hand_cards(state, data, reader) if kind == "card" else \
            visible_units(state, data, reader)
        names = nearest(words[:1] if kind == "unit" else words, choices)
    elif order is not None and not isinstance(order, OrderError):
        found = _unknown_names(order, state, data, reader, visible_units(state, data, reader))
        names = found[1] if found else []
    exc.suggested = True
    if names:
        exc.args = (f"{exc}{did_you_mean(names)}",)
    return exc
