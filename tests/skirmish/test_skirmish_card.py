"""Every table of the skirmish quick reference, each row at least once, with forced dice.
The expected numbers are read off the card (/work/shared/rules/ttlm-skirmish-quick-reference
in the project's seeds), not off the code."""

from __future__ import annotations

import msgspec
import pytest
from skirmish_cases import ONE_STEP, Table, figure, mods

# ---------------------------------------------------------------- Movement, Motivation


@pytest.mark.parametrize("mode,dice,inches", [
    ("stealthy", [], 3), ("manoeuvre", [4], 7), ("rush", [2, 5], 10), ("assault", [5], 5)])
def test_movement_distances(mode, dice, inches):
    t = Table(red=[figure("R1")], phase="movement")
    got = t.test("red", f"move R1 mode={mode} command=yes", dice)
    assert got["result"] == f'R1 may move up to {inches}" ({mode})'
    assert [d["value"] for d in got["dice"]] == dice


def test_moving_needs_a_leader_in_command_range_but_a_leader_moves_himself():
    t = Table(red=[figure("R1")], phase="movement")
    rule, why = t.refusal("red", "move R1 mode=stealthy command=no")
    assert rule == "Motivation" and '6"' in why and '12"' in why
    assert t.refusal("red", "move R0 mode=stealthy") is None


def test_without_a_living_leader_no_figure_is_motivated():
    t = Table(red=[figure("R1")], blue=[figure("B1", weapon="rifle")], phase="fire")
    t.test("blue", "fire B1 at=R0 range=10 command=yes", [20])
    assert t.fig("R0").killed
    rule, why = t.refusal("red", "fire R1 at=B1 range=10 command=yes")
    assert rule == "Motivation" and "no leader" in why


def test_a_rush_into_contact_is_refused_an_assault_is_not():
    t = Table(red=[figure("R1")], phase="movement")
    rule, why = t.refusal("red", "move R1 mode=rush contact=yes command=yes")
    assert rule == "Hand-to-Hand Combat" and "rush into contact" in why
    assert t.refusal("red", "move R1 mode=assault contact=yes at=B0 command=yes") is None


def test_a_pinned_figure_may_not_advance_but_may_move_away():
    t = Table(red=[figure("R1")], phase="movement")
    t.fig("R1").pins = 1
    rule, _ = t.refusal("red", "move R1 mode=manoeuvre command=yes")
    assert rule == "If Pinned"
    assert t.refusal("red", "move R1 mode=manoeuvre away=yes command=yes") is None


def test_movement_alternates_units():
    t = Table(red=[figure("R1")], blue=[figure("B1")], phase="movement")
    assert t.refusal("blue", "move B1 mode=stealthy command=yes")[0] == \
        "Movement (alternate units)"
    t.test("red", "move R1 mode=stealthy command=yes")
    assert t.refusal("red", "move R0 mode=stealthy") is None        # the same unit goes on
    t.test("blue", "move B1 mode=stealthy command=yes")


# ---------------------------------------------------------------- Visibility


@pytest.mark.parametrize("facts,auto", [
    ("light=twilight state=moving cover=none", 48),
    ("light=day state=emerging cover=none", 30),
    ("light=night state=moving cover=none", 18),
    ("light=smoke state=moving cover=none", 18),
    ("light=day state=halted cover=none", 18),
    ("light=day state=stealthy cover=soft", 12),
    ("light=day state=halted cover=hard", 4),
    ("light=night state=halted cover=soft", 0),
])
def test_automatic_spotting_ranges(facts, auto):
    t = Table(red=[figure("R1", "regular")], blue=[figure("B1")])
    seen = t.test("red", f"spot R1 at=B1 range={auto} {facts}")
    assert seen["result"].startswith("B1 spotted automatically") and seen["dice"] == []
    beyond = t.test("red", f"spot R1 at=B1 range={auto + 1} {facts}", [5], again=True)
    assert beyond["result"].startswith("B1 spotted (D6 5, 5+")


def test_a_target_that_fires_is_always_spotted_and_in_the_open_by_day_at_any_range():
    t = Table(red=[figure("R1")], blue=[figure("B1")])
    assert "fires" in t.test("red", "spot R1 at=B1 range=200 light=night state=firing "
                                    "cover=hard")["result"]
    assert "any range" in t.test("red", "spot R1 at=B1 range=200 light=day state=moving "
                                        "cover=none", again=True)["result"]


@pytest.mark.parametrize("quality,kit,need", [
    ("gallant", {}, 4), ("veteran", {}, 4), ("regular", {}, 5), ("stubborn", {}, 5),
    ("raw", {}, 6), ("veteran", {"gas_mask": True}, 6)])
def test_the_roll_to_spot(quality, kit, need):
    t = Table(red=[figure("R1", quality, **kit)], blue=[figure("B1")])
    far = "range=40 light=day state=halted cover=hard"
    assert t.test("red", f"spot R1 at=B1 {far}", [need])["result"].startswith("B1 spotted")
    assert "not spotted" in t.test("red", f"spot R1 at=B1 {far}", [need - 1], again=True)["result"]


def test_a_sniper_needs_a_six_and_a_rushing_figure_cannot_spot():
    t = Table(red=[figure("R1", "gallant")], blue=[figure("B1", role="sniper")],
              phase="movement")
    far = "range=40 light=day state=halted cover=hard"
    assert "not spotted" in t.test("red", f"spot R1 at=B1 {far}", [5])["result"]
    assert "B1 spotted" in t.test("red", f"spot R1 at=B1 {far}", [6], again=True)["result"]
    t.test("red", "move R1 mode=rush command=yes", [1, 1])
    assert t.refusal("red", f"spot R1 at=B1 {far}")[0] == "Movement"


@pytest.mark.parametrize("near", ["range=2 light=day state=halted cover=hard",
                                  "range=100 light=day state=moving cover=none"])
def test_a_sniper_is_never_seen_by_range_alone(near):
    """Card, Visibility: "You always need a 6 to spot a sniper": within the automatic range
    too (2" from a halted figure in hard cover; in the open by day, any range). Only his own
    fire gives him away ("Enemy is automatically spotted if it fires")."""
    t = Table(red=[figure("R1", "gallant")], blue=[figure("B1", role="sniper")])
    got = t.test("red", f"spot R1 at=B1 {near}", [5])
    assert got["result"].startswith("B1 not spotted (D6 5, 6+ needed: target is a sniper")
    assert "B1 spotted (D6 6" in t.test("red", f"spot R1 at=B1 {near}", [6],
                                         again=True)["result"]
    fires = t.test("red", "spot R1 at=B1 range=100 light=day state=firing cover=hard",
                   again=True)
    assert fires["dice"] == [] and "it fires" in fires["result"]


# ---------------------------------------------------------------- Weapon Ranges


@pytest.mark.parametrize("weapon,reach,dice", [
    ("pistol", 6, 1), ("smg", 12, 3), ("bar", 60, 3), ("rifle", 80, 1), ("lmg", 100, 3),
    ("hmg", 120, 5)])
def test_weapon_ranges_and_dice(weapon, reach, dice):
    t = Table(red=[figure("R1", weapon=weapon)], blue=[figure("B1")])
    rule, why = t.refusal("red", f"fire R1 at=B1 range={reach + 1} command=yes")
    assert rule == "Weapon Ranges" and "out of range" in why
    got = t.test("red", f"fire R1 at=B1 range={reach} state=moving command=yes", [1] * dice)
    assert len(got["dice"]) == dice and all(d["die"] == 20 for d in got["dice"])


def test_an_lmg_fires_three_or_five_dice():
    t = Table(red=[figure("R1", weapon="lmg"), figure("R2", weapon="lmg")],
              blue=[figure("B1")])
    facts = "range=50 state=moving command=yes"
    assert len(t.test("red", f"fire R1 at=B1 dice=5 {facts}", [1] * 5)["dice"]) == 5
    assert t.refusal("red", f"fire R2 at=B1 dice=4 {facts}")[0] == "Weapon Ranges"


def test_a_grenade_rolls_a_die_per_figure_in_the_blast_a_flamethrower_four():
    t = Table(red=[figure("R1", weapon="grenade"), figure("R2", weapon="flamethrower")],
              blue=[figure("B1"), figure("B2")])
    assert len(t.test("red", "fire R1 at=B1,B2 range=6 command=yes", [1, 1])["dice"]) == 2
    assert len(t.test("red", "fire R2 at=B1,B2 range=6 command=yes", [1] * 8)["dice"]) == 8


def test_a_rifle_fires_at_one_figure():
    t = Table(red=[figure("R1")], blue=[figure("B1"), figure("B2")])
    assert t.refusal("red", "fire R1 at=B1,B2 range=6 command=yes")[0] == "Weapon Ranges"


# ---------------------------------------------------------------- Aimed Fire (D20)


@pytest.mark.parametrize("die,result", [
    (20, "killed"), (18, "killed"), (17, "pinned"), (15, "pinned"), (14, "miss"), (1, "miss")])
def test_aimed_fire_results(die, result):
    t = Table(red=[figure("R1")], blue=[figure("B1")])
    got = t.test("red", "fire R1 at=B1 range=10 state=moving command=yes", [die])
    assert got["result"] == f"B1 {result}" and mods(got) == {}
    assert t.fig("B1").killed == (result == "killed")
    assert t.fig("B1").pins == (1 if result == "pinned" else 0)


@pytest.mark.parametrize("firer,target,facts,expected", [
    (figure("R1", weapon="grenade"), figure("B1"), "range=5 confined=yes", {"confined": 3}),
    (figure("R1", weapon="grenade", role="bomber"), figure("B1"), "range=6", {"bomber": 2}),
    (figure("R1", role="marksman"), figure("B1"), "range=10", {"marksman": 2}),
    (figure("R1"), figure("B1"), "range=19 state=halted", {"far_still": -1}),
    (figure("R1"), figure("B1"), "range=19 state=stealthy", {"far_still": -1}),
    (figure("R1"), figure("B1"), "range=18 state=halted", {}),
    (figure("R1", "raw"), figure("B1"), "range=10", {"raw": -2}),
    (figure("R1", "irregular"), figure("B1"), "range=10", {"irregular": -2}),
    (figure("R1", gas_mask=True), figure("B1"), "range=10", {"gas_mask": -2}),
    (figure("R1"), figure("B1"), "range=10 cover=hard", {"protected": -2}),
    (figure("R1"), figure("B1", body_armour=True), "range=10", {"protected": -2}),
])
def test_aimed_fire_modifiers(firer, target, facts, expected):
    t = Table(red=[firer], blue=[target])
    got = t.test("red", f"fire R1 at=B1 {facts} command=yes", [16])
    assert mods(got) == expected
    total = 16 + sum(expected.values())
    assert got["result"] == "B1 " + ("killed" if total >= 18 else "pinned" if total >= 15
                                     else "miss")


def test_an_irregular_firer_is_counted_as_raw_and_a_journal_made_before_as_it_was_played():
    """"-2 if firer is Raw", Irregular counted as Raw as everywhere else on the card (its
    spotting roll, its steps of fire): the modifier is named so. Record 0 of a journal made
    before has no such line, and its Irregular firer takes none."""
    t = Table(red=[figure("R1", "irregular")], blue=[figure("B1")])
    got = t.test("red", "fire R1 at=B1 range=10 command=yes", [16])
    assert [(m["value"], m["why"]) for m in got["modifiers"]] == \
        [(-2, "firer is Irregular, counted as Raw")]
    old = msgspec.structs.replace(ONE_STEP, aimed=msgspec.structs.replace(
        ONE_STEP.aimed, modifiers=[m for m in ONE_STEP.aimed.modifiers if m.id != "irregular"]))
    t = Table(red=[figure("R1", "irregular")], blue=[figure("B1")], card=old)
    assert mods(t.test("red", "fire R1 at=B1 range=10 command=yes", [16])) == {}


def test_a_pinned_figure_may_not_shoot():
    t = Table(red=[figure("R1")], blue=[figure("B1")])
    t.fig("R1").pins = 1
    assert t.refusal("red", "fire R1 at=B1 range=10 command=yes")[0] == "If Pinned"


# ---------------------------------------------------------------- Unaimed Fire (D20, to pin)


@pytest.mark.parametrize("quality,need", [
    ("gallant", 19), ("stubborn", 17), ("veteran", 15), ("regular", 15), ("ferocious", 15),
    ("raw", 13), ("irregular", 13)])
def test_unaimed_fire_by_the_targets_quality(quality, need):
    t = Table(red=[figure("R1"), figure("R2")], blue=[figure("B1", quality)])
    miss = t.test("red", "unaimed R1 at=B1 range=10 command=yes", [need - 1])
    assert miss["result"] == f"B1 not pinned ({need}+ needed)" and t.fig("B1").pins == 0
    hit = t.test("red", "unaimed R2 at=B1 range=10 command=yes", [need])
    assert hit["result"] == f"B1 pinned ({need}+ needed)" and t.fig("B1").pins == 1


@pytest.mark.parametrize("weapon,target,facts,expected,need", [
    ("rifle", figure("B1"), "cover=hard", {"hard_cover": 1}, 16),
    ("rifle", figure("B1", "ferocious"), "advancing=yes", {"ferocious_advancing": 1}, 16),
    ("grenade", figure("B1"), "", {"area_weapon": -1}, 14),
    ("rifle", figure("B1"), "rapid=yes", {"rapid_fire": -1}, 14),
    ("smg", figure("B1"), "", {"automatic": -2}, 13),
])
def test_unaimed_fire_modifiers(weapon, target, facts, expected, need):
    t = Table(red=[figure("R1", weapon=weapon)], blue=[target])
    n = 3 if weapon == "smg" else 1
    got = t.test("red", f"unaimed R1 at=B1 range=5 {facts} command=yes", [1] * n)
    assert mods(got) == expected and f"({need}+ needed)" in got["result"]


def test_fire_goes_in_order_of_troop_quality():
    t = Table(red=[figure("R1", "raw")], blue=[figure("B1", "gallant"), figure("B2")])
    t.test("red", "fire R1 at=B2 range=10 command=yes", [1])
    rule, why = t.refusal("blue", "fire B1 at=R1 range=10 command=yes")
    assert rule == "Sequence of Play" and "order of troop quality" in why


def test_after_a_manoeuvre_only_unaimed_fire_after_a_rush_none():
    t = Table(red=[figure("R1"), figure("R2")], blue=[figure("B1")], phase="movement")
    t.test("red", "move R1 mode=manoeuvre command=yes", [1])
    t.test("red", "move R2 mode=rush command=yes", [1, 1])
    t.state.phase = 2
    assert t.refusal("red", "fire R1 at=B1 range=10 command=yes")[0] == "Movement"
    assert t.refusal("red", "unaimed R1 at=B1 range=10 command=yes") is None
    assert t.refusal("red", "unaimed R2 at=B1 range=10 command=yes")[0] == "Movement"


def test_after_an_assault_fire_only_with_both_within_six_inches():
    """Movement, Assault: Fire? "Yes if both within 6""."""
    t = Table(red=[figure("R1"), figure("R2")], blue=[figure("B1")], phase="movement")
    t.test("red", "move R1 mode=assault command=yes", [3])
    t.state.phase = 2
    rule, why = t.refusal("red", "fire R1 at=B1 range=7 command=yes")
    assert rule == "Movement" and 'both within 6"' in why
    assert t.refusal("red", "fire R1 at=B1 range=6 command=yes") is None


# ---------------------------------------------------------------- Hand-to-Hand Combat


@pytest.mark.parametrize("att,dfd,a_die,d_die,result", [
    (figure("R1"), figure("B1"), 5, 3, "B1 killed"),
    (figure("R1"), figure("B1"), 4, 3, "B1 pinned"),
    (figure("R1"), figure("B1"), 3, 3, "no result"),
    (figure("R1"), figure("B1"), 2, 3, "R1 pinned"),
    (figure("R1"), figure("B1"), 1, 3, "R1 killed"),
    (figure("R1", "gallant"), figure("B1"), 1, 3, "no result"),         # +2 Gallant
    (figure("R1", "ferocious"), figure("B1"), 1, 3, "no result"),       # +2 Ferocious
    (figure("R1", "veteran"), figure("B1"), 2, 3, "no result"),         # +1 Veteran
    (figure("R1"), figure("B1", "stubborn"), 4, 3, "no result"),        # +1 Stubborn
    (figure("R1", body_armour=True), figure("B1"), 2, 3, "no result"),  # +1 armour
])
def test_melee_scores_and_results(att, dfd, a_die, d_die, result):
    t = Table(red=[att], blue=[dfd], phase="movement")
    t.into_contact("red", "R1", at="B1")
    got = t.test("red", "melee B1 attackers=R1", [d_die, a_die])
    assert got["result"].endswith(result)


def test_a_second_attacker_adds_two_and_a_third_is_refused():
    # The card's contact_limited refuses the third move into contact already
    # (test_skirmish_contact_limited); a journal made before refused it at the melee.
    before = msgspec.structs.replace(ONE_STEP, melee=msgspec.structs.replace(
        ONE_STEP.melee, contact_limited=False))
    t = Table(red=[figure("R1"), figure("R2"), figure("R3")], blue=[figure("B1")],
              phase="movement", card=before)
    t.into_contact("red", "R1", "R2", "R3", at="B1")
    got = t.test("red", "melee B1 attackers=R1,R2", [3, 3, 1])
    assert mods(got) == {"second": 2}
    assert got["result"] == "R1 3 v B1 3: no result; R2 3 v B1 3: no result"
    rule, why = t.refusal("red", "melee B1 attackers=R3")
    assert rule == "Hand-to-Hand Combat" and "no more than 2" in why


def test_a_pinned_figure_fights_at_minus_two_and_only_the_bold_attack_pinned():
    t = Table(red=[figure("R1"), figure("R2", "stubborn")], blue=[figure("B1")],
              phase="movement")
    t.into_contact("red", "R1", "R2", at="B1")
    t.fig("R1").pins = t.fig("R2").pins = 1              # pinned by fire as they closed
    rule, why = t.refusal("red", "melee B1 attackers=R1")
    assert rule == "Hand-to-Hand Combat" and why.startswith("R1 is pinned: it halts 4\"")
    got = t.test("red", "melee B1 attackers=R2", [3, 4])     # 4 +1 Stubborn -2 pinned = 3
    assert mods(got) == {"steady": 1, "pinned": -2} and got["result"].endswith("no result")


def test_a_figure_that_rushed_cannot_attack():
    t = Table(red=[figure("R1")], blue=[figure("B1")], phase="movement")
    t.test("red", "move R1 mode=rush command=yes", [1, 1])
    t.state.phase = 3
    assert "rush into contact" in t.refusal("red", "melee B1 attackers=R1")[1]


def test_only_a_figure_that_moved_into_contact_attacks():
    """Hand-to-Hand Combat: "There are no charge moves ... only 'assault' or manoeuvre" go
    into contact. A figure that moved without contact=yes, or did not move, attacks no one;
    a manoeuvre into contact does (card.yaml melee.contact_move)."""
    t = Table(red=[figure("R1"), figure("R2"), figure("R3")], blue=[figure("B1")],
              phase="movement")
    t.test("red", "move R1 mode=manoeuvre command=yes", [3])
    t.into_contact("red", "R2", at="B1", mode="manoeuvre")
    for fid in ("R1", "R3"):
        assert t.refusal("red", f"melee B1 attackers={fid}") == (
            "Hand-to-Hand Combat", f"{fid} did not move into contact this turn: a new "
            f"attacker moves in by assault or manoeuvre, declaring contact=yes")
    assert t.refusal("red", "melee B1 attackers=R2") is None


def test_a_journal_made_before_contact_moves_took_any_attacker():
    """A game's card is in its journal's record 0: one made before contact_move replays its
    melees as played, an attacker with no move into contact taken."""
    old = msgspec.structs.replace(ONE_STEP, melee=msgspec.structs.replace(
        ONE_STEP.melee, contact_move=False))
    t = Table(red=[figure("R1")], blue=[figure("B1")], phase="melee", card=old)
    assert t.refusal("red", "melee B1 attackers=R1") is None


# ---------------------------------------------------------------- Morale


@pytest.mark.parametrize("quality,facts,need", [
    ("gallant", "", 2), ("veteran", "", 3), ("regular", "", 3), ("raw", "", 4),
    ("irregular", "", 4), ("ferocious", "advancing=yes", 2), ("ferocious", "", 4),
    ("stubborn", "defending=yes", 2), ("stubborn", "", 3)])
def test_morale_pass_numbers(quality, facts, need):
    t = Table(phase="morale", red_quality=quality)
    assert "passes" in t.test("red", f"morale R trigger=tank {facts}", [need])["result"]
    assert "fails" in t.test("red", f"morale R trigger=tank {facts}", [need - 1])["result"]


def test_first_second_and_third_failures():
    t = Table(red=[figure("R1")], blue=[figure("B1")], phase="morale")
    first = t.test("red", "morale R trigger=flamethrower", [1])
    assert "failure 1, carries on" in first["result"] and t.fig("R1").pins == 0
    second = t.test("red", "morale R trigger=tank", [1])
    assert "failure 2" in second["result"]
    assert t.fig("R1").pins == 1 and t.fig("R0").pins == 1
    t.fig("R1").pins = 0
    t.state.phase = 2
    assert t.refusal("red", "fire R1 at=B1 range=10 command=yes")[0] == "Morale"
    t.state.phase = 4
    third = t.test("red", "morale R trigger=tank", [1])
    assert "failure 3, disperses" in third["result"] and t.state.sections["R"].dispersed


def test_a_killed_figure_owes_one_morale_test_each():
    t = Table(red=[figure("R1")], blue=[figure("B1")], phase="fire")
    rule, why = t.refusal("red", "morale R trigger=killed")
    assert rule == "Sequence of Play"                       # not in the fire phase
    t.test("blue", "fire B1 at=R1 range=10 command=yes", [19])
    t.state.phase = 4
    assert t.refusal("red", "morale R trigger=killed") is None
    t.test("red", "morale R trigger=killed", [6])
    assert t.refusal("red", "morale R trigger=killed")[0] == "Morale"


# ---------------------------------------------------------------- Rallying, Unpinning


@pytest.mark.parametrize("quality,need", [
    ("gallant", 2), ("veteran", 2), ("ferocious", 2), ("stubborn", 3), ("regular", 3),
    ("raw", 5), ("irregular", 5)])
def test_rallying(quality, need):
    t = Table(phase="morale", red_quality=quality)
    t.state.sections["R"].failures = 2
    assert "does not rally" in t.test("red", "rally R", [need - 1])["result"]
    assert "rallies" in t.test("red", "rally R", [need], again=True)["result"]
    assert t.state.sections["R"].failures == 1


def test_a_unit_that_moved_cannot_rally():
    t = Table(phase="movement")
    t.state.sections["R"].failures = 1
    t.test("red", "move R0 mode=stealthy")
    t.state.phase = 4
    assert t.refusal("red", "rally R")[0] == "Rallying"


@pytest.mark.parametrize("quality,dice", [
    ("gallant", 4), ("ferocious", 4), ("veteran", 2), ("stubborn", 2), ("regular", 2)])
def test_removing_pins(quality, dice):
    t = Table(red=[figure("R1", quality)], phase="morale")
    t.fig("R1").pins = 3
    got = t.test("red", "unpin R1 command=yes", [5, 4, 6, 1][:dice] + [1] * (dice - 4))
    removed = sum(1 for v in [5, 4, 6, 1][:dice] if v >= 5)
    assert len(got["dice"]) == dice and t.fig("R1").pins == 3 - removed


def test_the_unpin_line_names_the_dice_the_score_and_the_pins_before():
    """"Roll a number of D6. 5-6 needed to remove one pin": the line says how many dice the
    quality rolls, the score each needs and the pins before, so it can be checked against
    the card (card unpin.told)."""
    t = Table(red=[figure("R1", "gallant")], phase="morale", card=ONE_STEP)
    t.fig("R1").pins = 2
    got = t.test("red", "unpin R1 command=yes", [5, 6, 1, 2])
    assert got["result"] == "R1 removes 2 of 2 pins, 0 left (Gallant: 4D6, each 5-6 " \
                            "removes one pin)"
    old = msgspec.structs.replace(ONE_STEP, unpin=msgspec.structs.replace(ONE_STEP.unpin,
                                                                          told=False))
    t = Table(red=[figure("R1", "raw")], phase="morale", card=old)
    t.fig("R1").pins = 1
    assert t.test("red", "unpin R1 command=yes", [6])["result"] == "R1 removes 1 pin(s), 0 left"


def test_unpinning_needs_motivation():
    t = Table(red=[figure("R1")], phase="morale")
    t.fig("R1").pins = 1
    assert t.refusal("red", "unpin R1 command=no")[0] == "Motivation"


# ---------------------------------------------------------------- Surrendering


def test_routing_troops_surrender_but_gallant_never():
    t = Table(red=[figure("R1"), figure("R2", "gallant")], phase="morale")
    assert t.refusal("red", "surrender R reason=routing between=yes within=6")[0] == \
        "Surrendering"                                     # not routing yet
    t.state.sections["R"].failures = 2
    far = t.test("red", "surrender R reason=routing between=yes within=7")
    assert far["result"] == "no surrender"
    got = t.test("red", "surrender R reason=routing between=yes within=6")
    assert t.fig("R1").surrendered and not t.fig("R2").surrendered
    assert "R2 never surrender" in got["result"]


def test_a_figure_in_melee_surrenders_to_four_enemies_closer_than_its_friends():
    """Its owner's order and the enemy's claim are checked alike (card
    surrender.melee_checked): a figure in no melee is refused for both, and "no surrender"
    says the number the card asks."""
    t = Table(red=[figure("R1")], blue=[figure("B1")], phase="movement")
    for side in ("red", "blue"):
        assert t.refusal(side, "surrender R1 reason=melee enemies=4 closer=yes") == (
            "Surrendering", "R1 is in no melee: a figure surrenders for reason=melee in a "
                            "melee only")
    t.into_contact("red", "R1", at="B1")
    t.test("red", "melee B1 attackers=R1", [3, 3])          # a tie: both fight on
    assert t.test("red", "surrender R1 reason=melee enemies=3 closer=yes")["result"] == \
        "no surrender (3 enemies near, closer than its friends: the card asks 4 or more, " \
        "closer)"
    t.test("red", "surrender R1 reason=melee enemies=4 closer=yes")
    assert t.fig("R1").surrendered


def test_a_journal_made_before_took_the_owner_s_surrender_of_a_figure_in_no_melee():
    old = msgspec.structs.replace(ONE_STEP, surrender=msgspec.structs.replace(
        ONE_STEP.surrender, melee_checked=False))
    t = Table(red=[figure("R1")], phase="melee", card=old)
    assert t.test("red", "surrender R1 reason=melee enemies=3 closer=yes")["result"] == \
        "no surrender"
    t.test("red", "surrender R1 reason=melee enemies=4 closer=yes")
    assert t.fig("R1").surrendered


# ---------------------------------------------------------------- Sequence of Play


def test_the_sequence_of_play_runs_when_both_sides_are_done():
    t = Table(red=[figure("R1")], blue=[figure("B1")], phase="movement")
    phases = []
    for _ in range(5):
        phases.append(t.state.phase)
        t.test("red", "done")
        assert t.refusal("red", "done") is not None
        t.test("blue", "done")
    assert phases == [0, 1, 2, 3, 4] and t.state.turn == 2 and t.state.phase == 0
    rule, why = t.refusal("red", "fire R1 at=B1 range=10 command=yes")
    assert rule == "Sequence of Play" and "fire" in why


def test_figures_in_melee_cannot_shoot_nor_be_shot_and_a_contact_move_cannot_shoot():
    t = Table(red=[figure("R1"), figure("R2"), figure("R3")],
              blue=[figure("B1"), figure("B2")], phase="movement")
    t.test("red", "move R3 mode=assault contact=yes at=B1 command=yes", [2])
    t.state.phase = 2
    assert "moved into contact" in t.refusal("red", "fire R3 at=B2 range=2 command=yes")[1]
    t.state.phase = 3
    t.test("red", "melee B1 attackers=R3", [3, 3])
    t.state.phase = 2
    assert "B1 is in melee" in t.refusal("red", "fire R2 at=B1 range=10 command=yes")[1]
    assert "R3 is in melee" in t.refusal("red", "fire R3 at=B2 range=10 command=yes")[1]


def test_the_leader_trigger_needs_a_leader_killed_this_turn():
    t = Table(red=[figure("R1")], blue=[figure("B1")])
    t.state.phase = 4
    assert "no platoon commander" in t.refusal("red", "morale R trigger=leader")[1]
    t.state.phase = 2
    t.test("blue", "fire B1 at=R0 range=10 command=yes", [18])
    t.state.phase = 4
    assert t.refusal("red", "morale R trigger=leader") is None


def test_a_dispersed_section_takes_no_more_tests():
    """Red keeps a platoon commander outside the section, so the game goes on."""
    from referee.table.skirmish.state import FigureState

    t = Table(red=[figure("R1")], blue=[figure("B1")], phase="morale")
    t.state.figures["RC"] = FigureState("RC", "red", None, "regular", "pistol",
                                        "platoon_commander", False, False)
    t.state.sections["R"].failures = 2
    t.test("red", "morale R trigger=tank", [1])
    assert t.refusal("red", "unpin R1 command=yes")[0] == "Morale"


def test_a_game_over_takes_no_more_tests():
    """Red's only section dispersed, red has no figure left fighting: the skirmish is over,
    and neither side's order is taken any more (its `done` neither)."""
    t = Table(red=[figure("R1")], blue=[figure("B1")], phase="morale")
    t.state.sections["R"].failures = 2
    t.test("red", "morale R trigger=tank", [1])
    for side, order in (("red", "unpin R1 command=yes"), ("blue", "done"), ("red", "done")):
        assert t.refusal(side, order) == ("Sequence of Play", "the game is over: a side has "
                                                              "no figure left fighting"), order


def test_the_opening_counts_every_compelled_test():
    """Two figures of section B killed this turn owe the same morale test twice over (the
    card: a test for each figure of the section killed this turn): the mail's opening says
    both are owed, as the report below it lists two, and names the test once."""
    from referee.table.skirmish.asking import compelled

    assert compelled(["morale B trigger=killed", "morale B trigger=killed"]) == \
        " Before your done, the card compels 2 tests: morale B trigger=killed twice."
    assert compelled(["morale B trigger=killed"] * 3 + ["morale C trigger=killed"]) == \
        " Before your done, the card compels 4 tests: morale B trigger=killed 3 times; " \
        "morale C trigger=killed."
    assert compelled(["morale B trigger=killed"]) == \
        " Before your done, the card compels: morale B trigger=killed."
    assert compelled([]) == ""
