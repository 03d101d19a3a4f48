"""The challenge window is counted once (window.py) for the dispute a side raises and for
what his mails say he may still dispute (ending.disputable, which shows his order key only
while one is left): the two counted it apart, and a test the one refused could be offered
by the other."""

from __future__ import annotations

from skirmish_cases import said_done

from referee.table import Table
from referee.table.skirmish.ending import disputable


def _order(cli, j, side, text):
    return said_done(cli, j, side) if text == "done" else \
        cli("skirmish", "order", j, "--as", side, text)


def _offered(j) -> list[int]:
    table = Table(j)
    return disputable(table.records, table.game().state, "german")


def test_a_test_is_offered_to_dispute_exactly_while_a_dispute_of_it_is_taken(cli, patrol):
    """The window is 6 (games/skirmish/game.yaml): the German's sixth record after the
    British's move closes it, for the offer and for the dispute alike."""
    assert _order(cli, patrol, "british", "move B2 mode=stealthy command=yes").exit_code == 0
    for _ in range(5):
        for side in ("british", "german"):
            assert _order(cli, patrol, side, "done").exit_code == 0
    assert _offered(patrol) == [1]
    _order(cli, patrol, "british", "done")
    assert _order(cli, patrol, "german", "done").exit_code == 0
    assert _offered(patrol) == []
    r = _order(cli, patrol, "german", "dispute record=1 fact=mode value=rush")
    assert r.exit_code != 0 and "the German side has made 6 records since it" in r.stderr
