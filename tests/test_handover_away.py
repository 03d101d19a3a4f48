"""A handed-over game whose journal left the folder and whose index entry is lost: the home's
signed mark still tells its mail (handedhere.marked_away), left for the new machine, counted
in a line of its own and not told as mail no game claims; a forged or damaged mark is none."""

from __future__ import annotations

import shutil

from referee.store import home


def _away(cli, tmp_path, monkeypatch):
    """alpha and bravo reading one Maildir; alpha handed over, its journal moved away, the
    folder's index deleted; the Entente's orders for alpha and a stranger's mail arrive."""
    from test_handover import _shared_box
    from test_tick_unplayable import _entente, _put, _stranger

    made = _shared_box(cli, tmp_path, monkeypatch)
    journal = made["alpha"][0]
    moved = tmp_path / "moved"
    moved.mkdir()
    for f in (journal, journal.with_name(journal.name + ".secret")):
        shutil.move(f, moved / f.name)
    shutil.rmtree(home.data_dir("index"), ignore_errors=True)
    _put(tmp_path / "box", "2.eml", _entente(made))
    _put(tmp_path / "box", "3.eml", _stranger())
    return made, (tmp_path / "box" / "new" / "2.eml").read_bytes()


def test_a_moved_away_games_mail_is_left_for_the_new_machine_by_its_mark(
        cli, tmp_path, monkeypatch):
    from test_tick_unplayable import _tick
    from ticklines import unstamped

    _, raw = _away(cli, tmp_path, monkeypatch)
    for strangers in (1, 0):
        r = _tick(cli, tmp_path)
        assert r.exit_code == 0, r.output
        lines = unstamped(r.stdout)
        assert [line for line in lines if line.startswith("handed   ")] == [
            "handed   game alpha was handed over to another machine at record 4 (`referee "
            "handover`): passed over, 1 message for it left for that machine"], r.stdout
        assert "2.eml" not in r.stdout and "applied" not in r.stdout, r.stdout
        assert ("1 new message no game claims" in r.stdout) == bool(strangers), r.stdout
        assert lines[-1] == "1 game: all handled", r.stdout
    assert (tmp_path / "box" / "new" / "2.eml").read_bytes() == raw


def test_a_damaged_mark_in_the_home_is_no_mark(cli, tmp_path, monkeypatch, referee_home):
    from test_tick_unplayable import _tick

    _away(cli, tmp_path, monkeypatch)
    for mark in (referee_home / "handed").glob("*.handed"):
        body = mark.read_bytes()
        mark.write_bytes(body.replace(b'"seq":', b'"seq": ', 1))
    r = _tick(cli, tmp_path)
    assert "handed   " not in r.stdout, r.stdout
    assert "2 new messages no game claims" in r.stdout, r.stdout


def test_each_handed_line_is_made_once_a_pass(cli, tmp_path, monkeypatch):
    """A game's standing line is formatted once per pass, the one away from the folder too."""
    from test_tick_unplayable import _tick

    from referee.mail.handedhere import Handed

    _away(cli, tmp_path, monkeypatch)
    made, line = [], Handed.line

    def counted(self):
        made.append(id(self))
        return line.fget(self)

    monkeypatch.setattr(Handed, "line", property(counted))
    r = _tick(cli, tmp_path)
    assert "handed   game alpha was handed over" in r.stdout, r.stdout
    assert made and len(made) == len(set(made)), made
