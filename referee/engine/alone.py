"""Units that cannot stay alone: auxiliaries without Friendly infantry-type units (8.3.2-8.3.6).

An Artillery, Siege Gun, Biplane, Tank or the Paris Gun caught without Friendly
infantry-type units in an area with the enemy units its rule names is eliminated
at the end of the Movement or Combat phase. The same list answers two questions:
who goes when a phase ends (movement.unaccompanied), and, as a move ends in an
Enemy area, whether everything of the mover's side there would go (then the
area is Disputed only until the end of movement, and no battle is left to fight).
"""

from __future__ import annotations

from ..data.gamedata import GameData
from .state import Army, State, other


def template_ref(army: Army, key: str) -> str:
    """The reference of a unit on a template: ge-1:cavalry, or fr-8:us-infantry for a guest."""
    nation, kind = key.split(":")
    return f"{army.id}:{kind}" if nation == army.nation else f"{army.id}:{nation}-{kind}"


def has_infantry(s: State, d: GameData, area: str, side: str) -> bool:
    """Whether side has infantry-type units in an area, stand-alone or in armies (8.2)."""
    infantry = d.units.infantry_types
    for p in s.pieces_in(area, side, d):
        if p.kind in infantry:
            return True
    return any(k.split(":")[1] in infantry
               for a in s.armies_in(area, side, d) for k, n in a.contents.items() if n)


def side_units(s: State, d: GameData, area: str, side: str) -> list[tuple[str, str, str]]:
    """(ref, nation, kind) of every unit of side in an area: stand-alone, then on templates."""
    out = [(p.id, p.nation, p.kind) for p in s.pieces_in(area, side, d)]
    for a in s.armies_in(area, side, d):
        for key, n in a.contents.items():
            nation, kind = key.split(":")
            out += [(template_ref(a, key), nation, kind)] * n
    return out


def stranded(s: State, d: GameData, area: str, side: str) -> list[tuple[str, str, str, str, str]]:
    """(ref, nation, kind, rule, why) of side's units in an area that go if a phase ended now:
    no Friendly infantry-type unit beside them, and the enemy units their type's
    alone_lost_to names there (8.3.2-8.3.6; forts never count, 8.3.3, 8.3.6)."""
    foe = other(side, d)
    if not s.present(area, side, d) or has_infantry(s, d, area, side):
        return []
    foe_inf = has_infantry(s, d, area, foe)
    foe_any = bool(s.pieces_in(area, foe, d) or s.armies_in(area, foe, d))
    types = d.units.unit_types
    out = []
    for ref, nation, kind in side_units(s, d, area, side):
        lost_to = types[kind].alone_lost_to if kind in types else None
        if lost_to == "enemy_infantry" and foe_inf:
            out.append((ref, nation, kind, types[kind].rule, "enemy infantry-type units"))
        elif lost_to == "enemy_units" and foe_any:
            out.append((ref, nation, kind, types[kind].rule, "enemy units"))
    return out


def lost_alone(s: State, d: GameData, area: str, side: str) -> str | None:
    """The rules by which every unit of side in an area goes at the end of the phase as
    things stand (8.3.2-8.3.6), or None when any would stay. An empty army beside them
    goes at once (8.1, movement.settle), so it leaves the answer None."""
    units = side_units(s, d, area, side)
    if not units or any(a.strength == 0 for a in s.armies_in(area, side, d)):
        return None
    gone = stranded(s, d, area, side)
    if len(gone) < len(units):
        return None
    return ", ".join(sorted({rule for *_, rule, _ in gone}))
