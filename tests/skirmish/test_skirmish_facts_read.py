"""player.md: "An order takes only the facts its test reads". Some facts are read only for
some weapons or targets (card.yaml facts_read): `confined=` by an area weapon's aimed fire
("+3 if area weapon in confined space"), `dice=` by a weapon firing several dice (Weapon
Ranges: the LMG's 3/5, an SMG's 3; not a rifle's one die, nor a grenade's by the blast),
`advancing=` by unaimed fire at a Ferocious target ("+1 if target is Ferocious and
advancing"). Declared where nothing reads it, such a fact is refused in one line citing
the card's section, the journal unchanged, and a form offers it only to a side with a
figure that could use it."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
from skirmish_cases import ONE_STEP, Table, done_until, figure, mods

from referee.table.skirmish.listed import forms


def test_a_fact_the_weapon_or_target_cannot_use_is_refused():
    t = Table(red=[figure("R1"), figure("R2", weapon="grenade", role="bomber"),
                   figure("R3", weapon="lmg")],
              blue=[figure("B1"), figure("B2", "ferocious")])
    assert t.refusal("red", "fire R1 at=B1 range=20 state=moving confined=yes command=yes") \
        == ("Aimed Fire Modifiers", "confined=yes: only an area weapon's fire reads it, not a "
                                    "Rifle's")
    assert t.refusal("red", "fire R1 at=B1 range=10 confined=no command=yes")[0] == \
        "Aimed Fire Modifiers"
    assert t.refusal("red", "fire R1 at=B1 range=10 dice=1 command=yes") == (
        "Weapon Ranges", "dice=1: only a weapon firing several dice reads it (SMG 3, BAR 3, "
                         "LMG 3/5, HMG 5), not a Rifle")
    assert t.refusal("red", "fire R2 at=B1 range=5 dice=1 command=yes")[0] == "Weapon Ranges"
    assert t.refusal("red", "unaimed R1 at=B1 range=10 advancing=yes command=yes") == (
        "Unaimed Fire Modifiers", "advancing=yes: only fire at a Ferocious target reads it, "
                                  "and B1 is regular")
    assert t.refusal("red", "unaimed R1 at=B2 range=10 advancing=yes command=yes") is None
    assert t.refusal("red", "unaimed R3 at=B1 range=10 dice=5 command=yes") is None
    got = t.test("red", "fire R2 at=B1 range=5 confined=yes command=yes", [1])
    assert mods(got) == {"confined": 3, "bomber": 2}


def test_a_form_offers_only_the_facts_a_figure_of_the_side_could_use():
    t = Table(red=[figure("R1")], blue=[figure("B1")])
    fire, unaimed = forms(t.card, t.state, "red", ["fire", "unaimed"])
    assert fire == "fire FIGURE at=FIGURE range=N state=halted|stealthy|moving|emerging|" \
                   "firing cover=none|soft|hard command=yes|no"
    assert unaimed == "unaimed FIGURE at=FIGURE range=N cover=none|soft|hard rapid=yes|no " \
                      "command=yes|no"
    t = Table(red=[figure("R1", weapon="lmg"), figure("R2", weapon="grenade")],
              blue=[figure("B1", "ferocious")])
    fire, unaimed = forms(t.card, t.state, "red", ["fire", "unaimed"])
    assert "confined=yes|no" in fire and "dice=N" in fire, fire
    assert "advancing=yes|no" in unaimed and "dice=N" in unaimed, unaimed


def test_the_patrol_s_refusal_leaves_the_journal_as_it_was(cli, patrol):
    done_until(cli, patrol, "fire")
    before = patrol.read_bytes()
    r = cli("order", patrol, "--as", "british",
            "fire B3 at=G1 range=20 state=moving confined=yes command=yes")
    assert r.exit_code == 1, r.output
    assert r.stderr.strip().splitlines() == [
        "referee: order 'fire B3 at=G1 range=20 state=moving confined=yes command=yes' "
        "rejected: confined=yes: only an area weapon's fire reads it, not a Rifle's (rule "
        "Aimed Fire Modifiers)"], r.stderr
    assert patrol.read_bytes() == before
    german = cli("skirmish", "report", patrol, "--as", "german").stdout
    assert "advancing=" not in german and "confined=" not in german, german


def test_a_journal_made_before_records_such_a_fact_as_it_did():
    old = msgspec.structs.replace(ONE_STEP, facts_read=False)
    t = Table(red=[figure("R1")], blue=[figure("B1")], card=old)
    got = t.test("red", "fire R1 at=B1 range=20 state=moving confined=yes command=yes", [16])
    assert got["facts"]["confined"] is True and mods(got) == {}
    assert "confined=yes|no" in forms(t.card, t.state, "red", ["fire"])[0]


def _retargeted(cli, tmp_path, value: str) -> tuple[dict, Path]:
    """The British fire unaimed at G4 (Ferocious: advancing=no recorded); the German
    dispute the target, and the moderator corrects it to value: the settled test, and the
    journal."""
    j = tmp_path / "m.jsonl"
    assert cli("new", j, "--game", "skirmish", "--scenario", "patrol", "--dice",
               "manual").exit_code == 0
    done_until(cli, j, "fire", step="regular")
    r = cli("order", j, "--as", "british", "unaimed B2 at=G4 range=20 command=yes", "--dice",
            "18", "--format", "json")
    assert r.exit_code == 0, r.stderr
    n = json.loads(r.stdout)["records"][0]["record"]
    assert cli("order", j, "--as", "german", f"dispute record={n} fact=at value={value}"
               ).exit_code == 0
    r = cli("order", j, "--as", "moderator", f"settle record={n} fact=at value={value}",
            "--format", "json")
    assert r.exit_code == 0, r.stderr
    return json.loads(r.stdout)["records"][0]["body"]["settle"]["test"], j


def test_a_target_corrected_away_from_a_ferocious_figure_is_decided_again(cli, tmp_path):
    """Corrected to G2: the test is decided again at G2, not voided for an advancing= G2
    cannot use."""
    test, j = _retargeted(cli, tmp_path, "G2")
    assert test["facts"] == {"at": ["G2"], "range": 20, "command": True, "cover": "none"}
    assert test["result"].startswith("G2 pinned"), test["result"]
    assert cli("verify", j).exit_code == 0


def test_a_void_test_shows_its_facts_as_corrected(cli, tmp_path):
    """Corrected to B3, their own figure: the test is void, and shows the facts it was
    decided on, without the advancing= B3 cannot use."""
    test, j = _retargeted(cli, tmp_path, "B3")
    assert test["result"].startswith("void"), test["result"]
    assert test["facts"] == {"at": ["B3"], "range": 20, "command": True, "cover": "none"}
    assert cli("verify", j).exit_code == 0
