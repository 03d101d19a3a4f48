"""Orders of a skirmish checked without a die rolled: `order --dry-run` (dry_run), and where
a mail's orders stopped, found again on the journal (stopped_at). A die's face is the
committed secret's for its record, so nothing here reads the secret: an order is checked
before it rolls (its check comes first), and the first die it asks for stops it."""

from __future__ import annotations

from typing import Any, NamedTuple

from ...base.errors import OrderError, UsageError, quoted
from ...base.plurals import counted
from ...contracts.skirmish import SkirmishOrders
from ...store.journal import stale
from . import decider as sk
from .life import body_of, check_open, check_side, replay
from .order_text import rejection


class DryRun(NamedTuple):
    """What a dry run found: the orders legal so far; where it stopped (the first order
    whose result needs dice) and the orders after it, not checked; or the order refused."""

    legal: list[str]
    stopped: str | None = None
    not_checked: list[str] = []
    rejected: tuple[int, OrderError] | None = None


def dry_run(records: list[dict], side: str, texts: list[str], given: list[int] | None,
            expect_seq: int | None = None) -> DryRun:
    """A side's orders checked as life.submit_many would take them, on the records given,
    each on the position the ones before it leave, up to the first that would roll a die;
    nothing is written. Every line is read first, as there: one that cannot be read
    refuses them all (none legal)."""
    last = records[-1]["seq"]
    if expect_seq is not None and expect_seq != last:
        raise stale(last, expect_seq)
    if given is not None and records[0]["dice"]["mode"] == "committed":
        raise UsageError("--dice: this game's dice are committed; nobody gives them")
    card, state = replay(records)
    check_side(side, tuple(state.sides))
    check_open(state)
    orders = []
    for i, text in enumerate(texts):
        try:
            orders.append(sk.parse_order(text, card))
        except OrderError as exc:
            return DryRun([], None, [t for n, t in enumerate(texts) if n != i], (i, exc))
    records, legal = list(records), []
    for i, (text, o) in enumerate(zip(texts, orders)):
        try:
            body = body_of(card, state, records, o, side, NoDice())
        except Rolled as why:
            return DryRun(legal, f"order {i + 1} ({quoted(text)}) is legal; the dry run stops "
                                 f"there: it would roll dice ({why.args[0]})", texts[i + 1:])
        except OrderError as exc:
            return DryRun(legal, rejected=(i, exc))
        seq = records[-1]["seq"] + 1
        records.append({**body, "seq": seq, "hash": ""})
        sk.evolve(card, state, body, seq)
        legal.append(text)
    return DryRun(legal)


def dry_answer(texts: list[str], run: DryRun, fmt: str
               ) -> tuple[Any, tuple[str, Exception] | None]:
    """A dry run as `order --dry-run` prints it (a campaign's words and keys), and the
    command's error for the order it found refused, if any."""
    refused = None
    if run.rejected is not None:
        at, exc = run.rejected
        refused = f"referee: {exc}; dry run: order {at + 1} is the first that would be " \
            f"rejected", exc
    if fmt == "json":
        return SkirmishOrders.of(
            records=[], dry_run=True, legal=run.legal, stopped=run.stopped,
            not_checked=run.not_checked,
            **({"rejected": rejection(texts, run.rejected[0], run.rejected[1])}
               if run.rejected else {})), refused
    lines = [f"dry run: {counted(len(run.legal), 'order')} legal so far; nothing was written",
             *(f"  ok: {t}" for t in run.legal)]
    if run.stopped:
        lines.append(f"stopped: {run.stopped}")
        if run.not_checked:
            lines.append("not checked: " + ", ".join(map(quoted, run.not_checked)))
    return "\n".join(lines), refused


def stopped_at(records: list[dict], side: str, texts: list[str], seqs: list[int]
               ) -> tuple[int, OrderError] | None:
    """Where submit_many stopped a side's orders that made records seqs (the first lines of
    texts) and why, found again on the journal as those records left it: what the answer
    to a mail applied before a stopped run must say of its refused line (mail/direct.py).
    None when every line made a record, or the line would be taken now. A line is refused
    before it rolls a die (its check comes first), so no die of it is rolled here."""
    at = len(seqs)
    if not seqs or at >= len(texts) or seqs[-1] >= len(records):
        return None
    upto = records[:seqs[-1] + 1]
    card, state = replay(upto)
    try:
        body_of(card, state, upto, sk.parse_order(texts[at], card), side, NoDice())
    except OrderError as exc:
        return at, exc
    except Rolled:
        pass
    return None


class Rolled(Exception):
    """An order checked here would roll a die: its check let it through (args: what the
    die is for)."""


class NoDice:
    """Dice that roll nothing: the first die asked for stops the order (Rolled); none asked
    for (a stealthy move's) is none rolled. A ruling's dice follow its test's stream
    (dicekeys.follow_test): none is drawn from it here, so there is none to follow."""

    given = None

    def keyed(self, source: dict | None, index: int = 0) -> None:
        """Follow a dice stream: nothing to do, as nothing is rolled."""

    def roll(self, sides: int, count: int, purpose: str) -> list[int]:
        if count == 0:
            return []
        raise Rolled(purpose)
