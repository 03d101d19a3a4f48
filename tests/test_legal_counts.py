"""Legal-order counts for fixed positions, worked out by hand from the rules.

Each test builds a small position, writes down how the count follows from the
rules and the (reconstructed) map, and compares with what `status` lists.
Catches orders that are missing as well as orders that should not be there.
"""

from __future__ import annotations

import gamecalls as g
from casebook import legal, new_game, position


def test_1914_german_opening_card_decision(tmp_path):
    """2.0 II.1: the opening decision is 'play' one Offensive-type card, or 'pass'.

    Hand: Offensive x2, Limited Offensive, Strategic Reserves!, German Military Crisis!.
    - play offensive, play limited_offensive: the two Offensive-type card types (9.1);
    - Strategic Reserves! does not open a turn (9.6, played with a move);
    - the German Military Crisis! is the Entente's card (9.9), never a crisis for him;
    - pass;
    - at any time: propose armistice (3.2), surrender (3.3, allowed: 12 VP is a Stalemate,
      so nobody is winning).
    = 5 orders.
    """
    sc = position("1914", player="german", hands={
        "german": ["off-01", "off-02", "loff-01", "reserves-01", "crisis-german-01"],
        "entente": ["off-03"]})
    j = new_game(tmp_path, sc)
    assert sorted(legal(j, "german")) == ["pass", "play limited_offensive", "play offensive",
                                          "propose armistice", "surrender"]
    assert legal(j, "entente") == ["propose armistice", "surrender"]


def test_1914_german_offensive_orders_of_the_7th_army(tmp_path):
    """The orders naming ge-7 (2 infantry, in Colmar) after an Offensive card, 1914 set-up.

    Colmar borders Strasbourg (German, ge-i-02 alone), the Vosges (Entente, 1re Armée)
    and Mulhouse (German, empty).
    - the army moves: strasbourg, vosges (an Enemy area, allowed in an Offensive from a
      Friendly area, 4.2), mulhouse, and strasbourg taking ge-i-02 in (1.2.2 ruling) = 4;
    - one infantry leaves the template: stays in Colmar, or goes to strasbourg, vosges,
      mulhouse (no other German army stands in these areas) = 4;
    - rail (4.4), three areas through German areas: strasbourg, mulhouse; pfalz,
      saarbrucken, sarrebourg; koblenz, trier, morhange, metz, thionville = 10;
    - Strategic Reserves! (9.6): any German-Friendly area reachable through German areas,
      all 15 but Colmar itself = 14;
    - Colmar is a German supply source, so the army may go into the EFT box as its whole
      move (the access rule games/ttlm/map.yaml reconstructs) = 1.
    = 33 orders.
    """
    sc = position("1914", player="german", hands={
        "german": ["off-01", "reserves-01"], "entente": ["off-03"]})
    j = new_game(tmp_path, sc)
    g.submit(j, "german", ["play offensive"])
    mine = [o for o in legal(j, "german") if o.split()[1:2] and o.split()[1].startswith("ge-7")]
    assert len([o for o in mine if o.startswith("move ge-7 ")]) == 4
    assert len([o for o in mine if o.startswith("move ge-7:")]) == 4
    assert len([o for o in mine if o.startswith("rail ")]) == 10
    assert len([o for o in mine if o.startswith("reserves ")]) == 14
    assert "eft ge-7" in mine
    assert len(mine) == 33


def test_a_pass_move(tmp_path):
    """A passing German with one infantry in Metz and an Ersatz 2 in hand (2.0 II.1).

    Metz borders Thionville, Saarbrücken, Morhange (German) and Nancy, St-Mihiel,
    Briey (Entente: Enemy, closed to a pass move even when empty).
    - move: thionville, saarbrucken, morhange = 3;
    - rail (a pass move may be a rail move): within three German areas = 11
      (thionville, saarbrucken, morhange; luxembourg, trier, pfalz, strasbourg,
      sarrebourg; eifel, koblenz, colmar);
    - discard ersatz_2 (no card played yet) = 1;
    - end turn = 1;
    - propose armistice, surrender (at any time, 3.2, 3.3) = 2.
    = 18 orders.
    """
    sc = position("1914", player="german", hands={"german": ["ers2-01"], "entente": ["off-03"]},
                  units=["ge-i-01 ge infantry metz", "fr-i-02 fr infantry paris"])
    j = new_game(tmp_path, sc)
    g.submit(j, "german", ["pass"])
    orders = legal(j, "german")
    assert sorted(o for o in orders if o.startswith("move")) == [
        "move ge-i-01 morhange", "move ge-i-01 saarbrucken", "move ge-i-01 thionville"]
    assert len([o for o in orders if o.startswith("rail")]) == 11
    assert "discard ersatz_2" in orders and "end turn" in orders
    assert len(orders) == 18


def test_a_cavalry_next_to_a_disputed_area(tmp_path):
    """German cavalry in Aachen; Liège Disputed (German infantry, Belgian infantry and fort).

    Cavalry moves two areas; never Disputed -> Enemy (4.2, 8.3.1).
    - one area: liege, eifel, cologne = 3;
    - via liege (Disputed): only eifel (Antwerp, Brussels, Namur, Ardennes are Enemy) = 1;
    - via eifel: cologne, koblenz, trier, luxembourg, ardennes (empty Enemy, entered from
      a Friendly area), liege = 6;
    - via cologne: eifel, koblenz = 2;
    - out and back to Aachen through liege, eifel or cologne (a two-area move may end
      where it began; passing through an empty Enemy area would make it Friendly) = 3;
    - rail from Aachen through German areas: eifel, cologne; koblenz, trier,
      luxembourg; pfalz, saarbrucken, thionville = 8.
    The infantry in Liège may go to Eifel or Aachen (Friendly) only = 2; it may not
    rail (Liège is not Friendly). End movement = 1. Propose armistice, surrender = 2.
    = 28 orders.
    """
    sc = position("1914", player="german", hands={"german": ["off-01"], "entente": ["off-03"]},
                  units=["ge-c-01 ge cavalry aachen", "ge-i-05 ge infantry liege",
                         "be-i-01 be infantry liege", "be-1 be army brussels 2I",
                         "fr-i-02 fr infantry paris"])
    j = new_game(tmp_path, sc)
    g.submit(j, "german", ["play offensive"])
    orders = legal(j, "german")
    cav = [o for o in orders if o.startswith("move ge-c-01")]
    assert len(cav) == 15
    assert "move ge-c-01 liege eifel" in cav and "move ge-c-01 eifel ardennes" in cav
    assert "move ge-c-01 liege namur" not in cav
    assert len([o for o in orders if o.startswith("rail ge-c-01")]) == 8
    assert sorted(o for o in orders if "ge-i-05" in o) == [
        "move ge-i-05 aachen", "move ge-i-05 eifel"]
    assert len(orders) == 28


def test_a_rail_network_with_a_full_area_in_the_middle(tmp_path):
    """Rail from Metz when Saarbrücken already holds three German units (1.2.2, 4.4).

    Without the block: 11 destinations (see the pass-move count). Saarbrücken is full:
    it is neither a destination nor a way through. What is left:
    thionville, morhange; luxembourg, trier, sarrebourg; eifel, koblenz, strasbourg
    (Strasbourg still three areas away through Morhange and Sarrebourg).
    = 8 rail orders for ge-i-01.
    """
    sc = position("1914", player="german", hands={"german": ["off-01"], "entente": ["off-03"]},
                  units=["ge-i-01 ge infantry metz", "ge-i-11 ge infantry saarbrucken",
                         "ge-i-12 ge infantry saarbrucken", "ge-i-13 ge infantry saarbrucken",
                         "fr-i-02 fr infantry paris"])
    j = new_game(tmp_path, sc)
    g.submit(j, "german", ["play offensive"])
    rail = sorted(o.split()[2] for o in legal(j, "german") if o.startswith("rail ge-i-01"))
    assert rail == sorted(["thionville", "morhange", "luxembourg", "trier", "sarrebourg",
                           "eifel", "koblenz", "strasbourg"])


def test_entente_strategic_and_sea_moves(tmp_path):
    """AUTUMN 1914, Entente Offensive: the BEF in ENGLAND, one French infantry in Paris.

    Sea movement (4.6): each UK counter in ENGLAND may cross to each coastal Entente
    supply source that is Friendly or Disputed: Ostend, Dunkirk, Calais, Rouen
    = 2 x 4 = 8 (the infantry may not join the 1st Army in ENGLAND, 4.6 note).
    Strategic movement (4.5): from Paris to each other Entente supply source Friendly
    since the turn began: Ostend, Dunkirk, Calais, Rouen, Troyes, Langres, Besançon = 7.
    ENGLAND is not a supply source, so the UK units have no strategic move.
    """
    sc = position("1914", turn=2, player="entente",
                  hands={"german": ["off-01"], "entente": ["off-03"]},
                  units=["uk-1 uk army england 1I+1C", "uk-i-01 uk infantry england",
                         "fr-i-02 fr infantry paris", "ge-i-01 ge infantry metz"])
    sc["units"][1]["keep_apart_from"] = "uk-1"
    j = new_game(tmp_path, sc)
    g.submit(j, "entente", ["play offensive"])
    orders = legal(j, "entente")
    assert len([o for o in orders if o.startswith("sea ")]) == 8
    assert sorted(o.split()[2] for o in orders if o.startswith("strategic ")) == sorted(
        ["ostend", "dunkirk", "calais", "rouen", "troyes", "langres", "besancon"])
    assert "move uk-i-01 into uk-1" not in orders
