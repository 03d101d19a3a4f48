"""An order line that cannot be read is refused at the decision it would answer, so that a
player by mail mends it in one round trip:

- a line whose verb gives no answer to the decision now (2.0 II.1: the German plays a card
  or passes) is refused for that, with its rule, and for its misspelling in the same line;
- an unknown verb is answered with the verbs of the orders open now (legal_orders), never
  with one that would be refused for its kind once spelt right; near none, with the list.

By the command line (one line, exit 1, nothing written, the JSON error's kind and rule) and
by mail (the reply, wrapped at 72 columns). The mail game is tests/test_hostile_mail.py's.
"""

from __future__ import annotations

import json

import pytest
from test_hostile_mail import (
    ADDRESSES,
    GAME,
    KEYS,
    TAG2,
    eml,
    handled,
    mail,
    new_game,
    not_applied_reply,
)
from test_mail_prose import body_of, flat

import gamecalls as g
from referee.contracts.orders import Order
from referee.engine import legal_orders
from referee.engine.order_text import format_order
from referee.engine.reading import VERBS

DECISION = ("'move' does not answer the decision now, which is yours (play an Offensive-type "
            "card or pass in this player turn, SUMMER 1914 (2.0 II.1)); expected: play, pass")
OPEN_NOW = "the orders open now start with one of: pass, play, propose, surrender"


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
                      "'ofensive'; did you mean offensive?"),           # play answers now
    ("pass ge-1", "cannot read order 'pass ge-1' at column 6: unexpected 'ge-1'"),
])
def test_a_line_that_answers_the_decision_keeps_its_one_fault(game, cli, order, line):
    r = cli("order", game, "--as", "german", order)
    assert r.exit_code == 1 and r.stderr.startswith(f"referee: {line}"), r.stderr
    assert r.stderr.count("cannot be read") + r.stderr.count("cannot read") <= 1


@pytest.mark.parametrize("order, rule", [
    ("sea uk-i-01 ostend into uk-1", "4.6"),
    ("rail ge-1 koblenz taking ge-i-01", "4.4"),
    ("strategic fr-3 paris into fr-5", "4.5"),
])
def test_a_move_that_goes_alone_says_so_when_joined_to_other_movement(game, cli, order, rule):
    """Sea, rail and strategic moves cannot be combined with any other type of movement
    (4.4-4.6): 'into ARMY' or 'taking' after one is refused by that rule, not as words out
    of place, and the line says what the move alone would be."""
    before = game.read_bytes()
    r = cli("order", game, "--as", "german", "--dry-run", "pass", order)
    kind, unit, area = order.split()[:3]
    assert r.exit_code == 1 and game.read_bytes() == before
    (line,) = [x for x in r.stderr.splitlines() if x.startswith("referee:")]
    assert f"cannot read order '{order}'" in line and "unexpected" not in line, line
    assert (f"a {kind} move cannot be combined with any other type of movement, such as "
            f"joining an army or taking units in (rule {rule}); '{kind} {unit} {area}' is the "
            f"move alone") in line, line


def test_an_unknown_verb_is_answered_with_the_verbs_open_now(game, cli):
    """'déplacer' is near 'place' and 'declare', neither open now: the verbs open are told."""
    r = cli("order", game, "--as", "german", "déplacer ge-1 liege")
    assert r.exit_code == 1
    assert r.stderr == ("referee: cannot read order 'déplacer ge-1 liege' at column 1: "
                        f"unknown verb 'déplacer'; {OPEN_NOW}\n")
    listed = OPEN_NOW.split(": ")[1].split(", ")
    legal = {format_order(o).split()[0] for o in legal_orders(
        g.open_game(game).state, g.open_game(game).data, "german")}
    assert set(listed) == legal
    r = cli("order", game, "--as", "german", "plya offensive")       # near one open: it
    assert "unknown verb 'plya'; did you mean play?" in r.stderr
    r = cli("order", game, "--as", "german", "mvoe ge-1 liege")       # move is not open
    assert "did you mean" not in r.stderr and OPEN_NOW in r.stderr


# The Entente's line while the German plays a card or passes: only an armistice is open to
# him at another's decision (3.2), and the refusal says whose decision it is (2.0 II.1).
NOT_ASKED = ("unknown verb 'déplacer'; it is not the Entente player's decision: the referee "
             "is waiting on the German player (play an Offensive-type card or pass in this "
             "player turn, SUMMER 1914) (rule 2.0 II.1); the orders open to the Entente "
             "player now start with one of: propose, surrender")


def test_an_unknown_verb_of_the_side_not_asked_is_told_whose_decision_it_is(game, cli):
    before = game.read_bytes()
    r = cli("order", game, "--as", "entente", "déplacer fr-1 liege")
    assert r.exit_code == 1 and game.read_bytes() == before
    assert r.stderr == ("referee: cannot read order 'déplacer fr-1 liege' at column 1: "
                        f"{NOT_ASKED}\n")
    opened = g.open_game(game)
    assert {format_order(o).split()[0] for o in legal_orders(
        opened.state, opened.data, "entente")} == {"propose", "surrender"}


def test_an_unknown_verb_after_a_pass_is_answered_with_move(game, cli):
    """After a pass one unit may move (2.0 II.1): at that order the slip is 'move'."""
    before = game.read_bytes()
    r = cli("order", game, "--as", "german", "--atomic", "pass", "mvoe ge-1 liege")
    assert r.exit_code == 1 and game.read_bytes() == before
    assert "unknown verb 'mvoe'; did you mean move?" in r.stderr, r.stderr


@pytest.fixture
def journal(tmp_path, cli):
    return new_game(cli, tmp_path / "game")


def _reply(cli, journal, tmp_path, line: str, side: str = "german",
           subject: str = TAG2) -> str:
    body = f"{line}\n\nOrder key: {KEYS[side]}\n"
    before = journal.read_bytes()
    out = handled(cli, journal, eml(tmp_path / "in", mail(ADDRESSES[side], body=body,
                                                          subject=subject)),
                  outbox=tmp_path / "out")
    assert [o["status"] for o in out] == ["rejected"] and journal.read_bytes() == before
    text = body_of(not_applied_reply(tmp_path / "out", side))
    assert max(map(len, text.splitlines())) <= 72
    return flat(text)


def test_a_mail_is_told_both_faults_in_one_reply(journal, cli, tmp_path):
    text = _reply(cli, journal, tmp_path, "move ge-1 leige")
    assert (f"The line: move ge-1 leige Why: {DECISION}; and it cannot be read at column 11: "
            f"no area is called 'leige'; did you mean Liège? Applied: nothing.") in text, text


def test_a_mail_with_an_unknown_verb_is_told_the_verbs_open(journal, cli, tmp_path):
    text = _reply(cli, journal, tmp_path, "déplacer ge-1 liege")
    assert f"unknown verb 'déplacer'; {OPEN_NOW}. Applied: nothing." in text, text
    assert "did you mean" not in text


def test_a_mail_of_the_side_not_asked_with_an_unknown_verb_is_told_whose_decision(
        journal, cli, tmp_path):
    text = _reply(cli, journal, tmp_path, "déplacer fr-1 liege", side="entente")
    assert f"{NOT_ASKED}. Applied: nothing." in text, text


def test_every_verb_gives_orders_of_the_kinds_told(game):
    """kinds_of names kinds of orders that exist, and the verb of every order open at the
    opening decision gives that order's kind; the verbs open are those of the orders open,
    each under its other spellings too."""
    from referee.game.refused import kinds_of, open_verbs

    tags = {t.__struct_config__.tag for t in Order.__args__}
    for verb in VERBS:
        assert set(kinds_of(verb)) <= tags, verb
    opened = g.open_game(game)
    for side in ("german", "entente"):
        legal = legal_orders(opened.state, opened.data, side)
        for o in legal:
            assert o.kind in kinds_of(format_order(o).split()[0]), o
        verbs = open_verbs(opened.state, opened.data, side)
        assert set(verbs.values()) == {format_order(o).split()[0] for o in legal}
    verbs = open_verbs(opened.state, opened.data, "german")
    assert verbs["resign"] == "surrender" and "refuse" not in verbs     # none proposed


# The German's 'done' while the Entente pays a battle's hits: the losses prompt cites the
# Siege Gun's hit on the fort (8.3.3) in its own words, and the decision's rule (5.3) is
# cited after it all the same, in the line, the JSON error and the mail's reply.
OWED = ("order 'done' rejected: it is not the German player's decision: the referee is "
        "waiting on the Entente player (pay 2 hits in Liège, 1 of them a Siege Gun hit on "
        "the fort (8.3.3): lose a step of the fort or play an Ersatz card if the hand holds "
        "one) (rule 5.3)")


def _owing(cli, journal):
    r = cli("order", journal, "--as", "german", "play offensive", "move ge-1 liege",
            "end movement", "done", "done", "done")
    assert r.exit_code == 0, r.stderr
    assert g.open_game(journal).state.pending.kind == "losses"


def test_a_refusal_while_the_other_side_pays_hits_cites_the_decision_rule(
        journal, cli, tmp_path):
    _owing(cli, journal)
    before = journal.read_bytes()
    r = cli("order", journal, "--as", "german", "done")
    assert r.exit_code == 1 and journal.read_bytes() == before
    assert r.stderr == f"referee: {OWED}\n", r.stderr
    r = cli("order", journal, "--as", "german", "done", "--format", "json")
    obj = json.loads(r.stderr)
    assert (obj["error"], obj["rule"], obj["exit"]) == (OWED, "5.3", 1), obj
    text = _reply(cli, journal, tmp_path, "done", subject=f"Re: [referee {GAME} #8] german")
    why = OWED.removeprefix("order 'done' rejected: ")
    assert f"The line: done Why: {why}. Applied: nothing." in text, text
