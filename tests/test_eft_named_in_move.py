"""'move UNIT eft' names the EFT box where a move names areas: in AT ALL COSTS!, which has
no box, it was refused only "no area is called 'eft'" where 'eft UNIT' read that the game
has no Eastern Front Transit box (AAC 2.0 V.4); both forms now get that answer. In TO THE
LAST MAN! the box is no area either: the answer names the order that moves a unit there
(2.0 V.4)."""

from __future__ import annotations

import pytest

import gamecalls as g
from casebook import SECRET

NO_BOX = ("this game has no Eastern Front Transit box (AT ALL COSTS! plays the Eastern "
          "front itself) (rule AAC 2.0 V.4)")


def _moving(tmp_path, game: str):
    """1914, the German moving: after his Offensive card (2.0 II.2), or in TO THE LAST
    MAN!, whose German hand holds none, the one unit a pass moves (2.0 II.1)."""
    secret = tmp_path / "fixed.secret"
    secret.write_text(SECRET + "\n")
    secret.chmod(0o600)
    journal = tmp_path / "g.jsonl"
    g.create_game(journal, "1914", game_id="eft-move", secret_file=secret, game=game)
    first = "play offensive" if game == "aac" else "pass"
    assert g.submit(journal, "german", [first]).rejected is None
    return journal


@pytest.mark.parametrize("line", ["move ge-i-03 eft", "move ge-i-03 to EFT", "eft ge-i-03"])
def test_aac_refuses_a_move_into_the_eft_box_as_the_eft_order(tmp_path, line):
    journal = _moving(tmp_path, "aac")
    before = journal.read_bytes()
    r = g.submit(journal, "german", [line])
    assert r.rejected is not None and NO_BOX in str(r.rejected[2]), r.rejected
    assert journal.read_bytes() == before


def test_ttlm_points_a_move_into_the_eft_box_to_its_own_order(tmp_path):
    journal = _moving(tmp_path, "ttlm")
    r = g.submit(journal, "german", ["move ge-i-01 eft"])
    assert r.rejected is not None, r
    said = str(r.rejected[2])
    assert "no area is called" not in said, said
    assert "'eft UNIT' (rule 2.0 V.4)" in said, said
