"""The moderator's status names every side that owes a sealed plan (2.0 I): both sides
place their reinforcements at once, sealed until both are in, and his status listed the
orders open to the German alone, as if the Entente owed nothing."""

from __future__ import annotations

import gamecalls as g
from casebook import SECRET, legal


def test_the_moderator_is_told_of_each_side_that_owes_a_plan(tmp_path, cli):
    secret = tmp_path / "fixed.secret"
    secret.write_text(SECRET + "\n")
    secret.chmod(0o600)
    journal = tmp_path / "g.jsonl"
    g.create_game(journal, "1914", game_id="owing", secret_file=secret, game="ttlm")
    while g.open_game(journal).state.pending.kind != "reinforce":
        side = g.open_game(journal).state.pending.side
        line = next(t for t in ("pass", "end turn", "done", "buy 0")
                    if t in legal(journal, side))
        assert g.submit(journal, side, [line]).rejected is None, (side, line)
    state = g.open_game(journal).state
    from referee.engine import waiting_on
    assert sorted(waiting_on(state)) == ["entente", "german"]
    out = cli("status", journal, "--as", "moderator").stdout
    said = " ".join(out.split())
    assert "Orders open to German (" in said, out
    assert "Orders open to Entente" in said and "status --as entente" in said, out
