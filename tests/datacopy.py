"""Copies of the built-in game data changed for one test, and games made on them."""

from __future__ import annotations

import shutil
from pathlib import Path

import yaml

import gamecalls as g
from casebook import SECRET, yaml_text
from referee.data.paths import default_games_dir


def copy_game(tmp: Path, change=None, files: tuple[str, ...] = (), game: str = "ttlm",
              folder: str = "games") -> Path:
    """games/<game> copied under tmp/<folder>/<game>, with change(document_by_file) applied to
    the YAML files named; returns the games folder (as `--games DIR` takes it)."""
    root = tmp / folder if folder else tmp
    shutil.copytree(default_games_dir() / game, root / game)
    docs = {name: yaml.load((root / game / name).read_text(encoding="utf-8"),
                               Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
            for name in files}
    if change is not None:
        change(docs)
    for name, doc in docs.items():
        (root / game / name).write_text(yaml_text(doc, allow_unicode=True, sort_keys=False),
                                        encoding="utf-8")
    return root


def edit(path: Path, old: str, new: str) -> None:
    """Replace the first `old` in a data file by `new`; the text must be there."""
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def spot(path: Path, text: str, *after: str, within: str = "") -> str:
    """'LINE:COLUMN' (both from 1) of the first `text` in a data file after the texts `after`
    (each found after the one before), or of `text` in the first `within` there: where a
    problem line must point, found by plain search in the file's text."""
    whole = path.read_text(encoding="utf-8")
    start = 0
    for before in after:
        assert before in whole[start:], before
        start = whole.index(before, start) + len(before)
    around = within or text
    assert around in whole[start:] and text in around, (around, text)
    at = whole.index(around, start) + around.index(text)
    return f"{whole.count(chr(10), 0, at) + 1}:{at - (whole.rfind(chr(10), 0, at) + 1) + 1}"


def new_game(tmp: Path, games: Path | None, sc: dict, options=(), name: str = "case") -> Path:
    """A manual-dice game of scenario sc (a rulebook case position) on the data in games."""
    spath = tmp / f"{name}.yaml"
    spath.write_text(yaml_text(sc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    secret = tmp / f"{name}.fixed-secret"
    secret.write_text(SECRET + "\n")
    secret.chmod(0o600)
    journal = tmp / f"{name}.jsonl"
    g.create_game(journal, str(spath), "manual", list(options), game_id=name,
                  secret_file=secret, games_dir=games)
    return journal
