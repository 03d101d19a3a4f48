"""A dispute of the test that ended a skirmish (a side's last figure killed): the game is
over unless the moderator's ruling undoes that, so he is mailed the dispute to settle, as
his mail opens, and not told only that the game is over; his ruling by mail is taken."""

from __future__ import annotations

import json

from mailboxes import write_maildir
from skirmish_cases import DUEL, done_until, new_mails
from test_skirmish_mail import BRITISH, GERMAN, UMPIRE, mail


def test_the_moderator_is_asked_to_settle_a_dispute_of_the_last_kill(cli, tmp_path):
    (tmp_path / "duel.yaml").write_text(DUEL, encoding="utf-8")
    j, out, box = tmp_path / "d.jsonl", tmp_path / "out", tmp_path / "box"
    box.mkdir()
    r = cli("new", j, "--game", "skirmish", "--scenario", tmp_path / "duel.yaml", "--dice",
            "manual", "--player", f"british={BRITISH}", "--player", f"german={GERMAN}",
            "--player", f"moderator={UMPIRE}")
    assert r.exit_code == 0, r.output
    keys = json.loads(cli("skirmish", "keys", j, "--format", "json").stdout)["keys"]
    done_until(cli, j, "fire")
    r = cli("order", j, "--as", "german",
            "fire G1 at=B1 range=10 state=halted cover=none command=yes", "--dice", "18")
    assert r.exit_code == 0 and "B1 killed" in r.stdout, r.output
    # Every reader's first report: the game is over.
    assert cli("inbox", j, write_maildir(tmp_path / "empty", []), "--outbox", out
               ).exit_code == 0
    assert "The game is over" in new_mails(out, set())[UMPIRE]
    before = set(out.glob("*.eml"))
    r = cli("inbox", j, mail(box, 1, BRITISH, keys["british"],
                             "dispute record=5 fact=cover value=hard"), "--outbox", out)
    assert r.exit_code == 0, r.output
    told = new_mails(out, before)
    assert UMPIRE in told, told.keys()
    assert told[UMPIRE].startswith("Disputes for you to settle: record 5's cover."), \
        told[UMPIRE]
    before = set(out.glob("*.eml"))
    r = cli("inbox", j, mail(box, 2, UMPIRE, keys["moderator"],
                             "settle record=5 fact=cover value=hard"), "--outbox", out,
            "--format", "json")
    assert [x["status"] for x in json.loads(r.stdout)["messages"]] == ["applied"], r.stdout
    doc = json.loads(cli("skirmish", "report", j, "--format", "json").stdout)
    assert {f["id"]: f["state"] for f in doc["figures"]}["B1"] != "killed"
