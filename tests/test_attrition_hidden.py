"""Under hidden army templates (1.4) whether an unsupplied army's owner is asked which unit
it loses (6.5) must not tell what the army holds.

The referee took the loss without asking when the army held one kind of unit it could lose
(two infantry, or infantry and the Paris Gun), and asked when it held two: the opponent,
who sees whether a decision is asked, learnt how many kinds the army held. Under hidden
templates the owner is now always asked, as the Military Crisis! asks him even when his
units are exactly as many as it takes (9.8, crisis.py).

The leak property tests did not catch it: test_noninterference.py varies what a reader may
not see at one position and compares what he is told of that position, never what the
referee decides next from it; test_leaks*.py look for the secret itself (a hidden army's
contents) in every output, not for a choice of the referee's that depends on it. The test
here is of the kind that would: the same public position, the hidden contents varied, the
same order given; what each reader is told of the record it makes, and the decision that
follows, must be the same.
"""

from __future__ import annotations

import pytest

import gamecalls as g
from casebook import new_game, position
from referee.render.record_text import describe, record_lines
from referee.store.journal import redact

# Strength 2 every time: what the German's 3rd Army holds, hidden from the Entente.
CONTENTS = ("2I", "1I+1A")


def _after_the_turn(tmp_path, contents: str, hidden: bool):
    sc = position("1914", turn=3, player="entente", passes=1,
                  hands={"german": ["off-01"], "entente": ["off-03"]},
                  control={"namur": "german"}, forts={"fort-namur": "out"},
                  remove_units=["ge-3"], add_units=[f"ge-3 ge army namur {contents}"])
    folder = tmp_path / contents.replace("+", "-")
    folder.mkdir(parents=True)
    j = new_game(folder, sc, {"hidden_templates": hidden})
    for order in ("pass", "end turn"):
        r = g.submit(j, "entente", [order])
        assert r.rejected is None, r.rejected
    return g.open_game(j)


def _told(game, reader: str) -> tuple:
    p = game.state.pending
    lines = [describe(e, game.data, reader) for e in game.records[-1]["events"]]
    return (p.kind, p.side) if p else None, [x for x in lines if x]


@pytest.mark.parametrize("reader", ["entente", "public"])
def test_whether_attrition_is_asked_tells_nothing_of_a_hidden_army(tmp_path, reader):
    told = {c: _told(_after_the_turn(tmp_path / reader, c, True), reader) for c in CONTENTS}
    assert told["2I"][0] == ("attrition", "german"), told["2I"]
    assert len(set(map(repr, told.values()))) == 1, told


def test_with_open_templates_a_loss_without_a_choice_is_taken_at_once(tmp_path):
    game = _after_the_turn(tmp_path, "2I", False)
    assert game.state.pending.kind == "production", game.state.pending
    assert game.state.armies["ge-3"].strength == 1


@pytest.mark.parametrize("reader", ["entente", "public"])
def test_a_hidden_attrition_loss_is_headed_as_one_whatever_the_army_holds(tmp_path, reader):
    """The German's choice of the unit his hidden army loses (6.5) is his secret (1.4): the
    other readers see the record headed as an attrition loss in a hidden army, not as an
    order between army templates (a move between armies, to a reader), and the same words
    whatever the army holds."""
    heads = {}
    for c in CONTENTS:
        journal = _after_the_turn(tmp_path / reader, c, True).journal.path
        r = g.submit(journal, "german", ["lose ge-3:infantry"])
        assert r.rejected is None, r.rejected
        game = g.open_game(journal)
        line = record_lines(redact(game.records[-1], reader), game.data, reader)[0]
        heads[c] = line.split(" ", 2)[2]            # after '#N TIME'
    assert len(set(heads.values())) == 1, heads
    assert heads["2I"] == "German: an attrition loss in a hidden army (6.5, 1.4)", heads
