"""Mail of a game a pass cannot play (its journal torn as a crash leaves it, or two
journals holding it) is not "mail no game claims": a message that game would claim waits
where it is, its problem line says so, and `tick --format json` does not list it under
`unclaimed`; mail it applied long ago is not announced at all. Once the game can be played
its mail is taken, once. A message no game claims is still told, once. Two 1914 games
read one Maildir; time comes from REFEREE_NOW."""

from __future__ import annotations

import json
import shutil

from mailservers import servers  # noqa: F401 - the fixture net needs
from test_tick_sharing import opened
from test_transport import ADDRESSES, mail, net, new_game  # noqa: F401 - net: a fixture
from ticklines import unstamped

UNCLAIMED = "no game claims"


def _put(box, name: str, raw: bytes) -> None:
    (box / "new" / name).write_bytes(raw)


def _tick(cli, root, *more):
    return cli("tick", root / "games", "--no-map", *more)


def _played(cli, tmp_path, monkeypatch) -> dict:
    """alpha and bravo; alpha's German passes (applied)."""
    made = opened(cli, tmp_path, monkeypatch, ("alpha", "bravo"))
    _put(tmp_path / "box", "1.eml", mail("german", made["alpha"][1]["german"], ["pass"],
                                         "<g1@example.org>", "Re: [referee alpha] orders"))
    r = _tick(cli, tmp_path)
    assert r.exit_code == 0 and "applied" in r.output, r.output
    return made


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


def test_a_torn_journal_s_mail_waits_for_it(cli, tmp_path, monkeypatch):
    made = _played(cli, tmp_path, monkeypatch)
    journal = made["alpha"][0]
    with journal.open("a") as fh:
        fh.write('{"actor":"german"')
    _put(tmp_path / "box", "2.eml", _entente(made))
    _put(tmp_path / "box", "3.eml", _stranger())
    r = _tick(cli, tmp_path)
    assert r.exit_code != 0
    assert "is torn" in r.output and \
        "1 message for game alpha waits until the journal can be read" in r.output, r.output
    assert "1 new message no game claims" in r.output, r.output    # the stranger's alone
    doc, _ = json.JSONDecoder().raw_decode(_tick(cli, tmp_path, "--format", "json").output)
    assert [p.rsplit("/", 1)[-1] for p in doc["unclaimed"]] == ["3.eml"]
    assert [w["where"].rsplit("/", 1)[-1] for w in doc["waiting"]] == ["2.eml"]
    assert doc["waiting"][0]["game_id"] == "alpha"
    assert cli("repair", journal).exit_code == 0
    r = _tick(cli, tmp_path)
    assert r.exit_code == 0, r.output
    assert _taken(r.output) and UNCLAIMED not in r.output, r.output


def test_twins_mail_waits_until_one_is_left(cli, tmp_path, monkeypatch):
    made = _played(cli, tmp_path, monkeypatch)
    journal = made["alpha"][0]
    copy = journal.with_name("alpha-copy.jsonl")
    shutil.copy(journal, copy)
    shutil.copy(journal.with_name(journal.name + ".secret"),
                copy.with_name(copy.name + ".secret"))
    _put(tmp_path / "box", "2.eml", _entente(made))
    r = _tick(cli, tmp_path)
    assert "2 journals hold it" in r.output, r.output
    assert "only one is left in the folder; 1 message for game alpha waits until then" \
        in r.output, r.output
    assert UNCLAIMED not in r.output, r.output
    copy.unlink()
    r = _tick(cli, tmp_path)
    assert r.exit_code == 0 and _taken(r.output), r.output


def test_a_stranger_naming_a_broken_game_waits_only_while_it_is_broken(
        cli, tmp_path, monkeypatch):
    made = _played(cli, tmp_path, monkeypatch)
    journal = made["alpha"][0]
    with journal.open("a") as fh:
        fh.write('{"actor":"german"')
    hostile = _stranger().replace(b"Subject: hello", b"Subject: [referee alpha] hi")
    _put(tmp_path / "box", "2.eml", hostile)
    r = _tick(cli, tmp_path)
    assert "is torn" in r.output and "1 message for game alpha waits" in r.output
    assert cli("repair", journal).exit_code == 0
    r = _tick(cli, tmp_path)
    assert "waits" not in r.output, r.output
    r = _tick(cli, tmp_path)
    assert "waits" not in r.output and "2.eml" not in r.output, r.output


def test_nothing_known_of_the_torn_game_says_so(cli, tmp_path, monkeypatch):
    """The index gone as well: no message can be told to be the torn game's. Mail it
    applied is not announced again; a new message no readable game claims is left for the
    moderator, the line saying the journal may be its; mended, the game takes it."""
    from referee.store import home

    made = _played(cli, tmp_path, monkeypatch)
    journal = made["alpha"][0]
    with journal.open("a") as fh:
        fh.write('{"actor":"german"')
    shutil.rmtree(home.data_dir("index"))
    r = _tick(cli, tmp_path)
    assert UNCLAIMED not in r.output, r.output          # the German's, applied before
    _put(tmp_path / "box", "2.eml", _entente(made))
    r = _tick(cli, tmp_path)
    assert "1 new message no game claims" in r.output, r.output
    assert "alpha.jsonl cannot be read and nothing is known of its game" in r.output
    assert cli("repair", journal).exit_code == 0
    r = _tick(cli, tmp_path)
    assert _taken(r.output), r.output


def test_a_mail_too_large_for_a_torn_game_waits_too(cli, tmp_path, monkeypatch):
    """Over the size limit, read by its header: the torn game's tag keeps it for that game,
    not for the moderator."""
    made = _played(cli, tmp_path, monkeypatch)
    journal = made["alpha"][0]
    with journal.open("a") as fh:
        fh.write('{"actor":"german"')
    big = (f"From: {ADDRESSES['german']}\nTo: {ADDRESSES['moderator']}\n"
           f"Subject: Re: [referee alpha] photo\nMessage-ID: <big1@example.org>\n\n"
           ).encode() + (b"x" * 75 + b"\n") * (1_100_000 // 76)
    _put(tmp_path / "box", "2.eml", big)
    r = _tick(cli, tmp_path)
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
