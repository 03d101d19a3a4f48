"""Card, Morale: "Ferocious troops count as Gallant if advancing ... Stubborn troops count as
Gallant if defending trench or building". A morale order declares only the facts its
section's line of the table reads (card.yaml `morale.facts_read`), as fire declares only
those its table reads: advancing= a Ferocious section's, defending= a Stubborn one's."""

from __future__ import annotations

import msgspec
from skirmish_cases import CARD, Table, figure


def _killed(red_quality: str, card=CARD) -> Table:
    """Red's section R, of red_quality, in the morale phase."""
    return Table(red=[figure("R1", red_quality)], blue=[figure("B1")], phase="morale",
                 red_quality=red_quality, card=card)


def test_a_fact_no_line_of_the_section_reads_is_refused():
    t = _killed("regular")
    assert t.refusal("red", "morale R trigger=tank advancing=yes defending=yes") == (
        "Morale", "advancing=yes: only a section the morale table rates by it reads it "
                  "(Ferocious counts as Gallant if advancing), and section R is regular")
    t = _killed("ferocious")
    assert t.refusal("red", "morale R trigger=tank defending=yes") == (
        "Morale", "defending=yes: only a section the morale table rates by it reads it "
                  "(Stubborn counts as Gallant if defending), and section R is ferocious")


def test_the_fact_the_section_s_line_reads_is_taken():
    assert _killed("ferocious").refusal("red", "morale R trigger=tank advancing=yes") is None
    assert _killed("stubborn").refusal("red", "morale R trigger=tank defending=no") is None
    assert _killed("regular").refusal("red", "morale R trigger=tank") is None


def test_a_journal_made_before_records_such_a_fact_as_it_did():
    old = msgspec.structs.replace(CARD, morale=msgspec.structs.replace(CARD.morale,
                                                                       facts_read=False))
    t = _killed("regular", old)
    got = t.test("red", "morale R trigger=tank advancing=yes defending=yes", [6])
    assert got["facts"]["advancing"] is True and got["result"].startswith("section R passes")


def test_a_form_offers_only_the_facts_a_section_of_the_side_reads():
    from referee.table.skirmish.listed import forms
    t = _killed("regular")
    assert forms(CARD, t.state, "red", ["morale"])[0].endswith("trigger=killed|leader|tank|"
                                                               "flamethrower")
    assert forms(CARD, _killed("stubborn").state, "red", ["morale"])[0].endswith(
        "flamethrower defending=yes|no")
