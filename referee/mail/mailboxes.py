"""Reading a mailbox: every message of an mbox file, a Maildir or .eml files, with the
headers the referee goes by (sender, Message-ID, Date, subject) and its digests. A message
that cannot be read is one bad message, never the end of the run."""

from __future__ import annotations

import email.utils
import hashlib
import mailbox
import os
import re
from dataclasses import dataclass
from email.message import EmailMessage
from email.policy import default as default_policy
from pathlib import Path

from ..base.errors import StorageError, UsageError
from ..store import home
from . import message as mailtext

MAX_MESSAGE = 1 << 20


@dataclass
class Message:
    """One message as read from the mailbox."""

    raw: bytes
    where: str
    msg: EmailMessage | None = None
    problem: str | None = None
    sha256: str = ""
    body_sha256: str = ""
    message_id: str = ""
    sender: str = ""
    subject: str = ""
    date: float = 0.0
    order: int = 0


def read_source(sources: list[Path]) -> list[Message]:
    """Every message of an mbox file, a Maildir or .eml files, in Date order (StorageError
    when a mailbox cannot be read; a message that cannot be read is one bad message)."""
    out: list[Message] = []
    for src in sources:
        try:
            if src.is_dir():
                if not (src / "cur").is_dir() and not (src / "new").is_dir():
                    raise StorageError(f"{src}: a folder that is not a Maildir (no cur/ or new/)")
                # Each file is read as the referee reads any named file: a regular file, never
                # through a FIFO or a device, and never more than the limit.
                for sub in ("new", "cur"):
                    folder = src / sub
                    names = sorted(os.listdir(folder)) if folder.is_dir() else []
                    found = [_one_file(folder / n, f"{src}:{sub}/{n}") for n in names
                             if not n.startswith(".")]
                    out += [m for m in found if m is not None]
            elif src.is_file():
                with open(src, "rb") as fh:
                    head = fh.read(5)
                if head == b"From ":
                    box = mailbox.mbox(str(src), create=False)
                    for i, k in enumerate(box.keys()):
                        out.append(Message(box.get_bytes(k, from_=False), f"{src}#{i + 1}"))
                else:
                    out += [m for m in [_one_file(src, str(src))] if m is not None]
            else:
                raise StorageError(f"{src}: no such mailbox or message file")
        except (OSError, mailbox.Error) as exc:
            raise StorageError(f"{src}: the mailbox cannot be read ({exc})") from None
    for i, m in enumerate(out):
        m.order = i
        m.sha256 = hashlib.sha256(m.raw).hexdigest()
        m.body_sha256 = hashlib.sha256(_after_headers(m.raw)).hexdigest()
        if m.problem is None:
            try:
                m.msg = mailtext.parse_message(m.raw, MAX_MESSAGE)
            except (mailtext.MailError, ValueError, TypeError, IndexError, RecursionError,
                    LookupError) as exc:
                m.problem = f"the message cannot be read ({type(exc).__name__}: {exc})"
        _read_headers(m)
    out.sort(key=lambda m: (m.date, m.order))
    return out


def _one_file(path: Path, where: str) -> Message | None:
    """One message file, read bounded and only if regular (StorageError otherwise); a file
    over the limit is one bad message; a folder inside a Maildir is no message (None)."""
    import stat

    try:
        info = os.stat(path)
    except OSError as exc:
        raise StorageError(f"{where}: cannot be read ({exc.strerror})") from None
    if stat.S_ISDIR(info.st_mode):
        return None
    if stat.S_ISREG(info.st_mode) and info.st_size > MAX_MESSAGE:
        return Message(b"", where, problem=f"the message is {info.st_size} bytes, over the "
                                           f"limit of {MAX_MESSAGE} bytes")
    try:
        return Message(home.read_named(path, "a message", MAX_MESSAGE), where)
    except UsageError as exc:
        raise StorageError(str(exc).removeprefix("referee: ")) from None


def _after_headers(raw: bytes) -> bytes:
    """The body bytes of a raw message: what stays the same when a relay adds headers."""
    cut = [i for i in (raw.find(b"\r\n\r\n"), raw.find(b"\n\n")) if i >= 0]
    return raw[min(cut):].strip() if cut else raw


MSGID = re.compile(r"<[\x21-\x3b\x3d\x3f-\x7e]{1,250}>")
_SANE_ADDRESS = re.compile(r"[\x21-\x3f\x41-\x7e]{1,64}@[A-Za-z0-9.-]{1,190}")


def _read_headers(m: Message) -> None:
    """Message-ID, sender, subject and date, each read on its own: a broken header loses
    only itself. A Message-ID that is not one plain <...> token is treated as none."""
    from email.parser import BytesHeaderParser

    msg = m.msg
    if msg is None:
        try:
            msg = BytesHeaderParser(policy=default_policy).parsebytes(m.raw[:65536])
        except Exception:  # noqa: BLE001 - a header block nothing can read: no headers
            return

    def header(name: str) -> str:
        try:
            return str(msg.get(name, "") or "")
        except Exception:  # noqa: BLE001 - the email package raises many kinds here
            # A header the parser refuses (an encoded CR in a name, say): its raw text.
            raw = next((v for k, v in msg.raw_items() if k.lower() == name.lower()), "")
            return str(raw) if isinstance(raw, str) else ""

    ident = header("Message-ID").strip()
    m.message_id = ident if MSGID.fullmatch(ident) else ""
    try:
        address = email.utils.parseaddr(header("From"))[1]
    except Exception:  # noqa: BLE001
        address = ""
    m.sender = address.casefold() if _SANE_ADDRESS.fullmatch(address) else ""
    m.subject = header("Subject")
    try:
        when = header("Date")
        m.date = email.utils.parsedate_to_datetime(when).timestamp() if when else 0.0
    except (ValueError, TypeError, IndexError, OverflowError):
        m.date = 0.0
