"""An SMTP server several games of a folder send through that a pass cannot reach (its
connection refused) is one problem of the pass, not one per game: one line naming the
server, why, the games whose mails stay owed and what to check; counted once, as a mailbox
that cannot be read is (test_tick_mailbox_down.py), listed once in `tick --format json`
(`servers`), and logged by `watch` once while it stands. Games on another server that is
down have their own line. Time comes from REFEREE_NOW."""

from __future__ import annotations

import itertools
import json

from mailboxes import write_maildir
from mailservers import HOST, free_port, mail_settings
from test_tick_index import START
from test_transport import new_game
from test_unattended import at
from ticklines import problems, unstamped

from referee.base.clock import NOW_VARIABLE
from referee.mail import tick as ticking


def _folder(cli, tmp_path, monkeypatch, routes: dict[str, int]) -> None:
    """Games of these ids, each reading a Maildir of its own and sending its opening
    reports through the SMTP port given, nothing listening on it."""
    monkeypatch.setenv(NOW_VARIABLE, at(START))
    for name, port in routes.items():
        box = write_maildir(tmp_path / f"box-{name}", [])
        new_game(cli, tmp_path / "games", name, None, "--mail-in", str(box), "--mail-out",
                 f"smtp://me@{HOST}:{port}")


def test_one_smtp_server_down_is_one_problem_naming_its_games(cli, tmp_path, monkeypatch):
    """Three games on one refused server, one on another: two problems, each naming its
    server and games, no game's own line of it; JSON lists each once in `servers`."""
    one, two = free_port(), free_port()
    mail_settings(f'[hosts."{HOST}"]\nports = [{one}, {two}]\n')
    _folder(cli, tmp_path, monkeypatch, {"a": one, "b": one, "c": one, "d": two})
    r = cli("tick", tmp_path / "games", "--no-map")
    assert r.exit_code == 3, r.output
    assert r.stderr == "referee: 2 problems in 4 games (see above)\n", r.output
    found = problems(r)
    for port, whose in ((one, "games a, b, c"), (two, "game d")):
        [line] = [p for p in found if f":{port}:" in p]
        assert line.startswith(f"smtp {HOST}:{port}: connection refused; every mail of "
                               f"{whose} stays owed: see that the server is up"), line
    assert sum("connection refused" in x for x in unstamped(r.stdout)) == 2, r.stdout
    r = cli("tick", tmp_path / "games", "--no-map", "--format", "json")
    assert r.exit_code == 3
    doc = json.loads(r.stdout)
    assert [(s["server"], s["games"], s["why"]) for s in doc["servers"]] == [
        (f"smtp {HOST}:{one}", ["a", "b", "c"], "connection refused"),
        (f"smtp {HOST}:{two}", ["d"], "connection refused")]
    assert doc["problems"] == [s["problem"] for s in doc["servers"]]
    for game in doc["games"]:           # each game still counts it among its own
        [said] = [s["problem"] for s in doc["servers"] if game["game_id"] in s["games"]]
        assert game["problems"] == [said] and game["kind"] == "transport", game


def test_watch_names_an_smtp_server_down_once_while_it_stands(cli, tmp_path, monkeypatch):
    """Three passes of `watch` with the server of two games down: its line logged once."""
    port = free_port()
    mail_settings(f'[hosts."{HOST}"]\nports = [{port}]\n')
    _folder(cli, tmp_path, monkeypatch, {"a": port, "b": port})
    logged: list[str] = []
    waits = itertools.count()
    passes = ticking.watch(tmp_path / "games", 0, log=logged.append, with_map=False,
                           wait=lambda _: next(waits) >= 2)
    told = [x for x in unstamped(logged) if "connection refused" in x]
    assert passes == 3 and told == [
        x for x in told if x.startswith(f"problem  smtp {HOST}:{port}: connection refused; "
                                        f"every mail of games a, b stays owed: ")], logged
    assert len(told) == 1, logged
