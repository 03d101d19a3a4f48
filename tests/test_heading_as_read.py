"""A record's heading gives the order as the referee read it: the full stop a phone ends a
line with is no part of the order (docs/player.md, Orders), and '#14 Entente: Done.
(cavalry retreat)' set the step it answered after the sentence's end. The journal keeps
the line as typed; the report's and the log's headings leave the mark out, where the line
reads as the same order without it."""

from __future__ import annotations

import json

import pytest

import gamecalls as g
from casebook import SECRET


def _flat(text: str) -> str:
    return " ".join(text.split())


def fixed_game(tmp_path, game: str, game_id: str):
    """A 1914 game of `game` dealt from the fixed secret, its journal g.jsonl."""
    secret = tmp_path / "fixed.secret"
    secret.write_text(SECRET + "\n")
    secret.chmod(0o600)
    journal = tmp_path / "g.jsonl"
    g.create_game(journal, "1914", game_id=game_id, secret_file=secret, game=game)
    return journal


@pytest.mark.parametrize("game", ["ttlm", "aac"])
def test_a_full_stop_ending_an_order_is_not_in_its_heading(tmp_path, cli, game):
    journal = fixed_game(tmp_path, game, "as-read")
    assert g.submit(journal, "german", ["Pass."]).rejected is None
    assert g.submit(journal, "german", ["End turn!"]).rejected is None
    assert g.submit(journal, "entente", ["pass…"]).rejected is None
    kept = [json.loads(line)["order"] for line in journal.read_text().splitlines()[2:5]]
    assert kept == ["Pass.", "End turn!", "pass…"], kept       # the journal as typed
    out = _flat(cli("report", journal, "--as", "german", "--since", "0").stdout)
    assert "#2 German: Pass (card or pass)" in out, out
    assert "#3 German: End turn" in out and "End turn!" not in out, out
    assert "#4 Entente: pass (card or pass)" in out, out
    log = cli("log", journal).stdout
    assert "German: Pass (card or pass)" in log and "Pass." not in log, log
    assert "Entente: pass (card or pass)" in log and "pass…" not in log, log
