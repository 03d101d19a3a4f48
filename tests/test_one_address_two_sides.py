"""One address registered for two sides is allowed (a player may play both, a typed order
key saying which side a reply is for: docs/player.md), but a slip would send one side's
mail and order key to the other's player: `players --set` and `new` say so in one warning
line, naming the side that has the address already and how to undo it, and go on (exit 0).
"""

from __future__ import annotations

import json

from test_hostile_mail import ADDRESSES, new_game

from referee.store.players import roster


def _warnings(r) -> list[str]:
    return [x for x in r.stderr.splitlines() if x.startswith("referee: warning:")]


def test_set_to_the_other_side_address_is_warned_and_taken(tmp_path, cli):
    journal = new_game(cli, tmp_path / "game")
    r = cli("players", journal, "--set", f"german={ADDRESSES['entente']}")
    assert r.exit_code == 0, r.stderr
    (line,) = _warnings(r)
    assert line.startswith(f"referee: warning: german's address {ADDRESSES['entente']} is "
                           f"entente's too: "), line
    assert f"`referee players {journal} --set german={ADDRESSES['german']}` puts german's " \
        f"old address back" in line, line
    records = [json.loads(x) for x in journal.read_text().splitlines()]
    assert roster(records)["german"]["address"] == ADDRESSES["entente"]     # taken
    r = cli("players", journal, "--set", f"german={ADDRESSES['german']}")    # the undo
    assert r.exit_code == 0 and not _warnings(r), r.stderr


def test_set_to_an_address_of_its_own_is_not_warned(tmp_path, cli):
    journal = new_game(cli, tmp_path / "game")
    r = cli("players", journal, "--set", "german=kaiser@potsdam.example.org")
    assert r.exit_code == 0 and not _warnings(r), r.stderr


def test_new_with_one_address_for_both_sides_is_warned(tmp_path, cli):
    journal = tmp_path / "g.jsonl"
    r = cli("new", journal, "--scenario", "1914", "--player", "german=both@example.org",
            "--player", "entente=Both@example.org")
    assert r.exit_code == 0, r.stderr
    (line,) = _warnings(r)
    assert "is entente's too" in line or "is german's too" in line, line
    assert f"`referee players {journal} --set " in line and "its own" in line, line
    r = cli("new", tmp_path / "h.jsonl", "--scenario", "1914", "--player",
            "german=a@example.org", "--player", "entente=b@example.org")
    assert r.exit_code == 0 and not _warnings(r), r.stderr
