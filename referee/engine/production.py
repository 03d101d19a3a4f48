"""Phase V, production: supply, build points, excess cards, EFT box losses (2.0 V, 6.0, 7.0).

V.1 Supply and attrition are in supply.py.
V.2 Both sides spend their Build Points "at the same time": each side's
orders (led by any moves into or out of armies within an area, 8.1) are
sealed (secret to him) until both have said 'done'; then the plans are
revealed and applied in a fixed order: every German order, then every Entente
order, cards last, German cards first. Unused BPs are lost.
V.3 Cards over the card limit are discarded by their owner.
V.4 The EFT box loss roll.
"""

from __future__ import annotations

import itertools
from collections import Counter

from ..base.plurals import counted
from ..contracts.events_base import Secret
from ..contracts.events_map import ArmyEliminated
from ..contracts.events_production import (
    ArmyRebuilt,
    EftLossesDue,
    EftUnitLost,
    InfantryUpgraded,
    ProductionBegan,
    ProductionDone,
    ProductionEnded,
    ProductionOrdered,
    ProductionRevealed,
    TemplateChanged,
    UnitBuilt,
    UnitEntrenched,
)
from ..contracts.events_turn import CardsDiscarded
from ..contracts.orders import (
    Build,
    Buy,
    Discard,
    Done,
    Entrench,
    Lose,
    Move,
    Ord,
    Rebuild,
    Upgrade,
)
from ..data.gamedata import GameData
from . import sealed
from .armies import hidden_templates
from .builds import (
    available,
    left,
    may_upgrade,
    plan,
    plan_cost,
    production_violation,
    reorganised,
)
from .cards import draw, pick
from .core import (
    SEALED_BOOKS,
    Ctx,
    DecisionSpec,
    SealedPlans,
    Violation,
    finish,
    plans_kept,
    prompt,
    register,
)
from .movement import apply_reorganise, private_order, reorganise_candidates, template_ref
from .order_text import format_order
from .reinforce import settle_empty_armies
from .state import State
from .supply import supplied_areas
from .unit_bp import build_cost, eft_bp

# ---------------------------------------------------------------- V.2 build points (7.0)

def begin_spending(ctx: Ctx) -> None:
    """Both sides' Build Points from the chart; both are asked at once, sealed (7.0)."""
    s, d = ctx.state, ctx.data
    ctx.emit(ProductionBegan(bp=d.build_points(s.turn)))
    prompt(ctx, "production", d.sides[0])


def production_candidates(s: State, d: GameData, side: str):
    """Every production order worth checking for side."""
    if side in s.production["done"]:
        return
    s = reorganised(s, d, side)
    if all(isinstance(x, Move) for x in plan(s, d, side)):
        yield from reorganise_candidates(s, d, side)
    bp = left(s, d, side)
    for n in range(1, bp + 1):
        yield Buy(count=n)
    supplied = supplied_areas(s, d, side)
    areas = [a for a in d.areas if a in supplied and s.status(a, side, d) in
             ("friendly", "disputed")]
    rebuilt = [x for x in plan(s, d, side) if isinstance(x, Rebuild)]   # empty, 8.1
    for nation in d.units.sides[side]:
        for kind in sorted(d.units.mix.get(nation, {})):
            if kind in ("army", "fort"):
                continue
            unit = f"{nation}:{kind}"
            if available(s, d, unit) or s.pool.get(nation, {}).get(kind, 0) <= 0:
                continue
            for a in areas:
                yield Build(unit=unit, area=a)
                for army in s.armies_in(a, side, d):
                    yield Build(unit=unit, area=a, into=army.id)
                for x in rebuilt:
                    if x.area == a:
                        yield Build(unit=unit, area=a, into=x.army)
    for army in sorted(s.armies.values(), key=lambda a: a.id):
        if army.status in ("eliminated", "suppressed") and d.nation_side[army.nation] == side:
            for a in areas:
                yield Rebuild(army=army.id, area=a)
    for army in sorted(s.armies.values(), key=lambda a: a.id):
        if army.status == "map" and d.nation_side[army.nation] == side:
            yield Entrench(units=(army.id,))
    for p in sorted(s.pieces.values(), key=lambda p: p.id):
        if d.nation_side[p.nation] == side and p.kind in d.units.entrenching:
            yield Entrench(units=(p.id,))
    stoss = d.stoss_nation
    if stoss is not None and d.nation_side[stoss] == side:
        for p in sorted(s.pieces.values(), key=lambda p: p.id):
            if p.kind == "infantry" and p.nation == stoss and p.area in d.areas:
                yield Upgrade(unit=p.id)
        for army in sorted(s.armies.values(), key=lambda a: a.id):
            if army.status == "map" and army.contents.get(f"{stoss}:infantry"):
                yield Upgrade(unit=f"{army.id}:infantry")
    yield Done()


def _production_prompt(s: State, d: GameData) -> str:
    # Nothing here may tell one side what the other has ordered: the plans are sealed. Who
    # owes his plan still, the waiting sides say (engine.waiting_on): the prompt names none.
    # 'upgrade' only when a side still asked may upgrade this turn by the game's data (7.5:
    # the Stosstruppen nation's side, from its date): whoever reads it, it tells the waiting
    # side's decision as his own prompt does, and nothing of a sealed plan.
    bp = s.production["bp"]
    asked = [x for x in d.sides if x not in s.production["done"]]
    upgrade = any(may_upgrade(s, d, x) for x in asked)
    return ("production: sealed orders (units into or out of armies first, then buy N cards, "
            f"build, rebuild, entrench{', upgrade' * upgrade}), then 'done'; Build Points "
            "this turn: " +
            ", ".join(f"{d.side_name(x)} {bp[x]}" for x in d.sides) + " (7.0)")


def _reader_prompt(s: State, d: GameData, reader: str) -> str:
    """The production prompt for a side asked (7.0): his own orders and Build Points first,
    'upgrade' only when one is open to him (7.5), the other side's Build Points after."""
    bp = s.production["bp"]
    upgrade = any(production_violation(s, d, o, reader) is None
                  for o in production_candidates(s, d, reader) if o.kind == "upgrade")
    others = ", ".join(f"{d.side_name(x)} {bp[x]}" for x in d.sides if x != reader)
    return ("production: your sealed orders (units into or out of armies first, then buy N "
            f"cards, build, rebuild, entrench{', upgrade' * upgrade}), then 'done'; your Build "
            f"Points this turn: {bp[reader]} ({others}) (7.0)")


def production_apply(ctx: Ctx, o: Ord, side: str) -> None:
    """Seal one production order; when both sides are done, reveal and apply both plans."""
    if o.kind != "done":
        ctx.emit(ProductionOrdered(side=side, secret=ctx.secret(side, {
            "order": format_order(o)})))
        return
    ctx.emit(ProductionDone(side=side))
    waiting = [x for x in ctx.data.sides if x not in ctx.state.production["done"]]
    if waiting:
        prompt(ctx, "production", waiting[0])
    else:
        apply_plans(ctx)


def _seal_production(ctx: Ctx, side: str, orders: list[str], final: bool) -> ProductionOrdered:
    if final:
        return ProductionOrdered(side=side, secret=ctx.secret(side, {"orders": orders}))
    return ProductionOrdered(side=side, secret=Secret(to=side, data={"order": orders[0]}))


register(DecisionSpec(
    kind="production", rule="7.0", prompt=_production_prompt,
    accepts=("move", "buy", "build", "rebuild", "entrench", "upgrade", "done"),
    candidates=production_candidates, check=production_violation, apply=production_apply,
    extra={"sealed": SealedPlans(
        label="a sealed production plan (7.0)", book=SEALED_BOOKS["production"],
        seal=_seal_production, close=lambda ctx, side: production_apply(ctx, Done(), side),
        complete=lambda s, d, side, orders: False), "reader_prompt": _reader_prompt}))


def _revealed(ctx: Ctx, side: str, orders: list) -> ProductionRevealed:
    """side's plan as everyone sees it once both are in (7.0). Orders on army templates are
    revealed to their owner only (1.4), and so are the plan's totals: with the Build Points
    available, what was spent or lost would tell what the hidden orders cost (a Tank or
    Stoßtruppen from an infantry unit). The others see what the orders shown cost."""
    s, d = ctx.state, ctx.data
    spent = plan_cost(s, d, orders)
    lost = s.production["bp"][side] - spent
    shown = sealed.revealed(ctx, side, orders, [format_order(o) for o in orders],
                            {"spent": spent, "lost": lost})
    if "secret" not in shown:
        return ProductionRevealed(side=side, spent=spent, lost=lost, **shown)
    public = [o for o in orders if not private_order(s, o)]
    return ProductionRevealed(side=side, spent=plan_cost(s, d, public), **shown)


def apply_plans(ctx: Ctx) -> None:
    """Reveal both plans and apply them: German, then Entente; cards last, German first."""
    s, d = ctx.state, ctx.data
    hide = hidden_templates(s)
    plans = {side: plan(s, d, side) for side in d.sides}
    for side in d.sides:
        ctx.emit(_revealed(ctx, side, plans[side]))
    for side in ctx.data.sides:
        for o in plans[side]:
            st = ctx.state
            if isinstance(o, Move):
                apply_reorganise(ctx, o, side)
            elif isinstance(o, Build) and o.into is not None and hide:
                ctx.emit(TemplateChanged(side=side, secret=ctx.secret(side, {"build": {
                    "unit": o.unit, "area": o.area, "into": o.into,
                    "cost": build_cost(d, o.unit)}})))
            elif isinstance(o, Build):
                nation, kind = o.unit.split(":")
                ctx.emit(UnitBuilt(side=side, unit=o.unit, area=o.area, into=o.into,
                                   cost=build_cost(d, o.unit),
                                   new_id=None if o.into else st.new_piece_id(nation, kind, d)))
            elif isinstance(o, Rebuild):
                ctx.emit(ArmyRebuilt(side=side, army=o.army, area=o.area))
            elif isinstance(o, Entrench):
                ctx.emit(UnitEntrenched(side=side, unit=o.units[0]))
            elif isinstance(o, Upgrade) and o.unit not in st.pieces and hide:
                ctx.emit(TemplateChanged(side=side, secret=ctx.secret(side, {"upgrade": o.unit})))
            elif isinstance(o, Upgrade):
                new_id = st.new_piece_id(d.stoss_nation, "stosstruppen", d) \
                    if o.unit in st.pieces else None
                ctx.emit(InfantryUpgraded(side=side, unit=o.unit, new_id=new_id))
    settle_empty_armies(ctx)        # 8.1: as after the Reinforcement Phase's placements
    for side in ctx.data.sides:
        for o in plans[side]:
            if isinstance(o, Buy):
                draw(ctx, side, o.count, f"{o.count} card(s) bought (7.1)")
    finish(ctx, "build_points")


# ---------------------------------------------------------------- V.3 excess cards (7.1)

def card_limit(s: State, d: GameData, side: str) -> int:
    """The Maximum Number of Held Cards side may keep out of this Production Phase (Card
    Limit chart): the limit of the seasonal turn after it (2.0 V.3; the English says only
    "more than he can legally hold", the French "admises au tour suivant", allowed at the
    next turn), which after a WINTER is the next year's; this year's after the last turn,
    or when the chart has no row for the next year."""
    year = d.year(s.turn)
    following = d.turns.get(s.turn + 1)
    if s.turn < s.last_turn and following is not None and \
            following.year in d.card_limits_by_year:
        year = following.year
    return d.card_limit(year, side)


def discard_excess(ctx: Ctx) -> None:
    """Each side over its card limit discards the excess, his choice (2.0 V.3, 7.1): both
    sides at once, each sealed until both are done; a side whose choice cannot differ (every
    card alike) is not asked."""
    s, d = ctx.state, ctx.data
    asked = []
    for side in d.sides:
        extra = len(s.hands.get(side, [])) - card_limit(s, d, side)
        if extra > 0:
            if len({d.cards[c].key for c in s.hands[side]}) == 1:
                ctx.emit(CardsDiscarded(side=side, cards=list(s.hands[side][:extra]),
                                        reason="over the card limit (7.1)"))
                continue
            asked.append(side)
    if asked:
        sealed.open_plans(ctx, "discard_excess", asked)
        return
    finish(ctx, "excess_cards")


def _excess_candidates(s: State, d: GameData, side: str):
    extra = len(s.hands[side]) - card_limit(s, d, side)
    counts = Counter(d.cards[c].key for c in s.hands[side])
    keys = sorted(counts, key=lambda k: d.card_order.index(d.card_types[k].ids[0]))
    for combo in itertools.product(*(range(counts[k] + 1) for k in keys)):
        if sum(combo) == extra:
            yield Discard(cards=tuple(k for k, n in zip(keys, combo) for _ in range(n)))


def _excess_check(s: State, d: GameData, o: Discard, side: str) -> Violation | None:
    extra = len(s.hands[side]) - card_limit(s, d, side)
    if len(o.cards) != extra:
        return Violation("7.1", f"discard exactly {counted(extra, 'card')}: the "
                                f"{d.side_name(side)} hand "
                                f"holds {len(s.hands[side])}, the limit is "
                                f"{card_limit(s, d, side)}")
    if pick(s, d, side, o.cards) is None:
        return Violation("1.3", "the hand does not hold those cards")
    return None


def _excess_apply(ctx: Ctx, o: Discard, side: str) -> None:
    if plans_kept(ctx.state, "discard_excess") is not None:
        sealed.seal_one(ctx, o, side)
        return
    # A discard asked of one side at a time (journals from before sealed discards).
    ids = pick(ctx.state, ctx.data, side, o.cards)
    ctx.emit(CardsDiscarded(side=side, cards=ids, reason="over the card limit (7.1)"))
    discard_excess(ctx)


def _reveal_discards(ctx: Ctx, plans: dict) -> None:
    """Both discards are in: each is applied, German first (2.0 V.3, 7.1); then V.4."""
    for side in ctx.data.sides:
        for o in plans[side]:
            ids = pick(ctx.state, ctx.data, side, o.cards)
            ctx.emit(CardsDiscarded(side=side, cards=ids, reason="over the card limit (7.1)"))
    finish(ctx, "excess_cards")


def _excess_prompt(s: State, d: GameData) -> str:
    b = plans_kept(s, "discard_excess")
    sides = [x for x in b["plans"] if x not in b["done"]] if b else [s.pending.side]
    # Nothing here may tell one side what the other has discarded: the plans are sealed. A
    # side is named (by its name) only where two owe: the waiting side is named before it.
    two = len(sides) > 1
    return "; ".join(_over_limit(s, d, x, f"{d.side_name(x)} holds " if two else "",
                                 "" if two else " held") for x in sides) + \
        (": discard the excess, sealed until both are in (2.0 V.3, 7.1)"
         if b and len(b["plans"]) > 1 else ": discard the excess (2.0 V.3, 7.1)")


def _excess_reader_prompt(s: State, d: GameData, reader: str) -> str:
    """The discard prompt for a side asked (2.0 V.3, 7.1): his own hand and limit first,
    then the other side's still owed, as the public prompt tells them."""
    b = plans_kept(s, "discard_excess")
    others = [x for x in b["plans"] if x not in b["done"] and x != reader] if b else []
    seal = ", sealed until both are in" if b and len(b["plans"]) > 1 else ""
    return "; ".join([f"{_over_limit(s, d, reader, 'you hold ')}: discard the "
                      f"excess{seal} (2.0 V.3, 7.1)"] +
                     [_over_limit(s, d, x, f"{d.side_name(x)} holds ") for x in others])


def _over_limit(s: State, d: GameData, side: str, lead: str = "", tail: str = "") -> str:
    """A side's hand against its card limit, as the discard prompts say it (7.1): lead,
    the cards it holds, tail, then the limit ('German holds 8 cards, the limit is 6')."""
    return f"{lead}{len(s.hands[side])} cards{tail}, the limit is {card_limit(s, d, side)}"


register(DecisionSpec(
    kind="discard_excess", rule="7.1", prompt=_excess_prompt,
    accepts=("discard",), candidates=_excess_candidates, check=_excess_check,
    apply=_excess_apply, extra={"sealed": sealed.generic(
        "discard_excess", "2.0 V.3", "cards over the limit discarded", _reveal_discards,
        lambda s, d, side, orders: bool(orders) or bool(sealed.own_plan(s, d, side))),
        "reader_prompt": _excess_reader_prompt}))


# ---------------------------------------------------------------- V.4 EFT box losses

def eft_units(s: State, d: GameData) -> list[tuple[str, str, str]]:
    """(ref, nation, kind) of every unit in the EFT box, army contents included."""
    box = d.eft_box.id if d.eft_box else None
    out = []
    for p in sorted(s.pieces.values(), key=lambda p: p.id):
        if box is not None and p.area == box:
            out.append((p.id, p.nation, p.kind))
    for a in sorted(s.armies.values(), key=lambda a: a.id):
        if a.status == "eft":
            for key, n in sorted(a.contents.items()):
                nation, kind = key.split(":")
                out += [(template_ref(a, key), nation, kind)] * n
    return out


def eft_losses_off(s: State, d: GameData) -> bool:
    """Whether the EFT box loss phase is skipped: the game is linked with the game the box's
    data names (2.0 V.4: not when playing with AT ALL COSTS!, option linked_with_aac)."""
    box = d.eft_box
    return box is not None and box.losses_not_when_linked_with in d.linked_with(s.options)


def eft_losses(ctx: Ctx) -> None:
    """Roll one die per 5 BP of EFT units (or part); each 1 eliminates a unit (2.0 V.4)."""
    s, d = ctx.state, ctx.data
    bp = 0 if eft_losses_off(s, d) else eft_bp(s, d)
    if bp:
        dice = ctx.dice.roll(-(-bp // 5), "EFT box losses (2.0 V.4)")
        losses = sum(1 for x in dice if x == 1)
        if hidden_templates(s) and any(a.status == "eft" for a in s.armies.values()):
            # 1.4: the BP value counts what the armies in the box hold.
            ctx.emit(EftLossesDue(dice=dice, losses=losses,
                                  secret=ctx.secret(d.eft_box.owner, {"bp": bp})))
        else:
            ctx.emit(EftLossesDue(bp=bp, dice=dice, losses=losses))
    next_eft_loss(ctx)


def next_eft_loss(ctx: Ctx) -> None:
    """Take each EFT loss, asking the box's owner where he has a choice."""
    s = ctx.state
    while s.production.get("eft_losses"):
        units = eft_units(s, ctx.data)
        if not units:
            break
        same = len({(n, k) for _, n, k in units}) == 1
        if same and (len({r for r, _, _ in units}) == 1 or all(r in s.pieces for r, _, _ in units)):
            ref, nation, kind = units[0]
            _eft_loss(ctx, ref, nation, kind)
            s = ctx.state
            continue
        prompt(ctx, "eft_losses", ctx.data.eft_box.owner)
        return
    ctx.emit(ProductionEnded())
    finish(ctx, "eft_losses")


def _eft_loss(ctx: Ctx, ref: str, nation: str, kind: str) -> None:
    army, box = ref.split(":")[0] if ":" in ref else None, ctx.data.eft_box
    if army and hidden_templates(ctx.state):
        # 1.4: which unit an army in the box loses is its owner's secret.
        ctx.emit(EftUnitLost(secret=ctx.secret(box.owner, {
            "unit": ref, "nation": nation, "kind": kind})))
    else:
        ctx.emit(EftUnitLost(unit=ref, nation=nation, kind=kind))
    if army and not ctx.state.armies[army].contents:
        ctx.emit(ArmyEliminated(side=box.owner, army=army, area=box.id,
                                rule="2.0 V.4",
                                reason="it lost its last unit in the EFT box"))


def _eft_candidates(s: State, d: GameData, side: str):
    for ref in dict.fromkeys(r for r, _, _ in eft_units(s, d)):
        yield Lose(unit=ref)


def _eft_check(s: State, d: GameData, o: Lose, side: str) -> Violation | None:
    if o.unit not in {r for r, _, _ in eft_units(s, d)}:
        return Violation("2.0 V.4", f"{o.unit} is not a unit in the EFT box")
    return None


def _eft_apply(ctx: Ctx, o: Lose, side: str) -> None:
    ref, nation, kind = next(u for u in eft_units(ctx.state, ctx.data) if u[0] == o.unit)
    _eft_loss(ctx, ref, nation, kind)
    next_eft_loss(ctx)


def _eft_prompt(s: State, d: GameData, own: bool = False) -> str:
    """The German chooses (2.0 V.4): 'your choice' to him alone, his name to other readers."""
    whose = "your" if own else f"the {d.side_name(s.pending.side)} player's"
    return (f"eliminate {counted(s.production['eft_losses'], 'unit')} in the EFT box, "
            f"{whose} choice (2.0 V.4)")


register(DecisionSpec(
    kind="eft_losses", rule="2.0 V.4", prompt=_eft_prompt,
    accepts=("lose",), candidates=_eft_candidates, check=_eft_check, apply=_eft_apply,
    extra={"own_prompt": lambda s, d: _eft_prompt(s, d, True)}))

