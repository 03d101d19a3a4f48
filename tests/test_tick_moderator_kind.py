"""A pass whose only problem is a game waiting on its moderator is no failure of a server:
its error object is of kind `moderator`, and so is its game's entry, so that a bot paging on
`transport` is not paged at every pass for a normal state. It still exits 3, non-zero, so
that cron's mail or a failed systemd unit tells him (docs/scripting.md). A pass that also
met a failure names that failure first, as `transport`."""

from __future__ import annotations

import json

from test_waits_on_moderator import held_for_dice

from casebook import new_game, position


def test_a_pass_whose_game_waits_on_the_moderator_is_of_kind_moderator(tmp_path, cli):
    j, _box, _out = held_for_dice(tmp_path, cli)
    r = cli("tick", j, "--no-map", "--format", "json")
    assert r.exit_code == 3, r.output
    doc, [line] = json.loads(r.stdout), r.stderr.splitlines()
    error = json.loads(line)
    [game] = doc["games"]
    assert game["waits_on_moderator"] and "waits on the moderator" in game["waits_on_moderator"]
    assert error["kind"] == "moderator" and error["exit"] == 3, error
    assert error["error"] == game["waits_on_moderator"], error
    assert game["kind"] == "moderator" and doc["ok"] is False
    r = cli("tick", j, "--no-map")                      # in text: the same code
    assert r.exit_code == 3 and r.stderr == "referee: 1 problem in 1 game (see above)\n"


def test_a_pass_that_also_failed_is_of_kind_transport_naming_the_failure(tmp_path, cli):
    j, _box, _out = held_for_dice(tmp_path, cli)
    other = new_game(tmp_path, position("1916", player="german"), name="torn")
    other.write_bytes(other.read_bytes()[:-50])                 # its last line torn
    r = cli("tick", tmp_path, "--no-map", "--format", "json")
    assert r.exit_code == 3, r.output
    doc, error = json.loads(r.stdout), json.loads(r.stderr)
    assert len(doc["problems"]) == 2, doc["problems"]
    waits = [g["waits_on_moderator"] for g in doc["games"] if g["waits_on_moderator"]]
    assert error["kind"] == "transport", error
    assert not error["error"].startswith(waits[0]) and "torn" in error["error"], error
    assert [g["kind"] for g in doc["games"]] == ["moderator"], doc["games"]
