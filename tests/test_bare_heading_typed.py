"""A record's heading names the decision a bare answer ('done', 'pass') answered, however
the player typed it: 'Done.' and 'PASS' are read as 'done' and 'pass', and their headings
said no step."""

from __future__ import annotations

import pytest
from test_heading_as_read import fixed_game

import gamecalls as g


def _flat(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("game", ["ttlm", "aac"])
def test_a_bare_answer_typed_in_capitals_or_with_a_full_stop_names_its_step(
        tmp_path, cli, game):
    journal = fixed_game(tmp_path, game, "bare-typed")
    assert g.submit(journal, "german", ["PASS"]).rejected is None
    assert g.submit(journal, "german", ["End turn."]).rejected is None
    assert g.submit(journal, "entente", ["Pass."]).rejected is None
    out = _flat(cli("report", journal, "--as", "german", "--since", "0").stdout)
    assert "#2 German: PASS (card or pass)" in out, out
    # A full stop ending the line is no part of the order: the heading leaves it out
    # (tests/test_heading_as_read.py).
    assert "#4 Entente: Pass (card or pass)" in out, out
