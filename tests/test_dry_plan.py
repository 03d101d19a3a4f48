"""A dry run through the order that closes a sealed plan (7.0, 2.0 I): each order checked
as the real run checks it, and a stop only where the result waits on the other side's
plan, told only when there is one."""

from __future__ import annotations

from test_simultaneous import ENTENTE, GERMAN, _to_autumn_1914

from casebook import new_game, position
from referee.game import batch

CROWDED = ["uk-i-01 uk infantry england", "uk-a-01 uk artillery england"]


def test_a_dry_run_refuses_the_closing_place_the_real_run_refuses(tmp_path):
    # SUMMER 1916: uk-5, a UK infantry and a UK artillery arrive in ENGLAND, which holds two
    # UK units; the artillery placed loose would be a fourth unit there (1.2.2). Only the
    # Entente has a plan to give, so nothing of the German's waits to be revealed.
    journal = new_game(tmp_path, position("1916", turn=9, add_units=CROWDED))
    orders = ["place uk-5 england", "place uk infantry england", "place uk artillery england"]
    before = journal.read_bytes()
    dry = batch.submit(journal, "entente", orders, dry_run=True)
    assert dry.stopped is None, dry.stopped
    assert dry.rejected is not None and dry.rejected[0] == 2, dry.rejected
    assert dry.rejected[2].rule == "1.2.2", dry.rejected
    assert journal.read_bytes() == before
    real = batch.submit(journal, "entente", orders)
    assert real.rejected[0] == 2 and real.rejected[2].rule == "1.2.2"


def test_a_legal_closing_plan_with_no_other_plan_is_not_said_to_wait_on_one(tmp_path):
    # The same arrivals, placed into uk-5 where they add nothing to ENGLAND's stack (8.1):
    # the plan closes and the German's player turn begins; the dry run says that, never that
    # the result waits on a German plan that does not exist.
    journal = new_game(tmp_path, position("1916", turn=9, add_units=CROWDED))
    orders = ["place uk-5 england", "place uk infantry england into uk-5",
              "place uk artillery england into uk-5", "propose armistice"]
    dry = batch.submit(journal, "entente", orders, dry_run=True)
    assert dry.rejected is None, dry.rejected
    assert dry.stop_reason == "other side", dry.stopped
    assert "sealed plan" not in dry.stopped, dry.stopped
    assert [a.text for a in dry.applied][-1].endswith("into uk-5"), dry.applied


def test_a_dry_run_checks_the_last_plan_before_it_stops_for_the_other_plan(tmp_path):
    # AUTUMN 1914, the Entente's plan in: the German's closing order is checked against his
    # plan so far before the dry run stops for the reveal (2.0 I); an illegal one is refused.
    j = _to_autumn_1914(tmp_path)
    assert batch.submit(j, "entente", ENTENTE).rejected is None
    bad = GERMAN[:-1] + ["place ge infantry paris"]
    dry = batch.submit(j, "german", bad, dry_run=True)
    assert dry.stopped is None and dry.rejected is not None, dry.stopped
    assert dry.rejected[0] == 2, dry.rejected
    real = batch.submit(j, "german", bad, atomic=True)
    assert real.rejected[0] == 2 and real.rejected[2].rule == dry.rejected[2].rule
    good = batch.submit(j, "german", GERMAN, dry_run=True)
    assert good.stop_reason == "plans" and good.rejected is None
    assert "is legal and closes" in good.stopped, good.stopped


def test_orders_after_the_only_plans_done_are_not_said_to_follow_two_plans(tmp_path):
    # Only the Entente places: a 'done' and a place after it in one mail are refused for
    # what is true, that 'done' closes the only plan, not that it reveals both.
    journal = new_game(tmp_path, position("1916", turn=9, add_units=CROWDED))
    assert batch.submit(journal, "entente", ["place uk-5 england"]).rejected is None
    r = batch.submit(journal, "entente", ["done", "place uk infantry england"], atomic=True,
                     handoff_ends=True)
    said = r.rejected[2].follows[1]
    assert "both plans" not in said and "the only plan asked for" in said, said
