"""What the moderator reads when an SMTP server says no (referee/mail/smtpsaid.py): one
plain line each, the server's words decoded, and what to check; never a password.

The tests' SMTP server (tests/mailservers.py) refuses a wrong password with 535 at once, as
a real one does, so a test of a wrong password tests that refusal and not a timeout.
"""

from __future__ import annotations

import time

import pytest
from mailservers import (
    HOST,
    PASSWORD,
    SMTP_PASSWORD_ENV,
    USER,
    free_port,
    mail_settings,
    spooled,
    trust_smtp,
)
from test_transport import net, new_game, tick  # noqa: F401 - net: the fixture
from ticklines import problem_text

from referee.mail import delivery
from referee.mail.credentials import password_file
from referee.mail.delivery import TransportError
from referee.mail.sending import send_owed
from referee.store.mailroute import check_target


def _owed(spool) -> list[str]:
    return sorted(p.name for p in spool.glob("*.eml"))


def test_a_wrong_smtp_password_is_refused_at_once_and_the_server_never_rests(
        smtp, tmp_path, monkeypatch):
    """535 comes back at once: the mails stay owed, and the next pass, with the right
    password, sends them (a refusal at once leaves the server untired: docs/moderator.md,
    Mail settings)."""
    monkeypatch.setattr(delivery, "TIMEOUT", 5.0)     # a server that never answers: 5 s
    spool = tmp_path / "spool"
    spooled(spool, [("0.eml", "umpire@example.com", "kaiser@example.org")])
    target = check_target(f"smtp://{USER}@{HOST}:{smtp.port}")
    monkeypatch.setenv(SMTP_PASSWORD_ENV, PASSWORD + "-wrong")
    started = time.monotonic()
    with pytest.raises(TransportError) as caught:
        send_owed(spool, target)
    assert time.monotonic() - started < 4, str(caught.value)
    assert "535" in str(caught.value), str(caught.value)
    assert _owed(spool) == ["0.eml"] and smtp.received == []
    monkeypatch.setenv(SMTP_PASSWORD_ENV, PASSWORD)
    assert send_owed(spool, target) == ["sent     0.eml to kaiser@example.org"]
    assert _owed(spool) == [] and len(smtp.received) == 1


def _refusal(spool, target: str) -> str:
    """The one line a send through target fails with (its mails stay owed)."""
    before = _owed(spool)
    with pytest.raises(TransportError) as caught:
        send_owed(spool, check_target(target))
    said = str(caught.value)
    assert _owed(spool) == before, said
    assert "\n" not in said and "b'" not in said and 'b"' not in said, said
    assert PASSWORD not in said and "(535," not in said and "(-1," not in said, said
    return said


@pytest.fixture
def spool(tmp_path):
    spool = tmp_path / "spool"
    spooled(spool, [("0.eml", "umpire@example.com", "kaiser@example.org")])
    return spool


def test_a_wrong_password_in_the_environment_names_the_variable_to_check(
        smtp, spool, monkeypatch):
    monkeypatch.setenv(SMTP_PASSWORD_ENV, "not-" + PASSWORD)
    said = _refusal(spool, f"smtp://{USER}@{HOST}:{smtp.port}")
    assert said.startswith(f"smtp {HOST}:{smtp.port}: the server refused the login of "
                           f"{USER} (535 5.7.8 Authentication credentials invalid); every "
                           f"mail stays owed: check the password {SMTP_PASSWORD_ENV} holds "
                           f"(docs/moderator.md, Mail settings)"), said
    assert "not-" + PASSWORD not in said


def test_a_wrong_password_in_the_password_file_says_it_holds_one_a_host(
        smtp, spool, monkeypatch):
    """The file gives one password a host: an SMTP password other than the IMAP one of the
    same host goes in the variable, which the line names."""
    monkeypatch.delenv(SMTP_PASSWORD_ENV)
    monkeypatch.setenv("HOME", str(spool.parent))
    own = password_file()
    own.write_text(f"machine {HOST} login {USER} password the-imap-one\n")
    own.chmod(0o600)
    said = _refusal(spool, f"smtp://{USER}@{HOST}:{smtp.port}")
    assert "(535 5.7.8 Authentication credentials invalid)" in said, said
    assert f"check the password of {HOST}'s line in {own}: that file holds one password a " \
           f"host, so an SMTP password other than the IMAP one goes in {SMTP_PASSWORD_ENV}" \
           in said, said
    assert "the-imap-one" not in said


def test_another_service_on_the_port_is_named_with_the_port_to_check(servers, spool,
                                                                      monkeypatch):
    """The route's port is the IMAP server's: its greeting is quoted as it came, and the
    line says to check the route's port, naming the ports the settings allow."""
    auth, imap, server = servers
    trust_smtp(monkeypatch, auth, server.port)
    mail_settings(f'[hosts."{HOST}"]\nports = [{imap.port}, {server.port}]\n')
    said = _refusal(spool, f"smtp://{USER}@{HOST}:{imap.port}")
    assert said.startswith(f"smtp {HOST}:{imap.port}: what answers on port {imap.port} is "
                           f"not an SMTP server (it said '"), said
    assert "IMAP4rev1" in said and "every mail stays owed: check the port of the game's " \
           f"mail route, {imap.port} (your mail settings allow {_both(imap.port, server.port)} " \
           f"for {HOST}, for IMAP and SMTP alike)" in said, said


def _both(*ports: int) -> str:
    low, high = sorted(ports)
    return f"{low} and {high}"


def test_a_server_down_on_a_port_the_settings_allow_says_so(servers, spool, monkeypatch):
    """The settings allow the IMAP port and the route's SMTP port for the host: the line
    names both, the route's among them, as what the settings say (never the IMAP port
    alone, as if the route's port were not allowed and the other were the SMTP one)."""
    auth, imap, _ = servers
    port = free_port()
    trust_smtp(monkeypatch, auth, port)
    mail_settings(f'[hosts."{HOST}"]\nports = [{imap.port}, {port}]\n')
    said = _refusal(spool, f"smtp://{USER}@{HOST}:{port}")
    assert f"else check the port of the game's mail route, {port} (your mail settings allow " \
           f"{_both(imap.port, port)} for {HOST}, for IMAP and SMTP alike)" in said, said


def test_a_server_that_is_down_says_to_see_that_it_is_up(servers, spool, monkeypatch):
    port = free_port()
    trust_smtp(monkeypatch, servers[0], port)
    said = _refusal(spool, f"smtp://{USER}@{HOST}:{port}")
    assert said.startswith(f"smtp {HOST}:{port}: connection refused; every mail stays owed: "
                           f"see that the server is up; else check the port of the game's "
                           f"mail route, {port}"), said


def test_a_pass_names_a_refused_login_on_one_line(cli, net, tmp_path, monkeypatch):  # noqa: F811
    """Under tick: one problem line, exit 3, the server's words decoded, the reply owed."""
    journal, keys = new_game(cli, tmp_path / "games", "sierra", net)
    monkeypatch.setenv(SMTP_PASSWORD_ENV, PASSWORD + "-wrong")
    r = tick(cli, journal)
    assert r.exit_code == 3 and r.stderr.count("\n") == 1, r.output
    told = problem_text(r)
    assert "refused the login of referee (535 5.7.8 Authentication credentials invalid)" \
           in told and f"check the password {SMTP_PASSWORD_ENV} holds" in told, r.output
    assert PASSWORD not in r.output and "b'" not in r.output


def test_the_password_file_gives_one_password_a_host_as_the_guide_says(smtp, tmp_path,
                                                                       monkeypatch):
    """Two lines for one host (IMAP's login, then SMTP's): only the last is read, so the
    other password goes in its variable, which is read first (docs/moderator.md)."""
    from referee.mail.credentials import password

    monkeypatch.delenv(SMTP_PASSWORD_ENV)
    monkeypatch.setenv("HOME", str(tmp_path))              # no ~/.netrc
    own = password_file()
    own.write_text(f"machine {HOST} login imap-user password imap-pw\n"
                   f"machine {HOST} login {USER} password smtp-pw\n")
    own.chmod(0o600)
    assert password("smtp", USER, HOST) == "smtp-pw"
    assert password("imap", "imap-user", HOST) is None
    monkeypatch.setenv(SMTP_PASSWORD_ENV.replace("SMTP", "IMAP"), "imap-pw")
    assert password("imap", "imap-user", HOST) == "imap-pw"
    guide = " ".join(open("docs/moderator.md").read().split())
    assert "A file gives one password a host: of two `machine` lines for one host, only " \
           "the last is read" in guide
