"""Whether a message's From names one sender as every mail program reads it.

The address the referee answers and compares with a side's is the From's address as the
email package reads it (message.sender_address), but a mail program may read the same
header as someone else: it shows a display name that is itself an address ("hans@x" <evil@y>,
or hans@x with evil@y in a comment, which the package takes for the name) as the sender,
reads an address written as a name before another (hans@x <evil@y>) as either (before
itself, hans@x <hans@x>, as his), answers every address of a From that has two, and
decodes an encoded word (=?utf-8?q?hans=40x?=) into an address the sender never wrote as
one. Such a From names no sender: its message is taken for
nobody's (docs/security.md), as an address with a comment or an encoded word in it is
(base/addresses.py reads_back).
"""

from __future__ import annotations

import email.header
import re

from ..base.addresses import address_key

# Something a reader takes for an address: a word with an '@' between two others.
_ADDRESS_LIKE = re.compile(r"[^\s<>()\[\]\"',;:@]+@[^\s<>()\[\]\"',;:@]+")
_ENCODED = re.compile(r"=\?[^?\s]+\?[QqBb]\?[^?\s]*\?=")


def one_sender(raw: str, name: str, address: str) -> bool:
    """Whether a From (raw: as sent, encoded words and all; name and address: as the email
    package reads it, decoded) names one sender and no other: no encoded word that decodes
    to an address, and nothing anywhere in it, name, comment or a second address, that reads
    as an address other than his. The raw header is read for what a reader takes for an
    address, not parsed: how the email package splits a hostile From into addresses differs
    between Python's releases (a strict one returns none at all for hans@x <evil@y>)."""
    # a byte that is no text, kept as a lone surrogate, reads as U+FFFD, as in the address
    raw = re.sub(r"\r?\n", "", raw).encode("utf-8", "surrogateescape").decode("utf-8",
                                                                            "replace")
    if any(_ADDRESS_LIKE.search(_decoded(word)) for word in _ENCODED.findall(raw)):
        return False
    # read with its encoded words decoded, as a mail program shows it: the email package
    # writes straße@x as =?utf-8?q?stra=C3=9Fe?=@x, his address all the same
    shown = _ENCODED.sub(lambda word: _decoded(word.group()), raw)
    mine = address_key(address)
    return bool(mine) and all(address_key(other) == mine for said in (shown, name)
                              for other in _ADDRESS_LIKE.findall(said))


def _decoded(word: str) -> str:
    """An encoded word's text ("" when it cannot be decoded)."""
    try:
        (text, charset), = email.header.decode_header(word)
        return text.decode(charset or "ascii", "replace") if isinstance(text, bytes) else text
    except Exception:  # noqa: BLE001 - an unknown charset, broken base64, ...
        return ""
