"""Observers' mail: the public report whenever the game moved since the last one, and the
answer to an observer who writes in (observers never order).

An observer is an address of the roster with no side and no key (store/players.py). Each is
sent what `report --as public` gives for the records since his last mail, whenever the journal
has moved since then (a record of the moderator's that moved nothing on the board: a few
lines of news instead, newsmail.py); the ledger (inbox.py) keeps, per observer, the record
his last mail ended at, as it does for each player. A report carries the public's map.png
by the players' rule (pictures.py): only when the board the public may see has changed since
the last map that observer was sent; else it says which record's mail holds it.
"""

from __future__ import annotations

from pathlib import Path

from ..base.addresses import address_key
from ..base.errors import StorageError
from ..base.readers import PUBLIC
from ..render import reports
from ..store.mailroute import referee_address
from ..store.players import OBSERVER
from .ledger import mail_name
from .newsmail import NEWS, REPORT, news_body, owed
from .pauselead import pause_lead
from .pictures import MailPictures
from .refusal import FULL_MOST, lead_lines, prose, split_receipt
from .subjects import table_subject
from .threads import thread_of

OBSERVERS_NEVER_ORDER = "from an observer's address: observers cannot give orders"
OBSERVER_REPLY = prose("This address is registered as an observer of the game: observers are "
                        "sent the public report and cannot give orders. Nothing was done. "
                        "To stop receiving the reports, ask the game's moderator to remove "
                        "this address.") + "\n"


def observer_mails(table, folder: Path, watchers: list[str], refused: list,
                   people: dict, ledger: dict, write, with_map: bool = True) -> list[Path]:
    """Each observer's public report when the journal has moved since his last one (no order
    key, nothing a side may keep from the public), with the public's map.png when with_map
    and the board has changed since the last map he was sent (pictures.py), and one reply
    with no game content to each message from an observer (refused: (address, outcome,
    reply) with the name its mail is written under), each written into folder by
    write (inbox's one mail as an .eml file, once under its name); StorageError if a mail
    cannot be written. table: the game's Table."""
    game = table.game()
    records = table.records
    last = records[-1]
    sender = referee_address(records)
    subject = table_subject(table, OBSERVER)
    texts: dict[tuple[int, str, str], str] = {}
    written: list[Path] = []
    pictures = MailPictures(table, ledger, with_map)    # the public's map drawn once at most
    try:
        for address, _, m in refused:
            written.append(write(folder, sender, address, subject, OBSERVER_REPLY,
                                 m.message_id, name=m.name,
                                 thread=thread_of(game.game_id, address)))
        for address in watchers:
            # By address_key (casefold() took the long s for an s): an address in ASCII keeps
            # the mark it had; one whose casefold differs (an upper-case Ä, a ß) is sent the
            # report from the start once more.
            mark = f"{OBSERVER}:{address_key(address)}"
            sent = ledger["sent"].get(mark)
            since = resume_from(sent, records)
            what = owed(records, since, PUBLIC)
            if what is None:
                continue                    # nothing new since his last mail a mail owes
            shown, where = pictures.for_mail(mark, subject, reader=PUBLIC) if what == REPORT \
                else ([], "")
            if (since, what, where) not in texts:
                texts[since, what, where] = _public_text(table, since, what, where)
            written.append(write(folder, sender, address, subject, texts[since, what, where],
                                 None, shown,
                                 name=mail_name("public" if what == REPORT else "news",
                                                game.game_id, mark, last["hash"]),
                                 thread=thread_of(game.game_id, address)))
            ledger["sent"][mark] = sent_mark(last)
    except (OSError, ValueError) as exc:
        raise StorageError(f"--outbox {folder}: a mail could not be written ({exc}); the orders "
                           f"applied are in the journal, and `inbox` run again writes the "
                           f"reports still owed") from None
    return written


def _public_text(table, since: int, what: str, where: str = "") -> str:
    """The public's mail for the records after since: its report, or the news (newsmail.py);
    where: the line saying which mail holds the last map, above the receipt (pictures.py)."""
    if what == NEWS:
        return news_body(table, PUBLIC, since)
    doc, meta = table.report(PUBLIC, since, keep_views=False, full_most=FULL_MOST)
    text = reports.render_report(doc, meta, "text", mail=True).rstrip("\n")
    if where:
        report, receipt = split_receipt(text)
        text = f"{report}\n\n{prose(where)}\n\n{receipt}"
    return pause_lead(table, PUBLIC, since, report=doc) + lead_lines(doc) + text + "\n"


def resume_from(sent, records) -> int:
    """The record a mail resumes from: the one the last mail ended at, while the journal
    still holds it as it was; else the start."""
    kept = still_held(sent, records)
    return 0 if kept is None else kept


def sent_mark(record: dict) -> list:
    """What the ledger keeps of the record a reader's mail ended at: its number and its
    hash (still_held reads it back; a journal set back since holds another record there)."""
    return [record["seq"], record["hash"]]


def still_held(sent, records) -> int | None:
    """The record a reader's last mail ended at, as the ledger keeps it (sent_mark), while
    the journal still holds it as it was; None when it keeps none, or the journal was set
    back past it or holds another record there."""
    if isinstance(sent, list) and len(sent) == 2 and isinstance(sent[0], int) and \
            0 <= sent[0] < len(records) and records[sent[0]]["hash"] == sent[1]:
        return sent[0]
    return None
