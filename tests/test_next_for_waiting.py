"""What the side who waits is told comes next for him (2.0), past a decision of the side
asked that no closing answer ends: arrivals to place (2.0 I), a hit to pay (5.3). Where
every answer of the side asked that his hand plays no part in leads to the same step, the
waiting side's report names it; before, he read only that a new mail would ask him."""

from __future__ import annotations

import gamecalls as g
from casebook import SECRET, legal
from referee.game.ahead import next_for


def _flat(text: str) -> str:
    return " ".join(text.split())


def _reinforcing(tmp_path):
    """1914 to the SPRING 1915 reinforcement phase: both sides place arrivals, sealed."""
    secret = tmp_path / "fixed.secret"
    secret.write_text(SECRET + "\n")
    journal = tmp_path / "g.jsonl"
    g.create_game(journal, "1914", game_id="next-for", secret_file=secret)
    for side, line in (("german", "pass"), ("german", "end turn"), ("entente", "pass"),
                       ("entente", "end turn"), ("german", "done"), ("entente", "done")):
        assert g.submit(journal, side, [line]).rejected is None, (side, line)
    return journal


def test_the_side_whose_arrivals_are_placed_is_told_what_comes_after_the_others(
        tmp_path, cli):
    """2.0 I then II: the German has placed his arrivals, the Entente has not; whatever
    the Entente places, the next decision is the German's card or pass of the first player
    turn, and his report says so."""
    journal = _reinforcing(tmp_path)
    assert g.open_game(journal).state.pending.kind == "reinforce"
    while True:                         # the German places every arrival, sealed
        places = [t for t in legal(journal, "german") if t.startswith("place ")]
        if not places:
            break
        assert g.submit(journal, "german", [places[0]]).rejected is None
    game = g.open_game(journal)
    assert (game.state.pending.kind, game.state.pending.side) == ("reinforce", "entente")
    later = next_for(game.state, game.data, "german")
    assert later is not None and later.then is not None, later
    assert (later.end, later.then.kind, later.then_side) == ("other", "card_or_pass", "german")
    said = _flat(cli("report", journal, "--as", "german").stdout)
    assert "Nothing is asked of you now. Next for you: card or pass (2.0 II.1), after his " \
        "present steps" in said, said
