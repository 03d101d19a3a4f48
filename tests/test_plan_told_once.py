"""A sealed plan revealed by the record that seals it is told once (2.0 I, 7.0): its
heading, its sealing, its revealing, each arrival placed and the plan as carried out told
the same orders four or five times, the areas spelt two ways ('krakow', then 'Kraków').
Now the revealed list alone names them, as the board does, the heading alone says the plan
was sealed, and each arrival placed is told for what its order does not say: its new id, or
the army that took it (2.0 I, 8.1)."""

from __future__ import annotations

import pytest

import gamecalls as g
from casebook import SECRET, legal


def _flat(text: str) -> str:
    return " ".join(text.split())


def _placed(tmp_path, game: str):
    """1914 to the next reinforcement phase; the German places every arrival, then the
    Entente does, each order its own mail: the Entente's last one reveals both plans."""
    secret = tmp_path / "fixed.secret"
    secret.write_text(SECRET + "\n")
    secret.chmod(0o600)
    journal = tmp_path / "g.jsonl"
    g.create_game(journal, "1914", game_id="told-once", secret_file=secret, game=game)
    while g.open_game(journal).state.pending.kind != "reinforce":
        st = g.open_game(journal).state
        side = st.pending.side
        line = next(t for t in ("pass", "end turn", "done", "buy 0") if t in legal(journal, side))
        assert g.submit(journal, side, [line]).rejected is None, (side, line)
    for side in ("german", "entente"):
        while True:
            places = [t for t in legal(journal, side) if t.startswith("place ")]
            if not places:
                break
            assert g.submit(journal, side, [places[0]]).rejected is None
    return journal


@pytest.mark.parametrize("game", ["ttlm", "aac"])
def test_a_plan_sealed_and_revealed_in_one_record_is_told_once(tmp_path, cli, game):
    journal = _placed(tmp_path, game)
    game_ = g.open_game(journal)
    assert game_.state.pending is None or game_.state.pending.kind != "reinforce"
    seq = game_.state.seq
    out = cli("report", journal, "--as", "entente", "--since", str(seq - 1)).stdout
    said = _flat(out)
    assert f"#{seq} Entente: a sealed plan: reinforcements placed (2.0 I)" in said, said
    assert "Entente seals a plan" not in out and "plan is complete" not in out, out
    # The revealed plan heads the lines that carried it out: no order typed again beside them.
    revealed = said.split("Entente's plan revealed:")[1].split(" - ")[1]
    assert revealed.startswith("Entente places ") and "- place " not in said, said
    # An arrival placed is told with the id it took, or the army it went into, or as an army.
    assert all(" as " in line or " into army " in line or " places army " in line
               for line in out.splitlines() if " places " in line), out
