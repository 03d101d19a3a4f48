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
    journal = _at_reinforcements(tmp_path, game)
    for side in ("german", "entente"):
        _every_place(journal, side)
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


def _at_reinforcements(folder, game: str = "ttlm"):
    """1914 up to the first reinforcement phase, both plans owed."""
    folder.mkdir(exist_ok=True)
    secret = folder / "fixed.secret"
    secret.write_text(SECRET + "\n")
    secret.chmod(0o600)
    journal = folder / "g.jsonl"
    g.create_game(journal, "1914", game_id="told-once", secret_file=secret, game=game)
    while g.open_game(journal).state.pending.kind != "reinforce":
        side = g.open_game(journal).state.pending.side
        line = next(t for t in ("pass", "end turn", "done", "buy 0") if t in legal(journal, side))
        assert g.submit(journal, side, [line]).rejected is None, (side, line)
    return journal


def _every_place(journal, side: str) -> list[str]:
    """Every arrival of side placed, one record each (the first place order open each time):
    the orders, to send again in one mail to a game that stands as this one did."""
    lines: list[str] = []
    while places := [t for t in legal(journal, side) if t.startswith("place ")]:
        assert g.submit(journal, side, [places[0]]).rejected is None
        lines.append(places[0])
    return lines


@pytest.mark.parametrize("whole", [True, False], ids=["whole", "part"])
def test_his_own_sealed_orders_are_given_once_by_the_heading(tmp_path, cli, whole):
    """The player's own report of the record that seals his reinforcement orders (2.0 I), the
    other side's plan still owed: the heading gives his orders as he typed them; the line
    under it says they are sealed and does not give them again (a phone showed ten orders
    twice). Every arrival placed in one record (the plan whole), or one of them (a part)."""
    lines = _every_place(_at_reinforcements(tmp_path / "probe"), "german")
    assert len(lines) >= 2, lines
    sent = lines if whole else lines[:1]
    journal = _at_reinforcements(tmp_path / "game")
    assert g.submit(journal, "german", sent).rejected is None
    seq = g.open_game(journal).state.seq
    for reader in ("german", "moderator"):
        out = _flat(cli("report", journal, "--as", reader, "--since", str(seq - 1)).stdout)
        assert f"#{seq} German: {'; '.join(sent)}" in out, out
        what = "a plan" if whole else "part of a plan"
        assert f"- German seals {what} " in out + " " and f"seals {what}:" not in out, out
        told = out.split("Since record")[1].split("Victory points")[0]
        assert told.count(sent[-1]) == 1, told
    public = _flat(cli("report", journal, "--as", "entente", "--since", str(seq - 1)).stdout)
    assert not any(line in public for line in sent), public
