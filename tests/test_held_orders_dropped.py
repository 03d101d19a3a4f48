"""A player whose mailed orders were held for the moderator's dice read that he need not send
them again and that no deadline runs for him until they are entered. When the hold ends
without them (the moderator entered other orders for his side, the journal was set back,
the decision they answered is over) he is told once, by a mail of his own: which mail's
orders were not entered, why, and what is asked of him now (mail/dropped.py). Nobody else
reads his lines; the moderator's status lists the hold no more."""

from __future__ import annotations

import email
import email.policy
import json

from flowtext import written
from forging import forget_mark
from mailboxes import write_maildir
from test_held_orders_stand import held_view, records
from test_waits_on_moderator import held_for_dice

from referee.mail.ledger import load_ledger, save_ledger

DATE = "Tue, 24 Nov 2026 10:00:00 +0000"
ENTENTE, GERMAN = "e@example.org", "g@example.org"


def dropped(out) -> list[str]:
    """The mails telling a player his held orders were not entered, oldest first."""
    return [_text(p) for p in sorted(out.glob("dropped-*.eml"))]


def _text(path) -> str:
    m = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    return written(m.get_body(("plain",)).get_content())


def _to(path) -> str:
    return str(email.message_from_bytes(path.read_bytes(), policy=email.policy.default)["To"])


def _held_then_told(tmp_path, cli):
    """The Entente's two 'done' held (he is answered, the moderator told): the journal,
    the outbox and the mails written so far."""
    j, box, out = held_for_dice(tmp_path, cli, date=DATE)
    assert cli("tick", j, "--no-map").exit_code != 0
    assert [h["side"] for h in held_view(cli, j)] == ["entente"]
    return j, out, set(out.glob("*.eml"))


def _no_one_else_reads_them(cli, j, out, before: set) -> None:
    """Only the Entente's own mail tells of his held lines: no other mail written since (the
    lines are two 'done', words every report holds: the mails are read for the hold), and
    no reader's status in any format; the moderator's status lists the hold no more."""
    for p in set(out.glob("*.eml")) - before:
        if _to(p) != ENTENTE:
            said = " ".join(_text(p).split()).casefold()
            assert "held" not in said and "not entered" not in said, (p.name, said)
    assert held_view(cli, j) == []
    for reader in ("german", "entente", "public", "moderator"):
        for fmt in ("text", "json", "markdown", "bbcode", "chat"):
            said = cli("status", j, "--as", reader, "--format", fmt).stdout
            assert "held" not in said.casefold(), (reader, fmt, said)


def test_orders_held_then_replaced_by_the_moderator_s_are_told_dropped_once(tmp_path, cli):
    """The moderator gives the Entente a cavalry retreat (5.4.3) in place of the two 'done'
    held: the Entente is told, once, that the orders of his mail of 24 Nov were not
    entered, because the moderator entered others, and what he is asked now."""
    j, out, before = _held_then_told(tmp_path, cli)
    assert cli("deadline", j, "--set", "24h").exit_code == 0
    r = cli("order", j, "--as", "entente", "retreat fr-c-01 bar_le_duc")
    assert r.exit_code == 0, r.output
    for _ in range(2):
        cli("tick", j, "--no-map")
    [told] = out.glob("dropped-*.eml")
    assert _to(told) == ENTENTE
    text = _text(told)
    flat = " ".join(text.split())
    assert "The orders of your mail of Tue 24 Nov 10:00 UTC" in flat, text
    assert "\n  done\n  done\n" in text, text
    assert "The moderator entered other orders for your side." in flat, text
    assert "they will not be entered" in flat, text
    # What he is asked now: his decision, the orders open to him and his deadline.
    game = json.loads(cli("status", j, "--as", "entente", "--format", "json").stdout)
    assert game["waiting_on"] == "entente", game["waiting_on"]
    assert "Send your orders again for the decision asked of you now" in flat, text
    assert "Reply with one order per line" in flat, text
    assert "Orders due by" in flat, text
    assert "Order key:" in text
    assert all(len(line) <= 72 for line in text.splitlines()), text
    _no_one_else_reads_them(cli, j, out, before)


def test_orders_dropped_in_a_game_of_another_zone_tell_its_time_and_what_was_entered(
        tmp_path, cli):
    """In a game told in Paris time, the mail that says the Entente's held orders were
    dropped dates his mail as his deadlines are (CET, UTC beside it: 10:00 UTC on 24 Nov
    is 11:00 in Paris in winter), not in UTC alone, and names the orders the moderator
    entered for his side in their place: the cavalry retreat, and nothing of the German's
    (nor the 'done' of his own held mail)."""
    j, out, _ = _held_then_told(tmp_path, cli)
    assert cli("deadline", j, "--set", "24h", "--zone", "Europe/Paris").exit_code == 0
    r = cli("order", j, "--as", "entente", "retreat fr-c-01 bar_le_duc")
    assert r.exit_code == 0, r.output
    cli("tick", j, "--no-map")
    [text] = dropped(out)
    flat = " ".join(text.split())
    assert "The orders of your mail of Tue 24 Nov 11:00 CET (10:00 UTC), held" in flat, text
    assert "The moderator entered for your side: retreat fr-c-01 bar_le_duc." in flat, text
    assert "move ge-5" not in flat, text
    assert all(len(line) <= 72 for line in text.splitlines()), text


def test_orders_held_at_a_record_the_journal_no_longer_holds_are_told_dropped(tmp_path,
                                                                               cli):
    """The journal is put back to a copy without the record the orders were held at (the
    mail route's), and the route is given again, with an address of the referee's own:
    another record of that number; then the game is paused."""
    j, out, before = _held_then_told(tmp_path, cli)
    lines = j.read_bytes().splitlines(keepends=True)
    at = json.loads(lines[-1])["seq"]
    j.write_bytes(b"".join(lines[:-1]))             # set back: the record they answered
    forget_mark(j)                                  # the moderator put it back on purpose
    r = cli("mail", j, "--in", str(tmp_path / "box"), "--out", f"outbox:{out}", "--from",
            "referee@example.org")
    assert r.exit_code == 0, r.output
    assert records(j)[-1]["seq"] == at
    assert cli("deadline", j, "--pause").exit_code == 0     # and pauses the game
    for _ in range(2):
        cli("tick", j, "--no-map")
    [text] = dropped(out)
    flat = " ".join(text.split())
    assert "The game was set back to an earlier record" in flat, text
    assert "\n  done\n  done\n" in text, text
    # A paused game asks nothing: no orders open, no deadline.
    assert "The game is paused: nothing is asked of you until the moderator resumes it." \
        in flat, text
    assert "Reply with one order per line" not in flat and "Send your orders" not in flat
    _no_one_else_reads_them(cli, j, out, before)


def test_orders_held_then_replaced_by_a_later_mail_of_his_are_told_dropped(tmp_path, cli):
    """The Entente mails a cavalry retreat (no dice: applied at once) after his two 'done'
    were held: the hold ends with his own order, and he is told his held ones will not be
    entered, in place of a silence that let him wait for them."""
    j, out, before = _held_then_told(tmp_path, cli)
    key = {p["side"]: p["key"] for p in json.loads(
        cli("players", j, "--keys", "--format", "json").stdout)["players"] if "key" in p}
    write_maildir(tmp_path / "box", [(
        f"From: {ENTENTE}\nSubject: orders\nMessage-ID: <m2@example.org>\n\nretreat "
        f"fr-c-01 bar_le_duc\n\nOrder key: {key['entente']}\n").encode()])
    for _ in range(2):
        cli("tick", j, "--no-map")
    assert records(j)[-1]["actor"] == "entente" and "mail" in records(j)[-1]
    [text] = dropped(out)
    flat = " ".join(text.split())
    assert "Orders of a later mail of yours were applied in their place." in flat, text
    assert "Send your orders again for the decision asked of you now" in flat, text
    assert "\n  done\n  done\n" in text, text
    _no_one_else_reads_them(cli, j, out, before)


def held_before_the_battle(j) -> dict:
    """The Entente's hold kept in the ledger at the German's move before the battle, a
    record where the Entente decided nothing: the decision it answered is over; that
    record."""
    head = records(j)[0]
    ledger = load_ledger(head["game_id"], head["hash"])
    moved = next(r for r in records(j) if r.get("order") == "move ge-5 verdun")
    ledger["held"]["entente"] = {**ledger["held"]["entente"], "seq": moved["seq"],
                                 "hash": moved["hash"]}
    save_ledger(ledger)
    return moved


def test_orders_held_for_a_decision_that_is_over_are_told_dropped(tmp_path, cli):
    """A hold kept at a record whose decision for the Entente is not the one asked now, and
    no order of his since (the German's movement, before the battle: the Entente decided
    nothing then): the decision the orders answered is over, and he is told so."""
    j, out, before = _held_then_told(tmp_path, cli)
    moved = held_before_the_battle(j)
    for _ in range(2):
        cli("tick", j, "--no-map")
    [text] = dropped(out)
    flat = " ".join(text.split())
    assert "The decision they answered is over" in flat, text
    assert f"since record {moved['seq']}" in flat, text
    # Not 'send them again': they answered a decision that is over.
    assert "The decision asked of you now is another than the one they answered" in flat, \
        text
    assert "send your orders for it" in flat and "again" not in flat, text
    _no_one_else_reads_them(cli, j, out, before)


def test_orders_held_in_a_game_closed_since_are_told_dropped_and_wait_on_nobody(tmp_path,
                                                                                cli):
    """The moderator closes the game (`reveal --force`) while the Entente's orders wait:
    no order can be entered in it now, yet the hold stood, every pass saying the game waited
    on him to enter them, and the Entente was never told. It ends with the game."""
    j, out, before = _held_then_told(tmp_path, cli)
    assert cli("reveal", j, "--force").exit_code == 0
    for _ in range(2):
        r = cli("tick", j, "--no-map")
        assert "waits on the moderator" not in r.output, r.output
    [text] = dropped(out)
    flat = " ".join(text.split())
    # Closed, not 'over: the game moved on without them': it moves on no more.
    assert "The moderator closed the game (its secret revealed) before they were " \
        "entered." in flat, text
    assert "moved on" not in flat, text
    assert "The game is closed: nothing more is asked of you." in flat, text
    _no_one_else_reads_them(cli, j, out, before)


def test_orders_held_then_dropped_after_the_side_changed_hands_are_told_to_nobody(
        tmp_path, cli):
    """The moderator gives the Entente to a new player (another address) while the former
    one's two 'done' wait, then enters other orders for the side: the new player never
    wrote those lines, so no mail tells him 'the orders of your mail' with them, nor is
    the former player, out of the game now, told what is asked of the side."""
    j, out, before = _held_then_told(tmp_path, cli)
    assert cli("players", j, "--set", "entente=new@example.org").exit_code == 0
    assert cli("order", j, "--as", "entente", "retreat fr-c-01 bar_le_duc").exit_code == 0
    for _ in range(2):
        cli("tick", j, "--no-map")
    assert dropped(out) == []
    assert held_view(cli, j) == []
    for p in set(out.glob("*.eml")) - before:
        said = " ".join(_text(p).split()).casefold()
        assert "held" not in said and "not entered" not in said, (p.name, said)



def test_a_newcomer_to_a_side_whose_orders_are_held_is_told_whose_they_are(tmp_path, cli):
    """The Entente side handed to a new address while its mailed orders wait for the
    moderator's dice: the hold stands (they were the side's, mailed by its player then),
    and the first mail to the new address says they came from the address before, not
    only that 'your' orders are held."""
    j, out, before = _held_then_told(tmp_path, cli)
    assert cli("players", j, "--set", "entente=new@example.org").exit_code == 0
    cli("tick", j, "--no-map")
    [first] = [_text(p) for p in set(out.glob("*.eml")) - before if _to(p) == "new@example.org"]
    said = " ".join(first.split())
    assert said.startswith("You now play the Entente side"), said
    assert "held for the moderator's dice, were mailed from the address before" in said, said
