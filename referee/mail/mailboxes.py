"""Reading a mailbox: every message of an mbox file, a Maildir or .eml files, with the
headers the referee goes by (sender, Message-ID, Date, subject) and its digests. A message
that cannot be read is one bad message, never the end of the run."""

from __future__ import annotations

import email.utils
import hashlib
import mailbox
import os
import re
import stat
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path

from ..base.addresses import address_key, reads_back
from ..base.errors import StorageError, UsageError, quoted
from ..base.glyphs import disguising
from ..store import home
from . import message as mailtext
from . import savedfolder
from .headers import header_block
from .sentorder import in_sent_order

MAX_MESSAGE = 1 << 20
HEAD_MOST = 64 << 10                # what is read of a message file over the limit: its header


@dataclass
class Message:
    """One message as read from the mailbox (raw and msg only while it is being handled)."""

    raw: bytes
    where: str
    msg: EmailMessage | None = None
    problem: str | None = None
    sha256: str = ""
    body_sha256: str = ""
    # Of its Date, Subject and text, line ends as LF (not its Message-ID): the same mail
    # sent again is known by it. older_content: the same, its line ends as they came (how
    # the digests of the mails applied before were made).
    content_sha256: str = ""
    older_content: str = ""
    message_id: str = ""
    sender: str = ""
    subject: str = ""
    date: float = 0.0
    order: int = 0
    loc: tuple | None = None          # where to read it again: (file,) or (mbox, key)
    unreadable: bool = False          # set aside: its bytes could not be read at all
    # A message file over the limit: its size, and its header block alone (to tell whose it
    # is: a player's is answered, a stranger's left to the moderator, neither read whole).
    oversize: int = 0
    head: bytes = b""
    older_sha256: list[str] = field(default_factory=list)  # what earlier versions knew it by
    # A Maildir file's size, times, inode and device as read: what a later pass compares
    # to know it again without reading it (tick, unclaimed.py).
    print: list | None = None

    def contents(self) -> list[str]:
        """The digests of its Date, Subject and text a copy of it is known by (none without
        a Date)."""
        return [c for c in dict.fromkeys((self.content_sha256, self.older_content)) if c]


def check_mailbox(source: str, option: str) -> None:
    """A mailbox on this machine as a route names it: there now, and one `tick` can read (an
    mbox file, empty or not, or a folder with cur/ or new/, a Maildir). UsageError naming
    it, so that a mistyped path is told when it is given, not at every pass after."""
    where = f"{option} {quoted(source)}"
    try:
        st = os.stat(source)
        if stat.S_ISDIR(st.st_mode):
            folders = [os.path.join(source, sub) for sub in ("new", "cur")
                       if os.path.isdir(os.path.join(source, sub))]
            if not folders:
                raise UsageError(f"{where}: a folder that is not a Maildir (no cur/ or new/)")
            for folder in folders:
                os.listdir(folder)
        elif stat.S_ISREG(st.st_mode):
            with open(source, "rb"):
                pass
        else:
            raise UsageError(f"{where}: neither an mbox file nor a Maildir")
    except (FileNotFoundError, NotADirectoryError):
        raise no_such_mailbox(where) from None
    except OSError as exc:
        raise UsageError(f"{where}: the mailbox cannot be read ({exc.strerror})") from None


def no_such_mailbox(where: str, files: bool = False) -> UsageError:
    """A mailbox typed that is not there: a usage error (exit 2), whichever command was given
    it (`new --mail-in`, `mail --in`, `inbox`), with the same words; files: the command also
    takes message files."""
    also = ", a message file" if files else ""
    return UsageError(f"{where}: no such mailbox; name an mbox file{also} or a Maildir that "
                      f"is there (an empty file is an mbox with no mail yet)")


def check_sources(sources: list[Path]) -> None:
    """The mailboxes and message files typed on `inbox`'s command line are there, and of a
    kind it reads (else the usage error `new --mail-in` gives, before anything is read); one
    there that cannot be read is the referee's to report as it reads it (StorageError)."""
    for src in sources:
        where = quoted(str(src))
        try:
            st = os.stat(src)
        except (FileNotFoundError, NotADirectoryError):
            raise no_such_mailbox(where, files=True) from None
        except OSError:
            continue            # there, and not to be read: told as it is read
        if stat.S_ISDIR(st.st_mode) and not any(
                os.path.isdir(os.path.join(src, sub)) for sub in ("new", "cur")):
            raise UsageError(f"{where}: a folder that is not a Maildir (no cur/ or new/)")
        if not stat.S_ISDIR(st.st_mode) and not stat.S_ISREG(st.st_mode):
            raise UsageError(f"{where}: neither an mbox file, a message file nor a Maildir")


def check_outbox_folder(target: str, option: str) -> None:
    """The folder of an `outbox:DIR` route as the route names it: a folder this user can
    write into, or none yet (the first pass makes it). UsageError naming it, so that a path
    that is no folder (a file, /dev/null) is told when it is given, not at every pass after."""
    where, folder = f"{option} {quoted(target)}", target.removeprefix("outbox:")
    if not os.path.lexists(folder):
        return
    if not os.path.isdir(folder):
        raise UsageError(f"{where}: not a folder; name a folder for the mails (the first pass "
                         f"makes one that is not there)")
    effective = os.access in os.supports_effective_ids
    if not os.access(folder, os.W_OK | os.X_OK, effective_ids=effective):
        raise UsageError(f"{where}: this user cannot write into that folder")


class Mailboxes:
    """Mailboxes read message by message: survey() keeps only each message's headers and
    digests (memory does not grow with the mailbox), load() reads one message again."""

    def __init__(self, sources: list[Path], known: dict[str, list] | None = None,
                 folders: bool = False):
        """known: Maildir files a pass already dealt with, by place, with the print each had
        then: one that still has it is passed over unread (its place goes to `passed`).
        folders: a folder that is no Maildir is read as a folder of saved mails
        (savedfolder.py), what in it is no mail file named in `skipped`."""
        self.sources = [Path(s) for s in sources]
        self.folders = folders
        self.skipped: list[str] = []
        self._mboxes: dict[str, mailbox.mbox] = {}
        self.known = known or {}
        self.passed: list[str] = []

    def survey(self) -> list[Message]:
        """Every message, its bytes dropped once read, in the order sent (sentorder.py;
        StorageError when a mailbox cannot be read; one that cannot be read is set aside)."""
        out: list[Message] = []
        for src in self.sources:
            try:
                for m in self._messages(src):
                    m.order = len(out)
                    _read_message(m, parse=m.loc is None)
                    if m.loc is not None:       # read again, its headers too, when loaded
                        m.raw, m.msg, m.subject = b"", None, ""
                    out.append(m)
            except (OSError, mailbox.Error) as exc:
                raise StorageError(f"{src}: the mailbox cannot be read ({exc})") from None
        return in_sent_order(out)

    def load(self, m: Message, parse: bool = True) -> Message:
        """m with its bytes and (unless parse is False) parsed message back (set aside when
        they changed or went)."""
        if m.loc is None or m.unreadable:
            return m
        try:
            raw = self._bytes(m.loc, m.where)
        except (OSError, mailbox.Error, KeyError, StorageError) as exc:
            return _set_aside(m, str(exc))
        if hashlib.sha256(raw).hexdigest() != m.sha256:
            return _set_aside(m, "it changed while the mailbox was read")
        m.raw, m.msg = raw, None
        _read_message(m, parse)
        return m

    def release(self, m: Message) -> None:
        """Drop m's bytes again (it has been handled)."""
        if m.loc is not None:
            m.raw, m.msg = b"", None

    def _messages(self, src: Path):
        if src.is_dir():
            if not (src / "cur").is_dir() and not (src / "new").is_dir() and self.folders:
                for path, where in savedfolder.mail_files(src, self.skipped):
                    yield from _entry(path, where)
                return
            if not (src / "cur").is_dir() and not (src / "new").is_dir():
                raise StorageError(f"{src}: a folder that is not a Maildir (no cur/ or new/)")
            # Each file is read as the referee reads any named file: a regular file, never
            # through a FIFO or a device, and never more than the limit.
            for sub in ("new", "cur"):
                folder = src / sub
                names = sorted(os.listdir(folder)) if folder.is_dir() else []
                for n in names:
                    if not n.startswith("."):
                        yield from self._unless_known(folder / n, f"{src}:{sub}/{n}")
        elif src.is_file():
            with open(src, "rb") as fh:
                head = fh.read(5)
            if not head:
                return      # an mbox a mail program has emptied: no message in it
            if head == b"From ":
                yield from self._mbox_messages(src)
            else:
                yield from _entry(src, str(src))
        else:
            raise StorageError(f"{src}: " + ("not a regular file or folder" if src.exists()
                                             else "no such mailbox or message file"))

    def _unless_known(self, path: Path, where: str):
        """The message of a Maildir file, unless it is one known as it was."""
        if where in self.known and self.known[where] == home.file_print(path):
            self.passed.append(where)
            return
        yield from _entry(path, where)

    def _mbox_messages(self, src: Path):
        box = self._mboxes.setdefault(str(src), mailbox.mbox(str(src), create=False))
        keys = box.keys()                   # reads the table of contents
        toc = getattr(box, "_toc", None)
        for i, k in enumerate(keys):
            where, loc = f"{src}#{i + 1}", (str(src), k)
            start, stop = toc.get(k, (0, 0)) if isinstance(toc, dict) else (0, 0)
            size, head = _mbox_measure(src, start, stop) if stop - start > MAX_MESSAGE \
                else (0, b"")
            if size > MAX_MESSAGE:      # as a Maildir file over it: its header only
                yield Message(b"", where, problem=f"the message is {size} bytes, over the "
                                                  f"limit of {MAX_MESSAGE} bytes",
                              oversize=size, head=head)
                continue
            yield Message(box.get_bytes(k, from_=False), where, loc=loc)

    def _bytes(self, loc: tuple, where: str) -> bytes:
        if len(loc) == 2:
            return self._mboxes[loc[0]].get_bytes(loc[1], from_=False)
        m = _one_file(Path(loc[0]), where)
        if m is None or m.problem is not None:
            raise StorageError(m.problem if m is not None else "no longer a message")
        return m.raw


def _entry(path: Path, where: str):
    """The message one file holds, or one set aside when it cannot be read (nothing for a
    folder inside a Maildir)."""
    try:
        m = _one_file(path, where)
    except StorageError as exc:
        yield Message(b"", where, problem=str(exc), unreadable=True)
        return
    if m is not None:
        if m.problem is None:
            m.loc = (str(path),)
        yield m


def _set_aside(m: Message, why: str) -> Message:
    m.raw, m.msg, m.unreadable = b"", None, True
    m.problem = f"{m.where}: cannot be read ({why})" if not why.startswith(m.where) else why
    return m


def _read_message(m: Message, parse: bool = True) -> None:
    """The digests, parsed message (unless parse is False: its headers only, read again
    when it is loaded) and headers of a message just read."""
    if m.raw or not m.oversize:
        m.sha256 = hashlib.sha256(m.raw).hexdigest()
        m.body_sha256 = hashlib.sha256(_after_headers(m.raw)).hexdigest()
    else:                       # none of its text read: its header tells it from the others
        m.sha256, *m.older_sha256 = oversize_digests(m.head)
        m.body_sha256 = m.sha256
    if m.problem is None and parse:
        _parse(m)
    if not m.unreadable:
        _read_headers(m)
        # Without a Date, a new mail in the same words could not be told from a copy, nor
        # without its text (one over the limit). The text is taken with its line ends as
        # LF: a relay or an IMAP server may have made them CRLF.
        if m.date and m.raw:
            text = hashlib.sha256(_ends_as_lf(_after_headers(m.raw))).hexdigest()
            m.content_sha256, m.older_content = (hashlib.sha256(
                f"{m.date!r}\n{m.subject}\n{body}".encode("utf-8", "replace")).hexdigest()
                for body in (text, m.body_sha256))
        else:
            m.content_sha256 = m.older_content = ""


def oversize_digests(head: bytes) -> list[str]:
    """What a message over the limit is known by, its bytes unread: its Message-ID and its
    sender (a mail program that marks it read rewrites its header, not those; another
    sender's message under that Message-ID is another message), or its header block when it
    has no Message-ID; then the header block's digest, which earlier versions knew it by."""
    block = hashlib.sha256(b"oversize\n" + head).hexdigest()
    try:
        parsed = header_block(head)
        ident = mailtext.header_text(parsed, "Message-ID").strip()
        sender = address_key(mailtext.sender_address(parsed))
    except Exception:  # noqa: BLE001 - the email package raises many kinds on hostile mail
        ident = sender = ""
    if not MSGID.fullmatch(ident):
        return [block]
    said = f"oversize\n{ident}\n{sender}".encode("utf-8", "replace")
    return [hashlib.sha256(said).hexdigest(), block]


def told_identity(m: Message) -> str:
    """What tells a message of an mbox from another that later takes its place (#N), a mail
    program's marks in its header (Status:) left out: its Message-ID and text."""
    return f"{m.message_id}\n{m.body_sha256 if m.raw else oversize_digests(m.head)[0]}"


# How the why of a message over the limit ends: its answer says this and nothing more.
NONE_READ = "so none of it was read; send your orders as plain text, without attachments"


def too_large_refusal(size: int) -> str:
    """Why a message over the limit, answered from its header, was not read."""
    return (f"it is {size / (1 << 20):.1f} MB, over the {MAX_MESSAGE >> 20} MB the referee "
            f"reads (an attachment, a photo?), {NONE_READ}")


def _parse(m: Message) -> None:
    try:
        m.msg = mailtext.parse_message(m.raw, MAX_MESSAGE)
    except (mailtext.MailError, ValueError, TypeError, IndexError, RecursionError,
            LookupError) as exc:
        m.problem = f"the message cannot be read ({type(exc).__name__}: {exc})"


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
    printed = home.print_of(info)
    if stat.S_ISREG(info.st_mode) and info.st_size > MAX_MESSAGE:
        return Message(b"", where, problem=f"the message is {info.st_size} bytes, over the "
                                           f"limit of {MAX_MESSAGE} bytes",
                       oversize=info.st_size, head=_header_block(path), print=printed)
    try:
        return Message(home.read_named(path, "a message", MAX_MESSAGE), where, print=printed)
    except UsageError as exc:
        raise StorageError(str(exc).removeprefix("referee: ")) from None


def _header_block(path: Path) -> bytes:
    """The header block of a message file (at most HEAD_MOST bytes of its start, read as any
    named file is: never through a FIFO); empty when it cannot be read."""
    return _to_first_blank_line(_bytes_at(path, 0))


def _mbox_measure(src: Path, start: int, stop: int) -> tuple[int, bytes]:
    """The size of the mbox message whose From_ line begins at start (its own bytes, that
    line left out, as a Maildir file's size counts them) and its header block."""
    first = _bytes_at(src, start)
    line, _, rest = first.partition(b"\n") if first.startswith(b"From ") else (b"", b"", first)
    return stop - start - (len(line) + 1 if line else 0), _to_first_blank_line(rest)


def _bytes_at(path: Path, offset: int) -> bytes:
    """At most HEAD_MOST bytes of a file from offset, read as any named file is: never
    through a FIFO or a device (b"" then, or when it cannot be read): an mbox read again
    after its messages were counted may have been replaced by one."""
    import stat

    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return b""
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return b""
        os.lseek(fd, offset, os.SEEK_SET)
        return os.read(fd, HEAD_MOST)
    except OSError:
        return b""
    finally:
        os.close(fd)


def _to_first_blank_line(start: bytes) -> bytes:
    ends = [at + len(blank) for blank in (b"\r\n\r\n", b"\n\n")
            if (at := start.find(blank)) >= 0]
    return start[:min(ends)] if ends else start


def _ends_as_lf(text: bytes) -> bytes:
    return text.replace(b"\r\n", b"\n").replace(b"\r", b"\n")


def _after_headers(raw: bytes) -> bytes:
    """The body bytes of a raw message: what stays the same when a relay adds headers."""
    cut = [i for i in (raw.find(b"\r\n\r\n"), raw.find(b"\n\n")) if i >= 0]
    return raw[min(cut):].strip() if cut else raw


MSGID = re.compile(r"<[\x21-\x3b\x3d\x3f-\x7e]{1,250}>")
# An address as a sender may have it: printable, no space or '@' but the one, letters beyond
# ASCII allowed (RFC 6531: jörg@exämple.de); nothing that could hide (base/glyphs.py); and
# one that a reply's To header carries as itself (base/addresses.py: an encoded word in it
# would be decoded again, into a line end that no mail can be written to, or a second
# address).
_SANE_ADDRESS = re.compile(r"[^\s@\x00-\x1f\x7f<>()\[\]\\,;:\"]{1,64}@"
                           r"[^\s@\x00-\x1f\x7f<>()\[\]\\,;:\"]{1,190}")


def _read_headers(m: Message) -> None:
    """Message-ID, sender, subject and date, each read on its own: a broken header loses
    only itself. A Message-ID that is not one plain <...> token is treated as none."""
    msg = m.msg
    if msg is None:
        try:
            msg = header_block((m.raw or m.head)[:65536])  # one over the limit: its header block
        except Exception:  # noqa: BLE001 - a header block nothing can read: no headers
            return

    def header(name: str) -> str:
        return mailtext.header_text(msg, name)

    ident = header("Message-ID").strip()
    m.message_id = ident if MSGID.fullmatch(ident) else ""
    address = mailtext.sender_address(msg)
    # Its ASCII letters in lower case, nothing else folded (base/addresses.py).
    m.sender = address_key(address) if _SANE_ADDRESS.fullmatch(address) and \
        disguising(address) is None and reads_back(address) else ""
    m.subject = header("Subject")
    try:
        when = header("Date")
        m.date = email.utils.parsedate_to_datetime(when).timestamp() if when else 0.0
    except (ValueError, TypeError, IndexError, OverflowError):
        m.date = 0.0
