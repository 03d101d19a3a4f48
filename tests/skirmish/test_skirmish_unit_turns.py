"""Movement (alternate units), card unit_turns: a unit's turn ends when the other side moves
a unit after it, so a later move of a figure of it is refused in one line; both sides'
mails say the same of who moves next, and the side waiting is told the unit it waits on."""

from __future__ import annotations

import msgspec
from skirmish_cases import CARD, Table, figure


def _order(cli, j, side: str, text: str):
    return cli("order", j, "--as", side, text)


def _asked(cli, j, side: str) -> str:
    report = cli("skirmish", "report", j, "--as", side).stdout
    return " ".join(report.split("Report for")[0].split())


def test_a_section_moves_no_more_once_the_other_side_moved_a_unit_after_it(cli, patrol):
    """Turn 2 of the tester's patrol: B5 and B2 of section B move, G4 and G3 of section G;
    B1 of section B is then refused, citing the card's line."""
    for side, text in (("british", "move B5 mode=stealthy command=yes"),
                       ("british", "move B2 mode=stealthy command=yes")):
        assert _order(cli, patrol, side, text).exit_code == 0
    both = {s: _asked(cli, patrol, s) for s in ("british", "german")}
    said = "(units move in turn: a German unit next; until it moves, the British side may " \
           "finish moving section B)"
    assert all(said in text for text in both.values()), both
    for text in ("move G4 mode=stealthy command=yes", "move G3 mode=stealthy command=yes"):
        assert _order(cli, patrol, "german", text).exit_code == 0
    r = _order(cli, patrol, "british", "move B1 mode=stealthy command=yes")
    assert r.exit_code == 1 and r.stderr.count("\n") == 1, r.output
    assert "Movement (alternate units)" in r.stderr and "section B's turn ended" in r.stderr
    assert cli("verify", patrol).exit_code == 0


def test_the_side_waiting_is_told_the_unit_it_waits_on():
    """Red (first) has begun R and has no figure of it left to move: Blue's unit is next,
    and the words are the same to both."""
    t = Table(red=[figure("R1")], blue=[figure("B1")], phase="movement", card=CARD)
    t.test("red", "move R0 mode=stealthy", [])
    t.test("red", "move R1 mode=stealthy command=yes", [])
    from referee.table.skirmish.listed import move_turn_words, waits_turn
    words = {s: move_turn_words(CARD, t.state, s) for s in ("red", "blue")}
    assert words == {"red": " (units move in turn: a Blue unit next)",
                     "blue": " (units move in turn: a Blue unit next)"}, words
    assert waits_turn(CARD, t.state, "red")


def test_a_journal_made_before_moves_a_begun_section_again():
    old = msgspec.structs.replace(CARD, unit_turns=False)
    for card, refused in ((old, False), (CARD, True)):
        t = Table(red=[figure("R1"), figure("R2")], blue=[figure("B1")], phase="movement",
                  card=card)
        t.test("red", "move R1 mode=stealthy command=yes", [])
        t.test("blue", "move B1 mode=stealthy command=yes", [])
        got = t.refusal("red", "move R2 mode=stealthy command=yes")
        assert (got is not None) == refused, (card.unit_turns, got)
        if refused:
            assert got[0] == "Movement (alternate units)"
