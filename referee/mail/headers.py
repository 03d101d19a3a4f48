"""How the referee reads the headers of a message it is sent: the policy a message is read
with (bounded: no header, nor all of them, read past what the email package reads in good
time), the error a message that cannot be read raises, and a header block read alone from
a message's first bytes (a message over the size limit, one that cannot be read whole, a
mail of the referee's own in the spool). message.py reads whole messages with the same
policy."""

from __future__ import annotations

import email.headerregistry
import email.policy
from email.message import EmailMessage
from email.parser import BytesHeaderParser


class MailError(ValueError):
    """A message that cannot be read: too big, no text part, an unknown charset."""


# The most of a header, as sent, that is read: one sender and his name, a Content-Type
# with its few parameters, many times over; and the most of all a message's headers. The
# email package's reading of a header grows with the square of its length, or worse: a
# From of thousands of addresses, a Content-Type of 20,000 comments (26 s) or a Subject of
# 60,000 encoded words (24 GB), which anyone can send under the size limit; a header of
# 2,048 characters takes it up to 12 ms, and a message may have hundreds of parts. A
# longer header is read as empty; a message whose headers read run past HEADERS_MOST is
# not read.
HEADER_MOST = 2048
HEADERS_MOST = 32 * 1024


# What a header too long to read is read as: a part whose type or disposition cannot be
# read is no text a player wrote (an attachment's RFC 2231 name of 250 letters beyond ASCII
# runs over HEADER_MOST in both), any other header as absent.
_UNREAD = {"content-type": "application/octet-stream", "content-disposition": "attachment"}


class _Bounded(email.policy.EmailPolicy):
    """The standard library's current policy, for one message: a header longer than
    HEADER_MOST characters as sent is read as _UNREAD says, never handed to the package's
    parser; the first header that takes what is read of the message past HEADERS_MOST
    raises MailError; each header is read once (the package reads a part's Content-Type
    again for each thing asked of it)."""

    def header_fetch_parse(self, name, value):
        if not isinstance(value, str):
            return super().header_fetch_parse(name, value)
        read = self.__dict__["_read"]
        key = (name.lower(), value)
        if key not in read:
            if len(value) > HEADER_MOST:
                value = _UNREAD.get(key[0], "")
            spent = read.get(None, 0) + len(value)
            if spent > HEADERS_MOST:
                raise MailError(f"the message's headers run over {HEADERS_MOST} characters")
            read[None] = spent
            read[key] = super().header_fetch_parse(name, value)
        return read[key]


class _Kinds(email.headerregistry.HeaderRegistry):
    """The package's header kinds, each class made once: the package makes a new class at
    every header it reads, which only the garbage collector takes back (a class holds
    itself), so a pass over many mails held thousands at once. The class depends on the kind
    alone, so there are as many as the registry has kinds, whatever names the mail uses."""

    def __init__(self):
        super().__init__()
        self.made: dict[type, type] = {}

    def __getitem__(self, name):
        kind = self.registry.get(name.lower(), self.default_class)
        made = self.made.get(kind)
        if made is None:
            made = self.made[kind] = super().__getitem__(name)
        return made


_KINDS = _Kinds()


def reading_policy() -> email.policy.EmailPolicy:
    """The policy one message the referee is sent is read with (_Bounded)."""
    policy = _Bounded(header_factory=_KINDS)
    object.__setattr__(policy, "_read", {})
    return policy


def header_block(first: bytes, policy: email.policy.EmailPolicy | None = None) -> EmailMessage:
    """The header block of a message from its first bytes (as many as the caller reads),
    read with policy, else with a fresh reading_policy(); the email package's errors pass
    through to the caller."""
    policy = reading_policy() if policy is None else policy
    return BytesHeaderParser(policy=policy).parsebytes(first)
