"""The referee's answer for a side that let its deadline pass (policy default), for every
kind of decision.

One table says, for each decision kind, the kinds of order the referee may answer with, most
preferred first, how it picks among the legal orders of one kind, the rule the choice rests
on, and the words that tell the side what it is. The referee only ever chooses among
`legal_orders`: which orders are legal is the rules engine's business alone, and a decision
with no legal order of those kinds gets no answer (the game waits for the moderator).

Where the rules leave the side nothing to choose but whether to act, the answer does
nothing ('pass', 'done', 'end movement'). Where they make the side choose, the referee
chooses as the rules order the like choice: a loss comes from the strongest unit (5.3.1);
a forced retreat or elimination takes the weakest army; a unit placed or a battle fought is
the first the referee lists. It never spends the side's cards (Ersatz) and never annihilates
(5.3.4: paying unit by unit ends the same way once no unit is left, and keeps what
annihilation would also take, such as the Paris Gun, 8.3.6). docs/moderator.md gives the
same table to the moderator (tests/test_defaults.py keeps them together).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

import msgspec

from ..contracts.orders import CrisisRefuse, EndMovement, EndTurn, Ord, Pass
from ..data.gamedata import GameData
from ..engine import legal_orders, pending_rule
from ..engine.losses import loss_type
from ..engine.order_text import format_order
from ..engine.state import State, template_key

# The answers that do nothing, most neutral first: a pass (2.0 II.1: an impulse without an
# action), the end of a step that may end at any time, a crisis refused (9.8); a decision
# kind the table below does not name gets the first of them that is legal.
NULL_KINDS = ("pass", "done", "end_movement", "end_turn", "crisis_refuse")
NOTHING = "the answer that does nothing"


class Answer(msgspec.Struct, frozen=True):
    """The referee's answer for a silent side: the order as text, the rule it rests on, why
    it is this one (words for the side's mails) and what follows when the decision asks more
    of him ('', or ', and so on ...')."""

    text: str
    rule: str
    why: str
    then: str = ""

    def words(self) -> str:
        """The answer as a mail tells it: the order, why it is this one, its rule."""
        return f"{self.text!r}, {self.why} (rule {self.rule}){self.then}"


# ---------------------------------------------------------------- how an order is picked
# Each takes the state, the data, the side and the legal orders of the step's kinds (in the
# order legal_orders lists them) and returns the one to give; ties go to the first listed.

def _first(s: State, d: GameData, side: str, orders: Sequence[Ord]) -> Ord:
    return orders[0]


def _counter(s: State, d: GameData, ref: str) -> tuple[str, int, int]:
    """(the counter a unit belongs to, its strength, how many units of the unit's type it
    holds), as 5.3.1 ranks who pays a loss: an army by its units, a fort by its number, a
    unit on its own 1; in an army, its most numerous type."""
    if ref in s.forts:
        return ref, s.forts[ref].strength, 0
    if ref in s.pieces or ref.partition(":")[0] not in s.armies:
        return ref, 1, 0
    army_id, key = template_key(s, ref)
    army = s.armies[army_id]
    kind = loss_type(key.split(":")[1], d)
    same = sum(n for k, n in army.contents.items() if loss_type(k.split(":")[1], d) == kind)
    return army_id, army.strength, same


def _strongest(s: State, d: GameData, side: str, orders: Sequence[Ord]) -> Ord:
    """A unit of the strongest counter (of equal ones, the first listed), and in an army one
    of its most numerous type (5.3.1)."""
    ranked = [(o, *_counter(s, d, o.unit)) for o in orders]
    top = max(strength for _, _, strength, _ in ranked)
    counter = next(c for _, c, strength, _ in ranked if strength == top)
    return max((r for r in ranked if r[1] == counter), key=lambda r: r[3])[0]


def _fort_first(s: State, d: GameData, side: str, orders: Sequence[Ord]) -> Ord | None:
    """The fort's step, while Siege Gun hits are to pay (8.3.3: the only loss open then);
    None for any other hit."""
    return orders[0] if s.battle["pay"]["siege"] else None


def _weakest_army(s: State, d: GameData, side: str, orders: Sequence[Ord]) -> Ord | None:
    """An order of an army itself (not of a unit on its template, nor taking units along),
    the weakest army first (the fewest units), to a Friendly area before a Disputed one
    (5.4.4: a unit retreated into a battle still to be fought may have to retreat twice)."""
    whole = _whole_armies(s, orders)
    return min(whole, key=lambda o: _rank(s, d, side, o)) if whole else None


def _empty_army_out(s: State, d: GameData, side: str, orders: Sequence[Ord]) -> Ord | None:
    """An empty army leaving the Disputed area it stands in (8.1), as _weakest_army ranks
    them; None when no such army has an order here."""
    whole = [o for o in _whole_armies(s, orders) if _stranded(s, d, s.armies[_army_of(o)])]
    return _weakest_army(s, d, side, whole)


def _whole_armies(s: State, orders: Sequence[Ord]) -> list[Ord]:
    return [o for o in orders if _army_of(o) in s.armies and not getattr(o, "into", None)
            and not getattr(o, "taking", ())]


def _stranded(s: State, d: GameData, army) -> bool:
    return army.strength == 0 and s.area_state(army.area, d) == "disputed"


def _rank(s: State, d: GameData, side: str, o: Ord) -> tuple[int, int]:
    army = s.armies[_army_of(o)]
    to = getattr(o, "to", None) or (o.path[-1] if getattr(o, "path", ()) else None)
    return army.strength, 0 if to is None or s.status(to, side, d) == "friendly" else 1


def _army_of(o: Ord) -> str:
    return getattr(o, "army", None) or getattr(o, "unit", "")


def _last_drawn(s: State, d: GameData, side: str, orders: Sequence[Ord]) -> Ord:
    """The cards drawn last: those just bought, whose cost 7.1 counts as lost."""
    hand = s.hands.get(side, [])
    for o in orders:
        latest = hand[len(hand) - len(o.cards):] if o.cards else []
        if Counter(o.cards) == Counter(d.cards[c].key for c in latest):
            return o
    return orders[0]


class Step(msgspec.Struct, frozen=True):
    """One way of answering a decision: the order kinds it gives, how it picks one, the rule
    it rests on (None: the decision's own), why it is this one, and what follows."""

    kinds: tuple[str, ...]
    pick: Callable[[State, GameData, str, Sequence[Ord]], Ord | None]  # None: no answer
    why: str
    rule: str | None = None
    then: str = ""


def _nothing(*kinds: str) -> Step:
    return Step(kinds or NULL_KINDS, _first, NOTHING)


_EMPTY_OUT = ("an empty army must leave its Disputed area while it can (8.1): it goes to a "
              "Friendly area where one is open, else the first the referee lists")
_LOSS = "a loss from the strongest unit (in an army, a unit of its most numerous type)"

# What the referee answers for each decision kind, the steps tried in turn: the first whose
# kinds hold a legal order gives the answer.
DEFAULTS: dict[str, tuple[Step, ...]] = {
    "card_or_pass": (_nothing("pass"),),
    "pass_move": (_nothing("end_turn"),
                  Step(("move",), _empty_army_out, _EMPTY_OUT, "8.1", ", then 'end turn'")),
    "movement": (_nothing("end_movement"),
                 Step(("move",), _empty_army_out, _EMPTY_OUT, "8.1",
                      ", then 'end movement'")),
    "declare_battles": (_nothing("done"),),
    "attacker_cards": (_nothing("done"),),
    "defender_cards": (_nothing("done"),),
    "cavalry_retreat": (Step(("done",), _first, "no Cavalry retreats before combat: it stays "
                                                 "and fights"),),
    "defence": (Step(("done",), _first, "no unit retreats, so every one of them fires"),
                Step(("retreat",), _empty_army_out,
                     "an empty army must leave the battle (8.1): it retreats to a Friendly "
                     "area where one is open, else the first the referee lists", "8.1",
                     ", then 'done': the others fire and none retreats")),
    "reaction": (Step(("done",), _first, "no Biplane reacts: they fire with the other "
                                          "units"),),
    "scramble": (_nothing("done"),),
    "retreat_after": (_nothing("done"),
                      Step(("retreat",), _weakest_army,
                           "a forced retreat: the weakest army goes, to a Friendly area where "
                           "one is open, else the first the referee lists", "5.4.2",
                           ", and so on for each forced retreat still owed; then 'done': no "
                           "other unit retreats")),
    "forced_elimination": (Step(("eliminate",), _weakest_army,
                                "the weakest army (the fewest units) is the one eliminated",
                                "5.4", ", and so on for each forced retreat that cannot be "
                                       "made"),),
    "empty_retreat": (Step(("retreat",), _empty_army_out, _EMPTY_OUT, "8.1",
                           ", and so on for each empty army that must leave"),),
    "battle_order": (Step(("fight",), _first,
                          "the first battle still to fight in the order they were declared "
                          "(those the moves made compulsory first)", "5.2.1"),),
    "keep_battle": (Step(("keep",), _first,
                         "the first battle declared (those the moves made compulsory first)",
                         "9.5"),),
    "losses": (Step(("lose",), _fort_first, "a Siege Gun hit falls on the fort unless a card "
                                            "pays it", "8.3.3",
                    ", and so on for each hit still to pay; no card is spent"),
               Step(("lose",), _strongest, _LOSS, "5.3.1",
                    ", and so on for each hit still to pay; no card is spent")),
    # 9.8, 9.9: the units must be removed while the map holds them ('refuse crisis' is never
    # open: the VP is conceded by itself when too few are left).
    "crisis": (Step(("crisis_remove",), _strongest,
                    "an infantry unit from the strongest counter, as a loss is taken (5.3.1)",
                    "9.8", ", and so on for each unit still to remove"),),
    "reinforce": (_nothing("done"),
                  Step(("place",), _first,
                       "the first place the referee lists for the first unit still to place",
                       "2.0 I", ", and so on for each unit still to place"),
                  Step(("swap",), _first,
                       "the Commonwealth unit replaces the first infantry unit the referee "
                       "lists", "2.0 I")),
    "production": (_nothing("done"),),
    "discard_excess": (Step(("discard",), _last_drawn,
                            "the cards drawn last (those just bought) are the ones discarded",
                            "7.1"),),
    "attrition": (Step(("lose",), _strongest,
                       "a unit of the army's most numerous type, as a loss is taken (5.3.1)",
                       "6.5", ", and so on for each unsupplied army still to lose one"),),
    "eft_losses": (Step(("lose",), _strongest,
                        "a unit of the strongest counter in the box, and in an army its most "
                        "numerous type, as a loss is taken (5.3.1)", "2.0 V.4",
                        ", and so on for each loss still to take"),),
}


def default_answer(state: State, data: GameData, side: str) -> Answer | None:
    """The referee's answer for side's pending decision (DEFAULTS), chosen among the legal
    orders; None when none of the orders it may give is legal (the moderator decides)."""
    pending = state.pending
    if pending is None:
        return None
    legal = legal_orders(state, data, side)
    for step in DEFAULTS.get(pending.kind, (_nothing(),)):
        orders = [o for kind in step.kinds for o in legal if o.kind == kind]
        chosen = step.pick(state, data, side, orders) if orders else None
        if chosen is not None:
            return Answer(format_order(chosen), step.rule or pending_rule(state, data),
                          step.why, step.then)
    return None


def default_order(state: State, data: GameData, side: str) -> tuple[str, str] | None:
    """The referee's answer for side's pending decision as (order text, rule); None when
    there is none to give."""
    answer = default_answer(state, data, side)
    return None if answer is None else (answer.text, answer.rule)


# The answers that do nothing whatever the decision, as the journal holds them (an order's
# text): not 'done', which in a battle lets every unit fire (5.4.1) or a Cavalry stay
# (5.4.3), and says what it does only beside its decision (DEFAULTS).
NULL_TEXTS = frozenset(format_order(o) for o in (Pass(), EndMovement(), EndTurn(),
                                                 CrisisRefuse()))


def answer_words(text: str, answer: Answer | None) -> str:
    """A record's answer for a silent side as its readers read it: the order and why it is
    this one, from the answer the referee would give in the position before it (answer;
    plain words when it is not that one: an answer of an older referee's)."""
    why = answer.why if answer is not None and answer.text == text else \
        NOTHING if text in NULL_TEXTS else "the referee's default for the decision"
    return f"{text!r}, {why}"


def answer_in(rec: dict, before: State, data: GameData) -> str | None:
    """answer_words for a record that is the referee's answer for a silent side, told to
    a reader who may read its order (rec as redacted for him; before: the position before
    it); None for a sealed order kept from him (7.0: its placeholder alone is his)."""
    private = rec.get("private_order")
    if isinstance(private, dict) and "data" not in private:
        return None
    text = private["data"]["text"] if isinstance(private, dict) else rec["order"]
    return answer_words(text, default_answer(before, data, rec["clock"]["side"]))

