"""The moderator told once that the game is over (3.0): the players are asked nothing more,
and the game waits on him for one thing, its dice secret published (`reveal`), which lets
every player check every die. The mail comes from the pass `tick` makes over the game
(mail/waiting.py waits_on_a_person), once: not again at the next pass, nor when his mail
program took it out of the outbox; never before the end, nor once the secret is out."""

from __future__ import annotations

from contextlib import contextmanager

from test_deadlines import START, mails, new_game, text_of
from test_inbox import ADDRESSES

import gamecalls as g
from referee.mail import ended
from referee.mail.waiting import waits_on_a_person
from referee.table import Table


def _pass(journal, outbox) -> list:
    """A pass's step for the moderator, as tick makes it: its line (None: nothing waits on
    him) and the mails to him in the outbox after it."""
    line = waits_on_a_person(Table(journal).whole(), journal.name, outbox, START)
    return [line, [m for m in mails(outbox) if str(m["To"]) == ADDRESSES["moderator"]]]


def test_the_moderator_is_mailed_once_that_the_game_is_over(tmp_path, cli, clock):
    journal, outbox = new_game(tmp_path, cli), tmp_path / "out"
    assert _pass(journal, outbox) == [None, []]                 # not over: nothing to tell
    assert g.submit(journal, "german", ["propose armistice"]).rejected is None
    assert g.submit(journal, "entente", ["accept armistice"]).rejected is None
    line, [told] = _pass(journal, outbox)
    assert line is None                         # the pass fails on nothing: he may wait
    said = text_of(told)
    assert said.startswith("The game is over: armistice proposed by the German player and "
                           "accepted\n(3.2); result: Stalemate."), said
    assert f"\n  referee reveal {journal}\n" in said, said     # a command is never split
    # Continued where the shell continues it, when one line would pass 72 columns.
    assert f"\n  referee log {journal} \\\n      --as SIDE --format json > SIDE.jsonl\n" \
        in said
    assert "(SIDE: german, entente or public)" in " ".join(said.split()), said
    assert max(len(x) for x in said.splitlines() if not x.startswith("  ")) <= 72, said
    assert len(_pass(journal, outbox)[1]) == 1                  # not again
    for path in outbox.glob("*.eml"):
        path.unlink()                           # his mail program took it out of the folder
    assert _pass(journal, outbox) == [None, []]
    assert cli("reveal", journal).exit_code == 0


def test_a_game_revealed_at_its_end_tells_him_nothing(tmp_path, cli, clock):
    journal, outbox = new_game(tmp_path, cli), tmp_path / "out"
    assert g.submit(journal, "german", ["surrender"]).rejected is None
    assert cli("reveal", journal).exit_code == 0
    assert _pass(journal, outbox) == [None, []]


def test_a_reveal_while_the_pass_waits_for_the_mail_lock_tells_him_nothing(
        tmp_path, cli, clock, monkeypatch):
    """The pass read the game over and not revealed; `reveal` (which takes the journal's lock
    alone) publishes the secret before the pass holds its locks: the pass, deciding again
    under the mail lock and the journal's, sends no mail asking for what is done."""
    journal, outbox = new_game(tmp_path, cli), tmp_path / "out"
    assert g.submit(journal, "german", ["surrender"]).rejected is None
    table = Table(journal).whole()
    assert table.game().state.revealed is False         # read before the reveal
    taking = ended.game_lock

    @contextmanager
    def revealed_first(*key):
        assert cli("reveal", journal).exit_code == 0    # in the window: read, not yet locked
        with taking(*key):
            yield

    monkeypatch.setattr(ended, "game_lock", revealed_first)
    assert waits_on_a_person(table, journal.name, outbox, START) is None
    assert [m for m in mails(outbox) if str(m["To"]) == ADDRESSES["moderator"]] == []


def test_a_game_over_whose_journal_another_referee_signed_is_told_all_the_same(
        tmp_path, cli, clock, monkeypatch):
    """Deciding the end mail under the journal's lock writes nothing to the journal: a game
    folder copied from another machine (its key not in this home) is told as any, with no
    traceback, and the journal is left as it was."""
    from referee.store import signing

    journal, outbox = new_game(tmp_path, cli), tmp_path / "out"
    assert g.submit(journal, "german", ["surrender"]).rejected is None
    table = Table(journal).whole()
    before = journal.read_bytes()
    monkeypatch.setattr(signing, "held", lambda fpr: None)     # another machine's key
    assert waits_on_a_person(table, journal.name, outbox, START) is None
    assert len([m for m in mails(outbox) if str(m["To"]) == ADDRESSES["moderator"]]) == 1
    assert journal.read_bytes() == before
