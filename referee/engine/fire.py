"""Who fires in each phase of a battle, at what firepower, and the dice (5.2, 8.x, 9.x).

A firing group is one unit (or card bonus) rolling dice at one firepower. The
phases are the dogfight, the attacker's artillery fire, the defender's fire,
pursuit fire and the attacker's fire (2.0 II.4, 5.2.1).
"""

from __future__ import annotations

import msgspec

from ..contracts.events_combat import DieGroup, FireResolved
from ..data.gamedata import GameData
from .core import Ctx
from .state import State, nation_of, other

# The order dice are rolled in, phase by phase (manual dice are given in this order), is the
# game data's: units.yaml roll_order, then card dice (UnitsData.roll_rank).
# The special Offensives' extra dice are the deck's (deck.yaml bonus, GameData.card_bonus).


class Unit(msgspec.Struct):
    """One unit in a battle: a stand-alone counter, or one unit on an army template."""

    ref: str           # stand-alone id, or ARMY:KIND
    kind: str
    nation: str
    army: str | None = None

    def entrenched(self, s: State, d: GameData) -> bool:
        """Entrenched infantry fire F2 in defence (8.2.1); Stoßtruppen never benefit (8.2.2)."""
        if self.kind not in d.units.entrenching:
            return False
        if self.army is not None:
            return s.armies[self.army].entrenched
        return s.pieces[self.ref].entrenched


def markers(s: State) -> set[str]:
    """Counters with a retreat marker this combat phase (5.4)."""
    return set(s.combat["markers"]) if s.combat else set()


def units_in(s: State, d: GameData, area: str, side: str) -> list[Unit]:
    """side's units taking part in the battle in area: those without a retreat marker (5.4.4)."""
    skip = markers(s)
    out: list[Unit] = []
    for a in sorted(s.armies.values(), key=lambda a: a.id):
        if a.status != "map" or a.area != area or a.id in skip or d.nation_side[a.nation] != side:
            continue
        for key, n in sorted(a.contents.items()):
            nation, kind = key.split(":")
            ref = f"{a.id}:{kind}" if nation == a.nation else f"{a.id}:{nation}-{kind}"
            out += [Unit(ref, kind, nation, a.id)] * n
    for p in sorted(s.pieces.values(), key=lambda p: p.id):
        if p.area == area and p.id not in skip and d.nation_side[p.nation] == side:
            out.append(Unit(p.id, p.kind, p.nation))
    return out


def has_biplanes(s: State, d: GameData, area: str, side: str) -> bool:
    """side has Biplanes in the battle (8.3.4)."""
    air = d.units.kinds_with("aircraft")
    return any(u.kind in air for u in units_in(s, d, area, side))


def _cards(s: State, side: str, area: str, key: str) -> bool:
    return any(c["side"] == side and c["area"] == area and c["key"] == key
               for c in s.combat["cards"])


def artillery_fp(s: State, d: GameData, area: str, side: str, nation: str, defensive: bool,
                 kind: str = "artillery") -> int:
    """Firepower of a unit type that Combat cards raise, from units.yaml: Artillery F1; Poison
    Gas! F2 (not in Bad Weather); Barrage F3 (9.3, 9.4).

    Optional 1918 UK matériel superiority: UK artillery fires F2 in defence, F3 with
    Poison Gas! (8.3.2; the nations, option and firepower are the unit type's).
    """
    return _artillery_fire(s, d, area, side, nation, defensive, kind)[0]


def _artillery_fire(s: State, d: GameData, area: str, side: str, nation: str, defensive: bool,
                    kind: str) -> tuple[int, str]:
    """artillery_fp, and why: the card or rule that gave it."""
    ut = d.units.unit_types[kind]
    fp = ut.firepower
    gas = "poison_gas" in fp and _cards(s, side, area, "poison_gas") and not (
        s.combat["weather"] and "bad_weather" in d.card_types["poison_gas"].cancelled_by)  # 9.5
    if "advanced_artillery_barrage" in fp and _cards(s, side, area, "advanced_artillery_barrage"):
        return fp["advanced_artillery_barrage"], card_why(d, "advanced_artillery_barrage")
    ms = ut.materiel_superiority
    if defensive and ms is not None and nation in ms.nations and s.options.get(ms.option) and \
            s.turn >= ms.from_turn:
        key = "poison_gas" if gas and "poison_gas" in ms.fire else "defense"
        why = f"matériel superiority, {ut.rule}"
        if key == "poison_gas":
            why += f"; {card_why(d, 'poison_gas')}"
        return (int(ms.fire[key][1:]) if ms.fire.get(key) else 0), why
    if gas:
        return fp["poison_gas"], card_why(d, "poison_gas")
    return fp.get("defense" if defensive else "offense", 0), ut.rule


def card_why(d: GameData, key: str) -> str:
    """A Combat card that sets a firepower, as a die's purpose names it: title and rule."""
    card = d.card_types[key]
    return f"{card.title}, {card.rule}"


def enemy_fort(s: State, area: str, side: str, d: GameData) -> str | None:
    """The id of an enemy fort in the area, if any."""
    for f in s.forts.values():
        if f.area == area and d.nation_side[f.nation] != side:
            return f.id
    return None


def groups(s: State, d: GameData, phase: str) -> list[dict]:
    """The firing groups of one phase of the current battle (5.2.1, 5.2.2, 8.x, 9.1.3-9.1.6)."""
    b = s.battle
    area, att, dfn = b["area"], b["attacker"], b["defender"]
    side = dfn if phase == "defensive" else att
    weather = s.combat["weather"]
    rough = d.areas[area].terrain == "rough"
    out: list[dict] = []

    def add(source, kind, fp, dice=1, retreat=False, siege=False, inf=False, why=""):
        if fp <= 0 or dice <= 0:
            return
        for g in out:
            if g["source"] == source and g["kind"] == kind and g["fp"] == fp:
                g["count"] += dice
                return
        out.append({"source": source, "kind": kind, "fp": fp, "count": dice,
                    "forces_retreat": retreat, "siege": siege, "inf": inf, "why": why})

    types = d.units.unit_types
    if phase == "dogfight":
        for side_ in (att, dfn):
            for u in units_in(s, d, area, side_):
                if types[u.kind].aircraft:
                    add(u.ref, u.kind, types[u.kind].firepower["dogfight"],
                        why=f"dogfight, {types[u.kind].rule}")
        return _ordered(out, d)
    dogfighters = set(b["dogfighters"])
    foe = other(side, d)
    infantry = d.units.infantry_types
    foe_inf = any(u.kind in infantry for u in units_in(s, d, area, foe))
    fort = enemy_fort(s, area, side, d)
    key = s.turn_state.card_as if area in s.combat["bonus"] else None
    bonus = d.card_bonus.get(key) if key else None
    defensive = phase == "defensive"
    if phase in ("artillery", "pursuit"):
        for u in units_in(s, d, area, att):
            ut = types[u.kind]
            if phase == "pursuit":
                add(u.ref, u.kind, ut.firepower.get("pursuit", 0), why=f"pursuit, {ut.rule}")
            elif ut.fires_in_artillery_step:
                fp, siege, why = _fire_of(s, d, u, False, fort, foe_inf, rough)
                add(u.ref, u.kind, fp, siege=siege, why=why)
        if phase == "artillery" and bonus and "artillery" in bonus.phases and \
                not (rough and no_fire_in_rough(d, bonus.fires_as)):         # 9.1.3, 9.1.4
            add(key, "card", bonus.firepower, dice=bonus.dice, retreat=bonus.hits_force_retreat,
                why=card_why(d, key))
        return _ordered(out, d)
    for u in units_in(s, d, area, side):
        k = u.kind
        ut = types[k]
        if ut.aircraft and (weather or u.ref in dogfighters
                            or (defensive and u.ref in b["reacting"])):
            continue
        fp, siege, why = _fire_of(s, d, u, defensive, fort, foe_inf, rough)
        add(u.ref, k, fp, retreat=ut.forced_retreat_on_hit and not defensive, siege=siege,
            inf=k in infantry, why=why)
    if defensive:
        fk = d.units.fort_kind
        fort_fp = types[fk].firepower.get("defense", 0) if fk in types else 0
        for f in s.forts.values():
            if f.area == area and d.nation_side[f.nation] == side and f.strength > 0:
                add(f.id, fk, fort_fp, dice=f.strength,
                    why=f"a die for each step of its strength, {types[fk].rule}")
    else:
        if bonus and "offensive" in bonus.phases and \
                not (rough and no_fire_in_rough(d, bonus.fires_as)):         # 9.1.3-9.1.6
            add(key, "card", bonus.firepower, dice=bonus.dice, retreat=bonus.hits_force_retreat,
                why=card_why(d, key))
    return _ordered(out, d)


def silent_kinds(s: State, d: GameData, phase: str, side: str) -> list[str]:
    """The unit types of side in the battle that roll no die in its offensive or defensive
    fire by their type's fire (units.yaml): cavalry in offensive fire (8.3.1), a Siege Gun
    with no Enemy fort (8.3.3), a Tank in Rough terrain (8.3.5); in rolling order. A Biplane
    kept out of the fire by a dogfight, a reaction or Bad Weather is not one (5.2.1 a, 8.3.4)."""
    if phase not in ("offensive", "defensive"):
        return []
    b = s.battle
    area = b["area"]
    defensive = phase == "defensive"
    fort = enemy_fort(s, area, side, d)
    foe_inf = any(u.kind in d.units.infantry_types for u in units_in(s, d, area, other(side, d)))
    rough = d.areas[area].terrain == "rough"
    out: set[str] = set()
    for u in units_in(s, d, area, side):
        if d.units.unit_types[u.kind].aircraft and (
                s.combat["weather"] or u.ref in b["dogfighters"]
                or (defensive and u.ref in b["reacting"])):
            continue
        if _fire_of(s, d, u, defensive, fort, foe_inf, rough)[0] <= 0:
            out.add(u.kind)
    return sorted(out, key=lambda k: d.units.roll_rank[k])


def no_fire_in_rough(d: GameData, kind: str) -> bool:
    """Whether a unit type never fires in Rough terrain (8.3.5: its in_rough firepower)."""
    fp = d.units.unit_types[kind].firepower
    return "in_rough" in fp and not fp["in_rough"]


def _fire_of(s: State, d: GameData, u: Unit, defensive: bool, fort: str | None, foe_inf: bool,
             rough: bool) -> tuple[int, bool, str]:
    """A unit's firepower in offensive or defensive fire, whether its hits go to the enemy
    fort, and why: the rule or card that gave that firepower, from its type's fire in
    units.yaml (5.2.1, 8.2.1, 8.3.1-8.3.5, 9.3, 9.4)."""
    ut = d.units.unit_types[u.kind]
    fp = ut.firepower
    if rough and "in_rough" in fp:                       # 8.3.5
        return fp["in_rough"], False, f"in Rough terrain, {ut.rule}"
    if defensive:
        if "defense_entrenched" in fp and u.entrenched(s, d):      # 8.2.1
            return fp["defense_entrenched"], False, f"entrenched, in defence, {ut.rule}"
    elif "offense_vs_fort" in fp:                        # 8.3.3
        return (fp["offense_vs_fort"] if fort else 0), True, f"at the fort, {ut.rule}"
    elif not fp.get("offense") and "raiding" in fp:      # raiding fire (8.3.1)
        return (0 if foe_inf else fp["raiding"]), False, f"raiding fire, {ut.rule}"
    if "poison_gas" in fp or "advanced_artillery_barrage" in fp or ut.materiel_superiority:
        b = s.battle
        fp_, why = _artillery_fire(s, d, b["area"], d.nation_side[u.nation], u.nation,
                                   defensive, u.kind)
        return fp_, False, why
    return fp.get("defense" if defensive else "offense", 0), False, ut.rule


def _ordered(groups_: list[dict], d: GameData) -> list[dict]:
    """Groups in rolling order: by unit type (units.yaml roll_order), then by unit."""
    rank = d.units.roll_rank
    return sorted(groups_, key=lambda g: (rank[g["kind"]], g["source"]))


def reroll_first(s: State, d: GameData) -> list[str]:
    """The defender's best odds: the infantry-type hit to re-roll first (8.3.4, our reading).

    A re-rolled F1 hit misses 5 times in 6, an F2 hit 4 in 6: infantry fire F1
    offensively, Stoßtruppen and Commonwealth F2 (their offense in units.yaml). A
    Stoßtruppen hit that stands also forces one of the defender's armies to retreat
    (8.2.2), which costs more than the 1 in 6 given up, so it goes first while the
    defender has an army in the battle.
    """
    b = s.battle
    armies = [a for a in s.armies_in(b["area"], b["defender"], d) if a.id not in markers(s)]
    types, rank = d.units.unit_types, d.units.roll_rank

    def worth(kind: str) -> tuple:
        ut = types[kind]
        return (not (armies and ut.forced_retreat_on_hit), ut.firepower.get("offense", 0),
                rank[kind])

    return sorted(d.units.infantry_types, key=worth)


def _fired_by(g: dict) -> str:
    """A group's source as its dice's purpose names it: a unit of an army by its ref alone
    ('ge-18:biplane' names its type), a unit on its own with its type ('be-i-01 infantry'),
    as the log names it (render/words_combat.py)."""
    return g["source"] if g["source"].endswith(f":{g['kind']}") else \
        f"{g['source']} {g['kind']}"


def roll(ctx: Ctx, phase: str, side: str, reacting: list[str | None] | None = None
         ) -> FireResolved:
    """Roll every group of a phase; reacting Biplanes force re-rolls of infantry hits (8.3.4).

    `reacting` holds, per reacting Biplane in the order they reacted, the
    infantry type whose hit its owner asked to re-roll first (None: the
    defender's best odds, `reroll_first`). Each die is re-rolled once at most.
    """
    s, d = ctx.state, ctx.data
    b = s.battle
    area = b["area"]
    gs = groups(s, d, phase)
    if phase == "dogfight":
        gs = [g for g in gs if d.nation_side[nation_of(s, g["source"])] == side]
    names = {"dogfight": "dogfight", "artillery": "artillery fire",
             "defensive": "defensive fire", "offensive": "offensive fire",
             "pursuit": "pursuit fire"}
    out: list[DieGroup] = []
    for g in gs:
        dice = ctx.dice.roll(g["count"], f"{d.areas[area].name} — {d.side_name(side)} "
                                         f"{names[phase]}, "
                                         f"{_fired_by(g)} F{g['fp']}"
                                         + (f" ({g['why']})" if g["why"] else ""))
        out.append(DieGroup(source=g["source"], kind=g["kind"], fp=g["fp"], dice=dice,
                            hits=sum(1 for x in dice if x <= g["fp"]),
                            forces_retreat=g["forces_retreat"], siege=g["siege"]))
    if reacting:
        best = reroll_first(s, d)
        hits = [(g, i) for g in out if g.kind in d.units.infantry_types
                for i, x in enumerate(g.dice) if x <= g.fp]
        for prefer in reacting:
            order = ([prefer] if prefer else []) + best
            pick = next((h for k in order for h in hits if h[0].kind == k), None)
            if pick is None:
                break
            hits.remove(pick)
            g, i = pick
            new = ctx.dice.roll(1, f"{d.areas[area].name} — re-roll forced by a reacting "
                                   f"Biplane (8.3.4)")[0]
            g.rerolled.append(g.dice[i])
            g.dice[i] = new
            g.hits = sum(1 for x in g.dice if x <= g.fp)
    hits = sum(g.hits for g in out if not g.siege)
    siege = sum(g.hits for g in out if g.siege)
    forced = sum(g.hits for g in out if g.forces_retreat)
    return FireResolved(area=area, side=side, phase=phase, groups=out, hits=hits,
                        siege_hits=siege, forced_retreats=forced,
                        silent=silent_kinds(s, d, phase, side))
