"""What a refused production order says (7.2-7.6, 8.1, 8.2.2): the unit type it names as a
player types it, the rule that says why, and names a reader knows, never a data id or file."""

from __future__ import annotations

import gamecalls as g
from casebook import new_game, position


def _production(tmp_path, game="ttlm", name="p", base="1914", **kw):
    """A position one pass away from production, then that pass: production begins."""
    kw.setdefault("hands", {"german": ["off-01"], "entente": ["off-03"]})
    sc = position(base, game=game, player="entente", passes=1, **kw)
    j = new_game(tmp_path, sc, name=name, game=game)
    assert g.submit(j, "entente", ["pass", "end turn"]).rejected is None
    assert g.open_game(j).state.pending.kind == "production"
    return j


def _refused(j, side, order):
    """The rule and the reason the order is refused with."""
    r = g.submit(j, side, [order])
    assert r.rejected is not None, f"{order!r} was accepted"
    return r.rejected[2].rule, r.rejected[2].reason


def test_a_misspelt_unit_type_is_unknown_and_the_types_built_are_listed(tmp_path):
    """7.6: a word that names no unit type is no army or fort: the refusal says so and lists
    the types the side builds, as an order names them."""
    j = _production(tmp_path)
    rule, why = _refused(j, "german", "build ge infantryy aachen")
    assert rule == "7.6"
    assert why.startswith("infantryy is not a unit type of this game; the German player "
                          "builds infantry, stosstruppen"), why
    assert "rebuild" not in why and "paris_gun" in why and "siege_gun" in why


def test_an_unknown_type_is_echoed_as_it_was_typed(tmp_path):
    """An army id where a unit type is expected ('build ge ge-1 aachen') is named as typed,
    not as the reader spelt it for a type's lookup ('ge_1')."""
    j = _production(tmp_path)
    rule, why = _refused(j, "german", "build ge Ge-1 aachen")
    assert rule == "7.6"
    assert why.startswith("Ge-1 is not a unit type of this game; the German player builds "), why


def test_aac_an_unknown_type_lists_the_imperial_guard_as_it_is_typed(tmp_path):
    j = _production(tmp_path, game="aac")
    rule, why = _refused(j, "entente", "build ru guard riga")
    assert rule == "7.6"
    assert why == ("guard is not a unit type of this game; the Entente player builds "
                   "infantry, imperial_guard, cavalry, artillery and biplane"), why


def test_an_army_is_not_built_but_rebuilt_once_eliminated(tmp_path):
    """7.3, 8.1: an army comes back only once eliminated, with 'rebuild'; 7.6 only prices
    that empty army at 1 BP. A fort is never built nor rebuilt (8.4)."""
    j = _production(tmp_path)
    rule, why = _refused(j, "german", "build ge army trier")
    assert rule == "7.3"
    assert why == ("armies are not built: only an eliminated army comes back, empty, with "
                   "'rebuild ARMY AREA' (rules 7.3, 8.1)"), why
    r = g.submit(j, "german", ["build ge army trier"])
    assert str(r.rejected[2]).count("rule") == 1, str(r.rejected[2])
    assert _refused(j, "german", "build ge fort trier") == (
        "8.4", "forts are never built, nor rebuilt once destroyed")


def test_a_build_date_refusal_names_no_data_file(tmp_path):
    """8.3.4: the Biplane's date is refused with its rule and the data's note, but not the
    file the note names for the data's editor."""
    j = _production(tmp_path, turn=7)
    rule, why = _refused(j, "german", "build ge biplane aachen")
    assert rule == "8.3.4"
    assert why == ("GE biplane units may be built from SPRING 1916 (from 1916; each counter "
                   "from the year printed on it); this is WINTER 1915-16"), why


def test_no_build_date_note_of_either_game_is_told_with_a_file_name():
    from referee.engine.builds import unfiled

    for game in ("ttlm", "aac"):
        dates = g.game_data(game).events.build_dates
        notes = [w.note for row in dates.units.values() for w in row.values()]
        notes += [w.note for w in dates.upgrades.values()]
        assert any(".yaml" in n for n in notes), game        # the data does name files
        for note in notes:
            told = unfiled(note)
            assert ".yaml" not in told and "()" not in told, (game, note, told)
    assert unfiled("marked 1918 (units.yaml, reconstructed)") == "marked 1918 (reconstructed)"


def test_a_unit_on_the_map_that_never_entrenches_is_told_why(tmp_path):
    """A Stoßtruppen unit never entrenches (8.2.2); an auxiliary does not either, as only
    armies and infantry entrench (2.0 V.2, 6.4, 7.4): each is on the map, and the refusal
    says what it is, with one list of rules."""
    units = ["ge-s-20 ge stosstruppen aachen", "ge-c-20 ge cavalry aachen"]
    j = _production(tmp_path, base="1918", add_units=units)
    rule, why = _refused(j, "german", "entrench ge-s-20")
    assert (rule, why) == ("8.2.2", "ge-s-20 is a stosstruppen unit, and stosstruppen units "
                                    "never entrench"), why
    rule, why = _refused(j, "german", "entrench ge-c-20")
    assert (rule, why) == ("7.4", "ge-c-20 is a cavalry unit: only armies and infantry units "
                                  "entrench, never an auxiliary unit (rules 2.0 V.2, 6.4, "
                                  "7.4)"), why
    for order in ("entrench ge-s-20", "entrench ge-c-20"):
        said = str(g.submit(j, "german", [order]).rejected[2])
        assert said.count("rule") == 1 and "on the map" not in said, said
    rule, why = _refused(j, "german", "entrench fr-1")                  # not his
    assert (rule, why) == ("7.4", "fr-1 is not a German army or infantry unit on the map")


def test_aac_austro_hungarian_infantry_is_not_upgraded_being_not_german(tmp_path):
    """AAC 7.6 upgrades German infantry only: an Austro-Hungarian unit on the map, of the
    German player's side, is refused for its nation, not as off the map or the other side's."""
    j = _production(tmp_path, game="aac", turn=13)
    rule, why = _refused(j, "german", "upgrade ah-i-01")
    assert (rule, why) == ("AAC 7.6", "only German Empire infantry is upgraded to Stoßtruppen; "
                                      "ah-i-01 is Austria-Hungary's"), why
    rule, why = _refused(j, "german", "upgrade ru-i-01")                # not his
    assert (rule, why) == ("7.5", "ru-i-01 is not a German infantry unit on the map"), why
    assert g.submit(j, "german", ["upgrade ge-i-01"]).rejected is None


def test_a_home_country_is_named_as_a_reader_knows_it(tmp_path):
    """7.3: an eliminated army is rebuilt in its home country, named as the map names it
    ('Germany', 'Austria-Hungary'), never by its data id."""
    j = _production(tmp_path, eliminated_armies=["ge-7"], remove_units=["ge-7"])
    assert _refused(j, "german", "rebuild ge-7 lille") == (
        "7.3", "army ge-7 is rebuilt in its home country, Germany")
    j = _production(tmp_path, game="aac", name="east", eliminated_armies=["ah-3"],
                    remove_units=["ah-3"])
    assert _refused(j, "german", "rebuild ah-3 posen") == (
        "7.3", "army ah-3 is rebuilt in its home country, Austria-Hungary")


def test_an_arrival_placed_outside_its_country_names_the_country_in_words():
    """A Game Events placement in a country (reconstructed data; none now uses one) is told
    by the country's name, not its id."""
    from referee.contracts.orders import Place
    from referee.engine.reinforce import _misplaced

    v = _misplaced(g.game_data("aac"), Place(unit="ah:infantry", area="posen"), "austria_hungary")
    assert "area of Austria-Hungary (reconstructed)" in v.reason, v.reason


def test_aac_the_upgrade_date_cites_the_stosstruppen_rule(tmp_path):
    """The upgrade's first turn is dated with the Stoßtruppen's (8.2.2), in AT ALL COSTS! too,
    whose data gives TTLM's date (its manifest is not available)."""
    j = _production(tmp_path, game="aac", turn=12)
    assert _refused(j, "german", "upgrade ge-i-01") == (
        "8.2.2", "upgrades to Stoßtruppen begin in SUMMER 1917; this is SPRING 1917")


def test_aac_the_vp_line_counts_the_german_player_s_armies_by_the_side(tmp_path):
    """AAC 3.1 takes a VP off for each eliminated army of the German player, Austro-Hungarian
    ones too: the line names them by the side, never 'German armies', which reads as one
    nation's."""
    from referee.engine.victory import vp_breakdown

    sc = position("1914", game="aac", eliminated_armies=["ah-3", "ge-8"],
                  remove_units=["ah-3", "ge-8"])
    st = g.open_game(new_game(tmp_path, sc, game="aac")).state
    lines = dict(vp_breakdown(st, g.game_data("aac")))
    assert lines.get("2 eliminated armies of the German player (3.1)") == -2, lines
    assert not [x for x in lines if "German armies" in x], lines
