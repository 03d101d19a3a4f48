"""How the log tells the combat phase: declared battles, combat cards, every die of a fire
phase and how each hit was paid (2.0 II.3-II.4, 5.x, 8.3, 9.x), one function per event kind."""

from __future__ import annotations

from ..base.plurals import a_or_an, counted, noun
from .firewhy import ARMIES, WHY
from .incontext import BONUS, CANCELLED, GASSED, GROUNDED, SPENT
from .phrases import area, card_name, kind_name, opened, phase_name, side, unit_named, unprinted

# Imported for annotations only: the quick paths do without the typing module.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..data.gamedata import GameData
    from .phrases import Wording

_HIT_TARGETS = {"battle": "", "dogfight": " (Biplanes only)",
                "pursuit": " (on the retreating units)"}
_RETREATS = {"cavalry": "retreats before combat (5.4.3)",
             "instead": "retreats instead of firing (5.4.1)",
             "after": "retreats after combat (5.4.2)",
             "empty": "retreats, empty, from a Disputed area at the end of movement (8.1)"}


# ---------------------------------------------------------------- declaring battles

def _combat_phase_began(ev: dict, data: GameData, reader: str) -> str:
    must = ", ".join(area(a, data) for a in ev["compulsory"]) or "none"
    return f"Declare battles (2.0 II.3): battles that must be fought: {must}"


def _battle_declared(ev: dict, data: GameData, reader: str) -> str:
    return f"{area(ev['area'], data)} declared a Battle Area (5.1.2)"


def _combat_card_played(ev: dict, data: GameData, reader: str) -> str:
    where = f" in {area(ev['area'], data)}" if ev.get("area") else ""
    card = data.cards[ev["card"]]
    line = f"{side(ev, data)} plays {card.title}{where} ({card.rule})"
    weather = data.card_types["bad_weather"].title if ev.get(CANCELLED) or GASSED in ev else ""
    if ev.get(CANCELLED):
        line += f", cancelled by {weather} as it is played ({card.rule})"
    for gas in ev.get(GASSED, []):
        ct = data.card_types[gas["key"]]
        at = f" in {area(gas['area'], data)}" if gas.get("area") else ""
        line += (f"; the {data.side_name(gas['side'])} {ct.title}{at} is cancelled by "
                 f"{weather} ({ct.rule})")
    if ev.get(GROUNDED):
        line += f"; Biplanes take no part in this combat phase (8.3.4, {card.rule})"
    return line


def _bonus_designated(ev: dict, data: GameData, reader: str) -> str:
    key = ev.get(BONUS)
    if key is None:             # the game before it not known: the card is not either
        return f"The special offensive's extra dice go to {area(ev['area'], data)} (9.1)"
    ct, dice = data.card_types[key], data.card_bonus[key].dice
    return (f"{ct.title}'s extra {noun(dice, 'die', 'dice')} {'goes' if dice == 1 else 'go'} "
            f"to {area(ev['area'], data)} ({ct.rule})")


def _offensive_downgraded(ev: dict, data: GameData, reader: str) -> str:
    return (f"Bad Weather: the {side(ev, data)} {card_name(ev['before'], data)} now counts "
            f"as {card_name(ev['after'], data)} (9.5)")


def _battle_cancelled(ev: dict, data: GameData, reader: str) -> str:
    line = f"No battle in {area(ev['area'], data)}: {ev['reason']}"
    for c in ev.get(SPENT, []):
        ct = data.card_types[c["key"]]
        line += (f"; the {data.side_name(c['side'])} {ct.title} played for it is spent "
                 f"with no effect ({ct.rule})")
    return line


# ---------------------------------------------------------------- a battle

def _battle_began(ev: dict, data: GameData, reader: str) -> str:
    kind = "SURPRISE ATTACK! battle (9.7)" if ev.get("surprise") else "battle (5.2.1)"
    return (f"=== {area(ev['area'], data)}: {kind}, {data.side_name(ev['attacker'])} "
            f"attacking ===")


def _fire_group(g: dict, data: GameData, phase: str = "") -> str:
    """One unit's or card's dice: firepower, the fire it rolls when its type's is a special
    one (a Siege Gun's at the fort, 8.3.3; cavalry's raiding fire in offensive fire, 8.3.1),
    the dice (and re-rolls, 8.3.4), the hits."""
    dice = " ".join(str(x) for x in g["dice"])
    if g.get("rerolled"):
        dice += f" (re-rolled from {' '.join(map(str, g['rerolled']))}, 8.3.4)"
    name = data.card_types[g["source"]].title if g["kind"] == "card" else \
        f"{g['source']}" + ("" if g["source"].endswith(g["kind"]) else
                            f" {kind_name(g['kind'])}")
    extra = f" ({g[WHY]})" if g.get(WHY) else ""
    extra += " at the fort" if g.get("siege") else _raiding(g, data, phase)
    extra += ", forces retreats" if g.get("forces_retreat") else ""
    hits = counted(g["hits"], "hit") if g["hits"] else "miss"
    return f"{name} F{g['fp']}{extra} [{dice}] {hits}"


def _raiding(g: dict, data: GameData, phase: str) -> str:
    """' in raiding fire (8.3.1)' for a die of a type with no offensive fire rolled in
    offensive fire: cavalry fires so only once no enemy infantry-type unit is left in the
    battle, which the line must say, as earlier battles told it fires no die there."""
    ut = data.units.unit_types.get(g["kind"]) if g["kind"] != "card" else None
    if phase != "offensive" or ut is None:
        return ""
    fire = ut.firepower
    return f" in raiding fire ({ut.rule})" if "raiding" in fire and not fire.get("offense") \
        else ""


def _forcing(ev: dict, data: GameData) -> str:
    """The rules of the dice that forced retreats in a fire phase: the unit types' (8.2.2
    Stoßtruppen, 8.3.5 Tanks) and the cards' (9.1.5, 9.1.6)."""
    forcing = [g["source"] if g["kind"] == "card" else g["kind"] for g in ev["groups"]
               if g.get("forces_retreat") and g["hits"]]
    return data.rules_of(forcing) or "5.4.2"


def _fire_resolved(ev: dict, data: GameData, reader: str) -> str:
    """Every die of a fire phase: unit or card, firepower, the dice, the hits (5.2)."""
    parts = [_fire_group(g, data, ev["phase"]) for g in ev["groups"]]
    total = ev["hits"] + ev.get("siege_hits", 0)
    tail = f" = {counted(total, 'hit')}"
    if ev.get("siege_hits"):
        tail += f" ({ev['siege_hits']} on the fort)"
    if ev.get("forced_retreats"):
        tail += f"; {counted(ev['forced_retreats'], 'army retreat')} forced ({_forcing(ev, data)})"
        if ARMIES in ev:        # a report's: the armies there to make them (firewhy.py)
            tail += _armies_there(ev, data)
    if ev.get("silent"):
        tail += "; " + _silent(ev, data)
    return (f"{area(ev['area'], data)} — {side(ev, data)} {phase_name(ev)}: "
            + ("; ".join(parts) or "no die") + tail)


def _armies_there(ev: dict, data: GameData) -> str:
    """When fewer of the defender's armies are in the battle than retreats were forced, how
    many there are to make them: each retreats once (8.2.2, 5.4.2)."""
    armies, owed = ev[ARMIES], ev["forced_retreats"]
    if armies >= owed:
        return ""
    foe = data.side_name(next((s for s in data.sides if s != ev["side"]), ""))
    there = f"only {counted(armies, f'{foe} army', f'{foe} armies')}" if armies else \
        f"no {foe} army"
    return f", {there} in the battle to make them"


def _silent(ev: dict, data: GameData) -> str:
    """The unit types in the battle that fire no die in this phase, each with its rule, once
    for the phase (8.3.1 cavalry in offensive fire, 8.3.3, 8.3.5); a type that never fires
    in Rough terrain says that is why, where the battle area is Rough (8.3.5)."""
    types = data.units.unit_types
    rough = ev["area"] in data.areas and data.areas[ev["area"]].terrain == "rough"

    def why(k: str) -> str:
        fire = types[k].firepower
        where = "in Rough terrain, " if rough and "in_rough" in fire and not fire["in_rough"] \
            else ""
        return f"{kind_name(k)} ({where}{types[k].rule})"

    said = [why(k) if k in types else kind_name(k) for k in ev["silent"]]
    verb = "fires" if len(said) == 1 else "fire"
    return f"{' and '.join(said)} {verb} no die in {ev['phase']} fire"


def _hits_to_pay(ev: dict, data: GameData, reader: str) -> str:
    what = _HIT_TARGETS[ev.get("target", "battle")]
    siege = f", {ev['siege_hits']} of them on the fort" if ev.get("siege_hits") else ""
    return (f"{side(ev, data)} must pay {counted(ev['hits'] + ev.get('siege_hits', 0), 'hit')}"
            f"{what}{siege}")


def _loss_taken(ev: dict, data: GameData, reader: str) -> str:
    if ev["how"] == "ersatz":
        waste = f", {counted(ev['wasted'], 'point')} lost" if ev.get("wasted") else ""
        paid = ev.get("hits", 0) + ev.get("siege_hits", 0)
        return (f"{side(ev, data)} pays {counted(paid, 'hit')} with "
                f"{data.cards[ev['card']].title} as Ersatz{waste} (5.3.2)")
    if ev["how"] == "fort":                 # a Siege Gun hit goes to the fort (8.3.3)
        why = " to a Siege Gun hit (8.3.3)" if ev.get("siege_hits") else " (5.3.1)"
        return f"{side(ev, data)} fort {ev['unit']} loses a step{why}"
    return f"{side(ev, data)} loses {unit_named(ev['unit'], ev['kind'], data)} (5.3.1)"


def _hits_lost(ev: dict, data: GameData, reader: str) -> str:
    if ev.get("paid"):              # annihilation: each step removed paid a hit (5.3.4)
        due = ev["paid"] + ev["hits"]
        left = (f"{counted(ev['hits'], 'hit')} {'goes' if ev['hits'] == 1 else 'go'} unpaid"
                if ev["hits"] else "none goes unpaid")
        return (f"{side(ev, data)} annihilation pays {ev['paid']} of {counted(due, 'hit')}, "
                f"one for each step of strength removed; {left} (5.3.4)")
    return (f"{counted(ev['hits'], 'hit')} on the {side(ev, data)} side "
            f"{'goes' if ev['hits'] == 1 else 'go'} unpaid: {ev['reason']}")


def _fort_destroyed(ev: dict, data: GameData, reader: str) -> str:
    return f"Fort {ev['fort']} in {area(ev['area'], data)} is gone: {ev['reason']}"


def _unit_retreated(ev: dict, data: GameData, reader: str) -> str:
    now = f" (now {ev['new_id']})" if ev.get("new_id") else ""
    seen = opened(ev, reader)
    joins = (", into one of his armies (hidden, 1.4)" if seen is None else
             f", into army {seen['into']} (8.1)" if seen.get("into") else "")
    return (f"{side(ev, data)} {ev['unit']}{now} {_RETREATS[ev['how']]}: "
            f"{area(ev['from_area'], data)} -> {area(ev['to_area'], data)}{joins}")


def _biplane_reacts(ev: dict, data: GameData, reader: str) -> str:
    first = f", {a_or_an(ev['on'])} hit first" if ev.get("on") else ""
    return f"{side(ev, data)} Biplane {ev['unit']} reacts: it will force a re-roll{first} (8.3.4)"


def _battle_ended(ev: dict, data: GameData, reader: str) -> str:
    return f"=== end of the battle in {area(ev['area'], data)} ==="


def _combat_phase_ended(ev: dict, data: GameData, reader: str) -> str:
    return "Combat phase over; retreat markers removed (5.4)"


WORDING: dict[str, Wording] = {
    "CombatPhaseBegan": _combat_phase_began,
    "BattleDeclared": _battle_declared,
    "CombatCardPlayed": _combat_card_played,
    "BonusDesignated": _bonus_designated,
    "OffensiveDowngraded": _offensive_downgraded,
    "BattleCancelled": _battle_cancelled,
    "BattleBegan": _battle_began,
    "BattleStep": unprinted,
    "FireResolved": _fire_resolved,
    "HitsToPay": _hits_to_pay,
    "LossTaken": _loss_taken,
    "HitsLost": _hits_lost,
    "FortDestroyed": _fort_destroyed,
    "UnitRetreated": _unit_retreated,
    "BiplaneReacts": _biplane_reacts,
    "BattleEnded": _battle_ended,
    "CombatPhaseEnded": _combat_phase_ended,
}
