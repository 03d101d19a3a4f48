"""Which record the referee's mail a player's reply answers ended at (for the stale check,
handling.py): read from the Message-ID of that mail, which the reply names in In-Reply-To
and References, believed only when its mark checks out for the reply's sender (msgids.py):
nobody can make one for an address he does not read, and one he quotes from another's mail
is ignored. The Message-ID names the record by number and by the first digits of its hash,
so that a mail of a history the moderator set back is not taken for the record of that
number written since (one an earlier version wrote names the number alone). Failing that,
the record a subject of an earlier version names, `[referee GAME #N]` (its mails are still
in players' inboxes; by number alone); failing that, none (no stale check). stale_reply
says why such a reply is stale, in the words a campaign and a skirmish both give."""

from __future__ import annotations

import email.header
import re
from collections.abc import Callable
from email.message import Message

from ..base.gameids import REFEREE_TAG
from .lostrecord import lost_reply
from .msgids import Answered, last_marked_ids, marked_ids, record_of

# The end of a References header read: the answered mail is named last, and a long thread's
# header is cut to its last ids (RFC 5322 3.6.4 lets a client drop the middle ones).
REFERENCES_TAIL = 8192


def answered_record(msg: Message | None, sender: str, subject: str, game_id: str
                    ) -> Answered | None:
    """The record the mail a reply answers ended at (its number, and its hash's first
    digits when the Message-ID names them), or None: its In-Reply-To, then its References
    from the last, the first Message-ID of this referee's naming a record of game_id made
    for sender; else the record its subject's tag names."""
    for ident in _answered_ids(msg) if msg is not None and sender else []:
        found = record_of(ident, sender, game_id)
        if found is not None:
            return found
    return subject_record(subject, game_id)


def subject_record(subject: str, game_id: str) -> Answered | None:
    """The record a subject's tag of an earlier version names for game_id ([referee GAME
    #N], by number alone), or None (no tag, or one without its record, as this version
    writes them)."""
    for m in REFEREE_TAG.finditer(subject):
        if m.group(2) is not None and m.group(1).casefold() == game_id.casefold():
            return Answered(int(m.group(2)))
    return None


def _answered_ids(msg: Message) -> list[str]:
    """The referee's Message-IDs a reply names: In-Reply-To's, then References' from the
    last (each header as sent, its end only for References, read decoded)."""
    replying = marked_ids(_decoded(_raw_header(msg, "In-Reply-To")[:REFERENCES_TAIL]))
    return replying + last_marked_ids(
        _decoded(_raw_header(msg, "References")[-REFERENCES_TAIL:]))


def _raw_header(msg: Message, name: str) -> str:
    """Every value of a header, joined, as sent ("" for none, or one that is no text)."""
    try:
        values = [v for k, v in msg.raw_items() if k.lower() == name.lower()]
    except Exception:  # noqa: BLE001 - the email package raises many kinds on hostile mail
        return ""
    return " ".join(v for v in values if isinstance(v, str))


# An RFC 2047 encoded word: =?charset?encoding?text?= (its charset may carry *language).
_WORD = re.compile(r"=\?[^?\s]+\?[bBqQ]\?[^?\s]*\?=")


def _decoded(text: str) -> str:
    """A header's text with its RFC 2047 encoded words decoded: a mail program folding a
    long Message-ID it cannot break (Python's email package, the referee's own ids among
    them) writes it as =?utf-8?q?=3Crec=2E...?=. What it decodes to is only ever read as
    the text sent is: an id in it counts only when its mark checks out for the reply's
    sender and its game (record_of), so no encoding makes one of another game or reader.
    Each word is decoded on its own, the space between two decoded words dropped (RFC 2047
    6.2); a word that cannot be decoded (an unknown charset, a broken word) is kept as sent,
    so that it does not hide a good word beside it. text: already bounded by its caller."""
    if "=?" not in text:
        return text
    out, end, joined = [], 0, False
    for m in _WORD.finditer(text):
        between = text[end:m.start()]
        word = _word(m.group(0))
        out.append("" if joined and word is not None and not between.strip() else between)
        out.append(m.group(0) if word is None else word)
        end, joined = m.end(), word is not None
    return "".join(out) + text[end:]


def _word(word: str) -> str | None:
    """One encoded word decoded, or None when it cannot be."""
    try:
        parts = email.header.decode_header(word)
        return "".join(p.decode(c or "ascii", "replace") if isinstance(p, bytes) else p
                       for p, c in parts)
    except Exception:  # noqa: BLE001 - an unknown charset, a broken word: kept as sent
        return None


def stale_reply(answered: Answered | None, records: list[dict], last: int,
                changed: Callable[[int], bool], step_at: Callable[[int], str]) -> str | None:
    """Why a reply to an older mail (the one that ended at record answered; None: not
    known) is stale, or None: once changed(seq) says the writer's decision has changed since
    record seq, or the record it names is another since the moderator set the journal back
    and play went on (its decision may be the same kind by chance: the board he answered is
    gone), whatever the ledger says: a lost ledger must not revive an old message. last:
    the game's last record. step_at(seq): the turn and step the mail of record seq named
    (kind.step_at), by which its writer knows it; the record, for the moderator, after."""
    if answered is None:
        return None
    seq = answered.seq
    lost = lost_reply(records, seq, answered.hash) if seq > last or \
        not answered.is_of(records[seq]) else None
    if lost:
        return lost
    if seq > last:
        return (f"it answers record {seq}, which the game has not reached (it is at record "
                f"{last}); reply to the latest mail")
    if not answered.is_of(records[seq]):
        return (f"it answers a mail of record {seq} written before the moderator set the "
                f"game back, and record {seq} is another one now; reply to the latest mail")
    if seq < last and changed(seq):
        return (f"it answers {mail_of(step_at, seq)}, and your decision has changed since "
                f"(the game is at record {last}); reply to the latest mail")
    return None


def mail_of(step_at: Callable[[int], str], seq: int) -> str:
    """The referee's mail of record seq as a stale reply's answer names it: by the turn and
    step it named, as its writer knows his mails, its record in brackets for the moderator."""
    return f"your mail of {step_at(seq)} (record {seq})"
