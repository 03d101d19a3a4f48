"""Military Crisis! cards (9.8, 9.9): the opponent removes infantry; a VP when he cannot (3.1)."""

from __future__ import annotations

from ..base.plurals import a_or_an, noun
from ..contracts.events_map import CrisisDeclared, CrisisEnded, CrisisUnitRemoved
from ..contracts.events_turn import CardPlayed, CardRemoved
from ..contracts.orders import CrisisRefuse, CrisisRemove, Ord, PlayCard
from ..data.gamedata import GameData
from .armies import hidden_templates
from .cards import crisis_entry, first_card
from .core import Ctx, DecisionSpec, Violation, prompt, register
from .movement import settle, template_ref
from .state import State, other


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


def crisis_orders(s: State, d: GameData, side: str):
    """The Crisis! cards side may play now, one order per card type in hand (9.8, 9.9)."""
    for key in d.crisis_keys:
        if any(d.cards[c].key == key for c in s.hands.get(side, [])):
            yield PlayCard(card=key)


def crisis_play_violation(s: State, d: GameData, side: str, o: PlayCard) -> Violation | None:
    """Whether side may play a Crisis! card now (9.8, 9.9, 2.0 II.1).

    Our reading of "at any time during his player turn": at any decision the
    referee asks in it, in any step (opening card, movement, battles and every
    combat decision), the opponent's included (his defence, losses, retreats),
    but not while a crisis is being answered, and not after a pass discard
    (2.0 II.1). Played at the opponent's decision it takes effect first: he
    answers the crisis, then is asked his decision again (resume_side).
    """
    ct = d.card_types[o.card]
    if ct.event_side != side:
        return crisis_entry(s, d, side, o.card)
    if s.phase != "player_turn" or s.player != side:
        return Violation(ct.rule, f"a Military Crisis! card is played in its owner's own "
                                  f"{d.term('player_turn')}; this is not "
                                  f"{a_or_an(d.side_name(side))} "
                                  f"{d.term('player_turn')}")
    if s.crisis is not None:
        return Violation(ct.rule, "a Military Crisis! is being answered; no other is played "
                                  "until it is over")
    if s.pending is None:
        return Violation(ct.rule, f"{ct.title} is played at a decision of the "
                                  f"{d.term('player_turn')}, and none is pending")
    if o.area:
        return Violation(ct.rule, f"{ct.title} names no area (play {o.card})")
    if s.turn_state is not None and s.turn_state.discarded:
        return Violation("2.0 II.1", "cards were discarded and replaced this turn; a player "
                                     "who discards plays no card at all in that turn")
    if not any(d.cards[c].key == o.card for c in s.hands.get(side, [])):
        return Violation("1.3", f"the {d.side_name(side)} hand holds no {ct.title} card")
    if first_card(s, d, side, o.card) is None:
        return Violation("2.0 II.1", f"the {ct.title} card was drawn after a discard and "
                                     f"cannot be played before the next {d.term('player_turn')}")
    entry = crisis_entry(s, d, side, o.card)
    return entry if isinstance(entry, Violation) else None


def play_crisis(ctx: Ctx, side: str, key: str, resume: str, resume_side: str) -> None:
    """Play a Crisis! card; the opponent answers it, then the interrupted decision, side's or
    the opponent's, is asked again (9.8, 9.9)."""
    s, d = ctx.state, ctx.data
    entry = crisis_entry(s, d, side, key)
    card = first_card(s, d, side, key)
    ctx.emit(CardPlayed(side=side, card=card, key=key, as_="crisis"))
    if entry.removes_card_from_play:
        ctx.emit(CardRemoved(card=card, reason=f"its last crisis, {entry.name}, has been "
                                               f"played ({d.cards[card].rule})"))
    target = other(side, d)
    nations = entry.remove.get("nations") or list(d.units.sides[target])
    kinds = entry.remove.get("kinds") or list(d.cards[card].unit_kinds)      # 9.8
    ctx.emit(CrisisDeclared(side=side, target=target, card=card, name=entry.name,
                            count=entry.remove["count"], nations=nations, kinds=kinds,
                            resume=resume,
                            resume_side=None if resume_side == side else resume_side))
    _go_on(ctx)


def _go_on(ctx: Ctx) -> None:
    """Ask the target for a unit while he has a choice; with none, remove what there is.

    9.8, 9.9: the units must be removed when they can be; the VP (3.1, once
    per crisis) is conceded only when the map holds too few of them. With
    hidden templates (1.4) he is asked even when he has exactly as many as
    needed, so that being asked tells the opponent nothing he may not know.
    """
    s, d = ctx.state, ctx.data
    c = s.crisis
    units = crisis_units(s, d)
    left = c["left"]
    if left and (len(units) > left or len(units) == left and hidden_templates(s)):
        prompt(ctx, "crisis", c["target"])
        return
    for ref, _nation, _kind, _area in (units if left else []):
        if any(u[0] == ref for u in crisis_units(ctx.state, d)):
            _remove(ctx, ref, c["target"])
    c = ctx.state.crisis
    if c["left"] == 0:
        end_crisis(ctx, answered=True, reason="every unit required was removed")
    else:
        removed = c["count"] - c["left"]
        end_crisis(ctx, answered=False,
                   reason=f"the {c['target']} player had only {removed} eligible unit(s) on "
                          f"the map")


def end_crisis(ctx: Ctx, answered: bool, reason: str) -> None:
    """Close the crisis and ask again the decision it interrupted (9.8, 9.9)."""
    c = ctx.state.crisis
    ctx.emit(CrisisEnded(side=c["target"], answered=answered, reason=reason))
    prompt(ctx, c["resume"], c.get("resume_side") or c["side"])


def crisis_rule(s: State, d: GameData) -> str:
    """The rule of the crisis being answered: its card's, 9.8 the Entente's crisis, 9.9 the
    German's (both while none is being answered)."""
    card = d.cards.get(s.crisis["card"]) if s.crisis else None
    return card.rule if card is not None and card.rule else "9.8, 9.9"


def _nations(c: dict) -> str:
    return " or ".join(n.upper() for n in c["nations"])


def _prompt(s: State, d: GameData) -> str:
    c = s.crisis
    nat = _nations(c)
    more = " more" if c["left"] < c["count"] else ""     # once some were chosen
    rule = crisis_rule(s, d)
    return (f"{c['name']}: choose {c['left']}{more} {nat} infantry-type "
            f"{noun(c['left'], 'unit')} to remove from "
            f"the map ({rule})")


def _candidates(s: State, d: GameData, side: str):
    for ref in dict.fromkeys(u[0] for u in crisis_units(s, d)):
        yield CrisisRemove(unit=ref)


def _check(s: State, d: GameData, o: Ord, side: str) -> Violation | None:
    c = s.crisis
    rule = crisis_rule(s, d)
    if isinstance(o, CrisisRefuse):
        return Violation(rule, f"the units can be removed, so they must be: choose "
                               f"{c['left']} to remove (the VP of 3.1 is conceded only when "
                               f"the map holds too few)")
    if o.unit not in {u[0] for u in crisis_units(s, d)}:
        kinds = " or ".join(k.replace("_", " ") for k in c["kinds"])
        return Violation(rule, f"{o.unit} is not one of the {_nations(c)} {kinds} units "
                               f"on the map")
    return None


def _remove(ctx: Ctx, ref: str, side: str) -> None:
    """Remove one unit for the crisis to its force pool, then settle its area (9.8, 9.9)."""
    s, d = ctx.state, ctx.data
    ref, nation, kind, area = next(u for u in crisis_units(s, d) if u[0] == ref)
    details = {"unit": ref, "nation": nation, "kind": kind, "area": area}
    if ref not in s.pieces and hidden_templates(s):
        # 1.4: the crisis is answered in public, from which army is the owner's secret.
        ctx.emit(CrisisUnitRemoved(side=side, secret=ctx.secret(side, details)))
    else:
        ctx.emit(CrisisUnitRemoved(side=side, **details))
    settle(ctx, [area])


def _apply(ctx: Ctx, o: Ord, side: str) -> None:
    _remove(ctx, o.unit, side)
    _go_on(ctx)


register(DecisionSpec(
    kind="crisis", rule="9.8, 9.9", prompt=_prompt, accepts=("crisis_remove", "crisis_refuse"),
    candidates=_candidates, check=_check, apply=_apply, extra={"rule_of": crisis_rule}))
