"""Military Crisis! cards (9.8, 9.9): the opponent removes infantry or concedes a VP (3.1)."""

from __future__ import annotations

from ..gamedata import GameData
from .armies import hidden_templates
from .cards import crisis_entry, first_card
from .core import Ctx, DecisionSpec, Violation, prompt, register
from .events import CardPlayed, CardRemoved, CrisisDeclared, CrisisEnded, CrisisUnitRemoved
from .movement import settle, template_ref
from .orders import CrisisRefuse, CrisisRemove, Ord
from .state import State, other

CRISIS_KEYS = ("entente_military_crisis", "german_military_crisis")


def crisis_units(s: State, d: GameData) -> list[tuple[str, str, str, str]]:
    """(ref, nation, kind, area) of every unit that may answer the current crisis."""
    c = s.crisis
    out = []
    for p in sorted(s.pieces.values(), key=lambda p: p.id):
        if p.area in d.areas and p.nation in c["nations"] and p.kind in c["kinds"]:
            out.append((p.id, p.nation, p.kind, p.area))
    for a in sorted(s.armies.values(), key=lambda a: a.id):
        if a.status != "map":
            continue
        for key, n in sorted(a.contents.items()):
            nation, kind = key.split(":")
            if n and nation in c["nations"] and kind in c["kinds"]:
                out += [(template_ref(a, key), nation, kind, a.area)] * n
    return out


def crisis_play_violation(s: State, d: GameData, side: str, key: str) -> Violation | None:
    """Whether side may play a Crisis! card now: its own turn, a listed year (9.8, 9.9)."""
    if s.player != side:
        return Violation("9.8", "a Military Crisis! card is played in its owner's own player "
                                "turn")
    entry = crisis_entry(s, d, side, key)
    return entry if isinstance(entry, Violation) else None


def play_crisis(ctx: Ctx, side: str, key: str, resume: str) -> None:
    """Play a Crisis! card; the opponent answers it, then side's decision resumes."""
    s, d = ctx.state, ctx.data
    entry = crisis_entry(s, d, side, key)
    card = first_card(s, d, side, key)
    ctx.emit(CardPlayed(side=side, card=card, key=key, as_="crisis"))
    if entry.removes_card_from_play:
        ctx.emit(CardRemoved(card=card, reason=f"its last crisis, {entry.name}, has been "
                                               f"played ({d.cards[card].rule})"))
    target = other(side)
    nations = entry.remove.get("nations") or list(d.units.sides[target])
    kinds = entry.remove.get("kinds") or ["infantry", "commonwealth"]
    ctx.emit(CrisisDeclared(side=side, target=target, card=card, name=entry.name,
                            count=entry.remove["count"], nations=nations, kinds=kinds,
                            resume=resume))
    have = len(crisis_units(ctx.state, d))
    if have < entry.remove["count"]:
        end_crisis(ctx, answered=False,
                   reason=f"the {target} player has only {have} eligible unit(s) on the map")
    else:
        prompt(ctx, "crisis", target)


def end_crisis(ctx: Ctx, answered: bool, reason: str) -> None:
    """Close the crisis and return the decision to the player whose turn it is."""
    c = ctx.state.crisis
    ctx.emit(CrisisEnded(side=c["target"], answered=answered, reason=reason))
    prompt(ctx, c["resume"], c["side"])


def _prompt(s: State, d: GameData) -> str:
    c = s.crisis
    nat = " or ".join(n.upper() for n in c["nations"])
    return (f"{c['name']}: remove {c['left']} more {nat} infantry-type unit(s) from the map, "
            f"or refuse and concede 1 VP (9.8, 9.9, 3.1)")


def _candidates(s: State, d: GameData, side: str):
    if s.crisis["left"] == s.crisis["count"]:
        yield CrisisRefuse()
    for ref in dict.fromkeys(u[0] for u in crisis_units(s, d)):
        yield CrisisRemove(unit=ref)


def _check(s: State, d: GameData, o: Ord, side: str) -> Violation | None:
    c = s.crisis
    if isinstance(o, CrisisRefuse):
        if c["left"] != c["count"]:
            return Violation("9.8", "removal has begun; the remaining units must be removed")
        return None
    if o.unit not in {u[0] for u in crisis_units(s, d)}:
        kinds = " or ".join(c["kinds"])
        return Violation("9.8", f"{o.unit} is not a {'/'.join(c['nations'])} {kinds} unit on "
                                f"the map")
    return None


def _apply(ctx: Ctx, o: Ord, side: str) -> None:
    s, d = ctx.state, ctx.data
    if isinstance(o, CrisisRefuse):
        end_crisis(ctx, answered=False, reason=f"the {side} player refused")
        return
    ref, nation, kind, area = next(u for u in crisis_units(s, d) if u[0] == o.unit)
    details = {"unit": ref, "nation": nation, "kind": kind, "area": area}
    if ref not in s.pieces and hidden_templates(s):
        # 1.4: the crisis is answered in public, from which army is the owner's secret.
        ctx.emit(CrisisUnitRemoved(side=side, secret=ctx.secret(side, details)))
    else:
        ctx.emit(CrisisUnitRemoved(side=side, **details))
    settle(ctx, [area])
    if ctx.state.crisis["left"] == 0:
        end_crisis(ctx, answered=True, reason="every unit required was removed")


register(DecisionSpec(
    kind="crisis", rule="9.8", prompt=_prompt, accepts=("crisis_remove", "crisis_refuse"),
    candidates=_candidates, check=_check, apply=_apply))
