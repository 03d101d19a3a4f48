"""The names the data files and scenarios use: every side, nation, unit kind and country one
names is one the game declares (sides, nations and unit_types in units.yaml; countries in
map.yaml and the nations' home countries), reported once, where it is written."""

from __future__ import annotations

from ..base.readers import MODERATOR, PUBLIC
from .datacheck import Known, Names, placements
from .gamedata import GameData
from .scenariomodels import Scenario


def check_names(data: GameData) -> list[str]:
    """Every name the game's files use that the game does not declare, file by file, and the
    few checks that must hold before any other check can trust a name."""
    return [*_check_sides(data), *_check_nation_names(data), *_check_counter_names(data),
            *_check_map_names(data), *_check_movement_names(data), *_check_placements(data),
            *_check_victory_names(data), *_check_build_point_names(data),
            *_check_yearly_chart_names(data), *_check_deck_names(data),
            *_check_event_names(data)]


def _check_sides(data: GameData) -> list[str]:
    """Two sides, neither named like a reader, in an order of play that lists each (2.0)."""
    out: list[str] = []
    known = Names(data, out)
    fu, u = data.info.files.units, data.units
    if len(u.sides) != 2:
        out.append(f"{fu}: sides: a game has two sides, {len(u.sides)} are listed (2.0)")
    for side in u.sides:
        if side in (PUBLIC, MODERATOR):
            out.append(f"{fu}: sides.{side}: {side!r} names a reader (--as {side}), "
                       "not a side: that reader would see the side's secrets")
    order_known = [known("side", side, f"{fu}: side_order") for side in u.side_order]
    if all(order_known) and sorted(u.side_order) != sorted(u.sides):
        out.append(f"{fu}: side_order: must list each side of `sides` once "
                   f"({', '.join(u.sides)})")
    return out


def _check_nation_names(data: GameData) -> list[str]:
    """The nations of each side, each nation's side and reinforcement country, and the sides
    given colours (units.yaml)."""
    out: list[str] = []
    known = Names(data, out)
    fu, u = data.info.files.units, data.units
    for side, nats in u.sides.items():
        for nat in nats:
            known("nation", nat, f"{fu}: sides.{side}")
    for nat, nation in u.nations.items():
        known("side", nation.side, f"{fu}: nations.{nat}.side")
        if nation.reinforcements_in is not None:
            known("country", nation.reinforcements_in, f"{fu}: nations.{nat}.reinforcements_in")
    for side in u.side_colours:
        known("side", side, f"{fu}: side_colours.{side}")
    return out


def _check_counter_names(data: GameData) -> list[str]:
    """The counter mix (a note and a mapping per nation), the nations with dated counters and
    the nations of each unit type (units.yaml)."""
    out: list[str] = []
    known = Names(data, out)
    fu, u = data.info.files.units, data.units
    for nat, row in u.counter_mix.items():
        if nat == "source":
            if not isinstance(row, str):
                out.append(f"{fu}: counter_mix.source: a note (text), not a mapping")
        elif not isinstance(row, dict):
            out.append(f"{fu}: counter_mix.{nat}: a mapping of unit kind to count, not text")
        elif known("nation", nat, f"{fu}: counter_mix.{nat}"):
            for kind in row:
                known("unit kind", kind, f"{fu}: counter_mix.{nat}.{kind}")
    for nat in u.biplane_counter_years:
        known("nation", nat, f"{fu}: biplane_counter_years.{nat}")
    for kind, ut in u.unit_types.items():
        for nat in ut.nations:
            known("nation", nat, f"{fu}: unit_types.{kind}.nations")
    return out


def _check_map_names(data: GameData) -> list[str]:
    """Each area's country, supply sources and fort nation, and each box's owner (map.yaml)."""
    out: list[str] = []
    known = Names(data, out)
    fm = data.info.files.map
    for a in data.map.areas:
        where = f"{fm}: areas.{a.id}"
        known("country", a.country, f"{where}.country")
        for key in ("supply_source", "conditional_supply_source"):
            if getattr(a, key) is not None:
                known("side", getattr(a, key), f"{where}.{key}")
        if a.fort:
            known("nation", a.fort.nation, f"{where}.fort.nation")
    for b in data.map.boxes:
        known("side", b.owner, f"{fm}: boxes.{b.id}.owner")
    return out


def _check_movement_names(data: GameData) -> list[str]:
    """Who may move strategically and by sea (game.yaml movement, 4.5, 4.6)."""
    out: list[str] = []
    known = Names(data, out)
    mv = data.info.movement
    if mv.strategic is not None:
        for side in mv.strategic.sides:
            known("side", side, "game.yaml: movement.strategic.sides")
    if mv.sea is not None:
        for nat in mv.sea.nations:
            known("nation", nat, "game.yaml: movement.sea.nations")
    return out


def _check_placements(data: GameData) -> list[str]:
    """Where each reinforcement is placed: any, an area id or a country (events.yaml)."""
    placed = placements(data)
    return [f"{data.info.files.events}: turns[{t.turn}].reinforcements[{j}].placement: "
            f"{r.placement!r} is neither any, an area id nor a country"
            for t in data.events.turns for j, r in enumerate(t.reinforcements)
            if r.placement not in placed]


def _check_victory_names(data: GameData) -> list[str]:
    """Whose VP the Victory Chart counts, and the unit and area of a VP modifier (3.1, 8.3.6)."""
    out: list[str] = []
    known = Names(data, out)
    fc, victory = data.info.files.charts, data.charts.victory
    if victory.counts_for is not None:
        known("side", victory.counts_for, f"{fc}: victory.counts_for")
    for m in victory.modifiers.items:
        where = f"{fc}: victory.modifiers.{m.id}"
        if (m.unit is None) != (m.near_area is None):
            out.append(f"{where}: unit and near_area go together (8.3.6)")
        if m.unit is not None:
            known("unit kind", m.unit, f"{where}.unit")
        if m.near_area is not None and m.near_area not in data.areas:
            out.append(f"{where}.near_area: unknown area id {m.near_area!r} (8.3.6)")
    return out


def _check_build_point_names(data: GameData) -> list[str]:
    """Each turn of the Build Points chart: its turn, each side's points and the parts they
    are made of, by nation (7.0)."""
    out: list[str] = []
    known = Names(data, out)
    sides = data.units.sides
    for i, row in enumerate(data.charts.build_points.turns):
        where = f"{data.info.files.charts}: build_points.turns[{i}]"
        if not isinstance(row.get("turn"), int) or not 1 <= row["turn"] <= 99:
            out.append(f"{where}.turn: a turn number from 1 to 99 is required (7.0)")
        for key, value in row.items():
            if key == "turn":
                continue
            if key.endswith("_parts") and key.removesuffix("_parts") in sides:
                if not isinstance(value, dict):
                    out.append(f"{where}.{key}: a mapping of nation to Build Points")
                    continue
                for nat in value:
                    known("nation", nat, f"{where}.{key}.{nat}")
                side = key.removesuffix("_parts")
                if isinstance(row.get(side), int) and \
                        all(isinstance(v, int) for v in value.values()) and \
                        sum(value.values()) != row[side]:
                    out.append(f"{where}.{key}: the parts add up to {sum(value.values())}, "
                               f"{side} says {row[side]} (7.0)")
            elif known("side", key, f"{where}.{key}", ("turn",)) and not isinstance(value, int):
                out.append(f"{where}.{key}: a number of Build Points, not a mapping")
        unsure = any(k != "turn" and k not in sides and k.removesuffix("_parts") not in sides
                     for k in row)
        for side in sides if not unsure else ():    # else a misspelt side is the missing one
            if side not in row:
                out.append(f"{where}: no Build Points for the {side} side (7.0)")
    return out


def _check_yearly_chart_names(data: GameData) -> list[str]:
    """Each year of the Card Limit and Artillery charts (7.1, 8.3.2), and the nations of the
    army templates (1.4)."""
    out: list[str] = []
    known = Names(data, out)
    fc, c, sides = data.info.files.charts, data.charts, data.units.sides
    for name, chart, what in (("card_limit", c.card_limit.by_year, "side"),
                              ("artillery_per_army", c.artillery_per_army.by_year, "nation")):
        for i, row in enumerate(chart):
            where = f"{fc}: {name}.by_year[{i}]"
            if not 1900 <= row.get("year", 0) <= 1999:
                out.append(f"{where}.year: a year from 1900 to 1999 is required")
            for key, value in row.items():
                if key != "year" and known(what, key, f"{where}.{key}", ("year",)) and \
                        value > (55 if what == "side" else 999):
                    out.append(f"{where}.{key}: {value} is too large")
            if what == "side" and not Known.unsure(row, frozenset(sides), ("year",)):
                for side in sides:
                    if side not in row:
                        out.append(f"{where}: no card limit for the {side} side (7.1)")
    for nat in c.army_templates.capacity:
        known("nation", nat, f"{fc}: army_templates.capacity.{nat}")
    return out


def _check_deck_names(data: GameData) -> list[str]:
    """Each card's event and Ersatz sides and the nations and kinds its crises remove (9.x)."""
    out: list[str] = []
    known = Names(data, out)
    for card in data.deck.cards:
        where = f"{data.info.files.deck}: cards.{card.key}"
        if card.event_side is not None:
            known("side", card.event_side, f"{where}.event_side", ("any",))
        known("side", card.ersatz_use, f"{where}.ersatz_use", ("any",))
        for j, crisis in enumerate(card.crises):
            nats = crisis.remove.get("nations") or []
            kinds = crisis.remove.get("kinds") or []
            for nat in nats if isinstance(nats, list) else [nats]:
                known("nation", nat, f"{where}.crises[{j}].remove.nations")
            for kind in kinds if isinstance(kinds, list) else [kinds]:
                known("unit kind", kind, f"{where}.crises[{j}].remove.kinds")
    return out


def _check_event_names(data: GameData) -> list[str]:
    """Who and what arrives or is swapped each turn, and who builds what from when
    (events.yaml)."""
    out: list[str] = []
    known = Names(data, out)
    fe, ev = data.info.files.events, data.events
    for t in ev.turns:
        where = f"{fe}: turns[{t.turn}]"
        for j, r in enumerate(t.reinforcements):
            known("nation", r.nation, f"{where}.reinforcements[{j}].nation")
            known("unit kind", r.type, f"{where}.reinforcements[{j}].type")
            if r.substitute is not None:
                known("unit kind", r.substitute, f"{where}.reinforcements[{j}].substitute")
        for j, sw in enumerate(t.swaps):
            known("nation", sw.nation, f"{where}.swaps[{j}].nation")
    for nat, row in ev.build_dates.units.items():
        if known("nation", nat, f"{fe}: build_dates.units.{nat}"):
            for kind in row:
                known("unit kind", kind, f"{fe}: build_dates.units.{nat}.{kind}")
    for kind in ev.build_dates.upgrades:
        known("unit kind", kind, f"{fe}: build_dates.upgrades.{kind}")
    return out


def check_scenario_names(data: GameData, sc: Scenario) -> list[str]:
    """Every side, nation and unit kind a scenario names is one the game declares (units.yaml)."""
    out: list[str] = []
    known = Names(data, out)
    for side in sc.control:
        known("side", side, f"control.{side}")
    for key, side in (("first_player", sc.first_player), ("position.player", sc.position.player)):
        if side is not None:
            known("side", side, key)
    for side in sc.cards.draw_order or ():
        known("side", side, "cards.draw_order")
    for side in sc.cards.hand:
        known("side", side, f"cards.hand.{side}")
    for side in sc.cards.hands or {}:
        known("side", side, f"cards.hands.{side}")
    for i, e in enumerate(sc.eft_box):
        known("unit kind", e.type, f"eft_box[{i}].type")
        if e.nation is not None:
            known("nation", e.nation, f"eft_box[{i}].nation")
    for i, fo in enumerate(sc.forts):
        known("nation", fo.nation, f"forts[{i}]({fo.id}).nation")
    for i, u in enumerate(sc.units):
        loc = f"units[{i}]({u.id})"
        known("nation", u.nation, f"{loc}.nation")
        known("unit kind", u.type, f"{loc}.type")
        for j, e in enumerate(u.contents):
            known("unit kind", e.type, f"{loc}.contents[{j}].type")
            if e.nation is not None:
                known("nation", e.nation, f"{loc}.contents[{j}].nation")
    return out
