"""What a skirmish's orders may not slip past the referee: `done` that names a figure or
facts, the same fact disputed twice (while the first dispute is open, or once it is
settled), and a claimed value the disputed fact could not take. Each is refused in one
line (exit 1) and nothing is written."""

from __future__ import annotations

import json

import pytest
from skirmish_cases import done_until
from test_skirmish_kind import played  # noqa: F401 - the fixture: the British moved B2


def refused(cli, j, side: str, text: str) -> str:
    before = j.read_bytes()
    r = cli("order", j, "--as", side, text)
    assert r.exit_code == 1, (text, r.stdout, r.stderr)
    (line,) = r.stderr.strip().splitlines()
    assert j.read_bytes() == before
    return line


@pytest.mark.parametrize("text,why", [
    ("done B7", "names no figure and no fact"),
    ("done at=G1,G2 record=9999", "at=: done does not read it (it takes no fact)"),
    ("done G1", "names no figure and no fact")])
def test_done_names_no_figure_and_no_fact(cli, played, text, why):  # noqa: F811
    j, _ = played
    assert why in refused(cli, j, "german", text)
    assert cli("order", j, "--as", "german", "done").exit_code == 0


def test_a_fact_is_disputed_once_and_settled_stays_settled(cli, played):  # noqa: F811
    """A fact the moderator has ruled on is closed: a second dispute of it, with the same
    value or another, is refused in one line, and he is not asked again."""
    j, _ = played
    r = cli("order", j, "--as", "german", "dispute record=1 fact=mode value=rush")
    assert r.exit_code == 0, r.stderr
    assert "disputed already" in refused(cli, j, "german",
                                         "dispute record=1 fact=mode value=stealthy")
    r = cli("order", j, "--as", "moderator", "settle record=1 uphold=yes")
    assert r.exit_code == 0, r.stderr
    for value in ("rush", "stealthy"):
        line = refused(cli, j, "german", f"dispute record=1 fact=mode value={value}")
        assert line.endswith("record 1's mode is settled: the moderator has ruled on its "
                             "dispute, and a fact is disputed once (rule Disputes)"), line
    r = cli("order", j, "--as", "german", "dispute record=1 fact=command value=no")
    assert r.exit_code == 0, r.stderr                      # another fact of it may be


def test_a_claimed_value_is_one_the_fact_could_take(cli, played):  # noqa: F811
    j, _ = played
    assert "yes or no" in refused(cli, j, "german", "dispute record=1 fact=command value=maybe")
    r = cli("order", j, "--as", "german", "spot G1 at=B1 range=30 light=day state=halted "
            "cover=soft", "--format", "json")
    assert r.exit_code == 0, r.stderr
    (made,) = json.loads(r.stdout)["records"]
    assert made["body"]["test"]["facts"]["range"] == 30
    n = made["record"]
    assert "not a whole number" in refused(cli, j, "british",
                                           f"dispute record={n} fact=range value=far")
    r = cli("order", j, "--as", "british", f"dispute record={n} fact=range value=40")
    assert r.exit_code == 0, r.stderr


def test_a_claimed_word_or_figure_is_one_of_the_card_or_the_game(cli, played):  # noqa: F811
    """A claimed mode is one of the card's movement modes; a claimed target is a figure of
    the game, spelt as the forces spell it whatever its case, also when the moderator
    corrects it."""
    j, _ = played
    assert "the card's words for mode" in refused(cli, j, "german",
                                                  "dispute record=1 fact=mode value=banana")
    r = cli("order", j, "--as", "german", "spot G1 at=B1 range=30 light=day state=halted "
            "cover=soft", "--format", "json")
    (made,) = json.loads(r.stdout)["records"]
    n = made["record"]
    assert "'zz' is no figure of the game" in refused(cli, j, "british",
                                                      f"dispute record={n} fact=at value=zz")
    assert cli("order", j, "--as", "british", f"dispute record={n} fact=at value=b2"
               ).exit_code == 0
    r = cli("order", j, "--as", "moderator", f"settle record={n} fact=at value=b2",
            "--format", "json")
    assert r.exit_code == 0, r.stderr
    ruling = json.loads(r.stdout)["records"][0]["body"]["settle"]
    assert ruling["value"] == ["B2"] and ruling["test"]["facts"]["at"] == ["B2"]
    assert not ruling["test"]["result"].startswith("void"), ruling["test"]["result"]


def test_a_settle_in_a_later_turn_leaves_that_turn_s_kills_alone(cli, tmp_path):
    """Turn 1: the German's aimed fire kills B1 (D20 18, "18+ killed" on the card's Aimed
    Fire table); the British dispute the cover. Turn 2: G5 kills B2, then the moderator
    rules B1 was in hard cover ("-2 target in hard cover": 16, pinned), so B1 lives. B2's
    death is still this turn's: the section owes its morale test ("each figure killed")
    and may take it, and B1's kill no longer counts anywhere."""
    j = tmp_path / "m.jsonl"
    assert cli("new", j, "--game", "skirmish", "--scenario", "patrol", "--dice",
               "manual").exit_code == 0

    def order(side, text, *dice):
        r = cli("order", j, "--as", side, text, *(("--dice", ",".join(dice)) if dice else ()))
        assert r.exit_code == 0, (text, r.stderr)

    done_until(cli, j, "fire")                  # movement (no artillery: passed over)
    order("german", "fire G5 at=B1 range=10 state=halted cover=none command=yes", "18")
    order("british", "dispute record=3 fact=cover value=hard")
    done_until(cli, j, "morale")                                 # fire, melee
    order("british", "morale B trigger=killed", "6")             # owed for B1, passed
    done_until(cli, j, "fire", turn=2)                # morale; turn 2's movement
    order("german", "fire G5 at=B2 range=10 state=halted cover=none command=yes", "18")
    order("moderator", "settle record=3 fact=cover value=hard")
    done_until(cli, j, "morale", turn=2)                         # fire, melee
    order("british", "morale B trigger=killed", "6")
    doc = json.loads(cli("skirmish", "report", j, "--format", "json").stdout)
    state = {f["id"]: (f["state"], f["pins"]) for f in doc["figures"]}
    assert state["B1"] == ("active", 1) and state["B2"] == ("killed", 0)
    assert [s["killed"] for s in doc["sections"] if s["id"] == "B"] == [1]
    r = cli("order", j, "--as", "british", "morale B trigger=killed", "--dice", "6")
    assert r.exit_code == 1 and "taken a test for each" in r.stderr    # one death, one test
    assert "section B has 1 figure killed this turn" in " ".join(r.stderr.split()), r.stderr


@pytest.mark.parametrize("text", ["settle record=1 fact=command value=no",
                                  "settle record=1 fact=mode"])
def test_a_correction_names_the_disputed_fact_and_a_value(cli, played, text):  # noqa: F811
    """The moderator corrects what was disputed, nothing else: another fact of the test, or
    no value, is refused and nothing recorded."""
    j, _ = played
    assert cli("order", j, "--as", "german",
               "dispute record=1 fact=mode value=rush").exit_code == 0
    assert "the disputed fact" in refused(cli, j, "moderator", text)


def test_a_dispute_of_a_yes_or_no_fact_is_told_in_yes_and_no(cli, played):  # noqa: F811
    """The report tells a dispute of command= in the words the orders use: 'declared yes,
    claimed no', then 'corrected to no'; not Python's True and False."""
    j, _ = played
    assert cli("order", j, "--as", "german",
               "dispute record=1 fact=command value=no").exit_code == 0
    told = cli("skirmish", "report", j).stdout
    assert "command declared yes, claimed no — open" in told, told
    assert cli("order", j, "--as", "moderator",
               "settle record=1 fact=command value=no").exit_code == 0
    told = cli("skirmish", "report", j).stdout
    assert "command declared yes, claimed no — corrected to no" in told, told
    assert "True" not in told and "False" not in told, told


def test_a_correction_settles_its_own_fact_and_keeps_the_earlier_one(cli, played):  # noqa: F811
    """Two facts of one test disputed: the moderator's correction of one settles that one,
    not the other too ('command ... corrected to rush' read the second); the other he
    settles next, on the test as the first correction left it; settled, neither is disputed
    again."""
    j, _ = played
    for text in ("dispute record=1 fact=mode value=rush",
                 "dispute record=1 fact=command value=no"):
        assert cli("order", j, "--as", "german", text).exit_code == 0
    assert cli("order", j, "--as", "moderator",
               "settle record=1 fact=mode value=rush").exit_code == 0
    doc = json.loads(cli("skirmish", "report", j, "--format", "json").stdout)
    open_ = [d["fact"] for d in doc["disputes"] if "ruling" not in d]
    assert open_ == ["command"], doc["disputes"]
    told = " ".join(cli("skirmish", "report", j).stdout.split())
    assert "mode declared manoeuvre, claimed rush — corrected to rush" in told, told
    assert "command declared yes, claimed no — open" in told, told
    r = cli("order", j, "--as", "moderator", "settle record=1 fact=command value=no",
            "--format", "json")
    assert r.exit_code == 0, r.stderr
    ruling = json.loads(r.stdout)["records"][0]["body"]["settle"]
    assert ruling["test"]["facts"]["mode"] == "rush"          # the first correction stands
    assert ruling["test"]["facts"]["command"] is False
    for text in ("dispute record=1 fact=mode value=stealthy",
                 "dispute record=1 fact=command value=yes"):
        assert "is settled" in refused(cli, j, "german", text)
    doc = json.loads(cli("skirmish", "report", j, "--format", "json").stdout)
    assert all("ruling" in d for d in doc["disputes"]), doc["disputes"]
