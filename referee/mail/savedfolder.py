"""A folder of saved mails (.eml files, as many mail programs save mail), not a Maildir:
each file in it one message. Only `verify --receipt` reads one (receiptbox.py); a route
still wants a Maildir or an mbox file (mailboxes.check_mailbox).

Its entries are read as a Maildir's are (mailboxes.py): each a regular file, read bounded,
never through a FIFO or a device. What is not a mail file is passed over unopened and named
(the caller counts them): a FIFO, a device, a socket, a link out of the folder (a link to
a file in it is read as that file). A folder in it is no message, as in a Maildir; a file
whose name begins with a dot is a mail program's own, not a mail.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path


def mail_files(folder: Path, skipped: list[str]) -> Iterator[tuple[Path, str]]:
    """Each regular file of the folder, in the order of its names, as (the path to read,
    where it is as the count names it); what is not a mail file goes to skipped."""
    inside = os.path.realpath(folder)
    for name in sorted(os.listdir(folder)):
        if name.startswith("."):
            continue
        path, where = folder / name, f"{folder}/{name}"
        try:
            info = os.lstat(path)
            if stat.S_ISLNK(info.st_mode):
                target = os.path.realpath(path)
                if os.path.commonpath([inside, target]) != inside:
                    skipped.append(f"{where}: a link out of the folder, not followed")
                    continue
                path, info = Path(target), os.stat(target)
        except (OSError, ValueError):
            skipped.append(f"{where}: cannot be looked at")
            continue
        if stat.S_ISDIR(info.st_mode):
            continue
        if not stat.S_ISREG(info.st_mode):
            skipped.append(f"{where}: not a regular file (a FIFO, a device?)")
            continue
        yield path, where
