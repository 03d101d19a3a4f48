"""`verify --receipt MAILBOX`: the receipts a player's saved mail holds, read from an mbox
file, a Maildir folder, a folder of saved mails (savedfolder.py: each file one message) or
one saved mail (told by what is there, not by its name).

The mailbox is read as the referee reads any mailbox (mailboxes.py): message by message,
each bounded, one that cannot be read (or is over the limit) skipped and counted. Of each
message only its text is read (message.plain_body: its first text part that is not an
attachment; a forwarded or attached message is not opened); nothing in it is followed or
run. A receipt is taken only from a mail of the referee's (its Message-ID is one the
referee writes, `<…@referee.invalid>`: a player's reply, a forward, another sender's mail
have their own), only from lines not quoted (a `>` line is a reply's quote, whoever sent
it), only the last one of the mail (the referee ends every mail with its receipt: a line
of a player's that a reply quotes back, or his words a report shows, come before it), and
only when it names the journal's game: a game id is the moderator's to choose, and a mail
of another game made under the same id (another record 0, another key: thisgame.py) is
set aside and counted when the mailbox holds mails of this game. The same receipt in
several mails (two mails at the same record, a mail saved twice) is checked once; every
mail passed over is counted by why, so the player sees what was read.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path

from ..base.errors import RefereeError, StorageError, UsageError, quoted
from ..game.receipts import KEY_LABEL, LABEL, parse_receipt
from ..game.signedreceipt import LABEL as SIGNED_LABEL
from . import message as mailtext
from .mailboxes import Mailboxes
from .msgids import DOMAIN
from .thisgame import ThisGame

_QUOTED = re.compile(r"^\s*>")
_GO_ON = re.compile(r"^\s*[0-9]{1,9}:[0-9a-fA-F]+\s*$")    # SEQ:HASH under a long game id
_SIGNS = re.compile(r"^\s+[A-Za-z0-9_-]+\s*$")             # a line of the Signed block
_NAME = "name an mbox file, a Maildir folder, a folder of saved mails or one saved mail"


@dataclass
class BoxRead:
    """What one mailbox gave: the receipts of the game to check (each once, as the mail
    holds it), and how many mails were read and passed over, by why."""

    where: str
    receipts: list[str] = field(default_factory=list)
    mails: int = 0              # messages read
    damaged: int = 0            # messages that could not be read (or over the limit): skipped
    not_files: int = 0          # in a folder of saved mails: FIFOs, devices, links out of it
    not_referee: int = 0        # not a mail of the referee's (a reply, another sender's)
    no_receipt: int = 0         # the referee's, with no receipt outside quoted lines
    other_game: int = 0         # the referee's, with a receipt of another game
    same_id: int = 0            # of another game made under the same id (thisgame.py)
    bad_receipt: int = 0        # the referee's, its last receipt not one that reads
    of_game: int = 0            # mails that carry a receipt of the game
    duplicates: int = 0         # receipts already taken from another mail
    seen: set = field(default_factory=set, repr=False)     # the receipts taken, as read

    def line(self, game: str) -> str:
        """What verify prints of it, beside its receipts line."""
        passed = [f"{n} {what}" for n, what in (
            (self.not_referee, "not the referee's (replies, other senders)"),
            (self.other_game, "of other games"),
            (self.same_id, "of another game with the same id (another record 0 and key: "
                           "not checked)"),
            (self.no_receipt, "without a receipt"),
            (self.bad_receipt, "with a receipt that does not read as one"),
            (self.damaged, "damaged or too large to read"),
            (self.not_files, "not mail files (FIFOs, devices, links out of the folder)"))
            if n]
        said = f"; passed over: {', '.join(passed)}" if passed else ""
        twice = f" ({self.duplicates} already in another mail)" if self.duplicates else ""
        return (f"mailbox {self.where}: {_count(self.mails, 'mail')} read, {self.of_game} "
                f"with a receipt of game {game}, {_count(len(self.receipts), 'receipt')} "
                f"checked{twice}{said}")

    def json(self) -> dict:
        """The same as fields (contracts: VerifyResult.mailboxes)."""
        return {"mailbox": self.where, "mails": self.mails, "of_game": self.of_game,
                "checked": len(self.receipts), "duplicates": self.duplicates,
                "not_referee": self.not_referee, "other_game": self.other_game,
                "same_id": self.same_id,
                "no_receipt": self.no_receipt, "bad_receipt": self.bad_receipt,
                "damaged": self.damaged, "not_files": self.not_files}


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"


def is_mailbox(item: str) -> bool:
    """Whether a --receipt value names a file or folder (a mailbox or a saved mail) rather
    than a receipt pasted: a receipt never names something that is there."""
    return os.path.lexists(item)


def read_mailbox(item: str, game_id: str, this: ThisGame | None = None) -> BoxRead:
    """Every receipt of game game_id the referee's mails in the mailbox `item` carry; with
    `this`, those of another game made under the same id are set aside when the mailbox
    holds mails of this one (thisgame.py). UsageError (exit 2) when it cannot be read, or
    holds none: a mailbox that gives no receipt of the game checks nothing, and is most
    likely not the one meant."""
    _file_or_folder(item)
    game = " ".join(game_id.split())
    box, aside = BoxRead(item), BoxRead(item)
    boxes = Mailboxes([Path(item)], folders=True)
    try:
        surveyed = boxes.survey()
    except (StorageError, UsageError) as exc:
        raise UsageError(f"--receipt {quoted(item)}: not a mailbox that can be read "
                         f"({_said(exc)}); {_NAME}") from None
    box.not_files = len(boxes.skipped)
    for m in surveyed:
        box.mails += 1
        if m.problem is None and not m.unreadable:
            m = boxes.load(m)
        try:
            _take(box, m, game, this, aside)
        finally:
            boxes.release(m)
    if box.of_game:
        box.same_id = aside.of_game
    else:       # none of this game's: the journal rewritten from its start, or not the box
        box.of_game, box.duplicates, box.receipts = aside.of_game, aside.duplicates, \
            aside.receipts
    if not box.receipts:
        raise UsageError(f"--receipt {quoted(item)}: {box.line(game)}: no mail in it carries "
                         f"a receipt of game {game} (the referee's mails end with one)")
    return box


def _file_or_folder(item: str) -> None:
    """Refuse (UsageError) a --receipt that names something there that is no file or folder
    (a FIFO, a device such as /dev/zero, /dev/stdin on a pipe): never read, and not told as
    missing, which it is not."""
    try:
        mode = os.stat(item).st_mode
    except OSError:
        return                  # not there (a link to nothing): the mailbox reader says so
    if stat.S_ISDIR(mode) or stat.S_ISREG(mode):
        return
    kind = ("a FIFO" if stat.S_ISFIFO(mode) else
            "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else
            "a socket" if stat.S_ISSOCK(mode) else "not a file")
    raise UsageError(f"--receipt {quoted(item)}: not a regular file or folder ({kind}), so "
                     f"not read; {_NAME}")


def _said(exc: RefereeError) -> str:
    return str(exc).removeprefix("referee: ")


def _take(box: BoxRead, m, game: str, this: ThisGame | None, aside: BoxRead) -> None:
    """One message: its receipts of the game, or why it was passed over; one of another
    game made under the same id goes to `aside`."""
    if m.problem is not None or m.unreadable or m.msg is None:
        box.damaged += 1
        return
    if not m.message_id.lower().endswith(f"@{DOMAIN}>"):
        box.not_referee += 1
        return
    try:
        text = mailtext.plain_body(m.msg)
    except (mailtext.MailError, ValueError, TypeError, LookupError, RecursionError):
        box.damaged += 1
        return
    blocks = receipt_blocks(text)
    if not blocks:
        box.no_receipt += 1
        return
    try:
        receipt = parse_receipt(blocks[-1])
    except UsageError:
        box.bad_receipt += 1
        return
    if receipt.game != game:
        box.other_game += 1
        return
    if this is not None and not this.holds(receipt):
        box = aside
    box.of_game += 1
    if receipt in box.seen:
        box.duplicates += 1
    else:
        box.seen.add(receipt)
        box.receipts.append(blocks[-1])


def receipt_blocks(text: str) -> list[str]:
    """Each receipt in a mail's text as the referee writes it, with the key line and the
    Signed lines above it and SEQ:HASH under it when a long game id put it there; quoted
    ('>') lines are never part of one."""
    lines = [("" if _QUOTED.match(line) else line) for line in text.split("\n")]
    out = []
    for i, line in enumerate(lines):
        if not line.strip()[:len(LABEL)].casefold() == LABEL.casefold():
            continue
        block = [line.strip()]
        if i + 1 < len(lines) and _GO_ON.match(lines[i + 1]):
            block.append(lines[i + 1].strip())
        at = i
        while at > 0 and _SIGNS.match(lines[at - 1]):
            at -= 1
        if at < i and at > 0 and lines[at - 1].strip().casefold() == SIGNED_LABEL.casefold():
            block[:0] = [lines[at - 1].strip(), *(s.strip() for s in lines[at:i])]
            at -= 1
        else:
            at = i
        if at > 0 and lines[at - 1].strip()[:len(KEY_LABEL)].casefold() == \
                KEY_LABEL.casefold():
            block.insert(0, lines[at - 1].strip())
        out.append("\n".join(block))
    return out
