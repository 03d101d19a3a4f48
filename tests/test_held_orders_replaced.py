"""A side's second mail held for the moderator's dice takes the place of the first: the
ledger keeps one hold a side, and the first mail's orders will not be entered. The answer
to the second says so, naming the first by its date as the mail of dropped orders does
(mail/dropped.py); no other mail tells it."""

from __future__ import annotations

import email
import email.policy
import json

from flowtext import written
from mailboxes import write_maildir
from test_held_orders_dropped import DATE, ENTENTE, _held_then_told
from test_held_orders_stand import held_view

LATER = "Wed, 25 Nov 2026 09:30:00 +0000"
REPLACED = ("Its orders replace those of your mail of Tue 24 Nov 10:00 UTC, held before "
            "it: those will not be entered.")


def _mail(tmp_path, cli, j, lines: list[str], message_id: str, date: str) -> None:
    key = {p["side"]: p["key"] for p in json.loads(
        cli("players", j, "--keys", "--format", "json").stdout)["players"] if "key" in p}
    write_maildir(tmp_path / "box", [(
        f"From: {ENTENTE}\nSubject: orders\nMessage-ID: {message_id}\nDate: {date}\n\n"
        f"{chr(10).join(lines)}\n\nOrder key: {key['entente']}\n").encode()])


def _answers(out, message_id: str) -> list[str]:
    """The text of each mail of the outbox answering the message."""
    found = [email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
             for p in out.glob("*.eml")]
    return [written(m.get_body(("plain",)).get_content()) for m in found
            if str(m.get("In-Reply-To", "")) == message_id]


def test_a_second_held_mail_says_it_replaces_the_orders_of_the_first(tmp_path, cli):
    """The Entente's two 'done' of 24 Nov held; a mail of the next day with one 'done',
    held too, takes their place: its answer, the one mail to him since, says that the
    orders of his mail of 24 Nov will not be entered."""
    j, out, before = _held_then_told(tmp_path, cli)
    _mail(tmp_path, cli, j, ["done"], "<m2@example.org>", LATER)
    for _ in range(2):
        assert cli("tick", j, "--no-map").exit_code != 0
    assert [h["lines"] for h in held_view(cli, j)] == [["done"]]
    [text] = _answers(out, "<m2@example.org>")
    assert REPLACED in " ".join(text.split()), text
    assert all(len(line) <= 72 for line in text.splitlines()), text
    mine = [p for p in set(out.glob("*.eml")) - before
            if str(email.message_from_bytes(p.read_bytes(),
                                            policy=email.policy.default)["To"]) == ENTENTE]
    assert len(mine) == 1, [p.name for p in mine]
    assert not list(out.glob("dropped-*.eml"))


def test_a_first_held_mail_says_nothing_of_a_hold(tmp_path, cli):
    """The first mail held replaces nothing: its answer says nothing of another mail."""
    j, out, _ = _held_then_told(tmp_path, cli)
    [text] = _answers(out, "<m1@example.org>")
    assert "replace" not in text and DATE not in text, text
