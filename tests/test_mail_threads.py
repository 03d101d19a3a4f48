"""One conversation a reader and a season (Gmail groups mails by subject alone), and the
record a reply answers read from the Message-ID it replies to (mail/answered.py): the
referee's own, marked for the reply's sender; an earlier version's subject tag `#N` when it
names none; no stale check when neither does."""

from __future__ import annotations

from pathlib import Path

from mailkinds import first_line, report_title
from test_hostile_mail import (
    ADDRESSES,
    GAME,
    KEYS,
    handled,
    mail,
    new_game,
    records,
    replies_to,
    write_mbox,
)

SUBJECT = f"[referee {GAME}] German player, SUMMER 1914"
# The referee's mail of record 2 as a stale reply's answer names it: by its turn and step, as
# its subject and first line named them, the record after, for the moderator.
ANSWERED_2 = "your mail of SUMMER 1914, German player turn (record 2)"
HAND_OFF = f"pass\nend turn\n\nOrder key: {KEYS['german']}\n"     # the decision goes over


def _reply(n: int, subject: str, in_reply_to: str | None, body: str = HAND_OFF) -> bytes:
    """The German's mail number n (its own Date and Message-ID: no copy of another)."""
    headers = f"In-Reply-To: {in_reply_to}\nReferences: {in_reply_to}\n" if in_reply_to else ""
    return mail(body=body, subject=subject, mid=f"<r{n}@potsdam.example.org>",
                date=f"Sat, 01 Aug 1914 1{n}:00:00 +0100", headers=headers)


def _one(cli, journal: Path, tmp_path: Path, raw: bytes, n: int) -> dict:
    (out,) = handled(cli, journal, write_mbox(tmp_path / f"box{n}", [raw]),
                     outbox=tmp_path / "out")
    return out


def _report(outbox: Path, side: str, seq: int):
    """The side's report of record seq, by its Message-ID (which names that record)."""
    (found,) = [m for m in replies_to(outbox, ADDRESSES[side])
                if str(m["Message-ID"]).startswith(f"<rec.{GAME}.{seq}.")
                and "report for the" in report_title(m)]
    return found


def _opened(cli, tmp_path: Path) -> Path:
    """The game, its opening reports written (record 2), then the German's orders answering
    his (In-Reply-To, the subject without a record): applied, his decision passes over
    (records 3 and 4), and his report of record 4 is written."""
    journal = new_game(cli, tmp_path / "game")
    handled(cli, journal, write_mbox(tmp_path / "empty", []), outbox=tmp_path / "out")
    opening = _report(tmp_path / "out", "german", 2)
    out = _one(cli, journal, tmp_path, _reply(1, f"Re: {SUBJECT}", opening["Message-ID"]), 1)
    assert (out["status"], out["records"]) == ("applied", [3, 4]), out
    return journal


def test_every_mail_to_a_player_in_a_season_has_one_subject_its_first_line_says_what(
        cli, tmp_path):
    """His opening report, then the refusal of a misspelt mail: one subject (one Gmail
    conversation), the game and his side and the season; the first line of each says what
    it is. The Entente's mails have a subject of their own."""
    journal = new_game(cli, tmp_path / "game")
    out = tmp_path / "out"
    handled(cli, journal, write_mbox(tmp_path / "empty", []), outbox=out)
    bad = _reply(1, f"Re: {SUBJECT}", None, f"plya offensive\n\nOrder key: {KEYS['german']}\n")
    assert _one(cli, journal, tmp_path, bad, 1)["status"] == "rejected"
    german = replies_to(out, ADDRESSES["german"])
    assert [str(m["Subject"]) for m in german] == [SUBJECT, SUBJECT], german
    firsts = sorted(first_line(m) for m in german)
    # His report opens with what he is asked now (2.0 II.1), then its title.
    assert firsts[0].startswith("Your decision: play an Offensive-type card or pass"), firsts
    assert any(report_title(m).startswith("TO THE LAST MAN! — report for the German player")
               for m in german), [report_title(m) for m in german]
    assert firsts[1].startswith("Your message was not applied: line 1 of your orders failed"), \
        firsts
    assert {str(m["Subject"]) for m in replies_to(out, ADDRESSES["entente"])} == {
        f"[referee {GAME}] Entente player, SUMMER 1914"}


def test_a_reply_to_an_older_mail_by_in_reply_to_is_stale_and_to_the_latest_is_not(
        cli, tmp_path):
    """The German's orders applied, his decision passed over: a mail replying (In-Reply-To)
    to his opening report of record 2 is stale; one replying to his report of record 4 is
    not (refused for what it says, the decision being the Entente's), though its subject
    carries an earlier version's tag of record 2: the Message-ID answered comes first."""
    journal = _opened(cli, tmp_path)
    out = tmp_path / "out"
    old, latest = _report(out, "german", 2), _report(out, "german", 4)
    before = journal.read_bytes()
    stale = _one(cli, journal, tmp_path, _reply(2, f"Re: {SUBJECT}", old["Message-ID"]), 2)
    assert stale["status"] == "stale", stale
    assert ANSWERED_2 in stale["reason"], stale
    tagged = f"Re: [referee {GAME} #2] German report, SUMMER 1914"
    fresh = _one(cli, journal, tmp_path, _reply(3, tagged, latest["Message-ID"]), 3)
    assert fresh["status"] == "rejected" and "record" not in fresh["reason"], fresh
    assert journal.read_bytes() == before


def test_a_reply_to_a_mail_of_an_earlier_version_is_judged_by_its_subject_s_tag(
        cli, tmp_path):
    """A reply to a mail an earlier version sent: its subject `[referee GAME #N] ...`, its
    In-Reply-To a Message-ID naming no record. Stale by the tag's record; without a tag or
    a Message-ID naming one, nothing is stale (the decision is the Entente's: refused)."""
    journal = _opened(cli, tmp_path)
    older = "<9f2c41d7a0b35e68c1d24f70.aaaaaaaaaaaaaaaaaaaaaaaaaa@referee.invalid>"
    tagged = f"Re: [referee {GAME} #2] German report, SUMMER 1914"
    stale = _one(cli, journal, tmp_path, _reply(2, tagged, older), 2)
    assert stale["status"] == "stale" and ANSWERED_2 in stale["reason"], stale
    untagged = _one(cli, journal, tmp_path, _reply(3, f"Re: {SUBJECT}", None), 3)
    assert untagged["status"] == "rejected", untagged


def test_a_message_id_marked_for_another_address_is_ignored(cli, tmp_path):
    """The German replies naming the Entente's opening report (record 2, marked for the
    Entente's address: forwarded to him, say): it tells nothing of what he answered, so no
    stale check is made from it (refused for what it says)."""
    journal = _opened(cli, tmp_path)
    theirs = _report(tmp_path / "out", "entente", 2)["Message-ID"]
    out = _one(cli, journal, tmp_path, _reply(2, f"Re: {SUBJECT}", theirs), 2)
    assert out["status"] == "rejected" and "record 2" not in out["reason"], out


def test_a_mail_for_another_game_in_the_new_subject_form_is_skipped(cli, tmp_path):
    journal = new_game(cli, tmp_path / "game")
    before = journal.read_bytes()
    raw = _reply(1, "Re: [referee othergame] German player, SUMMER 1914", None)
    out = _one(cli, journal, tmp_path, raw, 1)
    assert (out["status"], out["reason"]) == ("skipped", "for another game (othergame)"), out
    assert journal.read_bytes() == before and len(records(journal)) == 3


def test_a_reply_naming_many_of_the_referee_s_ids_is_judged_by_the_last(cli, tmp_path):
    """References name the answered mail last (RFC 5322 3.6.4): a header holding a hundred
    Message-IDs of the referee's shape (their marks none of his) before the German's opening
    report of record 2, and no In-Reply-To, answers that report: stale, as the report alone
    named is (not passed over for the hundred ids before it)."""
    journal = _opened(cli, tmp_path)
    old = _report(tmp_path / "out", "german", 2)["Message-ID"]
    shaped = " ".join(f"<{n}.{'c' * 26}@referee.invalid>" for n in range(100))
    raw = mail(body=HAND_OFF, subject=f"Re: {SUBJECT}", mid="<r2@potsdam.example.org>",
               date="Sat, 01 Aug 1914 12:00:00 +0100", headers=f"References: {shaped} {old}\n")
    out = _one(cli, journal, tmp_path, raw, 2)
    assert out["status"] == "stale" and ANSWERED_2 in out["reason"], out
