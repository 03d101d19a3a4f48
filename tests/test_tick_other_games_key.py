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
from sharedgames import kept
from test_tick_index import START
from test_transport import ADDRESSES, new_game, records
from test_unattended import at

from referee.base.clock import NOW_VARIABLE
from referee.mail import otherkeys


def _games(tmp_path_factory, monkeypatch, shared: bool) -> tuple:
    """Games g1 and g2, the same addresses playing the same sides in both, opened by a
    pass: the folder they are in, and each game's journal, keys and Maildir, by id. Made
    once a test process (sharedgames.kept), each test's a copy put back at their place."""
    from conftest import Cli

    def make(root, mp) -> dict:
        cli, made = Cli(), {}
        for name in ("g1", "g2"):
            box = write_maildir(root / ("box" if shared else f"box-{name}"), [])
            made[name] = (*new_game(cli, root / "games", name, None, "--mail-in", str(box),
                                    "--mail-out", f"outbox:{root / ('out-' + name)}"), box)
        assert cli("tick", root / "games", "--no-map").exit_code == 0
        return made

    games = kept(tmp_path_factory.getbasetemp(), f"other-keys-{'one' if shared else 'own'}",
                 make)
    root = games.back()
    monkeypatch.setenv(NOW_VARIABLE, at(START))
    return root, games.made


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
def test_his_key_of_his_other_game_is_named_so(cli, tmp_path_factory, monkeypatch, shared):
    """The Entente's reply to g2's mail with his g1 key: g2 answers him that it is his key
    for [referee g1], that nothing was done in either game and where g2's key is; neither
    journal grows, g1 answers nothing, and the log line says it is his key of another
    game, without calling him no registered player."""
    root, made = _games(tmp_path_factory, monkeypatch, shared)
    g1_key = made["g1"][1]["entente"]
    output, before = _pass(cli, root, made, [_from(ADDRESSES["entente"], g1_key,
                                                       "<wrong@example.net>")])
    said = _answers(root, "g2", before["g2"], ADDRESSES["entente"])
    assert len(said) == 1, (said, output)
    text = " ".join(said[0].split())
    assert "your order key for another of your games, [referee g1]" in text, text
    assert "Nothing was done, in either game." in text, text
    assert "latest report the referee sent you for it (its subject begins with " \
           "[referee g2])" in text, text
    assert "not the one for its sender's address" not in text, text
    assert g1_key not in said[0] and made["g2"][1]["entente"] not in said[0]
    assert _answers(root, "g1", before["g1"], ADDRESSES["entente"]) == []
    line = next(x for x in output.splitlines() if "rejected" in x)
    assert "g2: rejected" in line and "order key for another game (the Entente player of " \
           "g1)" in line and "in either game" in line, output
    assert "not from a registered player" not in line and g1_key not in output, output


def test_the_same_key_from_another_address_gets_the_old_answer(cli, tmp_path_factory, monkeypatch):
    """The Entente's g1 key pasted into a reply to g2's mail from the German's address (a
    side's in both games, not the Entente's) and from an address no game registered: each
    gets the answer it always got, with no game but g2 named, and nothing is applied."""
    root, made = _games(tmp_path_factory, monkeypatch, shared=False)
    g1_key = made["g1"][1]["entente"]
    stranger = "someone@example.org"
    output, before = _pass(cli, root, made, [
        _from(ADDRESSES["german"], g1_key, "<german@example.org>"),
        _from(stranger, g1_key, "<stranger@example.org>")])
    german = _answers(root, "g2", before["g2"], ADDRESSES["german"])
    assert len(german) == 1, (german, output)
    assert "not the one for its sender's address" in " ".join(german[0].split())
    other = _answers(root, "g2", before["g2"], stranger)
    assert len(other) == 1 and "could not be matched to a player of this game" in \
        " ".join(other[0].split()), (other, output)
    for text in german + other:
        assert "g1" not in text and "another of your games" not in text, text
    assert "another game" not in output, output
    assert output.count("not from a registered player with his order key") == 2, output


def test_a_pass_with_no_mail_to_answer_works_out_no_key(cli, tmp_path_factory, monkeypatch):
    """The games' keys are worked out for the pass (otherkeys.held) only when a mail asks
    which other game its key is for: a pass with no new mail derives none, and the next
    one, with such a mail, still names the other game."""
    root, made = _games(tmp_path_factory, monkeypatch, shared=True)
    asked, real = [], otherkeys.held
    monkeypatch.setattr(otherkeys, "held", lambda games: asked.append(1) or real(games))
    output, _ = _pass(cli, root, made, [])
    assert asked == [], output
    g1_key = made["g1"][1]["entente"]
    output, before = _pass(cli, root, made, [_from(ADDRESSES["entente"], g1_key,
                                                       "<again@example.net>")])
    (said,) = _answers(root, "g2", before["g2"], ADDRESSES["entente"])
    assert "your order key for another of your games, [referee g1]" in " ".join(said.split())


def _quoting(key: str, typed: str | None, ident: str, style: str = "phone") -> bytes:
    """The German's reply to g2's mail, top-posted as phones write it: 'pass', with typed (a
    key, or nothing) under it, and the mail answered quoted below, its 'Order key: key' line
    with it; style "outlook" quotes it under Outlook's separator, with no '>'."""
    mail = f"Your orders, please.\n\nOrder key: {key}\n"
    if style == "outlook":
        old = ("-----Original Message-----\nFrom: referee\nSent: Monday\nSubject: "
               f"[referee g2] orders\n\n{mail}")
    else:
        old = "On Mon, 23 Nov 2026, referee wrote:\n" + \
            "".join(f"> {line}\n" for line in mail.splitlines())
    body = "pass\n" + (f"\nOrder key: {typed}\n" if typed else "") + "\nThanks,\nHans\n\n" + old
    return (f"From: {ADDRESSES['german']}\nTo: {ADDRESSES['moderator']}\nSubject: Re: "
            f"[referee g2] orders\nMessage-ID: {ident}\n\n{body}").encode()


@pytest.mark.parametrize("style", ["phone", "outlook"])
def test_his_other_games_key_typed_over_a_quoted_copy_of_this_ones(cli, tmp_path_factory,
                                                                    monkeypatch, style):
    """The German answers g2's mail quoting it (its g2 key in the quote) and types his g1
    key: the key he typed decides, not the one he quoted. Nothing is applied in either game
    and g2's answer names [referee g1], as for a mail with no quote."""
    root, made = _games(tmp_path_factory, monkeypatch, shared=False)
    g1_key, g2_key = made["g1"][1]["german"], made["g2"][1]["german"]
    output, before = _pass(cli, root, made, [_quoting(g2_key, g1_key, "<q@example.org>",
                                                          style)])
    (said,) = _answers(root, "g2", before["g2"], ADDRESSES["german"])
    text = " ".join(said.split())
    assert "your order key for another of your games, [referee g1]" in text, (text, output)
    assert "Nothing was done, in either game." in text, text
    assert g1_key not in said and g2_key not in said
    assert _answers(root, "g1", before["g1"], ADDRESSES["german"]) == []
    assert "order key for another game (the German player of g1)" in output, output


def _applied(cli, root, made: dict, mail: bytes) -> tuple[str, dict]:
    """mail into g2's Maildir, one pass: its output and how many records each game grew."""
    seqs = {n: len(records(j)) for n, (j, _, _) in made.items()}
    write_maildir(made["g2"][2], [mail])
    r = cli("tick", root / "games", "--no-map")
    assert r.exit_code == 0, r.output
    return r.output, {n: len(records(j)) - seqs[n] for n, (j, _, _) in made.items()}


def test_this_games_key_typed_over_a_quoted_copy_of_the_others(cli, tmp_path_factory, monkeypatch):
    """The German quotes his g1 mail (its g1 key) in a mail to g2 and types his g2 key: the
    typed key decides, and g2 applies his 'pass'; g1 takes nothing."""
    root, made = _games(tmp_path_factory, monkeypatch, shared=False)
    g1_key, g2_key = made["g1"][1]["german"], made["g2"][1]["german"]
    output, grown = _applied(cli, root, made, _quoting(g1_key, g2_key, "<t@example.org>"))
    assert "g2: applied" in output and "another game" not in output, output
    assert grown["g1"] == 0 and grown["g2"] > 0, (grown, output)


def test_a_quoted_key_counts_when_none_is_typed(cli, tmp_path_factory, monkeypatch):
    """A reply typing no key is his side's by the key its quote holds, as always."""
    root, made = _games(tmp_path_factory, monkeypatch, shared=False)
    output, grown = _applied(cli, root, made, _quoting(made["g2"][1]["german"], None,
                                                           "<n@example.org>"))
    assert "g2: applied" in output and grown == {"g1": 0, "g2": grown["g2"]}, output
    assert grown["g2"] > 0, output


def test_inbox_by_hand_knows_no_other_game_and_reads_the_quoted_key(cli, tmp_path_factory,
                                                                     monkeypatch):
    """`inbox` run by hand on g2 knows none of g1's keys: the same mail, its g1 key typed
    and g2's quoted, is read by g2's quoted key, as it always was."""
    root, made = _games(tmp_path_factory, monkeypatch, shared=False)
    journal, keys, box = made["g2"]
    seq = len(records(journal))
    write_maildir(box, [_quoting(keys["german"], made["g1"][1]["german"], "<h@example.org>")])
    r = cli("inbox", journal, box, "--outbox", root / "by-hand", "--no-map")
    assert r.exit_code == 0, r.output
    assert len(records(journal)) > seq and "another game" not in r.output, r.output


def test_his_other_games_key_in_his_signature_counts_as_typed(cli, tmp_path_factory, monkeypatch):
    """His signature is his own (message.typed_text): with his g1 key in it under '-- ', a
    reply to g2's mail quoting its g2 key is taken as meant for g1, as player.md warns;
    nothing is applied in either game."""
    root, made = _games(tmp_path_factory, monkeypatch, shared=False)
    g1_key, g2_key = made["g1"][1]["german"], made["g2"][1]["german"]
    mail = _quoting(g2_key, None, "<sig@example.org>").replace(
        b"\nThanks,\nHans\n", f"\n-- \nHans\nOrder key: {g1_key}\n".encode())
    output, grown = _applied(cli, root, made, mail)
    assert "order key for another game (the German player of g1)" in output, output
    assert grown == {"g1": 0, "g2": 0}, (grown, output)


@pytest.mark.parametrize("where", ["typed", "signature"])
def test_this_games_key_typed_beside_his_other_games_is_not_applied(cli, tmp_path_factory,
                                                                     monkeypatch, where):
    """The German types his g2 key and his g1 key too, both on 'Order key:' lines, or his g1
    key under '-- ' in his signature: his mail counts as meant for g1 as much as for g2, so
    nothing of it is done in either game, and g2's answer names [referee g1] (player.md)."""
    root, made = _games(tmp_path_factory, monkeypatch, shared=False)
    g1_key, g2_key = made["g1"][1]["german"], made["g2"][1]["german"]
    tail = f"Order key: {g1_key}\n" if where == "typed" else f"-- \nHans\nOrder key: {g1_key}\n"
    mail = (f"From: {ADDRESSES['german']}\nTo: {ADDRESSES['moderator']}\nSubject: Re: "
            f"[referee g2] orders\nMessage-ID: <both-{where}@example.org>\n\npass\n\n"
            f"Order key: {g2_key}\n{tail}").encode()
    output, grown = _applied(cli, root, made, mail)
    assert grown == {"g1": 0, "g2": 0}, (grown, output)
    assert "g2: rejected" in output and \
        "order key for another game (the German player of g1)" in output, output
