"""A phone sending the same orders twice, each a reply to the same mail of the referee's and
under its own Date and Message-ID (so not a copy, copies.py): the first is applied; the
second is a reply to an older mail, but its writer's decision need not have changed (he may
have none now). It is told that these same orders were applied already, as which record,
never that his decision changed; and in the same mail as his report when one goes to him in
that pass."""

from __future__ import annotations

from mailboxes import write_maildir
from test_deadlines import mails, new_game, text_of
from test_inbox import ADDRESSES, GAME, KEYS

from referee.mail.inbox import inbox as mail_inbox


def _mail(side: str, answered: int, lines: list[str], minute: int) -> bytes:
    body = "\n".join(lines)
    return (f"From: {ADDRESSES[side]}\nTo: {ADDRESSES['moderator']}\n"
            f"Subject: Re: [referee {GAME} #{answered}] {side} player\n"
            f"Date: Tue, 24 Nov 2026 10:{minute:02d}:00 +0000\n"
            f"Message-ID: <{side}-{answered}-{minute}@example.org>"
            f"\n\n{body}\n\nOrder key: {KEYS[side]}\n").encode()


def _twice(tmp_path, cli, lines: list[str]):
    journal = new_game(tmp_path, cli)
    answered = len(journal.read_text().splitlines()) - 1
    box = write_maildir(tmp_path / "box", [_mail("german", answered, lines, 0),
                                            _mail("german", answered, lines, 1)])
    outcomes, _ = mail_inbox(journal, [box], tmp_path / "out", with_map=False)
    said = [" ".join(text_of(m).split()) for m in mails(tmp_path / "out")
            if str(m["To"]) == ADDRESSES["german"]]
    return answered, outcomes, said


def test_the_same_orders_sent_again_are_told_applied_already(tmp_path, cli):
    answered, outcomes, said = _twice(tmp_path, cli, ["play offensive", "end movement"])
    assert [o.status for o in outcomes] == ["applied", "stale"], outcomes
    first, last = outcomes[0].records[0], outcomes[0].records[-1]
    assert (first, last) == (answered + 1, answered + 2), outcomes[0]
    why = outcomes[1].reason
    assert f"these same orders were already applied as records {first}–{last}" in why, why
    # The mail it answers named by its turn and step, as he knows it, its record after.
    assert why.startswith(f"it answers your mail of SUMMER 1914, German player turn "
                          f"(record {answered}), "), why
    assert "your decision has changed" not in " ".join(said), said


def test_other_orders_replying_to_the_same_mail_are_stale_as_before(tmp_path, cli):
    journal = new_game(tmp_path, cli)
    answered = len(journal.read_text().splitlines()) - 1
    box = write_maildir(tmp_path / "box", [_mail("german", answered, ["pass"], 0),
                                            _mail("german", answered, ["play offensive"], 1)])
    outcomes, _ = mail_inbox(journal, [box], tmp_path / "out", with_map=False)
    assert [o.status for o in outcomes] == ["applied", "stale"], outcomes
    assert "your decision has changed" in outcomes[1].reason, outcomes[1].reason
    assert outcomes[1].reason.startswith("it answers your mail of SUMMER 1914, German "
                                         f"player turn (record {answered}), "), outcomes[1]
