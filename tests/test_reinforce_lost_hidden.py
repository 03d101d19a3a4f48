"""Under hidden army templates (1.4) the public reason an arrival is lost (2.0 I) does not
rest on what armies hold: whether units moved into armies could have made room for it
depends on their contents, so every reader reads one wording, in every form."""

from __future__ import annotations

import json
import re

import gamecalls as g
from casebook import new_game, position
from referee.game import batch

# AUTUMN 1916: a UK infantry arrives in ENGLAND, at the stacking limit with uk-4 and two
# stand-alone UK artillery. uk-4 [4I] has an infantry template full but room for an
# artillery (a place is freed by one going in); uk-4 [4I+2A+1C] has none.
ROOM, NO_ROOM = "4I", "4I+2A+1C"
LOST = re.compile(r"reinforcement uk infantry does not arrive: (.*?force pool)")


def _game(tmp_path, contents: str, hidden: bool = True):
    sc = position("1916", turn=10, remove_units=["uk-1"],
                  add_units=[f"uk-4 uk army england {contents}", "uk-a-10 uk artillery england",
                             "uk-a-11 uk artillery england"])
    journal = new_game(tmp_path, sc, {"hidden_templates": hidden})
    if g.open_game(journal).state.pending.kind == "reinforce":
        assert batch.submit(journal, "entente", ["done"]).rejected is None
    return journal


def _words(journal, cli) -> dict[str, list[str]]:
    """The reason as the German reads it: in the log, his report (his mail's text) and the
    JSON of the record that tells it."""
    opened = g.open_game(journal)
    seq = next(r["seq"] for r in opened.records
               if any(e["type"] == "ReinforcementLost" for e in r.get("events", [])))
    flat = lambda text: LOST.findall(" ".join(text.split()))     # noqa: E731
    doc = json.loads(cli("explain", journal, str(seq), "--as", "german", "--format",
                         "json").stdout)
    return {"log": flat(cli("log", journal).stdout),
            "report": flat(cli("report", journal, "--as", "german").stdout),
            "json": flat(" ".join(doc["changes"]))}


def test_the_reason_a_hidden_army_leaves_no_room_reads_the_same(tmp_path, cli):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    room = _words(_game(tmp_path / "a", ROOM), cli)
    none = _words(_game(tmp_path / "b", NO_ROOM), cli)
    assert room == none, (room, none)
    assert all(len(v) == 1 for v in room.values()), room
    assert "though units moved" not in str(room) and "even with" not in str(room), room


def test_open_templates_still_say_which(tmp_path, cli):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    room = _words(_game(tmp_path / "a", ROOM, hidden=False), cli)
    none = _words(_game(tmp_path / "b", NO_ROOM, hidden=False), cli)
    assert "could have made room" in room["report"][0], room
    assert "even with units moved into armies" in none["report"][0], none
