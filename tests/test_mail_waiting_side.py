"""A mail from the side the game is not waiting on, replying to a mail that asked him
nothing: while he is still asked nothing, the other side's orders since change nothing he
was asked, so the reply is not stale. What he may give at any time (an armistice, 3.2) is
applied; an order that is not his to give is refused as such, not as a reply to an old
mail."""

from __future__ import annotations

from mailboxes import write_maildir
from test_deadlines import mails, new_game, text_of
from test_inbox import ADDRESSES, GAME, KEYS

import gamecalls as g
from referee.mail.inbox import inbox as mail_inbox


def replying(tmp_path, journal, side: str, answered: int, line: str):
    """(outcomes, what side is mailed back, blanks made one) of side's mail of line, replying
    to the referee's mail of record answered."""
    raw = (f"From: {ADDRESSES[side]}\nTo: {ADDRESSES['moderator']}\n"
           f"Subject: Re: [referee {GAME} #{answered}] {side} player\n"
           f"Date: Tue, 24 Nov 2026 10:00:00 +0000\nMessage-ID: <{side}-{answered}@example.org>"
           f"\n\n{line}\n\nOrder key: {KEYS[side]}\n").encode()
    outcomes, _ = mail_inbox(journal, [write_maildir(tmp_path / "box", [raw])],
                             tmp_path / "out", with_map=False)
    said = [" ".join(text_of(m).split()) for m in mails(tmp_path / "out")
            if str(m["To"]) == ADDRESSES[side]]
    return outcomes, said


def _german_moved_on(tmp_path, cli):
    """A 1914 game whose German has passed (so he is asked his pass move now): the
    Entente's mail of the record before asked him nothing, and so does the game now."""
    journal = new_game(tmp_path, cli)
    answered = len(journal.read_text().splitlines()) - 1
    assert g.submit(journal, "german", ["pass"]).rejected is None
    return journal, answered


def test_an_armistice_replying_to_a_mail_that_asked_nothing_is_applied(tmp_path, cli):
    journal, answered = _german_moved_on(tmp_path, cli)
    outcomes, said = replying(tmp_path, journal, "entente", answered, "propose armistice")
    assert [o.status for o in outcomes] == ["applied"], (outcomes, said)
    assert not any("your decision has changed" in s for s in said), said


def test_an_order_out_of_turn_is_refused_as_not_his_not_as_stale(tmp_path, cli):
    journal, answered = _german_moved_on(tmp_path, cli)
    before = journal.read_bytes()
    outcomes, said = replying(tmp_path, journal, "entente", answered, "play offensive")
    assert [o.status for o in outcomes] == ["rejected"], outcomes
    [reply] = [s for s in said if "not applied" in s]
    assert "your decision has changed" not in reply, reply
    assert "not the Entente player's decision" in reply, reply
    assert journal.read_bytes() == before



def test_a_reply_asked_nothing_is_stale_once_his_own_decision_came_and_went(tmp_path, cli):
    """Asked nothing then and now, but between he was asked and answered (his production,
    7.0): the board he answered is gone, and so may be the level of victory an armistice
    or a surrender he wrote for it would end the game at (3.2, 3.3), or the turn a
    Military Crisis! is his to play in (9.8, 9.9). It is refused as a reply to an old
    mail, as it was before he was asked nothing."""
    journal = new_game(tmp_path, cli)
    assert g.submit(journal, "german", ["pass"]).rejected is None
    assert g.submit(journal, "german", ["end turn"]).rejected is None
    answered = len(journal.read_text().splitlines()) - 1    # the Entente's player turn
    for side, line in (("entente", "pass"), ("entente", "end turn"), ("german", "done")):
        assert g.submit(journal, side, [line]).rejected is None, (side, line)
    before = journal.read_bytes()               # production waits on the Entente alone
    outcomes, said = replying(tmp_path, journal, "german", answered, "propose armistice")
    assert [o.status for o in outcomes] == ["stale"], (outcomes, said)
    assert any("your decision has changed" in s for s in said), said
    assert journal.read_bytes() == before
