"""A player's mail without his order key is answered at his registered address as his
game's mail (mail/notmatched.py): his reports' subject, his thread, a Message-ID naming the
record his last report ended at; so his reply to that answer, with his key or without it,
is claimed by his game under `tick` and answered, never left unclaimed. The answer holds
nothing else of the game (no key, no report: anyone may forge his From), and a stranger's
answer still names no game. The games read one Maildir, each writing its own outbox; time
comes from REFEREE_NOW."""

from __future__ import annotations

import email
import email.policy
import email.utils
from pathlib import Path

from test_tick_sharing import opened
from test_transport import ADDRESSES, records

from referee.mail import ledger as ledgermod
from referee.mail.threads import thread_of

UNCLAIMED = "no game claims"
SPY = "spy@bureau.example"


def _raw(sender: str, lines: list[str], ident: str, subject: str, answering=None) -> bytes:
    head = (f"From: {sender}\nTo: {ADDRESSES['moderator']}\nSubject: {subject}\n"
            f"Date: {email.utils.formatdate(1_000_000_000)}\nMessage-ID: {ident}\n")
    if answering is not None:
        head += f"In-Reply-To: {answering['Message-ID']}\n" \
                f"References: {answering['References']} {answering['Message-ID']}\n"
    return (head + "\n" + "\n".join(lines) + "\n").encode()


def _deliver(root: Path, raws: list[bytes]) -> None:
    """Messages into the Maildir the games read, after those there (names never reused)."""
    new = root / "box" / "new"
    at = len(list(new.iterdir())) + len(list((root / "box" / "cur").iterdir()))
    for i, raw in enumerate(raws, start=at):
        (new / f"17100{i:03d}.M{i}P2.mx.example.com").write_bytes(raw)


def _mails(root: Path, name: str = "alpha") -> dict[str, email.message.EmailMessage]:
    return {p.name: email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
            for p in sorted((root / f"out-{name}").glob("*.eml"))}


def _new(root: Path, before: dict) -> list[email.message.EmailMessage]:
    return [m for n, m in _mails(root).items() if n not in before]


def _text(m) -> str:
    return m.get_body(("plain",)).get_content()


def _tick(cli, root: Path) -> str:
    r = cli("tick", root / "games", "--no-map")
    assert r.exit_code == 0, r.output
    return r.output


def test_a_reply_to_the_answer_to_a_mail_without_the_key_is_answered(cli, tmp_path,
                                                                      monkeypatch):
    """The German mails `pass` without his key: he is answered at his address under his
    reports' subject, told where his key is. He replies to that answer, still without it:
    the reply is claimed by the game and answered again (not left for the moderator). He
    replies with his key: applied. Each message is answered once."""
    made = opened(cli, tmp_path, monkeypatch, ("alpha",))
    journal, keys = made["alpha"]
    seq = len(records(journal))
    before = _mails(tmp_path)
    _deliver(tmp_path, [_raw(ADDRESSES["german"], ["pass"], "<k1@example.org>",
                             "Re: [referee alpha] German player")])
    assert UNCLAIMED not in _tick(cli, tmp_path)
    (answer,) = _new(tmp_path, before)
    assert str(answer["To"]) == ADDRESSES["german"]
    assert str(answer["Subject"]).startswith("[referee alpha] German player, "), \
        str(answer["Subject"])
    assert thread_of("alpha", ADDRESSES["german"]) in str(answer["References"])
    assert str(answer["Message-ID"]).startswith("<rec.alpha.")
    said = " ".join(_text(answer).split())
    assert "carries no order key" in said and "Nothing was done" in said, said
    assert "at the end of each report the referee sends you, after the words 'Order " \
        "key'" in said, said
    assert keys["german"] not in answer.as_string() and "Receipt:" not in said

    before = _mails(tmp_path)
    _deliver(tmp_path, [_raw(ADDRESSES["german"], ["what do I do now?"], "<k2@example.org>",
                             f"Re: {answer['Subject']}", answer)])
    out = _tick(cli, tmp_path)
    assert UNCLAIMED not in out, out
    (again,) = _new(tmp_path, before)
    assert str(again["To"]) == ADDRESSES["german"]
    assert str(again["In-Reply-To"]) == "<k2@example.org>"
    assert "carries no order key" in " ".join(_text(again).split())
    assert records(journal)[seq:] == []

    before = _mails(tmp_path)
    _deliver(tmp_path, [_raw(ADDRESSES["german"], ["pass", "", f"Order key: {keys['german']}"],
                             "<k3@example.org>", f"Re: {again['Subject']}", again)])
    out = _tick(cli, tmp_path)
    assert UNCLAIMED not in out, out
    assert [r.get("order") for r in records(journal)[seq:]][:1] == ["pass"]
    assert not [m for m in _new(tmp_path, before) if "carries no order key" in _text(m)]
    before = _mails(tmp_path)
    _tick(cli, tmp_path)
    assert _new(tmp_path, before) == []              # nothing answered twice


def test_a_strangers_answer_names_no_game_even_when_he_replies_to_a_players(
        cli, tmp_path, monkeypatch):
    """A stranger writes with the game's tag, then as a reply to the German's answer (its
    subject, its Message-ID and thread quoted): each is answered with no game id in it
    anywhere, neither subject, thread nor Message-ID."""
    opened(cli, tmp_path, monkeypatch, ("alpha",))
    _deliver(tmp_path, [_raw(ADDRESSES["german"], ["pass"], "<k1@example.org>",
                             "Re: [referee alpha] German player")])
    before = _mails(tmp_path)
    _tick(cli, tmp_path)
    (answer,) = _new(tmp_path, before)
    before = _mails(tmp_path)
    _deliver(tmp_path, [
        _raw(SPY, ["pass"], "<s1@bureau.example>", "[referee alpha] orders"),
        _raw("other@bureau.example", ["pass"], "<s2@bureau.example>",
             f"Re: {answer['Subject']}", answer)])
    _tick(cli, tmp_path)
    answers = _new(tmp_path, before)
    assert sorted(str(m["To"]) for m in answers) == ["other@bureau.example", SPY]
    for m in answers:
        assert "alpha" not in m.as_string().casefold(), m.as_string()
        assert str(m["Subject"]) == "referee: message not accepted"


def test_forged_replies_to_the_answer_get_no_more_than_the_address_s_quota(
        cli, tmp_path, monkeypatch):
    """Anyone can write the German's From on replies to his answer (its subject is no
    secret to whoever saw one): the game answers them at his address no more often than
    its daily quota for mail not taken as his side's."""
    monkeypatch.setattr(ledgermod, "REGISTERED_PER_DAY", 2)
    opened(cli, tmp_path, monkeypatch, ("alpha",))
    before = _mails(tmp_path)
    _deliver(tmp_path, [_raw(ADDRESSES["german"], [f"spam {i}"], f"<f{i}@x.example>",
                             "Re: [referee alpha] German player, SUMMER 1914")
                        for i in range(4)])
    out = _tick(cli, tmp_path)
    assert UNCLAIMED not in out, out
    answers = [m for m in _new(tmp_path, before)
               if "carries no order key" in " ".join(_text(m).split())]
    assert [str(m["To"]) for m in answers] == [ADDRESSES["german"]] * 2
