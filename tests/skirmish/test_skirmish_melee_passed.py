"""A melee phase with no figure in contact is passed over (card melee_passed_over), as a
fire step with no figure fit to fire is: no side is asked for a done in it, and the mail
that ends the fire phase asks for the morale phase. A figure in contact keeps the phase."""

from __future__ import annotations

import json

import msgspec
import pytest
from skirmish_cases import CARD, Table, figure, said_done


def _status(cli, j) -> dict:
    return json.loads(cli("status", j, "--format", "json").stdout)


def _done_until_morale(cli, j, owed: str | None = None) -> list[str]:
    """Both sides say done from turn 1's movement on, until the morale phase: the phases
    they were asked in (the British fighting the melee owed first, when one is)."""
    asked = []
    while (now := _status(cli, j))["phase"] != "morale":
        asked.append(now["phase"])
        if owed and now["phase"] == "melee" and now["owed"].get("british"):
            r = cli("order", j, "--as", "british", owed)
            assert r.exit_code == 0, r.output
            continue
        r = said_done(cli, j, now["waiting_on"][0])
        assert r.exit_code == 0, r.output
    return asked


def test_with_no_figure_in_contact_the_melee_phase_is_passed_over(cli, patrol):
    asked = _done_until_morale(cli, patrol)
    assert "melee" not in asked and asked[-1] == "fire", asked
    report = cli("skirmish", "report", patrol, "--as", "british").stdout
    # Named only as passed over, as the off-table artillery phase is.
    passed = "No figure in contact this turn: its melee phase was passed over\n"
    assert passed in report, report
    report = report.replace(passed, "")
    assert "turn 1, morale phase" in report and "melee phase" not in report, report
    assert cli("verify", patrol).exit_code == 0


def test_a_figure_moved_into_contact_keeps_the_melee_phase(cli, patrol):
    r = cli("order", patrol, "--as", "british",
            "move B2 mode=assault contact=yes at=G1 command=yes")
    assert r.exit_code == 0, r.output
    assert "melee" in _done_until_morale(cli, patrol, "melee G1 attackers=B2")


def test_a_melee_of_an_earlier_turn_keeps_the_phase():
    """Figures held in contact since an earlier turn's melee fight again: the phase waits."""
    t = Table(red=[figure("R1")], blue=[figure("B1")], phase="fire", card=CARD)
    t.state.contacts = [{"defender": "B1", "attackers": ["R1"], "turn": 0}]
    t.until("melee")
    assert t.card.sequence[t.state.phase].phase == "melee"


def test_a_journal_made_before_waits_in_an_empty_melee_phase():
    """A card without melee_passed_over (a journal made before) asks both sides for their
    done in it; this card never comes to it."""
    old = msgspec.structs.replace(CARD, melee_passed_over=False)
    t = Table(red=[figure("R1")], blue=[figure("B1")], phase="fire", card=old)
    t.until("melee")
    assert (t.state.turn, t.state.done) == (1, [])
    t = Table(red=[figure("R1")], blue=[figure("B1")], phase="fire", card=CARD)
    with pytest.raises(AssertionError, match="never reached melee"):
        t.until("melee")
