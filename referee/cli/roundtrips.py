"""`make roundtrips`: how much mail a seasonal turn costs, on a fixed two-season 1914 opening.

Each decision a player is asked for costs a day of email; each hand-off (the
sides the referee waits on change so that a side is newly waited on) costs a
mail out and a reply back. This plays SUMMER and AUTUMN 1914 with a fixed
policy and prints, per seasonal turn, the decisions asked and the hand-offs.

The play is the same whatever decisions the referee skips or merges: every
choice is keyed on the position, never on a draw (substantive choices are
fixed: a short list of moves, the first legal placement, loss or retreat;
every optional decision is declined), and the dice and the deck come from
one stream in rolling order rather than one stream per record, so a skipped
decision does not shift a single die.

A second run gives both sides a typical set of standing orders (TYPICAL: no
cavalry retreat, no retreat after combat, no combat cards, stand and fight,
pay hits with units) --
answers the policy gives anyway, so the play is the same -- and is reported
separately.

    python -m referee.cli.roundtrips [--verbose]
"""

from __future__ import annotations

import argparse
import random
from collections import Counter

from ..contracts.events_turn import DecisionPending
from ..data.catalog import game_data
from ..engine import decide, decide_plan, legal_orders, sealed_for, waiting_on
from ..engine.core import Ctx
from ..engine.flow import setup_record
from ..engine.order_text import format_order
from ..engine.reading import parse_order
from ..engine.setup import initial_state
from ..store.dice import Dice

TURNS = (1, 2)                  # SUMMER and AUTUMN 1914
SECRET = bytes.fromhex("5e" * 32)
MOVES = {                       # tried in this order each movement phase, while legal
    "german": ["move ge-1 liege", "move ge-4:cavalry ardennes", "move ge-2 liege",
               "move ge-3 ardennes", "move ge-5 longwy", "move ge-6 nancy"],
    "entente": ["move fr-5 ardennes", "move fr-2 morhange", "move fr-1 colmar",
                "move fr-3 longwy"],
}
DECLINE = {"cavalry_retreat", "defence", "reaction", "retreat_after", "declare_battles",
           "attacker_cards", "defender_cards", "production"}
MOVES_PER_PHASE = 6
# A typical set of standing orders, the same for both sides (engine/standing.py).
TYPICAL = [{"text": t, "turn": None} for t in ("no cavalry retreat", "no retreat after combat",
                                               "no combat cards", "stand and fight",
                                               "pay hits with units")]


class StreamDice(Dice):
    """Dice and deck draws from one stream in the order they are rolled (not per record)."""

    def __init__(self, rng: random.Random, record: int):
        super().__init__("roundtrips", record, SECRET)
        self.rng = rng

    def _roll(self, count: int, purpose: str) -> list[int]:
        return [self.rng.randint(1, 6) for _ in range(count)]

    def draw(self, m: int) -> int:
        """A uniform integer below m from the one stream."""
        self.index += 1
        return self.rng.randrange(m)


def choose(state, data, side: str, moved: list[str]) -> str:
    """The fixed policy's order for side now (keyed on the position only)."""
    kind = state.pending.kind
    legal = [format_order(o) for o in legal_orders(state, data, side) if o.kind != "armistice"]
    if kind in DECLINE and "done" in legal:
        return "done"
    if kind == "card_or_pass":
        plays = [o for o in legal if o.startswith("play ") and not o.endswith("crisis")]
        return plays[0] if plays else "pass"
    if kind == "movement":
        for m in MOVES[side]:
            if m in legal and m not in moved and len(moved) < MOVES_PER_PHASE:
                return m
        return "end movement"
    if kind == "pass_move":
        return "end turn"
    if kind == "reinforce":
        place = [o for o in legal if o.startswith(("place ", "swap "))]
        return place[0] if place else "done"
    return legal[0]


def play(verbose: bool = False, standing: bool = False) -> dict[int, dict[str, int]]:
    """Play the opening; per seasonal turn: decisions asked, hand-offs, orders, bare 'done's,
    and the floor (with standing: both sides hold the TYPICAL standing orders)."""
    sets = {"german": TYPICAL, "entente": TYPICAL} if standing else None
    data = game_data()
    sc = data.scenarios["1914"]
    rng = random.Random(1914)
    state = initial_state(data, sc, "roundtrips", data.option_defaults())
    ctx = Ctx(state, data, StreamDice(rng, 1))
    setup_record(ctx, sc)
    state = ctx.state
    figures: dict[int, Counter] = {t: Counter() for t in TURNS}
    waited = set(waiting_on(state))
    figures[state.turn]["decisions"] += len(waited)
    figures[state.turn]["hand-offs"] += len(waited)
    moved: list[str] = []
    trace: list[tuple[int, frozenset]] = []
    seq = 1
    while state.phase != "over" and state.turn in TURNS:
        turn = state.turn
        side = waiting_on(state)[0]
        before = (state.pending.kind, state.pending.side)
        text = choose(state, data, side, moved)
        if text != "done" or sealed_for(state, side):
            trace.append((turn, frozenset(waiting_on(state))))
        order = parse_order(text, data)
        seq += 1
        dice = StreamDice(rng, seq)
        if sealed_for(state, side):
            events, state = decide_plan(state, data, [(text, order)], side, dice)
        else:
            events, state = decide(state, data, order, side, dice, text, standing=sets)
        moved = moved + [text] if before[0] == "movement" and text.startswith("move") else []
        figures[turn]["orders"] += 1
        figures[turn]["bare done"] += text == "done"
        if verbose:
            print(f"  {data.label(turn)} {side} [{before[0]}]: {text}")
        asked = any(isinstance(e, DecisionPending) for e in events)
        new_decisions, new, waited = tally(before, state, asked, waited)
        if state.turn in figures:
            figures[state.turn]["decisions"] += new_decisions
            figures[state.turn]["hand-offs"] += new
    for turn, count in floor(trace).items():
        figures[turn]["floor"] = count
    return {t: dict(c) for t, c in figures.items()}


def tally(before: tuple[str, str] | None, state, asked: bool, waited: set[str]
          ) -> tuple[int, int, set[str]]:
    """(decisions newly asked, hand-offs, sides waited on now) after one order or record:
    before is the decision (kind, side) it answered, asked whether it asked one."""
    now = set(waiting_on(state))
    new = len(now - waited)
    # The same sealed decision passing to a side already asked for it (7.0, 2.0 I,
    # 2.0 V.3) is not a new decision.
    same = state.pending is not None and before is not None and \
        state.pending.kind == before[0] and sealed_for(state, state.pending.side) and \
        state.pending.side in waited
    if asked and state.pending is not None and \
            (state.pending.kind, state.pending.side) != before and not same:
        return len(now), new, now
    return new, new, now


def journal_figures(journal, games_dir=None) -> dict[int, dict[str, int]]:
    """Per seasonal turn of a game played (a journal): decisions asked and hand-offs,
    counted as `play` counts them, from the state after the set-up record on. Answering
    one decision per mail costs a mail per decision; answering all a side may answer at
    once costs one per hand-off or more (a die ends a mail)."""
    from ..game.replay import Era, open_game  # start-up: only this count replays a journal

    whole = open_game(journal, games_dir=games_dir)
    game = open_game(journal, upto=1, games_dir=games_dir)
    state = game.state
    era = Era(whole.records[0], game.data, games_dir, "journal", game.rules)
    figures: dict[int, Counter] = {}
    waited = set(waiting_on(state))
    figures[state.turn] = Counter({"decisions": len(waited), "hand-offs": len(waited)})
    for rec in whole.records[2:]:
        p = state.pending
        before = None if p is None else (p.kind, p.side)
        era.apply(state, rec)
        asked = any(e.get("type") == "DecisionPending" for e in rec.get("events", []))
        decisions, new, waited = tally(before, state, asked, waited)
        turn = figures.setdefault(state.turn, Counter())
        turn["decisions"] += decisions
        turn["hand-offs"] += new
    return {t: dict(c) for t, c in figures.items()}


def floor(trace: list[tuple[int, frozenset]]) -> Counter:
    """Hand-offs per seasonal turn if every decision answered by a bare 'done' were never
    asked (an oracle no referee can be, since most of those answers are choices): what the
    other answers alone cost, in the order the rules put them (5.2, 5.3, 5.4.2)."""
    out: Counter = Counter()
    before: frozenset = frozenset()
    for turn, waited in trace:
        out[turn] += len(waited - before)
        before = waited
    return out


def main(argv: list[str] | None = None) -> None:
    """Print decisions asked and hand-offs per seasonal turn of the fixed opening."""
    ap = argparse.ArgumentParser(prog="python -m referee.cli.roundtrips", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--verbose", action="store_true", help="print every order")
    args = ap.parse_args(argv)
    data = game_data()
    for standing in (False, True):
        figures = play(args.verbose, standing)
        print("with a typical set of standing orders (" + ", ".join(
            e["text"] for e in TYPICAL) + ")" if standing else "with no standing orders")
        print(f"{'seasonal turn':<14} {'decisions':>9} {'hand-offs':>9} {'orders':>7} "
              f"{'bare done':>9} {'floor':>5}")
        total = Counter()
        for t, f in figures.items():
            total.update(f)
            print(f"{data.label(t):<14} {f.get('decisions', 0):>9} {f.get('hand-offs', 0):>9} "
                  f"{f.get('orders', 0):>7} {f.get('bare done', 0):>9} {f.get('floor', 0):>5}")
        print(f"{'total':<14} {total['decisions']:>9} {total['hand-offs']:>9} "
              f"{total['orders']:>7} {total['bare done']:>9} {total['floor']:>5}")
        if not standing:
            print()


if __name__ == "__main__":
    main()
