"""Fewer round trips by mail: a trailing 'done' that is not needed, decisions that cannot
matter, both sides at once where the rules allow it."""

from __future__ import annotations

import json

import gamecalls as g
from casebook import new_game, position


def _to_autumn_1914(tmp_path, name="r"):
    """SUMMER 1914 ends by two passes and a quiet production: AUTUMN 1914's arrivals come
    (2.0 I: three German infantry, then the Entente's)."""
    sc = position("1914", player="entente", passes=1,
                  hands={"german": ["off-01"], "entente": ["off-03"]})
    j = new_game(tmp_path, sc, name=name)
    assert g.submit(j, "entente", ["pass", "end turn"]).rejected is None
    assert g.submit(j, "german", ["done"]).rejected is None
    assert g.submit(j, "entente", ["done"]).rejected is None
    st = g.open_game(j).state
    assert st.pending.kind == "reinforce" and st.pending.side == "german"
    return j


PLACE_ALL = ["place ge infantry metz", "place ge infantry koblenz", "place ge infantry colmar"]


def test_a_trailing_done_after_the_last_placement_is_dropped(tmp_path):
    """2.0 I: placing the last arrival completes the placement; the 'done' after it answers a
    decision that no longer exists, so it is dropped (and said so) instead of breaking the
    batch, atomic or not."""
    for atomic in (False, True):
        j = _to_autumn_1914(tmp_path, name=f"a{atomic}")
        r = g.submit(j, "german", PLACE_ALL + ["done"], atomic=atomic)
        assert r.rejected is None, r.rejected
        assert len(r.applied) == 1              # one sealed plan (2.0 I)
        assert [(i, t) for i, t, _ in r.dropped] == [(3, "done")]
        assert "not needed" in r.dropped[0][2]
        st = g.open_game(j).state
        assert st.pending.kind == "reinforce" and st.pending.side == "entente"
        assert len(g.open_game(j).records) - 1 == st.seq


def test_a_done_that_answers_a_real_decision_is_kept(tmp_path):
    """2.0 I: a 'done' while placements are still possible is refused; 'done' after 'done'
    (declare no battle, then play no card, 2.0 II.3) answers two decisions and is kept."""
    j = _to_autumn_1914(tmp_path)
    r = g.submit(j, "german", PLACE_ALL[:2] + ["done"])
    assert r.rejected is not None and r.rejected[0] == 2 and r.rejected[2].rule == "2.0 I"
    assert r.dropped == []


def test_the_dropped_done_is_reported(tmp_path, cli):
    """2.0 I: `order` says which order was dropped and why, in text and JSON."""
    j = _to_autumn_1914(tmp_path)
    r = cli("order", j, "--as", "german", "--atomic", "--format", "json", *PLACE_ALL, "done")
    assert r.exit_code == 0, r.output
    assert [d["order"] for d in json.loads(r.stdout)["dropped"]] == ["done"]


# ---------------------------------------------------------------- decisions that cannot matter

def _verdun(tmp_path, name, entente_hand, options=None, units=None):
    """1916: the German 5th Army attacks Verdun; his hand is empty once the Offensive is
    played."""
    kw = {"player": "german", "hands": {"german": ["off-01"], "entente": entente_hand}}
    if units:
        kw.update(remove_units=[u.split()[0] for u in units], add_units=units)
    j = new_game(tmp_path, position("1916", **kw), options, name=name)
    r = g.submit(j, "german", ["play offensive", "move ge-5 verdun", "end movement"])
    assert r.rejected is None, r.rejected
    return j


def _skipped(j):
    return [(e["kind"], e["side"]) for r in g.open_game(j).records
            for e in r.get("events", []) if e["type"] == "DecisionSkipped"]


def test_a_defender_with_no_card_is_not_asked_for_combat_cards(tmp_path):
    """2.0 II.3b: with an empty hand (a public fact) the defender's answer cannot matter; the
    referee says so in the record (and the attacker, hand empty, is not asked either)."""
    j = _verdun(tmp_path, "empty", [])
    st = g.open_game(j).state
    assert (st.pending.kind, st.pending.side) == ("cavalry_retreat", "entente")
    assert ("defender_cards", "entente") in _skipped(j)
    assert ("attacker_cards", "german") in _skipped(j)
    assert g.verify(j).records > 0


def test_whether_the_defender_is_asked_depends_on_his_hand_size_only(tmp_path):
    """2.0 II.3b, 1.3: the opponent sees how many cards a hand holds, not which: one card
    that is no combat card is asked about like a Poison Gas! (SPRING 1916: any could be)."""
    asked = []
    for hand in (["off-03"], ["gas-01"], ["ers2-01"]):
        j = _verdun(tmp_path, hand[0], hand)
        st = g.open_game(j).state
        asked.append((st.pending.kind, st.pending.side))
    assert asked == [("defender_cards", "entente")] * 3


def test_with_hidden_templates_a_cavalry_question_reveals_no_army_contents(tmp_path):
    """5.4.3 with 1.4 (hidden templates): whether the German is asked for a cavalry retreat
    must not tell the Entente whether his army holds cavalry: with an army in the battle and
    somewhere to go he is asked either way (and then may only answer 'done')."""
    pending = []
    for name, contents in (("with", "4I+1C+2A"), ("without", "5I+2A")):
        j = _verdun(tmp_path, name, [], {"hidden_templates": True},
                    [f"ge-5 ge army sedan {contents}"])
        st = g.open_game(j).state
        pending.append((st.pending.kind, st.pending.side))
    assert pending == [("cavalry_retreat", "german")] * 2


def test_the_round_trip_figures_in_readme():
    """docs/design.md 'Round trips': the fixed 1914 opening asks 54 decisions with 24 hand-offs over
    SUMMER and AUTUMN 1914 (25 with the reinforcements placed one side after the other, 2.0 I;
    29 before the decisions that cannot matter were skipped)."""
    from referee.cli.roundtrips import play

    f = play()
    assert [(f[t]["decisions"], f[t]["hand-offs"]) for t in (1, 2)] == [(46, 20), (8, 4)]
    # The floor: were every decision answered by a bare 'done' never asked, the losses,
    # moves and cards left would still pass between the sides 16 times (5.2, 5.3, 2.0 II).
    assert [f[t]["floor"] for t in (1, 2)] == [12, 4]


def test_the_round_trip_figures_with_standing_orders_in_readme():
    """docs/design.md 'Round trips': with a typical set of standing orders (no cavalry retreat, no
    retreat after combat, no combat cards, stand and fight, pay hits with units: 5.4.3, 5.4.2,
    2.0 II.3, 5.4.1, 5.3.1) the same opening asks 34 decisions with 14 hand-offs, half of the
    first referee's 29; the second table of docs/design.md says so."""
    import re
    from pathlib import Path

    from referee.cli.roundtrips import play

    f = play(standing=True)
    got = [(f[t]["decisions"], f[t]["hand-offs"]) for t in (1, 2)]
    assert got == [(26, 10), (8, 4)]
    readme = (Path(__file__).parent.parent / "docs" / "design.md").read_text(encoding="utf-8")
    table = readme[readme.index("typical set of standing orders"):]
    rows = re.findall(r"^\| (SUMMER|AUTUMN) 1914 \| (\d+) \| (\d+) \|$", table, re.M)[:2]
    assert [(int(a), int(b)) for _, a, b in rows] == got
