"""One pass of a game that runs itself (`referee tick`), and the loop of them (`watch`).

For each game, under a lock of its own: the new mail of its source that it claims goes
through `inbox` into the game's spool (the mails it owes), then the deadlines are checked
(reminders and missed-order results into the same spool), then every mail owed is sent.

Several games may read one mailbox: a message goes to the game its subject tag
(`[referee GAMEID]`, `[referee GAMEID #N]`) names, else to the one game whose order key
it carries or a side of which registered its From (claims.py, strays.py); a message no
game claims is left alone (unread on IMAP) for the moderator.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path

from ..base.clock import now as clock_now
from ..base.errors import RefereeError, StorageError, one_line
from ..base.plurals import counted
from ..base.readers import MODERATOR
from ..store import mailsettings
from ..store.handedover import HandedOverError
from ..store.journal import signed_only
from ..store.locks import BusyError, patience
from ..store.mailroute import check_target, is_local
from ..store.players import roster
from ..table import Table
from . import busysince, clockbehind, gameindex, mailboxdown, otherfolders, otherkeys, withheld
from .claims import Claims, Spool, claimed
from .delivery import (
    Fetched,
    open_source,
    spool_files,
)
from .faulted import FAILED
from .faulted import problem as faulted_problem
from .folderexports import seen_as, unplayable
from .fornow import noted as note_refused_now
from .handedhere import Handed, handed_over, marked_away, said
from .heldreminders import held_reminders
from .inbox import inbox
from .ledger import fault, load_ledger
from .leftover import held_sides, named, owe_news_again, stranded, tell_refused
from .mailboxes import MAX_MESSAGE, Mailboxes, Message, told_identity
from .mailcodes import message_json
from .missedfold import fold_before_ruling
from .newsmail import owed
from .observers import resume_from
from .outboxcount import outbox_counted
from .outcomewords import outcome_words
from .ownpause import own_pause
from .passreport import TickReport, quiet, stamped, summary, tally, teller  # noqa: F401
from .reminders import GRACE, check_deadlines, quiet_until, standing_note
from .sending import send_owed
from .serverdown import failed as failed_sending
from .serverdown import grouped as servers_down
from .sharing import Share, each_game, workers
from .standingproblems import StandingProblems
from .tickgame import (
    Game,
    game_lock,
    game_tag,
    journals_in,
    load_game,
)
from .toolarge import too_large
from .twinjournals import one_journal_a_game
from .unasked import gave_back
from .unaskedfold import give_back_first
from .unclaimed import (
    gone_games,
    held_before,
    keep_known_files,
    keep_unclaimed,
    known_files,
    mbox_marks,
    not_handled,
    readers_of,
    still_held,
    taken_now,
    told_mark,
    told_now,
    unclaimed_before,
)
from .waiting import end_holds, kind_waits, waits_on_a_person

# ---------------------------------------------------------------- one pass

def tick(path: Path, games_dir: Path | None = None, with_map: bool = True,
         tell: Callable[[str], None] | None = None) -> TickReport:
    """One pass over one journal or a folder of them; problems are collected, not raised,
    so that one game's trouble does not stop the others, and a game whose lock another
    process holds is passed over (locks.py). Only games this user's referee signed are
    read (a journal of anyone else's is one problem line, never touched). tell(line), when
    given, has each game's lines as soon as that game is done (the report keeps the rest)."""
    with signed_only(), patience():
        return _pass(path, games_dir, with_map, teller(tell))


def _pass(path: Path, games_dir: Path | None, with_map: bool, done) -> TickReport:
    index, known = gameindex.load_all(path)
    games, broken, aside, held, (exports, handed) = _games(path, games_dir, index, known)
    aside += [h.claims for h in handed if h.claims is not None]     # its mail: left alone
    found = len(games) + len(broken) + len(held)
    try:
        shared = workers()
    except RefereeError as exc:     # the mail settings: every pass finds it (watch names it once)
        shared = 1
        broken.append(f"mail settings: {exc}")
    share = partial(each_game, share_among=shared, done=done)
    claims_known = withheld.known_now(games, aside, known, INDEXED)
    away = marked_away(handed, games)       # its journal and index entry gone: the marks
    aside += [h.claims for h in away]
    games, twins = one_journal_a_game(games)
    for problem, xs in twins:
        broken.append(problem)
        aside.append(withheld.twins(xs, len(broken) - 1))
    unclaimed: list[str] = []
    by_source: dict[str, list[Game]] = {}
    for x in games:
        if not x.routed:
            x.log(f"passed over: a game of kind {x.kind} has no mail route of its own; "
                  f"`referee inbox {named(x.journal)} MAILBOX` reads its mail")
            done(x)
            continue
        if x.target is None:
            x.fail(f"no mail target: `referee mail {named(x.journal)} --out TARGET` sets one")
            done(x)
            continue
        if x.source is not None:
            by_source.setdefault(x.source, []).append(x)
        else:
            x.read = True
    pending: list[tuple[str, tuple]] = []       # each source's unclaimed: told last
    down: list[mailboxdown.MailboxDown] = []
    with otherkeys.known(games):    # a player's key of his other game is told as such
        for source, group in by_source.items():
            since = told_mark(source)       # before the source is listed (not_told)
            try:
                others = otherfolders.elsewhere(source, path, group, INDEXED)
                told = _take_mail(source, group, withheld.of_source(aside, source), games_dir,
                                  with_map, share, others)
            except RefereeError as exc:     # told once for its games (mailboxdown.py)
                down.append(mailboxdown.unread(source, group, exc))
                continue
            unclaimed += told[0]
            pending.append((source, (*told, since)))
    moment = clock_now()
    idle = {x.journal.name for x in games if _idle(x, index, moment)}
    share([x for x in games if x.routed and x.target is not None and not x.busy and
           x.journal.name not in idle], lambda x: _after_mail(x, games_dir, with_map))
    servers = servers_down(games)     # an SMTP server down: told once for its games
    gameindex.save(path, _indexed(games, index, idle, games_dir, moment), claims_known)
    withheld.told(broken, aside, held)
    busy = [w.journals[0] for w in aside if w.busy] + [x.journal for x in games if x.busy]
    broken += busysince.too_long(path, busy, moment)
    return TickReport(games, unclaimed, broken, *told_now(pending), withheld.waiting(aside),
                      withheld.unknown(aside), found + len(handed), held, down, exports, servers,
                      said(handed), said(away))


# What the index keeps of a game (gameindex.py): what claims its mail and where it goes.
INDEXED = ("game_id", "header_hash", "source", "target", "keys", "addresses", "kind",
           "routed", "direct", "former")


def _games(path: Path, games_dir, index: dict, known: dict
           ) -> tuple[list[Game], list[str], list[withheld.Withheld], list[str],
                      tuple[list[Path], list[Handed]]]:
    """Each journal's game: from the index while the journal is as it found it, else read (a journal
    that cannot be read is a problem line, its game as the index last knew it withheld (known); one
    another process holds locked is a busy line, its game withheld the same way until the next pass;
    one whose journal is ahead of the clock a problem line, its game withheld until the clock passes
    it). A redacted export saved in the folder (as the game-over mail has the moderator make them),
    a file this referee never knew as a game's journal (folderexports.py), is no game's, and no
    problem: passed over, listed apart (the last list's first); one named alone is a problem, as a
    game asked for. A game handed over to another machine is passed over too, in the second (with
    what claims its mail, which the pass leaves for that machine: handedhere.py)."""
    games, broken, aside, held, exports, handed = [], [], [], [], [], []
    moment, names = clock_now(), {*index, *known}
    for journal in journals_in(path):
        served = _served(journal, index)
        try:
            if (gone := handed_over(journal, served, known, INDEXED)) is not None:
                handed.append(gone)
                continue
            game = served or load_game(journal, games_dir)
            ahead = clockbehind.set_aside(game, moment, len(broken))
            if ahead is None:
                games.append(game)
            else:               # the clock behind its journal: not played (clockbehind.py)
                broken.append(ahead[0])
                aside.append(ahead[1])
        except HandedOverError:         # handed over since the index was read
            handed += filter(None, [handed_over(journal, None, known, INDEXED)])
        except BusyError as exc:
            held.append(f"{exc}: passed over, its mail waits for the next pass")
            aside.append(withheld.unread(journal, known, len(held) - 1, INDEXED, busy=True))
        except RefereeError as exc:     # an export, or a game's journal like one?
            game, why = seen_as(journal, names)
            if game is not None and why is None and path.is_dir():
                exports.append(journal)
                continue
            broken.append(unplayable(journal, exc, game, why))
            if game is None or why is not None:
                aside.append(withheld.unread(journal, known, len(broken) - 1, INDEXED))
    return games, broken, aside, held, (exports, handed)


def _served(journal: Path, index: dict) -> Game | None:
    """The game as its index entry holds it, while the journal is as the entry found it."""
    found = index.get(journal.name)
    fields = gameindex.serves(found, journal)
    try:
        return Game(journal, **{k: fields[k] for k in INDEXED}, indexed=True,
                    printed=found["print"]) if fields is not None else None
    except (KeyError, TypeError):
        index.pop(journal.name, None)
        return None


def _idle(x: Game, index: dict, moment) -> bool:
    """A game the pass may leave alone: served by the index, no mail for it (none claimed,
    even known: a pass killed while it held a mail's orders, which leave the journal as it
    was, left the moderator untold), its mailbox read, its deadlines asking nothing now and
    no mail owed in its spool."""
    return x.indexed and x.routed and x.target is not None and not x.claimed and \
        not x.messages and not x.problems and x.read is not False and \
        gameindex.quiet(index[x.journal.name], moment) and not _to_send(x)


def _to_send(x: Game) -> bool:
    """Whether mails wait in the game's spool to be sent (an outbox:DIR route's mails stay
    in their folder for the moderator: none is the referee's to send)."""
    return x.sends and bool(spool_files(x.spool))


def _indexed(games: list[Game], index: dict, idle: set[str], games_dir, moment) -> dict:
    """The index after the pass: an idle game's entry as it was, and one for each game read
    from its journal that the pass left with nothing wrong and nothing owed, the journal and
    its secret as they were when read (fields are never copied from the index itself)."""
    out = {}
    for x in games:
        name = x.journal.name
        if name in idle:
            out[name] = index[name]
        elif not x.indexed and x.keys and x.routed and x.target is not None and \
                not x.problems and not x.notes and not x.busy and not _to_send(x):
            try:
                quiet = quiet_until(x.journal, moment, games_dir)
            except RefereeError:
                continue
            made = gameindex.entry(x.journal, x.printed,
                                   {k: getattr(x, k) for k in INDEXED}, quiet, moment)
            if made is not None:
                out[name] = made
    return out


def _take_mail(source: str, group: list[Game], aside: list, games_dir, with_map: bool,
               share: Share, others: list[Game]) -> tuple[list[str], list[str], bool]:
    """Read the source, give each game the messages it claims; the unclaimed ones' places,
    what tells each from another at its place, and whether the pass saw all the source's
    (unclaimed.not_told). From IMAP, a pass reads what the mail settings allow (the rest
    next pass), and never a message again that no game claimed (it stays unread there for
    the moderator). aside: the source's games the pass cannot play; their messages stay
    unread, for the pass that can play them (from IMAP not read again until then). others:
    the games of the user's other folders reading the source (otherfolders.py)."""
    if is_local(source):
        return _take_local_mail(source, group, aside, games_dir, with_map, share, others)
    reading = mailsettings.load().reading
    readers = readers_of(group + others)
    with open_source(source) as folder:
        seen_before = unclaimed_before(source, folder.uidvalidity, readers)
        held = held_before(source, folder.uidvalidity, readers)
        waits = withheld.still_held(held, aside)        # not read again while they wait
        found = folder.unseen(frozenset(seen_before) | frozenset(waits), reading.messages,
                              reading.megabytes << 20,
                              [a for x in group for a in x.addresses.values()])
        fault("fetched")
        if not folder.left:
            _read_all(group)
        with claimed(found, group, aside, others) as claims:
            taken, left_alone = _deliver(claims, group, games_dir, with_map, share)
            held_now = withheld.held_now(held, waits, folder.unseen_uids, claims)
            _hold(claims)
        folder.mark_seen([f.uid for f, _ in taken if f.uid is not None])
        fault("seen")
        unclaimed = {f.uid.decode(): _shown(f) for f in left_alone if f.uid is not None}
        keep_unclaimed(source, folder, readers, seen_before, unclaimed, (held, held_now))
        if folder.left:
            why = "the server is slow" if folder.slow else "mail settings: reading"
            group[0].log(f"{counted(folder.left, 'more unread message')} of {source} "
                         f"{'waits' if folder.left == 1 else 'wait'} for the next pass ({why})")
        unseen = set(folder.unseen_uids)
        still = [where for uid, where in seen_before.items() if uid in unseen]
        left = [*still, *unclaimed.values(), *folder.skipped]
        return left, left, not folder.left      # a UID is never another message's


def _take_local_mail(source: str, group: list[Game], aside: list, games_dir, with_map: bool,
                     share: Share, others: list[Game]) -> tuple[list[str], list[str], bool]:
    """_take_mail from a mailbox on this machine. A Maildir's files a pass dealt with are
    known by their prints and not read again (an idle pass stays idle however much old
    mail the Maildir keeps): those a game took, while its journal still holds all it held
    then (a journal put back to an older copy may have lost them), and those no game
    claimed, while the same games read the Maildir. A file that changed, or was not dealt
    with, is read again; its game's journal and ledger still answer it once."""
    readers = readers_of(group + others)
    took_before, shown = known_files(source, readers)
    held = still_held(took_before, group + others)
    held.update(withheld.held_aside(took_before, aside, _tags(group + others)))
    held.update(gone_games(took_before, _tags(group + others), aside))
    known = {place: printed for _, files in held.values() for place, printed in files.items()
             if isinstance(printed, list)}      # a Maildir's (an mbox's are read each pass)
    known.update((place, printed) for place, (printed, _) in shown.items())
    boxes = Mailboxes([Path(source)], known)
    read = _LocalReading()
    with claimed(read.found(boxes), group, aside, others) as claims:
        _read_all(group, read.unread)
        taken, left = _deliver(claims, group, games_dir, with_map, share)
        _hold(claims)
    prints, passed = read.prints, boxes.passed
    there, marks = set(passed), {**mbox_marks(read.digests), **prints}
    left = not_handled(left, held, marks)
    kept_left = {p: shown[p] for p in there if p in shown}
    kept_left.update((f.where, (prints[f.where], _shown(f))) for f in left if f.where in prints)
    moved = any(mark != took_before[tag].get("mark") for tag, (mark, _) in held.items())
    after = taken_now(held, taken, marks, there)
    if prints or moved or len(passed) < len(known) or after != took_before:
        keep_known_files(source, readers, after, kept_left)     # read, grown, gone, taken
    places = [*(shown[p][1] for p in passed if p in shown), *(_shown(f) for f in left)]
    where = [*(p for p in passed if p in shown), *(f.where for f in left)]
    # A Maildir's file name is its message's alone; an mbox's #N is a position, another
    # message's once the mail program has taken earlier ones out: its digest tells them apart.
    return places, [f"{p}\n{read.digests.get(w, '')}" for p, w in zip(places, where)], True


class _LocalReading:
    """The messages of a mailbox on this machine one at a time, in Date order (each one's
    bytes dropped when the next is read): those over the size limit last, by their
    headers; what could not be read at all, and each Maildir file's print, kept aside."""

    def __init__(self):
        self.unread: list[Message] = []
        self.prints: dict[str, list] = {}
        self.digests: dict[str, str] = {}       # an mbox's messages' (no print of their own)

    def found(self, boxes: Mailboxes) -> Iterator[Fetched]:
        oversize = []
        for m in boxes.survey():
            m = boxes.load(m, parse=False)
            if m.print is not None:
                self.prints[m.where] = m.print
            elif not m.unreadable:
                self.digests[m.where] = told_identity(m)
            if m.raw:
                yield Fetched(m.where, m.raw)
            elif m.oversize and m.head:
                oversize.append(Fetched(m.where, m.head, oversize=m.oversize))
            else:
                self.unread.append(m)
            boxes.release(m)
            m.subject = ""              # a pass keeps no more of a message than its place
        yield from oversize


def _hold(claims: Claims) -> None:
    """The messages a game the pass cannot play would claim: each told to that game."""
    for w, f in claims.held:
        w.waiting.append(f.where)


def _tags(group: list[Game]) -> set[str]:
    return {game_tag(x.game_id, x.header_hash) for x in group}


def _read_all(group: list[Game], unread: list | None = None) -> None:
    """Every new message of the games' source is in hand (a game whose messages then fail
    to be handled is marked unread again by _deliver), unless some could not be read at
    all (unread: a file that vanished, a link to nowhere, one over the size limit): any may
    be a player's orders, so no deadline is ruled, and each pass says so."""
    for x in group:
        if unread:
            x.read = False
            first = unread[0]
            x.fail(f"{counted(len(unread), 'message')} of the game's mailbox could not be read "
                   f"({one_line((first.problem or first.where)[:200])}): no deadline is "
                   f"ruled missed until {'it' if len(unread) == 1 else 'they'} can be, or "
                   f"{'is' if len(unread) == 1 else 'are'} removed")
        elif x.read is None:
            x.read = True


def _shown(f: Fetched) -> str:
    """A message no game claimed, as the pass names it."""
    return f"{f.where}: left unread ({f.oversize} bytes, over the limit of {MAX_MESSAGE})" \
        if f.oversize else f.where


def _deliver(claims: Claims, group: list[Game], games_dir, with_map: bool, share: Share
             ) -> tuple[list[tuple[Fetched, Game]], list[Fetched]]:
    """Each game's claimed messages through inbox, under the game's lock: the messages
    handled, each with the game that took it (to mark read), and those no game claimed.
    share: each_game with the pass's workers and what tells each game's lines."""
    taken: list[tuple[Fetched, Game]] = []
    unclaimed = list(claims.unclaimed)
    for i, f, answer in [(i, f, too_large) for i, f in claims.oversize] + claims.aside:
        answered = answer(f, group, games_dir, with_map)
        if answered is not None:
            taken.append((f, answered))
        elif not claims.hold(f):        # one too large for a game not played now waits
            unclaimed.append((i, f))
    mine = claims.spools
    with_mail = [x for x in group if x.game_id in mine]
    handled = share(with_mail, lambda x: _handle_mail(x, mine[x.game_id], games_dir, with_map),
                    weight=lambda x: len(mine[x.game_id].messages))
    taken += [(f, x) for x, done in zip(with_mail, handled) if done
              for f in mine[x.game_id].messages]
    return taken, [f for _, f in sorted(unclaimed, key=lambda pair: pair[0])]


def _handle_mail(x: Game, spool: Spool, games_dir, with_map: bool) -> bool:
    """A game's claimed messages through inbox, under its lock, each outcome logged:
    whether they were handled (else the game's mail counts as unread this pass)."""
    x.claimed = True
    try:
        if spool.problem is not None:
            raise StorageError(spool.problem)
        with game_lock(x), outbox_counted(x):
            outcomes, _ = inbox(x.journal, [spool.folder], x.spool, games_dir, with_map)
            x.took = gameindex.mark(x.journal)
    except BusyError as exc:
        x.pass_over(str(exc))
        return False
    except RefereeError as exc:
        x.read = False
        x.fail(str(exc))
        return False
    where = {str(spool.place(i)): f.where for i, f in enumerate(spool.messages)}
    for o in outcomes:
        if not o.new:
            continue
        shown = where.get(o.where.replace(":new/", "/new/", 1), o.where)
        what = outcome_words(o.records, o.reason)
        x.log(f"{o.status:<8} {one_line(shown)} ({o.side or o.sender or '?'}): {what}")
        x.messages.append(message_json(o, shown))
        if o.status == FAILED:      # set aside for good: told by this pass alone
            x.fail(faulted_problem(o, named(x.journal), x.kind))
    lost = sum(o.status == "unreadable" for o in outcomes)
    if lost:                    # gone from the pass's own copy: read again from the source
        x.read = False
        x.fail(f"{counted(lost, 'message')} kept for the game could not be read back; the next "
               f"pass reads {'it' if lost == 1 else 'them'} again from the mailbox")
        return False
    return True


def _send_logged(x: Game) -> None:
    """Every mail owed sent, a line each in the game's log, those sent before a failure
    too (StorageError or TransportError then, raised again)."""
    try:
        lines = send_owed(x.spool, check_target(x.target))
    except StorageError as exc:         # a TransportError too
        for line in getattr(exc, "sent_lines", ()):
            x.log(line)
        note_refused_now(x, exc, clock_now())     # the addresses refused for now, if any
        raise
    note_refused_now(x, None, clock_now())
    for line in lines:
        x.log(line)


def _after_mail(x: Game, games_dir, with_map: bool) -> None:
    """Deadlines into the spool, then each player's report owed (the opening one after
    `new`, the one after a missed deadline's answer: no mail of his asked for them), then
    every mail owed sent (under the game's lock)."""
    moment = clock_now()
    try:
        with game_lock(x), outbox_counted(x):
            stranded(x)
            if x.direct:            # no clock; each player's report when the game moved
                inbox(x.journal, [], x.spool, games_dir, with_map)
                kind_waits(x, games_dir)        # a skirmish's disputes open, say
            else:
                give_back_first(x, games_dir, moment, GRACE)
                _deadlines_and_reports(x, games_dir, with_map, moment)
            try:
                held_reminders(x, games_dir, moment)
                _send_logged(x)
                if not x.direct and gave_back(x, games_dir, moment, GRACE):
                    inbox(x.journal, [], x.spool, games_dir, with_map)     # its news
                    held_reminders(x, games_dir, moment)
                    _send_logged(x)
            finally:
                owe_news_again(x)
    except BusyError as exc:
        x.pass_over(str(exc))
    except RefereeError as exc:
        failed_sending(x, exc)      # a server down: told once for its games
    tell_refused(x)
    if x.outbox:
        x.log(f"outbox   {counted(x.outbox, 'mail')} left in {one_line(str(x.spool))} for "
              f"the moderator's mail program to send")


def _deadlines_and_reports(x: Game, games_dir, with_map: bool, moment) -> None:
    """A campaign's deadlines into the spool, the moderator told when it waits on him, and
    each player's report owed."""
    if load_ledger(x.game_id, x.header_hash)["held"]:  # ended before a deadline is ruled
        end_holds(x.journal, x.spool, moment, games_dir)
    rule_missed = moment - GRACE if x.read else None
    for line in fold_before_ruling(x, games_dir, moment, rule_missed):
        x.log(line)
    for line in check_deadlines(x.journal, x.spool, moment, games_dir, reporting=bool(x.keys),
                                rule_missed=rule_missed, sending=x.sends):
        (x.note if standing_note(line) else x.log)(line)
    table = Table(x.journal, games_dir).whole()
    waiting = waits_on_a_person(table, named(x.journal), x.spool, moment)
    paused = own_pause(table, named(x.journal))
    if paused is not None:          # his own act: no problem, a line while it stands
        x.note(f"paused   {paused}")
    elif waiting is not None:       # every pass, until he acts
        x.wait_on_him(waiting)
    if x.keys and (_reports_owed(x) or load_ledger(x.game_id, x.header_hash)["owed"]):
        inbox(x.journal, [], x.spool, games_dir, with_map)


def _reports_owed(x: Game) -> bool:
    """Whether a player is owed a mail no message of his asked for: his first report (his
    order key, after `new`; a journal set back past his last), one since a record the game
    moved by (the referee's answer for a silent side, an order of the moderator's), or the
    news of one that left the board as it was (newsmail.owed: a reminder, a missed
    deadline's notice to the moderator, another's address wait for his next mail)."""
    ledger = load_ledger(x.game_id, x.header_hash)
    sent, held = ledger["sent"], held_sides(x.spool, ledger)
    records = Table(x.journal).records
    return any(side != MODERATOR and side not in held and
               owed(records, resume_from(sent.get(side), records), side) is not None
               for side in roster(records))


# ---------------------------------------------------------------- the loop

def watch(path: Path, interval: float, games_dir: Path | None = None,
          log: Callable[[str], None] = print, with_map: bool = True,
          wait: Callable[[float], bool] | None = None) -> int:
    """tick, then wait interval seconds, until SIGTERM or SIGINT (the pass under way is
    finished first) or wait(interval) returns True; one log line per action, each after
    the pass's time (stamped), a game's as soon as the game is done; a problem (a file of
    the folder no game is read from, a game waiting on the moderator...), and the line of
    the exports passed over, named once while it stands as it is, and again once a day
    (standingproblems.py). Returns how many
    passes ran."""
    stop = threading.Event()
    pause = wait or stop.wait
    passes = 0
    told = StandingProblems()
    with _stopping_on_signals(stop):
        while not stop.is_set():
            moment = clock_now()
            standing = told.standing(moment)

            def tell(line: str, at=moment, standing=standing) -> None:
                if not quiet(line, standing):
                    for shown in stamped(at, [line]):
                        log(shown)
            try:
                report = tick(path, games_dir, with_map, tell)
                lines = report.lines(told.quiet(report.problems + report.passed +
                                                report.notes, clock_now()))
            except RefereeError as exc:
                lines = [f"problem  {exc}"]
            for line in stamped(moment, lines):
                log(line)
            passes += 1
            if stop.is_set() or pause(interval):
                break
    return passes


@contextmanager
def _stopping_on_signals(stop: threading.Event):
    """SIGTERM and SIGINT set stop (in the main thread), and are given back afterwards."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = {s: signal.signal(s, lambda *_: stop.set()) for s in (signal.SIGTERM, signal.SIGINT)}
    try:
        yield
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)
