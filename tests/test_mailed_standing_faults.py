"""A player's mail of standing orders alone that the referee cannot keep for a fault of
its own storage (docs/moderator.md): the moderator's to mend, never the player's refusal."""

from __future__ import annotations

import email
import email.policy

from mailboxes import write_maildir
from test_deadlines import new_game, player_mail

from referee.store import home


def _new_mails(out, sent: set) -> list:
    return [email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
            for p in sorted(set(out.glob("*.eml")) - sent)]


def test_standing_orders_the_disk_cannot_take_are_kept_at_the_next_pass(tmp_path, cli,
                                                                         monkeypatch):
    """The standing orders' file cannot be written (a full disk): the player was answered
    'not applied: cannot write the standing orders to /home/.../g.jsonl.standing', a path
    of the moderator's machine, and his mail was never read again. It is the pass's
    problem, named to the moderator; the mail is answered once the file can be written."""
    maildir = write_maildir(tmp_path / "box", [])
    out = tmp_path / "out"
    journal = new_game(tmp_path, cli, "via_cli", "--mail-in", maildir,
                       "--mail-out", f"outbox:{out}")
    assert cli("tick", journal).exit_code == 0
    sent = set(out.glob("*.eml"))
    for mail in (player_mail(tmp_path, "german", ["standing: stand and fight"], 1)
                 / "new").iterdir():
        (maildir / "new" / mail.name).write_bytes(mail.read_bytes())
    real = home.write_signed
    monkeypatch.setattr(home, "write_signed", lambda *args: False)
    r = cli("tick", journal)
    assert r.exit_code != 0 and "cannot write the standing orders" in r.output, r.output
    assert _new_mails(out, sent) == []
    monkeypatch.setattr(home, "write_signed", real)
    r = cli("tick", journal)
    assert r.exit_code == 0, r.output
    (answer,) = _new_mails(out, sent)
    said = " ".join(answer.get_body(("plain",)).get_content().split())
    assert "Your standing orders are now: stand and fight" in said, said
    assert str(tmp_path) not in said, said
