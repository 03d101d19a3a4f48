"""Movement that is not a walk from area to area: rail (4.4), strategic (4.5), sea (4.6),
Strategic Reserves! (9.6), the Antwerp evacuation (14.2.4) and the EFT box.

Each moves a whole counter (an army or a stand-alone unit) and cannot be
combined with other movement: the counter has then moved for the turn.
"""

from __future__ import annotations

from ..base.plurals import a_or_an, counted, noun
from ..contracts.events_map import UnitMoved
from ..contracts.orders import Eft, Evacuate, Rail, Reserves, Sea, Strategic
from ..data.gamedata import GameData
from .cards import first_card
from .core import Ctx, Violation
from .movement import (
    Mover,
    movers,
    off_map,
    resolve,
    settle,
    stack_violation,
    turn_checks,
)
from .path_walk import through_full
from .reading import NO_EFT_BOX
from .state import State

_WORDS = {1: "one", 2: "two", 3: "three"}


def _whole(m: Mover, rule: str, what: str) -> Violation | None:
    if not m.whole:
        return Violation(rule, f"{what} moves a whole counter (an army or a stand-alone unit), "
                               f"not a unit leaving an army template")
    return None


def _whole_mover(s: State, d: GameData, o, side: str, rule: str, what: str,
                 reserves: bool = False) -> Mover | Violation:
    """The counter such a move names, or why it cannot make one now (4.1 and the move's rule)."""
    v = off_map(d, o.to)
    if v:
        return v
    m = resolve(s, d, o.unit, side)
    if isinstance(m, Violation):
        return m
    return _whole(m, rule, what) or turn_checks(s, d, m, reserves=reserves) or m


def rail_destinations(s: State, d: GameData, m: Mover) -> set[str]:
    """Areas a rail move can reach: up to 3 areas, all Friendly since the turn began (4.4).

    Kept until the next event for each start, side and whether the counter
    counts for stacking: every candidate destination of a unit asks again.
    """
    key = ("rail", m.area, m.side, bool(m.counts()))
    if key not in s._cache:
        s._cache[key] = _rail_destinations(s, d, m)
    return s._cache[key]


def _rail_destinations(s: State, d: GameData, m: Mover) -> set[str]:
    ok = set(s.turn_state.friendly_at_start)
    if m.area not in ok or s.status(m.area, m.side, d) != "friendly":
        return set()
    reached: set[str] = set()
    frontier = {m.area}
    for depth in range(3):
        nxt = set()
        for here in frontier:
            if here != m.area and depth > 0 and through_full(s, d, m, here):
                continue
            for n in d.neighbours[here]:
                if n in ok and s.status(n, m.side, d) == "friendly" and n != m.area:
                    nxt.add(n)
        reached |= nxt
        frontier = nxt
    return reached


def rail_violation(s: State, d: GameData, o: Rail, side: str) -> Violation | None:
    """Why a rail move (4.4) is illegal now, or None."""
    m = _whole_mover(s, d, o, side, "4.4", "a rail move")
    if isinstance(m, Violation):
        return m
    ts = s.turn_state
    limit = d.info.movement.rail.units
    if ts.rail >= limit:
        return Violation("4.4", f"rail moves are limited to {_WORDS.get(limit, limit)} units per "
                                f"{d.term('player_turn')}")
    if m.area not in ts.friendly_at_start:
        return Violation("4.4", f"a rail move starts in an area Friendly since the start of "
                                f"the turn; {d.areas[m.area].name} is not")
    if o.to not in ts.friendly_at_start or s.status(o.to, side, d) != "friendly":
        return Violation("4.4", f"a rail move ends in an area Friendly since the start of the "
                                f"turn; {d.areas[o.to].name} is not")
    if o.to not in rail_destinations(s, d, m):
        return Violation("4.4", f"no rail line of at most 3 areas, all Friendly since the "
                                f"start of the turn and none already full, joins "
                                f"{d.areas[m.area].name} to {d.areas[o.to].name}")
    return stack_violation(s, d, m, o.to)


def strategic_limit(s: State, d: GameData) -> int:
    """Units per player turn that may use strategic movement (4.5; game.yaml movement)."""
    strategic = d.info.movement.strategic
    lim = strategic.units if strategic else {}
    return lim.get(f"turn_{s.turn}", lim.get("default", 0))


def strategic_violation(s: State, d: GameData, o: Strategic, side: str) -> Violation | None:
    """Why a strategic move (4.5; the Entente's in TTLM) is illegal now, or None."""
    strategic = d.info.movement.strategic
    if strategic is None or side not in strategic.sides:
        who = " and ".join(d.side_name(x) for x in strategic.sides) if strategic else "no"
        return Violation("4.5", f"strategic movement is for the {who} player only")
    m = _whole_mover(s, d, o, side, "4.5", "strategic movement")
    if isinstance(m, Violation):
        return m
    ts = s.turn_state
    limit = strategic_limit(s, d)
    if ts.strategic >= limit:
        return Violation("4.5", f"strategic movement is limited to {counted(limit, 'unit')} this "
                                f"{d.term('player_turn')}")
    for area, role in ((m.area, "starts"), (o.to, "ends")):
        a = d.areas[area]
        if a.supply_source != side:
            return Violation("4.5", f"strategic movement {role} in a Friendly "
                                    f"{d.side_name(side)} supply source area; {a.name} is not "
                                    f"a supply source")
        if area not in ts.friendly_at_start or s.status(area, side, d) != "friendly":
            return Violation("4.5", f"{a.name} was not Friendly at the start of the "
                                    f"{d.side_name(side)} {d.term('player_turn')}")
    if o.to == m.area:
        return Violation("4.5", "the unit is already there")
    return stack_violation(s, d, m, o.to)


def coastal_sources(d: GameData, side: str) -> list[str]:
    """A side's coastal supply source areas (4.6, 14.2.4: the Entente's in TTLM)."""
    return d.supply_sources(side, coastal=True)


def sea_ports(d: GameData, side: str) -> list[str]:
    """Where sea movement may land from its home area: the side's supply sources, coastal
    ones only unless the game's data drops that (4.6; game.yaml movement.sea)."""
    sea = d.info.movement.sea
    return d.supply_sources(side, coastal=sea is None or sea.requires_coastal)


def sea_violation(s: State, d: GameData, o: Sea, side: str) -> Violation | None:
    """Why a sea move (4.6; the UK's in TTLM) is illegal now, or None."""
    m = _whole_mover(s, d, o, side, "4.6", "sea movement")
    if isinstance(m, Violation):
        return m
    sea = d.info.movement.sea
    if sea is None:                     # a game whose map has no home port for it (AAC)
        return Violation("4.6", f"{d.info.name} has no sea movement")
    if m.nation not in sea.nations:
        return Violation("4.6", "only " + ", ".join(n.upper() for n in sea.nations) +
                         " units use sea movement")
    if s.turn_state.sea >= sea.units:
        who = "/".join(n.upper() for n in sea.nations)
        return Violation("4.6", f"{'one' if sea.units == 1 else sea.units} {who} "
                                f"{noun(sea.units, 'unit')} per movement phase may use "
                                f"sea movement")
    ports = sea_ports(d, side)
    home = sea.home
    port = o.to if m.area == home else m.area
    if not ((m.area == home and o.to in ports) or (m.area in ports and o.to == home)):
        coastal = "coastal " if sea.requires_coastal else ""
        return Violation("4.6", f"sea movement goes between {d.areas[home].name} and a "
                                f"{coastal}{d.side_name(side)} supply source area (" +
                         ", ".join(d.areas[p].name for p in ports) + ")")
    if s.status(port, side, d) not in ("friendly", "disputed"):
        return Violation("4.6", f"{d.areas[port].name} is Enemy-held; there are no landings "
                                f"on an Enemy coast")
    return stack_violation(s, d, m, o.to)


def reserves_violation(s: State, d: GameData, o: Reserves, side: str) -> Violation | None:
    """Why a Strategic Reserves! move (9.6) is illegal now, or None."""
    if first_card(s, d, side, "strategic_reserves") is None:
        return Violation("9.6", f"the {d.side_name(side)} hand holds no playable "
                                f"{d.card_title('strategic_reserves')} card")
    if s.turn_state is not None and s.turn_state.discarded:
        return Violation("2.0 II.1", "cards were discarded and replaced this turn; a player "
                                     "who discards plays no card at all in that turn")
    m = _whole_mover(s, d, o, side, "9.6", d.card_title("strategic_reserves"), reserves=True)
    if isinstance(m, Violation):
        return m
    if s.status(m.area, side, d) not in ("friendly", "disputed"):
        return Violation("9.6", f"{d.card_title('strategic_reserves')} moves a unit from a "
                                f"Friendly or Disputed area")
    if o.to not in reserves_destinations(s, d, m):
        return Violation("9.6", f"no line through Friendly areas (none already full) leads "
                                f"from {d.areas[m.area].name} to a Friendly or Disputed "
                                f"{d.areas[o.to].name}")
    return stack_violation(s, d, m, o.to)


def reserves_destinations(s: State, d: GameData, m: Mover) -> set[str]:
    """Friendly or Disputed areas reachable through Friendly areas, any distance (9.6).

    Kept until the next event, like rail_destinations.
    """
    key = ("reserves", m.area, m.side, bool(m.counts()))
    if key not in s._cache:
        s._cache[key] = _reserves_destinations(s, d, m)
    return s._cache[key]


def _reserves_destinations(s: State, d: GameData, m: Mover) -> set[str]:
    seen = {m.area}
    frontier = [m.area]
    out: set[str] = set()
    while frontier:
        here = frontier.pop()
        if here != m.area and (s.status(here, m.side, d) != "friendly" or
                               through_full(s, d, m, here)):
            continue
        for n in d.neighbours[here]:
            if n in seen:
                continue
            seen.add(n)
            st = s.status(n, m.side, d)
            if st in ("friendly", "disputed"):
                out.add(n)
                frontier.append(n)
    return out


def _evacuable(d: GameData) -> str:
    """The armies the optional evacuation may move, in words (14.2.4; units.yaml nations)."""
    names = [f"army of the {n.name} in {d.areas[n.evacuation_area].name}"
             for n in d.units.nations.values() if n.evacuation_area in d.areas]
    return " or ".join(names) or "army of no nation"


def evacuate_violation(s: State, d: GameData, o: Evacuate, side: str) -> Violation | None:
    """Why the optional Antwerp evacuation (14.2.4) is illegal now, or None."""
    if not s.options.get("antwerp_evacuation"):
        return Violation("14.2.4", "the Antwerp evacuation option is not in use in this game")
    if off_map(d, o.to):
        return off_map(d, o.to)
    m = resolve(s, d, o.unit, side)
    if isinstance(m, Violation):
        return m
    nat = d.units.nations.get(m.nation)
    where = nat.evacuation_area if nat else None
    if m.army is None or where is None:
        return Violation("14.2.4", "only the " + _evacuable(d) + " may be evacuated")
    if m.area != where:
        return Violation("14.2.4", f"the army is not in "
                                   f"{d.areas[where].name}")
    v = turn_checks(s, d, m)
    if v:
        return v
    if o.to not in coastal_sources(d, side) or \
            s.status(o.to, side, d) not in ("friendly", "disputed"):
        return Violation("14.2.4", f"the army goes to a Friendly or Disputed "
                                   f"coastal {d.side_name(side)} supply source area")
    return stack_violation(s, d, m, o.to)


def eft_violation(s: State, d: GameData, o, side: str) -> Violation | None:
    """Why a move into or out of the EFT box is illegal now (games/ttlm reconstruction)."""
    box = d.eft_box
    if box is None:
        return Violation(*NO_EFT_BOX)
    if side != box.owner:
        return Violation("2.0 V.4", f"only the {d.side_name(box.owner)} moves units into the "
                                    f"EFT box")
    unit = o.unit
    if unit in s.armies:
        a = s.armies[unit]
        where = {"map": a.area, "eft": box.id}.get(a.status)
        inside = a.status == "eft"
        if d.nation_side[a.nation] != side:
            where = None
    elif unit in s.pieces and d.nation_side[s.pieces[unit].nation] == side:
        where = s.pieces[unit].area
        inside = where == box.id
    else:
        return Violation("2.0 V.4", f"{unit} is not {a_or_an(d.side_name(side))} army or "
                                    f"stand-alone "
                                    f"unit")
    if where is None:
        return Violation("2.0 V.4", f"{unit} is not in play")
    ts = s.turn_state
    if unit in ts.moved:
        return Violation("4.1", f"{unit} has already moved this {d.term('player_turn')}")
    if ts.mode == "pass" and ts.moves >= 1:
        return Violation("2.0 II.1", "a passing player moves one unit only")
    sources = set(d.supply_sources(side))
    if not inside:
        if o.to is not None:
            return Violation("2.0 V.4", f"{unit} is not in the EFT box")
        if where not in sources or s.status(where, side, d) != "friendly":
            return Violation("2.0 V.4", f"a unit enters the EFT box from a Friendly "
                                        f"{d.side_name(side)} supply source area, as its "
                                        f"whole move")
        if unit in s.armies and unit in ts.received:
            return Violation("4.1", f"units moved into army {unit} this turn")
        return None
    if o.to is None or o.to not in sources or s.status(o.to, side, d) != "friendly":
        return Violation("2.0 V.4", f"a unit leaves the EFT box for a Friendly "
                                    f"{d.side_name(side)} supply source area")
    nation = s.armies[unit].nation if unit in s.armies else s.pieces[unit].nation
    mover = Mover(unit, side, nation, "army" if unit in s.armies else s.pieces[unit].kind, "eft",
                  army=s.armies.get(unit), piece=s.pieces.get(unit))
    return stack_violation(s, d, mover, o.to)


def eft_candidates(s: State, d: GameData, side: str):
    """Moves into and out of the EFT box worth checking."""
    box = d.eft_box
    if box is None or side != box.owner:
        return
    sources = sorted(d.supply_sources(side))
    mine = d.nation_side
    for a in sorted(s.armies.values(), key=lambda a: a.id):
        if mine[a.nation] == side and a.status == "map" and a.area in sources:
            yield Eft(unit=a.id)
        elif mine[a.nation] == side and a.status == "eft":
            for to in sources:
                yield Eft(unit=a.id, to=to)
    for p in sorted(s.pieces.values(), key=lambda p: p.id):
        if mine[p.nation] != side:
            continue
        if p.area in sources:
            yield Eft(unit=p.id)
        elif p.area == box.id:
            for to in sources:
                yield Eft(unit=p.id, to=to)


def apply_eft(ctx: Ctx, o, side: str) -> None:
    """Move a unit into or out of the EFT box (its id in the data is where the unit goes)."""
    s, box = ctx.state, ctx.data.eft_box.id
    if o.unit in s.armies:
        a = s.armies[o.unit]
        frm = a.area if a.status == "map" else box
        kind, nation = "army", a.nation
    else:
        p = s.pieces[o.unit]
        frm, kind, nation = p.area, p.kind, p.nation
    to = o.to or box
    ctx.emit(UnitMoved(side=side, mode="eft", from_area=frm, to_area=to, path=[to],
                       unit=o.unit, kind=kind, nation=nation))
    settle(ctx, [frm, to])


def whole_move_candidates(s: State, d: GameData, side: str):
    """Rail, strategic, sea, reserves and evacuation moves worth checking."""
    ts = s.turn_state
    has_reserves = first_card(s, d, side, "strategic_reserves") is not None
    ports = coastal_sources(d, side)
    mv = d.info.movement
    sources = d.supply_sources(side) if mv.strategic and side in mv.strategic.sides else []
    sea = mv.sea
    home, landings = (sea.home, sea_ports(d, side)) if sea else (None, [])
    for m in movers(s, d, side):
        if isinstance(m, Violation) or not m.whole:
            continue
        if ts.rail < mv.rail.units and not turn_checks(s, d, m):
            for to in sorted(rail_destinations(s, d, m)):
                yield Rail(unit=m.ref, to=to)
        if m.area in sources:
            for to in sources:
                if to != m.area:
                    yield Strategic(unit=m.ref, to=to)
        if sea and m.nation in sea.nations and ts.sea < sea.units:
            for to in (landings if m.area == home else [home] if m.area in landings else []):
                yield Sea(unit=m.ref, to=to)
        if has_reserves:
            for to in sorted(reserves_destinations(s, d, m)):
                yield Reserves(unit=m.ref, to=to)
        where = getattr(d.units.nations.get(m.nation), "evacuation_area", None)
        if m.army is not None and where is not None and m.area == where and \
                s.options.get("antwerp_evacuation"):
            for to in ports:
                yield Evacuate(unit=m.ref, to=to)


