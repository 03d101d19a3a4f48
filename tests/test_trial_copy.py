"""A copy of a game played on as a trial must not leave the game itself cut back. The mark
of what this referee wrote last follows the game (store/written.py), and keeps the path of
the journal it was written for (store/writtenat.py): a write to another file is refused while
that journal still holds the marked record. Each docstring says the case and what the
referee does."""

from __future__ import annotations

import shutil
from pathlib import Path

from referee.store import home, written


def _new(cli, path: Path, game_id: str = "trial") -> Path:
    r = cli("new", path, "--scenario", "1914", "--game-id", game_id)
    assert r.exit_code == 0, r.output
    assert cli("order", path, "--as", "german", "pass").exit_code == 0
    return path


def _copy(journal: Path, to: Path) -> Path:
    """The journal and its dice secret copied, as a moderator copies a game to try it out."""
    shutil.copy2(journal, to)
    shutil.copy2(f"{journal}.secret", f"{to}.secret")
    return to


def _move(journal: Path, to: Path) -> Path:
    journal.rename(to)
    Path(f"{journal}.secret").rename(f"{to}.secret")
    return to


def _mark(game_id: str) -> dict:
    mark = home.read_signed(written.mark_path(game_id))
    assert mark is not None
    return mark


def _as_an_old_mark(game_id: str) -> None:
    """The game's mark as a referee wrote it before marks kept the journal's path."""
    mark = _mark(game_id)
    mark.pop("path", None)
    assert home.write_signed(written.mark_path(game_id), mark)


def _refused_as_a_copy(r, real: Path) -> None:
    assert r.exit_code == 3, r.output
    line = r.stderr.strip()
    assert "\n" not in line and "a copy of game trial, whose journal this referee writes at " \
        f"{real.resolve()}" in line and "order --dry-run" in line and \
        "nothing was" in line and "Traceback" not in r.output, r.output


def test_autoplay_on_a_copy_is_refused_and_the_game_stays_playable(cli, tmp_path):
    """The moderator copies the game (and its secret) to see how it might end and autoplays
    the copy. The copy's records would move the mark there, and every command on the game
    itself, read-only ones too, would say "cut back" from then on. The game's journal still
    holds what the referee wrote last, so the write to the copy is refused, changing
    nothing, and the game goes on."""
    game = _new(cli, tmp_path / "g.jsonl")
    trial = _copy(game, tmp_path / "end.jsonl")
    before = trial.read_bytes()
    r = cli("autoplay", trial, "--seed", "11", "--until", "1")
    _refused_as_a_copy(r, game)
    assert trial.read_bytes() == before == game.read_bytes()
    for args in (("order", trial, "--as", "german", "end turn"), ("deadline", trial, "--set",
                 "48h"), ("extend", trial, "german", "24h"), ("rekey", trial)):
        _refused_as_a_copy(cli(*args), game)
    assert trial.read_bytes() == before
    assert cli("report", game).exit_code == 0
    r = cli("order", game, "--as", "german", "end turn")
    assert r.exit_code == 0, r.output
    assert _mark("trial").get("path") == str(game.resolve())


def test_repair_of_a_copy_is_refused_too(cli, tmp_path):
    """A repair cuts a torn copy and moves the mark to it just as a write does: refused while
    the game's journal holds the marked record."""
    game = _new(cli, tmp_path / "g.jsonl")
    trial = _copy(game, tmp_path / "end.jsonl")
    with open(trial, "ab") as fh:
        fh.write(b'{"torn')
    before = trial.read_bytes()
    r = cli("repair", trial)
    _refused_as_a_copy(r, game)
    assert trial.read_bytes() == before and not list(tmp_path.glob("end.jsonl.*.bak"))


def test_a_journal_moved_keeps_playing_and_the_mark_follows_it(cli, tmp_path):
    """A journal renamed (its old path gone) is written as ever, and the mark follows it: a
    copy of it made afterwards is refused in favour of its new path. A journal copied to a
    new path whose old path no longer holds the marked record (an older copy put there)
    is written too."""
    game = _new(cli, tmp_path / "g.jsonl")
    moved = _move(game, tmp_path / "games.jsonl")
    assert cli("order", moved, "--as", "german", "end turn").exit_code == 0
    assert _mark("trial").get("path") == str(moved.resolve())
    _refused_as_a_copy(cli("deadline", _copy(moved, game), "--set", "48h"), moved)
    older = game.read_bytes()                     # g.jsonl: a record behind the game now
    assert cli("deadline", moved, "--set", "48h").exit_code == 0
    _copy(moved, tmp_path / "elsewhere.jsonl")
    game.write_bytes(older)
    (tmp_path / "games.jsonl").unlink()
    r = cli("deadline", tmp_path / "elsewhere.jsonl", "--set", "72h")
    assert r.exit_code == 0, r.output


def test_an_older_copy_under_another_name_is_still_refused_and_names_the_game(cli, tmp_path):
    """The guard stays as strong: an older copy of the game put beside it, or in its place,
    under any name, is refused as cut back, whatever the path check says, and the refusal
    names the journal that holds what the referee wrote last."""
    game = _new(cli, tmp_path / "g.jsonl")
    older = game.read_bytes()
    assert cli("order", game, "--as", "german", "end turn").exit_code == 0
    newest = game.read_bytes()
    put = tmp_path / "restored.jsonl"
    put.write_bytes(older)
    shutil.copy2(f"{game}.secret", f"{put}.secret")
    r = cli("deadline", put, "--set", "48h")
    assert r.exit_code == 3 and "cut back: this referee wrote record" in r.stderr, r.output
    assert f"the copy {game.resolve()} holds record" in r.stderr, r.output
    game.unlink()                                 # the intruder takes the game away
    r = cli("order", put, "--as", "german", "pass")
    assert r.exit_code == 3 and "cut back: this referee wrote record" in r.stderr, r.output
    assert put.read_bytes() == older
    game.write_bytes(newest)
    assert cli("deadline", game, "--set", "48h").exit_code == 0
    assert cli("report", game).exit_code == 0


def test_an_old_mark_still_guards_and_the_copy_it_moved_to_is_named(cli, tmp_path):
    """A mark written before marks kept a path guards as ever: an older copy is refused. A
    copy played on with such a mark moves it, as before (nothing tells the copy from the
    game); the game then reads "cut back", naming the copy beside it that holds the record,
    so that the moderator who fell in gets out knowingly."""
    game = _new(cli, tmp_path / "g.jsonl")
    older = game.read_bytes()
    assert cli("order", game, "--as", "german", "end turn").exit_code == 0
    newest = game.read_bytes()
    _as_an_old_mark("trial")
    game.write_bytes(older)
    r = cli("deadline", game, "--set", "48h")
    assert r.exit_code == 3 and "cut back: this referee wrote record" in r.stderr, r.output
    assert "the copy" not in r.stderr and game.read_bytes() == older
    game.write_bytes(newest)
    trial = _copy(game, tmp_path / "end.jsonl")
    assert cli("deadline", trial, "--set", "48h").exit_code == 0
    _as_an_old_mark("trial")
    r = cli("report", game)
    assert r.exit_code == 3, r.output
    assert f"the copy {trial} beside it holds record" in r.stderr and \
        f"remove the mark {written.mark_path('trial')} and the copy" in r.stderr, r.output


def test_the_real_game_cut_back_by_a_trial_names_the_trial(cli, tmp_path):
    """The game played on at its path, then a copy of it written after the game moved away
    and came back (the mark followed the copy): the game reads cut back, and says which file
    holds the record and that the referee wrote it there."""
    game = _new(cli, tmp_path / "g.jsonl")
    trial = _copy(game, tmp_path / "end.jsonl")
    aside = _move(game, tmp_path / "aside")
    assert cli("deadline", trial, "--set", "48h").exit_code == 0
    _move(aside, game)
    for args in (("report", game), ("order", game, "--as", "german", "end turn")):
        r = cli(*args)
        assert r.exit_code == 3 and "\n" not in r.stderr.strip(), r.output
        assert f"the copy {trial.resolve()} holds record 3: this referee wrote it there" in \
            r.stderr and f"remove the mark {written.mark_path('trial')} and the copy" in \
            r.stderr, r.output


def test_two_games_in_one_folder_are_not_confused(cli, tmp_path):
    """Each game's mark keeps its own journal's path: two games side by side are each written
    as ever, a copy of one is refused in favour of that one alone, and another game that
    only reuses an id (its own record 0 and key) is no copy of it."""
    one = _new(cli, tmp_path / "one.jsonl", "trial")
    two = _new(cli, tmp_path / "two.jsonl", "other")
    for journal in (one, two, one):
        assert cli("deadline", journal, "--set", "48h").exit_code == 0, journal
    _refused_as_a_copy(cli("deadline", _copy(one, tmp_path / "try.jsonl"), "--set", "48h"),
                       one)
    assert cli("deadline", two, "--set", "72h").exit_code == 0
    assert _mark("other").get("path") == str(two.resolve())
    same_id = _new(cli, tmp_path / "again.jsonl", "trial")
    r = cli("deadline", same_id, "--set", "48h")
    assert r.exit_code == 0, r.output
