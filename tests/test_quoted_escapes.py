"""A refused line is quoted in the reply with every character that hides (a control, a
bidirectional override) shown as its escape, `\\u0007` (base/glyphs.py): the mail shows it
so. The line is wrapped as the mail shows it, each of its lines within 72 columns; wrapped
before its escapes were written, six columns for each one, it ran far past them."""

from __future__ import annotations

from test_deadlines import mails, new_game, player_mail, text_of
from test_inbox import ADDRESSES

from referee.mail.inbox import inbox as mail_inbox
from referee.mail.refusal import quoted_line

LINE = "move " + "ge-1\x07 " * 20


def test_a_quoted_line_is_wrapped_with_its_escapes_written():
    lines = quoted_line(LINE)
    assert all(len("  " + line) <= 72 for line in lines), lines
    assert "".join(lines).count("\\u0007") == 20 and "\x07" not in "".join(lines)


def test_every_line_of_the_reply_quoting_it_is_within_72_columns(tmp_path, cli):
    journal = new_game(tmp_path, cli)
    box = player_mail(tmp_path, "german", [LINE], 1)
    outcomes, _ = mail_inbox(journal, [box], tmp_path / "out", with_map=False)
    assert [o.status for o in outcomes] == ["rejected"], outcomes
    [reply] = [text_of(m) for m in mails(tmp_path / "out")
               if str(m["To"]) == ADDRESSES["german"]]
    assert "ge-1\\u0007" in reply, reply
    assert [ln for ln in reply.splitlines() if len(ln) > 72] == [], reply
