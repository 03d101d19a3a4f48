"""What a refusal says follows it (what he is asked now, once the game resumes, or nothing
more: mail/refusal.py) is decided by the game's state as the reply is written, as the report
below it shows the game, never by the words of the reason: they may quote what the player
wrote."""

from __future__ import annotations

import json

import pytest
from mailboxes import write_maildir
from mailkinds import headline
from test_deadlines import mails, new_game, player_mail, text_of
from test_inbox import ADDRESSES, KEYS

import gamecalls as g
from referee.game.timeline import CLOSED, PAUSED
from referee.mail.inbox import inbox as mail_inbox
from referee.mail.ledger import load_ledger, save_ledger

NOW = "Below: what you are asked now, then your report."
RESUMES = "What you will be asked once the game resumes is below."
NOTHING_MORE = "nothing more is asked of you"


def _charset_mail(tmp_path, charset: str):
    """A Maildir holding one German message, key and all, whose text part names charset: a
    mail program's label that no codec has, which the refusal quotes."""
    body = f"pass\n\nOrder key: {KEYS['german']}\n"
    raw = (f"From: {ADDRESSES['german']}\nTo: {ADDRESSES['moderator']}\nSubject: orders\n"
           f"Date: Tue, 24 Nov 2026 10:00:00 +0000\nMessage-ID: <cs.german@example.org>\n"
           f"MIME-Version: 1.0\nContent-Type: text/plain; charset=\"{charset}\"\n\n"
           f"{body}").encode()
    return write_maildir(tmp_path / "box", [raw])


@pytest.mark.parametrize("words", [PAUSED, CLOSED])
def test_a_running_game_s_refusal_quoting_the_words_of_a_halt_asks_him_now(tmp_path, cli,
                                                                            words):
    """A running game, and a message whose charset is the words of a paused (or closed)
    game's refusal: its reply quotes them, and says what he is asked now, not what he will
    be asked once the game resumes, nor that nothing more is asked."""
    journal = new_game(tmp_path, cli)
    box = _charset_mail(tmp_path, words)
    outcomes, _ = mail_inbox(journal, [box], tmp_path / "out", with_map=False)
    assert [(o.status, o.side) for o in outcomes] == [("rejected", "german")], outcomes
    assert words in outcomes[0].reason
    reply = next(" ".join(text_of(m).split()) for m in mails(tmp_path / "out")
                 if str(m["To"]) == ADDRESSES["german"])
    assert NOW in reply, reply
    assert RESUMES not in reply and NOTHING_MORE not in reply, reply


def test_more_time_asked_of_a_game_over_is_told_nothing_more_is_asked(tmp_path, cli, clock):
    """A player asks for more time (`extend 24h`) once the game has ended by a surrender
    (3.3): no deadline runs any more (2.0 VI). His reply says the game is over and that
    nothing more is asked of him, not that orders are open to him; once, however often
    the mailbox is read."""
    journal = new_game(tmp_path, cli, "--deadline", "48h")
    assert g.submit(journal, "german", ["surrender"]).rejected is None
    over = journal.read_bytes()
    box = player_mail(tmp_path, "german", ["extend 24h"], 1)
    for _ in range(2):
        outcomes, _ = mail_inbox(journal, [box], tmp_path / "out", with_map=False)
    [reply] = [" ".join(text_of(m).split()) for m in mails(tmp_path / "out")
               if str(m["To"]) == ADDRESSES["german"]]
    assert "the game is over" in reply and NOTHING_MORE in reply, reply
    assert NOW not in reply and RESUMES not in reply, reply
    assert journal.read_bytes() == over


def test_a_reply_an_older_referee_left_owed_tells_the_game_s_halt_now(tmp_path, cli):
    """A reply owed in the ledger by a referee before `halted` was kept (its entry has no
    such key), written once the game is paused: it says what he will be asked once the game
    resumes, as a reply to a paused game does, not what he is asked now."""
    journal = new_game(tmp_path, cli, "via_cli")
    assert cli("deadline", journal, "--pause").exit_code == 0
    head = json.loads(journal.read_text().splitlines()[0])
    ledger = load_ledger(head["game_id"], head["hash"])
    ledger["owed"].append({"name": "older-reply", "to": ADDRESSES["german"], "side": "german",
                           "message_id": "<older@example.org>", "status": "rejected",
                           "reason": "the orders could not be taken", "line": None,
                           "text": "", "why": "", "before": 0, "notes": []})
    save_ledger(ledger)
    mail_inbox(journal, [write_maildir(tmp_path / "empty", [])], tmp_path / "out",
               with_map=False)
    [reply] = [" ".join(text_of(m).split()) for m in mails(tmp_path / "out")
               if str(m["To"]) == ADDRESSES["german"] and "not applied" in headline(m)]
    assert RESUMES in reply and NOW not in reply, reply


def _mail(side: str, lines: list[str], message_id: str) -> bytes:
    body = "\n".join(lines) + f"\n\nOrder key: {KEYS[side]}\n"
    return (f"From: {ADDRESSES[side]}\nTo: {ADDRESSES['moderator']}\nSubject: orders\n"
            f"Date: Tue, 24 Nov 2026 10:00:00 +0000\nMessage-ID: <{message_id}@example.org>\n"
            f"\n{body}").encode()


def test_a_copy_of_the_mail_that_ended_the_game_is_told_it_is_over(tmp_path, cli):
    """The mail that ended the game (a surrender, 3.3) sent again under a new Message-ID is a
    copy, applied once; the reply to the copy shows the game over below it, and says so:
    not that orders are open to him (2.0 VI)."""
    journal = new_game(tmp_path, cli)
    first = write_maildir(tmp_path / "first", [_mail("german", ["surrender"], "first")])
    assert [o.status for o in mail_inbox(journal, [first], tmp_path / "out1",
                                         with_map=False)[0]] == ["applied"]
    over = journal.read_bytes()
    again = write_maildir(tmp_path / "again", [_mail("german", ["surrender"], "again")])
    outcomes, _ = mail_inbox(journal, [again], tmp_path / "out2", with_map=False)
    assert [o.status for o in outcomes] == ["rejected"], outcomes
    [reply] = [" ".join(text_of(m).split()) for m in mails(tmp_path / "out2")
               if str(m["To"]) == ADDRESSES["german"]]
    assert reply.startswith("This is a copy of your mail of Tue 24 Nov 10:00 UTC, which "
                            "was applied already (record 3): nothing more was done."), reply
    assert NOTHING_MORE in reply and NOW not in reply, reply
    assert "send them in a new message" not in reply, reply        # no orders are taken
    assert journal.read_bytes() == over


def test_an_order_out_of_turn_cites_its_rule_once(tmp_path, cli):
    """1914 opens with the German player turn (2.0 II): an Entente order then is out of turn
    (2.0 II.1), and the refusal says whose decision it is, naming the rule once, not once in
    the decision's words and again after them."""
    journal = new_game(tmp_path, cli)
    before = journal.read_bytes()
    r = cli("order", journal, "--as", "entente", "pass")
    assert r.exit_code == 1 and journal.read_bytes() == before, r.output
    assert "it is not the Entente player's decision: the referee is waiting on the German " \
        "player (play an Offensive-type card or pass" in r.stderr, r.stderr
    assert r.stderr.count("2.0 II.1") == 1, r.stderr
    assert r.stderr.rstrip().endswith("(rule 2.0 II.1)"), r.stderr


def test_a_refusal_says_once_that_nothing_was_applied(tmp_path, cli, clock):
    """A mail asking for more time with orders beside it is refused whole (the referee's
    own rule for 'extend'): the reply's reason no longer ends as its 'Applied: nothing.'
    below it does, so the player reads it once."""
    journal = new_game(tmp_path, cli, "--deadline", "48h")
    before = journal.read_bytes()
    box = player_mail(tmp_path, "german", ["extend 24h", "pass"], 1)
    outcomes, _ = mail_inbox(journal, [box], tmp_path / "out", with_map=False)
    assert [o.status for o in outcomes] == ["rejected"], outcomes
    assert outcomes[0].reason.endswith("nothing was applied"), outcomes[0].reason
    reply = next(" ".join(text_of(m).split()) for m in mails(tmp_path / "out")
                 if str(m["To"]) == ADDRESSES["german"])
    assert "holds nothing else" in reply, reply
    assert reply.count("othing was applied") == 0 and reply.count("Applied: nothing.") == 1
    assert journal.read_bytes() == before
