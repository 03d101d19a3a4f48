"""Retreats (5.4): before combat (cavalry), instead of firing, after combat; Biplane reactions.

A retreat goes to an adjacent Friendly or Disputed area, never an Enemy one,
within the stacking limit; all units retreating after combat from one battle
go to the same area. A unit with a retreat marker takes no further part in
the combat phase (5.4.4). Forced retreats come from Stoßtruppen, Tank and
special-card hits (8.2.2, 8.3.5, 9.1.5, 9.1.6).
"""

from __future__ import annotations

from ..base.plurals import a_or_an, counted
from ..contracts.events_combat import BiplaneReacts, UnitRetreated
from ..contracts.events_map import ArmyEliminated, PieceEliminated
from ..contracts.orders import Done, Eliminate, Ord, React, Retreat
from ..data.gamedata import GameData
from . import movement
from .armies import hidden_templates
from .core import Ctx, DecisionSpec, Violation, open_kinds, prompt, register
from .fire import units_in
from .state import State

# Each kind of retreat has its own words for where it may go: "adjacent" (5.4.1-5.4.3).
HOW_RULE = {"instead": "5.4.1", "after": "5.4.2", "cavalry": "5.4.3"}


def retreat_violation(s: State, d: GameData, o: Retreat, side: str, how: str) -> Violation | None:
    """Why a retreat is illegal: kind, destination, stacking, one area after combat (5.4)."""
    b = s.battle
    area = b["area"]
    v = movement.off_map(d, o.to)
    if v:
        return v
    m = movement.resolve(s, d, o.unit, side)
    if isinstance(m, Violation):
        return m
    if m.whole and o.unit in s.combat["markers"]:
        return Violation("5.4.4", f"{o.unit} has already retreated this combat phase (to "
                                  f"{d.areas[m.area].name}); a unit with a retreat marker "
                                  f"takes no further part in it")
    if m.area != area or (m.source is not None and m.source.id in s.combat["markers"]):
        return Violation("5.4.4", f"{o.unit} is not a unit taking part in the battle in "
                                  f"{d.areas[area].name}")
    if how == "cavalry" and not d.units.has(m.kind, "retreat_before_combat"):
        return Violation("5.4.3", "only cavalry retreats before combat")
    if d.units.has(m.kind, "never_retreats"):          # 8.3.3, 8.3.6
        return Violation(d.units.unit_types[m.kind].rule,
                         f"{a_or_an(m.kind.replace('_', ' '))} never retreats")
    if o.to not in d.neighbours[area]:
        return Violation(HOW_RULE[how], f"{d.areas[o.to].name} is not adjacent to "
                                        f"{d.areas[area].name}")
    if s.status(o.to, side, d) not in ("friendly", "disputed"):
        return Violation("5.4", "units never retreat into an Enemy area")
    if how == "after":
        v = modern_violation(s, d, m, side)
        if v:
            return v
        to = b["after_to"].get(side)
        if to and to != o.to:
            return Violation("5.4.2", f"all units retreating after combat from one battle go "
                                      f"to the same area ({d.areas[to].name})")
    if how == "instead" and o.unit in b["dogfighters"]:
        return Violation("5.4.1", "a Biplane that dogfought has already fought")
    if o.into is not None:
        v = into_violation(s, d, m, o, how)
        if v:
            return v
    return movement.stack_violation(s, d, m, o.to, o.into)


def modern_violation(s: State, d: GameData, m: movement.Mover, side: str) -> Violation | None:
    """Why a counter of a nation whose forces are not Modern may not retreat after combat
    (AAC 5.4.2 note); a forced retreat the defender still owes is made all the same.

    Our reading: the note takes away the choice to retreat after combat; a retreat the
    enemy's hits force on an army (8.2.2, 8.3.5, 9.1.5, 9.1.6) is still made. A unit on an
    army's template goes by the army's nation (8.1: it is under the army's command).
    """
    nation = d.units.nations[m.source.nation if m.source is not None else m.nation]
    if nation.modern:
        return None
    if m.army is not None and side == s.battle["defender"] and _owed(s, d) > 0:
        return None
    return Violation("AAC 5.4.2", f"{m.ref} in {d.areas[s.battle['area']].name}: the forces "
                                  f"of the {nation.name} are not Modern, so they do not "
                                  f"retreat after combat (only a retreat forced by hits is "
                                  f"made)")


def into_violation(s: State, d: GameData, m, o: Retreat, how: str) -> Violation | None:
    """Why a retreating unit may not join this army (8.1; our reading of 5.4, 5.4.4)."""
    c = s.combat
    t = s.armies.get(o.into)
    if t is not None and t.status == "map" and t.area == o.to and (
            o.to in c["declared"] and o.to not in c["resolved"]):
        return Violation("5.4.4", f"army {o.into} has a battle still to fight in "
                                  f"{d.areas[o.to].name}; a retreated unit takes no part in "
                                  f"it, so it cannot join that army")
    if how == "instead" and any(d.units.unit_types[u.kind].firepower.get("pursuit")
                                for u in units_in(s, d, s.battle["area"], s.battle["attacker"])):
        return Violation("8.3.1", "with enemy cavalry in the battle, units retreating instead "
                                  "of firing go as counters: they may draw pursuit fire")
    return movement._join_violation(s, d, m, o.into, o.to)


def retreat_options(s: State, d: GameData, side: str, how: str) -> list[Retreat]:
    """Every legal retreat of one kind for side in the current battle."""
    area = s.battle["area"]
    refs = []
    skip = set(s.combat["markers"])
    before = d.units.kinds_with("retreat_before_combat")        # 5.4.3
    for a in s.armies_in(area, side, d):
        if a.id in skip:
            continue
        if how != "cavalry":
            refs.append(a.id)
        for key in sorted(a.contents):
            nation, kind = key.split(":")
            if how != "cavalry" or kind in before:
                refs.append(movement.template_ref(a, key))
    for p in s.pieces_in(area, side, d):
        if p.id not in skip and (how != "cavalry" or p.kind in before):
            refs.append(p.id)
    out = []
    for ref in refs:
        for to in sorted(d.neighbours[area]):
            o = Retreat(unit=ref, to=to)
            if retreat_violation(s, d, o, side, how) is None:
                out.append(o)
            if ref in s.armies:
                continue
            for t in s.armies_in(to, side, d):
                o = Retreat(unit=ref, to=to, into=t.id)
                if retreat_violation(s, d, o, side, how) is None:
                    out.append(o)
    return out


def apply_retreat(ctx: Ctx, o: Retreat, side: str, how: str) -> None:
    """Retreat one counter; Siege Guns and the Paris Gun in a retreating army go (8.3.3, 8.3.6)."""
    s, d = ctx.state, ctx.data
    m = movement.resolve(s, d, o.unit, side)
    if m.army is not None:
        for key, n in sorted(m.army.contents.items()):
            nation, kind = key.split(":")
            if d.units.has(kind, "never_retreats"):
                for _ in range(n):
                    ctx.emit(PieceEliminated(
                        side=side, unit=movement.template_ref(m.army, key), nation=nation,
                        kind=kind, area=m.area, rule=d.units.unit_types[kind].rule,
                        reason="it never retreats and goes with its retreating army"))
    new_id = s.new_piece_id(m.nation, m.kind, d) if m.source is not None and o.into is None \
        else None
    if o.into is not None and hidden_templates(s):
        # 1.4: the retreat is seen (the unit fought in the battle), not the army it joined.
        ctx.emit(UnitRetreated(side=side, unit=o.unit, kind=m.kind, nation=m.nation,
                               from_area=m.area, to_area=o.to, how=how,
                               secret=ctx.secret(side, {"unit": o.unit, "new_id": None,
                                                        "into": o.into})))
    else:
        ctx.emit(UnitRetreated(side=side, unit=o.unit, kind=m.kind, nation=m.nation,
                               from_area=m.area, to_area=o.to, how=how, new_id=new_id,
                               into=o.into))
    # 8.1 at once in the battle area: the army a unit left, or one the retreat left without
    # Friendly infantry-type units, may stand there empty (control waits for the battle's end).
    movement.strand_empty_armies(ctx, m.area, m.source.id if m.source is not None else None)
    movement.settle(ctx, [o.to])
    army = ctx.state.armies.get(o.unit)
    if army is not None and army.status == "map" and army.strength == 0 and \
            ctx.state.area_state(o.to, d) == "disputed":
        # 8.1: an empty army must leave a Disputed area; having retreated once this
        # player turn it cannot retreat again, so it is eliminated (5.4.4).
        ctx.emit(ArmyEliminated(side=side, army=o.unit, area=o.to, rule="5.4.4",
                                reason="an empty army that retreated into a Disputed area "
                                       "would have to retreat a second time"))


def _retreat_candidates(how: str):
    def gen(s: State, d: GameData, side: str):
        if how != "reaction":
            yield from retreat_options(s, d, side, how)
        if how == "reaction" or how == "instead" and not s.battle["surprise"]:
            for ref in reaction_options(s, d):
                yield React(unit=ref)
                for kind in reroll_kinds(s, d):
                    yield React(unit=ref, on=kind)
        yield Done()
    return gen


def _retreat_check(how: str):
    def check(s: State, d: GameData, o: Ord, side: str) -> Violation | None:
        if isinstance(o, Retreat):
            if how == "reaction":
                return Violation("8.3.4", "this is the moment for Biplane reactions only")
            return retreat_violation(s, d, o, side, how)
        if isinstance(o, React):
            if how not in ("instead", "reaction") or (how == "instead" and s.battle["surprise"]):
                return Violation("8.3.4", f"Biplanes react before the attacker fires, in the "
                                          f"defence step (or before a "
                                          f"{d.card_title('surprise_attack')}'s fire)")
            if o.unit not in reaction_options(s, d):
                return Violation("8.3.4", f"{o.unit} is not a defending Biplane that can react "
                                          f"here (no dogfight, no {d.card_title('bad_weather')})")
            if o.on is not None and o.on not in reroll_kinds(s, d):
                return Violation("8.3.4", f"{o.on!r} is not an infantry type the attacker can "
                                          f"have: name one of "
                                          f"{', '.join(reroll_kinds(s, d))}")
            return None
        if how == "instead":
            for a in s.armies_in(s.battle["area"], side, d):
                if a.strength == 0 and a.id not in s.combat["markers"] and any(
                        r.unit == a.id for r in retreat_options(s, d, side, "instead")):
                    return Violation("8.1", f"army {a.id} is empty and must retreat from the "
                                            f"battle in the defensive fire phase")
        if how == "after" and side == s.battle["defender"] and forced_left(s, d):
            return Violation(forcing_rules(s, d), f"{forced_left(s, d)} more of the defender's "
                                               f"armies must retreat after combat: each "
                                               f"attacking hit of those units forces one")
        return None
    return check


def _owed(s: State, d: GameData) -> int:
    """Forced retreats (Stoßtruppen, Tank and special-card hits) the defender still owes."""
    b = s.battle
    side = b["defender"]
    done = sum(1 for r in b["armies_retreated"] if d.nation_side[s.armies[r].nation] == side)
    return b["forced"] - done - b.get("forced_out", 0)


def forcing_rules(s: State, d: GameData) -> str:
    """The rules whose words made this battle's forced retreats: the unit types whose attacking
    hits force one (8.2.2 Stoßtruppen, 8.3.5 Tanks) and the cards whose dice do (9.1.5,
    9.1.6), in the order they hit; 5.4 (retreat after combat) when none is known."""
    return d.rules_of(s.battle.get("forcing", [])) or "5.4"


def _elim_rules(s: State, d: GameData) -> str:
    """5.4 (a retreat that cannot be made) and the rules that forced the retreats."""
    forcing = forcing_rules(s, d)
    return forcing if forcing == "5.4" else f"5.4, {forcing}"


def forced_left(s: State, d: GameData) -> int:
    """Forced retreats still owed by the defender that an army can still make."""
    b = s.battle
    side = b["defender"]
    owed = _owed(s, d)
    if owed <= 0:
        return 0
    can = {r.unit for r in retreat_options(s, d, side, "after") if r.unit in s.armies}
    return min(owed, len(can))


def stuck_armies(s: State, d: GameData) -> list[str]:
    """The defender's armies still in the battle, none of which can retreat now (5.4)."""
    b = s.battle
    return [a.id for a in s.armies_in(b["area"], b["defender"], d)
            if a.id not in s.combat["markers"]]


def forced_eliminations(ctx: Ctx) -> bool:
    """Forced retreats no army can make eliminate armies; the owner names them (5.4, our reading).

    With no more armies than retreats owed there is nothing to choose and they
    all go; otherwise the defender is asked. True when he must decide.
    """
    s, d = ctx.state, ctx.data
    b = s.battle
    side = b["defender"]
    owed = _owed(s, d)
    stuck = stuck_armies(s, d)
    if owed <= 0 or not stuck:
        return False
    if len(stuck) <= owed:
        for a in stuck:
            _forced_out(ctx, side, a)
        return False
    if s.pending is None or s.pending.kind != "forced_elimination":
        prompt(ctx, "forced_elimination", side)
    return True


def _forced_out(ctx: Ctx, side: str, army: str) -> None:
    ctx.emit(ArmyEliminated(side=side, army=army, area=ctx.state.battle["area"], rule="5.4",
                            reason="forced to retreat after combat with nowhere to go"))


def _elim_check(s: State, d: GameData, o: Eliminate, side: str) -> Violation | None:
    if o.army not in stuck_armies(s, d):
        return Violation("5.4", f"{o.army} is not one of the defender's armies left in the "
                                f"battle ({', '.join(stuck_armies(s, d))})")
    return None


def _elim_apply(ctx: Ctx, o: Eliminate, side: str) -> str | None:
    _forced_out(ctx, side, o.army)
    if not forced_eliminations(ctx):
        return "advance"            # the step is over: the battle goes on (battle.THEN)
    return None


register(DecisionSpec(
    kind="forced_elimination", rule="5.4",
    prompt=lambda s, d: (f"{counted(_owed(s, d), 'forced retreat')} in "
                         f"{d.areas[s.battle['area']].name} cannot be made; name the army "
                         f"eliminated for each ({_elim_rules(s, d)})"),
    accepts=("eliminate",),
    candidates=lambda s, d, side: (Eliminate(army=a) for a in stuck_armies(s, d)),
    check=_elim_check, apply=_elim_apply))


def _retreat_apply(how: str):
    def apply(ctx: Ctx, o: Ord, side: str) -> str | None:
        """One answer to the step's decision; when it ends the step, what the battle does
        next (battle.THEN)."""
        if isinstance(o, Retreat):
            apply_retreat(ctx, o, side, how)
            return None
        if isinstance(o, React):
            ctx.emit(BiplaneReacts(side=side, unit=o.unit, on=o.on))
            return None
        if how == "instead":
            return "after_defence"
        if how == "after" and side == ctx.state.battle["defender"] and forced_eliminations(ctx):
            return None
        return "advance"
    return apply


def reroll_kinds(s: State, d: GameData) -> list[str]:
    """The infantry types whose hits a reacting Biplane may ask to re-roll (8.3.4).

    Those the attacking side's nations have in their counter mix: judged on
    the side, never on hidden army contents.
    """
    att = s.battle["attacker"]
    have = {k for n, row in d.units.mix.items() if d.nation_side.get(n) == att
            for k, c in row.items() if c}
    return sorted(k for k in d.units.infantry_types if k in have)


def reaction_options(s: State, d: GameData) -> list[str]:
    b = s.battle
    if s.combat["weather"]:
        return []
    air = d.units.kinds_with("aircraft")
    refs = [u.ref for u in units_in(s, d, b["area"], b["defender"]) if u.kind in air]
    return sorted(r for r in dict.fromkeys(refs) if r not in b["dogfighters"]
                  and r not in b["reacting"])


def _defence_prompt(s: State, d: GameData) -> str:
    """The defender's choice before his fire, offering only what is open to him now
    (open_kinds): a retreat instead of firing (5.4.1), a Biplane's reaction (8.3.4)."""
    kinds = open_kinds(s, d)
    parts = ["retreat units instead of firing (each to an adjacent Friendly or Disputed "
             "area)"] * ("retreat" in kinds)
    parts += ["let Biplanes react (8.3.4)" if not parts else "let Biplanes react"] * \
        ("react" in kinds)
    text = ", ".join(parts) + (", then 'done' and fire" if parts else "'done' and fire")
    return f"in the battle in {d.areas[s.battle['area']].name}: {text} (5.4.1)"


for _kind, _how, _rule, _text in (
        ("cavalry_retreat", "cavalry", "5.4.3",
         "retreat cavalry before combat to adjacent Friendly or Disputed areas, then 'done'"),
        ("defence", "instead", "5.4.1", None),
        ("reaction", "reaction", "8.3.4",
         "let defending Biplanes react (each forces a re-roll of one infantry hit), then 'done'"),
        ("retreat_after", "after", "5.4.2",
         "retreat units after combat, all to one adjacent Friendly or Disputed area, then "
         "'done'")):
    register(DecisionSpec(
        kind=_kind, rule=_rule,
        prompt=(lambda text: lambda s, d: (f"in the battle in "
                                           f"{d.areas[s.battle['area']].name}: {text} "
                                           f"({DECISION_RULE[s.pending.kind]})"))(_text)
        if _text else _defence_prompt,
        accepts=("retreat", "react", "done"), candidates=_retreat_candidates(_how),
        check=_retreat_check(_how), apply=_retreat_apply(_how)))

DECISION_RULE = {"cavalry_retreat": "5.4.3", "defence": "5.4.1", "reaction": "8.3.4",
                 "retreat_after": "5.4.2"}
