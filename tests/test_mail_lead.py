"""A report mail's first lines say what it asks of its reader now, above the title every
report of a season shares (mail/refusal.lead_lines): a phone's list of mails shows them.
They are the report's own words, the first paragraph of its last part ("Now", or "The game
is over"), with the first sentence of the reader's deadline line when he owes orders."""

from __future__ import annotations

from datetime import UTC, datetime

from mailboxes import write_maildir
from test_deadlines import (
    ADDRESSES,
    DUE_WORDS,
    mails,
    new_game,
    player_mail,
    text_of,
)

from referee.mail.inbox import inbox as mail_inbox


def _paragraphs(text: str) -> list[str]:
    return [" ".join(p.split()) for p in text.split("\n\n") if p.strip()]


def _last_part_opening(text: str, title: str) -> str:
    """The first paragraph of the report's part of that title, its lines joined."""
    _, _, after = text.partition(f"\n{title}\n{'-' * len(title)}\n")
    assert after, text
    return _paragraphs(after)[0]


def _reports(tmp_path, journal, n: int = 0, *boxes) -> dict[str, str]:
    """One inbox pass: the text of its last mail to each player, by side."""
    out = tmp_path / f"out{n}"
    mail_inbox(journal, [*boxes] or [write_maildir(tmp_path / f"empty{n}", [])], out,
               with_map=False)
    by_address = {str(m["To"]).casefold(): text_of(m) for m in mails(out)}
    return {side: by_address[address.casefold()] for side, address in ADDRESSES.items()
            if address.casefold() in by_address}


def test_the_side_asked_reads_his_decision_then_its_deadline_first(tmp_path, cli, clock):
    """1914 opens with the German player turn (2.0 II): the German is asked to play a card
    or pass (2.0 II.1), by the deadline the game's 48h give him."""
    journal = new_game(tmp_path, cli, "--deadline", "48h")
    german = _reports(tmp_path, journal)["german"]
    lead, title = _paragraphs(german)[:2]
    decision = _last_part_opening(german, "Now")
    assert decision.startswith("Your decision: ") and decision.endswith("(2.0 II.1)"), decision
    assert lead == f"{decision} {DUE_WORDS}.", lead
    assert title.startswith("TO THE LAST MAN! — report for the German player"), title
    assert german.split("\n")[0].startswith("Your decision: play an Offensive-type card")


def test_the_side_not_asked_reads_whom_the_game_waits_on_and_no_deadline(tmp_path, cli,
                                                                          clock):
    journal = new_game(tmp_path, cli, "--deadline", "48h")
    entente = _reports(tmp_path, journal)["entente"]
    lead, title = _paragraphs(entente)[:2]
    assert lead == _last_part_opening(entente, "Now"), lead
    assert lead.startswith("Waiting on the German player: ") and "due" not in lead, lead
    assert title.startswith("TO THE LAST MAN! — report for the Entente player"), title


def test_a_game_with_no_deadline_leads_with_the_decision_alone(tmp_path, cli, clock):
    journal = new_game(tmp_path, cli)
    german = _reports(tmp_path, journal)["german"]
    lead, title = _paragraphs(german)[:2]
    assert lead == _last_part_opening(german, "Now") and lead.startswith("Your decision: ")
    assert title.startswith("TO THE LAST MAN! — report for the German player"), title


def test_a_paused_game_leads_with_the_decision_once_it_resumes(tmp_path, cli, clock):
    """Paused, no orders are taken: the refusal of his mail says so, then what he will be
    asked once the game resumes, then the report; no deadline runs (none is given)."""
    journal = new_game(tmp_path, cli, "--deadline", "48h")
    clock(datetime(2026, 11, 24, 10, 0, tzinfo=UTC))
    assert cli("deadline", journal, "--pause").exit_code == 0
    german = _reports(tmp_path, journal, 1, player_mail(tmp_path, "german", ["pass"], 1))[
        "german"]
    said = _paragraphs(german)
    at = next(i for i, p in enumerate(said) if p.startswith("Your decision once the game "
                                                             "resumes: "))
    assert said[at - 1].endswith("What you will be asked once the game resumes is below."), said
    assert said[at] == _last_part_opening(german, "Now"), said[at]
    assert said[at + 1].startswith("TO THE LAST MAN! — report for the German player")
    assert "due" not in said[at]


def test_in_a_paused_game_the_side_not_asked_reads_first_that_it_is_paused(tmp_path, cli,
                                                                          clock):
    """The moderator pauses the game: the Entente, whom it does not wait on, reads in his
    first line that it is paused, not only that it waits on the German as ever: the lead of
    the few lines of news a pause sends him (mail/newsmail.py), no report."""
    journal = new_game(tmp_path, cli, "--deadline", "48h")
    _reports(tmp_path, journal)
    clock(datetime(2026, 11, 24, 10, 0, tzinfo=UTC))
    assert cli("deadline", journal, "--pause").exit_code == 0
    entente = _reports(tmp_path, journal, 1)["entente"]
    paused, lead = _paragraphs(entente)[:2]
    assert "\nNow\n---\n" not in entente and "\nBoard\n" not in entente, entente
    assert paused.startswith("The moderator paused the game: no orders are taken"), paused
    assert lead.startswith("Paused; once it resumes, waiting on the German player: play an "
                           "Offensive-type card"), lead


def test_after_a_surrender_both_lead_with_how_the_game_ended(tmp_path, cli, clock):
    """The German surrenders at Stalemate (VP 12, 3.1): the level counts one worse for him,
    a Marginal Entente Victory (3.3, its own example)."""
    journal = new_game(tmp_path, cli, "--deadline", "48h")
    _reports(tmp_path, journal)
    reports = _reports(tmp_path, journal, 1,
                       player_mail(tmp_path, "german", ["surrender"], 1))
    for side in ("german", "entente"):
        lead, title = _paragraphs(reports[side])[:2]
        assert lead == _last_part_opening(reports[side], "The game is over"), lead
        assert lead.endswith(": Marginal Entente Victory") and "(3.3)" in lead, lead
        assert title.startswith(f"TO THE LAST MAN! — report for the {side.title()} player")


def test_an_armistice_proposed_leads_the_mail_of_the_side_that_may_answer_it(tmp_path, cli,
                                                                             clock):
    """The German proposes an armistice (3.2): the Entente may agree at any time, and the game
    then ends at the present level, Stalemate at VP 12 (3.1). His mail leads with that ask,
    though the decision now is the German's; the German's says his proposal waits."""
    journal = new_game(tmp_path, cli, "--deadline", "48h")
    _reports(tmp_path, journal)
    assert cli("order", journal, "--as", "german", "propose armistice").exit_code == 0
    reports = _reports(tmp_path, journal, 1)
    lead, title = _paragraphs(reports["entente"])[:2]
    assert lead == _last_part_opening(reports["entente"], "Now"), lead
    assert lead == ("The German player proposes an armistice (3.2): 'accept armistice' ends "
                    "the game now, as a Stalemate; 'refuse armistice' plays on. You may answer "
                    "it at any time until the end of the season in which you are next asked for a "
                    "decision, when it lapses (2.0 VI)."), lead
    assert title.startswith("TO THE LAST MAN! — report for the Entente player"), title
    flat = " ".join(reports["entente"].split())
    assert "Nothing else is asked of you now." in flat and "Nothing is asked" not in flat
    german = _paragraphs(reports["german"])
    assert german[0].startswith("Your decision: play an Offensive-type card"), german[0]
    assert ("Your armistice proposal waits for the Entente player's answer (3.2); 'withdraw "
            "armistice' takes it back, and it lapses at the end of the season in which the "
            "Entente player is next asked for a decision (2.0 VI).") in german
    # Refused, it is asked no more (3.2: the war goes on).
    assert cli("order", journal, "--as", "entente", "refuse armistice").exit_code == 0
    entente = _reports(tmp_path, journal, 2)["entente"]
    assert _paragraphs(entente)[0].startswith("Waiting on the German player: "), entente
    assert "proposes an armistice (3.2):" not in " ".join(entente.split())


def test_an_armistice_proposed_in_a_paused_game_is_answered_once_it_resumes(tmp_path, cli,
                                                                            clock):
    """Paused, no orders are taken, an armistice's answer neither: the Entente's mail that
    answers it is refused so, and the lead below that refusal must not tell him he may
    answer it now (3.2 lets him answer at any time the game takes orders)."""
    journal = new_game(tmp_path, cli, "--deadline", "48h")
    _reports(tmp_path, journal)
    assert cli("order", journal, "--as", "german", "propose armistice").exit_code == 0
    clock(datetime(2026, 11, 24, 10, 0, tzinfo=UTC))
    assert cli("deadline", journal, "--pause").exit_code == 0
    entente = _reports(tmp_path, journal, 1,
                       player_mail(tmp_path, "entente", ["accept armistice"], 1))["entente"]
    said = _paragraphs(entente)
    assert said[0].startswith("Your message was not applied: the game is paused"), said
    ask = next(p for p in said if p.startswith("The German player proposes an armistice"))
    assert ask == ("The German player proposes an armistice (3.2): 'accept armistice' ends "
                   "the game, as a Stalemate; 'refuse armistice' plays on. You may answer "
                   "it once the game resumes, until the end of the season in which you are next "
                   "asked for a decision, when it lapses (2.0 VI)."), ask
    assert "at any time" not in " ".join(entente.split())
