"""Suppressing armies (optional rule 15.4.1): in the movement phase an army counter leaves
the map, its units staying in the area on their own or joining another army there."""

from __future__ import annotations

from ..contracts.events_map import ArmySuppressed
from ..contracts.orders import Suppress
from ..data.gamedata import GameData
from .armies import hidden_templates, template_violation
from .core import Ctx, Violation
from .movement import resolve, settle
from .state import State
from .supply import in_supply


def suppress_violation(s: State, d: GameData, o: Suppress, side: str) -> Violation | None:
    """Why suppressing an army (optional rule 15.4.1) is illegal now, or None."""
    if not s.options.get("suppressing_armies"):
        return Violation("15.4.1", "the suppressing armies option is not in use in this game")
    if s.suppressed_turn.get(side) == s.turn:
        return Violation("15.4.1", "a player suppresses one army per seasonal turn at most")
    m = resolve(s, d, o.army, side)
    if isinstance(m, Violation):
        return m
    if m.army is None:
        return Violation("15.4.1", f"{o.army} is not an army")
    if not in_supply(s, d, side, m.area):
        return Violation("15.4.1", f"army {o.army} is not in supply (6.2)")
    if o.into is not None:
        t = s.armies.get(o.into)
        if t is None or t.status != "map" or t.area != m.area or t.id == m.ref or \
                d.nation_side[t.nation] != side:
            return Violation("15.4.1", f"{o.into} is not another {d.side_name(side)} army in "
                                       f"{d.areas[m.area].name}")
        merged = dict(t.contents)
        for k, n in m.army.contents.items():
            merged[k] = merged.get(k, 0) + n
        return template_violation(s, d, t, merged)
    n = s.stack_count(m.area, side, d) - (1 if m.army.strength else 0) + m.army.strength
    if n > d.units.stacking_limit:
        return Violation("1.2.2", f"its {m.army.strength} units would stand alone in "
                                  f"{d.areas[m.area].name} with the others there: {n} units, "
                                  f"over the stacking limit of {d.units.stacking_limit}")
    return None


def suppress_candidates(s: State, d: GameData, side: str):
    """Suppress orders worth checking (option 15.4.1)."""
    if not s.options.get("suppressing_armies"):
        return
    for a in sorted(s.armies.values(), key=lambda a: a.id):
        if a.status == "map" and d.nation_side[a.nation] == side:
            yield Suppress(army=a.id)
            for t in s.armies_in(a.area, side, d):
                if t.id != a.id:
                    yield Suppress(army=a.id, into=t.id)


def apply_suppress(ctx: Ctx, o: Suppress, side: str) -> None:
    """Remove the army counter; its units stay in the area or join the named army (15.4.1)."""
    s = ctx.state
    army = s.armies[o.army]
    area = army.area
    new_ids: dict[str, str] = {}
    if o.into is None:
        taken = set(s.pieces)
        for key, n in sorted(army.contents.items()):
            nation, kind = key.split(":")
            for _ in range(n):
                pid = s.new_piece_id(nation, kind, ctx.data)
                while pid in taken or pid in new_ids:
                    prefix, num = pid.rsplit("-", 1)
                    pid = f"{prefix}-{int(num) + 1:02d}"
                new_ids[pid] = key
    if o.into is not None and hidden_templates(s):
        # 1.4: which army takes in the suppressed army's units is the owner's secret.
        ctx.emit(ArmySuppressed(side=side, army=o.army, area=area,
                                secret=ctx.secret(side, {"into": o.into})))
    else:
        ctx.emit(ArmySuppressed(side=side, army=o.army, area=area, into=o.into,
                                new_ids=new_ids))
    settle(ctx, [area])
