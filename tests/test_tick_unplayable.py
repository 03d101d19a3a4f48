"""Mail of a game a pass cannot play (its journal torn as a crash leaves it, or two
journals holding it) is not "mail no game claims": a message that game would claim waits
where it is, its problem line says so, and `tick --format json` does not list it under
`unclaimed`; mail it applied long ago is not announced at all. Once the game can be played
its mail is taken, once. A message no game claims is still told, once. Two 1914 games
read one Maildir; time comes from REFEREE_NOW."""

from __future__ import annotations

import json
import shutil

import pytest
from mailservers import mail_settings, servers  # noqa: F401 - the fixture net needs
from sharedgames import kept
from test_tick_index import START
from test_tick_sharing import opened
from test_transport import ADDRESSES, HOST, mail, net, new_game  # noqa: F401 - net: a fixture
from test_unattended import at
from ticklines import problem_text, unstamped

from referee.base.clock import NOW_VARIABLE

UNCLAIMED = "no game claims"


def _put(box, name: str, raw: bytes) -> None:
    (box / "new" / name).write_bytes(raw)


def _tick(cli, root, *more):
    return cli("tick", root / "games", "--no-map", *more)


def _played(cli, tmp_path, monkeypatch, made: dict | None = None) -> dict:
    """alpha and bravo (opened, unless made: opened's, at tmp_path); alpha's German passes
    (applied)."""
    made = made or opened(cli, tmp_path, monkeypatch, ("alpha", "bravo"))
    _put(tmp_path / "box", "1.eml", mail("german", made["alpha"][1]["german"], ["pass"],
                                         "<g1@example.org>", "Re: [referee alpha] orders"))
    r = _tick(cli, tmp_path)
    assert r.exit_code == 0 and "applied" in r.output, r.output
    return made


@pytest.fixture
def played(tmp_path_factory, cli, monkeypatch) -> tuple:
    """What _played makes, from the two games opened once a test process (sharedgames.kept)
    and put back at their place for each test, their home's key and marks in the test's
    home: the folder the games' folder and mailbox are in, and what _played returns. The
    German's mail is not in what is kept: a Maildir message put back by a copy is another
    file, new to the next pass."""
    from conftest import Cli

    made = kept(tmp_path_factory.getbasetemp(), "tick-unplayable",
                lambda place, mp: opened(Cli(), place, mp, ("alpha", "bravo")))
    root = made.back()
    monkeypatch.setenv(NOW_VARIABLE, at(START))
    return root, _played(cli, root, monkeypatch, made.made)


def _taken(output: str) -> bool:
    """alpha answered the Entente's mail (not his decision: rejected), once, and no other."""
    return [line.split()[1] for line in unstamped(output) if ".eml" in line] == \
        ["rejected"] and "2.eml (entente)" in output


def _entente(made) -> bytes:
    return mail("entente", made["alpha"][1]["entente"], ["pass"], "<e1@example.net>",
                "Re: [referee alpha] orders")


def _stranger() -> bytes:
    return (f"From: someone@example.com\nTo: {ADDRESSES['moderator']}\nSubject: hello\n"
            f"Message-ID: <s1@example.com>\n\nhello\n").encode()


def test_a_torn_journal_s_mail_waits_for_it(cli, played):
    root, made = played
    journal = made["alpha"][0]
    with journal.open("a") as fh:
        fh.write('{"actor":"german"')
    _put(root / "box", "2.eml", _entente(made))
    _put(root / "box", "3.eml", _stranger())
    r = _tick(cli, root)
    assert r.exit_code != 0
    assert "is torn" in r.output and \
        "1 message for game alpha waits until the journal can be read" in r.output, r.output
    assert "1 new message no game claims" in r.output, r.output    # the stranger's alone
    doc, _ = json.JSONDecoder().raw_decode(_tick(cli, root, "--format", "json").output)
    assert [p.rsplit("/", 1)[-1] for p in doc["unclaimed"]] == ["3.eml"]
    assert [w["where"].rsplit("/", 1)[-1] for w in doc["waiting"]] == ["2.eml"]
    assert doc["waiting"][0]["game_id"] == "alpha"
    assert cli("repair", journal).exit_code == 0
    r = _tick(cli, root)
    assert r.exit_code == 0, r.output
    assert _taken(r.output) and UNCLAIMED not in r.output, r.output


def test_twins_mail_waits_until_one_is_left(cli, played):
    root, made = played
    journal = made["alpha"][0]
    copy = journal.with_name("alpha-copy.jsonl")
    shutil.copy(journal, copy)
    shutil.copy(journal.with_name(journal.name + ".secret"),
                copy.with_name(copy.name + ".secret"))
    _put(root / "box", "2.eml", _entente(made))
    r = _tick(cli, root)
    assert "2 journals hold it" in r.output, r.output
    assert "only one is left in the folder; 1 message for game alpha waits until then" \
        in r.output, r.output
    assert UNCLAIMED not in r.output, r.output
    copy.unlink()
    r = _tick(cli, root)
    assert r.exit_code == 0 and _taken(r.output), r.output


def test_a_stranger_naming_a_broken_game_waits_only_while_it_is_broken(
        cli, played):
    root, made = played
    journal = made["alpha"][0]
    with journal.open("a") as fh:
        fh.write('{"actor":"german"')
    hostile = _stranger().replace(b"Subject: hello", b"Subject: [referee alpha] hi")
    _put(root / "box", "2.eml", hostile)
    r = _tick(cli, root)
    assert "is torn" in r.output and "1 message for game alpha waits" in r.output
    assert cli("repair", journal).exit_code == 0
    r = _tick(cli, root)
    assert "waits" not in r.output, r.output
    r = _tick(cli, root)
    assert "waits" not in r.output and "2.eml" not in r.output, r.output


def test_nothing_known_of_the_torn_game_says_so(cli, played):
    """The index gone as well: no message can be told to be the torn game's. Mail it
    applied is not announced again; a new message no readable game claims is left for the
    moderator, the line saying the journal may be its; mended, the game takes it."""
    from referee.store import home

    root, made = played
    journal = made["alpha"][0]
    with journal.open("a") as fh:
        fh.write('{"actor":"german"')
    shutil.rmtree(home.data_dir("index"))
    r = _tick(cli, root)
    assert UNCLAIMED not in r.output, r.output          # the German's, applied before
    _put(root / "box", "2.eml", _entente(made))
    r = _tick(cli, root)
    assert "1 new message no game claims" in r.output, r.output
    assert "alpha.jsonl cannot be read and nothing is known of its game" in r.output
    assert cli("repair", journal).exit_code == 0
    r = _tick(cli, root)
    assert _taken(r.output), r.output


def test_a_mail_too_large_for_a_torn_game_waits_too(cli, played):
    """Over the size limit, read by its header: the torn game's tag keeps it for that game,
    not for the moderator."""
    root, made = played
    journal = made["alpha"][0]
    with journal.open("a") as fh:
        fh.write('{"actor":"german"')
    big = (f"From: {ADDRESSES['german']}\nTo: {ADDRESSES['moderator']}\n"
           f"Subject: Re: [referee alpha] photo\nMessage-ID: <big1@example.org>\n\n"
           ).encode() + (b"x" * 75 + b"\n") * (1_100_000 // 76)
    _put(root / "box", "2.eml", big)
    r = _tick(cli, root)
    assert "1 message for game alpha waits" in r.output and UNCLAIMED not in r.output, \
        r.output


def test_on_imap_a_torn_game_s_mail_stays_unread_for_it(cli, net, tmp_path):  # noqa: F811
    """Read from an IMAP folder: the torn game's mail is neither marked read nor listed
    unclaimed; mended, the game takes it (marked read then)."""
    journal, keys = new_game(cli, tmp_path / "games", "alpha", net)
    new_game(cli, tmp_path / "games", "bravo", net)
    assert _tick(cli, tmp_path).exit_code == 0
    with journal.open("a") as fh:
        fh.write('{"actor":"german"')
    net.imap.deliver(net.folder, mail("german", keys["german"], ["pass"], "<i1@example.org>",
                                      "Re: [referee alpha] orders"))
    r = _tick(cli, tmp_path, "--format", "json")
    doc, _ = json.JSONDecoder().raw_decode(r.output)
    assert doc["unclaimed"] == [] and len(doc["waiting"]) == 1, r.output
    assert net.imap.seen(net.folder) == {"<i1@example.org>": False}
    assert cli("repair", journal).exit_code == 0
    r = _tick(cli, tmp_path)
    assert r.exit_code == 0 and "applied" in r.output, r.output
    assert net.imap.seen(net.folder) == {"<i1@example.org>": True}


def _imap_held(cli, net, tmp_path, monkeypatch):  # noqa: F811
    """alpha and bravo reading one IMAP folder, a pass reading 2 messages at the most;
    alpha's journal torn, then two messages for alpha (a stranger's naming its tag, the
    German's orders) and after them bravo's German's orders, by his key from an address
    not registered: alpha's journal and the Message-IDs of its two."""
    monkeypatch.setenv(NOW_VARIABLE, at(START))
    journal, keys = new_game(cli, tmp_path / "games", "alpha", net)
    _, bravo = new_game(cli, tmp_path / "games", "bravo", net)
    mail_settings(f'[hosts."{HOST}"]\nports = {[net.imap.port, net.smtp.port]}\n'
                  f'[reading]\nmessages = 2\n')
    assert _tick(cli, tmp_path).exit_code == 0
    with journal.open("a") as fh:
        fh.write('{"actor":"german"')
    hostile = _stranger().replace(b"Subject: hello", b"Subject: [referee alpha] hi")
    order = mail("german", bravo["german"], ["pass"], "<b1@example.org>",
                 "Re: [referee bravo] orders").replace(ADDRESSES["german"].encode(),
                                                       b"german.other@example.org")
    net.imap.deliver(net.folder, hostile, mail("german", keys["german"], ["pass"],
                                               "<a1@example.org>", "Re: [referee alpha] orders"),
                     order)
    return journal


def _handled(output: str) -> list[str]:
    """Each message a pass handled, as its game and what became of it."""
    return sorted(" ".join(line.split()[:2]) for line in unstamped(output) if ";UID=" in line)


def test_on_imap_mail_held_for_a_torn_game_is_not_read_again(cli, net, tmp_path,  # noqa: F811
                                                             monkeypatch):
    """Held mail is remembered as held: later passes do not read it again while its game
    stays torn (it filled each pass's reading, and bravo's orders behind it were never
    read), and still count it; mended, alpha takes its own, once."""
    journal = _imap_held(cli, net, tmp_path, monkeypatch)
    waits = "2 messages for game alpha wait until the journal can be read"
    r = _tick(cli, tmp_path)
    assert waits in problem_text(r) and _handled(r.stdout) == [], r.output
    for handled in (["bravo: rejected"], []):      # not from the German's registered address
        r = _tick(cli, tmp_path)
        assert waits in problem_text(r) and _handled(r.stdout) == handled, r.output
        assert UNCLAIMED not in r.output, r.output
    assert net.imap.seen(net.folder) == {"<s1@example.com>": False, "<a1@example.org>": False,
                                         "<b1@example.org>": True}
    assert cli("repair", journal).exit_code == 0
    r = _tick(cli, tmp_path)
    assert r.exit_code == 0 and _handled(r.stdout) == ["alpha: applied", "alpha: rejected"], \
        r.output
    assert set(net.imap.seen(net.folder).values()) == {True}, r.output
    r = _tick(cli, tmp_path)
    assert r.exit_code == 0 and ".eml" not in r.output and "UID" not in r.output, r.output


def test_on_imap_held_mail_of_a_journal_moved_away_is_the_moderator_s(
        cli, net, tmp_path, monkeypatch):  # noqa: F811
    """Held for a torn game that then no longer reads the folder (its journal moved away):
    read again, it is mail no game claims, told to the moderator."""
    journal = _imap_held(cli, net, tmp_path, monkeypatch)
    for _ in range(2):
        r = _tick(cli, tmp_path)
        assert "2 messages for game alpha wait" in r.output, r.output
    journal.rename(tmp_path / "alpha.jsonl")
    r = _tick(cli, tmp_path)
    assert "2 new messages no game claims" in r.output, r.output
    assert "for game alpha wait" not in r.output, r.output


def test_in_a_maildir_held_mail_keeps_no_other_game_s_waiting(cli, played):
    """A Maildir is read whole at every pass (no reading budget there, unlike IMAP's): mail
    held for the torn game, however much, does not keep bravo's orders behind it unread."""
    root, made = played
    mail_settings("[reading]\nmessages = 2\n")
    with made["alpha"][0].open("a") as fh:
        fh.write('{"actor":"german"')
    for i in range(3):
        _put(root / "box", f"2{i}.eml", _stranger().replace(
            b"Subject: hello", b"Subject: [referee alpha] hi").replace(b"<s1@", f"<s{i}@".encode()))
    _put(root / "box", "3.eml", mail("german", made["bravo"][1]["german"], ["pass"],
                                         "<b1@example.org>", "Re: [referee bravo] orders"))
    r = _tick(cli, root)
    assert "3 messages for game alpha wait" in problem_text(r), r.output
    assert [line.split()[:2] for line in unstamped(r.stdout) if ".eml" in line] == \
        [["bravo:", "applied"]] and "new/3.eml (german)" in r.stdout, r.output
    r = _tick(cli, root)
    assert "3 messages for game alpha wait" in problem_text(r) and ".eml" not in r.stdout, \
        r.output
