"""What legal_orders works out at a busy position, and what it must keep giving.

Three movement phases of the stored games (tests/replays): the 1914 opening, a 1916
mid-game Offensive and a 1918 one with many units. The orders listed there, in their order,
are pinned (random play picks among them by position, so the order is part of the answer);
the work behind them is done once per position: each counter's path walked once (4.1, 4.2,
9.1.2, 1.2.2), each army's contents held against its template once (1.4, 8.1-8.3).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import sys
from collections import Counter
from pathlib import Path

import pytest

import referee.engine.armies as armies
from referee.engine import legal_orders
from referee.engine.core import DECISIONS
from referee.engine.movement import resolve
from referee.engine.order_text import format_order
from referee.game.replay import Era, data_for, start_state

HERE = Path(__file__).parent / "replays"

# (game, record, the side asked): its count of legal orders and the start of the SHA-256 of
# their texts, one a line, as the referee gave them before the work was kept.
PINNED = {
    ("ttlm-1914-seed7", 2, "german"): (363, "0eedc27e1f335712"),
    ("ttlm-1916-seed8", 1040, "german"): (1483, "d38d06a960922e76"),
    ("ttlm-1918-seed9", 837, "entente"): (301, "6d64cc1213ff84d1"),
}


def _position(game: str, upto: int):
    """The state after record `upto` of a stored game, and its game data."""
    name = f"{game}.jsonl"
    records = [json.loads(line) for line in
               gzip.decompress((HERE / f"{name}.gz").read_bytes()).splitlines()]
    data = data_for(records[0], name, None)
    state = start_state(records[0], data, name)
    era = Era(records[0], data, None, name)
    for rec in records[1:upto + 1]:
        era.apply(state, rec)
    return state, era.data


@pytest.fixture(scope="module", params=sorted(PINNED), ids=lambda k: f"{k[0]}-{k[1]}")
def busy(request):
    game, upto, side = request.param
    state, data = _position(game, upto)
    assert state.pending.kind == "movement" and state.pending.side == side
    return request.param, state, data


def test_the_legal_orders_of_a_busy_position_stay_the_same_in_the_same_order(busy):
    key, state, data = busy
    texts = [format_order(o) for o in legal_orders(state.clone(), data, key[2])]
    digest = hashlib.sha256("\n".join(texts).encode()).hexdigest()[:16]
    assert (len(texts), digest) == PINNED[key]


def test_asked_again_at_the_same_position_the_answer_is_the_same(busy):
    """What is kept from the first call (until the next event) gives the same orders."""
    key, state, data = busy
    state = state.clone()
    first = legal_orders(state, data, key[2])
    legal_orders(state, data, "german" if key[2] != "german" else "entente")
    assert legal_orders(state, data, key[2]) == first


def test_each_army_contents_is_held_against_its_template_once(busy, monkeypatch):
    """Many moves end with the same army holding the same units (a unit joining it along
    each path there, an army taking in units of the same kinds): checked once (1.4, 8.1)."""
    key, state, data = busy
    asked, worked = set(), []
    real_check, real_limits = armies.template_violation, armies.army_limits_problems

    def check(s, d, army, contents):
        asked.add((army.id, tuple((k, n) for k, n in contents.items() if n)))
        return real_check(s, d, army, contents)

    def limits(*args, **kw):
        worked.append(args)
        return real_limits(*args, **kw)

    for module in list(sys.modules.values()):       # every module that calls it by name
        if getattr(module, "template_violation", None) is real_check:
            monkeypatch.setattr(module, "template_violation", check)
    monkeypatch.setattr(armies, "army_limits_problems", limits)
    legal_orders(state.clone(), data, key[2])
    assert asked and len(worked) == len(asked), (len(worked), len(asked))


def test_each_path_is_walked_once_and_no_move_goes_along_one_that_cannot_be(busy,
                                                                            monkeypatch):
    """A move alone, into an army or taking units in along the same path walks it once; a
    path its counter may not walk gives no move to check at all (4.1, 4.2, 9.1.2, 1.2.2)."""
    import referee.engine.path_walk as path_walk  # the module is the change this pins

    key, state, data = busy
    walked: Counter = Counter()
    real = path_walk._walk

    def counted(s, d, m, path):
        walked[(m.ref, tuple(path))] += 1
        return real(s, d, m, path)

    monkeypatch.setattr(path_walk, "_walk", counted)
    state = state.clone()
    candidates = [o for o in DECISIONS["movement"].candidates(state, data, key[2])
                  if o.kind == "move"]
    assert walked and max(walked.values()) == 1, walked.most_common(3)
    fresh = state.clone()
    assert all(real(fresh, data, resolve(fresh, data, o.unit, key[2]), o.path) is None
               for o in candidates)
