"""Fight the declared battles, one at a time, step by step (2.0 II.4, 5.2-5.4, 8.x, 13.7).

Each battle runs through its fixed order: cavalry retreat, dogfight,
artillery fire, defensive fire (or retreat instead), offensive fire, retreat
after combat. The surprise order drops the artillery phase and lets the
attacker fire first (9.7). The referee rolls everything and stops at each
choice a player has.
"""

from __future__ import annotations

import msgspec

from ..contracts.events_combat import (
    BattleBegan,
    BattleEnded,
    BattleStep,
    CombatPhaseEnded,
    HitsToPay,
)
from ..contracts.events_map import ArmyEliminated, PieceEliminated
from ..contracts.orders import Fight, Ord
from ..data.gamedata import GameData
from . import losses, movement, scramble
from .armies import hidden_templates
from .core import (
    DECISIONS,
    Ctx,
    DecisionSpec,
    Violation,
    and_list,
    finish,
    prompt,
    register,
    registered,
    skip,
)
from .fire import has_biplanes, roll, units_in
from .retreats import forced_eliminations, forced_left, reaction_options, retreat_options
from .state import State, other

NORMAL = ["cavalry_attacker", "cavalry_defender", "dogfight", "dogfight_attacker_pays",
          "dogfight_defender_pays", "artillery", "artillery_pays", "defence", "pursuit_pays",
          "defensive_fire", "defensive_pays", "offensive_fire", "offensive_pays",
          "retreat_attacker", "retreat_defender", "end"]
SURPRISE = ["cavalry_attacker", "cavalry_defender", "dogfight", "dogfight_attacker_pays",
            "dogfight_defender_pays", "reaction", "offensive_fire", "offensive_pays", "defence",
            "pursuit_pays", "defensive_fire", "defensive_pays", "retreat_attacker",
            "retreat_defender", "end"]


# ---------------------------------------------------------------- the battles in turn (5.2.1)

def next_battle(ctx: Ctx) -> None:
    """Fight the next declared battle; the attacker chooses the order (5.2.1)."""
    c = ctx.state.combat
    left = [a for a in c["declared"] if a not in c["resolved"]]
    if not left:
        end_combat(ctx)
    elif len(left) == 1:
        start_battle(ctx, left[0])
    else:
        prompt(ctx, "battle_order", c["attacker"])


def _order_candidates(s: State, d: GameData, side: str):
    for a in s.combat["declared"]:
        if a not in s.combat["resolved"]:
            yield Fight(area=a)


def _order_check(s: State, d: GameData, o: Fight, side: str) -> Violation | None:
    c = s.combat
    if o.area not in c["declared"] or o.area in c["resolved"]:
        return Violation("5.2.1", f"{d.areas.get(o.area, o.area)} is not a battle still to "
                                  f"be fought")
    return None


register(DecisionSpec(
    kind="battle_order", rule="5.2.1",
    prompt=lambda s, d: "choose the next battle to fight (5.2.1)",
    accepts=("fight",), candidates=_order_candidates, check=_order_check,
    apply=lambda ctx, o, side: start_battle(ctx, o.area)))


def start_battle(ctx: Ctx, area: str) -> None:
    """Begin one battle: surprise order if a Surprise Attack! names it (9.7)."""
    s = ctx.state
    att = s.combat["attacker"]
    surprise = any(c["key"] == "surprise_attack" and c["area"] == area
                   for c in s.combat["cards"])
    ctx.emit(BattleBegan(area=area, attacker=att, defender=other(att, ctx.data), surprise=surprise))
    if scramble.start(ctx):                # optional 13.7: the defender may shift Biplanes in
        return
    _first_step(ctx)
    continue_battle(ctx)


def _first_step(ctx: Ctx) -> None:
    ctx.emit(BattleStep(step="cavalry_attacker"))


def _steps(s: State) -> list[str]:
    return SURPRISE if s.battle["surprise"] else NORMAL


def advance_step(ctx: Ctx) -> None:
    steps = _steps(ctx.state)
    ctx.emit(BattleStep(step=steps[steps.index(ctx.state.battle["step"]) + 1]))


def continue_battle(ctx: Ctx) -> None:
    """Run the battle's steps until a player must decide, or the battle ends."""
    while ctx.state.battle is not None:
        s, d = ctx.state, ctx.data
        b = s.battle
        pay = b["pay"]
        if pay and (pay["hits"] or pay["siege"]):
            if losses.settle_unpayable(ctx):
                continue
            spec = DECISIONS["losses"]
            options = [o for o in spec.candidates(s, d, pay["side"])
                       if spec.check(s, d, o, pay["side"]) is None]
            if len(options) == 1:          # no choice to make: the referee applies it
                losses.pay(ctx, options[0], pay["side"])
                continue
            if s.pending is None or s.pending.kind != "losses" or s.pending.side != pay["side"]:
                prompt(ctx, "losses", pay["side"])
            return
        if STEP[b["step"]](ctx):
            return


def has_target(s: State, d: GameData, side: str) -> bool:
    """side has something in the battle that hits can fall on: a unit or a fort (5.2.3, 5.4).

    Units with a retreat marker take no losses (5.4.4); a fort never retreats
    and takes hits (and its fall may leave retreated units alone, 5.4.4).
    """
    area = s.battle["area"]
    return bool(units_in(s, d, area, side)) or any(
        f.area == area and d.nation_side[f.nation] == side for f in s.forts.values())


def _fire(ctx: Ctx, phase: str, side: str, reacting: list[str | None] | None = None) -> None:
    """Roll one fire phase, unless nothing of the enemy is left for its dice to hit (5.2.3)."""
    if not has_target(ctx.state, ctx.data, other(side, ctx.data)):
        return
    ev = roll(ctx, phase, side, reacting)
    if ev.groups or ev.silent:
        ctx.emit(ev)


def _pay(ctx: Ctx, payer: str, phase: str, target: str = "battle") -> None:
    """The side that was fired on in a phase pays what that fire hit."""
    hits, siege = ctx.state.battle["fired"].get(f"{phase}:{other(payer, ctx.data)}", (0, 0))
    if hits or siege:
        ctx.emit(HitsToPay(side=payer, hits=hits, siege_hits=siege, target=target))


# Each step function returns True when it stopped for a decision.

def _cavalry(side_key: str):
    def step(ctx: Ctx) -> bool:
        b = ctx.state.battle
        side = b[side_key]
        if cavalry_may_retreat(ctx.state, ctx.data, side):
            prompt(ctx, "cavalry_retreat", side)
            return True
        skip(ctx, "cavalry_retreat", side, "no cavalry of his in the battle can retreat (5.4.3)")
        advance_step(ctx)
        return False
    return step


def cavalry_may_retreat(s: State, d: GameData, side: str) -> bool:
    """Whether to ask side for a cavalry retreat before combat, on public facts only (5.4.3).

    With hidden templates (1.4) what an army holds is secret: a side with an
    army in the battle and a Friendly or Disputed area next to it is asked
    whatever the army holds, so the question gives nothing away.
    """
    options = retreat_options(s, d, side, "cavalry")
    if not hidden_templates(s):
        return bool(options)
    if any(o.unit in s.pieces for o in options):
        return True
    area = s.battle["area"]
    return any(a.id not in s.combat["markers"] for a in s.armies_in(area, side, d)) and any(
        s.status(n, side, d) in ("friendly", "disputed") for n in d.neighbours[area])


def _dogfight(ctx: Ctx) -> bool:
    s, d = ctx.state, ctx.data
    b = s.battle
    area = b["area"]
    if not s.combat["weather"] and has_biplanes(s, d, area, b["attacker"]) and \
            has_biplanes(s, d, area, b["defender"]):
        # 5.2.1a: all Biplanes of both sides fire at once; losses fall on Biplanes only.
        att = roll(ctx, "dogfight", b["attacker"])
        dfn = roll(ctx, "dogfight", b["defender"])
        ctx.emit(att)
        ctx.emit(dfn)
    advance_step(ctx)
    return False


def _dog_pay(side_key: str):
    def step(ctx: Ctx) -> bool:
        side = ctx.state.battle[side_key]
        advance_step(ctx)
        _pay(ctx, side, "dogfight", "dogfight")
        return False
    return step


def _artillery(ctx: Ctx) -> bool:
    _fire(ctx, "artillery", ctx.state.battle["attacker"])
    advance_step(ctx)
    return False


def _pays(side_key: str, phase: str):
    def step(ctx: Ctx) -> bool:
        side = ctx.state.battle[side_key]
        advance_step(ctx)
        _pay(ctx, side, phase)
        return False
    return step


def _defence(ctx: Ctx) -> bool:
    s, d = ctx.state, ctx.data
    side = s.battle["defender"]
    if retreat_options(s, d, side, "instead") or reaction_options(s, d) and \
            not s.battle["surprise"]:
        prompt(ctx, "defence", side)
        return True
    after_defence(ctx)
    return False


def after_defence(ctx: Ctx) -> None:
    """End of the defender's retreat declarations: empty armies out, then pursuit fire (8.3.1)."""
    s, d = ctx.state, ctx.data
    b = s.battle
    side, area = b["defender"], b["area"]
    for a in s.armies_in(area, side, d):
        if a.strength == 0 and a.id not in s.combat["markers"]:
            ctx.emit(ArmyEliminated(side=side, army=a.id, area=area, rule="8.1",
                                    reason="an empty army that could not retreat from a battle"))
    b = ctx.state.battle
    instead = b["instead"]
    kinds = _kinds_of(ctx.state, d, instead)
    advance_step(ctx)
    # 5.4.1 note: pursuit fire only when all the defending units retreat (French text: "toutes").
    if instead and not has_target(ctx.state, d, side) and \
            not kinds & d.units.kinds_with("retreat_before_combat"):
        ev = roll(ctx, "pursuit", b["attacker"])
        if ev.groups:
            ctx.emit(ev)
            if ev.hits:
                ctx.emit(HitsToPay(side=side, hits=ev.hits, target="pursuit"))


def _kinds_of(s: State, d: GameData, refs: list[str]) -> set[str]:
    out = set()
    for r in refs:
        if r in s.pieces:
            out.add(s.pieces[r].kind)
        elif r in s.armies:
            out |= {k.split(":")[1] for k in s.armies[r].contents}
    return out


def _reaction(ctx: Ctx) -> bool:
    if reaction_options(ctx.state, ctx.data):
        prompt(ctx, "reaction", ctx.state.battle["defender"])
        return True
    advance_step(ctx)
    return False


def _pursuit_pays(ctx: Ctx) -> bool:
    advance_step(ctx)
    return False


def _defensive_fire(ctx: Ctx) -> bool:
    _fire(ctx, "defensive", ctx.state.battle["defender"])
    advance_step(ctx)
    return False


def _offensive_fire(ctx: Ctx) -> bool:
    s = ctx.state
    on = s.battle.get("react_on", {})
    reacting = [] if s.combat["weather"] else [on.get(r) for r in s.battle["reacting"]]
    _fire(ctx, "offensive", s.battle["attacker"], reacting)
    advance_step(ctx)
    return False


def _retreat_after(side_key: str):
    def step(ctx: Ctx) -> bool:
        s, d = ctx.state, ctx.data
        side = s.battle[side_key]
        if retreat_options(s, d, side, "after") or forced_left(s, d) and \
                side == s.battle["defender"]:
            prompt(ctx, "retreat_after", side)
            return True
        if side == s.battle["defender"] and forced_eliminations(ctx):
            return True
        why = _not_modern(s, d, side)
        if why:
            skip(ctx, "retreat_after", side, why)
        advance_step(ctx)
        return False
    return step


def _not_modern(s: State, d: GameData, side: str) -> str | None:
    """Why side is not asked to retreat after combat when no nation of his units in the
    battle has Modern forces (AAC 5.4.2: only they may); None when some has, or none is left.
    A unit on an army's template goes by the army's nation (8.1), and nations are public."""
    area, marks = s.battle["area"], set(s.combat["markers"])
    nations = {a.nation for a in s.armies_in(area, side, d) if a.id not in marks} | \
        {p.nation for p in s.pieces_in(area, side, d) if p.id not in marks}
    if not nations or any(d.units.nations[n].modern for n in nations):
        return None
    names = and_list(sorted(d.units.nations[n].name for n in nations))
    return (f"his units in the battle ({names}) are not Modern forces, and only Modern "
            f"forces retreat after combat (AAC 5.4.2)")


def _end(ctx: Ctx) -> bool:
    """End of one battle: stranded retreated units go (5.4.4), then control and auxiliaries."""
    s, d = ctx.state, ctx.data
    area = s.battle["area"]
    marks = set(s.combat["markers"])
    for side in (s.battle["attacker"], s.battle["defender"]):
        forts = any(f.area == area and d.nation_side[f.nation] == side for f in s.forts.values())
        if s.present(area, other(side, d), d) and not units_in(s, d, area, side) and not forts:
            for a in s.armies_in(area, side, d):
                if a.id in marks:
                    ctx.emit(ArmyEliminated(side=side, army=a.id, area=area, rule="5.4.4",
                                            reason="retreated here, and left alone it would "
                                                   "have to retreat a second time"))
            for p in s.pieces_in(area, side, d):
                if p.id in marks:
                    ctx.emit(PieceEliminated(side=side, unit=p.id, nation=p.nation,
                                             kind=p.kind, area=area, rule="5.4.4",
                                             reason="retreated here, and left alone it would "
                                                    "have to retreat a second time"))
    touched = [area, *ctx.state.battle["after_to"].values()]
    movement.settle(ctx, touched + list(d.neighbours[area]))
    movement.unaccompanied(ctx, "combat phase")
    ctx.emit(BattleEnded(area=area))
    next_battle(ctx)
    return True


STEP = {
    "cavalry_attacker": _cavalry("attacker"), "cavalry_defender": _cavalry("defender"),
    "dogfight": _dogfight, "dogfight_attacker_pays": _dog_pay("attacker"),
    "dogfight_defender_pays": _dog_pay("defender"), "artillery": _artillery,
    "artillery_pays": _pays("defender", "artillery"), "defence": _defence,
    "reaction": _reaction, "pursuit_pays": _pursuit_pays, "defensive_fire": _defensive_fire,
    "defensive_pays": _pays("attacker", "defensive"), "offensive_fire": _offensive_fire,
    "offensive_pays": _pays("defender", "offensive"),
    "retreat_attacker": _retreat_after("attacker"),
    "retreat_defender": _retreat_after("defender"), "end": _end,
}


# The decisions of a battle's steps are answered in losses.py, retreats.py and scramble.py:
# their handlers return what the battle does next (None: the decision stays open), and the
# battle goes on from here; they never call back into combat (5.2-5.4, 13.7).
THEN = {
    "go_on": lambda ctx: None,              # hits paid: the step goes on (5.3)
    "advance": advance_step,                # the step is over
    "after_defence": after_defence,         # the defender's declarations are over (5.4.1)
    "begin": _first_step,                   # the scramble is over: the battle begins (13.7)
}


def _goes_on(spec: DecisionSpec) -> DecisionSpec:
    """A battle decision whose answer says what the battle does next, and combat does it (5.2)."""
    answer = spec.apply

    def apply(ctx: Ctx, o: Ord, side: str) -> None:
        then = answer(ctx, o, side)
        if then is not None:
            THEN[then](ctx)
            continue_battle(ctx)
    return msgspec.structs.replace(spec, apply=apply)


for _kind in ("scramble", "cavalry_retreat", "defence", "reaction", "losses", "retreat_after",
              "forced_elimination"):
    register(_goes_on(registered(_kind)))


def end_combat(ctx: Ctx) -> None:
    """All battles fought: retreat markers come off; the combat phase is over (5.4)."""
    ctx.emit(CombatPhaseEnded())
    finish(ctx, "combat")
