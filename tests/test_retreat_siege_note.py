"""A retreat offered to an army carrying Siege Guns says it eliminates them: they never
retreat and go with their retreating army (8.3.3). The list read "retreat ge-1,
ge-1:artillery, ge-2, ... → Aachen" without a word of the guns; the engine eliminated them."""

from __future__ import annotations

import msgspec

import gamecalls as g
from casebook import SECRET
from referee.game.retreatnote import retreat_notes
from referee.game.views import order_aids
from referee.render.formats import render
from referee.render.grouped import grouped_blocks
from referee.render.sections import Document, Section


def _asked_to_retreat(tmp_path):
    """SUMMER 1914 as set up (ge-1 and ge-2 in Aachen, each with a Siege Gun), the German
    asked, as after a battle there, to retreat (5.4.2)."""
    secret = tmp_path / "fixed.secret"
    secret.write_text(SECRET + "\n")
    secret.chmod(0o600)
    journal = tmp_path / "g.jsonl"
    g.create_game(journal, "1914", game_id="siege", secret_file=secret, game="ttlm")
    game = g.open_game(journal)
    state = game.state.clone()
    state.battle = {"area": "aachen"}
    state.pending = msgspec.structs.replace(state.pending, kind="retreat_after", side="german")
    return state, game.data


def test_the_orders_open_say_a_retreat_eliminates_the_siege_guns(tmp_path):
    state, data = _asked_to_retreat(tmp_path)
    notes = retreat_notes(state, data, "german")
    assert notes == [f"If {a} retreats, its 1 siege gun is eliminated: it never retreats "
                     f"(8.3.3)." for a in ("ge-1", "ge-2")], notes
    assert retreat_notes(state, data, "entente") == []
    aids = order_aids(state, data, "german")
    text = render(Document("", [Section("", grouped_blocks(
        ["retreat ge-1 eifel", "retreat ge-1:infantry eifel", "done"], aids))]), "text", 400)
    assert "If ge-1 retreats, its 1 siege gun is eliminated: it never retreats (8.3.3)." \
        in text, text
