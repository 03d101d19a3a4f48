"""An armistice proposal is taken back by mail as by the command line (3.2): the German's
'withdraw armistice' is read and applied like any order, beside the decision he is asked;
the Entente's report then asks him no answer and his orders open hold no 'accept armistice'."""

from __future__ import annotations

import json

from test_deadlines import new_game, player_mail
from test_mail_lead import _paragraphs, _reports


def test_a_proposal_withdrawn_by_mail_is_offered_the_other_side_no_more(tmp_path, cli, clock):
    journal = new_game(tmp_path, cli, "--deadline", "48h")
    _reports(tmp_path, journal)
    assert cli("order", journal, "--as", "german", "propose armistice").exit_code == 0
    german = _paragraphs(_reports(tmp_path, journal, 1)["german"])
    assert ("Your armistice proposal waits for the Entente player's answer (3.2); 'withdraw "
            "armistice' takes it back, and it lapses at the end of the season in which the "
            "Entente player is next asked for a decision (2.0 VI).") in german
    reports = _reports(tmp_path, journal, 2,
                       player_mail(tmp_path, "german", ["withdraw armistice"], 2))
    last = json.loads(journal.read_text().splitlines()[-1])
    assert last["actor"] == "german" and last["order"] == "withdraw armistice", last
    assert [e["type"] for e in last["events"]] == ["ArmisticeWithdrawn"], last
    flat = " ".join(reports["german"].split())
    assert "withdraw armistice" in flat and "Your message was not applied" not in flat, flat
    assert "Your armistice proposal waits" not in flat, flat
    # Where the proposal was: the mail opens with it (its lead), as it opened with the proposal.
    assert _paragraphs(reports["entente"])[0].startswith(
        "The German player withdrew his armistice proposal in "), reports["entente"]
    entente = " ".join(reports["entente"].split())
    assert "The German player withdraws his armistice proposal (3.2)" in entente, entente
    assert "proposes an armistice (3.2):" not in entente, entente
    status = cli("status", journal, "--as", "entente", "--all").stdout
    assert "accept armistice" not in status and "refuse armistice" not in status, status
    assert "propose armistice" in status, status
    r = cli("order", journal, "--as", "entente", "accept armistice")
    assert r.exit_code == 1 and "no armistice proposal from the other side" in r.stderr, r.stderr
