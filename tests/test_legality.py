"""legal_orders is the single source of legality: what it lists is accepted, and any
order the rules accept is listed."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gamecalls as g
from casebook import new_game, position
from referee.contracts.orders import Move, Rail, Reserves, Sea, Strategic
from referee.engine import check, decide, legal_orders
from referee.engine.order_text import format_order
from referee.engine.reading import parse_order
from referee.store.dice import Dice


def _positions(tmp_path):
    out = {}
    sc = position("1914", player="german", hands={"german": ["off-01", "reserves-01"],
                                                   "entente": ["off-03"]})
    j = new_game(tmp_path, sc, name="offensive-1914")
    g.submit(j, "german", ["play offensive"])
    out["offensive-1914"] = j
    sc = position("1914", player="german", hands={"german": ["ers2-01", "reserves-01"],
                                                   "entente": ["off-03"]})
    j = new_game(tmp_path, sc, name="pass-1914")
    g.submit(j, "german", ["pass"])
    out["pass-1914"] = j
    sc = position("1916", player="entente", hands={"german": ["off-01"],
                                                    "entente": ["off-03", "reserves-02"]})
    j = new_game(tmp_path, sc, {"suppressing_armies": True, "hidden_templates": True},
                 name="entente-1916")
    g.submit(j, "entente", ["play offensive"])
    out["entente-1916"] = j
    sc = position("1918", player="german", hands={"german": ["loff-01"], "entente": ["off-03"]})
    j = new_game(tmp_path, sc, name="limited-1918")
    g.submit(j, "german", ["play limited_offensive", "move ge-18 noyon"])
    out["limited-1918"] = j
    return out


def _invariants(state, data):
    from collections import Counter

    from referee.data.datacheck import army_limits_problems
    for area in data.areas:
        for side in ("german", "entente"):
            assert state.stack_count(area, side, data) <= data.units.stacking_limit, (area, side)
    for a in state.armies.values():
        if a.status == "map":
            c = Counter({tuple(k.split(":")): n for k, n in a.contents.items()})
            assert not army_limits_problems(data, a.nation, c, data.year(state.turn)), a


def test_every_listed_order_is_accepted_and_keeps_the_invariants(tmp_path):
    for name, j in _positions(tmp_path).items():
        game = g.open_game(j)
        st, data = game.state, game.data
        side = st.pending.side
        orders = legal_orders(st, data, side)
        assert orders, name
        texts = [format_order(o) for o in orders]
        assert len(texts) == len(set(texts)), f"{name}: an order is listed twice"
        for o in orders:
            again = parse_order(format_order(o), data)
            assert again == o, (format_order(o), again)
            events, after = decide(st, data, o, side, Dice(game.game_id, 99, bytes(32)))
            _invariants(after, data)


def _random_order(data, state, draw):
    kind = draw(st.sampled_from(["move", "rail", "strategic", "sea", "reserves"]))
    refs = sorted(list(state.armies) + list(state.pieces) +
                  [f"{a.id}:{k.split(':')[1]}" for a in state.armies.values()
                   for k in a.contents])
    unit = draw(st.sampled_from(refs))
    areas = sorted(data.areas)
    if kind == "move":
        # Mostly walk from the unit's own area, so that many drawn orders are legal.
        here = _area_of(state, unit)
        path: list[str] = []
        for _ in range(draw(st.integers(0, 2))):
            near = sorted(data.neighbours.get(here, ())) if here in data.areas else []
            nxt = draw(st.sampled_from(near or areas) if draw(st.booleans()) or not near
                       else st.sampled_from(near))
            path.append(nxt)
            here = nxt
        armies = sorted(a.id for a in state.armies.values() if a.area == here) or \
            sorted(state.armies)
        into = draw(st.one_of(st.none(), st.sampled_from(armies)))
        return Move(unit=unit, path=tuple(path), into=into)
    cls = {"rail": Rail, "strategic": Strategic, "sea": Sea, "reserves": Reserves}[kind]
    return cls(unit=unit, to=draw(st.sampled_from(areas)))


def _area_of(state, ref):
    if ref in state.pieces:
        return state.pieces[ref].area
    army = state.armies.get(ref.split(":")[0])
    return army.area if army else None


@pytest.fixture(scope="module")
def positions(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("legality")
    out = {}
    for name, j in _positions(tmp).items():
        game = g.open_game(j)
        st_ = game.state
        listed = {format_order(o) for o in legal_orders(st_, game.data, st_.pending.side)}
        out[name] = (st_, game.data, listed)
    return out


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_order_the_rules_accept_is_listed(positions, data):
    name = data.draw(st.sampled_from(sorted(positions)))
    state, gd, listed = positions[name]
    order = _random_order(gd, state, data.draw)
    side = state.pending.side
    if check(state, gd, order, side) is None:
        assert format_order(order) in listed, (name, format_order(order))
    else:
        assert format_order(order) not in listed, (name, format_order(order))
