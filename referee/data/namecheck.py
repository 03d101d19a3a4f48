"""The names the data files and scenarios use: every side, nation, unit kind and country one
names is one the game declares (sides, nations and unit_types in units.yaml; countries in
map.yaml and the nations' home countries), reported once, where it is written."""

from __future__ import annotations

from ..base.readers import MODERATOR, PUBLIC
from ..contracts.scenariomodels import Scenario
from .datacheck import Known, placements
from .gamedata import GameData
from .problems import At, named, turn_at


class Names:
    """The sides, nations, unit kinds and countries a game declares, and a checker of names."""

    def __init__(self, data: GameData, out: list[str]):
        self.out = out
        self.known = {"side": list(data.units.sides), "nation": list(data.units.nations),
                      "unit kind": list(data.units.unit_types),
                      "country": sorted(data.countries)}

    def __call__(self, what: str, name: object, at: At, *steps: object,
                 also: tuple[str, ...] = ()) -> bool:
        """Whether name is a declared `what`; if not, a problem line names where and the choice.
        at and the steps from it are where the name is written: the key it is, or the field
        or list that holds it (the place is made only for a problem)."""
        if name in self.known[what] or name in also:
            return True
        choice = ", ".join([*also, *self.known[what]])
        message = f"unknown {what} {name!r} (the game declares {choice})"
        at = at.at(*steps)
        self.out.append(at.key(message) if at.path[-1:] == (name,) else
                        at.says(message, name))
        return False


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
    fu, u = At(data.info.files.units), data.units
    if len(u.sides) != 2:
        out.append(fu.at("sides").says(f"a game has two sides, {len(u.sides)} are listed "
                                       f"(2.0)"))
    for side in u.sides:
        if side in (PUBLIC, MODERATOR):
            out.append(fu.at("sides", side).key(f"{side!r} names a reader (--as {side}), "
                                                "not a side: that reader would see the "
                                                "side's secrets"))
    order_known = [known("side", side, fu, "side_order") for side in u.side_order]
    if all(order_known) and sorted(u.side_order) != sorted(u.sides):
        out.append(fu.at("side_order").says(f"must list each side of `sides` once "
                                            f"({', '.join(u.sides)})"))
    return out


def _check_nation_names(data: GameData) -> list[str]:
    """The nations of each side, each nation's side and reinforcement country, and the sides
    given colours (units.yaml)."""
    out: list[str] = []
    known = Names(data, out)
    fu, u = At(data.info.files.units), data.units
    for side, nats in u.sides.items():
        for nat in nats:
            known("nation", nat, fu, "sides", side)
    for nat, nation in u.nations.items():
        known("side", nation.side, fu, "nations", nat, "side")
        if nation.reinforcements_in is not None:
            known("country", nation.reinforcements_in, fu, "nations", nat, "reinforcements_in")
    for side in u.side_colours:
        known("side", side, fu, "side_colours", side)
    return out


def _check_counter_names(data: GameData) -> list[str]:
    """The counter mix (a note and a mapping per nation), the nations with dated counters and
    the nations of each unit type (units.yaml)."""
    out: list[str] = []
    known = Names(data, out)
    fu, u = At(data.info.files.units), data.units
    for nat, row in u.counter_mix.items():
        mix = fu.at("counter_mix", nat)
        if nat == "source":
            if not isinstance(row, str):
                out.append(mix.says("a note (text), not a mapping"))
        elif not isinstance(row, dict):
            out.append(mix.says("a mapping of unit kind to count, not text"))
        elif known("nation", nat, mix):
            for kind in row:
                known("unit kind", kind, mix, kind)
    for nat in u.biplane_counter_years:
        known("nation", nat, fu, "biplane_counter_years", nat)
    for kind, ut in u.unit_types.items():
        for nat in ut.nations:
            known("nation", nat, fu, "unit_types", kind, "nations")
    return out


def _check_map_names(data: GameData) -> list[str]:
    """Each area's country, supply sources and fort nation, and each box's owner (map.yaml)."""
    out: list[str] = []
    known = Names(data, out)
    fm = At(data.info.files.map)
    for a in data.map.areas:
        where = fm.at("areas", a.id)
        known("country", a.country, where, "country")
        for key in ("supply_source", "conditional_supply_source"):
            if getattr(a, key) is not None:
                known("side", getattr(a, key), where, key)
        if a.fort:
            known("nation", a.fort.nation, where, "fort", "nation")
    for b in data.map.boxes:
        known("side", b.owner, fm, "boxes", b.id, "owner")
    if len(data.map.boxes) > 1:
        # The rules know one off-map box, TTLM's EFT box (2.0 V.4, 3.1): GameData.eft_box.
        out.append(fm.at("boxes").says(f"a game has at most one off-map box, the EFT box "
                                       f"(2.0 V.4); {len(data.map.boxes)} are listed"))
    return out + _check_country_names(data)


def _check_country_names(data: GameData) -> list[str]:
    """The countries the board of a report heads the areas with (map.yaml `country_names`):
    each a declared country, named once; when any is named, every area's country is."""
    out: list[str] = []
    known = Names(data, out)
    fm = At(data.info.files.map)
    ids = [c.id for c in data.map.country_names]
    for i, c in enumerate(data.map.country_names):
        at = fm.at("country_names", named(i, c.id))
        if known("country", c.id, at, "id") and c.id in ids[:i]:
            out.append(at.at("id").says(f"country {c.id!r} is named more than once", c.id))
    if ids:
        for a in data.map.areas:            # (an undeclared country is reported already)
            if a.country not in ids and a.country in data.countries:
                out.append(fm.at("areas", a.id, "country").says(
                    f"country {a.country!r} has no name in `country_names`", a.country))
    return out


def _check_movement_names(data: GameData) -> list[str]:
    """Who may move strategically and by sea (game.yaml movement, 4.5, 4.6)."""
    out: list[str] = []
    known = Names(data, out)
    mv, fg = data.info.movement, At("game.yaml", ("movement",))
    if mv.strategic is not None:
        for side in mv.strategic.sides:
            known("side", side, fg, "strategic", "sides")
    if mv.sea is not None:
        for nat in mv.sea.nations:
            known("nation", nat, fg, "sea", "nations")
    return out


def _check_placements(data: GameData) -> list[str]:
    """Where each reinforcement is placed: any, an area id or a country (events.yaml)."""
    placed = placements(data)
    fe = At(data.info.files.events)
    return [turn_at(fe, i, t.turn).at("reinforcements", j, "placement").says(
                f"{r.placement!r} is neither any, an area id nor a country")
            for i, t in enumerate(data.events.turns) for j, r in enumerate(t.reinforcements)
            if r.placement not in placed]


def _check_victory_names(data: GameData) -> list[str]:
    """Whose VP the Victory Chart counts, and the unit and area of a VP modifier (3.1, 8.3.6)."""
    out: list[str] = []
    known = Names(data, out)
    fc, victory = At(data.info.files.charts, ("victory",)), data.charts.victory
    if victory.counts_for is not None:
        known("side", victory.counts_for, fc, "counts_for")
    for m in victory.modifiers.items:
        where = fc.at("modifiers", "items", m.id)
        if (m.unit is None) != (m.near_area is None):
            out.append(where.says("unit and near_area go together (8.3.6)"))
        if m.unit is not None:
            known("unit kind", m.unit, where, "unit")
        if m.near_area is not None and m.near_area not in data.areas:
            out.append(where.at("near_area").says(f"unknown area id {m.near_area!r} (8.3.6)"))
    return out


def _check_build_point_names(data: GameData) -> list[str]:
    """Each turn of the Build Points chart: its turn, each side's points and the parts they
    are made of, by nation (7.0)."""
    out: list[str] = []
    known = Names(data, out)
    sides = data.units.sides
    for i, row in enumerate(data.charts.build_points.turns):
        where = At(data.info.files.charts, ("build_points", "turns", i))
        if not isinstance(row.get("turn"), int) or not 1 <= row["turn"] <= 99:
            out.append(where.at("turn").says("a turn number from 1 to 99 is required (7.0)"))
        for key, value in row.items():
            if key == "turn":
                continue
            if key.endswith("_parts") and key.removesuffix("_parts") in sides:
                if not isinstance(value, dict):
                    out.append(where.at(key).says("a mapping of nation to Build Points"))
                    continue
                for nat in value:
                    known("nation", nat, where, key, nat)
                side = key.removesuffix("_parts")
                if isinstance(row.get(side), int) and \
                        all(isinstance(v, int) for v in value.values()) and \
                        sum(value.values()) != row[side]:
                    out.append(where.at(key).says(f"the parts add up to "
                                                  f"{sum(value.values())}, {side} says "
                                                  f"{row[side]} (7.0)"))
            elif known("side", key, where, key, also=("turn",)) and not isinstance(value, int):
                out.append(where.at(key).says("a number of Build Points, not a mapping"))
        unsure = any(k != "turn" and k not in sides and k.removesuffix("_parts") not in sides
                     for k in row)
        for side in sides if not unsure else ():    # else a misspelt side is the missing one
            if side not in row:
                out.append(where.says(f"no Build Points for the {side} side (7.0)"))
    return out


def _check_yearly_chart_names(data: GameData) -> list[str]:
    """Each year of the Card Limit and Artillery charts (7.1, 8.3.2), and the nations of the
    army templates (1.4)."""
    out: list[str] = []
    known = Names(data, out)
    fc, c, sides = At(data.info.files.charts), data.charts, data.units.sides
    for name, chart, what in (("card_limit", c.card_limit.by_year, "side"),
                              ("artillery_per_army", c.artillery_per_army.by_year, "nation")):
        for i, row in enumerate(chart):
            where = fc.at(name, "by_year", i)
            if not 1900 <= row.get("year", 0) <= 1999:
                out.append(where.at("year").says("a year from 1900 to 1999 is required"))
            for key, value in row.items():
                if key != "year" and known(what, key, where, key, also=("year",)) and \
                        value > (55 if what == "side" else 999):
                    out.append(where.at(key).says(f"{value} is too large"))
            if what == "side" and not Known.unsure(row, frozenset(sides), also=("year",)):
                for side in sides:
                    if side not in row:
                        out.append(where.says(f"no card limit for the {side} side (7.1)"))
    for nat in c.army_templates.capacity:
        known("nation", nat, fc, "army_templates", "capacity", nat)
    return out


def _check_deck_names(data: GameData) -> list[str]:
    """Each card's event and Ersatz sides and the nations and kinds its crises remove (9.x)."""
    out: list[str] = []
    known = Names(data, out)
    for card in data.deck.cards:
        where = At(data.info.files.deck, ("cards", card.key))
        if card.event_side is not None:
            known("side", card.event_side, where, "event_side", also=("any",))
        known("side", card.ersatz_use, where, "ersatz_use", also=("any",))
        for j, crisis in enumerate(card.crises):
            nats = crisis.remove.get("nations") or []
            kinds = crisis.remove.get("kinds") or []
            for nat in nats if isinstance(nats, list) else [nats]:
                known("nation", nat, where, "crises", j, "remove", "nations")
            for kind in kinds if isinstance(kinds, list) else [kinds]:
                known("unit kind", kind, where, "crises", j, "remove", "kinds")
    return out


def _check_event_names(data: GameData) -> list[str]:
    """Who and what arrives or is swapped each turn, and who builds what from when
    (events.yaml)."""
    out: list[str] = []
    known = Names(data, out)
    fe, ev = At(data.info.files.events), data.events
    for i, t in enumerate(ev.turns):
        where = turn_at(fe, i, t.turn)
        for j, r in enumerate(t.reinforcements):
            known("nation", r.nation, where, "reinforcements", j, "nation")
            known("unit kind", r.type, where, "reinforcements", j, "type")
            if r.substitute is not None:
                known("unit kind", r.substitute, where, "reinforcements", j, "substitute")
        for j, sw in enumerate(t.swaps):
            known("nation", sw.nation, where, "swaps", j, "nation")
    for nat, row in ev.build_dates.units.items():
        if known("nation", nat, fe, "build_dates", "units", nat):
            for kind in row:
                known("unit kind", kind, fe, "build_dates", "units", nat, kind)
    for kind in ev.build_dates.upgrades:
        known("unit kind", kind, fe, "build_dates", "upgrades", kind)
    return out


def check_scenario_names(data: GameData, sc: Scenario) -> list[str]:
    """Every side, nation and unit kind a scenario names is one the game declares (units.yaml)."""
    out: list[str] = []
    known = Names(data, out)
    top = At(None)
    for side in sc.control:
        known("side", side, top, "control", side)
    for key, side in ((("first_player",), sc.first_player),
                      (("position", "player"), sc.position.player)):
        if side is not None:
            known("side", side, top, *key)
    for side in sc.cards.draw_order or ():
        known("side", side, top, "cards", "draw_order")
    for side in sc.cards.hand:
        known("side", side, top, "cards", "hand", side)
    for side in sc.cards.hands or {}:
        known("side", side, top, "cards", "hands", side)
    for i, e in enumerate(sc.eft_box):
        known("unit kind", e.type, top, "eft_box", i, "type")
        if e.nation is not None:
            known("nation", e.nation, top, "eft_box", i, "nation")
    for i, fo in enumerate(sc.forts):
        known("nation", fo.nation, top, "forts", named(i, fo.id), "nation")
    for i, u in enumerate(sc.units):
        loc = top.at("units", named(i, u.id))
        known("nation", u.nation, loc, "nation")
        known("unit kind", u.type, loc, "type")
        for j, e in enumerate(u.contents):
            known("unit kind", e.type, loc, "contents", j, "type")
            if e.nation is not None:
                known("nation", e.nation, loc, "contents", j, "nation")
    return out
