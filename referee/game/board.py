"""The board for one reader: every area with who holds it, what stands there and what is
going on, and what lies off the map. Every report carries it (render/board.py lays it out).

It is made from the view `show` gives the same reader (views.state_view), which already
keeps from him what he may not see: another side's army contents under hidden army
templates (1.4), another side's hand and the draw pile (1.3), another side's force pool
when templates are hidden. What the board adds is public: the countries the map groups
its areas in (map.yaml `country_names`), each area's supply source (6.1) and whom it
supplies now (6.2, 6.3: no one while the other side holds its area), each fort's printed
strength and whether enemy units stand with it (8.4), the battle areas of the player turn
(5.1), and both sides' Build Points in a production phase until the plans are revealed
(7.0: announced to both before either orders, lost when not spent).
"""

from __future__ import annotations

from typing import Any

from ..base.readers import check_reader
from ..contracts.results import BoardView
from ..data.gamedata import GameData
from ..engine.state import State
from ..engine.supply import source_reach
from .endlevel import vp_level_name


def battle_status(state: State, data: GameData, area: str) -> str | None:
    """Whether the area is a Battle Area of this player turn: made Disputed by this offensive's
    movement, so its battle is compulsory (4.1, 5.1.1), or declared, being fought or fought
    in this combat phase (2.0 II.3, 5.1.2, 5.2)."""
    if state.battle is not None and state.battle.get("area") == area:
        return "fighting"
    combat = state.combat
    if combat is None:
        ts = state.turn_state
        if ts is not None and area in ts.became_disputed and state.disputed(area, data):
            return "compulsory"
        return None
    if area in combat.get("resolved", ()):
        return "fought"
    if area in combat.get("declared", ()):
        return "declared"
    return None


def fort_view(state: State, data: GameData, area: str) -> dict[str, Any] | None:
    """The area's fort as the map prints it and as it stands now (8.4): its owner, printed
    strength and strength now (None, not in play: destroyed or never set up)."""
    spec = data.areas[area].fort
    if spec is None:
        return None
    now = state.forts.get(spec.id)
    nation = now.nation if now is not None else spec.nation
    return {"id": spec.id, "name": spec.name, "nation": nation,
            "side": data.nation_side.get(nation), "printed": spec.strength,
            "strength": now.strength if now is not None else None, "in_play": now is not None}


def _area(state: State, data: GameData, area, shown: dict[str, Any]) -> dict[str, Any]:
    """One area of the board: the view's control and units (forts apart), and what the map
    and the player turn add."""
    units = [u for u in shown["units"] if u["type"] != "fort"]
    fort = fort_view(state, data, area.id)
    if fort is not None:
        # Besieged: units of the other side stand in its area (it makes the area Disputed,
        # 4.1, unless it is down to strength 1 or 0, 8.4).
        fort["besieged"] = fort["in_play"] and any(u["side"] != fort["side"] for u in units)
        fort["oos"] = any(u.get("oos") for u in shown["units"] if u["id"] == fort["id"])
    out = {"id": area.id, "name": shown["name"], "control": shown["control"],
           "vp": shown["vp"], "supply_source": area.supply_source, "units": units,
           "fort": fort, "battle": battle_status(state, data, area.id)}
    if area.supply_source:
        # A source supplies its side only while he holds its area (6.2, 6.3).
        out["supplies"] = source_reach(state, data, area.id)
    return out


def _countries(state: State, data: GameData, areas: dict[str, Any]) -> list[dict[str, Any]]:
    """The areas in the countries of map.yaml `country_names`, in its order (a country it
    does not name, in data that names none, under its id, after them)."""
    by_country: dict[str, list] = {}
    for a in data.map.areas:
        by_country.setdefault(a.country, []).append(a)
    names = {c.id: c.name for c in data.map.country_names}
    order = [c for c in names if c in by_country] + [c for c in by_country if c not in names]
    return [{"id": c, "name": names.get(c, c),
             "areas": [_area(state, data, a, areas[a.id]) for a in by_country[c]]}
            for c in order]


def _cards(view: dict[str, Any], data: GameData) -> dict[str, Any]:
    """The reader's own hand (a side's), both hands for the moderator; hand sizes and the
    piles' sizes for everyone (1.3: as `show` gives them)."""
    return {"hand": view["hand"] if view["reader"] in data.sides else None,
            "hands": view.get("hands"),
            "hand_sizes": view["hand_sizes"],
            "draw_pile": view["deck"]["draw_pile"],
            "discard": len(view["deck"]["discard"])}


def board_view(state: State, data: GameData, reader: str, view: dict[str, Any]
               ) -> dict[str, Any]:
    """The board for reader (JSON-ready, contracts.results.BoardView), made from `view`, the
    state_view of the same state for the same reader."""
    check_reader(reader, data.sides)
    if view["reader"] != reader or view["seq"] != state.seq:
        raise ValueError(f"the board for {reader} at record {state.seq} is made from the view "
                         f"of {view['reader']} at record {view['seq']}")
    # Build Points mean something only until both plans are revealed: the plans are carried
    # out at once, and what is not spent then is lost (7.0); the discards and losses that
    # may follow in the phase spend none.
    production = state.production if state.phase == "production" else None
    bp = None if not production or production.get("revealed") else production.get("bp")
    return BoardView.plain(
        reader=reader,
        turn=state.turn,
        label=view["label"],
        phase=state.phase,
        countries=_countries(state, data, view["areas"]),
        vp={"total": view["vp"]["total"], "level": view["vp"].get("vp_level", view["vp"]["level"]),
            "level_name": vp_level_name(view["vp"])},   # the chart's, as the board gives it
        cards=_cards(view, data),
        eft_box=view["eft_box"],
        eliminated_armies=view["eliminated_armies"],
        force_pool=view["force_pool"],
        nation_names=view["nation_names"],
        build_points={s: bp[s] for s in data.sides if s in bp} if bp else None,
    )
