"""The inbox's ledger and the game's mail lock.

The ledger (signed like the snapshots, kept per user and per game) remembers
what the journal does not: messages handled but not applied, the record each
reader's last mail ended at, the replies still owed (and what the report owed to a
side whose message was applied says of it first: `notes`), the board each reader's last
map showed and the decision each side's last close-up showed (`maps`, `closeups`,
pictures.py), the orders a side mailed that wait for the moderator's
dice, with the dice they roll and whether he was mailed of them (`held`, waiting.py: his
to read alone), to which unknown addresses an answer went today, and on which day the
moderator was last told that a player's address refuses mail (`bounced`, robots.py), and
of a mail from another address carrying a side's key (`keys_elsewhere`, keyelsewhere.py),
and the number of the order key each side's last mail carried (`keys_carried`,
formerkeys.py), and
the folders the game's mails went into (`outboxes`, elsewhere.py), and the runs of the
referee's answers for a silent side whose mails were written (`answers_told`, reminders.py),
and when each side was first told of the decision he owes (`asked`, firsttold.py) and
when his last report or reply was written, and its name (`mailed`, firsttold.py), and
the reminders recorded as sent without a mail for one (`spared`, firsttold.py), and
the answers a skirmish's pass owes to the mails it took, written once every mail of the
pass is taken (`answers_due`, direct.py), and the note ('#' lines) a skirmish player's mail
gave with a dispute still open, for the moderator's mail (`dispute_notes`, disputenotes.py),
and the missed deadlines whose wait a player ended himself, told to the moderator
(`waits_over`, waitover.py).
`inbox` takes the game's mail lock, then handles one message at a time, saving the
ledger (on disk) before the next one, so a crash, a kill or a full disk at any point
loses nothing and repeats nothing: a reply still owed is written by the next run.

Old entries are folded into digests: the first 16 hex digits of each raw
digest, kept sorted in one string; a message whose digest begins so is a
replay and is refused, however old.
"""

from __future__ import annotations

import hashlib
import os
import threading
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path

from ..base import clock
from ..base.addresses import address_key
from ..base.errors import StorageError
from ..store import home
from ..store.locks import let_go, open_lock, take

KEEP_WHOLE = 2000          # entries of `handled` and `ids` kept whole; older ones as digests
PREFIX = 16                # hex digits kept of a folded digest (64 bits)
UNMATCHED_PER_DAY = 20     # replies to messages no player sent, per game and day
# Replies a registered address gets a day to messages not taken as his side's (a mistyped
# key): counted apart from strangers', so that strangers cannot use up what he needs.
REGISTERED_PER_DAY = 10
PARTS = {"handled": dict, "ids": dict, "sent": dict, "reply_to": dict, "told": dict,
         "told_registered": dict, "owed": list, "digests": str, "id_digests": str,
         "starts": dict, "refused": list, "held": dict, "stranded": dict, "notes": dict,
         "maps": dict, "closeups": dict, "bounced": dict, "outboxes": list,
         "answers_due": list}
# The ledger's part: when each side's last mail of the inbox was written (firsttold.py).
MAILED = "mailed"
# The ledger's part: the reminders recorded as sent without a mail, each with the name of
# the mail that gave the deadline in its place ([side, hand-off, before, due, name]; name
# None: the report the pass writes after the check, named when written: firsttold.py).
SPARED = "spared"
MOST_STARTS = 5000         # starts kept for mails no tick sends (inbox --outbox alone)
FAULT_VARIABLE = "REFEREE_FAULT"
# The ledger's part: the side each message of `handled` was taken as, for those taken as a
# side's (made when the first is kept: a ledger without one is kept as it was).
SIDES = "sides"


def now() -> datetime:
    """The game's time (REFEREE_NOW in tests)."""
    return clock.now()


def fault(step: str) -> None:
    """End the process at once at this step when REFEREE_FAULT names it (the crash tests)."""
    if os.environ.get(FAULT_VARIABLE) == step:
        os._exit(70)


def mail_name(*parts: str) -> str:
    """The file name of one mail, from what makes it that mail (written once under it)."""
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:24]


def ledger_path(game_id: str, header_hash: str) -> Path:
    """Keyed by the game and its record 0, so a moved game folder keeps its ledger."""
    tag = hashlib.sha256(f"{game_id}/{header_hash}".encode()).hexdigest()[:32]
    return home.data_dir("ledgers") / f"{tag}.ledger"


def load_ledger(game_id: str, header_hash: str) -> dict:
    """The ledger as last saved (signed; anything else is an empty one)."""
    data = home.read_signed(ledger_path(game_id, header_hash))
    if not isinstance(data, dict) or data.get("game_id") != game_id or \
            data.get("header") != header_hash:
        data = {}
    # Parts this module does not know (kept by other mail tasks) are kept as they are.
    ledger = {**data, "game_id": game_id, "header": header_hash}
    for part, kind in PARTS.items():
        ledger[part] = data.get(part) if isinstance(data.get(part), kind) else kind()
    ledger["owed"] = [o for o in ledger["owed"] if isinstance(o, dict)]
    return ledger


def save_ledger(ledger: dict) -> bool:
    """Keep the ledger on disk, older entries folded (StorageError when it cannot be kept:
    nothing more is handled, so nothing is applied that the ledger does not know). Whether
    it was written: a ledger the file holds already, as it is, is not written again (the
    file was synced when it was kept; a save that carries nothing new guards nothing)."""
    fold(ledger)
    path = ledger_path(ledger["game_id"], ledger["header"])
    try:
        return home.keep_signed(path, dict(ledger))
    except OSError as exc:
        raise _unkept(path, exc) from None


def check_kept(ledger: dict) -> None:
    """StorageError unless the ledger can be kept, before anything is handled: saved when
    the file does not hold it as it is; else a file of its size made beside it (not synced,
    removed at once) shows that its folder still takes one (a full disk, say, is told
    before a message is applied, not after)."""
    if save_ledger(ledger):
        return
    path = ledger_path(ledger["game_id"], ledger["header"])
    try:
        home.try_keeping(path.parent, path.read_bytes())
    except OSError as exc:
        raise _unkept(path, exc) from None


def _unkept(path: Path, exc: OSError) -> StorageError:
    return StorageError(f"{path}: the inbox ledger cannot be saved ({exc.strerror or exc}); "
                        f"the messages not yet handled are left for the next run")


def fold(ledger: dict, keep: int | None = None) -> None:
    """Fold the oldest entries of `handled` and `ids` into digests once there are more than
    keep (KEEP_WHOLE), half of them at a time."""
    keep = KEEP_WHOLE if keep is None else keep
    for part, into, digest in (("handled", "digests", lambda k, v: k),
                               ("ids", "id_digests", _id_digest)):
        entries = ledger[part]
        if len(entries) <= keep:
            continue
        old = list(entries)[:len(entries) - keep // 2]
        _fold_in(ledger, into, [digest(k, entries[k]) for k in old])
        sides = ledger.get(SIDES) if part == "handled" else None
        for k in old:
            del entries[k]
            if isinstance(sides, dict):
                sides.pop(k, None)


def _id_digest(message_id: str, body_sha256: str) -> str:
    return hashlib.sha256(f"{message_id}\n{body_sha256}".encode()).hexdigest()


def _in_folded(folded: str, digest: str) -> bool:
    """Whether digest's prefix is in the sorted string of prefixes (binary search)."""
    want, lo, hi = digest[:PREFIX], 0, len(folded) // PREFIX
    while lo < hi:
        mid = (lo + hi) // 2
        here = folded[mid * PREFIX:(mid + 1) * PREFIX]
        if here == want:
            return True
        lo, hi = (mid + 1, hi) if here < want else (lo, mid)
    return False


def handled_before(ledger: dict, sha256: str) -> bool:
    """Whether the message with this raw digest was handled (and not applied) before."""
    return sha256 in ledger["handled"] or _in_folded(ledger["digests"], sha256)


def copy_handled(ledger: dict, message_id: str, body_sha256: str) -> bool:
    """Whether a message with this Message-ID and body was handled before."""
    return ledger["ids"].get(message_id) == body_sha256 or \
        _in_folded(ledger["id_digests"], _id_digest(message_id, body_sha256))


def handled_side(ledger: dict, sha256: str) -> str | None:
    """The side a message handled before (and not applied) was taken as, while the ledger
    keeps it whole; None: no side's, or folded."""
    side = (ledger.get(SIDES) or {}).get(sha256)
    return side if isinstance(side, str) else None


def note_handled(ledger: dict, sha256: str, message_id: str, body_sha256: str,
                 status: str, side: str | None = None) -> None:
    ledger["handled"][sha256] = status
    if side:
        if not isinstance(ledger.get(SIDES), dict):
            ledger[SIDES] = {}
        ledger[SIDES][sha256] = side
    if message_id:
        before = ledger["ids"].get(message_id)
        # A Message-ID another mail used before: that mail stays known.
        if before is not None and before != body_sha256:
            _fold_in(ledger, "id_digests", [_id_digest(message_id, before)])
        ledger["ids"][message_id] = body_sha256


def _fold_in(ledger: dict, into: str, digests: list[str]) -> None:
    """Digests among the folded ones of ledger[into] (a sorted string of prefixes)."""
    folded = {ledger[into][i:i + PREFIX] for i in range(0, len(ledger[into]), PREFIX)}
    ledger[into] = "".join(sorted(folded | {d[:PREFIX] for d in digests}))


def note_start(ledger: dict, name: str, side: str, answers: dict | None = None) -> None:
    """Remember where a mail to a side starts (the mail before it ended there), so that its
    news can be owed again if a server refuses it for good, and what of a message of his it
    answers (answers: the reply owed, or the message a report answers and its notes), so
    that a mail taken back before it went is written again as the same answer
    (takeback.py). tick forgets the starts of mails it has sent (forget_starts); without
    tick, the oldest go past MOST_STARTS."""
    starts = ledger["starts"]
    starts[name] = [side, ledger["sent"].get(side), *([answers] if answers else [])]
    # Every mail to a side gives him his deadline: a reminder due by now is not sent after
    # it, unless a server refuses this mail for good (firsttold.py).
    mailed = ledger.get(MAILED) if isinstance(ledger.get(MAILED), dict) else {}
    ledger[MAILED] = {**mailed, side: [clock.stamp(now()), name]}
    _name_spared(ledger, name, side)
    for old in list(starts)[:-MOST_STARTS]:
        del starts[old]


def _name_spared(ledger: dict, name: str, side: str) -> None:
    """The reminders of side recorded as sent for the report the pass writes after the
    check take the name of his first mail since: that report (a later mail refused for
    good holds back none of them)."""
    spared = ledger.get(SPARED)
    if isinstance(spared, list):
        ledger[SPARED] = [[*e[:4], name] if isinstance(e, list) and len(e) == 5 and
                          e[0] == side and e[4] is None else e for e in spared]


def forget_starts(ledger: dict, waiting: set[str]) -> None:
    """Forget the start of every mail that no longer waits, owed or refused (sent, or
    removed by the moderator): the ledger stays as small as the spool."""
    ledger["starts"] = {k: v for k, v in ledger["starts"].items() if k in waiting}
    ledger["refused"] = [n for n in ledger["refused"] if n in waiting]


def news_owed_again(ledger: dict, names: list[str]) -> list[str]:
    """The sides whose mails (by name) a server refused for good, not yet accounted for:
    each side's next mail starts where the earliest of them started, so that their news is
    not lost. Each refused mail is accounted for once (ledger['refused'])."""
    sides = []
    for name in names:
        if name in ledger["refused"]:
            continue
        ledger["refused"].append(name)
        side, start = (ledger["starts"].get(name) or [None, None])[:2]
        if not isinstance(side, str):
            continue
        # The pictures it carried never arrived: his next mail carries them again.
        for part in ("maps", "closeups"):
            if isinstance(ledger.get(part), dict):
                ledger[part].pop(side, None)
        now = ledger["sent"].get(side)
        if start is None:
            ledger["sent"].pop(side, None)
        elif not (isinstance(now, list) and now[:1] and isinstance(start, list) and
                  start[:1] and now[0] <= start[0]):
            ledger["sent"][side] = start
        sides.append(side)
    return sides


def may_answer(ledger: dict, address: str, registered: bool = False) -> bool:
    """Whether a message not taken as a side's may be answered at address: from a stranger,
    once a day per address and UNMATCHED_PER_DAY a day in all (no backscatter); from an
    address registered in the game, REGISTERED_PER_DAY a day, whatever strangers sent. The
    answer is then counted, by the address's address_key (as a message's sender is kept)."""
    today = now().date().isoformat()
    address = address_key(address)
    if registered:
        counts = ledger["told_registered"]
        day, count = counts.get(address, [today, 0]) if isinstance(
            counts.get(address), list) else [today, 0]
        count = count if day == today and isinstance(count, int) else 0
        ledger["told_registered"] = {a: v for a, v in counts.items()
                                     if isinstance(v, list) and v[:1] == [today]}
        if count >= REGISTERED_PER_DAY:
            return False
        ledger["told_registered"][address] = [today, count + 1]
        return True
    told = {a: d for a, d in ledger["told"].items() if d == today}
    if address in told or len(told) >= UNMATCHED_PER_DAY:
        ledger["told"] = told
        return False
    told[address] = today
    ledger["told"] = told
    return True


_HELD: dict[str, int] = {}
_GUARD = threading.Lock()


def lock_held(game_id: str, header_hash: str) -> bool:
    """Whether this process holds the game's mail lock (game_lock) now."""
    path = ledger_path(game_id, header_hash).with_suffix(".lock")
    with _GUARD:
        return _HELD.get(str(path), 0) > 0


@contextmanager
def game_lock(game_id: str, header_hash: str):
    """The game's mail lock (beside its ledger): one `inbox` run at a time on a game; the
    next one waits. Taken again inside the same process, it is already held."""
    path = ledger_path(game_id, header_hash).with_suffix(".lock")
    with _GUARD:
        held = _HELD.get(str(path), 0)
        _HELD[str(path)] = held + 1
    if held:
        try:
            yield
        finally:
            with _GUARD:
                _HELD[str(path)] -= 1
        return
    try:
        try:
            home.ensure_dir(path.parent)
            fd = open_lock(path)
        except OSError as exc:
            raise StorageError(f"{path}: the game's mail lock cannot be taken "
                               f"({exc.strerror}); nothing was handled") from None
        try:
            try:
                take(fd, True, "the game's mail lock")
            except OSError as exc:
                raise StorageError(f"{path}: the game's mail lock cannot be taken "
                                   f"({exc.strerror}); nothing was handled") from None
            yield
        finally:
            let_go(fd)      # explicitly: a process forked meanwhile must not keep it
    finally:
        with _GUARD:
            _HELD[str(path)] -= 1

