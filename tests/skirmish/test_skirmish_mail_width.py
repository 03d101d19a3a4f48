"""Every line of every mail of a skirmish played by mail is within 72 columns, read on a
phone (test_hostile_mail.too_wide). A tester's echoed order, `unaimed B4 at=G4 range=15
cover=none advancing=yes dice=3 command=yes`, 70 columns, was given back indented four,
74 columns, in both players' mails and the moderator's: an order too long for its test's
line is now given alone, indented two, as a mail lists the orders to copy back."""

from __future__ import annotations

import email
import json
from email.policy import default

from flowtext import written
from test_hostile_mail import too_wide
from test_skirmish_mail import BRITISH, GERMAN, UMPIRE, mail, mailed_patrol

WIDE = "unaimed B4 at=G4 range=15 cover=none advancing=yes dice=3 command=yes"


def test_every_mail_of_a_played_fire_step_is_within_72_columns(cli, tmp_path, secret_file):
    j = tmp_path / "patrol.jsonl"
    keys = mailed_patrol(cli, j, secret_file, "--player", f"moderator={UMPIRE}")
    box, out = tmp_path / "mail", tmp_path / "out"
    box.mkdir()
    b, g, m = keys["british"], keys["german"], keys["moderator"]
    played = [(BRITISH, b, ("move B4 mode=manoeuvre command=yes", "done")),
              (GERMAN, g, ("move G4 mode=rush command=yes", "done")),
              (BRITISH, b, ("done",)), (GERMAN, g, ("done",)),          # veterans' step
              (BRITISH, b, (WIDE, "done")),
              (GERMAN, g, ("dispute record=N fact=cover value=soft",)),
              (UMPIRE, m, ("settle record=N uphold=yes",))]
    shot = None
    for n, (who, key, lines) in enumerate(played, 1):
        lines = tuple(x.replace("record=N", f"record={shot}") for x in lines)
        r = cli("inbox", j, mail(box, n, who, key, *lines), "--outbox", out, "--format", "json")
        assert r.exit_code == 0, r.output
        (got,) = json.loads(r.stdout)["messages"]
        assert got["status"] == "applied", r.stdout
        shot = got["records"][0] if WIDE in lines else shot
    mails = [email.message_from_bytes(p.read_bytes(), policy=default)
             for p in sorted(out.glob("*.eml"))]
    echoed = [x for x in mails if f"  {WIDE}\n" in written(x.get_content())]
    assert {str(x["To"]) for x in echoed} >= {BRITISH, GERMAN, UMPIRE}
    for x in mails:
        assert not too_wide(x), (x["To"], too_wide(x))
        assert max(map(len, written(x.get_content()).splitlines())) <= 72, written(x.get_content())
