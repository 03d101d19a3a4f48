"""The referee's mails as .eml files in an outbox: each created 0600 and on disk, never over
a mail of the referee's, and a named one written once, whole or not at all (named.py)."""

from __future__ import annotations

import email.utils
import secrets as _secrets
from datetime import datetime
from email.message import EmailMessage
from email.policy import default as default_policy
from pathlib import Path

from ..base.glyphs import visible
from ..store import home
from . import message as mailtext
from .encoded import attach, put_in
from .flowed import FLOWED, flowed
from .ledger import now
from .mailboxes import MSGID
from .msgids import message_id
from .named import write_once, written_already
from .noted import noted
from .threads import addressed


def write_eml(folder: Path, sender: str, to: str, subject: str, body: str,
              in_reply_to: str | None, png: bytes | list[tuple[str, bytes]] | None = None,
              name: str | None = None, thread: str | None = None,
              record: tuple[str, dict] | None = None) -> Path:
    """One mail as an .eml file, created 0600 and on disk, never over another (with png:
    the pictures attached in their order, image/png, each (file name, bytes), or map.png
    alone); with name, NAME.eml, written once: when the outbox or its sent/ already holds
    it as the referee wrote it, that one stands (named.py); record: the game and record (by
    number and hash) its Message-ID names (msgids.py)."""
    game = record[0] if record is not None else None
    if name is not None and (there := written_already(folder, name, to, game)) is not None:
        return there
    return write_unfound(folder, sender, to, subject, body, in_reply_to, png, name, thread,
                         record)


def write_unfound(folder: Path, sender: str, to: str, subject: str, body: str,
                  in_reply_to: str | None, png: bytes | list[tuple[str, bytes]] | None = None,
                  name: str | None = None, thread: str | None = None,
                  record: tuple[str, dict] | None = None) -> Path:
    """write_eml once its caller looked for the named mail and found it nowhere."""
    game = record[0] if record is not None else None
    pictures = [("map.png", png)] if isinstance(png, bytes) else png or []
    data = _written(lambda: plain_mail(sender, to, subject, body, in_reply_to, thread, name,
                                       record=record), pictures)
    if name is not None:
        return write_once(folder, name, data, to, game)
    for _ in range(8):
        path = folder / f"{_secrets.token_hex(8)}.eml"
        try:
            home.write_new(path, data)
            return noted(path)
        except FileExistsError:
            continue
    raise OSError(f"no free file name in {folder}")


def _written(mail, pictures: list[tuple[str, bytes]]) -> bytes:
    """The bytes of the mail mail() makes, the pictures attached (encoded.py)."""
    msg = mail()
    swaps = attach(msg, pictures)
    return put_in(_bytes(msg), swaps, lambda: _bytes(_attached(mail(), pictures)))


def _attached(msg: EmailMessage, pictures: list[tuple[str, bytes]]) -> EmailMessage:
    """msg with the pictures attached by the email package itself."""
    for file, picture in pictures:
        msg.add_attachment(picture, maintype="image", subtype="png", filename=file)
    return msg


def _bytes(msg: EmailMessage) -> bytes:
    """The mail written out, its parts apart by a boundary of ours when it has any."""
    if msg.is_multipart():
        msg.set_boundary(boundary())
    return mailtext.mail_bytes(msg)


def plain_mail(sender: str, to: str, subject: str, body: str, in_reply_to: str | None,
               thread: str | None, name: str | None = None,
               date: datetime | None = None, record: tuple[str, dict] | None = None
               ) -> EmailMessage:
    """A mail of the referee's in plain text, dated now (or date): In-Reply-To only when
    in_reply_to reads as a Message-ID; its Message-ID marked for `to` (msgids.py), fixed
    by name for a named mail, so that one written again is the same mail, and naming record
    (the game, and its journal's last record as the mail is written, named by number and
    hash), so that a reply to it is known to answer that record (answered.py)."""
    msg = EmailMessage(policy=default_policy)
    addressed(msg, sender, to, thread,
                       in_reply_to if in_reply_to and MSGID.fullmatch(in_reply_to) else None)
    msg["Subject"] = visible(subject)
    msg["Date"] = email.utils.format_datetime(date or now().replace(microsecond=0))
    msg["Message-ID"] = message_id(to, name, record)
    # Nothing in a mail may disguise itself (base/glyphs.py): text from a journal or a mail
    # shows its bidirectional controls and escape sequences as their escapes.
    # Quoted-printable: readable as saved, safe to send; format=flowed (flowed.py): a
    # phone's mail program reflows the prose to its screen.
    msg.set_content(flowed(visible(body)), cte="quoted-printable", params=FLOWED)
    return msg


def boundary() -> str:
    """A boundary between the parts of a mail, as the email package makes one (fifteen
    '=', nineteen random digits, '=='), given before the mail is written: the package would
    otherwise search the whole mail, pictures included, for a line that holds it. None can:
    the text is quoted-printable, where '=' is written '=3D' but at a line's end, and the
    pictures are base64, which has no '-'."""
    return "=" * 15 + f"{_secrets.randbelow(10 ** 19):019d}" + "=="
