"""A Tank in a Rough battle area fires no die (8.3.5): the fire line says the Rough terrain is
why, in every form a reader gets it (log, explain, report and the mail made from it all
word the record's events alike, render/words_combat.py)."""

from __future__ import annotations

import gamecalls as g
from casebook import new_game, position
from referee.render.record_text import describe

ROUGH = "tank (in Rough terrain, 8.3.5) fires no die in offensive fire"


def _fire(area: str, silent: list[str]) -> dict:
    stoss = {"source": "ge-9:stosstruppen", "kind": "stosstruppen", "fp": 2, "dice": [2],
             "hits": 1, "forces_retreat": True}
    return {"type": "FireResolved", "area": area, "side": "german", "phase": "offensive",
            "hits": 1, "forced_retreats": 1, "groups": [stoss], "silent": silent}


def test_the_line_names_the_rough_terrain_only_where_it_silences(data):
    rough = describe(_fire("vosges", ["tank"]), data, "public")
    assert rough.endswith("; " + ROUGH), rough
    # Cavalry in offensive fire is silent for its own rule (8.3.1), Rough or not.
    both = describe(_fire("vosges", ["cavalry", "tank"]), data, "public")
    assert both.endswith("; cavalry (8.3.1) and tank (in Rough terrain, 8.3.5) fire no die "
                         "in offensive fire"), both
    clear = describe(_fire("namur", ["cavalry"]), data, "public")
    assert clear.endswith("; cavalry (8.3.1) fires no die in offensive fire"), clear


def test_log_explain_and_report_say_the_rough_terrain(tmp_path, cli):
    sc = position("1918", turn=17, player="german",
                  hands={"german": ["off-01"], "entente": []}, remove_units=["ge-i-05"],
                  add_units=["ge-9 ge army colmar 1I+2S+1T", "fr-c-09 fr cavalry vosges"])
    j = new_game(tmp_path, sc, dice="manual")
    for side, order, dice in (("german", "play offensive", None),
                              ("german", "move ge-9 vosges", None),
                              ("german", "end movement", None), ("entente", "done", None),
                              ("entente", "done", "2,3,1"),
                              ("german", "lose ge-9:infantry", "2")):
        r = g.submit(j, side, [order], dice)
        assert r.rejected is None, (order, r.rejected)
    seq = str(len(g.open_game(j).records) - 1)
    for args in (("log", j, "--as", "entente"), ("explain", j, seq, "--as", "entente"),
                 ("report", j, "--as", "entente")):
        out = " ".join(cli(*args).stdout.split())
        assert ROUGH in out, (args[0], out)
        assert "tank (8.3.5)" not in out, args[0]
