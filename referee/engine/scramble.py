"""Optional rule 13.7, Defender Scramble (given in full under 8.3.4).

Just before a battle is fought the defender may shift Biplanes from adjacent
areas that are not Battle Areas into it, within the stacking limit. There
they dogfight enemy Biplanes; with none to fight they must react (8.3.4
method 3), never make a ground attack.
"""

from __future__ import annotations

from ..contracts.events_combat import BiplaneReacts
from ..contracts.events_map import UnitMoved
from ..contracts.orders import Done, Ord, Scramble
from ..data.gamedata import GameData
from . import movement
from .core import Ctx, DecisionSpec, Violation, prompt, register
from .fire import has_biplanes, markers
from .state import State


def scramble_on(s: State) -> bool:
    """Whether the game plays optional rule 13.7."""
    return bool(s.options.get("defender_scramble"))


def scramble_options(s: State, d: GameData) -> list[str]:
    """The defender's Biplanes that may shift into the battle now (13.7)."""
    b = s.battle
    if not scramble_on(s) or s.combat["weather"]:      # 8.3.4: no Biplane after Bad Weather
        return []
    side, area = b["defender"], b["area"]
    embattled = set(s.combat["declared"]) | {area}
    skip = markers(s)
    refs = []
    air = d.units.kinds_with("aircraft")            # 8.3.4, 13.7
    for near in sorted(d.neighbours[area]):
        if near in embattled:
            continue
        for a in s.armies_in(near, side, d):
            if a.id not in skip:
                refs += [movement.template_ref(a, k) for k in sorted(a.contents)
                         if k.split(":")[1] in air]
        refs += [p.id for p in s.pieces_in(near, side, d)
                 if p.kind in air and p.id not in skip]
    return [r for r in refs if _violation(s, d, r) is None]


def _violation(s: State, d: GameData, ref: str) -> Violation | None:
    b = s.battle
    m = movement.resolve(s, d, ref, b["defender"])
    if isinstance(m, Violation):
        return m
    if not d.units.has(m.kind, "aircraft"):
        return Violation("13.7", f"{ref} is not a Biplane: only Biplanes scramble")
    if m.area not in d.neighbours[b["area"]] or m.area in s.combat["declared"] or \
            ref in markers(s):
        return Violation("13.7", f"{ref} is not in an area adjacent to "
                                 f"{d.areas[b['area']].name} that is not itself a Battle Area")
    return movement.stack_violation(s, d, m, b["area"])


def _candidates(s: State, d: GameData, side: str):
    for ref in scramble_options(s, d):
        yield Scramble(unit=ref)
    yield Done()


def _check(s: State, d: GameData, o: Ord, side: str) -> Violation | None:
    if isinstance(o, Scramble):
        if not scramble_on(s):
            return Violation("13.7", "Defender Scramble is an optional rule not in play")
        if s.combat["weather"]:
            return Violation("8.3.4", f"no Biplane takes part in combat after "
                                      f"{d.card_title('bad_weather')}")
        return _violation(s, d, o.unit)
    return None


def _apply(ctx: Ctx, o: Ord, side: str) -> str | None:
    if not isinstance(o, Scramble):
        return "begin"              # the battle's first step follows (battle.THEN)
    s, d = ctx.state, ctx.data
    area = s.battle["area"]
    m = movement.resolve(s, d, o.unit, side)
    new_id = s.new_piece_id(m.nation, m.kind, d) if m.source is not None else None
    details = {"unit": m.ref, "kind": m.kind, "nation": m.nation,
               "from_army": m.source.id if m.source else None, "into": None,
               "new_id": new_id, "taking": []}
    if movement.hidden_templates(s) and m.source is not None:
        # 1.4: a Biplane seen leaving for the battle; which army held it stays hidden.
        ctx.emit(UnitMoved(side=side, mode="scramble", from_area=m.area, to_area=area,
                           path=[area], secret=ctx.secret(side, details)))
    else:
        ctx.emit(UnitMoved(side=side, mode="scramble", from_area=m.area, to_area=area,
                           path=[area], **details))
    movement.settle(ctx, [m.area, area])
    if not has_biplanes(ctx.state, d, area, ctx.state.battle["attacker"]):
        # 13.7: with no enemy Biplane to dogfight, a scrambled Biplane must react.
        ctx.emit(BiplaneReacts(side=side, unit=new_id or o.unit))
    return None


def start(ctx: Ctx) -> bool:
    """Before the battle's first step: ask the defender whether to scramble (13.7)."""
    s = ctx.state
    if scramble_options(s, ctx.data):
        prompt(ctx, "scramble", s.battle["defender"])
        return True
    return False


register(DecisionSpec(
    kind="scramble", rule="13.7",
    prompt=lambda s, d: (f"shift Biplanes from adjacent areas into the "
                         f"battle in {d.areas[s.battle['area']].name} (Defender Scramble, "
                         f"13.7), then 'done'"),
    accepts=("scramble", "done"), candidates=_candidates, check=_check, apply=_apply))
