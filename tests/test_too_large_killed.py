"""A mail over the size limit from a player's registered address is answered from its
header once, whatever step the pass that read it was killed at (mail/toolarge.py: the
answer is owed in the ledger in the save that notes the mail handled, and written by the
pass that saved it or by the next, which opens the game although the mailbox knows the
mail and the journal did not change). Two passes after the killed one leave one answer and
the mail handled (the last pass neither answers nor leaves it); nothing is applied. The
games read one Maildir, each writing its own outbox; time comes from REFEREE_NOW."""

from __future__ import annotations

import pytest
from test_fresh_mail import ELSEWHERE, GERMAN, _all_mails, _games
from test_keyless_answer import _deliver, _text
from test_tick_sharing import _tick_process
from test_transport import ADDRESSES, records

from referee.mail.mailboxes import MAX_MESSAGE


def _big(ident: str) -> bytes:
    head = (f"From: {GERMAN}\nTo: {ADDRESSES['moderator']}\n"
            f"Subject: Re: [referee alpha] photo\nMessage-ID: {ident}\n\n").encode()
    return head + (b"x" * 75 + b"\n") * (MAX_MESSAGE // 76 + 1000)


def _too_large_answers(root) -> list[str]:
    return [f"{m['To']} | {m['Subject']}" for m in _all_mails(root).values()
            if "over the 1 MB" in _text(m)]


@pytest.mark.parametrize("step", ["reply", "written"])
def test_a_pass_killed_at_a_step_answers_a_mail_too_large_once(cli, tmp_path, monkeypatch,
                                                               step):
    made = _games(cli, tmp_path, monkeypatch, {"alpha": GERMAN, "bravo": ELSEWHERE})
    seqs = {n: len(records(made[n][0])) for n in made}
    _deliver(tmp_path, [_big("<big1@example.org>")])
    killed = _tick_process(tmp_path, step)
    assert killed.returncode == 70, killed.stderr
    for _ in range(2):
        again = _tick_process(tmp_path, None)
        assert again.returncode == 0, again.stderr
    assert "too large" not in again.stdout and "no game claims" not in again.stdout, \
        again.stdout
    (answer,) = _too_large_answers(tmp_path)
    assert answer.startswith(GERMAN) and "[referee alpha]" in answer
    assert {n: len(records(made[n][0])) for n in made} == seqs


