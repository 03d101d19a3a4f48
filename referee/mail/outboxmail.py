"""The mails a run of `inbox` owes, written into the outbox: the replies to the messages
not applied, and each player's report when the journal moved since his last one (or a
message of his was applied)."""

from __future__ import annotations

from pathlib import Path

from ..base.addresses import reads_back
from ..base.errors import StorageError
from ..game.clockwalk import zone_of
from ..render.reports import receipt_text
from ..store.mailroute import referee_address
from ..store.players import OBSERVER
from ..table import Table
from . import outcome
from .elsewhere import sent_after, writer
from .formerkeys import keep_carried, key_note
from .holds import sides_on_hold
from .ledger import mail_name, note_start
from .leftover import held_sides
from .lostrecord import lost_note
from .movedhost import moved_note
from .newsmail import NEWS, REPORT, news_body, owed
from .notmatched import as_owed_now, not_matched
from .observers import resume_from, sent_mark
from .outcome import outcome_of
from .pictures import MailPictures
from .queries import answer_text
from .refusal import prose, refusal_text, report_body
from .reminders import deadline_lines
from .sentorder import LATER, later_words
from .subjects import table_subject
from .threads import thread_of


def write_outbox(table: Table, folder: Path, people: dict, keys: dict, ledger: dict,
                 with_map: bool = True) -> list[Path]:
    """The mails the ledger says are owed, one .eml each, under a name that says which mail
    it is (written once: a name already in the outbox, or in its sent/, was written by an
    earlier run): the reply to each message that was not applied, saying why, with the
    player's report inside it (no second mail for the same news), then each player's report
    (with his key and a receipt) when the journal moved since his last one. A player sent a
    report for a message applied in this run gets his other messages' replies each saying
    why only and pointing to it: those he sent before the one applied written before it,
    each saying first that a later mail was applied (sentorder.py), the others after it;
    each mail to a player is sent after the one written to him before it (even within one
    tick of the file system's clock: elsewhere.sent_after). StorageError if a mail cannot be
    written: the ledger then still says which are owed. With with_map, a mail to a side
    carries the pictures pictures.py gives it, drawn for that side (1.4: his own templates
    only), once for each side."""
    mail = _Outbox(table, folder, people, keys, ledger, with_map)
    news = set(ledger["reply_to"])
    try:
        later, ahead = [], {side: (mail.last["seq"], None) for side in mail.reporting(news)}
        for entry in ledger["owed"]:
            if entry["side"] in ahead and LATER in entry:
                mail.reply(entry, ahead)        # his mail before the one applied: first
            elif entry["side"] in news:
                later.append(entry)
            else:
                mail.reply(entry)
        reported = mail.reports(people, news)
        for entry in later:
            mail.reply(entry, reported)
    except (OSError, ValueError) as exc:
        raise StorageError(f"--outbox {folder}: a mail could not be written ({exc}); the orders "
                           f"applied are in the journal, and `inbox` run again writes the "
                           f"mails still owed") from None
    return mail.written


class _Outbox:
    """The mails of one write_outbox run, each written as it is made."""

    def __init__(self, table: Table, folder: Path, people: dict, keys: dict, ledger: dict,
                 with_map: bool):
        self.table, self.folder, self.keys, self.ledger = table, folder, keys, ledger
        self.people = people
        self.game = table.game()
        self.pictures = MailPictures(table, ledger, with_map)
        self.records, self.last = table.records, table.records[-1]
        self.held = sides_on_hold(table)
        self.due = deadline_lines(table, self.held)
        self.sender = referee_address(self.records)
        self.written: list[Path] = []
        self.write = writer(ledger)       # once across outboxes (elsewhere.py)
        self.to_side: dict[str, Path] = {}      # each side's mail written last

    def reporting(self, news: set[str]) -> set[str]:
        """The sides in news that reports() writes a report to (held: it waits)."""
        held = held_sides(self.folder, self.ledger)
        return {s for s in news if s in self.keys and s in self.people and s not in held}

    def in_turn(self, side: str) -> None:
        """The mail just written to side sent after the one written to him before it."""
        if side in self.to_side:
            sent_after(self.written[-1], self.to_side[side])
        self.to_side[side] = self.written[-1]

    def reply(self, entry: dict, reported: dict[str, tuple[int, Path | None]] | None = None
              ) -> None:
        """The reply to a message not applied: to a stranger, that it was not matched; to a
        side, why, with his report, or (reported: the record his report of this run ends
        at, and its mail, None while it is to come) pointing to that report."""
        entry = as_owed_now(entry, self.people)     # the side's address still, else no key
        side, address, game = entry["side"], entry["to"], self.game
        if side == OBSERVER:
            return                          # observers.py answers them
        if not side:           # a stranger's, or no key: why alone (notmatched.py)
            if reads_back(address):     # else taken in by an earlier version: no mail
                said = not_matched(self.table, self.people, self.ledger, entry)
                self.written.append(self.write(
                    self.folder, self.sender, said.pop("to"), said.pop("subject"),
                    said.pop("body"), entry["message_id"], name=entry["name"], **said))
            return
        brief = reported is not None and side in reported
        subject = table_subject(self.table, side)
        latest = "" if entry.get("status") != "stale" else "\n\n" + prose(
            outcome.latest_mail_words(False, reported[side][0]) if brief
            else outcome.latest_mail_words(True))
        if brief:
            shown: list = []
            first = "" if LATER not in entry else \
                prose(later_words(entry, zone_of(self.table.raw))) + "\n\n"
            body = first + self.head(entry, side, report=False) + latest + \
                "\n\n" + prose(
                f"What happened, the board and what you are asked now are in your report "
                f"of record #{reported[side][0]}, sent to you with this mail.") + \
                f"\n\nOrder key: {self.keys[side]}\n" + \
                receipt_text(self.records[0], self.last) + "\n"
        else:
            shown, where = self.pictures.for_mail(side, subject, refusal=True)
            body = self.head(entry, side) + latest + "\n\n" + report_body(
                self.table, side, mail_since(self.ledger, side, self.records), self.keys[side],
                self.due.get(side), map_note=where, held=side in self.held, refused=True)
        self.written.append(self.write(
            self.folder, self.sender, address, subject, body,
            entry["message_id"], shown, name=entry["name"],
            thread=thread_of(game.game_id, address), record=(game.game_id, self.last)))
        self.in_turn(side)
        note_start(self.ledger, entry["name"], side, {"owed": entry})
        if side not in self.ledger["reply_to"]:
            self.ledger["sent"][side] = sent_mark(self.last)
            keep_carried(self.ledger, side, self.records)

    def head(self, entry: dict, side: str, report: bool = True) -> str:
        """What a reply to a message not applied opens with: why not, or for a question
        (queries.py) its answer (report: his report follows in the same mail)."""
        said = outcome_of(entry, self.table)
        if said.explained is not None:
            return answer_text(self.table, side, said.explained, below=report)
        return refusal_text(said, report=report)

    def reports(self, people: dict, news: set[str]) -> dict[str, tuple[int, Path]]:
        """Each player's report when the journal moved since his last one, or a message of
        his was applied in this run; a few lines of news when what moved it left the board
        as it was (newsmail.py): by side, the record it ends at and its mail."""
        game, last, ledger = self.game, self.last, self.ledger
        done: dict[str, tuple[int, Path]] = {}
        held = held_sides(self.folder, ledger)
        for side, key in self.keys.items():
            if side not in people or side in held:
                continue                    # held: a mail to him waits, refused, in refused/
            since = mail_since(ledger, side, self.records)
            what = REPORT if side in news else owed(self.records, since, side)
            if what is None:
                continue                    # nothing new for him a mail owes
            notes = [n for n in (moved_note(self.records[0]["game_id"], ledger, side),
                                 lost_note(self.records, ledger["sent"].get(side), side),
                                 key_note(self.records, ledger, side),
                                 *ledger["notes"].get(side, ())) if isinstance(n, str)]
            subject = table_subject(self.table, side)
            shown, where = ([], "") if what == NEWS else self.pictures.for_mail(side, subject)
            body = news_body(self.table, side, since, key, self.due.get(side), side in self.held,
                             ledger) if what == NEWS else report_body(
                self.table, side, since, key, self.due.get(side), notes, where, side in self.held)
            # Named by what it answers too: a message applied without a record (standing
            # orders alone) is answered by a report of its own, not by the one already
            # written at this record.
            answers = ledger["reply_to"].get(side)
            name = mail_name(what, game.game_id, side, last["hash"], *notes,
                             *([f"answers {answers}"] if isinstance(answers, str) else []))
            address = people[side]["address"]
            self.written.append(self.write(
                self.folder, self.sender, address, subject, body, answers, shown, name=name,
                thread=thread_of(game.game_id, address), record=(game.game_id, last)))
            self.in_turn(side)
            note_start(ledger, name, side, {"reply_to": answers, "notes": ledger["notes"].get(
                side, [])} if isinstance(answers, str) else None)
            ledger["sent"][side] = sent_mark(last)
            keep_carried(ledger, side, self.records)
            done[side] = (last["seq"], self.written[-1])
        return done


def mail_since(ledger: dict, side: str, records: list[dict]) -> int:
    """The record a player's next mail starts after: the last one he was sent (while the
    journal still holds that record as it was; else the start), whatever reports were
    printed for him meanwhile."""
    return resume_from(ledger["sent"].get(side), records)
