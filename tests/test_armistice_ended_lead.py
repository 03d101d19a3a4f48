"""A proposal that ended without an answer (3.2: withdrawn; 2.0 VI: lapsed with its season)
is told near where the proposal was, in the Now section of the report: just after the
decision its reader owes, which a mail opens with (reports.report_lead), or first when he
owes none; to the side it was made to, and, lapsed, to the proposer. Told once, in the
report whose records ended it; not to the public, and not again after."""

from __future__ import annotations

from test_deadlines import new_game as mail_game
from test_mail_lead import _last_part_opening, _paragraphs
from test_mail_waiting_side import replying

import gamecalls as g
from casebook import new_game, position

LAPSED = "The German player's armistice proposal lapsed with the end of SUMMER 1918 (3.2, " \
         "2.0 VI): there is no proposal to answer now."
OWN_LAPSED = "Your armistice proposal lapsed with the end of SUMMER 1918 (3.2, 2.0 VI)."
WITHDRAWN = "The German player withdrew his armistice proposal in SUMMER 1918 (3.2): there " \
            "is no proposal to answer now."


def _game(tmp_path, orders):
    sc = position("1914", turn=17, player="entente", passes=1,
                  hands={"german": ["off-01"], "entente": ["off-03"]})
    journal = new_game(tmp_path, sc)
    for side, order in orders:
        r = g.submit(journal, side, [order])
        assert r.rejected is None, (order, r.rejected)
    return journal


def _now(cli, journal, reader: str, *since) -> str:
    r = cli("report", journal, "--as", reader, *since)
    assert r.exit_code == 0, r.output
    return _last_part_opening(r.stdout, "Now")


def _after_decision(cli, journal, reader: str) -> str:
    """The Now section's paragraph after the first, which is the decision the reader owes."""
    r = cli("report", journal, "--as", reader)
    assert r.exit_code == 0, r.output
    assert _last_part_opening(r.stdout, "Now").startswith("Your decision: "), r.stdout
    return _paragraphs(r.stdout.partition("\nNow\n---\n")[2])[1]


def test_a_lapsed_proposal_opens_both_sides_reports(tmp_path, cli):
    journal = _game(tmp_path, [("german", "propose armistice"), ("entente", "pass"),
                               ("entente", "end turn"), ("german", "done"),
                               ("entente", "done")])
    assert g.open_game(journal).state.armistice_ended["how"] == "lapsed"
    # The Entente owes his reinforcements (2.0 I): that decision first, the lapse just after
    # it; the German, who owes nothing now, reads it first.
    assert _after_decision(cli, journal, "entente") == LAPSED
    assert _now(cli, journal, "german") == OWN_LAPSED
    public = cli("report", journal, "--as", "public").stdout
    assert "lapsed" not in public, public
    # The next report, of no record that ended it, does not tell it again.
    assert "lapsed" not in cli("report", journal, "--as", "entente").stdout, "told twice"


def test_a_withdrawn_proposal_opens_the_report_of_the_side_it_was_made_to(tmp_path, cli):
    journal = _game(tmp_path, [("german", "propose armistice"), ("entente", "pass"),
                               ("german", "withdraw armistice")])
    assert _after_decision(cli, journal, "entente") == WITHDRAWN
    assert "withdrew" not in _now(cli, journal, "german")
    assert "withdrew" not in _now(cli, journal, "public")


def test_a_late_answer_to_a_proposal_withdrawn_since_is_told_it_is_gone(tmp_path, cli):
    """The Entente answers the mail that carried the proposal after the German withdrew it
    and the Entente's decision changed: his reply is stale and not applied, and it says too
    that the proposal was withdrawn, in the words his latest mail's refusal would give."""
    journal = mail_game(tmp_path, cli)
    assert g.submit(journal, "german", ["propose armistice"]).rejected is None
    answered = len(journal.read_text().splitlines()) - 1
    for order in ("withdraw armistice", "pass", "end turn"):
        assert g.submit(journal, "german", [order]).rejected is None, order
    before = journal.read_bytes()
    outcomes, replies = replying(tmp_path, journal, "entente", answered, "accept armistice")
    assert [o.status for o in outcomes] == ["stale"], outcomes
    [said] = [s for s in replies if "not applied" in s]
    assert "reply to the latest mail" in said, said
    assert "Line 1 ('accept armistice') would not be applied to the latest mail either: " \
           "there is no armistice proposal from the other side to answer: the German player " \
           "withdrew his proposal in SUMMER 1914 (rule 3.2)." in said, said
    assert journal.read_bytes() == before
