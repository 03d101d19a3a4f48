"""What a side will be asked after the decision in front of him, before the other side must
act or a die is rolled (2.0): the decisions one mail may answer together.

Nothing here lists the sequence of play: engine/flow.py runs it. Each way of leaving the
decision now (one legal order of each kind that leaves it: 'play', 'pass', 'done', ...) is
decided on a scratch copy of the position with dice that stop at the first roll or shuffle,
and the path goes on with the answer that closes each later decision without doing anything
('done', 'end movement', 'end turn') while the side is still the only one asked. It ends
where a mail of orders ends too (game/batch.py, all or nothing): a die, a card drawn, or a
decision of the other side (both sides at once for a sealed plan).
"""

from __future__ import annotations

import msgspec

from ..base.errors import OrderError
from ..contracts.orders import Done, EndMovement, EndTurn, Ord, Pass
from ..data.gamedata import GameData
from ..engine import (
    acting,
    check,
    decide,
    decide_plan,
    legal_orders,
    pending_rule,
    plan_ids,
    plan_room,
    plan_so_far,
    sealed_for,
    sealed_sides,
    waiting_on,
)
from ..engine.armies import hidden_templates
from ..engine.core import DECISIONS
from ..engine.order_text import format_order
from ..engine.reading import parse_order
from ..engine.state import State
from .drydice import DryDice, DryStop
from .forced import closer as forced_closer
from .planexample import plan_example
from .views import order_aids

# The answers that close a decision and do nothing else, tried in this order ('pass': the
# other side's turn, when he is the one followed).
CLOSERS: tuple[Ord, ...] = (Done(), EndMovement(), EndTurn(), Pass())
# No path is followed further than this many decisions (a safeguard: every path ends sooner).
LONGEST = 24
# The most orders an example of one mail shows.
EXAMPLE = 5
# The most orders of one kind (verb) whose way is followed, when the first of them leaves the
# decision; those past it are counted, not followed.
FOLLOWED = 6


class Step(msgspec.Struct, frozen=True):
    """One decision on the way: its kind and rule (engine/core.DECISIONS); only: the one
    order open there, when the referee would close it for the side (game/forced.py), which
    a line of his mail that reaches it answers all the same."""

    kind: str
    rule: str
    only: str = ""


class Branch(msgspec.Struct):
    """Where one way of answering now leads.

    first: the orders (one per kind of answer) that take this way; steps: the side's own
    decisions after it; orders: one answer to each, in turn (first[0] and the closers);
    turn_ended: his player turn ends on the way (2.0 II, III); end: what stops the path,
    'other' (the other side decides), 'both' (both sides at once, sealed), 'dice', 'cards',
    'choice' (a decision of his own that only a real choice answers), 'over', or for a side
    who waits 'sealed' (the sealed plan asked now, which another side has begun, hides
    where it leads: next_for); then: that decision, with whose it is; more: how many
    answers like the first one the decision takes after it before it is closed (a hit
    paid of several, 5.3); rolls: the path stops where the dice or a shuffle need the
    side's dice sheet link. What the dice are for is not kept: it may name units another
    reader may not see (1.4)."""

    first: list[str]
    steps: list[Step]
    orders: list[str]
    turn_ended: bool
    end: str
    then: Step | None = None
    then_side: str | None = None
    more: int = 0           # the answers after first[0] that the same decision still takes
    rolls: bool = False     # the path stops at a die rolled or the deck shuffled


class Ahead(msgspec.Struct):
    """The decision now and what follows each way of answering it (2.0); when his one order
    now only closes it (only), the decision after it (after) and the orders open then
    (after_orders, with what grouping them needs: views.order_aids)."""

    now: Step
    sealed: bool
    branches: list[Branch]
    example: list[str]
    only: str | None = None
    after: Step | None = None
    after_orders: list[str] = []
    after_aids: dict = {}
    alone: bool = False             # a sealed plan that he alone gives now (one side asked)
    unfollowed: dict[str, int] = {}     # by verb: how many of its orders were not followed
    short: bool = False             # a sealed plan's example: the plan needs more orders
    begun: list[str] = []           # a sealed plan: the orders he has sealed into it so far
    opened: bool = False            # the example has a line legal only after those before it
    lost: str = ""                  # a sealed plan: the arrivals a 'done' now leaves in the pool
    begun_ids: list[str] = []       # beside begun: the id each order gave a unit ('' for none)


def _dice(state: State) -> DryDice:
    return DryDice(state.game_id, state.seq + 1)


def _turn_ended(events: list, side: str) -> bool:
    return any(e.type == "PlayerTurnEnded" and e.side == side for e in events)


def _decision(state: State) -> tuple[str, str] | None:
    p = state.pending
    return None if p is None or state.phase == "over" else (p.kind, p.side)


def _alone(state: State, side: str) -> bool:
    """Whether side is the only one the referee waits on (else the path ends)."""
    return state.phase != "over" and waiting_on(state) == [side]


def _follow(state: State, data: GameData, side: str, standing: dict,
            branch: Branch) -> State | None:
    """Go on from state with the closing answers while side alone is asked; fill branch.
    The position where a decision of his own only a real choice answers stopped it (end
    'choice'), else None."""
    for _ in range(LONGEST):
        if state.phase == "over":
            branch.end = "over"
            return None
        if not _alone(state, side):
            p = state.pending
            branch.end = "both" if len(waiting_on(state)) > 1 else "other"
            branch.then = Step(p.kind, pending_rule(state, data))
            branch.then_side = p.side if branch.end == "other" else None
            return
        spec = DECISIONS[state.pending.kind]
        forced = forced_closer(state, data, side)
        branch.steps.append(Step(state.pending.kind, pending_rule(state, data),
                                 format_order(forced) if forced is not None else ""))
        closer = next((c for c in CLOSERS if c.kind in spec.accepts and
                       check(state, data, c, side) is None), None)
        if closer is None:
            branch.end = "choice"
            return state
        try:
            events, state = decide(state, data, closer, side, _dice(state), standing=standing)
        except DryStop as stop:
            branch.end, branch.rolls = stop.args[1], True
            return None
        branch.orders.append(format_order(closer))
        branch.turn_ended |= _turn_ended(events, side)
        if any(e.type == "CardsDrawn" for e in events):
            branch.end = "cards"
            return None
    branch.end = "choice"
    return None


def _leave(state: State, data: GameData, side: str, text: str, order: Ord,
           standing: dict) -> Branch | None:
    """The branch an answer now starts, or None when the answer leaves the decision as it is
    (a move, a battle declared) or is not legal."""
    before = _decision(state)
    branch = Branch(first=[text], steps=[], orders=[text], turn_ended=False, end="")
    try:
        after = _tried(state, data, order, side, standing, branch)
    except OrderError:
        return None
    if after is None:
        return branch
    if _decision(after) == before and acting(after, side) and not branch.turn_ended:
        if _closer(after, data, side) is not None or \
                not _more(after, data, side, order, standing, branch):
            return None
        return branch
    _follow(after, data, side, standing, branch)
    return branch


def _more(state: State, data: GameData, side: str, order: Ord, standing: dict,
          branch: Branch) -> bool:
    """A decision that no closing answer ends and an answer left open (hits to pay of
    several, 5.3): the answers like the first one that close it, the same order again or
    else the first legal one of its kind, then the path from there (branch.more counts
    them); False when none such closes it."""
    before = _decision(state)
    spec = DECISIONS[state.pending.kind]
    for _ in range(LONGEST):
        again = order if check(state, data, order, side) is None else _like(
            state, data, side, order, spec)
        if again is None:
            return False
        branch.more += 1
        branch.orders.append(format_order(again))
        try:
            state = _tried(state, data, again, side, standing, branch)
        except OrderError:
            return False
        if state is None:
            return True
        if _decision(state) != before or not acting(state, side) or branch.turn_ended:
            _follow(state, data, side, standing, branch)
            return True
    return False


def _worth(order: Ord, data: GameData) -> int:
    """The hits one answer pays: a card its own Ersatz value (5.3.2, 9.2), a unit one
    (5.3.1)."""
    return data.card_types[order.card].ersatz if order.kind == "ersatz" else 1


def _like(state: State, data: GameData, side: str, order: Ord, spec) -> Ord | None:
    """The answer like order once order itself is no longer legal (its card played): the
    first legal one of its kind; of hits to pay (5.3), one that pays as many hits as order,
    of its kind if one does (a unit for a 1-hit card else), so that what the hint counts
    goes by that card's own Ersatz value."""
    legal = [o for o in spec.candidates(state, data, side)
             if spec.check(state, data, o, side) is None]
    kin = [o for o in legal if o.kind == order.kind]
    if order.kind not in ("lose", "ersatz"):
        return next(iter(kin), None)
    same = [o for o in legal if o.kind in ("lose", "ersatz") and
            _worth(o, data) == _worth(order, data)]
    return next((o for o in same if o.kind == order.kind), None) or \
        next(iter(same), None) or next(iter(kin), None)


def _tried(state: State, data: GameData, order: Ord, side: str, standing: dict,
           branch: Branch) -> State | None:
    """The position after order, decided on stand-in dice, its turn's end noted on branch;
    None when the path stops there: at dice or a shuffle that need the side's link, or at
    cards drawn (a discard while passing, 2.0 II.1), branch.end saying which. OrderError
    when the order is not legal."""
    try:
        events, after = decide(state, data, order, side, _dice(state), standing=standing)
    except DryStop as stop:
        branch.end, branch.rolls = stop.args[1], True
        return None
    branch.turn_ended |= _turn_ended(events, side)
    if any(e.type == "CardsDrawn" for e in events):
        branch.end = "cards"
        return None
    return after


def _representatives(texts: list[str], data: GameData) -> list[tuple[str, Ord]]:
    """The first legal order of each kind (verb), in the engine's order; never an armistice
    or a Crisis! card (answers at any time, 3.2, 9.8), which leave no decision behind."""
    out: dict[str, tuple[str, Ord]] = {}
    for text, order in _answers(texts, data):
        out.setdefault(text.split(" ", 1)[0], (text, order))
    return list(out.values())


def _answers(texts: list[str], data: GameData) -> list[tuple[str, Ord]]:
    """The legal orders that answer the decision, read back; not an armistice or a Crisis!
    card (3.2, 9.8)."""
    out: list[tuple[str, Ord]] = []
    for text in texts:
        try:
            order = parse_order(text, data)
        except OrderError:
            continue
        if order.kind == "armistice" or (order.kind == "play" and
                                          order.card in data.crisis_keys):
            continue
        out.append((text, order))
    return out


def _ways(state: State, data: GameData, side: str, legal: list[str],
          standing: dict) -> tuple[list[Branch], dict[str, int]]:
    """Where each answer now leads: every order of a verb that has at most FOLLOWED of them;
    of a verb with more (moves), the first, and when it leaves the decision the next ones up
    to FOLLOWED, the rest counted by verb. A way shown is then every order that takes it,
    not one of a kind standing for the rest (a 1-hit Ersatz card may leave hits to pay where
    a 2-hit one does not, 5.3.2)."""
    answers = _answers(legal, data)
    branches: list[Branch] = []
    unfollowed: dict[str, int] = {}
    for text, order in _representatives(legal, data):
        verb = text.split(" ", 1)[0]
        more = [(t, o) for t, o in answers if t.split(" ", 1)[0] == verb and t != text]
        first = _leave(state, data, side, text, order, standing)
        if first is not None:
            branches.append(first)
        if first is None and len(more) >= FOLLOWED:
            continue
        for t, o in more[:FOLLOWED - 1]:
            b = _leave(state, data, side, t, o, standing)
            if b is not None:
                branches.append(b)
        if len(more) > FOLLOWED - 1:
            unfollowed[verb] = len(more) - (FOLLOWED - 1)
    return branches, unfollowed


def _merge(branches: list[Branch]) -> list[Branch]:
    """Branches that lead the same way become one, with every order that takes it."""
    out: list[Branch] = []
    for b in branches:
        same = next((x for x in out if (x.steps, x.end, x.then, x.then_side, x.turn_ended,
                                        x.more) ==
                     (b.steps, b.end, b.then, b.then_side, b.turn_ended, b.more)), None)
        if same is None:
            out.append(b)
        else:
            same.first.append(b.first[0])
    return out


def ahead(state: State, data: GameData, side: str, legal: list[str],
          standing: dict[str, list[dict]] | None = None) -> Ahead | None:
    """What side is asked now and, for each way of answering, what he is asked after it
    before the other side acts, a die is rolled or a card drawn (2.0); None when he is not
    asked anything. legal: his legal orders as `status` lists them; standing: his own
    standing orders in force (a decision they answer is not asked)."""
    if state.phase == "over" or state.pending is None or not acting(state, side):
        return None
    mine = {side: (standing or {}).get(side, [])}
    kind = state.pending.kind
    now = Step(kind, pending_rule(state, data))
    sealed = sealed_for(state, side)
    reps = _representatives(legal, data)
    if sealed:
        # A sealed plan is one answer, closed by 'done' or by its last arrival placed or
        # card discarded (7.0, 2.0 I, 2.0 V.3).
        first = next((t for t, o in reps if o.kind not in ("done", "move")), None)
        example, short = plan_example(state, data, side, first)
        if not example:
            example = ["done"] * any(o.kind == "done" for _, o in reps)
        # A 'done' now that would leave arrivals in the force pool while moves into armies
        # could make room for them (2.0 I, 8.1): said, as the example makes that room.
        begins = first is None and example[0:1] not in ([], ["done"])
        lost = plan_room(state, data, side)[1] if begins else ""
        return Ahead(now, True, [], example, alone=len(sealed_sides(state)) < 2, short=short,
                     begun=plan_so_far(state, side), begun_ids=plan_ids(state, data, side),
                     lost=lost)
    branches, unfollowed = _ways(state, data, side, legal, mine)
    example = _example(state, data, side, reps[0][0] if reps else None, mine)
    return Ahead(now, False, _merge(branches), example,
                 *_after_only(state, data, side, legal, reps, mine), unfollowed=unfollowed,
                 opened=any(t not in legal for t in example[1:]))


def _after_only(state: State, data: GameData, side: str, legal: list[str], reps: list,
                standing: dict) -> tuple:
    """(only, after, after_orders, after_aids) when side's one order now (an armistice or a
    surrender aside) only closes the decision and, with no die or card drawn, he alone is
    asked next; else ()."""
    if len(reps) != 1 or reps[0][1] not in CLOSERS:
        return ()
    text, order = reps[0]
    try:
        if any(parse_order(t, data).kind != "armistice" for t in legal if t != text):
            return ()
        events, after = decide(state, data, order, side, _dice(state), standing=standing)
    except (DryStop, OrderError):
        return ()
    if any(e.type == "CardsDrawn" for e in events) or not _alone(after, side):
        return ()
    step = Step(after.pending.kind, pending_rule(after, data))
    return (text, step, [format_order(o) for o in legal_orders(after, data, side)],
            order_aids(after, data, side))


def _example(state: State, data: GameData, side: str, first: str | None,
             standing: dict) -> list[str]:
    """Orders of his own for one mail, each legal after the ones before it: first (his first
    legal order now); if it leaves the decision, an order that keeps the next one open (a
    move); then for each decision the answer that closes it, or else its first legal order;
    up to a die, a card drawn, the other side's decision or EXAMPLE orders."""
    out: list[str] = []
    text = first
    while text is not None and len(out) < EXAMPLE:
        before = _decision(state)
        try:
            events, state = decide(state, data, parse_order(text, data), side, _dice(state),
                                   standing=standing)
        except DryStop:
            return [*out, text]
        except OrderError:
            return out
        out.append(text)
        if any(e.type == "CardsDrawn" for e in events) or not _alone(state, side):
            return out
        inside = None
        if len(out) == 1 and _decision(state) != before:
            inside = _first_stay(state, data, side)
        text = inside or _closer(state, data, side) or _first_stay(state, data, side)
    return out


def _closer(state: State, data: GameData, side: str) -> str | None:
    """The answer that closes side's decision now and does nothing else, if it is legal."""
    spec = DECISIONS[state.pending.kind]
    return next((format_order(c) for c in CLOSERS if c.kind in spec.accepts and
                 check(state, data, c, side) is None), None)


def _first_stay(state: State, data: GameData, side: str) -> str | None:
    """The first legal order of side's decision now that is not a closing answer, a card or
    an armistice (a move, a battle declared, a hit paid), or None."""
    spec = DECISIONS[state.pending.kind]
    for order in spec.candidates(state, data, side):
        if order.kind in ("done", "end_movement", "end_turn", "pass", "play", "discard",
                          "armistice"):
            continue
        if spec.check(state, data, order, side) is None:
            return format_order(order)
    return None


def next_for(state: State, data: GameData, reader: str) -> Branch | None:
    """For a side not asked now: where the sequence of play goes if the side asked closes
    each of his decisions at once ('pass', 'end turn', 'done'), up to the next decision of
    another side, a die or a card; past a decision of his that no closing answer ends, where
    all his answers lead, when they agree (past_choice). Public facts only: the side asked
    is followed without his standing orders, and no order of his is shown (his hand stays
    his, 1.3). While a sealed plan another side has begun is open (7.0, 2.0 I, 2.0 V.3),
    nothing is followed: the path from it rests on orders the reader may not see (a card
    bought draws one), so the branch ends there, 'sealed', at that decision; that a plan
    was begun is public, what it holds is not."""
    if state.phase == "over" or state.pending is None or acting(state, reader):
        return None
    side = state.pending.side
    if not _alone(state, side):
        return None
    if _plan_hidden(state, reader):
        kind = state.pending.kind
        return Branch(first=[], steps=[], orders=[], turn_ended=False, end="sealed",
                      then=Step(kind, pending_rule(state, data)))
    branch = Branch(first=[], steps=[], orders=[], turn_ended=False, end="")
    at = _follow(state, data, side, {}, branch)
    if at is not None:
        past_choice(at, data, side, branch)
    branch.orders = []
    return branch


def _plan_hidden(state: State, reader: str) -> bool:
    """Whether a side other than reader has begun the sealed plan asked now: his orders in
    it are secret until every plan is revealed (7.0, 2.0 I, 2.0 V.3)."""
    return any(plan_so_far(state, s) for s in sealed_sides(state) if s != reader)


# The most answers past_choice tries; a decision with more of them is left unsaid.
TRIED = 12
# Answers it never tries: cards (his hand is his, 1.3), the armistice and surrender (3.2:
# answers at any time, not to this decision), a unit into or out of an army (8.1: optional).
_NOT_TRIED = ("play", "ersatz", "discard", "armistice", "move", "done")


def _ways_past(state: State, data: GameData, side: str) -> list[list[tuple[str, Ord]]] | None:
    """The ways to answer side's decision now, each as the orders it takes (one, or a whole
    sealed plan of his own legal orders); None when there is none or too many to try."""
    if sealed_for(state, side):
        first = next((format_order(o) for o in legal_orders(state, data, side)
                      if o.kind not in _NOT_TRIED), None)
        if first is None:
            return None
        plan, short = plan_example(state, data, side, first)
        return None if short else [[(t, parse_order(t, data)) for t in plan]]
    ways = [[(format_order(o), o)] for o in legal_orders(state, data, side)
            if o.kind not in _NOT_TRIED]
    return ways if 0 < len(ways) <= TRIED else None


def past_choice(state: State, data: GameData, side: str, branch: Branch) -> None:
    """For the side who waits: where side's decision now, one no closing answer ends (a hit
    to pay, 5.3; arrivals to place, 2.0 I), leads. Each answer his hand plays no part in is
    tried on a scratch copy and followed with the closing answers; when they all reach the
    same step, branch is filled with it; when they part, what comes next rests on his
    choice, and branch is left as it is. Not under hidden army templates (1.4): whether
    every loss ends the battle would tell what an army holds."""
    if hidden_templates(state):
        return
    ways = _ways_past(state, data, side)
    if not ways:
        return
    found = set()
    for orders in ways:
        got = Branch(first=[], steps=[], orders=[], turn_ended=False, end="")
        try:
            if len(orders) == 1:
                events, after = decide(state, data, orders[0][1], side, _dice(state),
                                       standing={})
            else:
                events, after = decide_plan(state, data, orders, side, _dice(state))
        except DryStop as stop:
            found.add((stop.args[1], None, None, False))
            continue
        except OrderError:
            return
        got.turn_ended = _turn_ended(events, side)
        if any(e.type == "CardsDrawn" for e in events):
            got.end = "cards"
        elif _follow(after, data, side, {}, got) is not None:
            return                          # another choice of his: not followed further
        found.add((got.end, got.then, got.then_side, got.turn_ended))
    if len(found) == 1:
        end, then, then_side, turn_ended = found.pop()
        branch.end, branch.then, branch.then_side = end, then, then_side
        branch.turn_ended |= turn_ended
