"""A line that answers his card or pass, sent at another decision of his, is told whose
step is asked and when his card or pass comes to him (2.0 II.1): 'expected: retreat,
done' alone did not say that it comes once the other side's turn is over."""

from __future__ import annotations

import gamecalls as g
from casebook import SECRET


def test_a_card_sent_at_his_cavalry_retreat_is_told_when_his_card_comes(tmp_path):
    """AAC 1914: the German attacks Lublin; the Entente, asked to retreat his cavalry
    (5.4.3), sends 'play offensive': the refusal says the step is his, and that his card or
    pass comes once the German's impulse is over."""
    secret = tmp_path / "s.secret"
    secret.write_text(SECRET + "\n")
    secret.chmod(0o600)
    j = tmp_path / "g.jsonl"
    g.create_game(j, "1914", game_id="cav", secret_file=secret, game="aac")
    for line in ("play offensive", "move ah-1 lublin", "end movement"):
        assert g.submit(j, "german", [line]).rejected is None, line
    while (g.open_game(j).state.pending.kind, g.open_game(j).state.pending.side) != \
            ("cavalry_retreat", "entente"):
        assert g.submit(j, g.open_game(j).state.pending.side, ["done"]).rejected is None
    said = str(g.submit(j, "entente", ["play offensive"]).rejected[2])
    assert "'play offensive' does not answer the decision now, which is yours (in the " \
        "battle in Lublin" in said, said
    assert said.endswith("expected: retreat, done; your card or pass (2.0 II.1) comes at "
                         "your impulse, once the German player's impulse is over"), said
