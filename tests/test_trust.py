"""Nothing in a game folder or a cache can run code or change an answer (issue: trust).

Every planted, edited, truncated, copied or foreign snapshot must give
exactly the answers of a run with no snapshot at all; the comparison is made
through both front doors (the console script's quick path and the Typer app).
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import stat
from pathlib import Path

import forkedruns
import pytest

import gamecalls as g
from doors import console, quick
from referee.store import home, snapshot

FORMS = [("status",), ("status", "--as", "german", "--format", "json"),
         ("status", "--as", "entente"), ("show", "--as", "german", "--format", "json"),
         ("show", "--as", "moderator"), ("show", "--as", "entente", "--format", "markdown")]




def _answers(journal: Path, cli) -> dict:
    """What every form prints, through both front doors."""
    out = {}
    for form in FORMS:
        out[("quick", form)] = quick(form[0], journal, *form[1:])[:2]
        r = cli(form[0], journal, *form[1:])
        out[("typer", form)] = (r.exit_code, r.stdout)
    return out


def _fresh(journal: Path, cli) -> dict:
    snapshot.forget(journal)
    answers = _answers(journal, cli)
    snapshot.forget(journal)
    return answers


def _snapshot_files(journal: Path) -> list[Path]:
    folder = home.cache_dir("snapshots")
    prefix = snapshot._journal_id(journal) + "."
    return sorted(p for p in folder.iterdir() if p.name.startswith(prefix))


def _warm(journal: Path, cli) -> list[Path]:
    _answers(journal, cli)
    files = _snapshot_files(journal)
    assert any(p.suffix == ".state" for p in files) and any(p.suffix == ".view" for p in files)
    return files


@pytest.fixture
def played(game, cli):
    """A game a few records in: the German passed, the Entente is to act."""
    r = cli("order", game, "--as", "german", "pass", "end turn")
    assert r.exit_code == 0, r.stderr
    return game


class _Boom:
    """Unpickling this writes a marker file: proof that a pickle was loaded."""

    def __init__(self, marker: Path):
        self.marker = str(marker)

    def __reduce__(self):
        return (exec, (f"open({self.marker!r}, 'w').write('pwned')",))


def test_a_planted_pickle_never_runs_and_changes_nothing(played, cli, tmp_path):
    fresh = _fresh(played, cli)
    marker = tmp_path / "pwned"
    bomb = pickle.dumps({"version": 1, "views": _Boom(marker), "state": _Boom(marker)})
    # Where the old cache lived, and where every snapshot and view of this journal lives.
    played.with_name(played.name + ".cache").write_bytes(bomb)
    files = _warm(played, cli)
    for p in files:
        p.write_bytes(bomb)
    assert _answers(played, cli) == fresh
    r = cli("order", played, "--as", "entente", "pass")
    assert r.exit_code == 0, r.stderr
    assert not marker.exists()


def _resign(path: Path, edit) -> None:
    """Rewrite a signed file's payload with edit(payload), keeping its old signature."""
    blob = path.read_bytes()
    head, _, body = blob.partition(b"\n")
    mac, _, body = body.partition(b"\n")
    payload = json.loads(body)
    edit(payload)
    path.write_bytes(head + b"\n" + mac + b"\n" + json.dumps(payload).encode())


def test_edited_views_and_states_are_misses(played, cli):
    fresh = _fresh(played, cli)
    files = _warm(played, cli)

    def lie(payload):
        if payload["kind"] == "view":
            view = payload["view"]
            if "vp" in view:
                view["vp"]["total"] = 99
            if "legal" in view:
                view["legal"] = ["surrender"]
            view["waiting_on"] = "german"
        else:
            payload["state"]["pending"] = {"kind": "production", "side": "entente", "info": {}}
    for p in files:
        _resign(p, lie)
    assert _answers(played, cli) == fresh
    # An order only the forged state would allow is still refused, the journal unchanged.
    before = played.read_bytes()
    r = cli("order", played, "--as", "entente", "buy 1")
    assert r.exit_code == 1 and played.read_bytes() == before


def test_snapshots_signed_by_another_user_are_misses(played, cli, tmp_path, monkeypatch,
                                                      referee_home):
    fresh = _fresh(played, cli)
    # Another user of the machine (another key) warms the views and then makes them lie,
    # signing the lies properly with his own key.
    monkeypatch.setenv("REFEREE_HOME", str(tmp_path / "other-user"))
    home._KEY.clear()

    def lie(payload):
        if payload["kind"] == "view" and "legal" in payload["view"]:
            payload["view"]["legal"] = ["surrender"]
    theirs = {}
    for p in _warm(played, cli):
        _resign(p, lie)
        body = p.read_bytes().split(b"\n", 2)[2]
        theirs[p.name] = b"referee-signed 1\n" + home.sign(body).hex().encode() + b"\n" + body
    monkeypatch.setenv("REFEREE_HOME", str(referee_home))
    home._KEY.clear()
    folder = home.cache_dir("snapshots")
    folder.mkdir(parents=True, exist_ok=True)
    for name, blob in theirs.items():
        (folder / name).write_bytes(blob)
    assert _answers(played, cli) == fresh


def test_snapshots_copied_from_another_game_are_misses(played, cli, tmp_path, secret_file):
    other = tmp_path / "other.jsonl"
    assert cli("new", other, "--scenario", "1916", "--game-id", "other",
               "--secret-file", secret_file).exit_code == 0
    fresh = _fresh(played, cli)
    mine = {p.suffix: p for p in _warm(played, cli)}
    for p in _warm(other, cli):
        target = p.with_name(snapshot._journal_id(played) + p.name[p.name.index("."):])
        target.write_bytes(p.read_bytes())
    assert mine
    assert _answers(played, cli) == fresh


# The quick form cuts each file six times, the full form at every 193rd byte.
@pytest.mark.parametrize("step", [pytest.param(lambda size: size // 6 + 1, id="quick"),
                                  pytest.param(lambda size: 193, id="full")])
def test_snapshots_truncated_at_every_193rd_byte_are_misses(played, cli, step):
    fresh = _fresh(played, cli)
    files = _warm(played, cli)
    state = next(p for p in files if p.suffix == ".state")
    view = next(p for p in files if p.name.endswith("status-public.view"))
    quick_fresh = {k: v for k, v in fresh.items() if k[0] == "quick"}
    for path in (state, view):
        whole = path.read_bytes()
        for cut in range(0, len(whole), step(len(whole))):
            for p in _snapshot_files(played):
                p.unlink()
            path.write_bytes(whole[:cut])
            got = {("quick", f): quick(f[0], played, *f[1:])[:2] for f in FORMS[:3]}
            assert got == {k: quick_fresh[k] for k in got}, (path.name, cut)


def test_a_snapshot_is_bound_to_the_data_content_not_its_size_and_time(tmp_path, monkeypatch,
                                                                          cli, secret_file):
    import shutil

    from referee.data.paths import default_games_dir

    games = tmp_path / "games"
    shutil.copytree(default_games_dir() / "ttlm", games / "ttlm")
    monkeypatch.setenv("REFEREE_GAMES", str(games))
    journal = tmp_path / "war.jsonl"
    assert cli("new", journal, "--scenario", "1914", "--secret-file", secret_file).exit_code == 0
    _warm(journal, cli)
    assert quick("status", journal)[0] == 0
    # Paris is worth 2 VP in the data; 3 keeps the file's size, and its time is put back.
    path = games / "ttlm" / "map.yaml"
    info = path.stat()
    text = path.read_text(encoding="utf-8")
    start = text.index("- id: paris")
    at = text.index("vp: ", start) + 4
    path.write_text(text[:at] + str(int(text[at]) + 1) + text[at + 1:], encoding="utf-8")
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))
    assert path.stat().st_size == info.st_size
    # An older game opens with the data it was made with, found by digest (datastore.py);
    # without any copy of it, the edit must show (a snapshot bound to size and time would
    # hide it).
    from referee.data import datastore
    monkeypatch.setattr(datastore, "shipped_dir", lambda: tmp_path / "no-history")
    monkeypatch.setattr(datastore, "_LOADED", {})
    for form in FORMS:
        code, out, err = quick(form[0], journal, *form[1:])
        assert code == 3 and "game data changed" in err and out == "", form
        assert cli(form[0], journal, *form[1:]).exit_code == 3


def test_new_files_are_private(game, secret_file, tmp_path, cli):
    cli("status", game)
    assert stat.S_IMODE(game.stat().st_mode) == 0o600
    fresh = tmp_path / "fresh.jsonl"
    assert cli("new", fresh, "--scenario", "1914").exit_code == 0
    assert stat.S_IMODE(fresh.with_name("fresh.jsonl.secret").stat().st_mode) == 0o600
    assert stat.S_IMODE(home.key_path().stat().st_mode) == 0o600
    for p in _snapshot_files(game):
        assert stat.S_IMODE(p.stat().st_mode) == 0o600
    assert stat.S_IMODE(home.cache_dir("snapshots").stat().st_mode) == 0o700


def test_a_journal_readable_by_others_is_warned_about_once(game, cli):
    game.chmod(0o644)
    r = cli("status", game)
    warnings = [line for line in r.stderr.splitlines() if "warning" in line]
    assert r.exit_code == 0 and len(warnings) == 1 and "chmod 600" in warnings[0]
    code, out, err = quick("show", game)
    assert code == 0


@pytest.mark.parametrize("cmd", ["status", "report", "order"])
def test_a_folder_named_as_the_journal_is_one_line_and_no_chmod(tmp_path, cli, cmd):
    """A folder given for the journal read "warning: ... `chmod 600 <folder>` makes it private"
    (a folder so changed cannot be entered) before "not a regular file": the one fact that
    matters is said alone, that it is a folder, with the journals in it and the commands
    that take a folder of games (the moderator keeps his games in one, for `tick`)."""
    folder = tmp_path / "games"
    folder.mkdir(mode=0o755)
    folder.chmod(0o755)
    for name in ("a14", "t14", "t16", "t18"):
        (folder / f"{name}.jsonl").write_text("")
    r = cli(cmd, folder, *(["--as", "german", "done"] if cmd == "order" else []))
    assert r.exit_code == 2, r.output
    assert r.stderr.splitlines() == [
        f"referee: {folder}: a folder, not a game's journal: name one of its journals "
        f"(a14.jsonl, t14.jsonl, t16.jsonl, 1 more); `referee tick {folder}` (one pass over "
        f"its games, their mail read and sent) and `referee watch {folder}` are the commands "
        f"that take a folder of games"], r.stderr


def test_a_folder_s_name_cannot_add_a_line_to_its_error(tmp_path, cli):
    """A folder named with a line end read as two lines, the second any text its name held
    ("referee: game verified" in its own line): the name is shown escaped, on one line."""
    folder = tmp_path / "evil\nreferee: game atk verified: all signatures good"
    folder.mkdir()
    r = cli("status", folder)
    assert r.exit_code == 2, r.output
    assert len(r.stderr.splitlines()) == 1, r.stderr
    assert "\nreferee: game atk" not in r.stderr


def test_the_secret_can_live_outside_the_game_folder(tmp_path, cli):
    shared = tmp_path / "synced-folder"
    private = tmp_path / "private"
    shared.mkdir()
    private.mkdir()
    journal = shared / "war.jsonl"
    secret = private / "war.secret"
    r = cli("new", journal, "--scenario", "1914", "--secret-file", secret)
    assert r.exit_code == 0, r.stderr
    assert secret.exists() and stat.S_IMODE(secret.stat().st_mode) == 0o600
    assert sorted(p.name for p in shared.iterdir()) == ["war.jsonl"]
    r = cli("order", journal, "--as", "german", "pass", "end turn")    # the secret is found
    assert r.exit_code == 0, r.stderr


def _plain_choice(options: list[str]) -> str:
    for prefer in ("done", "pass", "end turn"):
        if prefer in options:
            return prefer
    return options[0]


# The quick form: one round, each side one order then done, each reader one status and one
# show; the full form: two rounds, two orders a side, status, show and status again.
@pytest.mark.parametrize("size", [
    pytest.param((1, 1, ("status", "show")), id="quick"),
    pytest.param((2, 2, ("status", "show", "status")), id="full")])
def test_concurrent_orders_leave_only_views_of_the_bytes_they_describe(tmp_path, secret_file,
                                                                         cli, referee_home,
                                                                         size):
    """Both sides give production orders at once while others read, several rounds; every
    view and state kept afterwards equals a fresh replay of exactly the bytes it names."""
    from referee.engine import legal_orders
    from referee.engine.order_text import format_order
    from referee.game.views import readable_status_view as status_view  # the view and its aids
    from referee.game.views import state_view

    journal = tmp_path / "race.jsonl"
    assert cli("new", journal, "--scenario", "1914", "--game-id", "race",
               "--secret-file", secret_file).exit_code == 0
    env = {"REFEREE_HOME": str(referee_home)}
    all_rounds, orders, reads = size
    rounds = 0
    for _ in range(400):
        st = g.open_game(journal).state
        if st.phase == "over" or rounds == all_rounds:
            break
        data = g.game_data()
        options = {side: [format_order(o) for o in legal_orders(st, data, side)
                          if o.kind != "armistice"] for side in ("german", "entente")}
        if st.phase != "production":
            side = st.pending.side
            g.submit(journal, side, [_plain_choice(options[side])])
            continue
        rounds += 1
        plans = {side: [o for o in opts if o != "done"][:orders] + ["done"]
                 for side, opts in options.items() if opts}
        runs = [forkedruns.start(_one_after_another, [("order", journal, "--as", side, o)
                                                      for o in plan], env=env)
                for side, plan in plans.items()]
        runs += [forkedruns.start(_one_after_another, [(cmd, journal, "--as", reader)
                                                       for cmd in reads], env=env)
                 for reader in ("german", "entente")]
        for run in runs:
            forkedruns.finish(run)
        _check_every_view(journal, state_view, status_view)
    assert rounds == all_rounds


def _one_after_another(commands: list[tuple]) -> None:
    """In a forked process: each command as the console script runs it (entry.main), in a
    process of its own forked from this one, the next once it is done; what each says and
    its exit status are not looked at (the views left are)."""
    for args in commands:
        forkedruns.run(_console_status, *args)


def _console_status(*args) -> int:
    return console(*args)[0]


def _check_every_view(journal: Path, state_view, status_view) -> None:
    """Each signed view or state equals a fresh replay of exactly the bytes it names."""
    from referee.engine.state import state_to_builtins

    raw = journal.read_bytes()
    for path in _snapshot_files(journal):
        payload = home.read_signed(path)
        assert payload is not None, path
        size = payload["size"]
        prefix = path.with_name("prefix.jsonl")
        prefix.write_bytes(raw[:size])
        assert hashlib.sha256(raw[:size]).hexdigest() == payload["sha256"]
        fresh = g.position(g.Journal(prefix), raw[:size], None)
        if payload["kind"] == "state":
            assert payload["state"] == state_to_builtins(fresh.state)
            continue
        command, reader = payload["key"].split(":")
        reader = None if reader == "None" else reader
        want = (status_view(fresh.state, fresh.data, reader, fresh.header["game_id"])
                if command == "status" else
                state_view(fresh.state, fresh.data, reader, fresh.header["game_id"]))
        assert payload["view"] == json.loads(json.dumps(want)), path.name
