"""Shared fixtures: the built-in game data, fixed secrets, and a CLI runner."""

from __future__ import annotations

import copy
import gc
import itertools
import os
from pathlib import Path

import pytest
import typer.main
import typer.testing
from commandclock import clock  # noqa: F401 - a fixture for every test module
from typer.testing import CliRunner
from unprivileged import unprivileged  # noqa: F401 - a fixture for every test module

from gamecalls import game_data
from referee.cli.app import app
from referee.data import dataload, yamltext

FIXED_SECRET = "5e" * 32
# The real mail servers of the transport tests (their `servers` fixture); the soaks' mark.
pytest_plugins = ["mailservers", "soaks"]

_BUILT: dict = {}
_GET_COMMAND = typer.main.get_command


def _built_once(typer_app):
    """Typer builds the whole Click command tree from the application at every run (its test
    runner at every invoke), which costs several times what running a command does. A user's
    process runs one command; the tests run thousands in one process, and the tree is the same
    each time, so each test process builds it once."""
    cmd = _BUILT.get(typer_app)
    if cmd is None:
        cmd = _BUILT[typer_app] = _GET_COMMAND(typer_app)
    return cmd


typer.main.get_command = typer.testing._get_command = _built_once

_LOAD_TEXT, _YAML = dataload.load_text, yamltext.yaml
_PARSED: dict[str, object] = {}
PARSED_KEPT = 64                # texts of game data a test process keeps the value of


def _parsed_once(text: str):
    """A test process reads the YAML of each text of game data once: the tests check and
    load hundreds of copies of the built-in folders, each with one file changed, and a
    user's process reads a folder once. Every text is screened and parsed the first time
    (a text refused is refused every time, by the parser itself); a test that puts a
    library of its own in the parser's place (yamltext.yaml) has every text parsed by it.
    Each caller gets its own copy of the value."""
    if yamltext.yaml is not _YAML:
        return _LOAD_TEXT(text)
    if text in _PARSED:
        return copy.deepcopy(_PARSED[text])
    value = _LOAD_TEXT(text)
    if len(_PARSED) < PARSED_KEPT:
        _PARSED[text] = copy.deepcopy(value)
    return value


dataload.load_text = _parsed_once

# The referee forces every record, snapshot and mail to the disk (os.fsync) before it goes
# on: a power cut is what that guards against, and no test makes one. In the tests'
# processes it does nothing, which spares the suite the disk's waits (a tenth of a run on a
# slow disk); the order of the writes and syncs is checked where it matters
# (test_durability.py), and the referee run as its own process (the killed runs) syncs.
os.fsync = lambda fd: None


RAM_FOLDERS = ("/dev/shm",)
RAM_ROOM = 2 << 30             # what a whole run may write there, with room to spare


def ram_folder(candidates=RAM_FOLDERS, room: int = RAM_ROOM) -> str | None:
    """A memory-backed folder this user may write, with `room` bytes free, or None."""
    for folder in candidates:
        try:
            st = os.statvfs(folder)
        except OSError:
            continue
        if st.f_bavail * st.f_frsize >= room and os.access(folder, os.W_OK | os.X_OK):
            return folder
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    """The tests' folders on a memory-backed file system, when the machine has one with room.

    The referee replaces each snapshot, view and mark by renaming a fresh file over it, and
    the tests make and remove some hundred thousand files. On a disk-backed file system
    those are slow where the file system itself waits: ext4 starts writing a file's data out
    when it is renamed over another (2 to 5 ms, against 0.1 ms in memory), and a disk
    mounted with `discard` trims at every removal. Neither is what a test checks; the order
    of writes and syncs is checked apart (test_durability.py). Left alone when the run
    names its own folder (--basetemp), in xdist's workers (they get one under the
    controller's), or when no memory-backed folder has room; removed at the end of a run
    that passed, kept (and named) otherwise."""
    if config.option.basetemp or hasattr(config, "workerinput"):
        return
    folder = ram_folder()
    if folder is not None:
        import tempfile

        forget_old_runs(folder)
        config.option.basetemp = tempfile.mkdtemp(prefix="referee-tests-", dir=folder)
        config._ram_basetemp = config.option.basetemp


KEPT_RUNS = 3                   # the folders of failed runs kept in memory, the newest
IDLE = 3600.0                   # seconds: a folder touched since may be a run going on


def forget_old_runs(folder: str, keep: int = KEPT_RUNS, idle: float = IDLE) -> None:
    """Remove this user's folders of failed runs but the newest `keep` (memory is not a
    disk); one touched in the last `idle` seconds, maybe a run going on beside, stays."""
    import shutil
    import time

    mine = []
    for entry in os.scandir(folder):
        try:
            st = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if entry.name.startswith("referee-tests-") and entry.is_dir(follow_symlinks=False) \
                and st.st_uid == os.getuid():
            mine.append((st.st_mtime, entry.path))
    for mtime, path in sorted(mine, reverse=True)[keep:]:
        if time.time() - mtime > idle:
            shutil.rmtree(path, ignore_errors=True)


def pytest_unconfigure(config):
    folder = getattr(config, "_ram_basetemp", None)
    if folder is None:
        return
    if getattr(config, "_ram_failed", True):
        print(f"\nthe tests' folders are kept in {folder}")
    else:
        import shutil

        shutil.rmtree(folder, ignore_errors=True)


def pytest_sessionfinish(session, exitstatus):
    session.config._ram_failed = exitstatus != 0


def pytest_collection_finish(session):
    """A test process holds the game data, the test modules and their parameters for the
    whole run, and the garbage collector's full passes walked them all again and again: they
    are frozen out of its reach once collected, and it runs less often (a tenth or so of the
    suite's time). What a user's process does with memory is measured apart, at the
    collector's own pace (memorypeak.py)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)


_HOMES = itertools.count()


@pytest.fixture(scope="session")
def _homes(tmp_path_factory) -> Path:
    """The folder of the test process's per-user folders, one a test: pytest numbers a
    folder it makes by listing every folder of the run's before it (thousands a process),
    so the homes are numbered here, in a folder of their own."""
    return tmp_path_factory.mktemp("referee-homes")


@pytest.fixture(autouse=True)
def referee_home(_homes, monkeypatch, request) -> Path:
    """Every test has its own per-user folder (key, snapshots): the real one is never used.

    Signing keeps the game keys it has read in memory for the process. A skirmish test
    starts with none: after one that made the fixed test key it would take a journal signed
    by it for its own (vouched), and what its report shows (the receipt's fingerprint,
    signature, Signed lines) would hang on the order the tests ran in. The campaign modules
    that make their games in a home of their own and read them from each test's home
    (test_report_golden, test_area, test_audit, test_grouped, test_map_phone) still read
    them by the key their fixture loaded."""
    home = _homes / f"referee-home{next(_HOMES)}"
    home.mkdir(mode=0o700)
    monkeypatch.setenv("REFEREE_HOME", str(home))
    from referee.store import home as homemod

    homemod._KEY.clear()
    if request.path.parent.name == "skirmish":
        from referee.store import signing

        signing._LOADED.clear()
    return home


@pytest.fixture(scope="session")
def data():
    """The built-in TO THE LAST MAN! data, loaded once."""
    return game_data()


@pytest.fixture
def secret_file(tmp_path: Path) -> Path:
    """A secret file with a fixed secret, for reproducible games."""
    p = tmp_path / "fixed.secret"
    p.write_text(FIXED_SECRET + "\n")
    return p


class Cli:
    """Runs the referee CLI in-process and keeps stdout and stderr apart."""

    def __init__(self):
        self.runner = CliRunner()

    def __call__(self, *args: str, input: str | None = None):
        argv = [str(a) for a in args]
        if argv[:1] == ["inbox"] and "--outbox" in argv and \
                not {"--map", "--no-map"} & set(argv):
            # The mails carry the map as PNG by default, a second or two to draw for each
            # player: a test not about the map leaves it out (test_map.py draws it).
            argv.append("--no-map")
        return self.runner.invoke(app, argv, input=input)


@pytest.fixture
def cli() -> Cli:
    """Invoke the CLI: cli('status', path, '--format', 'json')."""
    return Cli()


@pytest.fixture
def game(tmp_path: Path, cli: Cli, secret_file: Path) -> Path:
    """A new 1914 game with a fixed secret and game id; returns the journal path."""
    path = tmp_path / "g.jsonl"
    r = cli("new", path, "--scenario", "1914", "--game-id", "test-1914",
            "--secret-file", secret_file)
    assert r.exit_code == 0, r.stderr
    return path


@pytest.fixture
def patrol(tmp_path: Path, cli: Cli, secret_file: Path) -> Path:
    """A new skirmish (games/skirmish), the card's sample patrol, with the fixed secret and
    game id; returns the journal path."""
    path = tmp_path / "patrol.jsonl"
    r = cli("new", path, "--game", "skirmish", "--scenario", "patrol", "--game-id", "patrol",
            "--secret-file", secret_file)
    assert r.exit_code == 0, r.stderr
    return path
