"""A what-if played on a copy of a game: the write is done, but said (store/writtenat.py).

The mark of what this referee wrote last follows the game, not the file (store/written.py),
so a copy written takes it over and the game's own journal is cut back from then on. The
mark notes the path each write went through: a write through another path, while the file
there is still a journal of the game, warns in one line (exit 0), and the cut-back refusal
says where the marked record was written. Each docstring says the case and what the referee
does."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from referee.store import home, written

WARNING = "referee: warning: this write makes this journal game north14: "


@pytest.fixture
def here(tmp_path, monkeypatch) -> Path:
    """The moderator's folder, where he runs the referee: games/ and whatif/ under it."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "games").mkdir()
    (tmp_path / "whatif").mkdir()
    return tmp_path


def _new(cli, path: Path) -> Path:
    r = cli("new", path, "--scenario", "1914", "--game-id", "north14")
    assert r.exit_code == 0, r.output
    assert cli("order", path, "--as", "german", "pass").exit_code == 0
    return path


def _copy(journal: Path, folder: Path) -> Path:
    """`cp games/north14.jsonl* whatif/`: the journal and its dice secret."""
    for f in journal.parent.glob(f"{journal.name}*"):
        shutil.copy2(f, folder / f.name)
    return folder / journal.name


def _move(journal: Path, folder: Path) -> Path:
    for f in journal.parent.glob(f"{journal.name}*"):
        f.rename(folder / f.name)
    return folder / journal.name


def _mark() -> dict:
    mark = home.read_signed(written.mark_path("north14"))
    assert mark is not None
    return mark


def _warned(r) -> str:
    """The one warning line of a write that was done."""
    assert r.exit_code == 0, r.output
    lines = [ln for ln in r.stderr.splitlines() if ln.startswith("referee: warning:")]
    assert len(lines) == 1 and lines[0].startswith(WARNING), r.stderr
    return lines[0]


def _quiet(r) -> None:
    assert r.exit_code == 0, r.output
    assert "referee: warning:" not in r.stderr, r.stderr


def test_a_write_to_a_copy_warns_and_the_game_refused_names_the_copy(cli, here):
    """The tester's case: the moderator copies the game to whatif/ and gives orders there.
    The write is done (exit 0), with one line naming games/north14.jsonl as an older copy
    from now and how to go back; his next command on the real game is refused as cut back
    naming whatif/north14.jsonl, when it was written there, and the mark to remove; tick
    says the same; removing the mark takes the game back."""
    game = _new(cli, here / "games" / "north14.jsonl")
    seq = _mark()["seq"]
    copy = _copy(game, here / "whatif")
    line = _warned(cli("order", copy, "--as", "german", "end turn"))
    mark = written.mark_path("north14")
    assert f"games/north14.jsonl, where this referee wrote it last (record {seq} at " in line
    assert "is from now an older copy it will refuse" in line
    assert "`referee order --dry-run` on games/north14.jsonl" in line
    assert f"to go back to games/north14.jsonl, remove {mark}" in line
    assert "move this copy away" in line
    assert _mark()["path"] == str(copy.resolve()) and isinstance(_mark()["at"], str)
    _quiet(cli("order", copy, "--as", "entente", "pass"))      # the mark names the copy now
    top = _mark()
    for args in (("order", game, "--as", "german", "end turn"), ("tick", game)):
        r = cli(*args)
        assert r.exit_code == 3, r.output
        said = [ln for ln in r.output.splitlines() if "cut back" in ln]
        assert len(said) == 1, r.output
        assert f"cut back: this referee wrote record {top['seq']} (" in said[0]
        assert f"record {top['seq']} was written to whatif/north14.jsonl at {top['at']}" \
            in said[0] and f"remove {mark}" in said[0], said[0]
    mark.unlink()                                                   # back to the game
    _quiet(cli("order", game, "--as", "german", "end turn"))
    assert _mark()["path"] == str(game.resolve())


def test_a_game_moved_on_purpose_is_not_warned_of(cli, here):
    """A game moved to another folder (nothing left at its old path), or whose old path
    holds another game now (another record 0, the same id), is written with no warning."""
    game = _new(cli, here / "games" / "north14.jsonl")
    moved = _move(game, here / "whatif")
    _quiet(cli("order", moved, "--as", "german", "end turn"))
    assert _mark()["path"] == str(moved.resolve())
    (here / "other").mkdir()
    again = _move(moved, here / "other")
    mark = written.mark_path("north14")
    kept = mark.read_bytes()
    r = cli("new", moved, "--scenario", "1914", "--game-id", "north14")
    assert r.exit_code == 0, r.output                   # another game of that id at the path
    assert moved.read_bytes().split(b"\n")[0] != again.read_bytes().split(b"\n")[0]
    mark.write_bytes(kept)              # the mark of the game moved, as before that `new`
    assert _mark()["path"] == str(moved.resolve())
    _quiet(cli("order", again, "--as", "entente", "pass"))


def test_a_mark_written_before_marks_kept_the_path_still_works(cli, here):
    """A mark of an earlier version, without the path: a write to a copy gives no warning
    (nothing says where the game was), the real game is refused in the words of before,
    and the write completes the mark with the copy's path."""
    game = _new(cli, here / "games" / "north14.jsonl")
    old = {k: v for k, v in _mark().items() if k not in ("path", "at")}
    assert home.write_signed(written.mark_path("north14"), old)
    copy = _copy(game, here / "whatif")
    _quiet(cli("order", copy, "--as", "german", "end turn"))
    assert _mark()["path"] == str(copy.resolve())
    old = {k: v for k, v in _mark().items() if k not in ("path", "at")}
    assert home.write_signed(written.mark_path("north14"), old)
    r = cli("order", game, "--as", "german", "end turn")
    assert r.exit_code == 3 and "cut back: this referee wrote record" in r.stderr, r.output
    assert "was written to" not in r.stderr and "if you restored it on purpose" in r.stderr


@pytest.mark.parametrize("where", ["file", "folder"])
def test_a_link_planted_at_the_marked_path_is_not_followed(cli, here, where):
    """Someone who can write the folder puts a link at the marked path (the file, or a
    folder on its way) to a journal of the same game elsewhere: the referee reads nothing
    through it, so the write to the copy is done with no warning, and the refusal of the
    game says only what the mark holds, whatever the folder holds since."""
    game = _new(cli, here / "games" / "north14.jsonl")
    elsewhere = here / "elsewhere"
    elsewhere.mkdir()
    _copy(game, elsewhere)
    copy = _copy(game, here / "whatif")
    if where == "file":
        game.unlink()
        game.symlink_to(elsewhere / "north14.jsonl")
    else:
        (here / "games").rename(here / "games.real")
        (here / "games").symlink_to(elsewhere)
    _quiet(cli("order", copy, "--as", "german", "end turn"))
    copy.unlink()                           # the folder's writer hides the copy: the mark says
    r = cli("order", elsewhere / "north14.jsonl", "--as", "german", "end turn")
    assert r.exit_code == 3, r.output
    assert f"record {_mark()['seq']} was written to whatif/north14.jsonl at " in r.stderr


def test_a_link_at_the_marked_path_to_a_fifo_does_not_hang(cli, here):
    """A FIFO at the marked path is no journal: never waited on."""
    game = _new(cli, here / "games" / "north14.jsonl")
    copy = _copy(game, here / "whatif")
    game.unlink()
    os.mkfifo(game)
    _quiet(cli("order", copy, "--as", "german", "end turn"))


def test_a_link_to_the_game_is_the_game(cli, here):
    """The moderator's own link to the game's journal is the same file: its path resolved is
    the marked one, and a hard link is the same file too: no warning either way."""
    game = _new(cli, here / "games" / "north14.jsonl")
    link = here / "current.jsonl"
    link.symlink_to(game)
    _quiet(cli("order", link, "--as", "german", "end turn"))
    hard = here / "whatif" / "north14.jsonl"
    os.link(game, hard)
    _quiet(cli("order", hard, "--as", "entente", "pass"))


def test_a_players_mail_to_the_game_left_behind_carries_no_path_of_the_moderators(
        cli, tmp_path):
    """The German mails his orders to the game the moderator's what-if left behind: the
    moderator is told where the marked record was written (his own path, from his own
    mark); nothing mailed to a player names it, nor the mark."""
    from test_hostile_mail import eml, inbox, mail, mails, new_game

    journal = new_game(cli, tmp_path / "game")
    (tmp_path / "whatif").mkdir()
    copy = _copy(journal, tmp_path / "whatif")
    r = cli("order", copy, "--as", "german", "play offensive")
    assert r.exit_code == 0 and "referee: warning:" in r.stderr, r.output
    out = tmp_path / "out"
    r = inbox(cli, journal, eml(tmp_path / "in", mail()), outbox=out)
    assert r.exit_code == 3 and f"was written to {copy.resolve()} at " in r.stderr, r.output
    mark = str(home.read_signed(written.mark_path("mailtest")) and
               written.mark_path("mailtest"))
    for m in mails(out):
        text = m.as_string()
        assert "whatif" not in text and mark not in text and str(tmp_path) not in text, text


def test_a_repair_of_a_copy_is_not_warned_of(cli, here):
    """A repair cuts a torn copy back to the record the mark names, which the game's journal
    holds too: nothing is left behind, so no warning; the game plays on, and its write
    says that the copy, which the mark named, is an older copy from now."""
    game = _new(cli, here / "games" / "north14.jsonl")
    copy = _copy(game, here / "whatif")
    with open(copy, "ab") as fh:
        fh.write(b'{"torn')
    _quiet(cli("repair", copy))
    assert _mark()["path"] == str(copy.resolve())
    line = _warned(cli("order", game, "--as", "german", "end turn"))
    assert "north14: whatif/north14.jsonl, where this referee wrote it last" in line
