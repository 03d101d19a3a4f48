"""An order line that cannot be read is refused at the decision it would answer, so that a
player by mail mends it in one round trip:

- a line whose verb gives no answer to the decision now (2.0 II.1: the German plays a card
  or passes) is refused for that, with its rule, and for its misspelling in the same line;

By the command line (one line, exit 1, nothing written, the JSON error's kind and rule) and
by mail (the reply, wrapped at 72 columns). The mail game is tests/test_hostile_mail.py's.
"""

from __future__ import annotations

import json

import pytest
from test_hostile_mail import KEYS, eml, handled, mail, new_game, not_applied_reply
from test_mail_prose import body_of, flat

import gamecalls as g
from referee.contracts.orders import Order
from referee.engine import legal_orders
from referee.engine.order_text import format_order
from referee.engine.reading import VERBS

DECISION = ("'move' does not answer the decision now (play an Offensive-type card or pass "
            "in this player turn, SUMMER 1914 (2.0 II.1)); expected: play, pass "
            "(rule 2.0 II.1)")


def test_a_misspelt_order_that_answers_nothing_now_is_told_both(game, cli):
    """'move ge-1 leige' while the German plays a card or passes: the move is refused for
    the decision (its rule cited) and its area named, in one line; exit 1 as before."""
    before = game.read_bytes()
    r = cli("order", game, "--as", "german", "move ge-1 leige")
    assert r.exit_code == 1 and game.read_bytes() == before
    (line,) = r.stderr.splitlines()
    assert line == (f"referee: order 'move ge-1 leige' rejected: {DECISION}; and it cannot "
                    f"be read at column 11: no area is called 'leige'; did you mean Liège?")
    r = cli("order", game, "--as", "german", "move ge-1 leige", "--format", "json")
    (line,) = r.stderr.splitlines()
    obj = json.loads(line)
    assert (r.exit_code, obj["exit"], obj["kind"], obj["rule"]) == \
        (1, 1, "illegal_order", "2.0 II.1"), obj
    assert game.read_bytes() == before


def test_a_misspelt_order_of_the_side_not_asked_is_told_so(game, cli):
    r = cli("order", game, "--as", "entente", "move fr-1 leige")
    assert r.exit_code == 1
    assert "rejected: it is not the Entente player's decision" in r.stderr
    assert "(rule 2.0 II.1); and it cannot be read at column 11: no area is called " \
        "'leige'; did you mean Liège?" in r.stderr


@pytest.mark.parametrize("order, line", [
    ("move ge-1 Liége", "order 'move ge-1 Liége' rejected: 'move ge-1 liege' does not answer"),
    ("play ofensive", "cannot read order 'play ofensive' at column 6: no card is called "
                      "'ofensive'; did you mean Offensive?"),           # play answers now
    ("pass ge-1", "cannot read order 'pass ge-1' at column 6: unexpected 'ge-1'"),
])
def test_a_line_that_answers_the_decision_keeps_its_one_fault(game, cli, order, line):
    r = cli("order", game, "--as", "german", order)
    assert r.exit_code == 1 and r.stderr.startswith(f"referee: {line}"), r.stderr
    assert r.stderr.count("cannot be read") + r.stderr.count("cannot read") <= 1


@pytest.fixture
def journal(tmp_path, cli):
    return new_game(cli, tmp_path / "game")


def _reply(cli, journal, tmp_path, line: str) -> str:
    body = f"{line}\n\nOrder key: {KEYS['german']}\n"
    before = journal.read_bytes()
    out = handled(cli, journal, eml(tmp_path / "in", mail(body=body)), outbox=tmp_path / "out")
    assert [o["status"] for o in out] == ["rejected"] and journal.read_bytes() == before
    text = body_of(not_applied_reply(tmp_path / "out", "german"))
    assert max(map(len, text.splitlines())) <= 72
    return flat(text)


def test_a_mail_is_told_both_faults_in_one_reply(journal, cli, tmp_path):
    text = _reply(cli, journal, tmp_path, "move ge-1 leige")
    assert (f"The line: move ge-1 leige Why: {DECISION}; and it cannot be read at column 11: "
            f"no area is called 'leige'; did you mean Liège? Applied: nothing.") in text, text


def test_every_verb_gives_orders_of_the_kinds_told(game):
    """kinds_of names kinds of orders that exist, and the verb of every order open at the
    opening decision gives that order's kind."""
    from referee.game.refused import kinds_of

    tags = {t.__struct_config__.tag for t in Order.__args__}
    for verb in VERBS:
        assert set(kinds_of(verb)) <= tags, verb
    opened = g.open_game(game)
    for side in ("german", "entente"):
        for o in legal_orders(opened.state, opened.data, side):
            assert o.kind in kinds_of(format_order(o).split()[0]), o
