"""A mail's pictures are written as the email package writes them, each encoded once for
the mails that carry it (mail/encoded.py)."""

from __future__ import annotations

import binascii
import email
import os
from datetime import UTC, datetime

import pytest

from referee.mail import eml, encoded

WHEN = datetime(2026, 11, 23, 18, 0, tzinfo=UTC)


def _mail(body: str = "Your report.\n"):
    return lambda: eml.plain_mail("referee@example.org", "kaiser@example.org",
                                  "[referee g #3] german report", body, None, None,
                                  name="report-g-3-german", date=WHEN)


@pytest.mark.parametrize("sizes", [(), (0,), (1,), (56, 57, 58), (5000, 150_001), (171,)])
def test_a_mail_with_pictures_is_the_bytes_the_email_package_writes(monkeypatch, sizes):
    """However long each picture (none, empty, under a line, a line, over one, a map's),
    the mail is byte for byte the one the email package writes with the pictures attached
    itself, the same boundary given."""
    monkeypatch.setattr(eml, "boundary", lambda: "=" * 15 + "1" * 19 + "==")
    pictures = [(f"p{n}.png", os.urandom(size)) for n, size in enumerate(sizes)]
    written = eml._written(_mail(), pictures)
    assert written == eml._bytes(eml._attached(_mail()(), pictures))
    read = email.message_from_bytes(written, policy=email.policy.default)
    assert [(p.get_filename(), p.get_content()) for p in read.iter_attachments()] == pictures


def test_a_stand_in_the_text_holds_already_is_written_by_the_email_package(monkeypatch):
    """A stand-in's line found in the mail's text too (by chance): the mail is written as
    the package writes it, not with the picture put in the text."""
    monkeypatch.setattr(eml, "boundary", lambda: "=" * 15 + "2" * 19 + "==")
    stand_in = b"\x00" * 48
    monkeypatch.setattr(encoded.secrets, "token_bytes", lambda n: stand_in)
    body = f"A line:\n{binascii.b2a_base64(stand_in).decode()}"
    pictures = [("map.png", os.urandom(3000))]
    written = eml._written(_mail(body), pictures)
    assert written == eml._bytes(eml._attached(_mail(body)(), pictures))


def test_the_same_picture_in_two_mails_is_encoded_once(tmp_path, monkeypatch):
    """The map both sides are sent (sharedmaps.py) is turned into base64 for the first mail
    only: the second carries the same text."""
    encoded, real = [], binascii.b2a_base64
    monkeypatch.setattr(binascii, "b2a_base64",
                        lambda data, **kw: encoded.append(len(data)) or real(data, **kw))
    picture = os.urandom(150_000)
    for side in ("german", "entente"):
        eml.write_eml(tmp_path, "referee@example.org", f"{side}@example.org",
                      f"[referee g #3] {side} report", "Your report.\n", None,
                      [("map.png", picture)], name=f"report-g-3-{side}")
    assert len(picture) <= sum(encoded) < len(picture) + 1000
