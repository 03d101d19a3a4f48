"""A game handed over to another machine (`referee handover`): two referee homes stand for the
two machines. Each docstring says the case and what the referee does."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from forging import as_user
from mailservers import servers  # noqa: F401 - the fixture net needs
from test_signing_attacks import mailed_game
from test_transport import ADDRESSES, net  # noqa: F401 - net: a fixture


def _handed(cli, tmp_path: Path) -> tuple[Path, bytes, str]:
    """A mailed game, handed over from the first home; its bytes and the mark's path."""
    journal = mailed_game(cli, tmp_path / "games")
    assert cli("order", journal, "--as", "german", "pass", "end turn").exit_code == 0
    r = cli("handover", journal)
    assert r.exit_code == 0, r.output
    mark = next(line.split("remove ", 1)[1] for line in r.stdout.splitlines()
                if line.startswith("to take the game back"))
    return journal, journal.read_bytes(), mark


def test_every_writing_command_refuses_a_handed_over_game_and_reads_go_on(cli, tmp_path):
    """The tester's fork: the old machine went on writing the game after it was copied.
    Handed over, every command that writes refuses in one line, writing nothing; the
    commands that read it still work."""
    journal, before, _ = _handed(cli, tmp_path)
    for args in (("order", journal, "--as", "entente", "pass"),
                 ("players", journal, "--set", "german=wilhelm@example.org"),
                 ("deadline", journal, "--set", "48h"),
                 ("extend", journal, "german", "24h"),
                 ("standing", journal, "--as", "entente", "--add", "no combat cards"),
                 ("handover", journal)):
        r = cli(*args)
        assert r.exit_code == 3 and "handed over to another machine at record" in r.stderr \
            and "nothing was written here" in r.stderr, (args, r.output)
        assert len(r.stderr.strip().splitlines()) <= 2, r.stderr
        assert journal.read_bytes() == before, args
    for args in (("status", journal), ("log", journal), ("verify", journal)):
        assert cli(*args).exit_code == 0, args


def test_tick_over_a_folder_of_handed_over_games_exits_0_and_the_new_machine_writes(
        cli, tmp_path, monkeypatch, referee_home):
    """cron's tick over the old machine's folder passes the game over with a standing line,
    no problem (exit 0, nothing written); the new home, with the journal, its secret and
    the key file copied, writes the game."""
    journal, before, _ = _handed(cli, tmp_path)
    r = cli("tick", journal.parent, "--no-map")
    assert r.exit_code == 0, r.output
    assert "handed   signed.jsonl: game signed was handed over" in r.stdout, r.stdout
    assert journal.read_bytes() == before
    other = tmp_path / "home-b"
    (other / "keys").mkdir(parents=True, mode=0o700)
    for key in (referee_home / "keys").glob("*.key"):
        shutil.copy2(key, other / "keys" / key.name)
    as_user(monkeypatch, other)
    r = cli("order", journal, "--as", "entente", "pass")
    assert r.exit_code == 0, r.output


def test_removing_the_mark_takes_the_game_back(cli, tmp_path):
    """Handed over by mistake: removing the mark the command names makes the game this
    machine's again."""
    journal, _, mark = _handed(cli, tmp_path)
    Path(mark).unlink()
    r = cli("order", journal, "--as", "entente", "pass")
    assert r.exit_code == 0, r.output


def test_a_mark_in_the_game_folder_or_from_another_home_means_nothing(
        cli, tmp_path, monkeypatch, referee_home):
    """A mark is this home's, signed with its key: one copied into the game folder, or
    into another home's handed/ folder, hands nothing over there."""
    journal, _, mark = _handed(cli, tmp_path)
    shutil.copy2(mark, journal.parent / Path(mark).name)
    other = tmp_path / "home-b"
    (other / "keys").mkdir(parents=True, mode=0o700)
    (other / "handed").mkdir(mode=0o700)
    for key in (referee_home / "keys").glob("*.key"):
        shutil.copy2(key, other / "keys" / key.name)
    shutil.copy2(mark, other / "handed" / Path(mark).name)
    as_user(monkeypatch, other)
    r = cli("order", journal, "--as", "entente", "pass")
    assert r.exit_code == 0, r.output


def test_a_game_that_came_to_this_home_says_so_in_each_players_first_mail(
        cli, tmp_path, monkeypatch, referee_home):
    """The home a game moved to marks the record the game came at (store/written.py): its
    first mail to a player it never mailed repeats the game from its start and says why;
    the home that made the game, or a side it mailed before, says nothing of it."""
    from referee.mail.movedhost import moved_note
    from referee.store.written import came_at

    journal, _, _ = _handed(cli, tmp_path)
    game = json.loads(journal.read_text().splitlines()[0])["game_id"]
    last = json.loads(journal.read_text().splitlines()[-1])["seq"]
    assert came_at(game) == 0 and moved_note(game, {"sent": {}}, "german") is None
    other = tmp_path / "home-b"
    (other / "keys").mkdir(parents=True, mode=0o700)
    for key in (referee_home / "keys").glob("*.key"):
        shutil.copy2(key, other / "keys" / key.name)
    as_user(monkeypatch, other)
    assert cli("order", journal, "--as", "entente", "pass").exit_code == 0
    assert came_at(game) == last
    said = moved_note(game, {"sent": {}}, "german")
    assert said is not None and said.startswith(
        f"This report repeats the game from its start: the game came to this referee at "
        f"record {last} "), said
    assert moved_note(game, {"sent": {"german": [last + 1, "h"]}}, "german") is None
    assert cli("players", journal, "--set", "german=wilhelm@example.org").exit_code == 0
    assert came_at(game) == last            # kept, not moved on by later writes


def _shared_box(cli, tmp_path: Path, monkeypatch) -> dict:
    """alpha and bravo reading one Maildir; alpha's German passes (applied); alpha handed over."""
    from test_tick_unplayable import _played

    made = _played(cli, tmp_path, monkeypatch)
    assert cli("handover", made["alpha"][0]).exit_code == 0
    return made


def test_a_handed_over_game_s_mail_in_a_shared_maildir_is_left_for_the_new_machine(
        cli, tmp_path, monkeypatch, referee_home):
    """alpha handed over, bravo still played here from the same Maildir: the Entente's orders
    for alpha are neither applied nor told as mail no game claims (a stranger's is, once);
    the handed line counts them, and the tally does not count alpha as handled. The file
    stays as it came and is not known as dealt with: taken back, alpha applies it."""
    from test_tick_unplayable import _entente, _put, _stranger, _tick
    from ticklines import unstamped

    made = _shared_box(cli, tmp_path, monkeypatch)
    journal = made["alpha"][0]
    before = journal.read_bytes()
    _put(tmp_path / "box", "2.eml", _entente(made))
    _put(tmp_path / "box", "3.eml", _stranger())
    raw = (tmp_path / "box" / "new" / "2.eml").read_bytes()
    for strangers in (1, 0):
        r = _tick(cli, tmp_path)
        assert r.exit_code == 0, r.output
        lines = unstamped(r.stdout)
        assert [line for line in lines if line.startswith("handed   ")] == [
            "handed   alpha.jsonl: game alpha was handed over to another machine at record "
            f"{len(before.splitlines()) - 1} (`referee handover`): passed over, 1 message for "
            "it left for that machine"], r.stdout
        assert "2.eml" not in r.stdout and "applied" not in r.stdout, r.stdout
        assert ("1 new message no game claims" in r.stdout) == bool(strangers), r.stdout
        assert lines[-1] == "2 games: 1 handled, 1 handed over to another machine", r.stdout
    assert journal.read_bytes() == before
    assert (tmp_path / "box" / "new" / "2.eml").read_bytes() == raw
    for mark in (referee_home / "handed").glob("*.handed"):
        mark.unlink()
    r = _tick(cli, tmp_path)
    assert r.exit_code == 0 and "2.eml (entente)" in r.stdout, r.output


def _copy_as_told(printed: str, folder: Path, other_home: Path) -> Path:
    """What handover printed to copy, copied to the new machine: the journal and its secret
    into folder, the key file into the new home's keys/ folder; the journal there."""
    told = {line.strip().split(": ", 1)[0]: line.strip().split(": ", 1)[1].split(" (", 1)[0]
            for line in printed.splitlines() if line.startswith("  ") and ": " in line}
    journal = Path(told["the journal"])
    folder.mkdir(mode=0o700)
    (other_home / "keys").mkdir(parents=True, mode=0o700)
    moved = folder / journal.name
    shutil.copy2(journal, moved)
    shutil.copy2(told["its dice secret"], folder / f"{journal.name}.secret")
    key = Path(told["the key file"])
    shutil.copy2(key, other_home / "keys" / key.name)
    (other_home / "keys" / key.name).chmod(0o600)
    return moved


def test_the_tester_s_fork_through_real_mail_servers(cli, net, tmp_path, monkeypatch):  # noqa: F811
    """Two machines (two referee homes) and the test servers' IMAP folder, which the old
    machine reads for alpha and bravo. The old machine plays alpha by mail, hands it over
    and the files are copied as handover says; its cron tick then finds the German's next
    orders for alpha in the folder, and applies nothing, marks nothing read and sends
    nothing, its handed line counting the message. The new machine's tick applies them and
    answers the German once; the old tick after it still writes nothing. The new journal
    goes on from the old one: the two do not fork."""
    from datetime import timedelta
    from email import message_from_bytes, policy

    from mailservers import mail_settings
    from test_tick_index import START
    from test_transport import mail, new_game
    from test_unattended import at
    from ticklines import unstamped

    from referee.base.clock import NOW_VARIABLE

    monkeypatch.setenv(NOW_VARIABLE, at(START))
    home = Path(os.environ["REFEREE_HOME"])
    settings = (home / "mail.toml").read_text()
    old = tmp_path / "games"
    journal, keys = new_game(cli, old, "alpha", net)
    new_game(cli, old, "bravo", net)
    assert cli("tick", old, "--no-map").exit_code == 0            # the opening reports
    net.imap.deliver(net.folder, mail("german", keys["german"], ["pass"], "<g1@example.org>",
                                      "Re: [referee alpha] orders"))
    r = cli("tick", old, "--no-map")
    assert r.exit_code == 0 and "applied" in r.stdout, r.output
    handed = cli("handover", journal)
    assert handed.exit_code == 0, handed.output
    other = tmp_path / "home-new"
    moved = _copy_as_told(handed.stdout, tmp_path / "games-new", other)
    before, sent = journal.read_bytes(), len(net.smtp.received)

    orders = mail("german", keys["german"], ["end turn"], "<g2@example.org>",
                  "Re: [referee alpha] orders")
    net.imap.deliver(net.folder, orders)
    monkeypatch.setenv(NOW_VARIABLE, at(START + timedelta(minutes=10)))
    for _ in range(2):                  # cron on the old machine, twice
        r = cli("tick", old, "--no-map")
        assert r.exit_code == 0, r.output
        lines = unstamped(r.stdout)
        assert any(line.startswith("handed   alpha.jsonl: game alpha was handed over") and
                   line.endswith("passed over, 1 message for it left for that machine")
                   for line in lines), r.stdout
        assert "no game claims" not in r.stdout and "applied" not in r.stdout, r.stdout
        assert lines[-1] == "2 games: 1 handled, 1 handed over to another machine", r.stdout
        assert journal.read_bytes() == before
        assert net.imap.seen(net.folder)["<g2@example.org>"] is False
        assert len(net.smtp.received) == sent

    as_user(monkeypatch, other)         # the new machine: its own home and mail settings
    mail_settings(settings)
    monkeypatch.setenv(NOW_VARIABLE, at(START + timedelta(minutes=20)))
    r = cli("tick", moved.parent, "--no-map")
    assert r.exit_code == 0 and "applied" in r.stdout, r.output
    assert net.imap.seen(net.folder)["<g2@example.org>"] is True
    replies = [m for _, tos, m in net.smtp.received[sent:]
               if tos == [ADDRESSES["german"]] and b"<g2@example.org>" in m]
    assert len(replies) == 1, net.smtp.received[sent:]
    came = before.count(b"\n") - 1            # the last record's number when it came
    text = " ".join(message_from_bytes(replies[0], policy=policy.default)
                    .get_body(("plain",)).get_content().split())
    assert f"This report repeats the game from its start: the game came to this referee at " \
           f"record {came} " in text, text[:1500]
    grown = moved.read_bytes()
    assert grown.startswith(before) and len(grown) > len(before)
    after = len(net.smtp.received)
    r = cli("tick", moved.parent, "--no-map")
    assert r.exit_code == 0 and len(net.smtp.received) == after, r.output

    as_user(monkeypatch, home)          # the old machine's cron again: still nothing
    r = cli("tick", old, "--no-map")
    assert r.exit_code == 0 and journal.read_bytes() == before, r.output
    assert "passed over, its mail left for that machine" in r.stdout, r.stdout
    assert len(net.smtp.received) == after


@pytest.mark.parametrize("first", [b"garbage{\n", b"\n", b"[1, 2]\n", b'{"game_id": 5}\n',
                                   b"\xa7\xff" * 4000, b""])
def test_a_file_whose_record_0_is_no_header_is_refused_in_one_line(cli, tmp_path, first):
    """A damaged or planted file named as the journal: one line, exit 3, no mark kept."""
    journal = tmp_path / "bad.jsonl"
    journal.write_bytes(first)
    journal.chmod(0o600)
    r = cli("handover", journal)
    assert r.exit_code == 3, r.output
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.output, r.stderr
    assert journal.read_bytes() == first
    assert not list((Path(os.environ["REFEREE_HOME"]) / "handed").glob("*"))


def test_a_pass_reads_each_handover_mark_once(cli, tmp_path, monkeypatch, referee_home):
    """alpha handed over, still in the folder: its mark, read to pass it over, is not read
    again when the pass looks for the marks of games gone from the folder."""
    from test_tick_unplayable import _tick

    from referee.store import handedover

    _shared_box(cli, tmp_path, monkeypatch)
    reads, read_signed = [], handedover.home.read_signed

    def counted(path, *args, **kwargs):
        if path.suffix == ".handed":
            reads.append(path)
        return read_signed(path, *args, **kwargs)

    monkeypatch.setattr(handedover.home, "read_signed", counted)
    r = _tick(cli, tmp_path)
    assert "handed   alpha.jsonl: game alpha" in r.stdout, r.stdout
    marks = list((referee_home / "handed").glob("*.handed"))
    assert len(marks) == 1 and reads.count(marks[0]) == 1, reads
