"""Card, Unaimed Fire Modifiers: "-1 ... 1914 British using rapid fire". The -1 and the
fact that claims it (`rapid=`) belong to the sides a scenario names as 1914 British
(`british_1914`); the sample patrol, set in 1916 or later, names none. A `rapid=yes` of
another side is refused in one line citing the card's section, and its unaimed fire's
form leaves the fact out. A scenario without the field, as in every journal made before
it, lets any side declare it, as it always could."""

from __future__ import annotations

from skirmish_cases import Table, done_until, figure, mods
from test_skirmish_scenario_file import RAID

from referee.table.skirmish.listed import forms

RAPID = "unaimed G5 at=B1 range=30 rapid=yes command=yes"


def test_the_patrol_s_sides_may_not_use_rapid_fire(cli, patrol):
    done_until(cli, patrol, "fire")
    before = patrol.read_bytes()
    r = cli("order", patrol, "--as", "german", RAPID)
    assert r.exit_code == 1, r.output
    assert "rapid fire is the 1914 British's, and the German side is none in this " \
           "scenario: declare rapid=no, or leave it out (rule Unaimed Fire Modifiers)" \
           in " ".join(r.stderr.split()), r.stderr
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert patrol.read_bytes() == before
    for side, fierce in (("german", False), ("british", True)):   # G4, G6 are Ferocious
        text = cli("skirmish", "report", patrol, "--as", side).stdout
        unaimed = next(x for x in text.split("\n  ") if x.startswith("unaimed FIGURE"))
        assert "rapid=" not in unaimed, unaimed
        assert ("advancing=yes|no" in unaimed) is fierce, unaimed
    r = cli("order", patrol, "--as", "german", RAPID.replace("rapid=yes", "rapid=no"))
    assert r.exit_code == 0, r.output


def test_a_1914_british_side_alone_fires_rapid_with_its_minus_one():
    t = Table(red=[figure("R1")], blue=[figure("B1")])
    t.state.rapid = ["blue"]
    got = t.test("blue", "unaimed B1 at=R1 range=20 rapid=yes command=yes", [1])
    assert mods(got) == {"rapid_fire": -1}
    assert t.refusal("red", "unaimed R1 at=B1 range=20 rapid=yes command=yes")[0] == \
        "Unaimed Fire Modifiers"
    assert t.refusal("red", "unaimed R1 at=B1 range=20 rapid=no command=yes") is None
    blue, red = (forms(t.card, t.state, s, ["unaimed"])[0] for s in ("blue", "red"))
    assert "rapid=yes|no" in blue and "rapid=" not in red, (blue, red)
    t.state.rapid = None                   # a scenario that does not say: any side
    assert t.refusal("red", "unaimed R1 at=B1 range=20 rapid=yes command=yes") is None


def test_a_scenario_naming_a_1914_british_side_it_has_not_is_refused(cli, tmp_path):
    (tmp_path / "bad.yaml").write_text(RAID.replace(
        "first: german\n", "first: german\nbritish_1914: [french]\n"), encoding="utf-8")
    j = tmp_path / "bad.jsonl"
    r = cli("new", j, "--game", "skirmish", "--scenario", tmp_path / "bad.yaml")
    assert r.exit_code == 3 and not j.exists(), r.output
    assert "'french' is not one of the sides (british, german) (at british_1914[0])" \
        in r.stderr, r.stderr
    (tmp_path / "raid.yaml").write_text(RAID.replace(
        "first: german\n", "first: german\nbritish_1914: [british]\n"), encoding="utf-8")
    r = cli("new", j, "--game", "skirmish", "--scenario", tmp_path / "raid.yaml")
    assert r.exit_code == 0, r.output
