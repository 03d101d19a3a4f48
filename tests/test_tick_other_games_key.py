"""A player of two games of a folder who answers one game's mail with his order key of the
other: the game his mail names (by its tag) takes nothing of it and answers that the key is
his for the other game, named by its tag, that nothing was done and that this game's key is
in its latest report; the other game takes nothing either, and the log line says so. The
same key from any other address gets the answer it always got. The games read a Maildir
each, or one between them, and write an outbox each; time comes from REFEREE_NOW."""

from __future__ import annotations

import email
import email.policy

import pytest
from mailboxes import write_maildir
from test_tick_index import START
from test_transport import ADDRESSES, new_game, records
from test_unattended import at

from referee.base.clock import NOW_VARIABLE
from referee.mail import otherkeys


def _games(cli, root, monkeypatch, shared: bool) -> dict:
    """Games g1 and g2, the same addresses playing the same sides in both, opened by a
    pass: each game's journal, keys and Maildir, by id."""
    monkeypatch.setenv(NOW_VARIABLE, at(START))
    made = {}
    for name in ("g1", "g2"):
        box = write_maildir(root / ("box" if shared else f"box-{name}"), [])
        made[name] = (*new_game(cli, root / "games", name, None, "--mail-in", str(box),
                                "--mail-out", f"outbox:{root / ('out-' + name)}"), box)
    assert cli("tick", root / "games", "--no-map").exit_code == 0
    return made


def _from(address: str, key: str, ident: str) -> bytes:
    """A reply to g2's mail, from address, that carries key."""
    return (f"From: {address}\nTo: {ADDRESSES['moderator']}\nSubject: Re: [referee g2] "
            f"orders\nMessage-ID: {ident}\n\npass\n\nOrder key: {key}\n").encode()


def _answers(root, name: str, before: set, to: str) -> list[str]:
    out = []
    for p in sorted(set((root / f"out-{name}").glob("*.eml")) - before):
        m = email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
        if str(m["To"]) == to:
            out.append(m.get_body(("plain",)).get_content())
    return out


def _pass(cli, root, made: dict, mails: list[bytes]):
    """The mails into g2's Maildir, one pass over the folder: its output, each game's
    records before and after, and the mails each game left in its outbox before."""
    before = {n: set((root / f"out-{n}").glob("*.eml")) for n in made}
    seqs = {n: len(records(j)) for n, (j, _, _) in made.items()}
    write_maildir(made["g2"][2], mails)
    r = cli("tick", root / "games", "--no-map")
    assert r.exit_code == 0, r.output
    assert {n: len(records(j)) for n, (j, _, _) in made.items()} == seqs, r.output
    return r.output, before


@pytest.mark.parametrize("shared", [False, True], ids=["own-maildirs", "one-maildir"])
def test_his_key_of_his_other_game_is_named_so(cli, tmp_path, monkeypatch, shared):
    """The Entente's reply to g2's mail with his g1 key: g2 answers him that it is his key
    for [referee g1], that nothing was done in either game and where g2's key is; neither
    journal grows, g1 answers nothing, and the log line says it is his key of another
    game, without calling him no registered player."""
    made = _games(cli, tmp_path, monkeypatch, shared)
    g1_key = made["g1"][1]["entente"]
    output, before = _pass(cli, tmp_path, made, [_from(ADDRESSES["entente"], g1_key,
                                                       "<wrong@example.net>")])
    said = _answers(tmp_path, "g2", before["g2"], ADDRESSES["entente"])
    assert len(said) == 1, (said, output)
    text = " ".join(said[0].split())
    assert "your order key for another of your games, [referee g1]" in text, text
    assert "Nothing was done, in either game." in text, text
    assert "latest report the referee sent you for it (its subject begins with " \
           "[referee g2])" in text, text
    assert "not the one for its sender's address" not in text, text
    assert g1_key not in said[0] and made["g2"][1]["entente"] not in said[0]
    assert _answers(tmp_path, "g1", before["g1"], ADDRESSES["entente"]) == []
    line = next(x for x in output.splitlines() if "rejected" in x)
    assert "g2: rejected" in line and "order key for another game (the Entente player of " \
           "g1)" in line and "in either game" in line, output
    assert "not from a registered player" not in line and g1_key not in output, output


def test_the_same_key_from_another_address_gets_the_old_answer(cli, tmp_path, monkeypatch):
    """The Entente's g1 key pasted into a reply to g2's mail from the German's address (a
    side's in both games, not the Entente's) and from an address no game registered: each
    gets the answer it always got, with no game but g2 named, and nothing is applied."""
    made = _games(cli, tmp_path, monkeypatch, shared=False)
    g1_key = made["g1"][1]["entente"]
    stranger = "someone@example.org"
    output, before = _pass(cli, tmp_path, made, [
        _from(ADDRESSES["german"], g1_key, "<german@example.org>"),
        _from(stranger, g1_key, "<stranger@example.org>")])
    german = _answers(tmp_path, "g2", before["g2"], ADDRESSES["german"])
    assert len(german) == 1, (german, output)
    assert "not the one for its sender's address" in " ".join(german[0].split())
    other = _answers(tmp_path, "g2", before["g2"], stranger)
    assert len(other) == 1 and "could not be matched to a player of this game" in \
        " ".join(other[0].split()), (other, output)
    for text in german + other:
        assert "g1" not in text and "another of your games" not in text, text
    assert "another game" not in output, output
    assert output.count("not from a registered player with his order key") == 2, output


def test_a_pass_with_no_mail_to_answer_works_out_no_key(cli, tmp_path, monkeypatch):
    """The games' keys are worked out for the pass (otherkeys.held) only when a mail asks
    which other game its key is for: a pass with no new mail derives none, and the next
    one, with such a mail, still names the other game."""
    made = _games(cli, tmp_path, monkeypatch, shared=True)
    asked, real = [], otherkeys.held
    monkeypatch.setattr(otherkeys, "held", lambda games: asked.append(1) or real(games))
    output, _ = _pass(cli, tmp_path, made, [])
    assert asked == [], output
    g1_key = made["g1"][1]["entente"]
    output, before = _pass(cli, tmp_path, made, [_from(ADDRESSES["entente"], g1_key,
                                                       "<again@example.net>")])
    (said,) = _answers(tmp_path, "g2", before["g2"], ADDRESSES["entente"])
    assert "your order key for another of your games, [referee g1]" in " ".join(said.split())
