"""Supply (6.0-6.5) and its attrition in the production phase (2.0 V.1)."""

from __future__ import annotations

import gamecalls as g
from casebook import new_game, position
from referee.engine.supply import supplied_areas


def _state(tmp_path, name="s", **kw):
    sc = position("1914", **kw)
    j = new_game(tmp_path, sc, name=name)
    return j, g.open_game(j)


def test_a_unit_cut_off_by_an_enemy_held_area_is_out_of_supply(tmp_path, data):
    """Namur (German) touches Germany only through Liège: held by the Entente, it cuts the line."""
    units = ["ge-i-05 ge infantry namur", "fr-i-02 fr infantry paris"]
    _, cut = _state(tmp_path, "cut", player="german", units=units,
                    hands={"german": [], "entente": []},
                    control={"namur": "german", "liege": "entente"}, forts={"fort-namur": "out"})
    assert "namur" not in supplied_areas(cut.state, data, "german")
    _, open_ = _state(tmp_path, "open", player="german", units=units,
                      hands={"german": [], "entente": []},
                      control={"namur": "german", "liege": "german"},
                      forts={"fort-namur": "out", "fort-liege": "out"})
    assert "namur" in supplied_areas(open_.state, data, "german")


def test_no_supply_through_an_area_holding_an_enemy_fort_of_strength_one(tmp_path, data):
    """8.4 note: Briey is German but keeps the Longwy 1 fort; supply cannot pass through it."""
    base = dict(player="german", hands={"german": [], "entente": []},
                units=["ge-i-05 ge infantry sedan", "fr-i-02 fr infantry paris"],
                control={"sedan": "german", "briey": "german"})
    _, blocked = _state(tmp_path, "blocked", forts={"fort-sedan": "out"}, **base)
    assert "briey" in supplied_areas(blocked.state, data, "german")     # a unit in it traces out
    assert "sedan" not in supplied_areas(blocked.state, data, "german")
    _, clear = _state(tmp_path, "clear", forts={"fort-sedan": "out", "fort-longwy": "out"},
                      **base)
    assert "sedan" in supplied_areas(clear.state, data, "german")


def test_a_one_strength_fort_in_an_area_its_enemy_holds_traces_from_its_own_area(tmp_path,
                                                                                  data):
    """8.4 note, 6.2 as docs/rules.md reads it: Longwy 1 stays in German Briey; like a unit in
    a Disputed area it traces from its own area into adjacent Friendly areas (Verdun), so it
    is in supply, and out of it once every neighbour of Briey is German."""
    base = dict(player="german", hands={"german": [], "entente": []},
                units=["ge-i-05 ge infantry briey", "fr-i-02 fr infantry paris"],
                forts={"fort-sedan": "out"})
    _, open_ = _state(tmp_path, "open", control={"briey": "german"}, **base)
    assert "briey" in supplied_areas(open_.state, data, "entente")
    cut = {a: "german" for a in ("briey", "ardennes", "st_mihiel", "verdun", "sedan")}
    _, shut = _state(tmp_path, "shut", control=cut, forts={"fort-sedan": "out",
                                                           "fort-verdun": "out"},
                     **{k: v for k, v in base.items() if k != "forts"})
    assert "briey" not in supplied_areas(shut.state, data, "entente")


def test_a_disputed_supply_source_supplies_only_its_own_area(tmp_path, data):
    """6.3: Ostend is Disputed; the French in Ostend are supplied, those in Ypres are not."""
    _, game = _state(tmp_path, player="german", hands={"german": [], "entente": []},
                     control={a: "german" for a in ("ghent", "mons", "lille", "dunkirk")},
                     forts={"fort-dunkirk": "out"},
                     units=["fr-i-02 fr infantry ostend", "fr-i-03 fr infantry ypres",
                            "ge-i-05 ge infantry ostend", "ge-i-01 ge infantry metz"])
    ok = supplied_areas(game.state, data, "entente")
    assert "ostend" in ok and "ypres" not in ok


def test_attrition_in_the_production_phase(tmp_path):
    """6.5: out of supply, a fort loses a step (a 1-strength fort goes), a lone unit goes,
    an army of one unit goes, a larger army loses a unit of its owner's choice."""
    sc = position("1914", player="entente", passes=1,
                  hands={"german": [], "entente": ["ers2-01", "off-03"]},
                  control={"ghent": "german", "brussels": "german", "liege": "german",
                           "namur": "german", "mons": "german", "ardennes": "german",
                           "sedan": "german", "maubeuge": "german"},
                  forts={"fort-liege": 1, "fort-namur": "out", "fort-maubeuge": "out",
                         "fort-sedan": "out"},
                  units=["be-1 be army antwerp 2I", "fr-3 fr army liege 2I+1C",
                         "fr-4 fr army namur 1I", "fr-i-03 fr infantry brussels",
                         "ge-i-05 ge infantry liege", "ge-i-06 ge infantry namur",
                         "ge-i-07 ge infantry brussels", "ge-i-01 ge infantry metz",
                         "fr-i-02 fr infantry paris"])
    j = new_game(tmp_path, sc)
    r = g.submit(j, "entente", ["pass", "end turn"])
    assert r.rejected is None
    st = g.open_game(j).state
    events = [e for a in r.applied for e in a.record["events"]]
    oos = next(e for e in events if e["type"] == "OutOfSupply" and e["side"] == "entente")
    assert set(oos["units"]) == {"be-1", "fr-3", "fr-4", "fr-i-03", "fort-antwerp",
                                 "fort-liege"}
    assert st.forts["fort-antwerp"].strength == 2                # 3 - 1
    assert "fort-liege" not in st.forts                          # at 1: eliminated
    assert "fr-i-03" not in st.pieces                            # a lone unit goes
    assert st.armies["fr-4"].status == "eliminated"              # an army of one unit goes
    # be-1 holds 2 infantry: one kind only, no choice, the referee takes one.
    assert st.armies["be-1"].contents == {"be:infantry": 1}
    # fr-3 holds infantry and cavalry: the Entente chooses.
    assert st.pending.kind == "attrition" and st.pending.side == "entente"
    r = g.submit(j, "entente", ["lose fr-3:cavalry"])
    assert r.rejected is None
    st = g.open_game(j).state
    assert st.armies["fr-3"].contents == {"fr:infantry": 2}
    assert st.pending.kind == "production"


def test_the_attrition_prompt_says_your_choice_to_its_owner_alone(tmp_path, data):
    """6.5: the owning player chooses the unit an unsupplied army loses. The prompt names him
    to every other reader (the opponent's and the public's mails say 'Waiting on the Entente
    player: ...'), and says 'your choice' to him alone."""
    from referee.engine import pending_prompt
    sc = position("1914", player="entente", passes=1,
                  hands={"german": [], "entente": ["ers2-01", "off-03"]},
                  control={a: "german" for a in ("ghent", "brussels", "liege", "namur", "mons",
                                                 "ardennes", "sedan", "maubeuge")},
                  forts={"fort-liege": "out", "fort-namur": "out", "fort-maubeuge": "out",
                         "fort-sedan": "out"},
                  units=["fr-3 fr army liege 2I+1C", "ge-i-05 ge infantry liege",
                         "ge-i-06 ge infantry namur", "ge-i-01 ge infantry metz",
                         "fr-i-02 fr infantry paris"])
    j = new_game(tmp_path, sc)
    assert g.submit(j, "entente", ["pass", "end turn"]).rejected is None
    st = g.open_game(j).state
    assert st.pending.kind == "attrition" and st.pending.side == "entente"
    assert "of your choice (fr-3)" in pending_prompt(st, data, "entente")
    for reader in ("german", "public", None):
        said = pending_prompt(st, data, reader)
        assert "your" not in said and "of the Entente player's choice (fr-3)" in said, said
