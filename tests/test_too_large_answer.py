"""A mail over the size limit from a player's registered address is answered from its
header, once, with why nothing of it was read and that orders go as plain text, and with
nothing of the game: no report, no hand, no order key. No key is read in such a mail, so
anyone may have written its From (docs/security.md, docs/moderator.md). By tick (one
Maildir, two games) and by `inbox` on one journal; time comes from REFEREE_NOW."""

from __future__ import annotations

from test_fresh_mail import ELSEWHERE, GERMAN, _all_mails, _games, _new, _tick
from test_keyless_answer import _deliver, _text
from test_transport import ADDRESSES, records

from referee.mail.mailboxes import MAX_MESSAGE


def _big(ident: str, sender: str = GERMAN) -> bytes:
    head = (f"From: {sender}\nTo: {ADDRESSES['moderator']}\n"
            f"Subject: Re: [referee alpha] photo\nMessage-ID: {ident}\n\n").encode()
    return head + (b"x" * 75 + b"\n") * (MAX_MESSAGE // 76 + 1000)


def _no_game_content(text: str, keys: dict) -> None:
    """The answer says why and nothing of the game."""
    flat = " ".join(text.split())
    assert "over the 1 MB the referee reads" in flat and "none of it was read" in flat, flat
    assert "plain text" in flat, flat
    for shown in ("Order key", "Your hand", "Receipt:", "report for", "Board", "Fingerprint"):
        assert shown not in text, (shown, text)
    for key in keys.values():
        assert key not in text, text


def test_tick_answers_a_mail_too_large_with_no_game_content(cli, tmp_path, monkeypatch):
    made = _games(cli, tmp_path, monkeypatch, {"alpha": GERMAN, "bravo": ELSEWHERE})
    journal, keys = made["alpha"][0], made["alpha"][1]
    seq = len(records(journal))
    before = _all_mails(tmp_path)
    _deliver(tmp_path, [_big("<big1@example.org>")])
    output = _tick(cli, tmp_path)
    assert "too large" in output, output
    (answer,) = _new(tmp_path, before)
    assert str(answer["To"]) == GERMAN and "[referee alpha]" in str(answer["Subject"])
    _no_game_content(_text(answer), keys)
    assert len(records(journal)) == seq
    again = _all_mails(tmp_path)
    _tick(cli, tmp_path)
    assert _new(tmp_path, again) == []          # answered once


def test_inbox_answers_a_mail_too_large_with_no_game_content(cli, tmp_path, monkeypatch):
    made = _games(cli, tmp_path, monkeypatch, {"alpha": GERMAN})
    journal, keys = made["alpha"][0], made["alpha"][1]
    out = tmp_path / "by-hand"
    _deliver(tmp_path, [_big("<big2@example.org>")])
    r = cli("inbox", journal, tmp_path / "box", "--outbox", out, "--no-map")
    assert r.exit_code == 0, r.output
    import email
    import email.policy

    answers = [email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
               for p in sorted(out.glob("*.eml"))]
    answers = [m for m in answers if "over the 1 MB" in _text(m)]
    assert len(answers) == 1, [str(m["Subject"]) for m in answers]
    _no_game_content(_text(answers[0]), keys)
