"""What comes after the decision now, for a report or a mail (2.0): the reader's own later
decisions for each way of answering (game/ahead.py works them out from the sequence of
play), how to answer several in one mail, and an example made of his own legal orders.
"""

from __future__ import annotations

from ..base.plurals import counted
from .documents import CLOSED_BY, side_name
from .grouped import grouped_blocks
from .phrases import kind_name
from .sections import Items, Orders, Para, Span, para

# Imported for annotations only.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..data.gamedata import GameData
    from ..game.ahead import Ahead, Branch, Step


def step_text(step: Step) -> str:
    """'movement (2.0 II.2)'."""
    return f"{kind_name(step.kind)} ({step.rule})"


def _end_parts(b: Branch, data: GameData, reader: str, whose: str = "your") -> list[str]:
    """How a path ends: the end of the player turn, then who decides, or the dice."""
    parts = [f"end of {whose} {data.term('player_turn')}"] if b.turn_ended else []
    if b.end == "other" and b.then is not None:
        who = "you decide" if b.then_side == reader else \
            f"the {side_name(b.then_side)} player decides"
        parts.append(f"{who}: {step_text(b.then)}")
    elif b.end == "both" and b.then is not None:
        parts.append(f"both sides at once: {step_text(b.then)}, each plan sealed until "
                     f"both are in")
    elif b.end == "dice":
        parts.append("the dice are rolled")
    elif b.end == "cards":
        parts.append("cards are drawn")
    elif b.end == "over":
        parts.append("the game ends")
    elif b.end == "choice" and b.steps:
        parts[-1:] = []
        parts.append(f"{step_text(b.steps[-1])}, where your answer decides what follows")
    return parts


def _branch_item(b: Branch, data: GameData, reader: str) -> list[Span]:
    steps = b.steps[:-1] if b.end == "choice" else b.steps
    parts = [_step_only(s) for s in steps] + _end_parts(b, data, reader)
    spans: list[Span] = [Span("after ")]
    for i, text in enumerate(b.first):
        spans += [Span(" or " if i == len(b.first) - 1 else ", ")] * bool(i) + \
            [Span(text, "order")]
    if b.more:      # the same decision takes more answers before it is closed (5.3)
        spans += _more_spans(b)
    spans.append(Span(": " + "; then: ".join(parts)))
    return spans


def _step_only(step: Step) -> str:
    """A later step, and when one order alone is open there, that one."""
    return f"{kind_name(step.kind)} ({step.rule}, only {step.only} open)" if step.only else \
        step_text(step)


# Under the 'Then' list when a step on it has one order alone open: a line of the mail that
# reaches such a step answers it, as it answers any other.
ONLY_OPEN = ("A step marked 'only ... open' is answered, like any other, by the next line "
             "of your mail that reaches it: your {order} there closes that step, not the "
             "one after it.")


def _more_spans(b: Branch) -> list[Span]:
    """The answers after the first that close the decision (5.3): how many, and of one first
    answer the ones the referee found legal after it (a hit paid may open another unit to
    pay the next, not the first again), each legal after those before it."""
    later = b.orders[1:1 + b.more]
    spans = [Span(f", then {counted(b.more, 'more answer')}")]
    if len(b.first) == 1 and len(later) == b.more:
        spans.append(Span(" (e.g. "))
        for i, text in enumerate(later):
            spans += [Span(", then ")] * bool(i) + [Span(text, "order")]
        spans.append(Span(")"))
    return spans + [Span(" to close this decision")]


def _plan_words(ah: Ahead) -> list:
    """How one sealed plan is given: closed by 'done', or by its last order when the example
    shows that it closes by itself (2.0 I, 2.0 V.3: nothing left to place or discard); a
    plan he has begun, added to in one mail or more. A plan not begun may come in parts too
    (each part sealed as it comes), so no words ask for it whole in one mail."""
    head = (f"Your orders now are one sealed plan ({ah.now.rule}): one order per line, in "
            f"one mail or in parts over several, ")
    if ah.begun:
        so_far = ": your plan so far and the BP left are under Build Points. Add" if \
            ah.now.kind == "production" else ": add"
        head = (f"You have begun your sealed plan ({ah.now.rule}){so_far} the rest of it in "
                f"one mail or more, one order per line, ")
    # Nothing placeable until units go into armies (8.1): a 'done' now loses the arrivals.
    lost = ["a ", Span("done", "order"), f" now leaves {ah.lost} in the force pool, though "
            f"units moved into armies make room (2.0 I, 8.1); "] if ah.lost else []
    if not ah.example or ah.example[-1] == "done":
        return [head + "and end it with ", Span("done", "order"), "; ", *lost]
    last = CLOSED_BY.get(ah.now.kind, "order")
    return [head + "and no ", Span("done", "order"), f": it closes by itself with its last "
            f"{last}; ", *lost]


def _for_example(ah: Ahead) -> str:
    """What the example of a sealed plan is: the whole plan, or its first orders only; of a
    plan begun, its rest."""
    if ah.short:
        which = "next" if ah.begun else "first"
        return (f" For example, its {which} {len(ah.example)} orders (it needs more, in this "
                f"mail or a later one):")
    return " For example, the rest of it:" if ah.begun else " For example:"


def _so_far(ah: Ahead) -> list:
    """A plan he has begun, as he sealed it so far (the production plan's, with its cost,
    is under Build Points: render/costs.py)."""
    if not ah.begun or ah.now.kind == "production":
        return []
    return [para("Your plan so far:"), Orders(_with_ids(ah.begun, ah.begun_ids))]


def _with_ids(texts: list[str], ids: list[str]) -> list[str]:
    """The orders of his plan so far, each that set a unit on its own with the id it gave
    it, as a comment the order reader skips (the lists of orders open name units by id)."""
    if not any(ids):
        return texts
    width = max(len(t) for t, i in zip(texts, ids) if i)
    return [f"{t.ljust(width)}  # {i}" if i else t for t, i in zip(texts, ids)]


def ahead_blocks(ah: Ahead, data: GameData, reader: str, example: bool = True) -> list:
    """The decisions the reader meets after this one before the other side acts, and how to
    answer them together in one mail, with an example of his own orders (example=False: a
    section of its own shows one)."""
    if ah.sealed:
        show = example and bool(ah.example)
        until = "it is in." if ah.alone else "both sides are in."
        blocks: list = [para(*_plan_words(ah), f"it stays secret until {until}"
                             + _for_example(ah) * (show and not ah.begun)), *_so_far(ah)]
        if show and ah.begun:
            blocks.append(para(_for_example(ah).strip()))
        return blocks + [Orders(ah.example)] if show else blocks
    blocks = []
    if ah.branches:
        later = any(b.steps for b in ah.branches)
        blocks.append(para("Then, if you close each later step at once (a battle your "
                           "orders start adds steps, 2.0):" if later else "Then (2.0):"))
        blocks.append(Items([_branch_item(b, data, reader) for b in ah.branches]))
        only = next((s.only for b in ah.branches for s in b.steps if s.only), None)
        if only is not None:
            blocks.append(para(ONLY_OPEN.format(order=only)))
        if ah.unfollowed:
            blocks.append(para("Not followed here: " + ", ".join(
                f"{counted(n, f'more {verb} order')}" for verb, n in ah.unfollowed.items())
                + " (each may lead elsewhere)."))
    if ah.after is not None:
        blocks.append(para("Your one order now is ", Span(ah.only, "order"), f"; after it "
                           f"you decide {step_text(ah.after)}, with these orders open (give "
                           f"them in the same mail, after it):"))
        blocks += grouped_blocks(ah.after_orders, ah.after_aids, whole=False)
    blocks.append(para("You may answer several decisions in one mail, one after another: "
                       "one order per line, in the order they are asked. The orders are "
                       "applied in turn, all or none. Orders after one whose result needs "
                       "dice or a card drawn have the whole mail refused; those after one "
                       "that hands the decision to the other side are not applied, and the "
                       "reply names them." + (_example_words(ah) if ah.example else "")))
    if ah.example:
        blocks.append(Orders(ah.example))
    return blocks


def _example_words(ah: Ahead) -> str:
    """What the example is: a line of it not in the list of orders open now is legal only
    once the lines before it are applied, and says so."""
    if ah.opened:
        return (" For example (a line not in the list below opens once those before it "
                "are applied):")
    return " For example:"


def awaited_blocks(b: Branch | None, data: GameData, reader: str, waiting: list[str],
                   offered: bool = False) -> list:
    """For a reader not asked now: when he is asked next, as far as the sequence of play says
    before anyone chooses (2.0). offered: an armistice the other side proposed waits for his
    answer (3.2), told above, so that is all he is asked."""
    who = " and ".join(f"the {side_name(w)} player" for w in waiting)
    text = f"Nothing {'else ' if offered else ''}is asked of you now. "
    if b is not None and b.end == "other" and b.then_side == reader and b.then is not None:
        after = f"the end of his {data.term('player_turn')}" if b.turn_ended else \
            "his present steps"
        text += (f"Next for you: {step_text(b.then)}, after {after} (sooner if a battle "
                 f"needs your answer). ")
    elif b is not None and b.end == "both" and b.then is not None:
        text += f"Next: {step_text(b.then)}, both sides at once, once {who} is done. "
    elif b is not None and b.end == "sealed" and b.then is not None:
        text += (f"What follows once {who} is done rests on his sealed plan, secret until it "
                 f"is revealed ({b.then.rule}). ")
    elif b is not None and b.end == "dice":
        text += f"Once {who} has answered, dice are rolled; what you are asked then rests on them. "
    return [Para([Span(text + "A new mail will ask you when a decision is yours.")])]
