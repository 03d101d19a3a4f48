"""The digest that decides whether a mail carries a new map (svgmap.board_digest, pictures.py)
holds everything the map draws: a battle's ring and the rings of the areas the decision
concerns, not only control and units. A mail that says the board is as an earlier map
shows it must not point to a map still ringing a battle that has been fought since."""

from __future__ import annotations

import gamecalls as g
from referee.render.svgmap import board_digest, map_facts

SECRET = "5e" * 32


def test_a_battle_ring_drawn_or_gone_changes_the_digest(tmp_path, monkeypatch):
    monkeypatch.setenv("REFEREE_HOME", str(tmp_path / "home"))
    secret = tmp_path / "fixed.secret"
    secret.write_text(SECRET + "\n")
    secret.chmod(0o600)
    journal = tmp_path / "g.jsonl"
    g.create_game(journal, "1914", game_id="digest", secret_file=secret)
    game = g.open_game(journal)
    data, before = game.data, game.state
    ringed = before.clone()
    ringed.combat = {"declared": ["liege"], "resolved": []}     # Liège a battle area (5.1.2)
    assert [f["battle"] for f in map_facts(ringed, data, "german") if f["id"] == "liege"] == \
        [True]
    for reader in ("german", "entente", "public"):
        assert board_digest(ringed, data, reader) != board_digest(before, data, reader)
