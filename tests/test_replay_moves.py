"""A move is replayed from its own fields: a cold read of a campaign replays some 1,900
moves, and a dict of every field of each (apply_units.details) cost about a fiftieth of it.
A move with a secret part (hidden templates, 1.4) is still read from that part."""

from __future__ import annotations

import json

from referee.engine import apply_map


def test_a_move_is_replayed_without_a_dict_of_its_fields(game, cli, monkeypatch):
    assert cli("order", game, "--as", "german", "pass").exit_code == 0
    r = cli("order", game, "--as", "german", "move ge-1:cavalry eifel")
    assert r.exit_code == 0, r.output
    real, asked = apply_map.details, []

    def counted(event):
        asked.append(type(event).__name__)
        return real(event)

    monkeypatch.setattr(apply_map, "details", counted)
    verified = cli("verify", game)          # every record replayed from the header on
    assert verified.exit_code == 0, verified.output
    assert "UnitMoved" not in asked, asked
    eifel = json.loads(cli("show", game, "--format", "json").stdout)["areas"]["eifel"]
    assert [u["id"] for u in eifel["units"] if u["type"] == "cavalry"] == ["ge-c-01"], eifel
