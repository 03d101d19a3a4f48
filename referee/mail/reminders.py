"""Deadlines kept: reminders before them, the game's policy when one passes, and the mails.

check_deadlines looks at the journal at a given time and does what is due:
a reminder to each side still owing orders when a reminder time has come
(once: the reminder is a record), and at a missed deadline the game's policy
(`default`: the referee answers for the silent side with the default the
table of game/defaults.py gives its decision, a record of that side's holding
the missed deadline, one order at a time while the side still owes that
decision; `wait`: the moderator is told; `pause`: the game stops taking
orders). Every
mail goes into the outbox as an .eml file, named after what it is about, so
that a second run at the same time writes none again.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from pathlib import Path

from ..base.clock import duration_text, for_players, held, parse_stamp, stamp
from ..base.errors import OrderError, StaleViewError, UsageError
from ..base.plurals import counted, noun
from ..base.readers import MODERATOR
from ..game import timeline as g_timeline
from ..game.clockwalk import Due, has_deadlines
from ..game.defaults import Answer, answer_words, default_answer
from ..game.pausedby import pause_of, pause_words
from ..game.planparts import heading_order
from ..game.replay import order_text
from ..game.timeline import Timeline, answers_missed
from ..render.documents import players_words, side_name
from ..store import home
from ..table import Table
from .askagain import (
    extensions_left,
    going_on,
    more_time,
    remind,
    season,
    whose,
)
from .deadlinepost import Post, address_of, everyone
from .firsttold import reported_this_pass
from .fornow import tell_hold_over
from .holds import Hold, sides_on_hold
from .ledger import fault, game_lock, save_ledger
from .missednotice import missed_facts, waiting_words
from .moderatorwait import WaitLine
from .refusal import prose
from .unasked import OVER, OWED, forget_unasked, keep_unasked, unasked_sides

# A line of a player's mail asking for more time: `extend 24h`.
EXTEND_LINE = re.compile(r"(?i)^extend\s+(\S+)\s*$")
# Each default answer either moves the game on to a new hand-off, whose deadline is later
# than now, or answers one more part of the same decision (a hit, a unit to place). The
# largest decision is a battle's losses: three counters (1.2.2) of the largest army template
# (charts.yaml) and a fort, every unit paying a hit, about 33 answers in TTLM; the bound is
# above it (tests/test_defaults.py checks it against the game data), so one pass answers a
# whole decision; a later pass goes on should it ever not.
MOST_ANSWERS = 50
# The runs of answers for silent sides the ledger keeps as told (the last pass's are asked).
MOST_TOLD = 64
# The held lines still to be entered that a held side's line names, at most.
MOST_NAMED = 5
# A deadline is ruled missed no sooner than this after it, and only by a pass that read the
# game's mailbox in full: a mail sent just before it and slowed on its way is in time.
GRACE = timedelta(minutes=15)
# A Due's fate in a pass (fate_of), when it is no missed deadline's policy.
HELD, REMIND, RULED, NOT_YET = "held", "remind", "ruled", "not yet"
# A Due whose side was not yet asked: the mail asking him has not gone out (unasked.py).
UNASKED = "unasked"
# What the line of a deadline passed and not yet ruled missed says, before why.
NOT_RULED = "; not ruled missed yet ("
# Why a deadline passed is not ruled missed while the mail asking its side has not gone out.
UNASKED_WHY = "the mail asking them has not gone out: the time is given back once it has"
# What a side whose mailed orders are held for the moderator's dice reads in place of his
# deadline, in every mail of his while they are (waiting.py, holds.py).
HELD_LINE = ("Your mailed orders for this decision are held: they need dice, and the "
             "moderator enters them with the dice he rolls. Do not send them again; no "
             "deadline runs for you until he has entered them.")


def extend_by_mail(table, side: str, lines: list[tuple[int, str]], mail: dict
                   ) -> tuple[str, str, list[int], list[str]]:
    """A player's mail asking for more time (its lines all `extend DURATION`, one of them):
    (status, reason, records, notes) for the inbox's outcome: applied, known or rejected
    (table: the game's Table, which appends it); notes: what opens his next mail, the
    extension granted and his new deadline."""
    asks = [(n, EXTEND_LINE.match(t)) for n, t in lines]
    if not all(found for _, found in asks):
        n = next(n for n, found in asks if not found)
        return "rejected", (f"line {n}: a mail asking for more time ('extend 24h') holds "
                            f"nothing else; send the orders in a mail of their own; nothing "
                            f"was applied"), [], []
    if len(asks) > 1:
        return "rejected", (f"line {asks[1][0]}: one 'extend' line a mail; nothing was "
                            f"applied"), [], []
    n, found = asks[0]
    try:
        made = g_timeline.extend(table.path, side, side, found.group(1), table.games_dir, mail,
                                 table.append)
    except (OrderError, UsageError) as exc:
        return "rejected", f"line {n}: {exc}; nothing was applied", [], []
    if not made:
        return "known", "already in the journal (another inbox run)", [], []
    tl = _timeline(table, table.raw)
    after = tl.due_for(side)
    words = f": {after.words}" if after is not None else ""
    granted = [] if after is None else [
        f"Your extension was granted: your orders are now due by "
        f"{for_players(after.due, after.zone)} ({extensions_left(tl, side)})."]
    return "applied", f"deadline extended by {made[0]['clock']['by']}{words}", \
        [r["seq"] for r in made], granted


def _timeline(table: Table, raw: bytes) -> Timeline:
    """The deadlines after raw's last record (an append's bytes under its lock)."""
    return g_timeline.timeline(table.journal, raw, table.games_dir, table.records_of(raw))


def deadline_lines(table, on_hold: dict[str, Hold]) -> dict[str, str]:
    """The line each side owing orders reads in its mails (table: the game's Table): its
    deadline in its own words (none in a game without deadlines; a paused game says so to
    every side, in the report's "Now": render/reports.py), or, to a side whose mailed
    orders are held for the moderator's dice (on_hold: holds.sides_on_hold), that they are
    (he sends them no second time, and no deadline runs for him), and which are still to
    be entered while the moderator is part way through them."""
    held = {side: prose(HELD_LINE + _still_held(hold)) for side, hold in on_hold.items()}
    if not has_deadlines(table.raw):
        return held
    tl = _timeline(table, table.raw)
    if tl.paused:
        return held
    return {**{d.side: prose(_due_line(tl, d)) for d in tl.dues}, **held}


def _still_held(hold: Hold) -> str:
    """The held lines still to be entered, while the moderator is part way through them
    (at most MOST_NAMED named, each as the player wrote it, to the player alone)."""
    if not 0 < len(hold.left) < len(hold.lines):
        return ""
    named = ", ".join(f"'{line[:60]}'" + ("…" if len(line) > 60 else "")
                      for line in hold.left[:MOST_NAMED])
    more = len(hold.left) - MOST_NAMED
    return (f" The moderator has entered {len(hold.lines) - len(hold.left)} of the "
            f"{counted(len(hold.lines), 'order')} of your mail; still to enter: {named}"
            + (f" and {more} more" if more > 0 else "") + ".")


def _due_line(tl: Timeline, d: Due) -> str:
    """A side's deadline as its mails give it: when its orders are due, or, once that time
    has passed, that the game waits for them (nobody answering for him) or that the referee
    goes on answering for him (what the notice of his answers said beside the report)."""
    if tl.is_late(d):
        return (f"Your orders were due by {for_players(d.due, d.zone)}; that time has passed "
                f"and the game waits for them (the moderator is told: he may extend the deadline)."
                f"{more_time(tl, d.side)}")
    if (d.side, d.handoff, stamp(d.due)) in tl.answered:
        return going_on(tl, d)
    return f"{d.words}.{more_time(tl, d.side)}"


def waits_on_the_moderator(table, name: str) -> str | None:
    """Why the game a Table holds can go on only when the moderator acts, in one line with
    what he may do (name: the journal as the line may show it), or None: it is paused, or a
    side's deadline passed and nobody answered for him (the policy wait, or a decision the
    rules leave no answer for)."""
    if not has_deadlines(table.raw):
        return None
    tl = _timeline(table, table.raw)
    if tl.paused:                   # why: the side and deadline missed, or his own pause
        pause = pause_of(table.raw)
        why = f"{pause_words(pause, table.raw)}; " if pause is not None else ""
        return WaitLine(f"the game is paused and waits on the moderator: {why}`referee "
                        f"deadline {name} --resume` resumes it", "paused",
                        [pause.side] if pause is not None else [])
    late = tl.late()
    return WaitLine(waiting_words(tl, late, name), "deadline_missed",
                    [d.side for d in late]) if late else None


def check_deadlines(journal: Path, outbox: Path, now: datetime,
                    games_dir: Path | None = None,
                    rule_missed: datetime | None | bool = True,
                    reporting: bool = False, sending: bool = False) -> list[str]:
    """Do what the deadlines ask at `now`: reminders, and the policy at each missed deadline;
    the mails go into outbox. Returns one line per action; run again at the same time, it
    does nothing. rule_missed: True rules every deadline passed by now; a time, only those
    due by then (tick: the pass read the game's mail, and the grace has run); None, none
    (its mail could not be read: an order may wait on the server). reporting: the reports
    owed follow (tick); no reminder goes with one that first asks (firsttold.py), and no
    deadline runs out on a side the mail asking him has not reached (unasked.py; sending:
    the outbox is a spool the pass sends from, its mails owed until sent)."""
    if rule_missed is True:
        rule_missed = now
    log: list[str] = []
    j = Table.writing(journal, games_dir)
    if not has_deadlines(j.raw):
        return log                  # a game without deadlines: nothing to replay
    head = j.records[0]
    # The game's mail lock, before the journal's (as inbox takes them): each mail is then
    # written once across the outboxes the ledger keeps (deadlinepost.py, elsewhere.py).
    # The records made here carry the time of the check (held).
    with game_lock(head["game_id"], head["hash"]), held(now):
        _owed_from_last_pass(j, outbox, now, games_dir, reporting)
        made: dict[int, tuple[dict, Answer]] = {}
        answer = None
        for _ in range(MOST_ANSWERS):
            answer = _facts(j, outbox, now, games_dir, log, rule_missed, reporting,
                            sending=sending)
            if answer is None or not _answer_for(j, outbox, now, games_dir, log, made,
                                                 *answer, reporting=reporting):
                break
        if answer is not None:      # the reminders, once the answers are made
            _facts(j, outbox, now, games_dir, log, rule_missed, reporting, answering=False,
                   sending=sending)
        if made:
            fault("answered")       # the answers recorded, none yet told
            _tell_answered(j, j.raw, [rec for rec, _ in made.values()], outbox, now,
                           games_dir, {seq: a for seq, (_, a) in made.items()}, reporting)
    return log


def _facts(j: Table, outbox: Path, now: datetime, games_dir, log: list[str],
           rule_missed: datetime | None = None, reporting: bool = False,
           answering: bool = True, sending: bool = False
           ) -> tuple[Timeline, Due, Answer] | None:
    """Under the journal's lock: the reminders due and the missed deadlines that need no
    order (wait, pause), each a record and its mails. Returns the first missed deadline the
    referee answers for (policy default), to be decided as that side's order; while there
    is one, no reminder is decided: the answer owes the other sides a report this pass,
    which gives each his deadline in its place (firsttold.told_this_pass). answering:
    False, the reminders alone, every answer left to a later pass."""
    found: list = []
    # A side whose mailed orders wait for the moderator's dice answered in time: the game
    # waits on the moderator (waiting.py), so the side is neither reminded nor ruled to
    # have missed a deadline. Read before the lock: a hold another run ends meanwhile spares
    # the side until the next pass, never rules him missed.
    on_hold = sides_on_hold(j)

    def build(raw: bytes) -> tuple[int, str, list[dict]]:
        tl = _timeline(j, raw)
        post = Post(j, raw, outbox, now, tl.state.game_id)
        bodies: list[dict] = []
        sides: list[dict[str, str]] = []

        def unasked() -> dict[str, str]:   # the ledger read only when a due asks something
            if not sides:
                sides.append(unasked_sides(post, tl.dues, sending, now - GRACE,
                                           tl.settings) if reporting else {})
            return sides[0]
        fates = [] if tl.paused else [(d, fate_of(tl, d, now, rule_missed, on_hold, unasked))
                                      for d in tl.dues]
        reminding = not answering or not any(isinstance(f, Answer) for _, f in fates)
        ruled: set[str] = set()
        for d, fate in fates:
            if any(b["clock"].get("missed") == "pause" for b in bodies):
                break
            if sides and sides[0].get(d.side) == OVER and fate not in (NOT_YET, RULED):
                tell_hold_over(tl, d, post, log)    # ruled now: the moderator told once
                forget_unasked(post, d.side)
            if fate == REMIND:
                bodies += remind(tl, d, now, post, log, reporting) if reminding else []
            elif fate == NOT_YET:
                _not_yet(d, rule_missed, log)
            elif fate == UNASKED:
                _unasked(d, now, post, log)
            elif isinstance(fate, Answer):
                if answering and not found:
                    found.append((tl, d, fate))
            elif fate not in (HELD, RULED) and d.side not in ruled:
                # The sides of one decision missed in this pass (a sealed plan: both) are
                # told of in one mail a reader.
                late = [e for e, f in fates if f == fate and e.handoff == d.handoff]
                ruled.update(e.side for e in late)
                bodies += missed_facts(tl, late, fate, post, log, reporting=reporting)
        return tl.seq, tl.hash, bodies

    written = j.append(build)[1]
    if found:
        tl, d, answer = found[0]
        tl.seq += len(written)
        return tl, d, answer
    return None


def fate_of(tl: Timeline, d: Due, now: datetime, rule_missed: datetime | None,
          on_hold, unasked=dict) -> str | Answer:
    """What a pass at now does for one Due (the game not paused), as `status` tells it too
    (nextpass.py): nothing (HELD: his
    mailed orders wait for the moderator's dice; RULED: its deadline was ruled missed
    before; UNASKED: the mail asking him waits in the spool, or, his deadline passed, is
    not yet written: unasked.py), REMIND (its deadline is still to come), NOT_YET (passed,
    not ruled missed in this pass), else the policy at the missed deadline: the referee's
    Answer (default), or "wait" (so too a default the rules give no answer for) or
    "pause"."""
    if d.side in on_hold:
        return HELD
    asks = now >= d.due or any(now >= d.due - r for r in d.reminders(tl.settings))
    why = unasked().get(d.side) if asks else None
    if why == OVER:                 # held no longer (fornow.py): ruled as any other
        why = None
    if why == OWED or (why is not None and now >= d.due and
                       not tl.is_late(d)):
        return UNASKED
    if now < d.due:
        return REMIND
    if tl.is_late(d):
        return RULED
    if rule_missed is None or rule_missed < d.due:
        return NOT_YET
    policy = tl.settings.missed
    if policy != "default":
        return policy
    answer = default_answer(tl.state, tl.data, d.side)
    return "wait" if answer is None else answer


def rules_now(j: Table, outbox: Path, now: datetime, rule_missed: datetime,
              sending: bool) -> bool:
    """Whether a check at now, the reports owed after it (tick), rules a deadline missed:
    the policy at it, an answer of the referee's, the game waiting or paused (nothing is
    written)."""
    if not has_deadlines(j.raw):
        return False
    tl = _timeline(j, j.raw)
    if tl.paused:
        return False
    on_hold = sides_on_hold(j)
    post = Post(j, j.raw, outbox, now, tl.state.game_id)
    sides: list[dict[str, str]] = []

    def unasked() -> dict[str, str]:
        if not sides:
            sides.append(unasked_sides(post, tl.dues, sending, now - GRACE, tl.settings))
        return sides[0]
    return any(fate_of(tl, d, now, rule_missed, on_hold, unasked) not in
               (HELD, REMIND, RULED, NOT_YET, UNASKED) for d in tl.dues)


def standing_note(line: str) -> bool:
    """Whether a line of check_deadlines stands while its cause does, and asks nothing of
    anyone: a deadline passed and not ruled missed yet (_not_yet, _unasked)."""
    return line.startswith("deadline: ") and NOT_RULED in line


def not_yet_why(rule_missed: datetime | None) -> str:
    """Why a deadline passed is NOT_YET ruled missed, in the words of tick's line."""
    return ("the game's mailbox could not be read in full: orders sent in time may wait "
            "there" if rule_missed is None else
            f"a mail sent in time may still be on its way: {duration_text(GRACE)} of grace")


def _not_yet(d: Due, rule_missed: datetime | None, log: list[str]) -> None:
    """A deadline passed that is not ruled missed in this pass, and why (once a pass)."""
    line = f"deadline: {players_words([d.side])}'s orders were due by " \
           f"{for_players(d.due, d.zone)}{NOT_RULED}{not_yet_why(rule_missed)})"
    if line not in log:
        log.append(line)


def _unasked(d: Due, now: datetime, post: Post, log: list[str]) -> None:
    """A side held because the mail asking him has not gone out: kept for the pass that
    sends it (unasked.py), and, his deadline passed, why it is not ruled (once a pass)."""
    keep_unasked(post, d)
    if now < d.due:
        return
    line = f"deadline: {players_words([d.side])}'s orders were due by " \
           f"{for_players(d.due, d.zone)}{NOT_RULED}{UNASKED_WHY})"
    if line not in log:
        log.append(line)


def _answer_for(j: Table, outbox: Path, now: datetime, games_dir, log: list[str],
                made: dict, tl: Timeline, d: Due, answer: Answer, reporting: bool = False
                ) -> bool:
    """The referee's answer for a side that let its deadline pass (policy default): the
    side's order, decided like any other, holding the missed deadline (into made, by seq:
    everyone is told once the pass has answered all it will); reporting: the reports owed
    follow (_wait_instead)."""
    text, rule = answer.text, answer.rule
    fact = {"kind": "missed", "side": d.side, "handoff": d.handoff, "due": stamp(d.due),
            "missed": "default", "rule": rule}
    try:
        result = j.submit(d.side, [text], expect_seq=tl.seq,
                          atomic=True, clock=fact)
    except StaleViewError:
        return True                 # another run moved the game on: look again
    except OrderError as exc:
        return _wait_instead(j, outbox, now, games_dir, log, d, str(exc), reporting)
    if not result.applied:
        reason = result.rejected[2] if result.rejected else "nothing was applied"
        return _wait_instead(j, outbox, now, games_dir, log, d, str(reason), reporting)
    rec = result.applied[0].record
    made[rec["seq"]] = (rec, answer)
    log.append(f"missed: {players_words([d.side])}'s orders were due by "
               f"{for_players(d.due, d.zone)}; the "
               f"referee answered {text!r} for him (rule {rule}, record {rec['seq']})")
    return True


def _wait_instead(j: Table, outbox: Path, now: datetime, games_dir, log: list[str],
                  d: Due, reason: str, reporting: bool = False) -> bool:
    """The referee could not give its default answer (a die his dice sheet must mix in,
    say): the game waits for the side as under the policy wait, the moderator told why,
    once; a reader the pass sends a report (reporting: tick's, after the referee's answers
    before this one) reads it there alone (missednotice.missed_facts). Returns False:
    nothing moved."""
    why = f"the referee could not answer for {side_name(d.side)} ({reason})"

    def build(raw: bytes) -> tuple[int, str, list[dict]]:
        tl = _timeline(j, raw)
        again = tl.due_for(d.side)
        if again is None or again.handoff != d.handoff or \
                tl.is_late(again):
            return tl.seq, tl.hash, []
        post = Post(j, raw, outbox, now, tl.state.game_id)
        return tl.seq, tl.hash, missed_facts(tl, [again], "wait", post, log, why, reporting)

    j.append(build)
    return False


def _tell_answered(j: Table, raw: bytes, recs: list[dict], outbox: Path, now: datetime,
                   games_dir, answers: dict[int, Answer] | None = None,
                   reporting: bool = False) -> None:
    """Everyone's mail about the referee's answers for silent sides, once: one mail a reader
    for each side's run of answers to one hand-off (a battle's hits paid one by one make one
    mail, not one each), but none to a reader the pass sends a report that tells them
    (reporting: tick's pass, whose reports follow; firsttold.reported_this_pass). A run cut
    off between the records and their mails writes them from the journal; a mark in the
    outbox says they were written. `answers`: the answers as the referee chose them, by
    record (else worked out again from the position before each)."""
    groups: dict[tuple[str, int], list[dict]] = {}
    for rec in recs:
        groups.setdefault((rec["clock"]["side"], rec["clock"]["handoff"]), []).append(rec)
    after = _timeline(j, raw)
    post = Post(j, raw, outbox, now, after.state.game_id)
    for run in groups.values():
        told = outbox / f".deadline-{run[0]['seq']:06d}-told"
        said = {"told": post.game_id, "seq": run[0]["seq"], "hash": run[0].get("hash")}
        if home.read_signed(told, 4096) != said and \
                run[0]["seq"] not in _runs_told(post.kept()):
            _tell_run(j, run, after, post, answers or {}, reporting)
            _keep_told(post.kept(), run[0]["seq"])
            _mark(outbox, told, said)


def _runs_told(ledger: dict) -> list[int]:
    """The runs of answers (by their first record) the ledger says were told: their mails
    taken out of their folder, and the route moved since, no folder shows them."""
    told = ledger.get("answers_told")
    return [n for n in told if type(n) is int] if isinstance(told, list) else []


def _keep_told(ledger: dict, seq: int) -> None:
    """The run of answers at record seq kept as told, the ledger saved."""
    ledger["answers_told"] = [*_runs_told(ledger), seq][-MOST_TOLD:]
    save_ledger(ledger)


def _tell_run(j: Table, run: list[dict], after: Timeline, post: Post,
              answers: dict[int, Answer], reporting: bool = False) -> None:
    """The mails of one side's run of answers to one hand-off, to the players and the
    observers: the game goes on without the moderator, so he is not mailed (the log and the
    journal say it). A reader whose report this pass tells the run (each answer, why it is
    this one, and his decision now, with that the referee goes on answering it: _due_line)
    is sent that report alone."""
    fact = run[0]["clock"]
    side, due = fact["side"], for_players(parse_stamp(fact["due"]), after.settings.zone)
    for reader in everyone(after, post, moderator=False):
        if reporting and reported_this_pass(post, after, reader, run[0]["seq"], run[-1]["seq"]):
            continue
        # A sealed answer (7.0, 2.0 I) stays sealed: the others read its placeholder only.
        shown = _told_once([(_shown(j, rec, answers.get(rec["seq"]), reader in (
            side, MODERATOR) or "private_order" not in rec), rec["seq"]) for rec in run])
        who = "you" if reader == side else after.data.player_words(side)
        body = (f"{whose(after, reader, side, True)} orders were due by "
                f"{due} and none came. Under the game's rule for a missed deadline (default) "
                f"the referee answered for {who} with {shown}.\n")
        owed = after.due_for(reader)
        if owed is not None and (reader, owed.handoff, stamp(owed.due)) in after.answered:
            body += ("\nThe decision asks more of you: the referee goes on answering for you "
                     "in the same way.\n")
        elif owed is not None:
            body += f"\nThe referee now waits for your orders. {owed.words}.\n"
        post.write(f"deadline-{run[0]['seq']:06d}-{side}-answered-{reader}.eml",
                   address_of(post, reader), post.subject(reader, season(after)), body, reader,
                   seq=after.seq)


def _shown(j: Table, rec: dict, answer: Answer | None, mine: bool) -> tuple[str, str]:
    """One answer as a reader of its mail may read it: the order and why it is this one,
    and its rule (a sealed one, to another reader, its heading only, and no rule)."""
    text, rule = order_text(rec), rec["clock"].get("rule")
    if not mine:
        return heading_order(rec["order"], rec), ""
    return answer_words(text, answer or _answer_of(j, rec, text)), f"rule {rule}; "


def _told_once(shown: list[tuple[tuple[str, str], int]]) -> str:
    """The answers of a run, each with its rule and record; the same answer given again in
    the next records (each hit paid by a unit of the same army and type) told once, with
    them all."""
    said: list[tuple[tuple[str, str], list[int]]] = []
    for words, seq in shown:
        if said and said[-1][0] == words:
            said[-1][1].append(seq)
        else:
            said.append((words, [seq]))
    return "; ".join(f"{text} ({rule}{noun(len(seqs), 'record')} "
                     f"{', '.join(map(str, seqs))})" for (text, rule), seqs in said)


def _mark(outbox: Path, told: Path, said: dict) -> None:
    """Written once, after the ledger keeps the run as told: a mail program that takes the
    mails out of the outbox leaves this mark, so that they are not written again. It is
    signed with this user's key (what the run is, in which game): a file of that name that
    is not the referee's, or the mark of another run or game, counts for nothing. Best
    effort: the ledger said it first."""
    try:
        outbox.mkdir(parents=True, exist_ok=True)
    except OSError:
        return
    home.write_signed(told, said)


def _answer_of(j: Table, rec: dict, text: str) -> Answer | None:
    """The referee's answer a record holds, worked out again from the position before it
    (None when it is not the one the referee would give there now: its words are then the
    plain ones)."""
    game = j.game(upto=rec["seq"] - 1)
    answer = default_answer(game.state, game.data, rec["clock"]["side"])
    return answer if answer is not None and answer.text == text else None


def _owed_from_last_pass(j: Table, outbox: Path, now: datetime, games_dir,
                         reporting: bool = False) -> None:
    """The mails of the last pass's answers for silent sides, if a run was cut off between
    their records and them: the answers made at the time of the journal's last answer (the
    records of one pass share its time), whatever was applied after them (a player's mail
    read by the next pass before its deadlines are checked)."""
    answered = [r for r in j.records[1:] if answers_missed(r)]
    if answered:
        last_at = answered[-1].get("at")
        _tell_answered(j, j.raw, [r for r in answered if r.get("at") == last_at], outbox,
                       now, games_dir, reporting=reporting)



def quiet_until(journal: Path, now: datetime, games_dir: Path | None = None
                ) -> datetime | None:
    """After a pass at `now` that did all the deadlines asked: the first later moment one
    may ask something again (a reminder's time, a deadline), None when none ever will (no
    deadlines, a paused game, every due already ruled), or `now` when a due has passed
    and is not yet ruled (the next pass must look)."""
    j = Table(journal, games_dir)
    if not has_deadlines(j.raw):
        return None
    tl = _timeline(j, j.raw)
    if tl.paused:
        return None
    moments: list[datetime] = []
    on_hold = sides_on_hold(j)
    for d in tl.dues:
        if tl.is_late(d) or d.side in on_hold:
            continue
        if now >= d.due:
            return now
        moments += [d.due - r for r in d.reminders(tl.settings) if d.due - r > now]
        moments.append(d.due)
    return min(moments) if moments else None
