"""A mailed 'armistice' (3.2): the word every player knows, though an order begins with
another ('propose armistice', 'withdraw armistice', 'accept armistice', 'refuse
armistice'). Mail reads the line as an order, never as prose: a running game refuses it
naming the orders meant; a game closed by `reveal --force`, or over, answers it as it
answers any order, saying so."""

from __future__ import annotations

import pytest
from mailkinds import headline
from test_deadlines import mails, new_game, player_mail, text_of
from test_inbox import ADDRESSES
from test_mail_waiting_side import replying

import gamecalls as g
from referee.game import standing
from referee.mail.inbox import inbox as mail_inbox
from referee.store import home

NOTHING_MORE = "nothing more is asked of you"


def _reply(tmp_path, journal, line: str) -> tuple[list, str]:
    """The outcomes of one German mail of line, and his reply, its blanks made one."""
    box = player_mail(tmp_path, "german", [line], 1)
    outcomes, _ = mail_inbox(journal, [box], tmp_path / "out", with_map=False)
    reply = next(text_of(m) for m in mails(tmp_path / "out")
                 if str(m["To"]) == ADDRESSES["german"] and "not applied" in headline(m))
    return outcomes, " ".join(reply.split())


@pytest.mark.parametrize("line", ["armistice", "Armistice", "Armistice.", "armistice!"])
def test_a_mailed_armistice_is_refused_naming_the_orders_meant(tmp_path, cli, line):
    journal = new_game(tmp_path, cli)
    before = journal.read_bytes()
    outcomes, said = _reply(tmp_path, journal, line)
    assert [(o.status, o.line) for o in outcomes] == [("rejected", 1)], outcomes
    assert "no orders found" not in said and "Not read as orders" not in said, said
    assert "propose armistice, withdraw armistice, accept armistice or refuse armistice" \
        in said, said
    assert journal.read_bytes() == before


def test_a_mailed_armistice_to_a_revealed_game_is_told_it_is_closed(tmp_path, cli):
    journal = new_game(tmp_path, cli, "via_cli")
    assert cli("reveal", journal, "--force").exit_code == 0
    closed = journal.read_bytes()
    outcomes, said = _reply(tmp_path, journal, "armistice")
    assert [o.status for o in outcomes] == ["rejected"], outcomes
    assert "no orders found" not in said, said
    assert "so the game is closed" in said and "nothing more is asked of you" in said, said
    assert journal.read_bytes() == closed


@pytest.mark.parametrize("line", ["armistice", "pass", "propose armistice"])
def test_a_mailed_order_to_a_game_over_is_told_it_is_over(tmp_path, cli, line):
    """A game ended by a surrender (3.3) takes no order: whatever he mails, read or
    not, he is told the game is over, and not that orders are open to him."""
    journal = new_game(tmp_path, cli)
    assert g.submit(journal, "german", ["surrender"]).rejected is None
    over = journal.read_bytes()
    outcomes, said = _reply(tmp_path, journal, line)
    assert [o.status for o in outcomes] == ["rejected"], outcomes
    assert "no orders found" not in said and "cannot be read" not in said, said
    # The record it ended at and how, as player.md says a mail after the end is answered.
    assert "not applied: the game ended at record #3: the German player surrenders" in said \
        and "(rule 3.3)" in said, said
    assert "nothing more is asked of you" in said, said
    assert "orders open to you" not in said, said
    assert journal.read_bytes() == over


def test_mailed_standing_orders_to_a_game_over_are_refused_as_over(tmp_path, cli):
    """Standing orders answer decisions to come; a game over has none (3.3 ended it). A mail of
    standing lines alone is refused as any order is, saying the game is over, and his
    standing orders stay as they were: not told "your standing orders are now"."""
    journal = new_game(tmp_path, cli)
    assert g.submit(journal, "german", ["surrender"]).rejected is None
    over = journal.read_bytes()
    outcomes, said = _reply(tmp_path, journal, "standing: no combat cards")
    assert [o.status for o in outcomes] == ["rejected"], outcomes
    assert "the game ended at record #" in said and NOTHING_MORE in said, said
    assert "standing orders are now" not in said, said
    assert standing.load(journal).get("german", []) == []
    assert journal.read_bytes() == over


@pytest.mark.parametrize("halt, said, after", [
    (("order", "--as", "german", "surrender"), "the game ended at record #", NOTHING_MORE),
    (("reveal", "--force"), "so the game is closed", NOTHING_MORE),
    (("deadline", "--pause"), "the game is paused", "once the game resumes"),
])
def test_orders_with_a_bad_standing_line_to_a_game_taking_none_are_told_why(
        tmp_path, cli, halt, said, after):
    """Orders and a standing line that is no standing order, mailed to a game over, closed
    by its reveal or paused: refused because the game takes no orders now, before any line
    is read, as orders alone are; not for the standing line, with the orders open to him."""
    journal = new_game(tmp_path, cli, "via_cli")
    command, *rest = halt
    assert cli(command, journal, *rest).exit_code == 0
    before = journal.read_bytes()
    outcomes, text = _reply(tmp_path, journal, "pass\nstanding: fly to the moon")
    assert [o.status for o in outcomes] == ["rejected"], outcomes
    assert said in text and after in text, text
    assert "not a standing order" not in text and "orders open to you" not in text, text
    assert journal.read_bytes() == before


def test_orders_answering_an_older_mail_of_a_game_since_over_are_told_it_is_over(
        tmp_path, cli):
    """His orders reply to the mail of a record before the game ended (the other side
    surrendered since, 3.3): he is told the game is over and nothing more is asked of him,
    not that his decision has changed and that he should reply to the latest mail, with
    the orders open to him."""
    journal = new_game(tmp_path, cli)
    answered = len(journal.read_text().splitlines()) - 1
    assert g.submit(journal, "german", ["surrender"]).rejected is None
    over = journal.read_bytes()
    outcomes, replies = replying(tmp_path, journal, "german", answered, "pass")
    assert [o.status for o in outcomes] == ["rejected"], outcomes
    [said] = [s for s in replies if "not applied" in s]
    assert "the game ended at record #" in said and NOTHING_MORE in said, said
    assert "reply to the latest mail" not in said and "orders open to you" not in said, said
    assert journal.read_bytes() == over


@pytest.mark.parametrize("halt, after", [
    (("order", "--as", "german", "surrender"), NOTHING_MORE),
    (("reveal", "--force"), NOTHING_MORE),
    (("deadline", "--pause"), "once the game resumes"),
])
def test_a_mail_without_orders_to_a_game_taking_none_asks_for_none(tmp_path, cli, halt,
                                                                   after):
    """A mail holding no orders (thanks for the game), to a game over, closed or paused:
    told so, and what follows as for any mail to such a game, not that orders are open to
    him now."""
    journal = new_game(tmp_path, cli, "via_cli")
    command, *rest = halt
    assert cli(command, journal, *rest).exit_code == 0
    outcomes, said = _reply(tmp_path, journal, "Thanks for a fine game!")
    assert [o.status for o in outcomes] == ["rejected"], outcomes
    assert "no orders found" in said and after in said, said
    assert "orders open to you" not in said, said


def test_the_mail_that_ended_the_game_read_again_is_known_not_refused(tmp_path, cli):
    """A mail whose orders end the game (a surrender, 3.3), read again after a run that
    appended them but stopped before its ledger was kept (here: the ledger lost), is the
    mail the journal holds: known, and answered by nobody a second time, though the game
    it ended takes no orders now."""
    journal = new_game(tmp_path, cli)
    box = player_mail(tmp_path, "german", ["surrender"], 1)
    outcomes, _ = mail_inbox(journal, [box], tmp_path / "out", with_map=False)
    assert [o.status for o in outcomes] == ["applied"], outcomes
    over = journal.read_bytes()
    for kept in home.data_dir("ledgers").iterdir():
        kept.unlink()
    again, _ = mail_inbox(journal, [box], tmp_path / "again", with_map=False)
    assert [o.status for o in again] == ["known"], again
    assert not any("not applied" in headline(m) for m in mails(tmp_path / "again"))
    assert journal.read_bytes() == over


def test_the_moderator_s_standing_orders_for_a_game_over_are_refused(tmp_path, cli):
    """`standing --add` or `--withdraw` on a game over is refused as a mailed change is
    (3.3 ended it: no decision is left for them to answer), one line, exit 1, nothing written;
    listing them still works."""
    journal = new_game(tmp_path, cli)
    assert g.submit(journal, "german", ["surrender"]).rejected is None
    files = sorted(p.name for p in journal.parent.iterdir())
    for change in (["--add", "no combat cards"], ["--withdraw", "no combat cards"]):
        r = cli("standing", journal, "--as", "german", *change)
        assert r.exit_code == 1 and "the game is over" in r.stderr, r.stderr
        assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert sorted(p.name for p in journal.parent.iterdir()) == files
    assert cli("standing", journal, "--as", "german").exit_code == 0


@pytest.mark.parametrize("line", ["pass", "extend 24h"])
def test_a_mail_to_a_game_over_and_revealed_is_told_it_is_over(tmp_path, cli, line):
    """A game that ended (3.3) and whose secret the moderator then published as the guide
    says (`reveal`, no --force): the reply says the game is over, by the rule that ended it,
    not that the reveal closed it lest every die be predictable (moderator.md: that is
    `reveal --force`, before the end)."""
    journal = new_game(tmp_path, cli)
    assert g.submit(journal, "german", ["surrender"]).rejected is None
    assert cli("reveal", journal).exit_code == 0
    closed = journal.read_bytes()
    outcomes, said = _reply(tmp_path, journal, line)
    assert [o.status for o in outcomes] == ["rejected"], outcomes
    assert "the game ended at record #" in said or "the game is over" in said, said
    assert "(rule 3.3)" in said or line != "pass", said
    assert "predictable" not in said and "nothing more is asked of you" in said, said
    assert journal.read_bytes() == closed
