"""Phase I, reinforcements (2.0 I, 8.2.2, 8.2.3, 11.1)."""

from __future__ import annotations

import gamecalls as g
from casebook import new_game, position
from referee.engine import pending_prompt
from referee.engine.core import Ctx
from referee.engine.reinforce import arrivals
from referee.store.dice import Dice


def _to_turn_2(tmp_path, german_orders=("done",), name="r"):
    """SUMMER 1914 ends by two passes and a quiet production: AUTUMN 1914's arrivals come."""
    sc = position("1914", player="entente", passes=1,
                  hands={"german": ["off-01"], "entente": ["off-03"]})
    j = new_game(tmp_path, sc, name=name)
    assert g.submit(j, "entente", ["pass", "end turn"]).rejected is None
    assert g.submit(j, "german", list(german_orders)).rejected is None
    assert g.submit(j, "entente", ["done"]).rejected is None
    return j


ENTENTE_AUTUMN_1914 = ["place uk infantry england", "place fr-6 paris", "place fr-9 troyes",
                      "place fr infantry troyes into fr-9", "place fr infantry paris"]


def _rule(r):
    assert r.rejected is not None, "accepted"
    return r.rejected[2].rule


def test_autumn_1914_arrivals_are_placed_by_their_owners(tmp_path):
    j = _to_turn_2(tmp_path)
    st = g.open_game(j).state
    assert st.turn == 2 and st.pending.kind == "reinforce" and st.pending.side == "german"
    assert [i["unit"] for i in st.arrivals["german"]] == ["ge:infantry"] * 3
    assert _rule(g.submit(j, "german", ["place ge infantry nancy"])) == "2.0 I"  # Enemy area
    assert g.submit(j, "german", ["place ge infantry metz", "place ge infantry koblenz",
                                  "place ge infantry colmar into ge-7"]).rejected is None
    st = g.open_game(j).state
    # 2.0 I: both players place; the German plan stays sealed until the Entente's is in.
    assert st.pending.side == "entente" and st.armies["ge-7"].contents["ge:infantry"] == 2
    assert _rule(g.submit(j, "entente", ["place uk infantry calais"])) == "Game Events chart"
    assert _rule(g.submit(j, "entente", ["done"])) == "2.0 I"       # must place while it can
    assert g.submit(j, "entente", ["place uk infantry england", "place fr-6 paris",
                                   "place fr-9 troyes", "place fr infantry troyes into fr-9",
                                   "place fr infantry paris"]).rejected is None
    st = g.open_game(j).state
    assert st.armies["ge-7"].contents["ge:infantry"] == 3
    assert st.armies["fr-6"].status == "map" and st.armies["fr-6"].contents == {}
    assert st.armies["fr-9"].contents == {"fr:infantry": 1}
    assert st.pending.kind == "card_or_pass" and st.pending.side == "german"


def test_a_misplaced_arrival_cites_where_its_arrival_area_comes_from(tmp_path):
    """The UK infantry of AUTUMN 1914 arrives in ENGLAND because the Game Events chart, which is
    reconstructed (events.yaml `placement: england`), puts it there; 4.6 sends UK armies
    there (the Second Army, WINTER 1914-15), 2.0 I the others anywhere supplied."""
    j = _to_turn_2(tmp_path)
    assert g.submit(j, "german", ["place ge infantry metz", "place ge infantry koblenz",
                                  "place ge infantry colmar into ge-7"]).rejected is None
    why = g.submit(j, "entente", ["place uk infantry calais"]).rejected[2]
    assert why.rule == "Game Events chart" and str(why).endswith(
        "uk infantry arrives in ENGLAND (reconstructed); Calais is not ENGLAND (rule Game "
        "Events chart)")
    why = g.submit(j, "entente", ["place fr infantry metz"]).rejected[2]
    assert why.rule == "2.0 I" and "(4.6)" not in str(why)
    assert g.submit(j, "entente", ENTENTE_AUTUMN_1914).rejected is None
    for side in ("german", "entente"):
        assert g.submit(j, side, ["pass", "end turn"]).rejected is None
    st = g.open_game(j).state
    assert st.turn == 2 and st.pending.kind == "production", st.pending
    assert g.submit(j, "german", ["done"]).rejected is None
    assert g.submit(j, "entente", ["done"]).rejected is None
    st = g.open_game(j).state
    assert st.turn == 3 and any(i["unit"] == "uk-2" for i in st.arrivals["entente"])
    assert g.submit(j, "german", ["place ge infantry metz"]).rejected is None
    why = g.submit(j, "entente", ["place uk-2 calais"]).rejected[2]
    assert why.rule == "4.6" and str(why).endswith(
        "uk-2 arrives in ENGLAND (4.6); Calais is not ENGLAND")


def test_the_prompt_counts_the_units_of_one_kind_as_the_orders_name_them(tmp_path):
    """A prompt a player reads on a phone: three arriving German infantry are '3 ge
    infantry', not the same words three times; each side's as its place orders name them."""
    game = g.open_game(_to_turn_2(tmp_path))
    asked = pending_prompt(game.state, game.data)
    assert "German places 3 ge infantry;" in asked, asked
    assert "Entente places fr-6, fr-9, 2 fr infantry, uk infantry in supplied" in asked, asked


def test_reinforcements_are_limited_by_the_counter_mix(tmp_path):
    """11.1: 10 German infantry built in SUMMER 1914 leave 1 in the pool; of the 3
    arriving in AUTUMN 1914 only 1 comes, the other 2 are lost."""
    builds = [f"build ge infantry {a}" for a in ("koblenz",) * 3 + ("trier",) * 3 +
              ("pfalz",) * 3 + ("mulhouse",)]
    j = _to_turn_2(tmp_path, builds + ["done"])
    st = g.open_game(j).state
    assert st.pool["ge"]["infantry"] == 1          # 35 - 24 set up - 10 built
    assert [i["unit"] for i in st.arrivals["german"]] == ["ge:infantry"]
    assert g.submit(j, "german", ["place ge infantry metz"]).rejected is None
    assert g.open_game(j).state.pool["ge"]["infantry"] == 1    # sealed until both are in
    assert g.submit(j, "entente", ENTENTE_AUTUMN_1914).rejected is None
    assert g.open_game(j).state.pool["ge"]["infantry"] == 0
    lost = [e for r in g.open_game(j).records for e in r.get("events", [])
            if e["type"] == "ReinforcementLost"]
    assert len(lost) == 2 and all("11.1" in e["reason"] for e in lost)


def test_1918_stosstruppen_are_replaced_by_infantry_when_short(data):
    """8.2.2: with 2 Stoßtruppen and 3 infantry in the pool, of SPRING 1918's 6 Stoßtruppen
    2 arrive, 3 come as infantry (the 2 arriving infantry of the chart come first) and the
    rest is lost."""
    from referee.engine.setup import initial_state
    st = initial_state(data, data.scenarios["1918"], "x", data.option_defaults())
    st.pool["ge"]["stosstruppen"] = 2
    st.pool["ge"]["infantry"] = 5
    ctx = Ctx(st, data, Dice("x", 1, bytes(32)))
    arrivals(ctx)
    units = [i["unit"] for i in ctx.state.arrivals["german"]]
    assert units.count("ge:stosstruppen") == 2
    assert units.count("ge:infantry") == 5          # 2 on the chart + 3 standing in
    assert sum(1 for e in ctx.events if e.type == "ReinforcementLost") == 1


def test_the_canadian_swap_in_autumn_1915(tmp_path):
    """8.2.3: in AUTUMN 1915 the Canadian unit takes the place of a UK infantry on the map."""
    sc = position("1914", turn=5, player="entente", passes=1,
                  hands={"german": ["off-01"], "entente": ["off-03"]},
                  remove_units=["uk-1"], add_units=["uk-1 uk army calais 2I"])
    j = new_game(tmp_path, sc)
    g.submit(j, "entente", ["pass", "end turn"])
    g.submit(j, "german", ["done"])
    g.submit(j, "entente", ["done"])
    st = g.open_game(j).state
    assert st.turn == 6 and st.pending.kind == "reinforce" and st.pending.side == "entente"
    assert _rule(g.submit(j, "entente", ["swap fr-1:infantry"])) == "8.2.3"
    assert g.submit(j, "entente", ["swap uk-1:infantry"]).rejected is None
    # 2.0 I: the plan (swap included) is applied once every arrival is placed.
    assert g.submit(j, "entente", ["place uk infantry england",
                                   "place uk cavalry england"]).rejected is None
    st = g.open_game(j).state
    assert st.armies["uk-1"].contents == {"uk:infantry": 1, "uk:commonwealth": 1}
    assert st.pool["uk"]["commonwealth"] == 1


def test_a_unit_placed_twice_in_one_sealed_plan_is_refused_as_placed_already(tmp_path):
    """2.0 I: fr-6 arrives this turn; once the Entente's own sealed plan has placed it, a
    second placement is refused for that, naming the order that placed it, not because
    nothing of that name arrives; the same for the last of units counted by kind."""
    j = _to_turn_2(tmp_path)
    assert g.submit(j, "entente", ["place fr-6 paris"]).rejected is None
    r = g.submit(j, "entente", ["place fr-6 troyes"])
    assert r.rejected is not None and r.rejected[2].rule == "2.0 I"
    said = str(r.rejected[2])
    assert "is arriving" not in said and "no fr-6" not in said, said
    assert "fr-6 arrives this turn, but your sealed plan places it already: " \
           "'place fr-6 paris' (order 1 of the plan)" in said, said
    assert g.submit(j, "entente", ["place fr infantry paris",
                                   "place fr infantry paris"]).rejected is None
    said = str(g.submit(j, "entente", ["place fr infantry troyes"]).rejected[2])
    assert "your sealed plan places all 2 already: 'place fr infantry paris' (order 2 of the " \
           "plan); 'place fr infantry paris' (order 3 of the plan)" in said, said


def test_an_arrival_no_area_can_take_is_told_before_the_plan_is_in(tmp_path):
    """2.0 I: arrivals go where a supplied Friendly or Disputed area is within the stacking
    limit. With ENGLAND full (three UK units standing alone, no army to join: 1.2.2 counts
    an army as one) AUTUMN 1914's UK infantry can go nowhere. The Entente's prompt says so
    while he may still make room, not only once his plan is in and the unit is lost."""
    sc = position("1914", player="entente", passes=1,
                  hands={"german": ["off-01"], "entente": ["off-03"]},
                  remove_units=["uk-1", "uk-i-01"],
                  add_units=[f"uk-i-{n} uk infantry england" for n in (11, 12, 13)])
    j = new_game(tmp_path, sc, name="full")
    assert g.submit(j, "entente", ["pass", "end turn"]).rejected is None
    assert g.submit(j, "german", ["done"]).rejected is None
    assert g.submit(j, "entente", ["done"]).rejected is None
    assert g.submit(j, "german", ["place ge infantry metz", "place ge infantry koblenz",
                                  "place ge infantry colmar into ge-7"]).rejected is None
    game = g.open_game(j)
    asked = pending_prompt(game.state, game.data, "entente")
    assert "no area can take uk infantry as the board stands" in asked, asked
    # No army there to move units into: no room to make, and it says so (8.1, 1.2.2).
    assert "no units moved into armies make room for it" in asked, asked
    assert "fr-6" not in asked.split("no area can take")[1], asked     # only the stuck one
    german = pending_prompt(game.state, game.data, "german")
    assert "no area can take" not in german, german     # nothing of his own to warn of


def test_an_arrival_with_room_is_not_warned_of(tmp_path):
    game = g.open_game(_to_turn_2(tmp_path))
    assert "no area can take" not in pending_prompt(game.state, game.data, "entente")
