"""Build Points in a report (7.0-7.6): while a side plans his production, what he has to
spend, what each kind of order costs (from the game data, game/costs.py) and a worked
example of his own orders; once his plan is in, what each order cost, what is left, and
plainly that Build Points not spent are lost.
"""

from __future__ import annotations

from ..base.plurals import counted
from ..contracts.orders import Buy
from ..engine import acting
from ..engine.production import card_limit
from ..engine.reading import parse_order
from ..game.costs import PlanCosts, entrenching_cap, menu, plan_costs, worked_example
from .phrases import opened, readable_orders
from .sections import Items, Orders, Para, Section, Span, para

# Imported for annotations only.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..data.gamedata import GameData
    from ..engine.state import State


# The words above the worked example of a plan (render/phone.py moves it up, with its cost).
EXAMPLE_INTRO = ("For example, this plan of your own orders (the costs after # are comments the "
                 "referee skips):")


def _menu_items(rows: list[tuple[str, str, int, str]], cap: int | None) -> list[list[Span]]:
    """One item per kind of order, unit types of one cost on one line (7.6); cap: the most
    BP entrenchment may take this turn (7.4)."""
    items: list[list[Span]] = []
    builds: dict[int, list[str]] = {}
    for verb, what, bp, _rule in rows:
        if verb == "build":
            builds.setdefault(bp, []).append(what)
    for verb, what, bp, rule in rows:
        if verb == "buy":
            items.append([Span("buy N", "order"), Span(f": N cards, {bp} BP each ({rule})")])
        elif verb == "build" and what == builds[bp][0]:
            items.append([Span("build NATION TYPE AREA", "order"),
                          Span(f": {bp} BP each for {', '.join(builds[bp])} ({rule})")])
        elif verb == "rebuild":
            items.append([Span("rebuild ARMY AREA", "order"),
                          Span(f": {bp} BP, the army empty ({rule})")])
        elif verb == "entrench":
            items.append([Span("entrench UNIT", "order"),
                          Span(f": {bp} BP for every {what} units, an army counting as one, "
                               f"one unit per order" +
                               (f"; at most {cap} BP of it this turn" if cap is not None
                                else "") + f" ({rule})")])
        elif verb == "upgrade":
            items.append([Span("upgrade UNIT", "order"),
                          Span(f": {bp} BP, an infantry unit to Stoßtruppen ({rule})")])
    return items


def over_limit(plan: PlanCosts, data: GameData, held: int, limit: int) -> list[int]:
    """For each order of a plan, how many of the cards it buys are over the card limit with
    the held cards and those the orders before it buy: the excess is discarded at the end
    of the phase, and the BP spent on it are lost (7.1, 2.0 V.3)."""
    out = []
    for c in plan.orders:
        order = parse_order(c.text, data)
        bought = order.count if isinstance(order, Buy) else 0
        out.append(min(bought, max(held + bought - limit, 0)))
        held += bought
    return out


def _costed_lines(plan: PlanCosts, data: GameData, over: list[int] | None = None) -> list[str]:
    """The orders of a plan, each with its cost as a comment the order reader skips, their
    areas named as the board names them; over: the cards each buys over the card limit."""
    texts = readable_orders([c.text for c in plan.orders], data)
    width = max(len(t) for t in texts)
    over = over or [0] * len(texts)
    return [f"{t.ljust(width)}  # {c.bp} BP" + (f", {counted(n, 'card')} over the limit"
                                                  if n else "")
            for t, c, n in zip(texts, plan.orders, over)]


def _over_note(over: list[int], data: GameData, limit: int, closed: bool) -> list:
    """The cards a plan buys over the card limit, said plainly: discarded, their BP lost."""
    n = sum(over)
    if not n:
        return []
    lost = n * data.charts.build_points.costs.card
    return [para(Span(f"{counted(n, 'card')} you buy {'is' if n == 1 else 'are'} over your "
                      f"card limit of {limit}", "bold"),
                 f": the excess is discarded at the end of this phase, and the {lost} BP "
                 f"spent on {'it' if n == 1 else 'them'} {'is' if lost == 1 else 'are'} "
                 f"lost (7.1)" + ("." if closed else "; buy fewer to keep them."))]


def _left(plan: PlanCosts) -> list:
    """Spent and left; BP left in a closed plan are lost (7.0)."""
    blocks = [para(f"Spent: {plan.spent} of your {plan.bp} BP; left: {plan.left}.")]
    if plan.closed and plan.left > 0:
        verbs = "goes unspent and is" if plan.left == 1 else "go unspent and are"
        blocks.append(para(Span(f"{plan.left} BP {verbs} lost", "bold"),
                           ": Build Points are spent in this production phase or not at "
                           "all (7.0)."))
    elif plan.closed:
        blocks.append(para("Every BP is spent."))
    else:
        blocks.append(para(f"You may still spend {plan.left} BP; what is not spent when you "
                           f"say done is lost (7.0)."))
    return blocks


def _hand_note(state: State, data: GameData, reader: str) -> Para:
    """His hand against the card limit he keeps out of this phase (7.1, 2.0 V.3): the cards
    he may buy within it; those over it are discarded, the BP spent on them lost."""
    held, limit = len(state.hands.get(reader, [])), card_limit(state, data, reader)
    room = max(limit - held, 0)
    within = f"{counted(room, 'more card')} may be bought within it; a card bought " \
        f"beyond {'them' if room > 1 else 'it'} is over the limit" if room else \
        "every card you buy is over it"
    return para(f"You hold {counted(held, 'card')}; the card limit is {limit} (7.1): "
                f"{within}, and must be discarded at the end of this phase (2.0 V.3), the "
                f"BP spent on it lost (7.1).")


def _planning(state: State, data: GameData, reader: str, legal: list[str]) -> list:
    """What a side planning his production needs: BP, costs, his plan so far, an example."""
    bp = state.production["bp"][reader]
    so_far = plan_costs(state, data, bp, list(state.production["plans"][reader]), False)
    blocks: list = [para(f"You have {bp} BP to spend in this production phase; BP not spent "
                         f"are lost (7.0)."), _hand_note(state, data, reader),
                    para("What each order costs (7.6):"),
                    Items(_menu_items(menu(state, data, reader),
                                      entrenching_cap(state, data)))]
    if so_far.orders:
        held, limit = len(state.hands.get(reader, [])), card_limit(state, data, reader)
        over = over_limit(so_far, data, held, limit)
        blocks += [para("Your plan so far:"), Orders(_costed_lines(so_far, data, over)),
                   *_over_note(over, data, limit, False), *_left(so_far)]
        return blocks
    example = worked_example(state, data, reader, legal, bp)
    if example is not None:
        blocks += [para(EXAMPLE_INTRO),
                   Orders([*_costed_lines(example, data), "done"]),
                   para(f"It costs {example.spent} of your {bp} BP and leaves {example.left}, "
                        f"which would be lost (7.0).")]
    return blocks


def production_section(state: State, data: GameData, reader: str,
                       legal: list[str]) -> Section | None:
    """The Build Points section of reader's report while he plans his production or once his
    plan is in, or None."""
    if reader not in data.sides:
        return None
    prod = state.production
    if prod and state.phase != "over" and state.pending is not None and \
            state.pending.kind == "production" and acting(state, reader):
        return Section("Build Points (7.0)", _planning(state, data, reader, legal))
    if prod and reader in prod.get("done", []) and not prod.get("revealed"):
        plan = plan_costs(state, data, prod["bp"][reader], list(prod["plans"][reader]), True)
        # Sealed, not yet carried out: the hand is as it was when the plan was given.
        held, limit = len(state.hands.get(reader, [])), card_limit(state, data, reader)
        return Section("Your production plan (7.0)",
                       _plan_blocks(plan, data, (held, limit)))
    return None


def carried_out_section(state: State, data: GameData, reader: str,
                        revealed: list[dict]) -> Section | None:
    """What reader's production plan spent and left, once the report's records revealed it
    (7.0): a part of what happened, not of what is asked now; None when they did not."""
    mine = [opened(ev, reader) or ev for ev in revealed if ev.get("side") == reader]
    if reader not in data.sides or not mine:
        return None
    ev = mine[-1]
    plan = plan_costs(state, data, ev["spent"] + ev["lost"], list(ev["orders"]), True)
    # Its orders are told once, revealed in the record (told_once.py): here what they spent.
    return Section("Your production plan, as carried out (7.0)",
                   _left(plan) if plan.orders else _plan_blocks(plan, data))


def _plan_blocks(plan: PlanCosts, data: GameData, hand: tuple[int, int] | None = None) -> list:
    """What each order cost; hand: (held, limit) before the plan is carried out, to say the
    cards it buys over the card limit (7.1)."""
    if not plan.orders:
        return [para("Your plan has no orders."), *_left(plan)]
    over = over_limit(plan, data, *hand) if hand else None
    return [para("What each order of your plan costs:"),
            Orders(_costed_lines(plan, data, over)),
            *(_over_note(over, data, hand[1], True) if hand and over else []), *_left(plan)]
