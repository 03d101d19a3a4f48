"""A skirmish's report to a side is named by the record it ends at (mail/direct.py): after
the moderator set the game back and another record of that number was written, the report
written for the history cut away, gone out into the outbox's sent/, must not stand for the
new history's. It did: the German was never told the British move that now stands."""

from __future__ import annotations

import email
import json
from email.policy import default

from test_hostile_mail import rewound_on_purpose
from test_skirmish_mail import BRITISH, GERMAN, mail, mailed_patrol

from referee.mail.msgids import record_of


def _german_reports(out) -> list[tuple[int, str]]:
    """The record each mail to the German in out and its sent/ names (number, hash)."""
    named = []
    for p in [*out.glob("*.eml"), *out.glob("sent/*.eml")]:
        m = email.message_from_bytes(p.read_bytes(), policy=default)
        if str(m["To"]) == GERMAN:
            named.append(tuple(record_of(str(m["Message-ID"]), GERMAN, "patrol")))
    return sorted(named)


def test_a_report_sent_before_a_set_back_does_not_stand_for_the_new_history_s(
        cli, tmp_path, secret_file):
    j = tmp_path / "patrol.jsonl"
    keys = mailed_patrol(cli, j, secret_file)
    box, out = tmp_path / "mail", tmp_path / "out"
    box.mkdir()
    cut = j.read_bytes()
    first = mail(box, 1, BRITISH, keys["british"], "move B2 mode=manoeuvre command=yes")
    assert cli("inbox", j, first, "--outbox", out).exit_code == 0
    old = _german_reports(out)
    assert len(old) == 1
    (out / "sent").mkdir()
    for p in out.glob("*.eml"):
        p.rename(out / "sent" / p.name)
    j.write_bytes(cut)
    rewound_on_purpose(j)
    other = mail(box, 2, BRITISH, keys["british"], "move B3 mode=stealthy command=yes")
    r = cli("inbox", j, other, "--outbox", out)
    assert r.exit_code == 0, r.output
    last = json.loads(j.read_text().splitlines()[-1])
    assert sorted(_german_reports(out)) == sorted([*old, (last["seq"], last["hash"][:12])])
    assert last["seq"] == old[0][0] and not last["hash"].startswith(old[0][1])
