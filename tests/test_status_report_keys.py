"""The keys a script reads the same way in `status` and `report` (docs/scripting.md): a
campaign's status names its game and scenario, as a skirmish's does, and a report names the
position it reads at its top, as status does, not only inside its receipt and board."""

from __future__ import annotations

import json

from referee.store.dice import write_secret


def test_status_names_the_game_and_scenario_and_report_its_position(tmp_path, cli):
    secret = tmp_path / "s.secret"
    write_secret(secret, bytes(32))
    j = tmp_path / "g.jsonl"
    assert cli("new", j, "--scenario", "1914", "--game-id", "keys",
               "--secret-file", secret).exit_code == 0
    status = json.loads(cli("status", j, "--as", "german", "--format", "json").stdout)
    assert (status["game"], status["scenario"]) == ("ttlm", "1914"), status
    report = json.loads(cli("report", j, "--as", "german", "--format", "json").stdout)
    top = {k: report[k] for k in ("seq", "turn", "label", "phase")}
    assert top == {k: status[k] for k in top}, (top, status)
    assert report["seq"] == report["upto"] == report["receipt"]["seq"]
    assert top == {"seq": report["seq"], **{k: report["board"][k]
                                            for k in ("turn", "label", "phase")}}
