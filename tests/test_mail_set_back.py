"""A reply to a mail of a history the moderator set back: the Message-ID of each mail about
a game names the journal's last record by number and by the first digits of its hash
(mail/msgids.py), so that a reply answering record N of the history cut away is not taken
for an answer to the record N written since (mail/handling.stale). An id an earlier version
wrote names the number alone and is still read by it; the mark covers the hash, so nobody
makes the id of another record, nor gains by quoting another player's."""

from __future__ import annotations

from pathlib import Path

from test_hostile_mail import (
    ADDRESSES,
    GAME,
    KEYS,
    handled,
    mail,
    mails,
    new_game,
    replies_to,
    rewound_on_purpose,
    write_mbox,
)
from test_mail_threads import ANSWERED_2, SUBJECT, _report

from referee.mail.msgids import Answered, message_id, record_of

GERMAN = ADDRESSES["german"]
# A line the German may give both after his Offensive and after a Limited Offensive.
END = f"end movement\n\nOrder key: {KEYS['german']}\n"


def _set_back(cli, tmp_path: Path) -> tuple[Path, str, str]:
    """The German plays an Offensive by mail (record 3; his report of record 3 answers it);
    the moderator sets the journal back to record 2 and enters a Limited Offensive for him
    (another record 3), the next run writing his report of it. The German's decision is a
    movement phase after either: the journal, and his two reports' Message-IDs, old then
    new."""
    journal = new_game(cli, tmp_path / "game")
    handled(cli, journal, write_mbox(tmp_path / "box0", []), outbox=tmp_path / "out0")
    cut = journal.read_bytes()
    out = handled(cli, journal, write_mbox(tmp_path / "box1", [mail()]),
                  outbox=tmp_path / "old")
    assert [(o["status"], o["records"]) for o in out] == [("applied", [3])], out
    old = _report(tmp_path / "old", "german", 3)["Message-ID"]
    journal.write_bytes(cut)                                        # set back to record 2
    rewound_on_purpose(journal)
    r = cli("order", journal, "--as", "german", "play limited_offensive")
    assert r.exit_code == 0, r.output
    handled(cli, journal, write_mbox(tmp_path / "box2", []), outbox=tmp_path / "new")
    new = _report(tmp_path / "new", "german", 3)["Message-ID"]
    assert str(old).split(".")[3] != str(new).split(".")[3], (old, new)   # another record 3
    return journal, str(old), str(new)


def _reply(cli, journal: Path, tmp_path: Path, n: int, replying: str,
           references: str | None = None) -> tuple[dict, Path]:
    """The German's 'end movement' replying to the mail `replying` (References: that one,
    or `references`): its outcome, and the outbox of the run."""
    headers = f"In-Reply-To: {replying}\nReferences: {references or replying}\n"
    raw = mail(body=END, subject=f"Re: {SUBJECT}", mid=f"<s{n}@potsdam.example.org>",
               date=f"Sat, 01 Aug 1914 1{n}:00:00 +0100", headers=headers)
    outbox = tmp_path / f"reply{n}"
    (out,) = handled(cli, journal, write_mbox(tmp_path / f"in{n}", [raw]), outbox=outbox)
    return out, outbox


def _old_form(seq: int) -> str:
    """The German's Message-ID as an earlier version wrote it naming record seq: its number
    alone, then a random part whose first digits are a time (as email.utils.make_msgid's),
    marked for his address."""
    return message_id(GERMAN, f"rec.{GAME}.{seq}.179581813745.20599.13552103428242858955")


def test_a_reply_to_a_mail_of_a_history_set_back_is_stale(cli, tmp_path):
    """His reply to his report of the old record 3 answers a board that is gone (an
    Offensive, where a Limited Offensive now stands): refused as stale, saying the game was
    set back, the journal untouched, one answer to him. Its number alone would have let it
    through (record 3 is the last one again)."""
    journal, old, _ = _set_back(cli, tmp_path)
    before = journal.read_bytes()
    out, outbox = _reply(cli, journal, tmp_path, 1, old)
    assert out["status"] == "stale", out
    assert "before the moderator set the game back" in out["reason"], out
    assert "record 3 is another one now" in out["reason"], out
    assert journal.read_bytes() == before
    assert len(replies_to(outbox, GERMAN)) == 1, [str(m["To"]) for m in mails(outbox)]


def test_a_reply_to_the_mail_of_the_history_played_on_is_applied(cli, tmp_path):
    """His reply to his report of the new record 3: applied (record 4)."""
    journal, _, new = _set_back(cli, tmp_path)
    out, _ = _reply(cli, journal, tmp_path, 1, new)
    assert (out["status"], out["records"]) == ("applied", [4]), out


def test_a_message_id_of_an_earlier_version_is_judged_by_its_number(cli, tmp_path):
    """Ids an earlier version wrote name no hash (the digits after the number are the time
    of a random part, no hash): judged by the number as before. Naming record 2, his
    decision has changed since (stale, as ever); naming record 3, the last record, nothing
    tells which record 3 it was: applied."""
    journal, _, _ = _set_back(cli, tmp_path)
    assert record_of(_old_form(3), GERMAN, GAME) == Answered(3, None)
    before = journal.read_bytes()
    out, _ = _reply(cli, journal, tmp_path, 1, _old_form(2))
    assert out["status"] == "stale" and ANSWERED_2 in out["reason"], out
    assert journal.read_bytes() == before
    out, _ = _reply(cli, journal, tmp_path, 2, _old_form(3))
    assert (out["status"], out["records"]) == ("applied", [4]), out


def test_a_forged_hash_or_another_player_s_id_gains_nothing(cli, tmp_path):
    """The German names in In-Reply-To his old report with the hash of the new record 3
    written in (its mark made for the id as sent: it fails), or the Entente's report of the
    new record 3 (marked for the Entente); his References name his old report. Neither id is
    believed: the old report is what he answers, and the reply is stale."""
    journal, old, new = _set_back(cli, tmp_path)
    fresh = new.split(".")[3]
    forged = old.replace(old.split(".")[3], fresh)
    assert forged != old and fresh.startswith("h")
    assert record_of(old, GERMAN, GAME) == Answered(3, old.split(".")[3][1:])
    assert record_of(forged, GERMAN, GAME) is None
    theirs = str(_report(tmp_path / "new", "entente", 3)["Message-ID"])
    assert theirs.split(".")[3] == fresh and record_of(theirs, GERMAN, GAME) is None
    before = journal.read_bytes()
    for n, ident in enumerate((forged, theirs), 1):
        out, _ = _reply(cli, journal, tmp_path, n, ident, references=old)
        assert out["status"] == "stale" and "set the game back" in out["reason"], (ident, out)
        assert journal.read_bytes() == before


def test_an_id_of_a_game_whose_id_differs_in_case_alone_names_no_record_here():
    """`referee new` allows `alpha` beside `Alpha`, and one player may play both from one
    address: his reply claimed by Alpha (its tag, or its order key) that quotes a mail of
    alpha's must not be judged by alpha's record (its hash is never Alpha's: refused as set
    back, or as beyond the journal). The referee writes the game id into the Message-ID as
    it is, and the mark covers it: no mail program changes its case."""
    record = {"seq": 5, "hash": "0123456789abcdef" * 4}
    ident = message_id(GERMAN, record=("alpha", record))
    assert record_of(ident, GERMAN, "alpha") == Answered(5, "0123456789ab")
    assert record_of(ident, GERMAN, "Alpha") is None
    assert record_of(ident, GERMAN, "ALPHA") is None
