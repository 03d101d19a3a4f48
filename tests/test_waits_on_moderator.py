"""`tick` exits non-zero, in one line at every pass, whenever a game waits on someone the
players' mail and deadlines cannot move: orders held for the moderator's dice in a
manual-dice game (he is mailed once), or a side with no address to mail."""

from __future__ import annotations

import email
import email.policy
import json

from mailboxes import write_maildir

import gamecalls as g
from casebook import new_game, position

MODERATOR = "umpire@example.com"


def routed(cli, j, tmp_path):
    box, out = tmp_path / "box", tmp_path / "out"
    write_maildir(box, [])
    assert cli("mail", j, "--in", str(box), "--out", f"outbox:{out}").exit_code == 0
    return box, out


def test_orders_held_for_dice_make_every_pass_say_the_game_waits_on_the_moderator(
        tmp_path, cli):
    sc = position("1916", player="german", hands={"german": ["off-01"], "entente": []})
    j = new_game(tmp_path, sc, dice="manual")
    assert cli("players", j, "--set", "german=g@example.org", "--set",
               "entente=e@example.org", "--set", f"moderator={MODERATOR}").exit_code == 0
    key = {p["side"]: p["key"] for p in json.loads(
        cli("players", j, "--keys", "--format", "json").stdout)["players"] if "key" in p}
    assert g.submit(j, "german", ["play offensive", "move ge-5 verdun",
                                  "end movement"]).rejected is None
    box, out = routed(cli, j, tmp_path)
    r = cli("tick", j, "--no-map")
    assert r.exit_code == 0, r.output            # the reports: the game waits on a player
    write_maildir(box, [(f"From: e@example.org\nSubject: orders\nMessage-ID: <m1@example.org>"
                         f"\n\ndone\ndone\n\nOrder key: {key['entente']}\n").encode()])
    for _ in range(2):
        r = cli("tick", j, "--no-map")
        assert r.exit_code != 0, r.output
        [line] = [x for x in r.stderr.splitlines() if "waits on the moderator" in x]
        assert "entente's orders need dice" in line and "--as entente --dice" in line
    told = [email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
            for p in out.glob("held-*moderator.eml")]
    assert [str(m["To"]) for m in told] == [MODERATOR]          # once, to him
    # He enters them with the dice he rolled: the game moves, and the line goes.
    r = cli("order", j, "--as", "entente", "--dice", ",".join(["6"] * 21), "done", "done")
    assert r.exit_code == 0, r.output
    r = cli("tick", j, "--no-map")
    assert "waits on the moderator" not in r.output, r.output


def test_a_side_with_no_address_is_a_game_waiting_on_the_moderator(tmp_path, cli):
    sc = position("1916", player="german", hands={"german": [], "entente": []})
    j = new_game(tmp_path, sc)
    assert cli("players", j, "--set", "entente=e@example.org").exit_code == 0
    routed(cli, j, tmp_path)
    r = cli("tick", j, "--no-map")
    assert r.exit_code != 0
    assert "the game waits on german, who has no registered address" in r.stderr, r.stderr
    assert cli("players", j, "--set", "german=g@example.org").exit_code == 0
    assert cli("tick", j, "--no-map").exit_code == 0
