"""A mail sent to a skirmish once nothing more of its sender's is taken (the game over and
no dispute his to raise, or closed by its dice secret published). The tester's reply after
the reveal carried no key (the last mails show none: it serves for nothing) and was told
"the order key is missing or wrong ... Send your orders again with that line": now any such
mail, key or no key, is told that the game ended, at which record and how, and that nothing
more is taken."""

from __future__ import annotations

from email.message import EmailMessage
from email.utils import formatdate

from test_skirmish_end_mails import Duel, _flat
from test_skirmish_mail import BRITISH, GERMAN

ENDED = ("Nothing of your mail was recorded: the game ended at record #6: the German side "
         "won; nothing more is taken.")


def _reply(duel: Duel, sender: str, *lines: str) -> None:
    """A reply without the order key, its subject the game's (a reply to his last mail)."""
    duel.n += 1
    msg = EmailMessage()
    msg["From"], msg["To"] = sender, "referee@example.com"
    msg["Subject"], msg["Message-ID"] = "Re: [referee duel] turn 1", f"<m{duel.n}@example.org>"
    msg["Date"] = formatdate(1_700_000_000 + 60 * duel.n)
    msg.set_content("\n".join(lines) + "\n")
    (duel.box / "new" / f"{duel.n:02d}.eml").write_bytes(bytes(msg))


def test_a_keyless_mail_after_the_end_is_told_the_game_ended(cli, tmp_path):
    """The German can dispute nothing once his fire ended the game: his reply, which his
    last mail gave no key to quote, is told the end, not that his key is missing."""
    duel = Duel(cli, tmp_path)
    duel.kill()
    before = duel.j.read_bytes()
    _reply(duel, GERMAN, "done")
    (answer,) = duel.tick()[GERMAN]
    assert _flat(answer).startswith(ENDED), answer
    assert "order key is missing" not in answer and "Send your orders" not in answer, answer
    assert duel.j.read_bytes() == before


def test_any_mail_after_the_reveal_is_told_the_game_ended_key_or_no_key(cli, tmp_path):
    duel = Duel(cli, tmp_path)
    duel.kill()
    assert cli("reveal", duel.j).exit_code == 0
    duel.tick()
    closed = duel.j.read_bytes()
    duel.post("british", "dispute record=6 fact=cover value=hard")      # his key, kept
    (answer,) = duel.tick()[BRITISH]
    assert _flat(answer).startswith(ENDED), answer
    _reply(duel, BRITISH, "rematch? dispute record=6 fact=cover value=hard")
    (answer,) = duel.tick()[BRITISH]
    assert _flat(answer).startswith(ENDED) and "order key" not in answer, answer
    assert duel.j.read_bytes() == closed


def test_status_lists_the_dispute_left_once_the_game_is_over(cli, tmp_path):
    """Once a side is beaten, his report says his key serves for a dispute within his
    challenge window, and `order` takes one: his status gave `tests: []` and no word of it."""
    import json

    duel = Duel(cli, tmp_path)
    duel.kill()

    def status(reader: str, *fmt: str):
        r = cli("status", duel.j, "--as", reader, *fmt)
        assert r.exit_code == 0, r.output
        return json.loads(r.stdout) if fmt else " ".join(r.stdout.split())
    british = status("british", "--format", "json")
    assert british["game_over"] and british["tests"] == ["dispute"], british
    assert british["waiting_on"] == []
    assert "dispute record=N fact=KEY value=VALUE" in status("british"), status("british")
    for reader in ("german", "public", "moderator"):
        assert status(reader, "--format", "json")["tests"] == [], reader
        assert "dispute record=N" not in status(reader), reader
    assert cli("reveal", duel.j).exit_code == 0
    assert status("british", "--format", "json")["tests"] == []
