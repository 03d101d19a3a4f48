"""An order heading a record names its areas by the ids the player typed; where an id does
not read as its area's name (AT ALL COSTS!: 'silesia', the map's Breslau), the name goes
beside it, so '#156 German: retreat ge-i-04 silesia' and its event 'Łódź -> Breslau' read
as the same place. Ids that read as their names (lodz, st_mihiel) are left alone."""

from __future__ import annotations

import gamecalls as g
from casebook import SECRET
from referee.render.areanames import with_names
from referee.render.record_text import record_lines
from referee.render.reports import _record_heading
from referee.render.sections import Span


def _data(tmp_path, game: str, scenario: str):
    secret = tmp_path / f"{game}.secret"
    secret.write_text(SECRET + "\n")
    secret.chmod(0o600)
    journal = tmp_path / f"{game}.jsonl"
    g.create_game(journal, scenario, game_id=game, secret_file=secret, game=game)
    return g.open_game(journal)


def test_an_area_id_unlike_its_name_has_the_name_beside_it(tmp_path, monkeypatch):
    monkeypatch.setenv("REFEREE_HOME", str(tmp_path / "home"))
    aac = _data(tmp_path, "aac", "1914").data
    assert with_names("retreat ge-i-04 silesia", aac) == "retreat ge-i-04 silesia (Breslau)"
    assert with_names("fight lodz\nretreat ru-i-07 ivangorod", aac) == \
        "fight lodz\nretreat ru-i-07 ivangorod"
    ttlm = _data(tmp_path, "ttlm", "1914")
    assert with_names("move ge-1 st_mihiel", ttlm.data) == "move ge-1 st_mihiel"
    rec = {"seq": 9, "at": "2026-11-24T10:00:00Z", "actor": "german", "order": "move ge-7 pfalz",
           "events": []}
    assert record_lines(rec, ttlm.data, "german")[0].endswith(
        "German: move ge-7 pfalz (Palatinate)")

    class Before:
        pending = None
        state = ttlm.state

    spans = _record_heading(rec, Before(), "german", ttlm.data)
    # The name is words beside the order, not part of what the player typed.
    assert [s for s in spans if s.text.strip()][1:3] == [Span("move ge-7 pfalz", "order"),
                                                        Span(" (Palatinate)", "plain")], spans
