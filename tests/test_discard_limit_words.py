"""2.0 V.3, 7.1: a side over his card limit is told his hand against it in the same words
by the game's prompt and by his own, from one place: both sides over it, the public prompt
names each, and each side's own prompt names him first, then the other."""

from __future__ import annotations

from test_simultaneous import _to_discard

import gamecalls as g
from referee.engine import production


def test_both_discard_prompts_say_a_hand_against_its_limit_alike(tmp_path, monkeypatch):
    game = g.open_game(_to_discard(tmp_path, "both"))
    hands = {side: len(game.state.hands[side]) for side in ("german", "entente")}
    public = production._excess_prompt(game.state, game.data)
    own = production._excess_reader_prompt(game.state, game.data, "entente")
    assert public.startswith(f"German holds {hands['german']} cards, the limit is 6; "
                             f"Entente holds {hands['entente']} cards, the limit is 5: "), public
    assert own.endswith(f"German holds {hands['german']} cards, the limit is 6"), own
    monkeypatch.setattr(production, "_over_limit",
                        lambda s, d, side, lead="", tail="": f"<{lead}{side}{tail}>")
    assert production._excess_prompt(game.state, game.data).startswith(
        "<German holds german>; <Entente holds entente>: ")
    assert production._excess_reader_prompt(game.state, game.data, "entente").startswith(
        "<you hold entente>: discard the excess") and \
        production._excess_reader_prompt(game.state, game.data, "entente").endswith(
            "; <German holds german>")
