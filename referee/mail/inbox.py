"""The mailbox: players' orders in (mbox, Maildir, .eml), each reader's report out (.eml).

The referee never sends mail. `inbox` reads what the moderator's mail
program saved, takes a message for a side only from the side's registered
address *and* with its order key, applies one message's orders all or
nothing (in the order sent: sentorder.py), keeps the message's Message-ID
and raw digest in the record for the moderator only, and writes every reply
into an outbox folder as `.eml` files (0600) for the user's own mail program.

Messages handled but not applied (rejected, skipped, stale, held) are kept
in a ledger signed like the snapshots, so running `inbox` again on the same
mailbox changes nothing; applied ones are known from the journal itself.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from ..base.addresses import address_key
from ..base.errors import UsageError
from ..base.readers import MODERATOR
from ..game.replay import check_current
from ..store.dice import Dice
from ..store.journal import signed_only
from ..store.mailroute import mail_route, route_problem
from ..store.players import (
    OBSERVER,
    changed_observers,
    check_observers,
    observer_addresses,
    order_key,
    parse_observers,
    parse_players,
    roster,
    roster_body,
    same_roster,
)
from ..store.secrets import load_secret, secret_missing
from ..store.timeorder import refuse_behind
from ..table import Table
from .answered import answered_record
from .copies import refuse_copy
from .direct import direct_inbox
from .elsewhere import check_outbox, writer
from .faulted import taken_or_set_aside
from .handling import handle
from .headeralone import refuse_header_alone
from .holdsteps import keep_hold, with_holds
from .keyed import mail_side
from .keyelsewhere import key_told, refuse_unmatched
from .ledger import (
    REGISTERED_PER_DAY,
    check_kept,
    copy_handled,
    fault,
    game_lock,
    handled_before,
    handled_side,
    load_ledger,
    may_answer,
    note_handled,
    save_ledger,
)
from .mailboxes import Mailboxes, Message, check_sources, too_large_refusal
from .mailcodes import refuse
from .named import folders_synced_once
from .observers import OBSERVERS_NEVER_ORDER, observer_mails
from .outboxmail import mail_since, write_outbox
from .outcome import Outcome, outcome_of, owed_reply
from .robots import AUTOMATIC, automatic, set_aside
from .routes import refuse_unmailable
from .senders import (
    OWN_MAIL,
    SENT_BY_THE_REFEREE,
    from_observer,
    from_the_moderator,
    from_the_referee,
    moderator_mail,
    own_mail,
)
from .sentorder import later_applied
from .severaltags import other_game

# ---------------------------------------------------------------- players

def players(journal: Path, set_: list[str], new_keys: list[str], keys: bool,
            games_dir: Path | None = None, drop_observers: list[str] | None = None
            ) -> tuple[list[dict], list[str], dict[str, str]]:
    """The roster and the observers (after applying --set / --new-key / --drop-observer as a
    new record, when they change anything), keys when asked, and the sides whose --set
    address is theirs already (already_registered: not changed); read from bytes this
    referee provably wrote."""
    table = Table.writing(journal, games_dir)
    table.vouched()         # read again: a copy may have been put in place since the caller's
    game = table.game()
    secret = load_secret(game.journal.path, game.header)
    current = roster(game.records)
    watchers = before = observer_addresses(game.records)
    same: dict[str, str] = {}
    if set_ or new_keys or drop_observers:
        if secret is None:
            raise secret_missing(game.journal.path, game.header,
                                     "to register players (order keys are derived from it)")
        changes = parse_players(set_, game.data.sides, "--set")
        same = already_registered(changes, current)
        changes = {side: address for side, address in changes.items() if side not in same}
        watchers = changed_observers(watchers, parse_observers(set_, "--set"),
                                     drop_observers or [])
        check_observers(watchers, {**{s: p["address"] for s, p in current.items()}, **changes})
        _not_the_referees(mail_route(game.records)["sender"],
                          [*changes.values(), *parse_observers(set_, "--set")])
        target = mail_route(game.records)["target"]
        if target is not None and not route_problem({"source": None, "target": target}):
            refuse_unmailable(target, [*changes.values(), *parse_observers(set_, "--set")],
                              "--set")
        for side in new_keys:
            if side not in game.data.sides:
                raise UsageError(f"--new-key {side!r}: choose one of {', '.join(game.data.sides)}")
            if side not in current and side not in changes:
                raise UsageError(f"--new-key {side}: {side} has no registered address")

        def build(raw: bytes):
            pos = table.position(raw)
            same_roster(table.records_of(raw), current, before, table.name)
            dice = Dice(game.game_id, pos.seq + 1, secret)
            return pos.seq, pos.hash, [roster_body(secret, game.game_id, changes, current,
                                                   tuple(new_keys), dice, watchers)]

        if changes or new_keys or watchers != before:
            _, written = table.append(build)
            current = roster(written)
            watchers = observer_addresses(written)
    out = []
    for side, p in sorted(current.items()):
        entry = {"side": side, "address": p["address"]}
        if keys and side != MODERATOR:
            if secret is None:
                raise secret_missing(game.journal.path, game.header, "to print the order keys")
            entry["key"] = order_key(secret, game.game_id, side, p.get("key_no") or 0)
        out.append(entry)
    return out, watchers, same


def already_registered(changes: dict[str, str], current: dict[str, dict]) -> dict[str, str]:
    """The sides whose new address (changes) is the one registered for them already, with
    the address given: the same mailbox (address_key), however its letters are cased. Not a
    change: no record is written for it, and no reader is told the address changed."""
    return {side: address for side, address in changes.items() if side in current and
            address_key(address) == address_key(current[side]["address"])}


def _not_the_referees(sender: str | None, addresses: list[str]) -> None:
    """UsageError when a player's or observer's new address is the referee's own (`--from`):
    mail from it is never read as orders."""
    for address in addresses:
        if sender and address_key(address) == address_key(sender):
            raise UsageError(f"--set: {address} is the referee's own address (`referee mail "
                             f"--from`); a player's or observer's must be another")


# ---------------------------------------------------------------- inbox

def _applied_messages(records) -> tuple[dict[str, tuple], set[tuple[str, str]],
                                         dict[tuple[str, str], int]]:
    """Raw digests (with the seq and actor of the record holding each), (Message-ID, body
    digest) pairs, and the first record of each (side, digest of Date, Subject and text),
    of the messages the journal holds."""
    raws, copies, bodies = {}, set(), {}
    for rec in records:
        part = rec.get("mail")
        if isinstance(part, dict) and isinstance(part.get("data"), dict):
            raws.setdefault(part["data"]["sha256"], (rec.get("seq"), rec.get("actor")))
            copies.add((part["data"]["message_id"], part["data"].get("body_sha256") or ""))
            content = part["data"].get("content_sha256")
            if content:
                bodies.setdefault((rec.get("actor"), content), rec.get("seq"))
    return raws, copies, bodies


def inbox(journal: Path, sources: list[Path], outbox: Path | None,
          games_dir: Path | None = None, with_map: bool = True
          ) -> tuple[list[Outcome], list[Path]]:
    """Apply every new message's orders (all or nothing each) and write the replies (with
    with_map, each player's mail carries the map as he may see it, as PNG), under the game's
    mail lock, one message at a time, the ledger saved after each."""
    check_sources(sources)       # a mailbox typed that is not there: usage, as new --mail-in
    with signed_only():          # nothing but what this referee wrote is read to mail it
        boxes = Mailboxes(sources)
        messages = boxes.survey()
        table = Table.writing(journal, games_dir)
        refuse_behind(table.raw, table.name)    # no mail applied with the clock set back
        if table.kind.mail == "direct":     # its kind takes each mail whole (direct.py)
            return direct_inbox(table, sources, outbox)
        if outbox is not None:
            check_outbox(outbox)
        game = table.whole().game()        # the pass reads every record: checked once, here
        check_current(game, game.journal.path, games_dir)     # no orders before an upgrade
        refuse_header_alone(table)      # no set-up record: its mail left for the moderator
        return with_holds(table, outbox,   # the holds' mails as tick writes them (holdsteps.py)
                          lambda: _inbox_of(table, boxes, messages, outbox, with_map))


def _inbox_of(table: Table, boxes: Mailboxes, messages: list[Message],
              outbox: Path | None, with_map: bool) -> tuple[list[Outcome], list[Path]]:
    game = table.game()
    with game_lock(game.game_id, game.header["hash"]):
        # Another run may have moved the game while this one waited for the lock.
        table.checked_since_read()
        ledger = load_ledger(game.game_id, game.header["hash"])
        check_kept(ledger)      # it can be kept (else StorageError before anything is done)
        return _inbox_locked(table, boxes, messages, outbox, with_map, ledger,
                             game.header["hash"])


def _inbox_locked(table: Table, boxes: Mailboxes, messages: list[Message],
                  outbox: Path | None, with_map: bool, ledger: dict, locked_on: str
                  ) -> tuple[list[Outcome], list[Path]]:
    """inbox() under the lock (taken for the game whose record 0 has the hash locked_on):
    the journal and the ledger as they are now."""
    game = table.game()
    journal = table.path
    if game.header["hash"] != locked_on:
        raise UsageError(f"{journal}: the journal was replaced while this run waited for its "
                         f"mail lock; nothing was done")
    game_id = game.game_id
    records = table.records
    people, keys = _people_and_keys(table)
    watchers = observer_addresses(records)
    registered = {address_key(str(p.get("address", ""))) for p in people.values()}
    applied, copies, bodies = _applied_messages(records)
    manual = game.header["dice"]["mode"] == "manual"
    outcomes: list[Outcome] = []
    seen: set[str] = set()
    told: list[Path] = []           # the moderator's mails of a side's key from elsewhere
    for m in messages:
        out = Outcome(m.where, m.message_id, m.sender, "known")
        copy = (m.message_id, m.body_sha256)
        if m.unreadable:
            out.status, out.reason = "unreadable", _set_aside(m)
        elif m.sha256 in applied or any(handled_before(ledger, d)
                                        for d in (m.sha256, *m.older_sha256)):
            out.reason, out.new = "already handled", False
            out.side = applied_side(applied, ledger, m)
            _report_still_owed(ledger, applied.get(m.sha256), m.message_id, records)
        elif m.sha256 in seen:
            refuse(out, "skipped", "duplicate", "a second copy of a message in this mailbox")
        elif m.message_id and (copy in copies or copy_handled(ledger, *copy)):
            refuse(out, "skipped", "duplicate", "a second copy of a message already handled")
        else:
            replies: list[tuple[str, str, Outcome, Message]] = []
            boxes.load(m)
            if m.unreadable:
                out.status, out.reason = "unreadable", _set_aside(m)
            elif from_the_referee(m, people, records):
                out.status, out.reason, out.code = "skipped", SENT_BY_THE_REFEREE, "referee_mail"
            elif own_mail(m, [p["address"] for p in people.values()]):  # to a side's address
                out.status, out.reason, out.code = "skipped", OWN_MAIL, "referee_mail"
            elif (robot := automatic(m)) is not None:       # never read, never answered
                out.status, out.reason = AUTOMATIC, set_aside(table, m, robot, ledger, outbox)
            elif from_the_moderator(m, people):
                out.status, out.why = "rejected", moderator_mail(table.path)
                out.code = "moderator_address"
                out.reason = f"not from a registered player: {out.why}"
                replies.append((m.sender, "", out, m))
            elif from_observer(m, watchers, game_id):
                out.status, out.reason, out.code = "rejected", OBSERVERS_NEVER_ORDER, "observer"
                replies.append((m.sender, OBSERVER, out, m))
            else:
                # An error no rule foresaw sets this message aside, not the game (faulted.py).
                taken_or_set_aside(table, m, out, replies, people, partial(
                    _classify, table, m, out, people, keys, bodies, manual, replies))
                told += key_told(table, out, m, people, keys, ledger, outbox)
            boxes.release(m)
            if out.status == "held" and out.side:   # the moderator must enter them:
                keep_hold(table, ledger, out)   # with the message handled, its reply: one save
            _keep(ledger, m, out, replies if outbox is not None else [], registered)
        if out.status == "skipped" and out.side is None:      # a copy: judged like the first
            note_handled(ledger, m.sha256, m.message_id, m.body_sha256, out.status)
        seen.add(m.sha256)
        if out.status == "applied":
            copies.add(copy)
            if m.content_sha256 and out.side and out.records:   # a copy later in this pass
                bodies.setdefault((out.side, m.content_sha256), out.records[0])
        outcomes.append(out)
    save_ledger(ledger)
    written: list[Path] = []
    if outbox is not None:
        with folders_synced_once():     # each mail synced, its folder once before the save
            written = write_outbox(table, outbox, people, keys, ledger, with_map)
            written += observer_mails(table, outbox, watchers, _observer_refusals(ledger),
                                      people, ledger, writer(ledger), with_map)
        ledger["owed"], ledger["reply_to"], ledger["notes"] = [], {}, {}
        save_ledger(ledger)
    return outcomes, told + written


def _people_and_keys(table: Table) -> tuple[dict, dict]:
    """The game's roster, and each side's order key (UsageError when the dice secret is
    not here or no side has a player)."""
    game = table.game()
    secret = load_secret(game.journal.path, game.header)
    if secret is None:
        raise secret_missing(game.journal.path, game.header,
                             "to read players' mail (order keys)")
    people = roster(table.records)
    if not any(s in people for s in game.data.sides):
        raise UsageError(f"{table.path}: no players registered (new --player SIDE=ADDRESS)")
    return people, {s: order_key(secret, game.game_id, s, p.get("key_no") or 0)
                    for s, p in people.items() if s != MODERATOR}


def applied_side(applied: dict[str, tuple], ledger: dict, m: Message) -> str | None:
    """The side a message handled before was taken as: the actor of the record holding it,
    else the side the ledger kept (None: no side's, a stranger's, or long folded)."""
    held = applied.get(m.sha256)
    if held is not None and isinstance(held[1], str):
        return held[1]
    return next((s for d in (m.sha256, *m.older_sha256) if (s := handled_side(ledger, d))),
                None)


def _set_aside(m: Message) -> str:
    """Why a message was set aside (the run goes on; a later run reads it again)."""
    return f"set aside: {(m.problem or '').removeprefix(f'{m.where}: ')}"


def _report_still_owed(ledger: dict, where: tuple | None, message_id: str,
                       records: list[dict]) -> None:
    """A message applied by a run that stopped before saving that its report answers it:
    while the side has not been sent a mail since its record, the report answers it."""
    if where is None or not message_id:
        return
    seq, side = where
    if isinstance(seq, int) and seq > mail_since(ledger, side, records):
        ledger["reply_to"][side] = message_id


def _keep(ledger: dict, m: Message, out: Outcome, replies: list,
          registered: set[str]) -> None:
    """What handling m leaves in the ledger (saved at once when it touched the game or owes
    a reply): handled unless the journal holds it, and each reply owed (none when the run
    writes no outbox; to an address that is no side's, within the day's quota, the
    registered addresses' apart from strangers')."""
    if out.status in ("unreadable", "known"):
        return
    if out.status != "applied" or not out.records:      # standing lines only: no record
        note_handled(ledger, m.sha256, m.message_id, m.body_sha256, out.status, out.side)
    fault("applied")
    owes = False
    for address, side, o, msg in replies:
        # An observer holds no key: anyone may write his From, so his answers count against
        # the quota of an address registered in the game, as a stranger's do against theirs.
        known = address_key(address) in registered or side == OBSERVER
        if o.status == "applied":
            ledger["reply_to"][side] = msg.message_id
            later_applied(ledger, side, msg.date)      # his earlier mails' replies first
            ledger["notes"].setdefault(side, []).extend(o.notes)
        elif (side and side != OBSERVER and not msg.oversize) or \
                may_answer(ledger, address, known):
            # Too large to read, no key was read: why alone, nothing of the game (toolarge.py).
            ledger["owed"].append(_owed(address, "" if msg.oversize else side, o, msg))
        elif known:
            o.reason += (f"; no reply: {REGISTERED_PER_DAY} a day at most to a "
                         f"registered address for messages not taken as his side's")
            continue
        else:
            o.reason += "; no reply: one a day at most to an address that is no player's"
            continue
        owes = True
    if owes or out.side is not None:
        save_ledger(ledger)
        fault("ledger")


def _owed(address: str, side: str, out: Outcome, m: Message) -> dict:
    """A reply owed to a message, as the ledger keeps it until it is written."""
    name = hashlib.sha256(f"reply\n{m.sha256}\n{address}".encode()).hexdigest()[:24]
    return owed_reply(name, address, side, out)


def _observer_refusals(ledger: dict) -> list:
    return [(e["to"], outcome_of(e), _Reply(e["message_id"], e["name"]))
            for e in ledger["owed"] if e["side"] == OBSERVER]


@dataclass
class _Reply:
    """What a reply needs of the message it answers."""

    message_id: str
    name: str


def _classify(table: Table, m: Message, out: Outcome, people: dict, keys: dict,
              bodies: dict, manual: bool, replies: list) -> None:
    """Whose message this is, if anybody's, then handle it (once: the same text from the
    same side, with the same Date and Subject, as a message the journal holds is that
    message sent again, whatever its Message-ID)."""
    other = other_game(m.subject, table.records[0]["game_id"], m.sha256)
    if other is not None:
        out.status, out.reason, out.code = "skipped", f"for another game ({other})", "other_game"
        return
    if m.oversize and _too_large(m, out, people, replies):
        return
    side = mail_side(m, people, keys, table.records[0]["game_id"])
    if side is None:
        refuse_unmatched(out, m, people, keys, table.records, table)
        if m.problem:
            out.reason += f" ({m.problem})"
        if m.sender:
            replies.append((m.sender, "", out, m))
        else:
            out.reason += "; no reply: the message has no usable sender address"
        return
    out.side = side
    replayed = next((bodies[(side, c)] for c in m.contents() if (side, c) in bodies), None)
    if m.problem:
        out.status, out.reason, out.code = "rejected", m.problem, "cannot_read"
    elif replayed is not None:
        refuse_copy(out, replayed, m.date, table)
    else:
        handle(table, m, side, keys[side],
               answered_record(m.msg, m.sender, m.subject, table.records[0]["game_id"]), out,
               manual)
    replies.append((people[side]["address"], side, out, m))


def _too_large(m: Message, out: Outcome, people: dict, replies: list) -> bool:
    """A message over the size limit from one side's registered address (none of it read,
    its key neither): answered there, as tick answers it, within the registered address's
    daily quota (_keep: anyone may write that From). False when it is no single side's."""
    sides = [s for s, p in people.items()
             if s != MODERATOR and m.sender and address_key(p["address"]) == m.sender]
    if len(sides) != 1:
        return False
    out.status, out.reason, out.side = "rejected", too_large_refusal(m.oversize), sides[0]
    out.code = "too_large"
    out.why = out.reason
    replies.append((people[sides[0]]["address"], sides[0], out, m))
    return True
