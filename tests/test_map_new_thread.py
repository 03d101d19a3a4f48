"""The first mail of a new season carries the pictures again, though the board has not moved
(pictures.py): its subject names the season (subjects.py), so a mail program that groups a
conversation by its subject shows it as a new one, and its line "The board is as the map of
the mail of record #N shows it" pointed into the conversation of the season before. Within
a season, the rule stands: a picture goes only when it shows something new.

Both games of the campaign engine, with an observer: every side passes and ends his turn,
nothing is built, and SUMMER 1914 becomes AUTUMN 1914 on a board that has not moved."""

from __future__ import annotations

import email
import email.policy
from pathlib import Path

import pytest
from mailboxes import write_maildir
from test_observers import ADDRESSES, GAME, SECRET, keys, message, records, to

import gamecalls as g
from referee.store.dice import write_secret

GERMAN, ENTENTE = ADDRESSES["german"], ADDRESSES["entente"]
PRESS = "press@example.org"


def _game(cli, folder: Path, game: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    secret = folder / "fixed.secret"
    write_secret(secret, SECRET)
    journal = folder / "g.jsonl"
    players = [f"{side}={addr}" for side, addr in ADDRESSES.items()] + [f"observer={PRESS}"]
    r = cli("new", journal, "--game", game, "--scenario", "1914", "--game-id", GAME,
            "--secret-file", secret, *[a for item in players for a in ("--player", item)])
    assert r.exit_code == 0, r.output
    return journal


def _pass(cli, journal: Path, folder: Path, *bodies: str) -> list:
    """One `inbox --map` run over the German's messages (none: the reports owed alone): the
    mails it wrote."""
    box = write_maildir(folder.parent / f"box-{folder.name}",
                        [message(GERMAN, body, n) for n, body in enumerate(bodies)])
    r = cli("inbox", journal, box, "--outbox", folder, "--map")
    assert r.exit_code == 0, r.output
    return [email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
            for p in sorted(folder.glob("*.eml"))]


def _pictures(mail) -> list[str]:
    return [a.get_filename() for a in mail.iter_attachments()]


def _said(mail) -> str:
    return " ".join(mail.get_body(("plain",)).get_content().split())


def _orders(journal: Path, *orders: tuple[str, str]) -> None:
    for side, text in orders:
        assert g.submit(journal, side, [text]).rejected is None, (side, text)


@pytest.mark.parametrize("game", ["ttlm", "aac"])
def test_the_first_mail_of_a_new_season_carries_the_map_again(tmp_path, cli, game):
    journal = _game(cli, tmp_path / "g", game)
    opening = _pass(cli, journal, tmp_path / "out0")
    first = records(journal)[-1]["seq"]
    assert [_pictures(m) for m in opening] == [["map.png"]] * 3
    _orders(journal, ("german", "pass"), ("german", "end turn"), ("entente", "pass"),
            ("entente", "end turn"))
    summer = _pass(cli, journal, tmp_path / "out1")         # production: the board as it was
    line = f"The board is as the map of the mail of record #{first} shows it (map.png there)."
    for address in (PRESS, ENTENTE, GERMAN):
        [mail] = to(summer, address)
        assert "SUMMER 1914" in str(mail["Subject"]), mail["Subject"]
        assert _pictures(mail) == [] and line in _said(mail), (address, _said(mail))
    _orders(journal, ("german", "done"), ("entente", "done"))
    autumn = _pass(cli, journal, tmp_path / "out2")
    for address in (PRESS, ENTENTE, GERMAN):
        [mail] = to(autumn, address)
        assert "AUTUMN 1914" in str(mail["Subject"]), mail["Subject"]
        assert "map.png" in _pictures(mail), (address, _pictures(mail))
        assert "The board is as the map" not in _said(mail), _said(mail)
    # Within the season, on a board that has not moved: no picture again (the German's
    # mail refused, answered with his report).
    shown = records(journal)[-1]["seq"]
    later = _pass(cli, journal, tmp_path / "out3",
                  f"place nothing\n\nOrder key: {keys(cli, journal)['german']}")
    [mail] = to(later, GERMAN)
    assert "AUTUMN 1914" in str(mail["Subject"]) and "not applied" in _said(mail)
    assert _pictures(mail) == [], _pictures(mail)
    assert f"the mail of record #{shown} show" in _said(mail), _said(mail)
