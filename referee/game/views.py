"""What one reader may see: views of the state and of journal records.

A reader is one of the game's sides, `public` or `moderator` (readers.py).
A side sees its own hand and only the size of the other; the public sees
hand sizes only; the moderator sees both hands. Records are redacted for a
reader with journal.redact (secret parts become digests, so an export still
verifies).
"""

from __future__ import annotations

from typing import Any

import msgspec

from ..base.errors import cited
from ..base.readers import MODERATOR, PUBLIC, check_reader, may_see
from ..contracts.gamemodels import Terms
from ..contracts.views import StateView, StatusView
from ..data.gamedata import GameData, fold
from ..engine import acting, check, legal_orders, pending_prompt, waiting_on
from ..engine.core import DECISIONS
from ..engine.order_text import format_order
from ..engine.state import State, contents_text, other
from ..engine.victory import level_of, vp_breakdown
from .endlevel import at_the_end


def card_view(card: str, data: GameData) -> dict:
    """A card as shown in a hand: its id, key and title."""
    ct = data.cards[card]
    return {"id": card, "key": ct.key, "title": ct.title}


def army_view(state: State, data: GameData, army, reader: str) -> dict:
    """An army as a reader sees it: its contents and strength hidden from another side
    when army templates are hidden (option 1.4)."""
    side = data.nation_side[army.nation]
    secret = state.options.get("hidden_templates", False) and not may_see(reader, side)
    return {
        "id": army.id, "side": side, "nation": army.nation, "type": "army", "name": army.name,
        "entrenched": army.entrenched,
        "strength": None if secret else army.strength,
        "contents": None if secret else dict(sorted(army.contents.items())),
        "summary": "hidden" if secret else contents_text(army.contents, army.nation, data),
    }


def box_views(state: State, data: GameData, reader: str) -> list[dict]:
    """The units in the Eastern Front Transit box as a reader sees them (1.4), or none when
    the game has no such box."""
    if data.eft_box is None:
        return []
    out = [army_view(state, data, a, reader) for a in state.armies.values()
           if a.status == "eft"]
    return out + [u for u in unit_views(state, data, data.eft_box.id, reader)
                  if u["type"] != "army"]


def unit_views(state: State, data: GameData, area: str, reader: str) -> list[dict]:
    """The units in an area as a reader sees them (hidden templates, option 1.4)."""
    return units_by_area(state, data, reader, (area,)).get(area, [])


def units_by_area(state: State, data: GameData, reader: str,
                  only: tuple[str, ...] | None = None) -> dict[str, list[dict]]:
    """The units of each area where any stand (of the areas `only` names, when given) as a
    reader sees them, in one pass over the units: a view of the whole map, asking area by
    area, went over every unit for each of its sixty areas."""
    by_area: dict[str, list[dict]] = {}
    for a in state.armies.values():
        if a.status == "map" and (only is None or a.area in only):
            by_area.setdefault(a.area, []).append(army_view(state, data, a, reader))
    for p in state.pieces.values():
        if only is None or p.area in only:
            by_area.setdefault(p.area, []).append({
                "id": p.id, "side": data.nation_side[p.nation], "nation": p.nation,
                "type": p.kind, "entrenched": p.entrenched, "strength": 1})
    for f in state.forts.values():
        if only is None or f.area in only:
            by_area.setdefault(f.area, []).append({
                "id": f.id, "side": data.nation_side[f.nation], "nation": f.nation,
                "type": "fort", "name": data.forts[f.id][1].name, "strength": f.strength})
    for units in by_area.values():
        for u in units:
            if u["id"] in state.oos:           # an Out of Supply marker on it (1.2.3, 6.5)
                u["oos"] = True
    return by_area


def _terms(view: dict[str, Any], data: GameData) -> dict[str, Any]:
    """Add the game's words for the steps of play when they are not TTLM's (AAC: 'impulse'
    for the player turn), so that a TTLM view stays exactly as it was."""
    if data.info.terms != Terms():
        view["terms"] = msgspec.to_builtins(data.info.terms)
    return view


def state_view(state: State, data: GameData, reader: str, game_id: str = "",
               seq: int | None = None, dice: str = "committed") -> dict[str, Any]:
    """Everything `show` prints, for one reader (JSON-ready); `dice` is the game's dice mode
    (record 0): committed, or manual (rolled by the players)."""
    check_reader(reader, data.sides)
    hidden = state.options.get("hidden_templates", False)
    t = data.turn(state.turn)
    breakdown = vp_breakdown(state, data)
    total = sum(v for _, v in breakdown)
    level = level_of(total, data)
    units, areas = units_by_area(state, data, reader), {}
    for a in data.map.areas:
        areas[a.id] = {"name": a.name, "control": state.area_state(a.id, data), "vp": a.vp,
                       "units": units.get(a.id, [])}
    # With hidden templates (1.4) another side's pool would give away what its armies hold
    # (the counter mix less the pool and the units standing alone).
    pool = {n: {k: c for k, c in row.items() if c} for n, row in sorted(state.pool.items())
            if not hidden or may_see(reader, data.nation_side[n])}
    view: dict[str, Any] = {
        "game_id": game_id or state.game_id,
        "game_name": data.info.name,
        "scenario": state.scenario,
        "seq": state.seq if seq is None else seq,
        "reader": reader,
        "turn": state.turn,
        "last_turn": max(data.turns),
        "season": t.season,
        "year": t.year,
        "label": t.label,
        "phase": state.phase,
        "player": state.player,
        "dice": dice,
        "waiting_on": state.pending.side if state.pending else None,
        # Both sides, while both owe a sealed plan (2.0 I, 2.0 V.3): as `status` names them.
        "waiting_on_all": waiting_on(state),
        "decision": state.pending.kind if state.pending else None,
        "prompt": pending_prompt(state, data, reader),
        "vp": at_the_end({"total": total, "level": level.id, "level_name": level.name,
                          "breakdown": [{"label": lbl, "vp": v} for lbl, v in breakdown]},
                         state.result),
        "areas": areas,
        "hand_sizes": {s: len(state.hands.get(s, [])) for s in data.sides},
        "deck": {"draw_pile": len(state.draw_pile),
                 "discard": [card_view(c, data) for c in state.discard],
                 "removed": [card_view(c, data) for c in state.removed_cards]},
        "eliminated_armies": sorted(a.id for a in state.armies.values()
                                    if a.status == "eliminated"),
        # None: the game's data has no such box (AAC), so no view speaks of it.
        "eft_box": sorted([a.id for a in state.armies.values() if a.status == "eft"] +
                          [p.id for p in state.pieces.values() if p.area == data.eft_box.id])
        if data.eft_box else None,
        "force_pool": pool,
        "nation_names": {n: data.units.nations[n].name for n in pool},
        "options": dict(state.options),
        # The optional rules in play, each with its rule, for a reader to be told of them.
        "option_rules": {k: spec.rule for k, spec in data.info.options.items()
                         if state.options.get(k)},
        "game_over": state.phase == "over",
        "result": state.result,
    }
    _terms(view, data)
    if reader == MODERATOR:
        view["hand"] = []
        view["hands"] = {s: [card_view(c, data) for c in state.hands.get(s, [])]
                         for s in data.sides}
    elif reader not in data.sides:              # the public: sizes only
        view["hand"] = []
        view["locked"] = []
    else:
        view["hand"] = [card_view(c, data) for c in state.hands.get(reader, [])]
        view["locked"] = list(state.locked.get(reader, []))
    return StateView.plain(**view)


# Words the order reader takes for keywords inside an order (reading.py): an area of that
# name is shown by id in the grouped orders.
_KEYWORDS = ("into", "taking", "to", "in", "at", "on", "from", "out", "via")


def _order_word(word: str) -> bool:
    """Whether a word of an area's name is one the order reader takes for a name's word."""
    return bool(word) and word[0].isalnum() and all(c.isalnum() or c in "-'." for c in word) \
        and word.casefold() not in _KEYWORDS


def _reads_back(name: str, area_id: str, data: GameData) -> bool:
    """Whether a name, typed in an order, reads back as exactly this area (reading.py reads
    a name of several words whole, 1.1)."""
    return bool(name) and all(_order_word(w) for w in name.split()) \
        and data.area_names.get(fold(name)) == [area_id]


def readable_name(area_id: str, data: GameData) -> str:
    """The name an order may give an area in the grouped orders, the plans and the events:
    its display name, the one the board and the map show, when typed in an order it reads
    back as exactly this area (reading.py; 'Upper Hungary', of two words); else the last
    of its words that does; else its id (4.1)."""
    name = data.areas[area_id].name or ""
    words = [name] + name.split()[::-1] if " " in name else [name]
    return next((w for w in words if _reads_back(w, area_id, data)), area_id)


def order_aids(state: State, data: GameData, side: str | None) -> dict[str, Any]:
    """What the grouped orders need beside the flat list: area names (the word an order may
    give, and the name the board shows, for a list of areas), and the areas Enemy to the
    side whose orders they are (5.1.1: entering one with enemy units makes a battle)."""
    if not side:
        return {"names": {}, "titles": {}, "enemy": []}
    from .retreatnote import retreat_notes  # start-up: a battle's retreat alone
    return {"names": {a.id: readable_name(a.id, data) for a in data.map.areas},
            "titles": {a.id: a.name for a in data.map.areas if a.name},
            "enemy": sorted(a.id for a in data.map.areas
                            if state.status(a.id, side, data) == "enemy"),
            "notes": retreat_notes(state, data, side)}


def owed_words(state: State, data: GameData, side: str | None, legal: list[str]) -> dict:
    """What side, asked now, owes before his 'done' is taken ({"owed": words}): the reason
    the engine's own check refuses 'done' (a retreat a rule compels, a unit to place), with
    its rule; {} when 'done' is open, or not an answer to this decision."""
    p = state.pending
    if side is None or p is None or "done" in legal or not acting(state, side) or \
            "done" not in DECISIONS[p.kind].accepts:
        return {}
    from ..contracts.orders import Done  # start-up: only a side's view of a game in play

    v = check(state, data, Done(), side)
    return {"owed": cited(v.reason, v.rule)} if v is not None else {}


def status_view(state: State, data: GameData, reader: str | None = None, game_id: str = "",
                seq: int | None = None, dice: str = "committed") -> dict[str, Any]:
    """Whose decision it is, what kind, and the legal orders (for `status`); `dice` as in
    state_view."""
    waiting = state.pending.side if state.pending else None
    reader = check_reader(reader or PUBLIC, data.sides)
    # The public sees no orders; the moderator sees those of the side waited on.
    side = reader if reader in data.sides else waiting if reader == MODERATOR else None
    all_waiting = waiting_on(state)
    legal = [format_order(o) for o in legal_orders(state, data, side)] if side else []
    return StatusView.plain(**_terms({
        "game_id": game_id or state.game_id,
        "seq": state.seq if seq is None else seq,
        "reader": reader,
        "game_name": data.info.name,
        "game": data.info.id,
        "scenario": state.scenario,
        "turn": state.turn,
        "label": data.label(state.turn),
        "phase": state.phase,
        "dice": dice,
        "player": state.player,
        "waiting_on": waiting,
        "waiting_on_all": all_waiting,
        "decision": state.pending.kind if state.pending else None,
        "prompt": pending_prompt(state, data, reader),
        "legal_for": side,
        "legal": legal,
        **(owed_words(state, data, side, legal) if state.phase != "over" else {}),
        "game_over": state.phase == "over",
        "result": state.result,
        # an armistice proposed waits for the other side's answer (3.2), while the game goes on
        **({"armistice": state.armistice, "armistice_to": other(state.armistice, data),
            "armistice_heard": state.armistice_heard}
           if state.armistice is not None and state.phase != "over" and not state.revealed
           else {}),
    }, data))


def readable_status_view(state: State, data: GameData, reader: str | None = None,
                         game_id: str = "", dice: str = "committed") -> dict[str, Any]:
    """status_view with what the grouped orders need under '_aids' (order_aids): kept with a
    cached view for the text formats, taken out before any JSON is printed (2.0)."""
    view = status_view(state, data, reader, game_id, dice=dice)
    view["_aids"] = order_aids(state, data, view["legal_for"])
    return view
