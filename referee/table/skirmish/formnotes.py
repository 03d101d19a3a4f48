"""The figures a fire or melee form is open to now, named beside the form from the checks
that refuse the orders (checks.may_fire, check_fire; listed's melees as check takes them):
which of his figures fire in this step and which may fire unaimed only, which enemy figures
no shot of his may take and why, and which melees he may fight. A form alone ('fire FIGURE
at=FIGURE', 'attackers=FIGURE,FIGURE') named none of them."""

from __future__ import annotations

from ...base.plurals import joined
from ...contracts.skirmish import SkirmishCard
from .checks import check_fire, fighting, may_fire
from .order_text import SkOrder
from .state import SkState


def fire_note(card: SkirmishCard, state: SkState, side: str) -> str:
    """'(firing now: B0 and B3 aimed or unaimed, B4 unaimed only; no shot may take G6 (G6
    was in melee last turn: ...))'; '' when none of his figures may fire."""
    figures = [f for f in state.figures.values() if f.side == side]
    aimed = [f.id for f in figures if may_fire(card, state, f, ("fire",))]
    unaimed = [f.id for f in figures if f.id not in aimed
               and may_fire(card, state, f, ("unaimed",))]
    if not aimed and not unaimed:
        return ""
    said = ([f"{joined(aimed)} aimed or unaimed"] if aimed else []) + \
        ([f"{joined(unaimed)} unaimed only"] if unaimed else [])
    barred = _barred(card, state, side, aimed + unaimed)
    return f"(firing now: {', '.join(said)}" + \
        (f"; no shot may take {'; '.join(barred)}" if barred else "") + ")"


def _barred(card: SkirmishCard, state: SkState, side: str, firers: list[str]) -> list[str]:
    """Each enemy figure on the table no order of firers may shoot at, with the reason
    check_fire gives about it: 'G6 (G6 was in melee last turn: ...)'."""
    out = []
    for g in state.figures.values():
        if g.side == side or not g.active or not fighting(state, g.id):
            continue
        why = []
        for fid in firers:
            f = state.figures[fid]
            for kind in ("fire", "unaimed"):
                r = check_fire(card, state, SkOrder(kind, fid, {"at": [g.id], "range": 0,
                                                                "command": True}), f, [g])
                why.append(r)
        if why and all(r is not None for r in why):
            about = next((r[1] for r in why if r[1].startswith(g.id)), None)
            if about:
                out.append(f"{g.id} ({about})")
    return out


def melee_note(orders: list[SkOrder]) -> str:
    """The melees he may fight now (legal orders, listed._melees), as his form's note names
    them: '(melee open: B1 attacked by G6; B2 attacked by G1 or G1,G4)'; '' when none, or
    one alone (its form names it: listed._melee_form)."""
    if len(orders) < 2:
        return ""
    seen: dict[str, list[str]] = {}
    for o in orders:
        seen.setdefault(o.subject or "", [])
        ids = ",".join(o.facts.get("attackers", []))
        if ids not in seen[o.subject or ""]:
            seen[o.subject or ""].append(ids)
    return "(melee open: " + "; ".join(f"{d} attacked by {' or '.join(a)}"
                                       for d, a in seen.items()) + ")"
