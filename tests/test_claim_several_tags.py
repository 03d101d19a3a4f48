"""A mail whose subject carries the tags of several games of a folder (a player replied to
one game's mail and pasted the other's subject): the game whose order key for the sender's
side it carries takes it, as a mail tagged with that game alone; with no such key, or the
keys of several, no game does: it is left for the moderator as unclaimed mail is, told
once, answered by nobody. A stranger so tagging his mail learns nothing of whether a key
was right. alpha and bravo (the same addresses playing the same sides) read one Maildir,
each writing its own outbox; time comes from REFEREE_NOW."""

from __future__ import annotations

import hashlib
import os

import pytest
from mailservers import mail_settings
from test_tick_busy import _held, moved_clock  # noqa: F401 - moved_clock: a fixture
from test_tick_sharing import opened
from test_tick_tag_case import UNCLAIMED, _answers, _orders, _outbox
from test_transport import ADDRESSES, mail, records
from ticklines import unstamped

from referee.mail.claims import claimant, tagged
from referee.mail.tickgame import Game

BOTH = ("Re: [referee alpha] German report [referee bravo] German report",
        "Re: [referee bravo] German report Re: [referee alpha] orders")


def _pass(cli, root, made: dict, raw: bytes):
    """raw into the Maildir, one pass: its output, each game's new orders, and the mails
    each game wrote."""
    seqs = {n: len(records(made[n][0])) for n in made}
    before = {n: _outbox(root, n) for n in made}
    (root / "box" / "new" / f"{hashlib.sha256(raw).hexdigest()[:12]}.eml").write_bytes(raw)
    r = cli("tick", root / "games", "--no-map")
    assert r.exit_code == 0, r.output
    return (r.output, {n: _orders(made, n, seqs[n]) for n in made},
            {n: _answers(root, n, before[n]) for n in made})


@pytest.mark.parametrize("subject", BOTH)
def test_the_game_whose_key_it_carries_takes_it(cli, tmp_path, monkeypatch, subject):
    """alpha's German key, both tags in either order: alpha applies the pass and answers
    him, with alpha's tag; bravo takes nothing, writes nothing; nothing is unclaimed."""
    made = opened(cli, tmp_path, monkeypatch, ("alpha", "bravo"))
    output, orders, answers = _pass(cli, tmp_path, made, mail(
        "german", made["alpha"][1]["german"], ["pass"], "<t1@example.org>", subject))
    assert orders == {"alpha": ["pass"], "bravo": []}, output
    assert UNCLAIMED not in output and "for another game" not in output, output
    assert ADDRESSES["german"] in [str(m["To"]) for m in answers["alpha"]], output
    assert all("[referee alpha]" in str(m["Subject"]) for m in answers["alpha"])
    assert answers["bravo"] == [], output


@pytest.mark.parametrize("keys", [(), ("alpha", "bravo")], ids=["no-key", "both-keys"])
def test_without_one_game_s_key_it_is_left_for_the_moderator(cli, tmp_path, monkeypatch,
                                                             keys):
    """No key, or both games' keys: no game takes it, nobody answers, the pass tells the
    moderator of it once, saying several games' tags may be why."""
    made = opened(cli, tmp_path, monkeypatch, ("alpha", "bravo"))
    lines = ["pass", *(f"Order key: {made[n][1]['german']}" for n in keys)]
    raw = (f"From: {ADDRESSES['german']}\nTo: {ADDRESSES['moderator']}\nSubject: {BOTH[0]}\n"
           f"Message-ID: <t2@example.org>\n\n" + "\n\n".join(lines) + "\n").encode()
    output, orders, answers = _pass(cli, tmp_path, made, raw)
    assert orders == {"alpha": [], "bravo": []}, output
    assert answers == {"alpha": [], "bravo": []}, output
    assert f"1 new message {UNCLAIMED}" in output and "several games' tags" in output, output
    again = cli("tick", tmp_path / "games", "--no-map").output
    assert UNCLAIMED not in again and "t2@" not in again, again


def test_a_stranger_learns_nothing_of_a_key(cli, tmp_path, monkeypatch):
    """A stranger's mail with both tags, with alpha's German key or a made-up one (from his
    own address, or writing the Entente's From with the German's key): the same for each,
    left for the moderator, answered by nobody, nothing applied."""
    made = opened(cli, tmp_path, monkeypatch, ("alpha", "bravo"))
    right, wrong = made["alpha"][1]["german"], "AAAA-BBBB-CCCC"
    said = []
    for n, (sender, key) in enumerate([("someone@example.com", right),
                                       ("someone@example.com", wrong),
                                       (ADDRESSES["entente"], right),
                                       (ADDRESSES["entente"], wrong)]):
        raw = (f"From: {sender}\nTo: {ADDRESSES['moderator']}\nSubject: {BOTH[0]}\n"
               f"Message-ID: <x{n}@example.com>\n\npass\n\nOrder key: {key}\n").encode()
        output, orders, answers = _pass(cli, tmp_path, made, raw)
        assert orders == {"alpha": [], "bravo": []}, output
        assert answers == {"alpha": [], "bravo": []}, output
        said.append([" ".join(line.split()[:3]) for line in unstamped(output)])
    assert said[0] == said[1] == said[2] == said[3], said


def _game(game_id: str) -> Game:
    return Game(None, game_id, "h", "box", "out", [f"KEY-{game_id}"],
                {"german": "kaiser@example.org"})


def test_every_tag_of_a_subject_names_a_game():
    """The claim reads every tag, not the first alone: a tag naming no game of the folder
    claims the mail for none, whichever tag comes first."""
    alpha, bravo = _game("alpha"), _game("bravo")
    assert tagged("Re: [referee zulu] x [referee alpha #3]", [alpha, bravo]) == []
    assert tagged("[referee alpha] x [referee ALPHA #2]", [alpha, bravo]) == [alpha]
    assert tagged("[referee bravo] x [referee alpha]", [alpha, bravo]) == [bravo, alpha]
    raw = (b"From: kaiser@example.org\nSubject: [referee bravo] x [referee alpha]\n\n"
           b"Order key: KEY-alpha\n")
    assert claimant(raw, [alpha, bravo]) is alpha
    assert claimant(raw.replace(b"kaiser@", b"wilhelm@"), [alpha, bravo]) is None


def test_each_game_takes_its_own_in_a_pass_shared_among_workers(cli, tmp_path, monkeypatch):
    """Two mails with both tags, one with alpha's German key and one with bravo's, in a pass
    shared between two processes (one game forked off): each game applies its own, once."""
    made = opened(cli, tmp_path, monkeypatch, ("alpha", "bravo"))
    mail_settings("[passes]\nworkers = 2\n")
    seqs = {n: len(records(made[n][0])) for n in made}
    for n, subject in zip(("alpha", "bravo"), BOTH):
        raw = mail("german", made[n][1]["german"], ["pass"], f"<w{n}@example.org>", subject)
        (tmp_path / "box" / "new" / f"{n}.eml").write_bytes(raw)
    for _ in range(2):
        r = cli("tick", tmp_path / "games", "--no-map")
        assert r.exit_code == 0 and UNCLAIMED not in r.output, r.output
    assert {n: _orders(made, n, seqs[n]) for n in made} == {"alpha": ["pass"],
                                                             "bravo": ["pass"]}, r.output


@pytest.mark.parametrize("other", ["torn", "busy"])
def test_while_a_game_it_names_cannot_be_played_it_waits_untold(cli, tmp_path, monkeypatch,
                                                                moved_clock, other):  # noqa: F811
    """alpha's German key, both tags, while bravo's journal is torn (its last line cut) or
    held locked by another process: no game takes it, and the moderator is not told of it
    as unclaimed, since a later pass may give it to alpha: it waits, said in bravo's line.
    Once bravo can be played again, alpha takes it; nothing was ever told as unclaimed."""
    made = opened(cli, tmp_path, monkeypatch, ("alpha", "bravo"))
    bravo, seq = made["bravo"][0], len(records(made["alpha"][0]))
    raw = mail("german", made["alpha"][1]["german"], ["pass"], "<t3@example.org>", BOTH[0])
    (tmp_path / "box" / "new" / "t3.eml").write_bytes(raw)
    held = None
    if other == "torn":
        with bravo.open("a") as fh:
            fh.write('{"actor":"german"')
    else:                       # changed since the index served it: read, under its lock
        os.utime(bravo)
        held = _held(bravo)
    try:
        output = cli("tick", tmp_path / "games", "--no-map").output
    finally:
        if held is not None:
            os.close(held)
    assert UNCLAIMED not in output and _orders(made, "alpha", seq) == [], output
    assert "1 message for game bravo waits" in output, output
    if other == "torn":
        assert cli("repair", bravo).exit_code == 0
    r = cli("tick", tmp_path / "games", "--no-map")
    assert r.exit_code == 0 and UNCLAIMED not in r.output, r.output
    assert _orders(made, "alpha", seq) == ["pass"], r.output
