"""A record's heading names the decision a bare answer ('done', 'pass') answered, however
the player typed it: 'Done.' and 'PASS' are read as 'done' and 'pass', and their headings
said no step."""

from __future__ import annotations

import pytest

import gamecalls as g
from casebook import SECRET


def _flat(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("game", ["ttlm", "aac"])
def test_a_bare_answer_typed_in_capitals_or_with_a_full_stop_names_its_step(
        tmp_path, cli, game):
    secret = tmp_path / "fixed.secret"
    secret.write_text(SECRET + "\n")
    secret.chmod(0o600)
    journal = tmp_path / "g.jsonl"
    g.create_game(journal, "1914", game_id="bare-typed", secret_file=secret, game=game)
    assert g.submit(journal, "german", ["PASS"]).rejected is None
    assert g.submit(journal, "german", ["End turn."]).rejected is None
    assert g.submit(journal, "entente", ["Pass."]).rejected is None
    out = _flat(cli("report", journal, "--as", "german", "--since", "0").stdout)
    assert "#2 German: PASS (card or pass)" in out, out
    # A full stop ending the line is no part of the order: the heading leaves it out
    # (tests/test_heading_as_read.py).
    assert "#4 Entente: Pass (card or pass)" in out, out
