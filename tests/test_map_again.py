"""A picture is mailed when it shows its reader something new, through `inbox --outbox --map`
as the moderator runs it (pictures.py): the map once the board as he may see it has moved
since the last map he was sent, a decision's close-up (and the map after it) once he is
asked a decision he was not sent it for; otherwise one line saying which record's mail
still shows the board. One rule for the players and the observers, each drawn as he may
see the board (the public's map is not a player's). Few maps are drawn: the opening's, and
one more where the board moves."""

from __future__ import annotations

import email
import email.policy
import os
import subprocess
import sys
from pathlib import Path

from mailboxes import write_maildir
from test_observers import ADDRESSES, GAME, SECRET, keys, message, records, to

from referee.mail.ledger import FAULT_VARIABLE
from referee.store.dice import write_secret

GERMAN, ENTENTE = ADDRESSES["german"], ADDRESSES["entente"]
PRESS = "press@example.org"


def _game(cli, folder: Path, *extra: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    secret = folder / "fixed.secret"
    write_secret(secret, SECRET)
    journal = folder / "g.jsonl"
    players = [f"{side}={addr}" for side, addr in ADDRESSES.items()] + [f"observer={PRESS}"]
    r = cli("new", journal, "--scenario", "1914", "--game-id", GAME, "--secret-file", secret,
            *[a for item in players for a in ("--player", item)], *extra)
    assert r.exit_code == 0, r.output
    return journal


def _mails(folder: Path) -> list:
    return [email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
            for p in sorted(folder.glob("*.eml"))]


def _pass(cli, journal: Path, folder: Path, *bodies: str) -> list:
    """One `inbox --map` run over the German's messages (each with his key): the mails it
    wrote."""
    key = keys(cli, journal)["german"]
    n = len(list(folder.parent.glob("box*")))
    box = write_maildir(folder.parent / f"box{n}", [
        message(GERMAN, f"{body}\n\nOrder key: {key}", 10 * n + i)
        for i, body in enumerate(bodies)])
    r = cli("inbox", journal, box, "--outbox", folder, "--map")
    assert r.exit_code == 0, r.output
    return _mails(folder)


def _pictures(mail) -> list[str]:
    return [a.get_filename() for a in mail.iter_attachments()]


def _said(mail) -> str:
    return " ".join(mail.get_body(("plain",)).get_content().split())


def _seq(journal: Path) -> int:
    return records(journal)[-1]["seq"]


def test_an_observer_and_a_player_get_the_map_again_only_once_the_board_moved(tmp_path, cli):
    """The German's `play offensive` moves nothing on the board: neither the observer nor
    the Entente is sent the map again, nor the German, asked his moves, a decision that
    concerns no area yet; each is told which mail shows the board. His move changes it: each
    gets the map again (the German, whose moves now concern areas, its close-up first)."""
    journal = _game(cli, tmp_path / "g")
    opening = _pass(cli, journal, tmp_path / "out0")
    first = _seq(journal)
    assert [_pictures(m) for m in opening] == [["map.png"]] * 3
    mails = _pass(cli, journal, tmp_path / "out1", "play offensive")
    line = f"The board is as the map of the mail of record #{first} shows it (map.png there)."
    for address in (PRESS, ENTENTE, GERMAN):
        [mail] = to(mails, address)
        assert _pictures(mail) == [] and line in _said(mail), (address, _said(mail))
    # The observer's line sits above the receipt, as a player's does.
    [mail] = to(mails, PRESS)
    assert _said(mail).endswith(f"{line} Fingerprint:" + _said(mail).split("Fingerprint:")[1])
    mails = _pass(cli, journal, tmp_path / "out2", "move ge-4 ardennes")
    assert _pictures(to(mails, PRESS)[0]) == ["map.png"]
    assert _pictures(to(mails, ENTENTE)[0]) == ["map.png"]
    assert _pictures(to(mails, GERMAN)[0]) == ["closeup.png", "map.png"]
    assert not any("The board is as the map" in _said(m) for m in mails)


def test_a_player_granted_an_extension_is_not_sent_his_decisions_pictures_again(tmp_path,
                                                                                 cli):
    """The German asked his moves with a close-up mails `extend 24h`: the reply granting it
    carries no picture and names the mail that holds both; his next order that moves
    nothing new either."""
    journal = _game(cli, tmp_path / "g", "--deadline", "48h")
    _pass(cli, journal, tmp_path / "out0")
    mails = _pass(cli, journal, tmp_path / "out1", "play offensive\nmove ge-4 ardennes")
    [asked] = to(mails, GERMAN)
    shown = _seq(journal)
    assert _pictures(asked) == ["closeup.png", "map.png"]
    mails = _pass(cli, journal, tmp_path / "out2", "extend 24h")
    assert _seq(journal) > shown                 # the extension is a record of its own
    [reply] = to(mails, GERMAN)
    assert "extension was granted" in _said(reply), _said(reply)
    assert _pictures(reply) == []
    assert (f"The board and your decision are as the pictures of the mail of record #{shown} "
            f"show them (closeup.png and map.png there).") in _said(reply)


def test_a_run_killed_after_writing_a_map_then_run_again_mails_it_once_and_knows_it(
        tmp_path, cli):
    """An observer added later is owed the game with its map; the run writing it is killed
    before the ledger is saved. Two runs after it write no second mail, and the ledger knows
    the map went: the next report, on a board that has not moved, names that mail."""
    journal = _game(cli, tmp_path / "g")
    _pass(cli, journal, tmp_path / "out")
    late = "late@example.org"
    assert cli("players", journal, "--set", f"observer={late}").exit_code == 0
    added = _seq(journal)
    box = write_maildir(tmp_path / "empty", [])
    run = ["inbox", str(journal), str(box), "--outbox", str(tmp_path / "out"), "--map"]
    args = [sys.executable, "-m", "referee", *run]
    env = {**os.environ, FAULT_VARIABLE: "written"}
    env.pop("PYTEST_XDIST_WORKER", None)
    killed = subprocess.run(args, env=env, capture_output=True, text=True, timeout=300)
    assert killed.returncode == 70, killed.stderr
    [written] = to(_mails(tmp_path / "out"), late)
    assert _pictures(written) == ["map.png"]
    for _ in range(2):
        again = cli(*run)       # here: only the killed run needs a process
        assert again.exit_code == 0, again.output
    assert len(to(_mails(tmp_path / "out"), late)) == 1
    mails = _pass(cli, journal, tmp_path / "next", "play offensive")
    [report] = to(mails, late)
    assert _pictures(report) == []
    assert (f"The board is as the map of the mail of record #{added} shows it (map.png "
            f"there).") in _said(report)


def test_a_sides_new_address_is_sent_the_map_its_old_one_had(tmp_path, cli):
    """The moderator registers another address for the Entente on a board that has not
    moved: the newcomer's first mail carries the map, which went to the old address only."""
    journal = _game(cli, tmp_path / "g")
    _pass(cli, journal, tmp_path / "out0")
    foch = "foch@example.net"
    assert cli("players", journal, "--set", f"entente={foch}").exit_code == 0
    mails = _pass(cli, journal, tmp_path / "out1")
    [welcome] = to(mails, foch)
    assert _pictures(welcome) == ["map.png"]
    assert "The board is as the map" not in _said(welcome)


def test_a_refused_mail_s_pictures_are_owed_again():
    """A mail a server refused for good (leftover.owe_news_again) carried the German's map
    and close-up: they never reached him, so his next mail must carry them, not name the
    refused one as holding them; the Entente's pictures stand."""
    from referee.mail.ledger import PARTS, news_owed_again

    ledger = {part: kind() for part, kind in PARTS.items()}
    ledger["starts"]["report-german-7"] = ["german", [6, "h6"]]
    ledger["sent"]["german"] = [7, "h7"]
    for part in ("maps", "closeups"):
        ledger[part].update({"german": [7, "d"], "entente": [7, "d"]})
    assert news_owed_again(ledger, ["report-german-7"]) == ["german"]
    assert "german" not in ledger["maps"] and "german" not in ledger["closeups"]
    assert ledger["maps"]["entente"] == [7, "d"] and ledger["sent"]["german"] == [6, "h6"]
