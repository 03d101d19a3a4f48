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
from pathlib import Path

from mailboxes import write_maildir
from test_observers import ADDRESSES, GAME, SECRET, keys, message, records, to

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
