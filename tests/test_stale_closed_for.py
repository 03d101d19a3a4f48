"""A reply to an older mail, refused because the writer's decision has changed since, says in
its first lines who closed that decision for him when it was not his own mail: the referee's
default at his missed deadline, or the moderator by hand (each record says how its order
came, `by`). Told only that his decision had changed, a player who answered after his
deadline could not know that the game had answered for him, nor with what.

Both games of the campaign engine: TO THE LAST MAN! and AT ALL COSTS!, each a 1914 game of
test_deadlines.py's players (`--deadline 48h`, missed: default), whose German is asked
first, due by Wednesday 25 November 18:00 UTC."""

from __future__ import annotations

import pytest
from mailboxes import write_maildir
from mailkinds import first_line
from test_deadlines import DUE, mails, text_of
from test_inbox import ADDRESSES, GAME, KEYS, SECRET

import gamecalls as g
from referee.game.timeline import settings_fact
from referee.mail.inbox import inbox as mail_inbox
from referee.mail.reminders import check_deadlines
from referee.store.dice import write_secret


def _game(tmp_path, game: str):
    """A 1914 game of `game` with deadlines whose missed answer is the default, and the
    record its first mails were written at."""
    secret = tmp_path / "fixed.secret"
    write_secret(secret, SECRET)
    journal = tmp_path / "g.jsonl"
    g.create_game(journal, "1914", game_id=GAME, secret_file=secret, game=game,
                  players=[f"{side}={addr}" for side, addr in ADDRESSES.items()],
                  clock=settings_fact("48h", "24h,2h", "default", 2, False))
    return journal, len(journal.read_text().splitlines()) - 1


def _late_reply(tmp_path, journal, answered: int, line: str):
    """The German's mail of line, replying to the referee's mail of record answered: its
    outcomes, and the text of the mail it is answered with, its lines joined."""
    raw = (f"From: {ADDRESSES['german']}\nTo: {ADDRESSES['moderator']}\n"
           f"Subject: Re: [referee {GAME} #{answered}] German player\n"
           f"Date: Wed, 25 Nov 2026 19:00:00 +0000\nMessage-ID: <late-{answered}@example.org>"
           f"\n\n{line}\n\nOrder key: {KEYS['german']}\n").encode()
    out = tmp_path / "replies"
    outcomes, _ = mail_inbox(journal, [write_maildir(tmp_path / "box", [raw])], out,
                             with_map=False)
    [reply] = [m for m in mails(out) if str(m["To"]) == ADDRESSES["german"]]
    return outcomes, reply


def _opening(reply) -> list[str]:
    """The first paragraphs of a reply, each one line."""
    return [" ".join(p.split()) for p in text_of(reply).split("\n\n")[:3]]


@pytest.mark.parametrize("game", ["ttlm", "aac"])
def test_a_late_reply_says_the_referee_answered_at_the_missed_deadline(tmp_path, game,
                                                                     clock):
    journal, answered = _game(tmp_path, game)
    log = check_deadlines(journal, tmp_path / "out", DUE)
    assert any(line.startswith("missed: the German player") for line in log), log
    default = len(journal.read_text().splitlines()) - 1
    before = journal.read_bytes()
    clock(DUE)                          # his reply comes after the pass that answered
    outcomes, reply = _late_reply(tmp_path, journal, answered, "pass")
    assert [o.status for o in outcomes] == ["stale"], outcomes
    assert first_line(reply).startswith("Your message was not applied")
    said = _opening(reply)
    assert said[1] == ("Your deadline passed at Wed 25 Nov 18:00 UTC: the referee answered "
                       f"'pass' for you (record {default})."), said
    assert said[2].startswith("Applied: nothing."), said
    assert journal.read_bytes() == before


@pytest.mark.parametrize("game", ["ttlm", "aac"])
def test_a_late_reply_says_the_moderator_entered_his_order_by_hand(tmp_path, game, clock):
    journal, answered = _game(tmp_path, game)
    assert g.submit(journal, "german", ["pass"]).rejected is None     # `order --as german`
    outcomes, reply = _late_reply(tmp_path, journal, answered, "pass")
    assert [o.status for o in outcomes] == ["stale"], outcomes
    said = _opening(reply)
    assert said[1] == f"The moderator entered 'pass' for you by hand (record {answered + 1}).", \
        said


def test_a_late_reply_after_his_own_mail_names_nobody_else(tmp_path, clock):
    """His decision changed by his own mail (an earlier one of his, applied): nothing more
    than that it changed."""
    journal, answered = _game(tmp_path, "ttlm")
    raw = (f"From: {ADDRESSES['german']}\nTo: {ADDRESSES['moderator']}\nSubject: orders\n"
           f"Date: Tue, 24 Nov 2026 10:00:00 +0000\nMessage-ID: <first@example.org>\n\n"
           f"pass\n\nOrder key: {KEYS['german']}\n").encode()
    mail_inbox(journal, [write_maildir(tmp_path / "first", [raw])], tmp_path / "o1",
               with_map=False)
    outcomes, reply = _late_reply(tmp_path, journal, answered, "pass")
    assert [o.status for o in outcomes] == ["stale"], outcomes
    said = _opening(reply)
    assert said[1].startswith("Applied: nothing."), said
