"""The end of a game tells each player that his receipts are what proves a rewrite: `--key`
alone proves only that the game's key signed the copy he checks."""

from __future__ import annotations

from referee.data.dataload import load_game
from referee.data.paths import default_games_dir
from referee.render.reports import _after_the_end


def test_the_end_mail_says_the_receipts_prove_a_rewrite_and_the_key_alone_does_not():
    data = load_game(default_games_dir() / "ttlm")
    paras = _after_the_end("entente", True, data, "war.jsonl")
    text = " ".join(span.text for p in paras for span in p.spans)
    assert "Your receipts are what proves a rewrite" in text, text
    assert "--key with the game's fingerprint alone proves only that the key signed this " \
           "copy" in text
