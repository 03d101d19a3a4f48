"""A mail's standing orders are in force at once (docs/player.md, Standing orders): one it
gives may answer the decision its next order line was written for, and the decision then
passes to the other side. The reply said only that the decision 'had passed to the
Entente player after line 1', as if the line were a step too many; it names the standing
order that answered it, and the line of the mail that gave it."""

from __future__ import annotations

import pytest
import test_standing_told as told
from test_standing_told import _game
from test_standing_told import _mail as mailed

import gamecalls as g

# The defenders hold cavalry, so that the Entente is asked his cavalry retreat (5.4.3) once
# the German's is answered: a hand-off with no die rolled.
ATTACKS = {**told.ATTACKS, "ttlm": (dict(remove_units=["ge-1", "ge-2", "fr-4"],
                                    add_units=["ge-1 ge army metz 5I+1C+1A",
                                               "fr-4 fr army st_mihiel 3I+1C"]),
                               "move ge-1 st_mihiel")}



@pytest.mark.parametrize("game", ["ttlm", "aac"])
def test_the_line_a_standing_order_answered_ahead_is_told_so(tmp_path, game, monkeypatch):
    monkeypatch.setitem(told.ATTACKS, game, ATTACKS[game])
    journal = _game(tmp_path, game)
    mailed(tmp_path, journal, "german", ["play offensive", ATTACKS[game][1], "end movement",
                                         "done"], 1)
    assert g.open_game(journal).state.pending.kind == "attacker_cards"
    said = mailed(tmp_path, journal, "german",
                  ["done", "done", "standing: no cavalry retreat", "standing: no combat cards"],
                  2)
    mine, theirs = said["german"], said.get("entente", "")
    assert ("Not applied: line 2 'done': after line 1 ('done') the next decision, cavalry "
            "retreating before combat (5.4.3), was answered by your standing order 'no "
            "cavalry retreat' (line 3), in force at once, and then the decision passed to "
            "the Entente player; send them again when you are asked.") in mine, mine
    assert "had passed to the Entente player after line 1" not in mine, mine
    assert "standing order" not in theirs and "line 3" not in theirs, theirs
    state = g.open_game(journal).state
    assert (state.pending.kind, state.pending.side) == ("cavalry_retreat", "entente")
