"""Whether an email address is written to as itself.

A mail program reads a To header by RFC 5322 and RFC 2047, not as plain text: an encoded
word (=?utf-8?q?...?=) in an address is decoded again when the address is set as a header,
into a line end (no mail can then be written to it) or a comma and a second address; a
comment in parentheses is dropped. An address the referee keeps, or answers, is one that
comes back unchanged from a To header: the address checked is the address mailed.

Two addresses are one mailbox when they are the same once trimmed and their ASCII letters
are put in lower case (address_key), and only then: nothing else is folded. str.lower()
maps letters beyond ASCII onto ASCII ones (the Kelvin sign U+212A lowers to k), and
str.casefold() more of them (ß to ss, the long s ſ to s), so a stranger writing from
kaiſer@, or from Kaiser@ with a Kelvin sign, would pass for kaiser@; straße@ and strasse@
are two mailboxes too.
"""

from __future__ import annotations

import re
import string

ENCODED_WORD = "=?"
# RFC 5322's dot-atom on both sides of the '@', without '=' and '?' (no encoded word can
# begin): such an address comes back from a header as it is, with nothing to work out.
_PLAIN = re.compile(r"[A-Za-z0-9!#$%&'*+/^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/^_`{|}~-]+)*"
                    r"@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*")
_ASCII_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)


def address_key(address: str) -> str:
    """The address as it is compared with another, and as what it is counted or kept by:
    trimmed, its ASCII letters in lower case and nothing else changed (the module's note).
    For an address in ASCII this is address.strip().lower()."""
    return address.strip().translate(_ASCII_LOWER)


def reads_back(address: str) -> bool:
    """True when `address`, set as a mail's To, is that one address and nothing else."""
    if _PLAIN.fullmatch(address):
        return True
    if ENCODED_WORD in address:
        return False
    # Imported here: only the commands that take or answer an address need the package.
    from email.message import EmailMessage

    msg = EmailMessage()
    try:
        msg["To"] = address
        found = msg["To"].addresses
    except Exception:  # noqa: BLE001 - the email package raises many kinds on such text
        return False
    return len(found) == 1 and found[0].addr_spec == address
