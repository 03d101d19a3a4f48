"""A game handed over to another machine (`referee handover`): two referee homes stand for the
two machines. Each docstring says the case and what the referee does."""

from __future__ import annotations

import shutil
from pathlib import Path

from forging import as_user
from test_signing_attacks import mailed_game


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


def test_the_first_mail_of_a_mailed_game_from_a_referee_without_its_ledger_says_why():
    """The new machine has no ledger of the game: its first mail to each player repeats the
    game from its start and says why in one line; a game never played by mail, or a side
    mailed before, gets no such line."""
    from referee.mail.movedhost import MOVED, moved_note

    mailed = [{"seq": 0}, {"seq": 1, "mail": {"digest": "d", "to": "moderator"}}]
    assert moved_note(mailed, {"sent": {}}, "german") == MOVED
    assert moved_note(mailed, {"sent": {"german": [1, "h"]}}, "german") is None
    assert moved_note([{"seq": 0}, {"seq": 1}], {"sent": {}}, "german") is None


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
