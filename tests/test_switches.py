"""Rules switched by a game's data or options: what differs between the games of one system
(AT ALL COSTS! core rules v2.0 beside TTLM's), each with an accepted and a refused case."""

from __future__ import annotations

import pytest

import gamecalls as g
from casebook import AAC_SWITCHES, data_copy, new_game, position
from referee.contracts.events_production import BackInSupply
from referee.contracts.orders import Build
from referee.engine import check, pending_prompt
from referee.engine.core import Ctx
from referee.engine.flow import begin_production
from referee.engine.victory import victory_level
from referee.game.views import state_view, status_view
from referee.render.documents import show_document, status_document
from referee.render.formats import render
from referee.render.record_text import describe
from referee.store.dice import Dice


@pytest.fixture(scope="module")
def eft_games(tmp_path_factory):
    """The same position one pass from production, 6 BP of units in the EFT box, without and
    with the option linked_with_aac (2.0 V.4, 3.1); each played to the end of production."""
    games = {}
    for linked in (False, True):
        tmp = tmp_path_factory.mktemp(f"eft-linked-{linked}")
        base = position("1914", player="entente", passes=1,
                        hands={"german": ["off-01"], "entente": ["off-03"]},
                        remove_units=["ge-i-01", "ge-i-02", "ge-7"])  # room in the counter mix
        base["eft_box"] = [{"type": "infantry", "count": 6, "nation": "ge"}]
        j = new_game(tmp, base, {"linked_with_aac": linked}, "manual")
        vp_before = victory_level(g.open_game(j).state, g.game_data())[0]
        g.submit(j, "entente", ["pass", "end turn"])
        g.submit(j, "german", ["done"])
        r = g.submit(j, "entente", ["done"], "1,4" if not linked else None)
        assert r.rejected is None, r.rejected
        events = [e["type"] for a in r.applied for e in a.record["events"]]
        games[linked] = (g.open_game(j).state, vp_before, events)
    return games


def test_ttlm_alone_rolls_for_eft_losses_and_counts_the_eft_vp(eft_games):
    """2.0 V.4, 3.1 without the link: the loss roll is made, the box is worth +1 VP."""
    st, vp, events = eft_games[False]
    assert vp == 13                                                   # 12 + 1 for the box
    assert "EftLossesDue" in events and "EftUnitLost" in events
    assert sum(1 for p in st.pieces.values() if p.area == "eft") == 5


def test_linked_with_aac_skips_the_eft_losses_phase_and_the_eft_vp(eft_games):
    """2.0 V.4, 3.1 (linked with AT ALL COSTS!): no loss roll, no decision, no EFT VP."""
    st, vp, events = eft_games[True]
    assert vp == 12                                                   # the box adds nothing
    assert not {"EftLossesDue", "EftUnitLost"} & set(events)
    assert "ProductionEnded" in events and st.turn == 2
    assert sum(1 for p in st.pieces.values() if p.area == "eft") == 6
    assert victory_level(st, g.game_data())[0] == 12


# ---------------------------------------------------------------- OoS markers (AAC 1.2.3)

@pytest.fixture(scope="module")
def cut_off(tmp_path_factory):
    """A game starting in production with the German 1st Army (3I) cut off in Rouen, on the
    TTLM data and on the copy with AAC's switches: each after its Check Supply Status phase
    (2.0 V.1), and after the whole production phase."""
    out = {}
    for aac in (False, True):
        tmp = tmp_path_factory.mktemp(f"oos-aac-{aac}")
        games = data_copy(AAC_SWITCHES) if aac else None
        sc = position("1914", hands={"german": ["off-01"], "entente": ["off-03"]},
                      control={"rouen": "german"}, remove_units=["ge-1"],
                      add_units=["ge-1 ge army rouen 3I"])
        sc["position"] = {"phase": "production"}
        j = new_game(tmp, sc, games_dir=games)
        during = g.open_game(j, games_dir=games)
        for side in ("german", "entente"):
            r = g.submit(j, side, ["done"], games_dir=games)
            assert r.rejected is None, r.rejected
        out[aac] = (during, g.open_game(j, games_dir=games))
    return out


def test_the_oos_marker_goes_on_in_the_check_supply_status_phase(cut_off):
    """TTLM 1.2.3, 6.5 (and AAC 1.2.3): the unsupplied army loses a unit and is marked;
    views show the marker."""
    for aac in (False, True):
        game = cut_off[aac][0]
        st = game.state
        assert st.oos == ["ge-1"] and st.armies["ge-1"].contents == {"ge:infantry": 2}
        units = state_view(st, game.data, "public")["areas"]["rouen"]["units"]
        assert [u.get("oos") for u in units] == [True]


def _build_into_ge1_in_aachen(game):
    """The check of a build into ge-1, moved (in a copy of the state) to supplied Aachen."""
    st = game.state.clone()
    st.armies["ge-1"].area = "aachen"
    st._cache.clear()
    return check(st, game.data, Build(unit="ge:infantry", area="aachen", into="ge-1"), "german")


def test_ttlm_a_supplied_army_receives_new_units(cut_off):
    """TTLM 6.5, 7.2: what may receive new units is judged by the area's supply now."""
    assert _build_into_ge1_in_aachen(cut_off[False][0]) is None


def test_aac_a_marked_army_receives_no_new_unit_until_resupplied(cut_off):
    """AAC 1.2.3, 6.5: while the OoS marker is on, the army receives no new unit."""
    v = _build_into_ge1_in_aachen(cut_off[True][0])
    assert v is not None and v.rule == "AAC 1.2.3" and "ge-1" in v.reason


def test_ttlm_markers_come_off_at_the_end_of_production(cut_off):
    """TTLM 1.2.3 (our reading): the marker lasts the production phase it was placed in."""
    assert cut_off[False][1].state.oos == []


def test_aac_markers_stay_until_a_check_finds_the_unit_in_supply(cut_off):
    """AAC 1.2.3: the marker stays into the next turn, and comes off at the next Check
    Supply Status phase that finds the army in supply."""
    game = cut_off[True][1]
    st = game.state
    assert st.turn == 2 and st.oos == ["ge-1"]
    st = st.clone()
    st.armies["ge-1"].area = "aachen"
    ctx = Ctx(st, game.data, Dice("oos", 99, bytes(32)))
    begin_production(ctx)
    assert any(isinstance(e, BackInSupply) and e.units == ["ge-1"] for e in ctx.events)
    assert ctx.state.oos == []


# ---------------------------------------------------------------- the impulse (AAC 2.0 II)

@pytest.mark.parametrize("aac", [False, True])
def test_the_player_turn_is_named_in_the_games_own_words(aac, tmp_path):
    """AAC calls the player turn an 'impulse' (AAC 2.0 II.1, 4.5, 5.4.4): the prompt, the log,
    `show` and `status` say so; TTLM's words and JSON stay as they were (2.0 II)."""
    games = data_copy(AAC_SWITCHES) if aac else None
    sc = position("1914", player="german", hands={"german": ["off-01"], "entente": ["off-03"]})
    game = g.open_game(new_game(tmp_path, sc, games_dir=games), games_dir=games)
    st, data = game.state, game.data
    word, other_word = ("impulse", "player turn") if aac else ("player turn", "impulse")
    began = next(e for rec in game.records[1:] for e in rec["events"]
                 if e["type"] == "PlayerTurnBegan")
    shown = render(show_document(state_view(st, data, "public")), "text")
    status = status_view(st, data, "german")
    for text in (pending_prompt(st, data), describe(began, data, "public"), shown,
                 render(status_document(status), "text")):
        assert word in text and other_word not in text, text
    assert ("terms" in status) is aac and ("terms" in state_view(st, data, "public")) is aac
