"""What a mail tells a dice sheet's holder before he answers (docs/player.md, Dice sheets):
which of his answers go on to roll dice, so that his next link is due with it, in the
asking mail, its reminder and the mail at his missed deadline alike; the whole mail is
refused when the link is missing, so a mail that does not say so costs him a round trip.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from flowtext import mail_text
from test_deadlines import ADDRESSES, DUE, mails, text_of
from test_inbox import GAME, SECRET
from test_sheets import GERMAN, OPENING_MAIL, _inbox, _mail, _mail_game

import gamecalls as g
from casebook import new_game, position
from referee.game.timeline import settings_fact
from referee.mail.reminders import check_deadlines
from referee.store.dice import write_secret


def flat(text: str) -> str:
    return " ".join(text.replace("=\n", "").split())


def _two_hits_to_pay(tmp_path: Path) -> Path:
    """The German attacks the entrenched uk-1 in Artois, whose defensive fire hits twice
    (5.2.1 c): he pays 2 hits, a unit or a 1-hit Ersatz card each (5.3), and the last one
    paid goes on to his offensive fire (dice given by hand up to there)."""
    sc = position("1918", player="german",
                  hands={"german": ["off-01", "loff-01", "loff-02"], "entente": []},
                  units=["ge-6 ge army lille 4I+1A", "uk-1 uk army artois 3I entrenched",
                         "uk-4 uk army calais 2I"])
    j = new_game(tmp_path, sc, dice="manual")
    for side, order, dice in (("german", "play offensive", None),
                              ("german", "move ge-6 artois", None),
                              ("german", "end movement", None), ("german", "done", None),
                              ("german", "done", "6"), ("entente", "done", "1,1,6")):
        r = g.submit(j, side, [order], dice_text=dice)
        assert r.rejected is None, (order, r.rejected)
    st = g.open_game(j).state
    assert (st.pending.kind, st.pending.side) == ("losses", "german")
    return j


def test_hits_to_pay_of_several_say_the_last_one_paid_rolls_the_dice(tmp_path, cli):
    """Two hits to pay: one loss leaves the decision open, so the preview said nothing of
    what follows it, though paying the last hit rolls the attacker's dice (5.2.1 d), and a
    sheet holder's mail then needs his link."""
    j = _two_hits_to_pay(tmp_path)
    out = flat(cli("report", j, "--as", "german", "--since", "0").stdout)
    assert ("Then (2.0): - after lose ge-6:infantry or ersatz limited_offensive, then 1 more "
            "answer to close this decision: the dice are rolled") in out, out


def test_a_sheet_holders_reply_says_his_link_is_due_with_the_answer_that_rolls(tmp_path,
                                                                               cli):
    """The German's mail stops short of the 'done' that fires his artillery: the reply asks
    him that 'done' and says his link is due with it, not only 'with your next orders that
    roll dice'."""
    path, _, keys = _mail_game(tmp_path, sheets_for=("german",))
    raw = _mail("german", OPENING_MAIL[:-1], keys["german"], 1)
    out, written = _inbox(cli, path, tmp_path, [raw], "box1")
    assert out[0]["status"] == "applied", out
    [reply] = [flat(mail_text(p)) for p in written if "kaiser@example.org" in p.read_text()]
    assert ("Your dice sheet: link 1 (line 2 of the sheet file) is due with this answer, in a "
            "line 'Link: LINK': every way of answering it goes on to roll dice (Then, "
            "above).") in reply, reply
    assert "after done: the dice are rolled" in reply, reply
    # His own sheet alone: the Entente holds none and reads no link.
    assert all("Your dice sheet" not in flat(mail_text(p)) for p in written
               if "joffre@example.net" in p.read_text())


def _sheet_game_with_deadlines(tmp_path: Path) -> Path:
    secret = tmp_path / "fixed.secret"
    write_secret(secret, SECRET)
    journal = tmp_path / "g.jsonl"
    g.create_game(journal, "1914", game_id=GAME, secret_file=secret,
                  players=[f"{side}={addr}" for side, addr in ADDRESSES.items()],
                  sheets=[f"german={GERMAN[0]}"],
                  clock=settings_fact("48h", "24h,2h", "wait", 2, False))
    return journal


def test_a_reminder_and_the_late_mail_carry_the_then_steps_and_the_link_due(tmp_path,
                                                                            clock):
    """A reminder and the mail at a missed deadline are answered from the mail itself: they
    tell what follows the decision and the link due, as the mail that asked it does."""
    journal = _sheet_game_with_deadlines(tmp_path)
    check_deadlines(journal, tmp_path / "remind", DUE - timedelta(hours=24))
    check_deadlines(journal, tmp_path / "late", DUE + timedelta(minutes=1))
    for folder, first in (("remind", "A reminder: your orders are due"),
                          ("late", "Your orders were due by")):
        [german] = [flat(text_of(m)) for m in mails(tmp_path / folder)
                    if str(m["To"]) == ADDRESSES["german"]]
        assert german.startswith(first), german
        assert "- after pass: pass move (2.0 II.1)" in german, german
        assert "Your dice sheet: link 1 (line 2 of the sheet file) is due" in german, german
    # The Entente, who holds no sheet, reads no link in any of his.
    for folder in ("remind", "late"):
        assert all("Your dice sheet" not in flat(text_of(m)) for m in mails(tmp_path / folder)
                   if str(m["To"]) != ADDRESSES["german"])


def _reply_to(cli, path, tmp_path, raw, name) -> str:
    out, written = _inbox(cli, path, tmp_path, [raw], name)
    assert out[0]["status"] == "rejected", out
    return flat(mail_text(next(p for p in written if "not applied" in p.read_text())))


def test_a_refusal_says_what_to_send_again_by_why_the_line_was_refused(tmp_path, cli):
    """'Send them again with this line corrected' fits a wrong line only: a line whose dice
    need the missing link is right as it is, and a line after one that rolls dice must be
    dropped, to be sent once the result is read."""
    path, _, keys = _mail_game(tmp_path, sheets_for=("german",))
    reply = _reply_to(cli, path, tmp_path, _mail("german", OPENING_MAIL, keys["german"], 1),
                      "box1")
    assert ("applied all or none. Send them again as they are, with a line 'Link: LINK' "
            "giving the link due.") in reply, reply
    assert "this line corrected" not in reply
    reply = _reply_to(cli, path, tmp_path, _mail("german", [*OPENING_MAIL, "done",
                                                            f"Link: {GERMAN[1]}"],
                                                 keys["german"], 2), "box2")
    assert "Why: it comes after line" in reply, reply
    assert ("Send them again without this line and those after it; send those once you have "
            "read the result.") in reply, reply
    reply = _reply_to(cli, path, tmp_path, _mail("german", [*OPENING_MAIL[:2], "move ge-1 paris",
                                                            f"Link: {GERMAN[1]}"],
                                                 keys["german"], 3), "box3")
    assert "Send them again with this line corrected." in reply, reply


def test_a_discard_while_passing_is_marked_as_drawing_cards(tmp_path, cli):
    """With no card played a pass may discard and draw again (2.0 II.1): the draw ends the
    mail's orders, so the preview names it; it left the decision open, and the preview
    named only 'end turn', so 'move … / discard … / end turn' was sent and refused whole."""
    sc = position("1918", player="german", hands={"german": ["off-01"], "entente": []},
                  units=["ge-6 ge army lille 4I+1A", "uk-1 uk army artois 3I"])
    j = new_game(tmp_path, sc, dice="manual")
    assert g.submit(j, "german", ["pass"]).rejected is None
    out = flat(cli("report", j, "--as", "german", "--since", "0").stdout)
    assert "- after discard offensive: cards are drawn" in out, out


def test_a_link_refused_in_a_mail_is_told_in_the_mails_terms(tmp_path, cli):
    """A mail player has no command: the link due is asked on a 'Link:' line, never as
    'order --link'."""
    path, _, keys = _mail_game(tmp_path, sheets_for=("german",))
    raw = _mail("german", [*OPENING_MAIL, f"Link: {GERMAN[2][:63]}x"], keys["german"], 1)
    out, written = _inbox(cli, path, tmp_path, [raw], "box1")
    reply = flat(mail_text(next(p for p in written if "not applied" in p.read_text())))
    assert "is due, on a line 'Link: LINK' of the mail" in reply, reply
    assert "--link" not in reply and "--link" not in out[0]["reason"]
