"""The production phase (2.0 V, 7.0-7.6): sealed build orders, cards, entrenchment, the EFT box."""

from __future__ import annotations

import json

import gamecalls as g
from casebook import new_game, position
from referee.engine.victory import victory_level


def _to_production(tmp_path, name="p", turn=1, dice="committed", options=None, **kw):
    """A position one pass away from production: the Entente passes, production begins."""
    kw.setdefault("hands", {"german": ["off-01", "off-02", "ers2-01", "ers2-02", "gas-01"],
                            "entente": ["off-03", "ers2-03"]})
    sc = position("1914", turn=turn, player="entente", passes=1, **kw)
    j = new_game(tmp_path, sc, options, dice, name=name)
    r = g.submit(j, "entente", ["pass", "end turn"])
    assert r.rejected is None, r.rejected
    st = g.open_game(j).state
    assert st.pending.kind == "production", st.pending
    return j


def _rule(r):
    assert r.rejected is not None, "the order was accepted"
    return r.rejected[2].rule


def test_entrenchment_is_limited_to_1_bp_on_turns_1_and_2(tmp_path):
    j = _to_production(tmp_path)
    r = g.submit(j, "german", ["entrench ge-1", "entrench ge-2", "entrench ge-3",
                               "entrench ge-4"])
    assert r.rejected is None
    assert _rule(g.submit(j, "german", ["entrench ge-5"])) == "7.4"
    assert _rule(g.submit(j, "german", ["entrench ge-1"])) == "7.4"      # already ordered
    assert _rule(g.submit(j, "german", ["entrench ge-1:infantry"])) == "7.4"
    r = g.submit(j, "german", ["done"])
    r = g.submit(j, "entente", ["done"])
    st = g.open_game(j).state
    assert all(st.armies[a].entrenched for a in ("ge-1", "ge-2", "ge-3", "ge-4"))
    assert not st.armies["ge-5"].entrenched
    revealed = [e for a in r.applied for e in a.record["events"]
                if e["type"] == "ProductionRevealed" and e["side"] == "german"][0]
    assert revealed["spent"] == 1 and revealed["lost"] == 9       # unused BPs are lost (7.0)


def test_no_entrenchment_limit_from_turn_3(tmp_path):
    j = _to_production(tmp_path, turn=3)
    orders = [f"entrench ge-{n}" for n in range(1, 8)]
    assert g.submit(j, "german", orders).rejected is None


def test_card_buying_cannot_be_used_to_fish_for_a_card(tmp_path, cli):
    """7.1: the number is announced once; the cards are drawn only when both plans are in."""
    j = _to_production(tmp_path)
    before = g.open_game(j).state.hands["german"]
    assert g.submit(j, "german", ["buy 1"]).rejected is None
    assert g.open_game(j).state.hands["german"] == before          # nothing drawn yet
    assert _rule(g.submit(j, "german", ["buy 1"])) == "7.1"
    assert g.submit(j, "german", ["done"]).rejected is None
    assert g.open_game(j).state.hands["german"] == before          # still nothing: sealed
    r = g.submit(j, "entente", ["done"])
    events = [e for a in r.applied for e in a.record["events"]]
    kinds = [e["type"] for e in events]
    assert kinds.index("ProductionRevealed") < kinds.index("CardsDrawn")
    assert len(g.open_game(j).state.hands["german"]) == len(before) + 1


def test_production_orders_are_sealed_until_both_sides_are_done(tmp_path, cli):
    j = _to_production(tmp_path)
    assert g.submit(j, "german", ["build ge infantry metz", "buy 2"]).rejected is None
    # The Entente, who may order now as well (at the same time, 7.0), sees nothing of it.
    view = json.loads(cli("status", j, "--as", "entente", "--format", "json").stdout)
    assert "done" in view["legal"] and view["waiting_on"] == "german"
    log = cli("log", j, "--as", "entente", "--format", "json").stdout
    assert "build ge infantry metz" not in log and "buy 2" not in log
    mine = cli("log", j, "--as", "german").stdout
    assert "build ge infantry metz" in mine
    shown = json.loads(cli("show", j, "--as", "entente", "--format", "json").stdout)
    assert {u["id"] for u in shown["areas"]["metz"]["units"]} == {"ge-i-01", "fort-metz"}
    assert g.submit(j, "entente", ["buy 1", "done"]).rejected is None
    assert g.submit(j, "german", ["done"]).rejected is None
    shown = json.loads(cli("show", j, "--as", "entente", "--format", "json").stdout)
    assert len(shown["areas"]["metz"]["units"]) == 3
    log = cli("log", j, "--as", "entente").stdout
    # Revealed afterwards: the heading over the line of the build, areas by name.
    assert "German's production plan revealed" in log and "builds ge infantry" in log
    assert " in Metz" in log and "build ge infantry Metz" not in log
    assert cli("verify", j).exit_code == 0


def test_the_production_prompt_agrees_with_the_sides_it_still_waits_on(tmp_path, cli):
    """Both sides owe their plans (7.0): the game waits on "the German and Entente players";
    once the German plan is in, on "the Entente player" alone; the prompt after it names
    neither, each by his name once in the line."""
    j = _to_production(tmp_path)
    def waiting() -> str:
        out = " ".join(cli("status", j).stdout.split())
        return out.split("Waiting on ", 1)[1].split(" (units into", 1)[0]

    assert waiting() == "the German and Entente players: production: sealed orders"
    assert g.submit(j, "german", ["buy 1", "done"]).rejected is None
    assert waiting() == "the Entente player: production: sealed orders"


def test_build_rules(tmp_path):
    j = _to_production(tmp_path)
    assert _rule(g.submit(j, "german", ["build ge tank metz"])) == "8.3.5"     # not before 1918
    assert _rule(g.submit(j, "german", ["build ge biplane metz"])) == "8.3.4"  # not before 1916
    assert _rule(g.submit(j, "german", ["build ge infantry nancy"])) == "7.2"  # an Enemy area
    assert _rule(g.submit(j, "german", ["build fr infantry metz"])) == "7.2"
    assert _rule(g.submit(j, "german", ["build ge infantry metz into ge-1"])) == "7.2"
    assert _rule(g.submit(j, "german", ["build ge artillery aachen into ge-1"])) == "11.1"
    assert g.submit(j, "german", ["build ge infantry aachen into ge-1"]).rejected is None
    assert g.submit(j, "german", ["build ge infantry aachen"]).rejected is None  # 3rd unit there
    assert _rule(g.submit(j, "german", ["build ge infantry aachen"])) == "1.2.2"  # a 4th
    assert _rule(g.submit(j, "german", ["build ge infantry aachen into ge-1"])) == "1.4"
    assert _rule(g.submit(j, "german", ["buy 9"])) == "7.0"                      # 8 BP left
    assert g.submit(j, "german", ["buy 8"]).rejected is None


def test_an_eliminated_uk_army_is_rebuilt_in_england(tmp_path):
    sc = dict(hands={"german": [], "entente": ["off-03"]}, eliminated_armies=["uk-1"],
              remove_units=["uk-1", "uk-i-01"])
    j = _to_production(tmp_path, **sc)
    assert _rule(g.submit(j, "entente", ["rebuild uk-1 calais"])) == "4.6"
    assert _rule(g.submit(j, "entente", ["rebuild fr-1 paris"])) == "7.3"       # not eliminated
    assert g.submit(j, "entente", ["rebuild uk-1 england", "done"]).rejected is None
    g.submit(j, "german", ["done"])
    st = g.open_game(j).state
    assert st.armies["uk-1"].status == "map" and st.armies["uk-1"].area == "england"
    assert st.armies["uk-1"].contents == {}                                  # rebuilt empty


def test_upgrades_to_stosstruppen_from_summer_1917(tmp_path):
    j = _to_production(tmp_path, name="early")
    # The date is 8.2.2's: from SUMMER 1917 they are built and, besides, one infantry piece a
    # phase upgraded; 7.5 says only how the counters are swapped.
    assert _rule(g.submit(j, "german", ["upgrade ge-i-01"])) == "8.2.2"
    j = _to_production(tmp_path, name="late", turn=13)
    assert g.submit(j, "german", ["upgrade ge-1:infantry"]).rejected is None
    # One per phase: the limit is 8.2.2's (each production phase one infantry piece may be
    # upgraded); 7.5 says only how the counters are swapped.
    assert _rule(g.submit(j, "german", ["upgrade ge-i-01"])) == "8.2.2"
    g.submit(j, "german", ["done"])
    g.submit(j, "entente", ["done"])
    st = g.open_game(j).state
    assert st.armies["ge-1"].contents["ge:stosstruppen"] == 1
    assert st.armies["ge-1"].contents["ge:infantry"] == 3


def test_cards_over_the_limit_are_discarded_by_their_owner(tmp_path):
    """1914 German card limit 6 (reconstructed chart): 5 cards + 3 bought = 2 to discard."""
    j = _to_production(tmp_path)
    g.submit(j, "german", ["buy 3", "done"])
    g.submit(j, "entente", ["done"])
    st = g.open_game(j).state
    assert st.pending.kind == "discard_excess" and st.pending.side == "german"
    assert len(st.hands["german"]) == 8
    assert _rule(g.submit(j, "german", ["discard offensive"])) == "7.1"
    key = g.game_data().cards[st.hands["german"][0]].key
    other = g.game_data().cards[st.hands["german"][1]].key
    assert g.submit(j, "german", [f"discard {key} {other}"]).rejected is None
    st = g.open_game(j).state
    assert len(st.hands["german"]) == 6 and st.turn == 2


def test_eft_box_loss_roll_and_vp(tmp_path):
    """2.0 V.4: 6 BP of units in the EFT box roll 2 dice (one per 5 BP or part); each 1
    eliminates a unit. 3.1: +1 VP per 5 BP in the box in 1914-1917."""
    base = position("1914", player="entente", passes=1,
                    hands={"german": ["off-01"], "entente": ["off-03"]},
                    remove_units=["ge-i-01", "ge-i-02", "ge-7"])      # room in the counter mix
    base["eft_box"] = [{"type": "infantry", "count": 6, "nation": "ge"}]
    j = new_game(tmp_path, base, None, "manual")
    st = g.open_game(j).state
    assert victory_level(st, g.game_data())[0] == 13                  # 12 + 1 for the EFT box
    g.submit(j, "entente", ["pass", "end turn"])
    g.submit(j, "german", ["done"])
    r = g.submit(j, "entente", ["done"], "1,4")
    events = [e for a in r.applied for e in a.record["events"]]
    due = next(e for e in events if e["type"] == "EftLossesDue")
    assert due == {"type": "EftLossesDue", "bp": 6, "dice": [1, 4], "losses": 1}
    assert sum(1 for e in events if e["type"] == "EftUnitLost") == 1
    st = g.open_game(j).state
    assert sum(1 for p in st.pieces.values() if p.area == "eft") == 5
    assert victory_level(st, g.game_data())[0] == 13                  # 5 BP: still +1


def test_eft_box_moves(tmp_path):
    """games/ttlm reconstruction: from a German supply source area, as the whole move."""
    sc = position("1914", player="german", hands={"german": ["off-01"], "entente": ["off-03"]})
    j = new_game(tmp_path, sc)
    assert _rule(g.submit(j, "german", ["play offensive", "eft ge-1"])) == "2.0 V.4"   # Aachen
    assert g.submit(j, "german", ["eft ge-7"]).rejected is None                        # Colmar
    st = g.open_game(j).state
    assert st.armies["ge-7"].status == "eft"
    assert _rule(g.submit(j, "german", ["eft ge-7 strasbourg"])) == "4.1"  # it has moved


def test_only_a_commonwealth_unit_once_swapped_in_is_rebuilt(tmp_path):
    """8.2.3: the Canadian entered play in AUTUMN 1915; gone from the 1916 set-up, it may be
    rebuilt (2 BP) once; the ANZAC, not swapped in until SPRING 1917, may not."""
    sc = position("1916", player="entente", passes=1,
                  hands={"german": ["off-01"], "entente": ["off-03"]},
                  remove_units=["uk-2"], add_units=["uk-2 uk army ypres 2I+1A"])
    j = new_game(tmp_path, sc)
    g.submit(j, "entente", ["pass", "end turn"])
    assert g.submit(j, "entente", ["build uk commonwealth calais"]).rejected is None
    assert _rule(g.submit(j, "entente", ["build uk commonwealth calais"])) == "8.2.3"


def test_out_of_supply_areas_take_no_builds_but_units_may_entrench(tmp_path):
    """6.4, 6.5, 7.2: Namur is German but cut off; nothing is built there, yet the army may
    entrench (out of supply units can still entrench)."""
    j = _to_production(tmp_path, turn=3,
                       control={"namur": "german", "liege": "entente"},
                       forts={"fort-namur": "out"},
                       remove_units=["ge-3"], add_units=["ge-3 ge army namur 3I"])
    st = g.open_game(j).state
    assert st.armies["ge-3"].contents == {"ge:infantry": 2}      # attrition: one kind, no choice
    assert _rule(g.submit(j, "german", ["build ge infantry namur"])) == "7.2"
    assert g.submit(j, "german", ["entrench ge-3"]).rejected is None


def test_a_plan_of_many_orders_wraps_between_its_orders_in_the_report(tmp_path, cli):
    """A record holding a batch (a production plan given in one mail) is headed by all its
    orders: within 72 columns, its line wraps between two orders and never inside one, so
    that each reads, and is copied, whole."""
    j = _to_production(tmp_path)
    orders = ["build ge infantry metz", "build ge infantry cologne", "build ge infantry trier",
              "buy 2"]
    assert g.submit(j, "german", orders).rejected is None
    text = cli("report", j, "--as", "german", "--since", "0").stdout
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 72, max(lines, key=len)
    at = next(n for n, line in enumerate(lines) if line.startswith("#") and orders[0] in line)
    assert all(any(o in line for line in lines[at:at + 3]) for o in orders), lines[at:at + 3]


def test_a_plan_carried_out_is_told_with_what_happened_not_with_what_is_asked(tmp_path, cli):
    """7.0: once both plans are revealed, the German's report tells what his plan cost among
    what happened since his last report, before the board and the decision he is asked now;
    it is no longer put where a report says what to do."""
    j = _to_production(tmp_path)
    assert g.submit(j, "german", ["build ge infantry metz", "buy 2", "done"]).rejected is None
    since = g.open_game(j).state.seq
    assert g.submit(j, "entente", ["buy 1", "done"]).rejected is None
    text = cli("report", j, "--as", "german", "--since", str(since)).stdout
    titles = [line for line, under in zip(text.splitlines(), text.splitlines()[1:])
              if under and set(under) == {"-"}]
    assert titles[:2] == [f"Since record {since}", "Your production plan, as carried out (7.0)"]
    assert titles[-1] == "Now" and "Build Points (7.0)" not in titles, titles
    told, plan = text.split("as carried out (7.0)")
    plan = plan.split("Victory points")[0]
    # The orders are told once, in the record that revealed them; here what they spent.
    assert "build ge infantry Metz" not in plan and "Spent: 3 of your" in " ".join(plan.split())
    assert told.count("builds ge infantry (ge-i-03) in Metz") == 1, told
    assert "build ge infantry Metz" not in told, told


def test_the_eft_loss_prompt_says_your_choice_to_the_german_alone(tmp_path):
    """2.0 V.4: the German chooses the units the EFT box loses: 'your choice' to him alone;
    the Entente's and the public's mails name him."""
    from referee.engine import pending_prompt
    base = position("1914", player="entente", passes=1,
                    hands={"german": ["off-01"], "entente": ["off-03"]},
                    remove_units=["ge-i-01", "ge-i-02", "ge-7"])
    base["eft_box"] = [{"type": "infantry", "count": 3, "nation": "ge"},
                       {"type": "stosstruppen", "count": 2, "nation": "ge"}]
    j = new_game(tmp_path, base, None, "manual")
    g.submit(j, "entente", ["pass", "end turn"])
    g.submit(j, "german", ["done"])
    g.submit(j, "entente", ["done"], "1,4")
    st, data = g.open_game(j).state, g.game_data()
    assert st.pending.kind == "eft_losses" and st.pending.side == "german"
    assert "your choice" in pending_prompt(st, data, "german")
    for reader in ("entente", "public", None):
        said = pending_prompt(st, data, reader)
        assert "your" not in said and "the German player's choice" in said, said


def test_a_sealed_plan_names_its_areas_as_the_board_does(tmp_path, cli):
    """The German builds in the Palatinate (id pfalz): his report of the sealed plan, its
    costs and the plan revealed name the area as the board does,
    never by an id his mail shows nowhere else (4.1)."""
    j = _to_production(tmp_path)
    orders = ["build ge infantry palatinate", "buy 1", "done"]
    assert g.submit(j, "german", orders).rejected is None
    since = g.open_game(j).state.seq
    text = " ".join(cli("report", j, "--as", "german", "--since", "0").stdout.split())
    assert "pfalz" not in text
    assert "seals a production plan (7.0): build ge infantry Palatinate; buy 1" in text
    assert "build ge infantry Palatinate # 1 BP" in text
    assert g.submit(j, "entente", ["buy 1", "done"]).rejected is None
    text = " ".join(cli("report", j, "--as", "german", "--since", str(since)).stdout.split())
    assert "pfalz" not in text and "revealed (2 BP spent, 8 left unspent and lost, 7.0): " \
        "- German builds ge infantry" in text and "in Palatinate" in text, text
    assert "build ge infantry Palatinate; buy 1" not in text.split("revealed")[1], text
