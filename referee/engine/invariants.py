"""What must hold after every record of any game (the random-play soak checks these).

Units are conserved against the counter mix (11.1); the 55 cards are all
somewhere (1.3); no area is over the stacking limit (1.2.2); no army holds
more than its template, its year's artillery or one Biplane (1.4, 8.3).
"""

from __future__ import annotations

from collections import Counter

from ..data.datacheck import army_limits_problems
from ..data.gamedata import GameData
from .state import State


def problems(state: State, data: GameData) -> list[str]:
    """Every broken invariant, as lines (empty when all hold)."""
    out: list[str] = []
    in_play = state.counters_in_play()
    for nation, row in data.units.mix.items():
        for kind, n in row.items():
            if kind == "army":
                have = sum(1 for a in state.armies.values() if a.nation == nation)
                if have > n:
                    out.append(f"{have} {nation} army counters in the game, the mix has {n}")
                continue
            if kind == "fort":
                removed = sum(1 for f in state.removed_forts if data.forts[f][1].nation == nation)
                if in_play[(nation, kind)] + removed != n:
                    out.append(f"{nation} forts: {in_play[(nation, kind)]} in play + {removed} "
                               f"removed != {n}")
                continue
            pool = state.pool.get(nation, {}).get(kind, 0)
            if pool < 0:
                out.append(f"{nation} {kind}: force pool below zero ({pool})")
            if in_play[(nation, kind)] + pool != n:
                out.append(f"{nation} {kind}: {in_play[(nation, kind)]} in play + {pool} in the "
                           f"pool != {n} in the counter mix (11.1)")
    cards = state.draw_pile + state.discard + state.removed_cards + \
        [c for h in state.hands.values() for c in h]
    if len(cards) != data.deck.total or Counter(cards) != Counter(data.card_order):
        out.append(f"cards: {len(cards)} found in draw pile, discard, hands and removed, "
                   f"{data.deck.total} expected once each (1.3)")
    for area in data.areas:
        for side in data.sides:
            n = state.stack_count(area, side, data)
            if n > data.units.stacking_limit:
                out.append(f"{area}: {n} {side} units over the stacking limit (1.2.2)")
    year = data.year(state.turn)
    for a in state.armies.values():
        if a.status in ("map", "eft"):
            c = Counter({tuple(k.split(":")): n for k, n in a.contents.items() if n})
            for p in army_limits_problems(data, a.nation, c, year):
                out.append(f"army {a.id}: {p}")
    return out
