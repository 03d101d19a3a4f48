"""`order --dry-run` on a skirmish: its orders checked as they would be taken, each on the
position the ones before it leave, up to the first whose result needs dice (a die's face is
the committed secret's for its record, so none is rolled or told), nothing written; as a
campaign's dry run answers (`legal`, `stopped`, `not_checked`, `rejected`). It was refused
("a skirmish's tests roll as they are taken"), though a move by stealth, a done or a
dispute rolls nothing and every test is checked before its dice."""

from __future__ import annotations

import json

STEALTHY = "move B2 mode=stealthy command=yes"     # no die
MANOEUVRE = "move B3 mode=manoeuvre command=yes"   # a D6


def _dry(cli, j, *texts: str, fmt: str = "json"):
    return cli("order", j, "--as", "british", "--dry-run", "--format", fmt, *texts)


def test_a_dry_run_checks_up_to_the_first_order_that_rolls_and_writes_nothing(cli, patrol):
    before = patrol.read_bytes()
    r = _dry(cli, patrol, STEALTHY, MANOEUVRE, "done")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["dry_run"] is True and doc["records"] == [], doc
    assert doc["legal"] == [STEALTHY], doc
    assert doc["stopped"] == (f"order 2 ('{MANOEUVRE}') is legal; the dry run stops there: "
                              f"it would roll dice (B3 manoeuvre move)"), doc
    assert doc["not_checked"] == ["done"], doc
    assert "rejected" not in doc, doc
    assert patrol.read_bytes() == before
    r = _dry(cli, patrol, STEALTHY, MANOEUVRE, "done", fmt="text")
    assert r.exit_code == 0, r.output
    assert r.stdout.splitlines() == [
        "dry run: 1 order legal so far; nothing was written", f"  ok: {STEALTHY}",
        f"stopped: order 2 ('{MANOEUVRE}') is legal; the dry run stops there: it would roll "
        f"dice (B3 manoeuvre move)", "not checked: 'done'"], r.stdout
    assert patrol.read_bytes() == before


def test_a_dry_run_of_orders_that_roll_nothing_checks_them_all(cli, patrol):
    before = patrol.read_bytes()
    r = _dry(cli, patrol, STEALTHY, "done")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert (doc["legal"], doc["stopped"], doc["not_checked"]) == ([STEALTHY, "done"], None, [])
    assert patrol.read_bytes() == before


def test_a_dry_run_names_the_first_order_that_would_be_refused(cli, patrol):
    """Each order is checked on the position the ones before it leave: B2 moves once."""
    before = patrol.read_bytes()
    r = _dry(cli, patrol, STEALTHY, STEALTHY, "done")
    assert r.exit_code == 1, r.output
    doc = json.loads(r.stdout)
    assert doc["legal"] == [STEALTHY] and doc["rejected"]["index"] == 1, doc
    assert "rejected" in doc["rejected"]["error"], doc
    error = json.loads(r.stderr.splitlines()[-1])
    assert error["kind"] == "illegal_order" and error["exit"] == 1, error
    assert error["error"].endswith("; dry run: order 2 is the first that would be rejected")
    r = _dry(cli, patrol, STEALTHY, STEALTHY, fmt="text")
    assert r.exit_code == 1 and r.stderr.rstrip().endswith(
        "; dry run: order 2 is the first that would be rejected"), r.output
    assert patrol.read_bytes() == before


def test_a_line_that_cannot_be_read_refuses_the_whole_batch_as_it_would(cli, patrol):
    """A skirmish reads every line before it takes any: one it cannot read refuses them all,
    so none is legal so far."""
    r = _dry(cli, patrol, STEALTHY, "bogus")
    assert r.exit_code == 1, r.output
    doc = json.loads(r.stdout)
    assert doc["legal"] == [] and doc["rejected"]["order"] == "bogus", doc
    assert doc["not_checked"] == [STEALTHY], doc


def test_a_dry_run_keeps_the_stale_view_guard(cli, patrol):
    assert cli("order", patrol, "--as", "british", STEALTHY).exit_code == 0
    before = patrol.read_bytes()
    r = cli("order", patrol, "--as", "british", "--dry-run", "--expect-seq", "0", "done")
    assert r.exit_code == 1 and "the journal has moved on" in r.stderr, r.output
    r = cli("order", patrol, "--as", "british", "--dry-run", "--expect-seq", "1", "done")
    assert r.exit_code == 0 and "ok: done" in r.stdout, r.output
    assert patrol.read_bytes() == before


def test_a_dry_run_of_a_ruling_that_corrects_a_fact_checks_it_as_it_would_be_taken(cli,
                                                                                  patrol):
    """The moderator's correction decides the disputed test again, on its own dice first,
    which follow that test's dice stream (dicekeys.follow_test): a dry run rolls none, and
    answers as for any order (a ruling that needs none is legal), never an internal error.
    A rifle's range is 80 (card.yaml): ruled at 85, the shot is void, no die rolled."""
    for side, text in [("british", "move B2 mode=stealthy command=yes"), ("british", "done"),
                       ("german", "done"), ("british", "done"), ("german", "done"),
                       ("british", "fire B1 at=G2 range=70 state=halted cover=none "
                                   "command=yes"),
                       ("german", "dispute record=6 fact=range value=85")]:
        r = cli("order", patrol, "--as", side, text)
        assert r.exit_code == 0, (text, r.output)
    shot = json.loads(patrol.read_text().splitlines()[6])
    assert shot["test"]["facts"]["range"] == 70 and shot.get("dice_from"), shot
    before = patrol.read_bytes()
    settle = "settle record=6 fact=range value=85"
    r = cli("order", patrol, "--as", "moderator", "--dry-run", "--format", "json", settle)
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert (doc["legal"], doc["stopped"], doc["not_checked"]) == ([settle], None, []), doc
    assert patrol.read_bytes() == before
