"""A skirmish player's mailed report opens, as a campaign's does (tests/test_mail_lead.py),
with what he is asked now: his decision, or whom the turn waits on, wrapped at 72 columns;
then a blank line, then the line saying whose report it is and the report, unchanged, which
still ends with what he is asked and how to answer. A phone's list of mails shows the
first lines. The mails are read from the outbox `inbox` writes."""

from __future__ import annotations

import email
from email.policy import default

from flowtext import written
from test_skirmish_mail import BRITISH, GERMAN, UMPIRE, mail, mailed_patrol

PHASE = "turn 1, movement phase: the tests of the phase with the facts each side " \
        "declares, then done (Sequence of Play)."


def _bodies(out) -> dict[str, str]:
    """Each reader's mail in the outbox, its plain text, by address (one mail each)."""
    got = {}
    for p in out.glob("*.eml"):
        msg = email.message_from_bytes(p.read_bytes(), policy=default)
        assert str(msg["To"]) not in got
        got[str(msg["To"])] = written(msg.get_content())
    return got


def _lead(body: str, whose: str) -> str:
    """The paragraph above the line naming whose report it is, its lines joined; that
    line must follow it after a blank line."""
    above, found, _ = body.partition(f"\n\nReport for {whose}\n")
    assert found, body
    return " ".join(above.split("\n\n")[-1].split())


def test_a_skirmish_report_mail_opens_with_what_its_reader_is_asked_now(cli, tmp_path,
                                                                          secret_file):
    """The British sends his moves and done: the German's report opens with his decision,
    the moderator's with whom the turn waits on, and the British's answer (what his mail
    recorded first) carries his report opening with whom the turn waits on now."""
    j = tmp_path / "patrol.jsonl"
    keys = mailed_patrol(cli, j, secret_file, "--player", f"moderator={UMPIRE}")
    box, out = tmp_path / "mail", tmp_path / "out"
    box.mkdir()
    sent = mail(box, 1, BRITISH, keys["british"], "move B2 mode=manoeuvre command=yes", "done")
    assert cli("inbox", j, sent, "--outbox", out).exit_code == 0
    bodies = _bodies(out)
    german, umpire, british = bodies[GERMAN], bodies[UMPIRE], bodies[BRITISH]
    assert german.startswith("Your decision: turn 1, movement phase: the tests of the phase "
                             "with the\n")
    assert _lead(german, "the German player") == f"Your decision: {PHASE}"
    assert umpire.startswith("Waiting on the German player: turn 1, movement phase: the "
                             "tests of the\n")
    assert _lead(umpire, "the moderator") == f"Waiting on the German player: {PHASE}"
    assert british.startswith("Your mail was recorded: #1, #2\n#1 British: move B2")
    assert _lead(british, "the British player") == f"Waiting on the German player: {PHASE}"
    for body in bodies.values():     # what is asked is said once, at its top; its end
        assert " ".join(body.split()).count(PHASE) == 1, body   # says how to answer
        assert max(map(len, body.splitlines())) <= 72, body


def test_while_both_sides_move_each_mail_says_whose_unit_moves_next(cli, tmp_path,
                                                                     secret_file):
    """Units move in turn (Sequence of Play): once the British has moved a unit, the German
    moves one before the British may move another. Both mails say so at their top, and the
    German is not left to send a second British-turn move to learn it from a refusal."""
    j = tmp_path / "patrol.jsonl"
    keys = mailed_patrol(cli, j, secret_file)
    box, out = tmp_path / "mail", tmp_path / "out"
    box.mkdir()
    sent = mail(box, 1, BRITISH, keys["british"], "move B2 mode=manoeuvre command=yes")
    assert cli("inbox", j, sent, "--outbox", out).exit_code == 0
    bodies = _bodies(out)
    next_german = ("turn 1, movement phase (units move in turn: a German unit next; until "
                   "it moves, the British side may finish moving section B): the tests of "
                   "the phase")
    assert _lead(bodies[GERMAN], "the German player").startswith(
        f"Your decision: {next_german}"), bodies[GERMAN]
    # The British, who may still move the rest of his section first, is told the same.
    assert _lead(bodies[BRITISH], "the British player").startswith(
        f"Your decision: {next_german}"), bodies[BRITISH]
    # The German moves a unit: section B has had its turn, and the British has no other to
    # begin, so the German may finish his; once one says done, no turn.
    sent = mail(box, 2, GERMAN, keys["german"], "move G2 mode=stealthy command=yes")
    assert cli("inbox", j, sent, "--outbox", tmp_path / "out2").exit_code == 0
    # The British is told too that his section's move is over, and whom he may still move.
    for side, more in ((GERMAN, ")"), (BRITISH, "; your section B's move is over: of your "
                                                "figures only B0 may still move)")):
        assert "(units move in turn: the German side may finish moving section G, then " \
            f"done{more}" in " ".join(_bodies(tmp_path / "out2")[side].split())
    sent = mail(box, 3, BRITISH, keys["british"], "done")
    assert cli("inbox", j, sent, "--outbox", tmp_path / "out3").exit_code == 0
    assert "units move in turn" not in _bodies(tmp_path / "out3")[GERMAN]


def test_an_answer_names_each_record_the_mail_made_also_a_done_and_a_dispute(cli, tmp_path,
                                                                            secret_file):
    """The answer's first line numbers every record the mail made: each is named under it
    in a few words, a done (the phase, and the fire step, it ended for the side) and a
    dispute as well as a test, so that "#4" is never left unsaid."""
    j = tmp_path / "patrol.jsonl"
    keys = mailed_patrol(cli, j, secret_file)
    box = tmp_path / "mail"
    box.mkdir()
    sent = mail(box, 1, BRITISH, keys["british"], "move B2 mode=manoeuvre command=yes", "done")
    assert cli("inbox", j, sent, "--outbox", tmp_path / "out1").exit_code == 0
    british = _bodies(tmp_path / "out1")[BRITISH]
    assert british.startswith("Your mail was recorded: #1, #2\n#1 British: move B2"), british
    assert "\n#2 British: done (turn 1, movement phase)\n" in british, british
    sent = mail(box, 2, GERMAN, keys["german"], "move G2 mode=manoeuvre command=yes", "done")
    assert cli("inbox", j, sent, "--outbox", tmp_path / "out2").exit_code == 0
    sent = mail(box, 3, BRITISH, keys["british"], "dispute record=3 fact=mode value=rush",
                "done")
    assert cli("inbox", j, sent, "--outbox", tmp_path / "out3").exit_code == 0
    british = _bodies(tmp_path / "out3")[BRITISH]
    assert british.startswith("Your mail was recorded: #5, #6\n#5 British: dispute "
                              "record=3 fact=mode value=rush\n#6 British: done (turn 1, "
                              "fire phase, gallant and veteran figures)\n"), british
