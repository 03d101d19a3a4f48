"""Whether a game can go on without the moderator, for `tick` (and `inbox` run by hand,
holdsteps.py): one line saying what it waits on and what he may do, at every pass until
he acts (None: it waits on nobody, or on a player whose mail and deadline will move it).

A game waits on the moderator when it is paused, when a deadline passed that nobody
answered for (reminders.py), when a player's orders need dice in a manual-dice game
(held: only the moderator can enter them), or when the side it waits on has no address
the referee could mail. A game over waits on him for its reveal alone: he is mailed that
once (ended.py), and the pass goes on.
"""

from __future__ import annotations

import hashlib
import shlex
from datetime import UTC, datetime
from pathlib import Path

from ..base.clock import parse_stamp, stamp
from ..base.errors import OrderError, one_line, quoted
from ..base.readers import MODERATOR
from ..data.gamedata import GameData
from ..render.documents import players_words
from ..store.players import roster
from ..table import Table
from .deadlinepost import Post
from .dropped import dropped_mail, dropped_name, mailed_by, why_dropped
from .ended import tell_the_end
from .holds import held_at, held_lines, holds_of, lines_left, standing
from .holdtime import give_back_time
from .ledger import fault, game_lock, load_ledger, save_ledger
from .moderatorwait import WaitLine
from .refusal import MOST_NAMED, NAMED_LENGTH, WIDTH, prose
from .reminders import deadline_lines, waits_on_the_moderator
from .senders import typed_journal
from .waitover import tell_wait_over

# The values every die shows in the two dry runs that count the dice held orders roll: the
# count may rest on what the dice show (a hit re-rolled, a battle ended), so both ends.
COUNT_WITH = (6, 1)


def waits_on_a_person(table: Table, name: str, outbox: Path, now: datetime) -> str | None:
    """The line saying what the game waits on, when that is the moderator (name: the journal
    as the line may show it); the moderator is mailed once for orders held for dice. Holds
    that ended are pruned first, whatever the game waits on (a paused game too), each player
    whose orders were not entered told so."""
    holds = _standing_holds(table, outbox, now)
    tell_the_end(table, outbox, now)        # once: the game over waits on his reveal alone
    tell_wait_over(table, outbox, now)      # once: a wait on him the player himself ended
    line = waits_on_the_moderator(table, name)
    if line is not None:
        return line
    dice = _held_for_dice(table, holds, outbox, now)
    if dice:
        return WaitLine("the game waits on the moderator: " +
                        "; ".join(_held_words(name, *hold) for hold in dice),
                        "held_for_dice", [hold[0] for hold in dice])
    people = roster(table.records)
    lost = [s for s in table.kind.waiting_on(table) if s not in people]
    if lost:
        return WaitLine(f"the game waits on {players_words(lost[:1])}, who has no registered "
                        f"address, so no mail reaches him: register one (`referee players "
                        f"{name} --set {lost[0]}=ADDRESS`) or give his orders (`referee order "
                        f"{name} --as {lost[0]} ...`)", "no_address", lost[:1])
    return None


def kind_waits(x, games_dir: Path | None) -> None:
    """A pass's game x (tickgame.Game) whose kind reads its mail directly: what it waits on
    its moderator for, as its kind says it (a skirmish's open disputes), the pass's problem
    while it stands, every pass; his mail about it is the kind's, once (direct.py)."""
    table = Table(x.journal, games_dir)
    said = table.kind.moderator_wait(table, one_line(str(x.journal)))
    if said is not None:
        x.wait_on_him(WaitLine(*said))


def _held_words(name: str, side: str, entry: dict, mailed: bool) -> str:
    """One hold as the line of a game waiting on the moderator names it."""
    lines = held_lines(entry)
    given = ", ".join(quoted(t, NAMED_LENGTH) for t in lines[:MOST_NAMED]) + \
        (f" and {len(lines) - MOST_NAMED} more" if len(lines) > MOST_NAMED else "")
    how = ("by the command mailed to you" if mailed else "the orders as given here") \
        if lines else "as his mail gives them"
    return (f"{GameData.player_words(side)}'s orders " + (f"({given}) " if lines else "") +
            f"need {_dice_words(entry)} in a manual-dice game and were held; enter them "
            f"with the dice you roll, {how} (`referee order {name} --as {side} --dice ...`)")


def held_orders(table: Table, side: str, texts: list[str], dated: float = 0.0,
                mail: str = "") -> dict:
    """What the ledger keeps of a side's mailed orders held for the moderator's dice (he is
    its only reader): the record they wait at, their lines as the player gave them, and how
    many dice they roll, fewest and most, counted by dry runs whose dice show each value of
    COUNT_WITH, up to a line those dice would have refused (`whole`: False when a run
    stopped short, at a shuffle or a sealed plan: then they roll at least the fewest); and
    the mail's Date (dated, a POSIX time; kept when it has one), to tell him which mail; and
    the side's registered address the mail came from, the only one told if they are not
    entered (dropped.py); and the mail's raw digest (mail), which names the hold the time
    given back is given for (holdtime.py)."""
    when = {**_mail_date(dated), **_sent_from(table, side), **({"mail": mail} if mail else {})}
    counts, whole = [], True
    for value in COUNT_WITH:
        try:
            run = table.submit(side, texts, dry_run=True, count_with=value)
        except OrderError:
            return {**_made_at(table), "lines": list(texts), "dice": [], "whole": False,
                    **when}
        counts.append(run.rolled)
        whole = whole and run.stop_reason in (None, "other side")
    return {**_made_at(table), "lines": list(texts), "dice": [min(counts), max(counts)],
            "whole": whole, **when}


def _made_at(table: Table) -> dict:
    """The record held orders wait at, by number and hash (a journal cut back and written
    again holds another record of that number: holds.py)."""
    last = table.records[-1]
    return {"seq": last["seq"], "hash": last["hash"]}


def _sent_from(table: Table, side: str) -> dict:
    """The held entry's `address`: the side's registered address its mail was read from."""
    address = roster(table.records).get(side, {}).get("address")
    return {"address": address} if isinstance(address, str) else {}


def _mail_date(dated: float) -> dict:
    """The held entry's `date` of a mail's Date (a POSIX time; 0: none): none either for a
    Date a player may write that no clock reads as UTC (beyond the year 9999)."""
    try:
        return {"date": stamp(datetime.fromtimestamp(dated, UTC))} if dated else {}
    except (ValueError, OverflowError, OSError):
        return {}


def held_now(table: Table) -> list[dict]:
    """The mailed orders held for the moderator's dice whose hold stands (holds.py), for
    his status alone (contracts.views.HeldOrders): whose, the record they wait at, the
    mail's date, their lines, the dice they roll in words and the command his mail gives to
    enter them. Read from the ledger, never written: a pass of tick, or inbox run by hand
    (holdsteps.py), prunes and mails (_held_for_dice)."""
    head = table.records[0]
    ledger = load_ledger(head["game_id"], head["hash"])
    journal = typed_journal(table.path)
    out = []
    for side, entry in sorted(standing(table, ledger["held"]).items()):
        at, lines = held_at(entry), lines_left(table, entry, side)
        entry = _counted(entry, lines)
        date = entry.get("date")
        # As his mail gives it: '--' ends the options, each line after it is an order.
        orders = " ".join(shlex.quote(t) for t in lines)
        command = f"referee order {journal} --as {side} --dice DICE" + \
            (f" -- {orders}" if lines else "")
        out.append({"side": side, "record": at, "date": date if isinstance(date, str)
                    and parse_stamp(date) else None, "lines": lines,
                    "dice": _dice_words(entry), "command": command})
    return out


def end_holds(journal: Path, outbox: Path, now: datetime, games_dir: Path | None) -> None:
    """The holds that ended pruned before tick keeps the deadlines (or inbox run by hand
    reads its messages: holdsteps.py), each player whose orders were not entered told so
    and his deadline given back the time they were held (holdtime.py): ruled before, it
    would be missed at once."""
    table = Table(journal, games_dir).whole()
    if table.header_line() is not None:
        _standing_holds(table, outbox, now)


def _standing_holds(table: Table, outbox: Path, now: datetime) -> dict:
    """The ledger's holds that still stand, while the decision each answered is still its
    side's (holds.py: a record since that leaves it leaves them held); the ledger keeps no
    other, each player whose hold ended without his orders entered told so first."""
    head = table.records[0]
    with game_lock(head["game_id"], head["hash"]):
        ledger = load_ledger(head["game_id"], head["hash"])
        held = standing(table, ledger["held"])
        if held != ledger["held"]:
            _tell_dropped(table, outbox, now, ledger, held)
            fault("dropped")
            ledger["held"] = held
            save_ledger(ledger)
    return held


def _held_for_dice(table: Table, held: dict, outbox: Path, now: datetime) -> list[tuple]:
    """(side, what the ledger keeps of his orders, whether the moderator has an address) for
    each side whose mailed orders wait for the moderator's dice (held: the holds that
    stand, every one of them, by side); the moderator is told by mail once a hold."""
    if not held:
        return []
    head = table.records[0]
    post = Post(table, table.raw, outbox, now, head["game_id"])
    out, told = [], []
    with game_lock(head["game_id"], head["hash"]):     # once across outboxes: elsewhere.py
        ledger = load_ledger(head["game_id"], head["hash"])
        for side in sorted(held):
            at = held_at(held[side])
            lines = lines_left(table, held[side], side)
            entry = {**_counted(held[side], lines), "lines": lines}
            # Named by the record the hold was made at: a record since that leaves it (a
            # pause) mails him no second time; and by the game, whose mails may share an
            # outbox with another's holding the same lines at the same record.
            name = f"held-{at:06d}-{side}-{_digest([head['game_id'], *lines])}"
            if entry.get("told") is not True:
                post.write(f"{name}-moderator.eml", post.address(MODERATOR),
                           post.subject(MODERATOR, table.kind.season(table)),
                           _held_mail(post.journal, side, entry), wrapped=True, seq=at,
                           ledger=ledger)
                told += [side] if post.address(MODERATOR) is not None else []
            out.append((side, entry, post.address(MODERATOR) is not None))
        fault("held")
        _told(ledger, {side: held[side] for side in told})
    return out


def _told(ledger: dict, told: dict) -> None:
    """The holds the moderator was mailed about, kept as told in the ledger (while it keeps
    them as they were), saved: under `outbox:DIR` his own mail program may take the mail out
    of the folder, where its name alone said it was written. A pass cut off before this
    writes the same mail under the same name, which the folder (or its sent/), or another
    the ledger keeps, then still holds."""
    if not told:
        return
    for side, entry in told.items():
        if isinstance(entry, dict) and ledger["held"].get(side) == entry:
            ledger["held"][side] = {**entry, "told": True}
    save_ledger(ledger)


def _tell_dropped(table: Table, outbox: Path, now: datetime, ledger: dict, held: dict
                  ) -> None:
    """Each player whose hold ended without his orders entered told so (dropped.py), before
    the ledger forgets it (held: the holds that stand): a pass cut off between the two
    writes the same mail, under the same name, which the outbox (or its sent/) already
    holds, or another the ledger keeps, the cut pass's (elsewhere.py)."""
    gone = {side: entry for side, entry in ledger["held"].items()
            if isinstance(side, str) and side not in held}
    if not gone:
        return
    told = {side: why for side, entry in gone.items()
            if (why := why_dropped(table, side, entry)) is not None}
    for side in sorted(told):           # entered (None): his next report tells what they did
        give_back_time(table, side, gone[side], now)
    post = Post(table, table.raw, outbox, now, table.records[0]["game_id"])
    due = deadline_lines(table, holds_of(table, held))
    for side, why in sorted(told.items()):
        entry = gone[side]
        to = post.address(side)
        if not mailed_by(entry, to):
            continue                    # another's address now: he never wrote them
        post.write(dropped_name(post.game_id, side, entry), to,
                   post.subject(side, table.kind.season(table)),
                   dropped_mail(table, side, entry, why, due.get(side)), side, wrapped=True,
                   seq=table.records[-1]["seq"], ledger=ledger)


def _counted(entry, lines: list[str]) -> dict:
    """A held entry as told of its lines left to enter (lines_left): its dice were counted
    for every line, and are not told for a part of them."""
    entry = entry if isinstance(entry, dict) else {}
    return entry if lines == held_lines(entry) else {**entry, "dice": None}


def _digest(lines: list[str]) -> str:
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()[:12]


def _dice_words(entry: dict) -> str:
    """How many dice held orders roll, in words ('dice' when not counted)."""
    dice = entry.get("dice")
    if not (isinstance(dice, list) and len(dice) == 2 and all(
            isinstance(n, int) and not isinstance(n, bool) and n > 0 for n in dice)):
        return "dice"
    fewest, most = dice
    counted = f"{fewest} {'die' if fewest == 1 else 'dice'}"
    if entry.get("whole") is not True:
        return f"at least {counted}"
    return counted if fewest == most else f"{fewest} to {most} dice, by what the first show"


def _held_mail(journal: str, side: str, entry: dict) -> str:
    """The moderator's mail for orders held for his dice: the command that enters them, to
    copy, the orders one a line as the player gave them (an order is never split)."""
    lines = entry["lines"]
    head = (f"The {GameData.side_name(side)} player's mailed orders need dice, and this is a "
            f"manual-dice "
            f"game: they are held until you enter them with the dice you roll. Nothing moves "
            f"until then.")
    if not lines:
        return prose(head + f" Enter them as his mail gives them (`referee order {journal} "
                            f"--as {side} --dice ...`).") + "\n"
    how = (f"They roll {_dice_words(entry)}: write them, in the order the referee rolls "
           f"them (player.md, Manual dice), in place of DICE, as 3,1,6. If they are too few "
           f"or too many, `referee order` says what the next roll is for and nothing is "
           f"written.")
    # '--' ends the options: each line after it is an order, never an option of `order`,
    # though the player wrote it ('--dice=6,6,6' would replace the moderator's dice).
    first = f"  referee order {journal} --as {side} --dice DICE --"
    command = ([first] if len(first) <= WIDTH - 2 else
               [f"  referee order {journal}", f"    --as {side} --dice DICE --"]) + \
        [f"    {shlex.quote(t)}" for t in lines]
    return prose(head) + "\n\n" + prose(how) + "\n\n" + " \\\n".join(command) + "\n"
