"""Standing orders: sealed answers a side gives ahead, applied when their decision comes up.

A small fixed vocabulary, each phrase valid for one kind of decision (or the
two combat-card decisions), optionally limited to the turn it was given in:

    no cavalry retreat          cavalry retreat before combat (5.4.3): 'done'
    no retreat after combat     retreat after combat (5.4.2): 'done'
    no combat cards             combat cards, attacker or defender (2.0 II.3): 'done'
    stand and fight             the defender's choice before the fire: no retreat instead of
                                firing (5.4.1), no Biplane reaction (8.3.4): 'done'
    pay hits with units         losses (5.3): lose the unit 5.3.1 leaves as the only choice,
                                never an Ersatz card; when 5.3.1 leaves the owner a choice
                                between units, he is asked as usual
    eliminate ARMY              a forced retreat no army can make (5.4): 'eliminate ARMY'

followed by 'this turn' to limit it to the current seasonal turn. When the
decision comes up, the first standing answer of that side that is legal at
that moment answers it (a StandingApplied event, then the answer's own
events); when none is legal, the decision is asked as usual.
"""

from __future__ import annotations

import re

from ..base.errors import OrderSyntaxError
from ..contracts.events_turn import StandingApplied
from ..data.gamedata import GameData
from .core import DECISIONS, Ctx
from .losses import loss_choices
from .order_text import format_order
from .reading import parse_order

# phrase -> (decision kinds it answers, the answer, the rule of the decision)
PHRASES: dict[str, tuple[tuple[str, ...], str, str]] = {
    "no cavalry retreat": (("cavalry_retreat",), "done", "5.4.3"),
    "no retreat after combat": (("retreat_after",), "done", "5.4.2"),
    "no combat cards": (("attacker_cards", "defender_cards"), "done", "2.0 II.3"),
    "stand and fight": (("defence", "reaction"), "done", "5.4.1"),
    "pay hits with units": (("losses",), "lose", "5.3.1"),
}
ALIASES = {"pay hits with units before cards": "pay hits with units",
           "no ersatz": "pay hits with units"}
ELIMINATE = ("forced_elimination",)
THIS_TURN = " this turn"


def parse_standing(text: str, data: GameData, turn: int) -> dict:
    """Read one standing order ('no combat cards this turn', 'eliminate ge-2', ...) into its
    journal form {text, turn}; OrderSyntaxError quotes the text and lists the vocabulary."""
    line = re.sub(r"\s+", " ", text.strip().lower())
    if line.startswith("standing:"):
        line = line[len("standing:"):].strip()
    scoped = line.endswith(THIS_TURN)
    if scoped:
        line = line[:-len(THIS_TURN)].strip()
    line = ALIASES.get(line, line)
    if line not in PHRASES:
        words = line.split(" ")
        if len(words) != 2 or words[0] != "eliminate" or not words[1]:
            raise OrderSyntaxError(text, "not a standing order; expected one of: "
                                         + ", ".join(PHRASES) + ", eliminate ARMY (each may "
                                         "end with 'this turn')")
        line = format_order(parse_order(line, data))
    return {"text": line, "turn": turn if scoped else None}


def describe(entry: dict, data: GameData | None = None) -> str:
    """A standing order as its owner reads it: its phrase and its scope."""
    if entry.get("turn") is None:
        return entry["text"]
    when = data.label(entry["turn"]) if data is not None else f"turn {entry['turn']}"
    return f"{entry['text']} this turn ({when})"


def meaning(entry: dict) -> tuple[tuple[str, ...], str]:
    """The decision kinds a standing order answers and the order it answers them with."""
    text = entry["text"]
    if text in PHRASES:
        kinds, answer, _ = PHRASES[text]
        return kinds, answer
    return ELIMINATE, text


def in_force(entries: list[dict], turn: int) -> list[dict]:
    """The standing orders that still apply on turn: those for all turns and this turn's."""
    return [e for e in entries if e.get("turn") is None or e["turn"] == turn]


def add(entries: list[dict], entry: dict) -> list[dict]:
    """The set with one more standing order: it replaces one for the same decisions (an
    'eliminate' list keeps its order of preference, 5.4)."""
    kinds, _ = meaning(entry)
    if kinds == ELIMINATE:
        kept = [e for e in entries if e["text"] != entry["text"]]
    else:
        kept = [e for e in entries if meaning(e)[0] != kinds]
    return kept + [entry]


def withdraw(entries: list[dict], entry: dict) -> list[dict]:
    """The set without a standing order (same phrase, whatever its scope)."""
    return [e for e in entries if e["text"] != entry["text"]]


def answer(ctx: Ctx, kind: str, side: str) -> None:
    """Answer the decision just made pending with side's first legal standing answer, as often
    as the same decision is asked again (several forced eliminations, 5.4); not once the answer
    has ended a step of play (flow goes on from there)."""
    spec = DECISIONS[kind]
    for _ in range(16):
        entries = in_force(ctx.standing.get(side, []), ctx.state.turn)
        p = ctx.state.pending
        if not entries or p is None or p.kind != kind or p.side != side \
                or ctx.state.phase == "over" or ctx.finished is not None:
            return
        for entry in entries:
            kinds, text = meaning(entry)
            if kind not in kinds:
                continue
            if text == "lose":
                text = _only_unit_loss(ctx, side)
                if text is None:
                    continue
            order = parse_order(text, ctx.data)
            if order.kind in spec.accepts and spec.check(ctx.state, ctx.data, order,
                                                         side) is None:
                ctx.emit(StandingApplied(side=side, kind=kind, standing=entry["text"],
                                         turn=entry.get("turn")))
                spec.apply(ctx, order, side)
                break
        else:
            return


def _only_unit_loss(ctx: Ctx, side: str) -> str | None:
    """The one unit 5.3.1 lets side lose for the next hit, or None when he has a choice."""
    choices = loss_choices(ctx.state, ctx.data, side)
    return f"lose {choices[0]}" if len(choices) == 1 else None


def applied(events: list) -> dict[str, list[dict]]:
    """The standing orders a record's events say were applied, by side, in order (verify
    re-decides the record with exactly these)."""
    out: dict[str, list[dict]] = {}
    for e in events:
        if e.type == "StandingApplied":
            entry = {"text": e.standing, "turn": e.turn}
            if entry not in out.setdefault(e.side, []):
                out[e.side].append(entry)
    return out
