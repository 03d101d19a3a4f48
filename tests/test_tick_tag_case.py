"""A subject's tag `[referee GAME]` names its game under `tick` with case ignored, as
inbox run by hand and the stale check read it (base/gameids.py other_game, mail/msgids.py):
a player's mail program, or the player, may write `[referee BRAVO]` for the game `bravo`.
`referee new` lets two games of one folder have ids that differ in case alone: the game
spelt as the tag is claims the mail, and a tag spelt as neither claims it for neither (left
for the moderator, as a tag naming no game of the folder is). The games read one Maildir,
each writing its own outbox; time comes from REFEREE_NOW."""

from __future__ import annotations

import email
import email.policy

from mailboxes import write_maildir
from test_tick_sharing import opened
from test_transport import ADDRESSES, mail, records

UNCLAIMED = "no game claims (no game's tag or order key, or several games' tags or keys)"


def _outbox(root, name: str) -> set[str]:
    return {p.name for p in (root / f"out-{name}").glob("*.eml")}


def _orders(made: dict, name: str, since: int) -> list:
    return [r.get("order") for r in records(made[name][0])[since:]]


def _answers(root, name: str, before: set[str]) -> list[email.message.EmailMessage]:
    return [email.message_from_bytes((root / f"out-{name}" / n).read_bytes(),
                                     policy=email.policy.default)
            for n in sorted(_outbox(root, name) - before)]


def test_a_tag_in_other_case_is_claimed_by_its_game(cli, tmp_path, monkeypatch):
    """`[referee BRAVO]` on the German's orders for bravo: bravo applies them and answers
    him; alpha, reading the same Maildir, takes nothing; nothing is left unclaimed."""
    made = opened(cli, tmp_path, monkeypatch, ("alpha", "bravo"))
    seqs = {n: len(records(made[n][0])) for n in made}
    before = _outbox(tmp_path, "bravo")
    write_maildir(tmp_path / "box", [mail("german", made["bravo"][1]["german"], ["pass"],
                                          "<b1@example.org>", "Re: [referee BRAVO] orders")])
    r = cli("tick", tmp_path / "games", "--no-map")
    assert r.exit_code == 0, r.output
    assert _orders(made, "bravo", seqs["bravo"]) == ["pass"]
    assert _orders(made, "alpha", seqs["alpha"]) == []
    assert UNCLAIMED not in r.output, r.output
    answers = _answers(tmp_path, "bravo", before)
    assert ADDRESSES["german"] in [str(m["To"]) for m in answers]
    assert all("[referee bravo]" in str(m["Subject"]) for m in answers)


def test_a_mail_too_large_with_a_tag_in_other_case_is_answered_by_its_game(
        cli, tmp_path, monkeypatch):
    """The German plays both games from one address: his mail over the size limit is
    answered by the game its tag names, `[referee BRAVO]` for bravo, not left unread."""
    made = opened(cli, tmp_path, monkeypatch, ("alpha", "bravo"))
    before = {n: _outbox(tmp_path, n) for n in made}
    big = (f"From: {ADDRESSES['german']}\nTo: {ADDRESSES['moderator']}\n"
           f"Subject: Re: [referee BRAVO] photo\nMessage-ID: <big1@example.org>\n\n"
           ).encode() + (b"x" * 75 + b"\n") * (1_100_000 // 76)
    write_maildir(tmp_path / "box", [big])
    r = cli("tick", tmp_path / "games", "--no-map")
    assert r.exit_code == 0, r.output
    said = [m.get_body(("plain",)).get_content() for m in _answers(tmp_path, "bravo",
                                                                   before["bravo"])]
    assert sum("over the 1 MB" in text for text in said) == 1, said
    assert _answers(tmp_path, "alpha", before["alpha"]) == []
    assert UNCLAIMED not in r.output, r.output


def test_ids_differing_in_case_alone_the_exact_one_claims_else_none(cli, tmp_path,
                                                                     monkeypatch):
    """Games `alpha` and `Alpha` read one Maildir: `[referee alpha]` goes to alpha,
    `[referee Alpha]` to Alpha, and `[referee ALPHA]` (with alpha's order key) to neither:
    it is left for the moderator, and the pass's log says so."""
    made = opened(cli, tmp_path, monkeypatch, ("alpha", "Alpha"))
    seqs = {n: len(records(made[n][0])) for n in made}
    write_maildir(tmp_path / "box", [
        mail("german", made["alpha"][1]["german"], ["pass"], "<a1@example.org>",
             "[referee alpha] orders"),
        mail("german", made["Alpha"][1]["german"], ["pass"], "<a2@example.org>",
             "[referee Alpha] orders"),
        mail("german", made["alpha"][1]["german"], ["pass"], "<a3@example.org>",
             "[referee ALPHA] orders")])
    r = cli("tick", tmp_path / "games", "--no-map")
    assert r.exit_code == 0, r.output
    assert _orders(made, "alpha", seqs["alpha"]) == ["pass"]
    assert _orders(made, "Alpha", seqs["Alpha"]) == ["pass"]
    assert f"1 new message {UNCLAIMED}" in r.output, r.output


def _past_the_bounds(key: str, subject: str) -> bytes:
    """The German's orders and key in the last of 3,000 parts: a message that cannot be
    read whole (over the parts a message may have)."""
    head = (f"From: {ADDRESSES['german']}\nTo: {ADDRESSES['moderator']}\nSubject: {subject}\n"
            f"Message-ID: <parts@example.org>\n"
            f"Content-Type: multipart/mixed; boundary=bb\n\n")
    parts = "--bb\nContent-Type: text/plain\n\nx\n" * 3000
    return (head + parts + f"--bb\nContent-Type: text/plain\n\npass\n\nOrder key: {key}\n"
            f"--bb--\n").encode()


def test_a_mail_that_cannot_be_read_whole_is_answered_by_the_game_it_names(
        cli, tmp_path, monkeypatch):
    """Past the bounds of a message's parts, the German's mail is still his game's, by its
    tag or, untagged, by the order key its bytes carry: that game answers that it cannot be
    read, as `inbox` does, and nothing is applied; it is not left unclaimed, unanswered."""
    made = opened(cli, tmp_path, monkeypatch, ("alpha", "bravo"))
    for subject, name in (("Re: [referee bravo] orders", "bravo"), ("orders", "alpha")):
        seqs = {n: len(records(made[n][0])) for n in made}
        before = {n: _outbox(tmp_path, n) for n in made}
        write_maildir(tmp_path / "box", [_past_the_bounds(made[name][1]["german"], subject)])
        r = cli("tick", tmp_path / "games", "--no-map")
        assert UNCLAIMED not in r.output, r.output
        said = [m.get_body(("plain",)).get_content()
                for m in _answers(tmp_path, name, before[name])]
        assert sum("cannot be read" in text for text in said) == 1, (said, r.output)
        other = "alpha" if name == "bravo" else "bravo"
        assert _answers(tmp_path, other, before[other]) == []
        assert {n: len(records(made[n][0])) for n in made} == seqs


def test_a_mail_carrying_two_games_order_keys_is_left_saying_so(cli, tmp_path, monkeypatch):
    """The German plays both games from one address and pastes both keys into one untagged
    mail: neither game takes it (no game reads another's orders), and the pass's line says
    why truly: not that it carries no key, but that several games' keys claim it."""
    made = opened(cli, tmp_path, monkeypatch, ("alpha", "bravo"))
    seqs = {n: len(records(made[n][0])) for n in made}
    both = mail("german", made["alpha"][1]["german"],
                ["pass", "", f"Order key: {made['bravo'][1]['german']}"], "<k2@example.org>")
    write_maildir(tmp_path / "box", [both])
    r = cli("tick", tmp_path / "games", "--no-map")
    assert f"1 new message {UNCLAIMED}" in r.output, r.output
    assert {n: len(records(made[n][0])) for n in made} == seqs
