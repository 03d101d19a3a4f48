"""What a fire line in a report needs beyond its event: why a die group fired at a firepower
that is not its unit type's own, and how many of the defender's armies are in the battle
to make the retreats its Stoßtruppen or Tanks forced (5.2, 8.2.1, 8.2.2, 8.3.2, 9.3, 9.4).

The event keeps each group's firepower, not why (`explain` replays the record for that);
the reasons come from the unit type's fire in units.yaml, the game's options and the turn,
in the order the engine tries them (engine/fire.py `_fire_of`), and are given as the
engine words a die's purpose. The armies are those of the defender in the battle area
before the record, less any with a retreat marker (5.4.4): army counters are on every
reader's map, hidden templates or not, so the number tells nothing a reader cannot see.
"""

from __future__ import annotations

from ..engine.fire import card_why

# Imported for annotations only: the quick paths do without the typing module.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..data.gamedata import GameData

WHY = "_why"            # the key of a group's reason in the event copy words_combat reads
ARMIES = "_armies"      # the key of the number of the defender's armies in the battle


def with_reasons(ev: dict, state, data: GameData) -> dict:
    """A FireResolved event as a report tells it: each group whose firepower is not its
    unit type's own given its reason (said once a line: a reason already given to a group
    before it is not repeated), and with forced retreats the defender's armies there."""
    if ev.get("type") != "FireResolved" or state is None:
        return ev
    out = {**ev, "groups": []}
    said: set[str] = set()
    for g in ev["groups"]:
        why = _why(g, ev, state, data)
        if why and why not in said:
            said.add(why)
            g = {**g, WHY: why}
        out["groups"].append(g)
    if ev.get("forced_retreats"):
        out[ARMIES] = armies_there(state, data, ev["area"], ev["side"])
    return out


def armies_there(state, data: GameData, area: str, firing: str) -> int:
    """The armies of the side that did not fire in the battle area, without a retreat
    marker (5.4.4)."""
    skip = set(state.combat["markers"]) if state.combat else set()
    return sum(1 for a in state.armies.values()
               if a.status == "map" and a.area == area and a.id not in skip
               and data.nation_side[a.nation] != firing)


def _nation(source: str, state) -> str | None:
    """The nation of a group's unit: a piece's, an army's, or the nation an army's unit of
    another nation is named with (fr-8:us-infantry)."""
    army, _, kind = source.partition(":")
    if kind and "-" in kind:
        return kind.split("-")[0]
    unit = state.armies.get(army) if kind else state.pieces.get(source)
    return unit.nation if unit is not None else None


def _why(g: dict, ev: dict, state, data: GameData) -> str | None:
    """Why a unit's group fired at its firepower, when that is not its type's own in the
    phase; None when it is, or the line already says why (a Siege Gun at the fort, raiding
    fire, a card's dice)."""
    ut = data.units.unit_types.get(g["kind"]) if g["kind"] != "card" else None
    if ut is None or g.get("siege"):
        return None
    fp = ut.firepower
    defensive = ev["phase"] == "defensive"
    if g["fp"] == fp.get("defense" if defensive else "offense"):
        return None
    if fp.get("in_rough") == g["fp"] and data.areas[ev["area"]].terrain == "rough":
        return f"in Rough terrain, {ut.rule}"
    if defensive and fp.get("defense_entrenched") == g["fp"]:
        return f"entrenched, {ut.rule}"
    ms = ut.materiel_superiority
    if defensive and ms is not None and state.options.get(ms.option) and \
            state.turn >= ms.from_turn and _nation(g["source"], state) in ms.nations:
        fire = {k: int(v[1:]) for k, v in ms.fire.items() if v}
        if fire.get("defense") == g["fp"]:
            return f"matériel superiority, {ut.rule}"
        if fire.get("poison_gas") == g["fp"]:
            return f"matériel superiority, {ut.rule}; {card_why(data, 'poison_gas')}"
    for card in ("advanced_artillery_barrage", "poison_gas"):
        if fp.get(card) == g["fp"] and card in data.card_types:
            return card_why(data, card)
    return None
