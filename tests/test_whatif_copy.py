"""A what-if played on a copy of a game, and the game it left behind (store/writtenat.py).

The mark of what this referee wrote last follows the game, not the file (store/written.py),
so a copy written takes it over and the game's own journal is cut back from then on. The
mark notes the path each write went through: the cut-back refusal says where the marked
record was written. Each docstring says the case and what the referee
does."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from referee.store import home, written


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


def _quiet(r) -> None:
    assert r.exit_code == 0, r.output
    assert "referee: warning:" not in r.stderr, r.stderr


def test_the_game_refused_after_a_write_to_a_copy_names_the_copy(cli, here):
    """The tester's case: the moderator copies the game to whatif/ and gives orders there.
    His next command on the real game is refused as cut back naming whatif/north14.jsonl,
    when it was written there, and the mark to remove; tick says the same; removing the
    mark takes the game back."""
    game = _new(cli, here / "games" / "north14.jsonl")
    copy = _copy(game, here / "whatif")
    assert cli("order", copy, "--as", "german", "end turn").exit_code == 0
    mark = written.mark_path("north14")
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
    assert r.exit_code == 0, r.output
    out = tmp_path / "out"
    r = inbox(cli, journal, eml(tmp_path / "in", mail()), outbox=out)
    assert r.exit_code == 3 and f"was written to {copy.resolve()} at " in r.stderr, r.output
    mark = str(home.read_signed(written.mark_path("mailtest")) and
               written.mark_path("mailtest"))
    for m in mails(out):
        text = m.as_string()
        assert "whatif" not in text and mark not in text and str(tmp_path) not in text, text
