"""Who holds a battle area, told once. Control changes when a side's last unit that makes an
area Disputed is gone (4.1), which may be a record before the battle ends: an enemy fort of
strength 1 (or Sedan 0) left alone holds no area (8.4), so the loss of the last other
defender makes the area the attacker's there and then, the fort still standing. That
change is told where it happens, with the fort's rule when such a fort remains; the end of
the battle tells who holds the area only when that record changed it and no event of it
said so (the defender who kept it: the attackers gone, the area his again)."""

from __future__ import annotations

from .documents import side_name


def weak_forts(state, area: str, data, control: str) -> bool:
    """Whether an enemy fort of strength 1 or less remains in the area control holds."""
    return any(f.area == area and f.strength <= 1 and data.nation_side[f.nation] != control
               for f in state.forts.values())


def fort_note(ev: dict, state, data) -> str:
    """What follows an area's change of control, when an enemy fort of strength 1 or less
    stays there: why the area is Friendly all the same (8.4); else nothing."""
    area, control = ev.get("area"), ev.get("control")
    if not control or area not in data.areas or not weak_forts(state, area, data, control):
        return ""
    strength = min(f.strength for f in state.forts.values() if f.area == area and
                   data.nation_side[f.nation] != control)
    return f": the enemy fort of strength {strength} left there holds no area alone (8.4)"


def battle_outcome(before, state, area: str, data, events: list[dict]) -> str | None:
    """Who holds a battle area once its battle is over, in a sentence (4.1, 5.4); None when
    an event of this record said it (its control changed), or an earlier record did (the
    area was held so before this record)."""
    name = data.areas[area].name if area in data.areas else area
    control = state.area_state(area, data)
    if control == "disputed":
        return f"{name} stays Disputed: both sides still have units there (5.1.1)"
    if before.area_state(area, data) == control or any(
            e.get("type") == "AreaControlChanged" and e.get("area") == area for e in events):
        return None
    held = f"{name} is now held by the {side_name(control)} side"
    if weak_forts(state, area, data, control):
        held += " (an enemy fort of strength 1 remains there; alone it holds no area, 8.4)"
    return held
