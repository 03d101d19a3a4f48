"""Non-interference: what a reader is told must not depend on what he may not see.

A position is varied in one thing its reader may not see, and everything the referee tells
him of the position is made again from the variant: the two must be byte-identical. The
variants, each keeping what the rules make public:
  hand      another side's hand (1.3), each card swapped with one of the draw pile (whose
            order is secret too): the hand keeps its size;
  plan      another side's sealed plan in progress (7.0, 2.0 I, 2.0 V.3), not yet closed,
            replaced by one order he could have sealed instead: that a plan was begun, and
            whether it is closed, are public; what it holds is not;
  template  under hidden army templates (1.4), outside battles: the contents of two armies
            of another side's nation swapped (the strength of either is hidden too).
For the public reader every side is another side.

What is told, for one reader (tell): `report`, `status` and `show`, each as text and as
JSON, and the mail he would get (a side's report mail, the public's observer mail). The
position is put in as "the game now" of the game's Table, in place of the one its journal
replays to; the report and the mail start from it (since its record: a report replays the
records after `since` from the position there, which would not be the one given), so they
tell the position now, the same records for both. Kept views are neither read nor kept, so
each output is made from the position given.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

from referee.base.readers import PUBLIC
from referee.cli import commands
from referee.engine import completes_plan, legal_orders, sealed_sides
from referee.engine.armies import hidden_templates
from referee.engine.core import DECISIONS
from referee.engine.order_text import format_order
from referee.engine.state import State
from referee.table import Table
from referee.table.campaign import CAMPAIGN, CampaignKind

SIDES = ("german", "entente")
READERS = (*SIDES, PUBLIC)
# The formats each output is made in.
FORMATS = ("text", "json")
# The most variants of one kind made of one position for one reader.
MOST = 4
# Orders a plan is never varied with: the closing answer and the answers at any time.
_NOT_PLANNED = ("done", "armistice", "play")


def others(reader: str) -> list[str]:
    """The sides whose secrets reader may not see."""
    return [s for s in SIDES if s != reader]


def _book(state: State) -> dict | None:
    p = state.pending
    sealed = DECISIONS[p.kind].extra.get("sealed") if p is not None else None
    return sealed.book(state) if sealed is not None else None


# ---------------------------------------------------------------- the variants

def hand_variants(state: State, data, reader: str, rng: random.Random) -> list[State]:
    """Another side's hand, each card swapped with a card of the draw pile."""
    out = []
    for side in others(reader):
        hand = state.hands.get(side) or []
        if not hand or len(state.draw_pile) < len(hand):
            continue
        v = state.clone()
        picked = rng.sample(range(len(v.draw_pile)), len(hand))
        mine = v.hands[side]
        for i, j in enumerate(picked):
            mine[i], v.draw_pile[j] = v.draw_pile[j], mine[i]
        out.append(v)
    return out


def plan_variants(state: State, data, reader: str) -> list[State]:
    """Another side's begun, unclosed sealed plan, replaced by one other order he could have
    sealed first (one that leaves the plan open)."""
    book = _book(state)
    if book is None or state.phase == "over":
        return []
    out = []
    for side in others(reader):
        begun = list(book["plans"].get(side) or [])
        if not begun or side in book["done"]:
            continue
        fresh = state.clone()
        _book(fresh)["plans"][side] = []
        for order in by_kind(legal_orders(fresh, data, side)):
            text = format_order(order)
            if [text] == begun or completes_plan(fresh, data, side, [order]):
                continue
            v = state.clone()
            _book(v)["plans"][side] = [text]
            out.append(v)
            if len(out) >= MOST:
                break
    return out


def by_kind(orders: list) -> list:
    """The orders a plan may begin with, the first of each kind (buy, build, a move...)
    first, then the rest."""
    fit = [o for o in orders if o.kind not in _NOT_PLANNED]
    firsts = list({o.kind: o for o in reversed(fit)}.values())[::-1]
    return firsts + [o for o in fit if o not in firsts]


def template_variants(state: State, data, reader: str) -> list[State]:
    """Under hidden templates, outside battles: two armies of another side's nation (on the
    map or in a box) with their contents swapped."""
    if not hidden_templates(state) or state.battle is not None or state.combat is not None:
        return []
    out = []
    for side in others(reader):
        armies = [a for a in state.armies.values() if a.status in ("map", "eft") and
                  a.contents and data.nation_side[a.nation] == side]
        for i, a in enumerate(armies):
            b = next((b for b in armies[i + 1:] if b.nation == a.nation and
                      b.contents != a.contents), None)
            if b is None:
                continue
            v = state.clone()
            v.armies[a.id].contents, v.armies[b.id].contents = \
                dict(b.contents), dict(a.contents)
            out.append(v)
            if len(out) >= MOST:
                return out
    return out


def variants(state: State, data, reader: str, seed: int) -> dict[str, list[State]]:
    """Every variant of the position hidden from reader, by kind."""
    rng = random.Random(f"{seed}/{state.seq}/{reader}")
    return {"hand": hand_variants(state, data, reader, rng),
            "plan": plan_variants(state, data, reader),
            "template": template_variants(state, data, reader)}


# ---------------------------------------------------------------- what a reader is told

# The game a journal's bytes replay to, by its path and bytes: every output of a position
# and its variants is made from the same journal, whose replay is then the same game (the
# state put in apart), replayed once.
_REPLAYED: dict[tuple[str, bytes], object] = {}


@contextmanager
def now_is(state: State):
    """Every Table of the game replays to `state` as the game now (its records unchanged),
    and no kept view is read or kept."""
    replayed = CampaignKind._replayed

    def given(table, upto, check):
        if upto is not None:
            return replayed(table, upto, check)
        key = (str(table.path), bytes(table.raw))
        if key not in _REPLAYED:
            _REPLAYED.clear()
            _REPLAYED[key] = replayed(table, upto, check)
        game = copy.copy(_REPLAYED[key])
        game.state = state.clone()
        return game

    with mock.patch.object(CampaignKind, "_replayed", staticmethod(given)), \
            mock.patch.object(Table, "kept_view", lambda *a, **k: None), \
            mock.patch.object(Table, "keep_view", lambda *a, **k: None):
        yield


def tell(journal: Path, state: State, reader: str) -> dict[str, str]:
    """Everything the referee tells reader of the game with `state` as its position now."""
    from referee.mail.observers import _public_text
    from referee.mail.refusal import report_body

    out: dict[str, str] = {}
    since = state.seq       # the report's position now is then the Table's game now
    with now_is(state):
        for fmt in FORMATS:
            out[f"report {fmt}"] = CAMPAIGN.report(Table(journal), reader, since, fmt,
                                                   remember=False)
            out[f"status {fmt}"] = commands.status(journal, reader, fmt)
            out[f"show {fmt}"] = commands.show(journal, reader, fmt)
        table = Table(journal)
        out["mail"] = _public_text(table, since, "report") if reader == PUBLIC else \
            report_body(table, reader, since, key="KEY")
    return out


def differences(journal: Path, state: State, data, reader: str, seed: int
                ) -> tuple[list[str], Counter]:
    """(what reader is told differently of a variant of the position than of the position
    itself, one line each; how many variants of each kind were tried)."""
    told = tell(journal, state, reader)
    found, tried = [], Counter()
    for kind, made in variants(state, data, reader, seed).items():
        for v in made:
            tried[kind] += 1
            for what, text in tell(journal, v, reader).items():
                if text != told[what]:
                    found.append(f"{kind} at record {state.seq} as {reader}: {what}: "
                                 f"{first_difference(told[what], text)}")
    return found, tried


def first_difference(a: str, b: str) -> str:
    """The first line where a and b differ, from each."""
    for x, y in zip(a.splitlines(), b.splitlines()):
        if x != y:
            return f"{x.strip()[:150]!r} / {y.strip()[:150]!r}"
    return f"{len(a)} / {len(b)} characters"


def sealed_count(state: State) -> int:
    """How many sides have a begun, unclosed plan in the sealed decision now."""
    book = _book(state)
    return 0 if book is None else sum(1 for s in sealed_sides(state)
                                      if book["plans"].get(s) and s not in book["done"])
