"""What the moderator reads when an SMTP server says no (referee/mail/smtpsaid.py): one
plain line each, the server's words decoded, and what to check; never a password.

The tests' SMTP server (tests/mailservers.py) refuses a wrong password with 535 at once, as
a real one does, so a test of a wrong password tests that refusal and not a timeout.
"""

from __future__ import annotations

import time

import pytest
from mailservers import HOST, PASSWORD, SMTP_PASSWORD_ENV, USER, spooled

from referee.mail import delivery
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
