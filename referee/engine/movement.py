"""Movement: who may move where, and what moving changes (4.0-4.6, 8.1-8.4, 9.1.2, 9.6).

A move order names one counter: an army, a stand-alone unit, or a unit on an
army template (ARMY:KIND). Every check returns the rule it breaks; the
candidate generators list every order worth checking, so that
legal_orders = the candidates that pass.
"""

from __future__ import annotations

import itertools

import msgspec

from ..base.errors import quoted
from ..base.plurals import counted
from ..contracts.events_map import (
    AreaControlChanged,
    ArmyEliminated,
    BecameDisputed,
    EnemyAreaEntered,
    PieceEliminated,
    UnitMoved,
)
from ..contracts.events_turn import CardPlayed
from ..contracts.orders import Move, Ord, Reserves
from ..data.gamedata import GameData
from .alone import has_infantry, lost_alone, stranded, template_ref
from .armies import hidden_templates, template_violation
from .cards import first_card
from .core import Ctx, Violation
from .own_area import named_own_area
from .path_walk import walk_violation
from .state import (
    Army,
    Piece,
    State,
    other,
    piece_key,
)


class Mover(msgspec.Struct):
    """The counter an order moves, resolved against the state."""

    ref: str
    side: str
    nation: str
    kind: str                   # 'army' or the unit type
    area: str
    army: Army | None = None    # the army itself, when an army moves
    piece: Piece | None = None  # the stand-alone unit
    source: Army | None = None  # the army a template unit leaves
    key: str | None = None      # nation:kind on the template

    @property
    def whole(self) -> bool:
        """An army or a stand-alone unit (not a unit leaving a template)."""
        return self.source is None

    def counts(self) -> bool:
        """Counts toward stacking: everything but an empty army (1.2.2)."""
        return self.army is None or self.army.strength > 0

    def holds(self, d: GameData) -> bool:
        """Can conquer and hold an area by itself (8.3.2-8.3.6: units.yaml holds_area)."""
        if self.army is not None:
            return self.army.strength > 0
        return self.kind not in d.units.non_holding

    def entrenched(self) -> bool:
        """Whether the counter is entrenched now (4.3)."""
        if self.army is not None:
            return self.army.entrenched
        if self.piece is not None:
            return self.piece.entrenched
        return False


def resolve(s: State, d: GameData, ref: str, side: str) -> Mover | Violation:
    """The counter a reference names, or why it cannot be moved by side."""
    if ref in s.armies:
        a = s.armies[ref]
        if a.status != "map":
            return Violation("8.1", f"army {ref} is not on the map ({a.status})")
        m = Mover(ref, d.nation_side[a.nation], a.nation, "army", a.area, army=a)
    elif ref in s.pieces:
        p = s.pieces[ref]
        if p.area not in d.areas:
            return Violation("2.0 V.4", f"{ref} is in the Eastern Front Transit box")
        m = Mover(ref, d.nation_side[p.nation], p.nation, p.kind, p.area, piece=p)
    elif ":" in ref:
        army_id, _, spec = ref.partition(":")
        a = s.armies.get(army_id)
        if a is None or a.status != "map":
            return Violation("1.4", f"there is no army {quoted(army_id)} on the map")
        owner = d.nation_side[a.nation]
        if owner != side:
            # Before its contents are looked at: what another side's template holds may be
            # hidden from this player (option 1.4), so the answer must not depend on it.
            return Violation("2.0 II", f"{ref} would leave {army_id}, an army of "
                                       f"{d.player_words(owner)}; a player moves only his own")
        nation, _, kind = spec.rpartition("-")
        key = piece_key(nation or a.nation, kind)
        if not a.contents.get(key):
            return Violation("1.4", f"army {army_id} holds no {spec.replace('-', ' ')}")
        m = Mover(ref, d.nation_side[a.nation], key.split(":")[0], kind, a.area, source=a,
                  key=key)
    elif ref in s.forts:                # a battle names it, a loss takes it; it stays put
        return Violation("8.4", f"{ref} is a fort; a fort never moves, retreats or joins an army")
    else:
        return Violation("1.2", f"there is no unit {quoted(ref)} in play")
    if m.side != side:
        return Violation("2.0 II", f"{ref} is a unit of {d.player_words(m.side)}; a player "
                                   f"moves only his own")
    return m


# ---------------------------------------------------------------- shared checks

def unmoved(s: State, army: Army, key: str) -> int:
    """Units of one kind on an army's template that have not moved this player turn (4.1)."""
    ts = s.turn_state
    moved = ts.joined.get(army.id, {}).get(key, 0) if ts is not None else 0
    return army.contents.get(key, 0) - moved


def turn_checks(s: State, d: GameData, m: Mover, reserves: bool = False) -> Violation | None:
    ts = s.turn_state
    moved = ts.moved
    if m.whole and m.ref in moved:
        return Violation("4.1", f"{m.ref} has already moved this {d.term('player_turn')}")
    if m.source is not None and m.source.id in moved:
        return Violation("4.1", f"army {m.source.id} moved this turn; the units on its "
                                f"template moved with it and cannot move again")
    if m.source is not None and unmoved(s, m.source, m.key) <= 0:
        return Violation("4.1", f"every {m.kind.replace('_', ' ')} unit on army "
                                f"{m.source.id}'s template moved onto it this "
                                f"{d.term('player_turn')}; a counter moves once")
    if m.army is not None and m.army.id in ts.received:
        return Violation("4.1", f"units moved into army {m.ref} this turn; it cannot move "
                                f"as well")
    if ts.mode == "pass":
        if reserves:
            if ts.reserves_moves >= 1:
                return Violation("2.0 II.1", f"a passing player may move one more unit with a "
                                             f"{d.card_title('strategic_reserves')} card, not "
                                             f"several")
        elif ts.moves >= 1:
            return Violation("2.0 II.1", f"a passing player moves one unit only (a "
                                         f"{d.card_title('strategic_reserves')} card allows a "
                                         f"second)")
    return None


def stack_after(s: State, d: GameData, m: Mover, area: str, into: str | None = None) -> int:
    """side's units counting for stacking in area as the mover arrives (1.2.2): an army counts
    before it takes any unit there in, one if it holds units, none if empty (8.1)."""
    side = m.side
    n = s.stack_count(area, side, d)
    if m.area == area:                      # the mover leaves its place in this area
        if m.army is not None:
            n -= 1 if m.army.strength else 0
        elif m.piece is not None:
            n -= 1
        elif m.source.strength == 1:
            n -= 1                          # its army is left empty: no longer counts
    if into is not None:
        if s.armies[into].strength == 0:
            n += 1
    elif m.army is not None:
        n += 1 if m.army.strength else 0
    else:
        n += 1
    return n


def stack_violation(s: State, d: GameData, m: Mover, area: str, into=None, taking=()):
    n = stack_after(s, d, m, area, into)
    if n > d.units.stacking_limit:
        limit = (f"{d.areas[area].name} would hold {n} {d.side_name(m.side)} units; the "
                 f"stacking limit is {d.units.stacking_limit} (forts and empty armies do not "
                 f"count)")
        if taking:                          # stacking holds at all times (1.2.2)
            limit = (f"{d.areas[area].name} would hold {n} {d.side_name(m.side)} units as "
                     f"{m.ref} enters, before it takes any unit in; the stacking limit is "
                     f"{d.units.stacking_limit} at all times, an army holding units counting "
                     f"as one (rules 1.2.2, 8.1)")
        return Violation("1.2.2", limit)
    return None


def _join_violation(s: State, d: GameData, m: Mover, into: str, area: str) -> Violation | None:
    t = s.armies.get(into)
    if t is None or t.status != "map":
        return Violation("1.4", f"there is no army {quoted(into)} on the map")
    if d.nation_side[t.nation] != m.side:
        return Violation("8.1", f"{into} is an enemy army")
    if t.area != area:
        return Violation("4.1", f"army {into} is in {d.areas[t.area].name}, not in "
                                f"{d.areas[area].name}")
    if m.army is not None:
        return Violation("8.1", "an army cannot go into another army")
    if m.source is not None and m.source.id == into:
        return Violation("4.1", f"the unit is already in army {into}")
    contents = dict(t.contents)
    key = m.key or piece_key(m.nation, m.kind)
    contents[key] = contents.get(key, 0) + 1
    v = template_violation(s, d, t, contents)
    if v is not None:
        return v
    if area == d.sea_home and (s.keep_apart.get(m.ref) == into or
                              s.keep_apart.get(into) == m.ref):
        return Violation("4.6", f"in the campaign game {m.ref} and {into} stay apart while "
                                f"they are in {d.areas[area].name}")
    return None


# ---------------------------------------------------------------- normal movement

def off_map(d: GameData, *areas: str) -> Violation | None:
    """Holland, Switzerland and the seas are never entered (4.1, 4.2)."""
    for a in areas:
        if a not in d.areas:
            name = d.impassable[a].name if a in d.impassable else a
            return Violation("4.2", f"{name} is not a playable area and may never be entered")
    return None


def move_violation(s: State, d: GameData, o: Move, side: str) -> Violation | None:
    """Why a normal move (4.1-4.3, 8.x, 9.1.2) is illegal now, or None."""
    v = off_map(d, *o.path)
    if v:
        return v
    m = ready_mover(s, d, o.unit, side)
    if isinstance(m, Violation):
        return m
    allot = d.units.unit_types[m.kind].move          # an army: the army type's (4.1)
    if len(o.path) > allot:
        return Violation("4.1", f"{m.ref} moves {counted(allot, 'area')} at most; this path has "
                                f"{len(o.path)}")
    if m.army is not None and not o.path:
        return Violation("4.1", "an army moves to an adjacent area; units join an army by "
                                "moving into it")
    if not o.path and o.into is None and m.source is None:
        return Violation("4.1", f"{m.ref} does not go anywhere")
    v = named_own_area(s, d, o, m.area, side) or walk_violation(s, d, m, o.path)
    if v:
        return v
    final = o.path[-1] if o.path else m.area
    if o.into is not None:
        v = _join_violation(s, d, m, o.into, final)
        if v:
            return v
    if o.taking:
        v = _taking_violation(s, d, m, final, o.taking)
        if v:
            return v
    return stack_violation(s, d, m, final, o.into, o.taking)


def ready_mover(s: State, d: GameData, ref: str, side: str) -> Mover | Violation:
    """The counter ref names, or why side may not move it now (resolve, then turn_checks);
    kept until the next event, as each of a counter's candidate moves asks again."""
    key = ("ready mover", ref, side)
    cache = s._cache
    if key not in cache:
        m = resolve(s, d, ref, side)
        cache[key] = m if isinstance(m, Violation) else turn_checks(s, d, m) or m
    return cache[key]


def _taking_violation(s: State, d: GameData, m: Mover, area: str, taking) -> Violation | None:
    if m.army is None:
        return Violation("4.3", "only an army takes units in as it moves")
    if len(set(taking)) != len(taking):
        return Violation("4.3", "a unit is named twice")
    if s.turn_state.mode == "pass":
        return Violation("4.1", f"a passing player moves one unit only (2.0 II.1), and each "
                                f"unit {m.ref} took in would count as a unit moved; move "
                                f"{m.ref} alone")
    contents = dict(m.army.contents)
    for pid in taking:
        p = s.pieces.get(pid)
        if p is None or p.area != area or d.nation_side[p.nation] != m.side:
            return Violation("4.3", f"{pid} is not a stand-alone {m.side} unit in "
                                    f"{d.areas[area].name}")
        if pid in s.turn_state.moved:
            return Violation("4.1", f"{pid} has already moved this {d.term('player_turn')}")
        key = piece_key(p.nation, p.kind)
        contents[key] = contents.get(key, 0) + 1
    return template_violation(s, d, m.army, contents)


def _paths(d: GameData, start: str, steps: int):
    """Every path of adjacent areas from start of length 1..steps.

    A two-area move may come back to where it started (a cavalry raid through
    an empty Enemy area makes it Friendly, 4.1); it never enters another area
    twice.
    """
    frontier = [(start,)]
    for _ in range(steps):
        nxt = []
        for p in frontier:
            for n in sorted(d.neighbours[p[-1]]):
                if n not in p[1:] and (n != start or len(p) > 1):
                    nxt.append(p + (n,))
                    yield nxt[-1][1:]
        frontier = nxt


def movers(s: State, d: GameData, side: str):
    """Every counter of side that could move: armies, stand-alone units, template units."""
    for a in sorted(s.armies.values(), key=lambda a: a.id):
        if a.status == "map" and d.nation_side[a.nation] == side:
            yield resolve(s, d, a.id, side)
            for key in sorted(a.contents):
                yield resolve(s, d, template_ref(a, key), side)
    for p in sorted(s.pieces.values(), key=lambda p: p.id):
        if p.area in d.areas and d.nation_side[p.nation] == side:
            yield resolve(s, d, p.id, side)


def move_candidates(s: State, d: GameData, side: str):
    """Normal moves worth checking for every counter of side (4.1): none along a path the
    counter may not walk (path_walk), whatever the move would do where it ends."""
    for m in movers(s, d, side):
        if isinstance(m, Violation) or turn_checks(s, d, m):
            continue
        allot = d.units.unit_types[m.kind].move          # an army: the army type's (4.1)
        paths = [()] if m.army is None else []
        paths += list(_paths(d, m.area, allot))
        for path in paths:
            if walk_violation(s, d, m, path) is None:
                yield from _path_moves(s, d, m, path, side)


def _path_moves(s: State, d: GameData, m: Mover, path: tuple[str, ...], side: str):
    """The moves of counter m along path: an army taking in up to three of side's stand-alone
    units where it ends (4.3); a unit alone, or into one of side's armies there (8.1)."""
    final = path[-1] if path else m.area
    if m.army is not None:
        loose = [p.id for p in s.pieces_in(final, side, d)]
        for r in range(0, min(3, len(loose)) + 1):
            for taking in itertools.combinations(loose, r):
                yield Move(unit=m.ref, path=path, taking=taking)
        return
    if path or m.source is not None:
        yield Move(unit=m.ref, path=path)
    for a in s.armies_in(final, side, d):
        if a.id != m.ref and (m.source is None or a.id != m.source.id):
            yield Move(unit=m.ref, path=path, into=a.id)


# ---------------------------------------------------------------- applying a move

def apply_move(ctx: Ctx, o: Ord, side: str, mode: str | None = None) -> None:
    """Emit the events of a legal move, then settle area control and forced eliminations."""
    s, d = ctx.state, ctx.data
    m = resolve(s, d, o.unit, side)
    mode = mode or (o.kind if o.kind != "move" else "normal")
    path = list(o.path) if isinstance(o, Move) else [o.to]
    if isinstance(o, Move):
        final = path[-1] if path else m.area
    else:
        final = o.to
    if isinstance(o, Reserves):
        card = first_card(s, d, side, "strategic_reserves")
        ctx.emit(CardPlayed(side=side, card=card, key="strategic_reserves",
                            as_="strategic_reserves"))
    before = {a: s.status(a, side, d) for a in path}
    into = getattr(o, "into", None)
    taking = list(getattr(o, "taking", ()))
    new_id = None
    if m.source is not None and into is None:
        new_id = s.new_piece_id(m.nation, m.kind, d)
    entrenched = False
    if m.army is not None and m.army.strength == 0 and any(
            s.pieces[p].entrenched and s.pieces[p].kind in d.units.infantry_types for p in taking):
        entrenched = True               # 4.3: an empty army takes in entrenched infantry
    details = {"unit": m.ref, "kind": m.kind, "nation": m.nation,
               "from_army": m.source.id if m.source else None, "into": into,
               "new_id": new_id, "taking": taking}
    if hidden_templates(s) and (m.source is not None or into is not None or taking):
        # 1.4: an army's move is public, what it takes in is not.
        army = m.ref if m.army is not None else None
        ctx.emit(UnitMoved(side=side, mode=mode, from_area=m.area, to_area=final, path=path,
                           unit=army, entrenched=entrenched,
                           secret=ctx.secret(side, details)))
    else:
        ctx.emit(UnitMoved(side=side, mode=mode, from_area=m.area, to_area=final, path=path,
                           entrenched=entrenched, **details))
    holds = m.holds(d) or bool(taking)
    for area in path:
        if before[area] == "enemy":
            ctx.emit(EnemyAreaEntered(side=side, area=area))
        if area != final:
            # Moved through (4.1): an area with no enemy unit becomes Friendly.
            if holds and not s.present(area, other(side, d), d) and s.control.get(area) != side:
                ctx.emit(AreaControlChanged(area=area, control=side,
                                            previous=s.control.get(area)))
    if final in before and before[final] == "enemy" and s.present(final, other(side, d), d):
        # What entered may be unable to stay alone (8.3.2-8.3.6): say so, unless a hidden
        # template's contents would tell (1.4): units that left or joined one, or an army
        # of the mover's side standing there (whether what it holds could stay is its secret).
        told = not (hidden_templates(s) and (m.source is not None or into is not None
                                             or bool(s.armies_in(final, side, d))))
        ctx.emit(BecameDisputed(area=final, lost_alone=lost_alone(s, d, final, side)
                                if told else None))
    settle(ctx, [m.area, final])


# ---------------------------------------------------------------- reorganising armies (8.1)

def reorganise_violation(s: State, d: GameData, o: Move, side: str,
                         phase: str) -> Violation | None:
    """Why altering an army's contents in the Reinforcement or Production phase is illegal
    (8.1: units go into or out of armies in their area; nothing moves between areas)."""
    if o.path:
        return Violation("8.1", f"army contents may be altered in the {phase} phase, but no "
                                f"unit moves from area to area then: "
                                f"'{' '.join(('move', o.unit, *o.path))}' names an area")
    if o.taking:
        return Violation("8.1", f"no army moves in the {phase} phase, so none takes units in")
    m = resolve(s, d, o.unit, side)
    if isinstance(m, Violation):
        return m
    if m.army is not None:
        return Violation("8.1", f"no army moves in the {phase} phase; its contents may be "
                                f"altered: move a unit out of it (ARMY:KIND) or into it")
    if m.source is None and o.into is None:
        return Violation("8.1", f"{m.ref} already stands alone; name the army it joins "
                                f"('into ARMY')")
    if o.into is not None:
        v = _join_violation(s, d, m, o.into, m.area)
        if v:
            return v
    return stack_violation(s, d, m, m.area, o.into)


def reorganise_candidates(s: State, d: GameData, side: str):
    """Moves into and out of side's armies within their areas worth checking (8.1)."""
    for m in movers(s, d, side):
        if isinstance(m, Violation) or m.army is not None:
            continue
        if m.source is not None:
            yield Move(unit=m.ref)
        for a in s.armies_in(m.area, side, d):
            if m.source is None or a.id != m.source.id:
                yield Move(unit=m.ref, into=a.id)


def apply_reorganise(ctx: Ctx, o: Move, side: str) -> None:
    """A unit goes into or out of an army in its area outside the Movement Phase (8.1).
    ValueError for a unit that is not there to move: a sealed plan is worked out with the
    orders of a batch before each is checked (reinforce._complete), and an order an earlier
    one made impossible is then the check's to refuse."""
    m = resolve(ctx.state, ctx.data, o.unit, side)
    if isinstance(m, Violation):
        raise ValueError(m.reason)
    apply_move(ctx, o, side, mode="reorganise")


def strand_empty_armies(ctx: Ctx, area: str, emptied: str | None = None) -> None:
    """8.1: an empty army in a Disputed area without Friendly infantry-type units is
    eliminated at once; `emptied` names the army whose last unit has just gone out of it."""
    s, d = ctx.state, ctx.data
    if s.disputed(area, d):
        for a in list(s.armies_in(area)):
            side = d.nation_side[a.nation]
            if a.strength == 0 and not has_infantry(s, d, area, side):
                how = "its last unit retreated out of it, leaving " * (a.id == emptied)
                ctx.emit(ArmyEliminated(side=side, army=a.id, area=area, rule="8.1",
                                        reason=f"{how}an empty army in a Disputed area "
                                               f"without Friendly infantry-type units"))


def settle(ctx: Ctx, areas) -> None:
    """After units come or go: eliminate stranded empty armies, then update control (4.1, 8.1)."""
    s, d = ctx.state, ctx.data
    for area in dict.fromkeys(areas):
        if area is None or area not in d.areas:
            continue
        strand_empty_armies(ctx, area)
        present = [x for x in d.sides if s.present(area, x, d)]
        if len(present) == 1:
            side = present[0]
            if s.holds(area, side, d) and s.control.get(area) != side:
                ctx.emit(AreaControlChanged(area=area, control=side,
                                            previous=s.control.get(area)))


def unaccompanied(ctx: Ctx, phase: str) -> None:
    """Eliminate auxiliaries caught without friendly infantry-type units (8.3.2-8.3.6)."""
    s, d = ctx.state, ctx.data
    touched = []
    for area in d.areas:
        for side in d.sides:
            fighting = s.battle is not None and s.battle["area"] == area
            for ref, nation, kind, rule, why in stranded(s, d, area, side):
                details = {"unit": ref, "nation": nation, "kind": kind, "area": area,
                           "reason": f"without Friendly infantry-type units in an area with "
                                     f"{why}, at the end of the {phase}", "rule": rule}
                if ref not in s.pieces and hidden_templates(s) and not fighting:
                    # 1.4: a unit leaving a template outside a battle is the owner's secret.
                    ctx.emit(PieceEliminated(side=side, secret=ctx.secret(side, details)))
                else:
                    ctx.emit(PieceEliminated(side=side, **details))
                touched.append(area)
    if touched:
        settle(ctx, touched)


def stranded_empty_armies(s: State, d: GameData, side: str) -> list[Army]:
    """side's empty armies in Disputed areas: they must leave by the end of movement (8.1)."""
    return [a for a in s.armies.values() if a.status == "map" and a.strength == 0
            and d.nation_side[a.nation] == side and s.status(a.area, side, d) == "disputed"]


def private_order(s: State, o: Ord) -> bool:
    """Whether an order's text must stay secret: it names an army's contents, hidden (1.4)."""
    if not hidden_templates(s):
        return False
    k = o.kind
    if k == "move":
        return ":" in o.unit or o.into is not None or bool(o.taking)
    if k in ("place", "build", "suppress", "retreat"):
        return o.into is not None
    if k in ("upgrade", "swap", "crisis_remove", "scramble"):
        return ":" in o.unit
    if k == "lose":                 # in a battle the army fights: its losses are seen
        return ":" in o.unit and s.battle is None
    return False
