"""A mailbox several games of a folder read that a pass cannot read (its server refusing
the connection, or the login) is one problem of the pass, not one per game: one line (one
entry in JSON) naming the server, login and folder, why, the games that wait on it and what
to do; never the password. A game's own problem (a torn journal) stays that game's, and
the folder's other games are served in the same pass. Time comes from REFEREE_NOW."""

from __future__ import annotations

import itertools
import json

from mailboxes import write_maildir
from mailservers import (
    HOST,
    IMAP_PASSWORD_ENV,
    PASSWORD,
    free_port,
    mail_settings,
    servers,  # noqa: F401 - the fixture net needs
)
from test_tick_index import START
from test_transport import mail, net, new_game, records  # noqa: F401 - net: a fixture
from test_unattended import at
from ticklines import problems, unstamped

from referee.base.clock import NOW_VARIABLE
from referee.mail import tick as ticking


def _down(port: int) -> str:
    return f"imap://me@{HOST}:{port}/INBOX"


def _folder(cli, tmp_path, monkeypatch, routes: dict[str, str]) -> dict:
    """Games of these ids, each reading its source and writing its own outbox, and one
    game (maildir) reading a Maildir its German's pass waits in: each game's journal."""
    monkeypatch.setenv(NOW_VARIABLE, at(START))
    games = tmp_path / "games"
    made = {name: new_game(cli, games, name, None, "--mail-in", source, "--mail-out",
                           f"outbox:{tmp_path / ('out-' + name)}")
            for name, source in routes.items()}
    box = write_maildir(tmp_path / "box", [])
    journal, keys = new_game(cli, games, "maildir", None, "--mail-in", str(box),
                             "--mail-out", f"outbox:{tmp_path / 'out-maildir'}")
    write_maildir(box, [mail("german", keys["german"], ["pass"], "<m1@example.org>")])
    return {**{name: journal for name, (journal, _) in made.items()}, "maildir": journal}


def test_one_mailbox_down_is_one_problem_naming_its_games(cli, tmp_path, monkeypatch):
    """Three games on one refused route, two on another: two problems, each naming its
    server, login, folder and games; the Maildir game's pass applied, once."""
    one, two = free_port(), free_port()
    mail_settings(f'[hosts."{HOST}"]\nports = [{one}, {two}]\n')
    routes = {"a": _down(one), "b": _down(one), "c": _down(one), "d": _down(two),
              "e": _down(two)}
    made = _folder(cli, tmp_path, monkeypatch, routes)
    r = cli("tick", tmp_path / "games", "--no-map")
    assert r.exit_code == 3, r.output
    found = problems(r)
    assert r.stderr == "referee: 2 problems in 6 games (see above)\n", r.output
    for port, ids in ((one, "a, b, c"), (two, "d, e")):
        [line] = [p for p in found if f":{port}," in p]
        assert line.startswith(f"mailbox imap {HOST}:{port}, user me, folder 'INBOX': "
                               f"connection refused"), line
        assert f"games {ids} wait on it" in line and "see that the server is up" in line
    assert [x for x in unstamped(r.stdout) if "applied" in x and x.startswith("maildir:")]
    assert records(made["maildir"])[-1]["order"] == "pass"
    r = cli("tick", tmp_path / "games", "--no-map", "--format", "json")
    assert r.exit_code == 3
    doc = json.loads(r.stdout)
    assert [(m["source"], m["games"], m["why"]) for m in doc["mailboxes"]] == [
        (_down(one), ["a", "b", "c"], "connection refused; no mail was read"),
        (_down(two), ["d", "e"], "connection refused; no mail was read")]
    assert doc["problems"] == [m["problem"] for m in doc["mailboxes"]]
    for game in doc["games"]:          # each game still says its mail is unread
        assert bool(game["problems"]) == (game["game_id"] != "maildir"), game
    assert records(made["maildir"])[-1]["order"] == "pass"      # applied once
    assert sum(r.get("order") == "pass" for r in records(made["maildir"])) == 1


def test_a_game_s_own_problem_stays_its_own(cli, tmp_path, monkeypatch):
    """A torn journal on the refused route: its own problem line, the route's line naming
    the two games read."""
    port = free_port()
    mail_settings(f'[hosts."{HOST}"]\nports = [{port}]\n')
    made = _folder(cli, tmp_path, monkeypatch, {"a": _down(port), "b": _down(port),
                                                 "torn": _down(port)})
    with made["torn"].open("a") as fh:
        fh.write('{"actor":"german"')
    r = cli("tick", tmp_path / "games", "--no-map")
    assert r.exit_code == 3, r.output
    found = problems(r)
    assert len(found) == 2, found
    assert sum("is torn" in p and "torn.jsonl: " in p for p in found) == 1, found
    assert sum("games a, b wait on it" in p for p in found) == 1, found


def test_a_refused_login_is_one_line_for_its_games_and_never_the_password(
        cli, net, tmp_path, monkeypatch):  # noqa: F811
    """A real IMAP server refusing the login of two games reading one folder: one line,
    the login and folder named, the password nowhere."""
    for name in ("one", "two"):
        new_game(cli, tmp_path / "games", name, net)
    monkeypatch.setenv(IMAP_PASSWORD_ENV, PASSWORD + "-wrong")
    r = cli("tick", tmp_path / "games", "--no-map")
    assert r.exit_code == 3, r.output
    [line] = problems(r)
    assert line.startswith(f"mailbox imap {HOST}:{net.imap.port}, user ") and \
        f"folder '{net.folder}'" in line and "games one, two wait on it" in line, line
    assert PASSWORD not in r.output


def test_watch_names_a_mailbox_down_once_while_it_stands(cli, tmp_path, monkeypatch):
    """Three passes of `watch` with the server down: the mailbox's line logged once."""
    port = free_port()
    mail_settings(f'[hosts."{HOST}"]\nports = [{port}]\n')
    _folder(cli, tmp_path, monkeypatch, {"a": _down(port), "b": _down(port)})
    logged: list[str] = []
    waits = itertools.count()
    passes = ticking.watch(tmp_path / "games", 0, log=logged.append, with_map=False,
                           wait=lambda _: next(waits) >= 2)
    told = [x for x in unstamped(logged) if "wait on it" in x]
    assert passes == 3 and len(told) == 1 and told[0].startswith("problem  mailbox imap"), \
        logged
