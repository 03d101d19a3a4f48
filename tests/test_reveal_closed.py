"""A game closed by `reveal --force` (docs/moderator.md): nothing the referee keeps for
the game changes after the reveal, the journal nor what is kept beside it."""

from __future__ import annotations

import email
import email.policy

import pytest
from mailboxes import write_maildir
from test_deadlines import ADDRESSES, new_game, player_mail

from referee.base.errors import OrderError
from referee.game import standing
from referee.mail.standing_lines import keep_standing_only
from referee.store.revealed import GameClosed
from referee.table import Table


def _new_mails(out, sent: set) -> list:
    return [email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
            for p in sorted(set(out.glob("*.eml")) - sent)]


def test_standing_orders_are_not_changed_in_a_revealed_game(tmp_path, cli):
    """A standing order never applies after the reveal (no order is taken), so the
    moderator's `standing --add` is refused as an append is: one line, nothing kept."""
    journal = new_game(tmp_path, cli, "via_cli")
    assert cli("reveal", journal, "--force").exit_code == 0
    closed = journal.read_bytes()
    kept = journal.with_name(journal.name + ".standing")
    for change in (("--add", "stand and fight"), ("--withdraw", "stand and fight")):
        r = cli("standing", journal, "--as", "german", *change)
        assert r.exit_code == 2, r.output
        assert "revealed the dice secret" in r.stderr and len(r.stderr.splitlines()) == 1
        assert not kept.exists() and journal.read_bytes() == closed


def test_a_mailed_standing_order_to_a_revealed_game_is_refused_once(tmp_path, cli):
    """A player's mail of standing lines alone, to a revealed game: answered once, saying
    nothing was kept; the next pass neither keeps it nor answers it again."""
    maildir = write_maildir(tmp_path / "box", [])
    out = tmp_path / "out"
    journal = new_game(tmp_path, cli, "via_cli", "--mail-in", maildir,
                       "--mail-out", f"outbox:{out}")
    assert cli("reveal", journal, "--force").exit_code == 0
    closed = journal.read_bytes()
    assert cli("tick", journal).exit_code == 0          # the reports of the reveal
    sent = set(out.glob("*.eml"))
    for mail in (player_mail(tmp_path, "german", ["standing: stand and fight"], 1)
                 / "new").iterdir():
        (maildir / "new" / mail.name).write_bytes(mail.read_bytes())
    assert cli("tick", journal).exit_code == 0
    answer = _new_mails(out, sent)
    assert len(answer) == 1, [m["Subject"] for m in answer]
    said = " ".join(answer[0].get_body(("plain",)).get_content().split())
    assert "not applied" in said and "so the game is closed" in said, said
    # Spoken to the player: not the journal's words to the moderator, naming his file.
    assert journal.name not in said and "no record may follow" not in said, said
    assert "nothing more is asked of you" in said, said
    assert not journal.with_name(journal.name + ".standing").exists()
    assert journal.read_bytes() == closed
    sent = set(out.glob("*.eml"))
    assert cli("tick", journal).exit_code == 0
    assert _new_mails(out, sent) == [] and journal.read_bytes() == closed


@pytest.mark.parametrize("lines", [["pass"], ["extend 24h"], ["standing: stand and fight"],
                                   ["standing: withdraw stand and fight"],
                                   ["standing: stand and fight", "pass"]])
def test_a_player_s_mail_to_a_revealed_game_is_told_it_is_closed(tmp_path, cli, lines):
    """Whatever he asks (an order, more time, a standing order), his answer says the game is
    closed, not that it is over, nor that the orders open to him are below: the report that
    follows asks nothing (render/reports.py)."""
    maildir = write_maildir(tmp_path / "box", [])
    out = tmp_path / "out"
    journal = new_game(tmp_path, cli, "via_cli", "--deadline", "48h", "--mail-in", maildir,
                       "--mail-out", f"outbox:{out}")
    assert cli("reveal", journal, "--force").exit_code == 0
    assert cli("tick", journal).exit_code == 0
    sent = set(out.glob("*.eml"))
    for mail in (player_mail(tmp_path, "german", lines, 1) / "new").iterdir():
        (maildir / "new" / mail.name).write_bytes(mail.read_bytes())
    assert cli("tick", journal).exit_code == 0
    answer = _new_mails(out, sent)
    assert len(answer) == 1, [m["Subject"] for m in answer]
    said = " ".join(answer[0].get_body(("plain",)).get_content().split())
    assert "so the game is closed" in said and "nothing more is asked of you" in said, said
    assert "orders open to you" not in said and "game is over" not in said, said
    assert journal.name not in said and str(tmp_path) not in said, said


def test_a_game_revealed_while_a_standing_order_is_kept_refuses_it_in_the_player_s_words(
        tmp_path, cli, monkeypatch):
    """The reveal may come between the read of the game and the lock a standing order is
    kept under: the journal then refuses it in its own words (its file, to the moderator);
    the player's answer says the game is closed, naming no file."""
    journal = new_game(tmp_path, cli, "via_cli")

    def revealed_meanwhile(*args, **kwargs):
        raise GameClosed(f"{journal.name}: record 5 revealed the dice secret, so the game is "
                         f"closed: no record may follow it; nothing was written")

    monkeypatch.setattr(standing, "change", revealed_meanwhile)
    with pytest.raises(OrderError) as refused:
        keep_standing_only(Table(journal), "german", [(1, "standing: stand and fight")],
                           "0" * 64)
    said = str(refused.value)
    assert "so the game is closed" in said and journal.name not in said, said


def test_a_report_of_a_game_closed_by_the_reveal_asks_no_link_and_says_how_to_check_it(
        tmp_path, cli):
    """No orders are taken once the secret is revealed, so no link of a dice sheet is due;
    what each reader does then is what he does after the end: ask for his export and check
    every die with it (docs/player.md, Receipts)."""
    from test_sheets import _mail_game

    journal, _, _ = _mail_game(tmp_path, sheets_for=("german",))
    due = " ".join(cli("report", journal, "--as", "german").stdout.split())
    assert "Your dice sheet: link 1" in due
    assert cli("reveal", journal, "--force").exit_code == 0
    said = " ".join(cli("report", journal, "--as", "german").stdout.split())
    assert "Your dice sheet" not in said and "is due with your next orders" not in said
    assert "referee verify german.jsonl --export german" in said
    told = " ".join(cli("report", journal, "--as", "moderator").stdout.split())
    assert "--as SIDE --format json" in told


def test_a_keyless_mail_to_a_closed_game_is_told_it_ended_not_to_send_a_key(tmp_path, cli):
    """A player's reply to a game closed by its reveal, without his key: told that the game
    was closed, at which record, and that nothing more is taken; not to send his orders
    again with his key, which would take nothing."""
    maildir = write_maildir(tmp_path / "box", [])
    out = tmp_path / "out"
    journal = new_game(tmp_path, cli, "via_cli", "--mail-in", maildir,
                       "--mail-out", f"outbox:{out}")
    assert cli("reveal", journal, "--force").exit_code == 0
    assert cli("tick", journal).exit_code == 0
    closed, sent = journal.read_bytes(), set(out.glob("*.eml"))
    raw = (f"From: {ADDRESSES['german']}\nTo: {ADDRESSES['moderator']}\nSubject: orders\n"
           f"Date: Tue, 24 Nov 2026 10:01:00 +0000\nMessage-ID: <m1.german@example.org>\n"
           f"\npass\n").encode()
    write_maildir(tmp_path / "box", [raw])
    assert cli("tick", journal).exit_code == 0
    (answer,) = _new_mails(out, sent)
    said = " ".join(answer.get_body(("plain",)).get_content().split())
    seq = len(journal.read_text().splitlines()) - 1
    assert f"the game was closed at record #{seq}," in said, said
    assert "nothing more is taken" in said and "Send your orders again" not in said, said
    assert journal.read_bytes() == closed
