"""A deadline's mail owed again after the moderator set the game back: its name is made from
the hand-off and the time it is due (reminders.py), which a history played on from the set
back may reach again, by another record of the same number (mail/msgids.py names it by
number and hash). The mail written for the history cut away, still in the outbox or its
sent/, is not the mail of the new one (named.py): the new one is written, naming its own
record. A mail an earlier version wrote names the number alone, and still counts for it."""

from __future__ import annotations

import email
import email.policy
import re
from datetime import timedelta
from pathlib import Path

from test_deadlines import DUE, new_game, order, records
from test_hostile_mail import ADDRESSES, GAME, rewound_on_purpose

from referee.mail.msgids import message_id, record_of
from referee.mail.reminders import check_deadlines

GERMAN = ADDRESSES["german"]
NAME = "deadline-000004-german-remind-24h-20261125T180000Z"
LOG = ["reminder: the German player, orders due by Wed 25 Nov 18:00 UTC (24h before)"]


def _named(path: Path):
    """The record the mail at path names by its Message-ID (msgids.record_of)."""
    head = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    return record_of(str(head["Message-ID"]), GERMAN, GAME)


def _set_back(journal: Path, cut: bytes) -> dict:
    """The journal set back to cut, the German's Limited Offensive entered instead of his
    Offensive (at the same time: another record 4, whose deadline is the same): that
    record."""
    journal.write_bytes(cut)
    rewound_on_purpose(journal)
    order(journal, "german", "play limited_offensive")
    return records(journal)[4]


def _reminded(tmp_path: Path, cli, sent: bool) -> tuple[Path, Path, bytes, dict]:
    """The German's 24h reminder after his Offensive (record 4), in the outbox or moved into
    its sent/; the journal then set back: the journal, the old mail, its bytes, and the
    new record 4."""
    journal = new_game(tmp_path, cli, "--deadline", "48h")
    cut = journal.read_bytes()
    order(journal, "german", "play offensive")
    out = tmp_path / "out"
    assert check_deadlines(journal, out, DUE - timedelta(hours=24)) == LOG
    old = out / f"{NAME}.eml"
    assert _named(old) == (4, records(journal)[4]["hash"][:12])
    if sent:
        (out / "sent").mkdir()
        old = old.rename(out / "sent" / old.name)
    return journal, old, old.read_bytes(), _set_back(journal, cut)


def test_a_reminder_sent_before_a_set_back_does_not_stand_for_the_new_history_s(
        tmp_path, cli, clock):
    journal, old, before, new = _reminded(tmp_path, cli, sent=True)
    out = old.parent.parent
    assert check_deadlines(journal, out, DUE - timedelta(hours=24)) == LOG
    (written,) = out.glob(f"{NAME}*.eml")          # under its second name: sent/ holds the first
    assert _named(written) == (4, new["hash"][:12]) != _named(old)
    assert old.read_bytes() == before


def test_a_reminder_not_yet_sent_before_a_set_back_does_not_stand_either(tmp_path, cli,
                                                                           clock):
    journal, old, before, new = _reminded(tmp_path, cli, sent=False)
    assert check_deadlines(journal, old.parent, DUE - timedelta(hours=24)) == LOG
    assert sorted(_named(p) for p in old.parent.glob(f"{NAME}*.eml")) == sorted(
        [(4, new["hash"][:12]), _named(old)])
    assert old.read_bytes() == before


def test_a_reminder_of_the_same_record_stands_and_one_an_earlier_version_wrote_too(
        tmp_path, cli, clock):
    """The journal set back to before the reminder alone (its record 4 the same): the mail
    in sent/ stands, as does one whose Message-ID names record 4 by its number alone."""
    journal = new_game(tmp_path, cli, "--deadline", "48h")
    order(journal, "german", "play offensive")
    cut = journal.read_bytes()
    out = tmp_path / "out"
    assert check_deadlines(journal, out, DUE - timedelta(hours=24)) == LOG
    (out / "sent").mkdir()
    old = (out / f"{NAME}.eml").rename(out / "sent" / f"{NAME}.eml")
    ours = old.read_bytes()
    earlier = message_id(GERMAN, f"rec.{GAME}.4.{NAME}")
    for mail in (ours, re.sub(rb"<rec\.[^>]+>", earlier.encode(), ours)):
        old.write_bytes(mail)
        journal.write_bytes(cut)
        rewound_on_purpose(journal)
        assert check_deadlines(journal, out, DUE - timedelta(hours=24)) == LOG
        assert not list(out.glob("*.eml"))
    assert _named(old) == (4, None)
