"""A mail with attachments the referee did not read: its answer says so in one line, whatever
else it says, so that orders sent in a file are not lost without a word."""

from __future__ import annotations

from email.message import Message

ATTACHMENTS_UNREAD = ("Your mail's attachments were not read: orders go in the text of the "
                      "mail.")


def attachment_note(msg: Message | None) -> list[str]:
    """The answer's line for a message with a part sent as a file, or a forwarded message
    in it (neither is read: message.plain_body), else none."""
    if msg is None:
        return []
    try:
        for part in msg.walk():
            if part is msg or part.is_multipart():
                continue
            if part.get_content_disposition() == "attachment" or \
                    part.get_filename() is not None or part.get_content_maintype() == "message":
                return [ATTACHMENTS_UNREAD]
    except Exception:  # noqa: BLE001 - the email package raises many kinds on hostile mail
        return []
    return []
