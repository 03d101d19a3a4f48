"""The rules engine: decide (orders -> events), evolve (events -> state), legal_orders.

Pure functions over plain data: no files, no printing. The decision kinds
register themselves from flow.py and the rule modules it imports, which load
the first time anything looks into the registry (core.DECISIONS) as a whole:
a read of a game that is over replays it (evolve) and asks no decision, and a
read of a game in play asks its pending decision's kind, whose module alone
loads (core.KINDS).
"""

from __future__ import annotations

from ..base.errors import IllegalOrderError, citing, clipped
from ..base.lazyre import LazyPattern
from ..contracts.events_base import Ev
from ..data.gamedata import GameData
from ..store.dice import Dice
from . import apply, victory  # noqa: F401  (apply: how events evolve; victory: 3.1, 3.2)
from .core import DECISIONS, KINDS, SEALED_BOOKS, Ctx, SealedPlans, Violation, open_kinds
from .evolve import evolve
from .order_text import format_order
from .state import State

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..contracts.orders import Ord


def _load_rules() -> None:
    """Import every module that registers a decision kind, at the registry's first look, with
    what decide, check and legal_orders call of the rules' modules (armistice, crisis, flow,
    private_order, answer_standing): each of them loads the registry before it calls one."""
    global answer_standing, armistice, crisis, flow, private_order
    from . import (  # noqa: F401  start-up: a read of a game that is over asks no decision
        armistice,
        battle,
        combat,
        crisis,
        flow,
        losses,
        production,
        reinforce,
        retreats,
        scramble,
        supply,
    )
    from .movement import private_order  # start-up: as above
    from .standing import answer as answer_standing  # start-up: as above


def _load_kind(home: str) -> None:
    """Import the rules' module that registers a kind (core.KINDS names it), at the first look
    at that kind alone."""
    __import__(f"{__name__}.{home}")


DECISIONS.load_with(_load_rules, _load_kind)


def __getattr__(name: str):
    """The names this package gave from the rules' modules before they loaded at their first
    need: private_order, answer_standing (a module itself imports as a submodule does)."""
    if name in ("private_order", "answer_standing"):
        DECISIONS.load()
        return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# Why a game that has ended takes no order, whatever it says: cited by the rule that ended
# it, as its GameEnded reason ends with it (a decisive victory or an armistice 3.2, a
# surrender 3.3, its last turn played 2.0 VI); 3.0 (winning the game) when none is named.
GAME_OVER = "the game is over; no more orders are taken"
_ENDED_BY = LazyPattern(r"\((\d+\.\d+(?:\.\d+)*(?: [IVX]+(?:\.\d+)?)?)\)\s*$")


def game_over(state: State) -> bool:
    """Whether the game has ended: no decision is left to answer (3.0)."""
    return state.phase == "over" or state.pending is None


def game_over_violation(state: State) -> Violation:
    """The refusal of any order to a game that has ended, citing the rule that ended it."""
    ended = _ENDED_BY.search(str((state.result or {}).get("reason", "")))
    return Violation(ended.group(1) if ended else "3.0", GAME_OVER)


def pending_prompt(state: State, data: GameData, reader: str | None = None) -> str:
    """One human sentence saying what the pending decision is; for the side it asks (reader),
    the words that rest on what he alone may see (his hand), where its kind has them."""
    if state.pending is None:
        return "the game is over" if state.phase == "over" else "nothing is pending"
    spec = DECISIONS[state.pending.kind]
    mine = spec.extra.get("reader_prompt")      # a sealed plan: his own task first
    if mine is not None and reader is not None and sealed_for(state, reader):
        return mine(state, data, reader)
    own = spec.extra.get("own_prompt")
    if own is not None and reader is not None and acting(state, reader):
        return own(state, data)
    return spec.prompt(state, data)


def pending_rule(state: State, data: GameData) -> str:
    """The rule the pending decision is asked under: its kind's, or the one of the case at
    hand where a kind serves several (a Military Crisis!: its card's, 9.8 or 9.9)."""
    spec = DECISIONS[state.pending.kind]
    rule_of = spec.extra.get("rule_of")
    return rule_of(state, data) if rule_of is not None else spec.rule


def _book(state: State) -> dict | None:
    """The book of the pending decision's sealed plans ({"plans": ..., "done": ...}), when both
    sides are answering it at once: by core.SEALED_BOOKS, without loading the rules' modules
    (a kind core.KINDS does not name: as the registry holds it)."""
    p = state.pending
    if p is None:
        return None
    book = SEALED_BOOKS.get(p.kind)
    if book is not None:
        return book(state)
    if p.kind in KINDS:
        return None
    sealed = DECISIONS[p.kind].extra.get("sealed")
    return sealed.book(state) if sealed is not None else None


def sealed_kind(kind: str) -> bool:
    """Whether a decision of that kind is answered by both sides at once, in sealed plans
    (7.0, 2.0 I, 2.0 V.3)."""
    return kind in SEALED_BOOKS if kind in KINDS else "sealed" in DECISIONS[kind].extra


def _sealed(state: State) -> tuple[SealedPlans, dict] | None:
    """The pending decision's sealed plans, when both sides are answering it at once."""
    b = _book(state)
    return None if b is None else (DECISIONS[state.pending.kind].extra["sealed"], b)


def acting(state: State, side: str) -> bool:
    """Whether side may answer the pending decision now (both sides at once where the rules
    let them: 2.0 I, 2.0 V.3, 7.0)."""
    p = state.pending
    if p is None:
        return False
    b = _book(state)
    return p.side == side if b is None else _plan_open(b, side)


def _plan_open(book: dict, side: str) -> bool:
    """Whether side has a plan in the sealed plans' book and has not closed it."""
    return side in book["plans"] and side not in book["done"]


def waiting_on(state: State) -> list[str]:
    """Every side the referee is waiting on, the pending side first (the others only where
    both sides answer at once: acting). Asked after every record a game with deadlines
    replays, so acting is worked out here from the book once, not again for each side."""
    p = state.pending
    if p is None:
        return []
    b = _book(state)
    out = [p.side]
    if b is None:                   # one side answers: the pending one
        return out
    for side in state.hands:        # a loop, not a comprehension: no frame of its own
        if side != p.side and _plan_open(b, side):
            out.append(side)
    return out


def check(state: State, data: GameData, order: Ord, side: str) -> Violation | None:
    """The rule an order breaks now, or None when it is legal (single source of legality)."""
    if game_over(state):
        return game_over_violation(state)
    DECISIONS.load()
    if order.kind == "armistice":
        return armistice.armistice_violation(state, data, order, side)
    if _crisis_play(order, data):
        return crisis.crisis_play_violation(state, data, side, order)
    return unanswered(state, data, (order.kind,), side, clipped(format_order(order))) or \
        DECISIONS[state.pending.kind].check(state, data, order, side)


def unanswered(state: State, data: GameData, kinds: tuple[str, ...], side: str,
               shown: str) -> Violation | None:
    """The rule an order of one of kinds breaks now whatever else it says (shown quotes it):
    the game is over, the decision is another side's, or no such kind answers it; None
    when the rest of the order decides. Not for an armistice nor a card's play, which check
    weighs first (a Military Crisis! card is played at any decision of its player turn)."""
    if game_over(state):
        return game_over_violation(state)
    p = state.pending
    spec = DECISIONS[p.kind]
    if not acting(state, side):
        # The prompt's own rule is the violation's, which the refusal cites once.
        rule = pending_rule(state, data)
        asked = spec.prompt(state, data).removesuffix(f" ({rule})")
        # Cited here: a prompt that cites a part's rule (8.3.3) would hide the decision's.
        return Violation(rule, citing(f"it is not the {data.side_name(side)} player's "
                                      f"decision: the referee is waiting on the "
                                      f"{data.side_name(p.side)} player ({asked})", rule))
    if not set(kinds) & set(spec.accepts):
        # The kinds of answer open now (open_kinds), not every kind the decision takes:
        # 'annihilate' is none while the side's units can pay the hits (5.3.4).
        open_now = open_kinds(state, data, side)
        answers = ", ".join(a.replace("_", " ") for a in spec.accepts if a in open_now) or \
            ", ".join(a.replace("_", " ") for a in spec.accepts)
        return Violation(pending_rule(state, data), f"'{shown}' does not answer the "
                                    f"decision now, which is yours "
                                    f"({pending_prompt(state, data, side)}); "
                                    f"expected: "
                                    f"{answers}{_card_later(state, data, kinds, side)}")
    return None


def _card_later(state: State, data: GameData, kinds: tuple[str, ...], side: str) -> str:
    """When an order that answers a player turn's card or pass (2.0 II.1) comes to side, told
    after the answers open now: at his own next turn, after the other side's."""
    spec = DECISIONS["card_or_pass"]
    if not set(kinds) & set(spec.accepts) or state.player is None:
        return ""
    turn = data.term("player_turn")
    if state.player == side:
        return f"; your card or pass ({spec.rule}) opens your next {turn}"
    return (f"; your card or pass ({spec.rule}) comes at your {turn}, once the "
            f"{data.side_name(state.player)} player's {turn} is over")


def resumed_decision(state: State) -> tuple[str, str] | None:
    """The decision a Military Crisis! interrupted, asked again once the crisis is answered
    (9.8, 9.9): (kind, side); None when no crisis is being answered."""
    c = state.crisis
    return None if c is None or state.phase == "over" else \
        (c["resume"], c.get("resume_side") or c["side"])


def _crisis_play(order: Ord, data: GameData) -> bool:
    """Whether an order plays a Military Crisis! card (the deck's type crisis), which any
    decision of the turn's owner takes (9.8, 9.9)."""
    return order.kind == "play" and order.card in data.crisis_keys


def legal_orders(state: State, data: GameData, side: str) -> list[Ord]:
    """Every order side may give now, in canonical order (python-chess legal_moves)."""
    p = state.pending
    if game_over(state):
        return []
    DECISIONS.load()
    out: list[Ord] = []
    if acting(state, side):
        spec = DECISIONS[p.kind]
        out = [o for o in spec.candidates(state, data, side)
               if spec.check(state, data, o, side) is None]
    if acting(state, side) or state.player == side:     # 9.8, 9.9: any time in his turn
        out += [o for o in crisis.crisis_orders(state, data, side)
                if crisis.crisis_play_violation(state, data, side, o) is None]
    out += [o for o in armistice.armistice_orders(state, data, side)
            if armistice.armistice_violation(state, data, o, side) is None]
    return out


def decide(state: State, data: GameData, order: Ord, side: str, dice: Dice,
           text: str | None = None, in_place: bool = False,
           standing: dict[str, list[dict]] | None = None) -> tuple[list[Ev], State]:
    """Events an order produces (and the state after them); IllegalOrderError if not legal.

    After the order's own events the sequence of play runs on by itself
    through every step that needs no choice, up to the next decision; a
    decisive victory then ends the game at once (3.2). The state given is
    left as it was, unless in_place says the caller has no further use for
    it (verify and random play, which stop at any error). `standing` holds each
    side's standing orders in force: a decision they answer legally is answered
    by the referee (engine/standing.py).
    """
    v = check(state, data, order, side)
    if v is not None:
        raise IllegalOrderError(text or format_order(order), v.rule, v.reason)
    DECISIONS.load()
    ctx = Ctx(state if in_place else state.clone(), data, dice)
    ctx.standing = standing or {}
    ctx.answer = answer_standing
    if order.kind == "armistice":
        armistice.apply_armistice(ctx, order, side)
    elif _crisis_play(order, data):
        crisis.play_crisis(ctx, side, order.card, resume=state.pending.kind,
                           resume_side=state.pending.side)
    else:
        DECISIONS[state.pending.kind].apply(ctx, order, side)
    flow.resume(ctx)
    victory.check_decisive(ctx)
    return ctx.events, ctx.state


def sealed_for(state: State, side: str) -> bool:
    """Whether side's orders now go into a sealed plan (7.0, 2.0 I, 2.0 V.3: secret until both
    sides are done)."""
    return _book(state) is not None and acting(state, side)


def sealed_sides(state: State) -> list[str]:
    """The sides asked for the pending sealed plan (one, or both at once: 7.0, 2.0 I,
    2.0 V.3); none when the decision is not a sealed plan."""
    b = _book(state)
    return list(b["plans"]) if b is not None else []


def plan_so_far(state: State, side: str) -> list[str]:
    """The orders side has sealed so far into the pending sealed plan (7.0, 2.0 I, 2.0 V.3),
    one a line as he gave them; none when he has begun none."""
    b = _book(state)
    return list(b["plans"].get(side) or []) if b is not None else []


def plan_label(state: State) -> str:
    """What a record of a sealed plan shows in place of its orders."""
    return _sealed(state)[0].label


def plan_labels() -> set[str]:
    """Every label a record of a sealed plan may show."""
    return {s.extra["sealed"].label for s in DECISIONS.values() if s.extra.get("sealed")}


def closes_plans(state: State, side: str, order: Ord, data: GameData | None = None,
                 before: list[Ord] = ()) -> bool:
    """Whether order (after before, the plan's earlier orders in the same submission) closes
    side's sealed plan while every other side is done, so all plans are revealed and applied
    (7.0, 2.0 I, 2.0 V.3)."""
    got = _sealed(state)
    if got is None:
        return False
    sealed, b = got
    if not all(s in b["done"] for s in b["plans"] if s != side):
        return False
    if order.kind == "done":
        return True
    return data is not None and sealed.complete(state, data, side, [*before, order])


def completes_plan(state: State, data: GameData, side: str, orders: list[Ord]) -> bool:
    """Whether orders leave side nothing more to decide in the pending sealed plan, so a
    'done' after them is not needed (2.0 I, 2.0 V.3)."""
    got = _sealed(state)
    return bool(orders) and got is not None and all(o.kind != "done" for o in orders) and \
        got[0].complete(state, data, side, list(orders))


def plan_ids(state: State, data: GameData, side: str) -> list[str]:
    """For each order side has sealed so far into the pending sealed plan (plan_so_far), the
    id it gives a unit it sets on its own ('' for none, and for every order of a plan whose
    kind gives none): for side alone, whose plan it is."""
    got = _sealed(state)
    ids = DECISIONS[state.pending.kind].extra.get("ids") if got is not None else None
    texts = plan_so_far(state, side)
    return ids(state, data, side) if ids is not None and texts else [""] * len(texts)


def plan_room(state: State, data: GameData, side: str) -> tuple[list[Ord], str]:
    """For side's pending sealed plan, when nothing left in it can be placed as the board
    stands: the moves into armies that make room (8.1, 1.2.2), in order, and what a 'done'
    now would leave in the force pool (2.0 I); ([], '') where none are needed or none do."""
    got = _sealed(state)
    room = DECISIONS[state.pending.kind].extra.get("room") if got is not None else None
    return room(state, data, side) if room is not None and sealed_for(state, side) else \
        ([], "")


def decide_plan(state: State, data: GameData, orders: list[tuple[str, Ord]], side: str,
                dice: Dice, in_place: bool = False) -> tuple[list[Ev], State]:
    """One submission of sealed orders as one sealed plan (7.0, 2.0 I, 2.0 V.3).

    Each order is checked in turn against the plan so far; the record then
    holds a single sealing event with every order, so the opponent learns
    that a plan was sealed, not how many orders it holds. A 'done' (last)
    closes the plan as it would alone; so does an order that leaves nothing
    more to decide (a 'done' after it is not needed and is dropped); a unit moved into or
    out of an army within its area (8.1) may still follow it.
    IllegalOrderError carries `index`, the position of the order at fault.
    """
    ctx = Ctx(state if in_place else state.clone(), data, dice)
    got = _sealed(ctx.state)
    if got is None:
        raise IllegalOrderError(orders[0][0] or format_order(orders[0][1]), "2.0",
                                "no sealed plan is being given now")
    sealed, _ = got
    rule = DECISIONS[ctx.state.pending.kind].rule
    kept: list[str] = []
    done = complete = False
    for i, (text, order) in enumerate(orders):
        if complete and order.kind == "done" and i == len(orders) - 1:
            break                   # the plan is complete already: a trailing 'done' is moot
        v = None
        # A unit into or out of an army within its area (8.1) may follow the last arrival
        # placed: the plan closes with the mail, as the player was asked to give it whole.
        if done or (complete and order.kind != "move"):
            # An arrival the plan can no longer place: say why (the stacking limit, 1.2.2),
            # not only that the plan is complete (the unit stays in the force pool).
            v = check(ctx.state, data, order, side) if complete and order.kind == "place" \
                else None
            v = v or Violation(rule, "the plan is closed by 'done'; no order may follow it in "
                                     "the same plan" if done else "the plan is complete: "
                                     "nothing is left to decide, so no order may follow it")
        else:
            v = check(ctx.state, data, order, side)
        if v is None and order.kind == "armistice":
            v = Violation(rule, "an armistice is not part of a sealed plan; send it on its own")
        if v is None and _crisis_play(order, data):
            v = Violation(rule, "a card played now is not part of a sealed plan; send it on "
                                "its own")
        if v is not None:
            exc = IllegalOrderError(text or format_order(order), v.rule, v.reason)
            exc.index = i
            raise exc
        if order.kind == "done":
            done = True
            continue
        # Provisional: lets the next order be checked against the plan so far.
        ctx.emit(sealed.seal(ctx, side, [format_order(order)], False))
        kept.append(format_order(order))
        complete = sealed.complete(ctx.state, data, side, [])
    ctx.events = [sealed.seal(ctx, side, kept, True)]
    if done or complete:
        sealed.close(ctx, side)
    flow.resume(ctx)
    victory.check_decisive(ctx)
    return ctx.events, ctx.state


def is_private(state: State, order: Ord) -> bool:
    """Whether an order's text stays secret to its side: sealed plans, hidden templates."""
    if _book(state) is not None and order.kind != "armistice":
        return True
    DECISIONS.load()
    return private_order(state, order)


__all__ = ["check", "closes_plans", "completes_plan", "decide", "decide_plan", "sealed_for",
           "evolve", "is_private", "legal_orders", "pending_prompt", "pending_rule",
           "plan_ids", "plan_label", "plan_labels", "plan_room", "plan_so_far",
           "unanswered", "waiting_on", "Ctx", "Violation"]
