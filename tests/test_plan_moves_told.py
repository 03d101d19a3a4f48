"""A revealed reinforcement plan that moves a unit into an army (8.1) between its
placements is told in the order it was carried out, each order once (2.0 I, 1.2.2)."""

from __future__ import annotations

import gamecalls as g
from casebook import new_game, position
from referee.game import batch

CROWDED = ["uk-i-01 uk infantry england", "uk-a-01 uk artillery england"]


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_a_move_into_an_army_is_told_under_the_plan_in_its_place(tmp_path, cli):
    # SUMMER 1916: ENGLAND holds two UK units; uk-5 and the infantry fill it (1.2.2), so the
    # infantry goes into uk-5 before the artillery can be placed into it: told the other way
    # round, the placement would break the stacking limit.
    journal = new_game(tmp_path, position("1916", turn=9, add_units=CROWDED))
    for orders in (["place uk-5 england", "place uk infantry england"],
                   ["move uk-i-02 into uk-5", "place uk artillery england into uk-5"]):
        assert batch.submit(journal, "entente", orders).rejected is None, orders
    seq = g.open_game(journal).state.seq
    for reader in ("german", "entente"):
        said = _flat(cli("report", journal, "--as", reader, "--since", str(seq - 1)).stdout)
        part = said.split("plan revealed:")[1].split("German player turn begins")[0]
        heading, *lines = part.split(" - ")
        assert "move" not in heading, heading
        moved = [n for n, line in enumerate(lines) if "uk-i-02 is reorganised" in line]
        artillery = [n for n, line in enumerate(lines) if "places uk artillery" in line]
        assert len(moved) == 1 and len(artillery) == 1, lines
        assert moved[0] < artillery[0], lines
