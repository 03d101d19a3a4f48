"""What a game folder or a mail cannot make the referee do through the mail settings: each
test here is an attack that once worked or nearly did, by someone who can write the game
folder (and chain records with the referee's own code) but not the moderator's referee
home. Everything listens on 127.0.0.1 only (tests/mailservers.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from mailboxes import write_maildir
from mailservers import HOST, PASSWORD, USER, PlainListener, forge_route, mail_settings

from referee.base.errors import UsageError
from referee.mail.credentials import password

ADDRESSES = {"german": "kaiser@example.org", "entente": "joffre@example.net",
             "moderator": "umpire@example.com"}


def records(journal: Path) -> list[dict]:
    return [json.loads(line) for line in journal.read_text().splitlines()]


def new_game(cli, folder: Path, game_id: str, *route: str) -> Path:
    folder.mkdir(exist_ok=True)
    journal = folder / f"{game_id}.jsonl"
    r = cli("new", journal, "--scenario", "1914", "--game-id", game_id,
            *[a for side, address in ADDRESSES.items()
              for a in ("--player", f"{side}={address}")], *route)
    assert r.exit_code == 0, r.output
    return journal


def tick(cli, path: Path, *more: str):
    return cli("tick", path, "--no-map", *more)


# ---------------------------------------------------------------- 1. any port of a named host

def test_a_forged_route_to_another_port_of_a_host_without_tls_gets_the_password(
        cli, tmp_path, monkeypatch):
    """A host without TLS, as the guide's example names one ("a server on this machine",
    127.0.0.1), with no ports named: only the standard mail ports, which no ordinary user
    can open. A forged route naming 127.0.0.1 and a port of the intruder's choosing, where
    any local user may listen, is not given the moderator's IMAP password."""
    mail_settings(f'[hosts."{HOST}"]\ntls = "none"\n')          # docs/moderator.md's example
    monkeypatch.setenv(f"REFEREE_IMAP_PASSWORD_{HOST.replace('.', '_')}", PASSWORD)
    monkeypatch.setenv("HOME", str(tmp_path))
    box = write_maildir(tmp_path / "box", [])
    journal = new_game(cli, tmp_path / "games", "porty", "--mail-in", str(box),
                       "--mail-out", f"outbox:{tmp_path / 'out'}")
    theirs = PlainListener("imap")                 # the intruder's, on a port he chose
    try:
        forge_route(journal, f"imap://{USER}@{HOST}:{theirs.port}/INBOX",
                    f"outbox:{tmp_path / 'out'}")
        tick(cli, journal)
        assert PASSWORD.encode() not in bytes(theirs.received)
    finally:
        theirs.stop()


def test_a_forged_target_to_another_port_of_a_host_without_tls_gets_the_players_mail(
        cli, tmp_path, monkeypatch):
    """The same for SMTP, without any login: the intruder's listener on 127.0.0.1 is not
    given the players' reports, each with the player's order key (with which he would then
    write orders in their name)."""
    mail_settings(f'[hosts."{HOST}"]\ntls = "none"\n')
    monkeypatch.setenv("HOME", str(tmp_path))
    box = write_maildir(tmp_path / "box", [])
    journal = new_game(cli, tmp_path / "games", "porto", "--mail-in", str(box),
                       "--mail-out", f"outbox:{tmp_path / 'out'}")
    keys = {p["side"]: p["key"] for p in json.loads(
        cli("players", journal, "--keys", "--format", "json").stdout)["players"]
        if p.get("key") and p["side"] != "moderator"}
    theirs = PlainListener("smtp")
    try:
        forge_route(journal, str(box), f"smtp://{HOST}:{theirs.port}")
        tick(cli, journal)
        said = bytes(theirs.received)
        assert not any(k.encode() in said for k in keys.values()), said[:300]
    finally:
        theirs.stop()


# ---------------------------------------------------------------- 2. netrc's default line

def test_a_netrc_default_line_is_a_password_for_every_host_of_the_settings(
        tmp_path, monkeypatch):
    """No password is for every host, and a netrc `default` line (in ~/.netrc or the
    password file) would be one: netrc.authenticators() falls back to it for a machine it
    does not name. A forged route naming the default's login (here `anonymous`, any login
    when the line has none) on another host of the settings, such as the tls = "none" one,
    is given no password."""
    monkeypatch.setenv("HOME", str(tmp_path))
    netrc = tmp_path / ".netrc"
    netrc.write_text("machine mail.example.org login umpire password for-mail-example\n"
                     "default login anonymous password for-no-host-in-particular\n")
    netrc.chmod(0o600)
    mail_settings('[hosts."mail.example.org"]\n[hosts."127.0.0.1"]\ntls = "none"\n')
    assert password("imap", "umpire", "mail.example.org") == "for-mail-example"
    # 127.0.0.1 has no password of its own anywhere: it must get none.
    assert password("imap", "anonymous", "127.0.0.1") is None


# ---------------------------------------------------------------- 3. one variable, two hosts

def test_two_hosts_of_the_settings_do_not_share_one_password_variable(tmp_path,
                                                                      monkeypatch):
    """REFEREE_IMAP_PASSWORD_<HOST> writes every character that is not a letter or digit
    as `_`, so mail.example.org and mail-example.org (both named, the second without TLS)
    would read one variable: a forged route to the second would be handed the first one's
    password (in the clear). Each host gets its own: such settings are refused."""
    monkeypatch.setenv("HOME", str(tmp_path))
    mail_settings('[hosts."mail.example.org"]\n[hosts."mail-example.org"]\ntls = "none"\n')
    monkeypatch.setenv("REFEREE_IMAP_PASSWORD_MAIL_EXAMPLE_ORG", "for-mail.example.org")
    with pytest.raises(UsageError, match="the hosts mail.example.org and mail-example.org "
                                         "would read one password variable"):
        password("imap", USER, "mail-example.org")
    mail_settings('[hosts."mail.example.org"]\n')
    assert password("imap", USER, "mail.example.org") == "for-mail.example.org"
    assert password("imap", USER, "mail-example.org") is None


# ---------------------------------------------------------------- 4. tick's one line

def test_a_forged_source_cannot_write_lines_of_its_own_into_ticks_output(cli, tmp_path):
    """tick checks the route in force as verify does: a forged local source with a line end
    is refused, and quoted escaped, so a planted game cannot write whole lines of its
    choosing into the moderator's cron mail or log (here one that says all went well).
    Every problem is one line."""
    box = write_maildir(tmp_path / "box", [])
    journal = new_game(cli, tmp_path / "games", "lines", "--mail-in", str(box),
                       "--mail-out", f"outbox:{tmp_path / 'out'}")
    forge_route(journal, "/nowhere\nreferee: 3 games: all handled",
                f"outbox:{tmp_path / 'out'}")
    assert cli("verify", journal).exit_code == 3                 # verify sees it
    r = tick(cli, journal)
    assert r.exit_code == 3
    assert r.stderr.count("\n") == 1 and "\r" not in r.stderr, r.stderr
    # The forged text is quoted inside the one problem line, never a line of its own.
    assert not [ln for ln in r.stdout.splitlines() if "all handled" in ln and
                "the mail route in force is not one the referee writes" not in ln], r.stdout


@pytest.mark.parametrize("host,allowed", [
    ("127.0.0.1", True), ("127.3.4.5", True), ("::1", True), ("localhost", True),
    ("LocalHost", True), ("mail.example.org", False), ("10.0.0.1", False),
    ("192.168.1.1", False), ("::ffff:10.0.0.1", False), ("127.0.0.1.example.org", False)])
def test_a_server_without_tls_is_one_on_this_machine(cli, tmp_path, host, allowed):
    """docs/moderator.md: `tls = "none"` is "a server on this machine without TLS". Named for
    any other host, the login would cross the network in the clear: the settings are refused
    whole, in one line naming the host, and nothing is sent anywhere."""
    mail_settings(f'[hosts."{host}"]\ntls = "none"\n')
    box = write_maildir(tmp_path / "box", [])
    r = cli("new", tmp_path / "g.jsonl", "--scenario", "1914", "--mail-in", str(box),
            "--mail-out", f"smtp://{USER}@{f'[{host}]' if ':' in host else host}:25")
    if allowed:
        assert r.exit_code == 0 and "would cross the network" not in r.stderr, r.stderr
    else:
        assert r.exit_code == 2 and f"hosts.{host}: tls = \"none\"" in r.stderr, r.stderr
        assert len(r.stderr.strip().splitlines()) == 1
        assert not (tmp_path / "g.jsonl").exists()


@pytest.mark.parametrize("text", ["x = " + "[" * 3000 + "]" * 3000,
                                  "x = " + "{a = " * 2000 + "1" + "}" * 2000])
def test_mail_settings_nested_past_pythons_recursion_are_a_usage_error(text):
    """Arrays or inline tables nested thousands deep took the TOML reader past Python's
    recursion, an internal error at every tick: the file is refused, saying why."""
    from referee.store import mailsettings

    path = mailsettings.settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text + "\n", encoding="utf-8")
    path.chmod(0o600)
    with pytest.raises(UsageError, match="nested deeper than mail settings are"):
        mailsettings.load()
