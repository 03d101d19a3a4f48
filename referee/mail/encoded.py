"""The pictures of a referee's mail, attached as the email package attaches them (image/png,
base64 in lines of the policy's length), but written into the mail's bytes whole: the
package encodes a picture a line at a time and writes it out a line at a time, and a pass
attaches the same map to the mail of each side shown it (render/sharedmaps.py). Each part
is attached holding a stand-in of its own (48 random bytes: one line of base64, found once
in the mail written, or the mail is written as the package writes it), whose line the
picture's text then takes, encoded once for the mails that carry it."""

from __future__ import annotations

import binascii
import secrets
from collections.abc import Callable
from email.message import EmailMessage

Swaps = list[tuple[bytes, bytes]]
KEPT = 4                    # the pictures whose text is kept (a pass's map and close-up)
_TEXTS: dict[tuple[bytes, int], bytes] = {}


def attach(msg: EmailMessage, pictures: list[tuple[str, bytes]]) -> Swaps:
    """Attach each (file name, bytes) as a PNG holding a stand-in; the stand-ins' lines
    and the pictures' text to put in their place (put_in)."""
    swaps = []
    for file, picture in pictures:
        stand_in = secrets.token_bytes(48)
        msg.add_attachment(stand_in, maintype="image", subtype="png", filename=file)
        swaps.append((binascii.b2a_base64(stand_in),
                      base64_text(picture, msg.policy.max_line_length // 4 * 3)))
    return swaps


def put_in(written: bytes, swaps: Swaps, again: Callable[[], bytes]) -> bytes:
    """The mail written with its stand-ins, each picture's text in place of its line; a
    stand-in not found once in it (the mail's text could hold one by chance): again(), the
    mail written with the pictures themselves."""
    if any(written.count(line) != 1 for line, _ in swaps):
        return again()
    for line, text in swaps:
        written = written.replace(line, text, 1)
    return written


def base64_text(picture: bytes, per_line: int) -> bytes:
    """The picture in base64, per_line bytes to a line, each ended by a newline: what the
    email package makes of it (contentmanager's set_bytes_content), as it writes it out
    (its newlines the policy's, here the default's); kept for the next mail."""
    key = (picture, per_line)
    if key not in _TEXTS:
        if len(_TEXTS) >= KEPT:
            _TEXTS.pop(next(iter(_TEXTS)))
        _TEXTS[key] = b"".join(binascii.b2a_base64(picture[at:at + per_line])
                               for at in range(0, len(picture), per_line))
    return _TEXTS[key]
