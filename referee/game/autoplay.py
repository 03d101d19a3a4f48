"""Random legal play: the soak driver behind `referee autoplay` and the invariant tests.

Whoever must decide picks uniformly among legal_orders (never an armistice
or a surrender, which would end games early). After every record the
invariants are checked and the replayed journal is compared with the live
state; on the first failure the records so far (the failing one included)
are written, so the journal is a reproducible case.

A caller that must read an armistice (3.2) gives proposals: at the records they name a
side proposes one, and later takes it back, or the other side accepts or refuses it, or
nobody does and it lapses at a season's end (2.0 VI). None are made by default.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

from ..base.errors import UsageError
from ..contracts.orders import Armistice
from ..data.gamedata import GameData
from ..engine import decide, decide_plan, is_private, legal_orders, plan_label, sealed_for
from ..engine.evolve import evolve, parse_events
from ..engine.invariants import problems
from ..engine.order_text import format_order
from ..engine.state import State, other, state_to_builtins
from ..store import snapshot
from ..store.dice import Dice
from ..store.journal import Journal
from ..store.secrets import load_secret
from ..store.sheets import sheets_in
from .records import keep_contract
from .replay import body, check_current, position


@dataclass
class Outcome:
    """What a run of random play did."""

    records: int = 0
    turn: int = 0
    over: bool = False
    result: dict | None = None
    failure: str | None = None
    orders: list[str] = field(default_factory=list)
    state: object = None
    header: dict | None = None
    source: str = ""
    busiest: tuple[int, int] = (0, 0)     # (record, legal orders there): the busiest position


@dataclass(frozen=True)
class Proposal:
    """An armistice random play proposes (3.2): the record after record `at` is its
    proposal, by `side` (None: the side deciding then, as another may propose at any
    time); `after` records later, the next is its end: `end` "withdraw" (the proposer takes
    it back), "accept" (the other side accepts: the game ends) or "refuse"; with no end it
    stays open, and lapses at the end of a season once the other side has heard it (2.0
    VI). Counted from the journal's records, so that a game played a few records at a time
    makes it at the same place."""

    at: int
    end: str = ""
    after: int = 0
    side: str | None = None


def scheduled(state: State, data: GameData, seq: int, proposals: tuple[Proposal, ...]
              ) -> tuple[str, Armistice] | None:
    """(side, order) when a proposal's record comes after record seq; None otherwise (or
    when its proposal is not open, or another is)."""
    for p in proposals:
        if seq == p.at and state.armistice is None:
            return p.side or state.pending.side, Armistice(act="propose")
        if p.end and seq == p.at + 1 + p.after and state.armistice is not None:
            proposer = state.armistice
            if p.end == "withdraw":
                return proposer, Armistice(act="withdraw")
            return other(proposer, data), Armistice(act=p.end)
    return None


def autoplay(path: Path | str, seed: int, until: int | None = None,
             max_records: int | None = None, check_every: int = 1,
             games_dir: Path | None = None, proposals: tuple[Proposal, ...] = ()
             ) -> Outcome:
    """Play random legal orders into a journal until the game ends (or turn `until` ends);
    proposals: the armistices proposed on the way (none by default)."""
    journal = Journal(path, keep_contract)
    out = Outcome()

    def build(raw: bytes) -> tuple[int, str, list[dict]]:
        pos = position(journal, raw, games_dir)
        header, data, state = pos.header, pos.data, pos.state
        check_current(pos, journal.path, games_dir)
        if header["dice"]["mode"] != "committed":
            raise UsageError("autoplay rolls committed dice; this game uses manual dice")
        if sheets_in(raw):
            raise UsageError("autoplay rolls with the secret alone; this game has players' "
                             "dice sheets, whose links only the players hold")
        replayed = state.clone()
        secret = load_secret(journal.path, header)
        if secret is None:
            raise UsageError("autoplay needs the game's secret (JOURNAL.secret, or the file "
                             "given to new --secret-file)")
        rng = random.Random(f"{seed}/{pos.seq}")
        seq = pos.seq
        bodies: list[dict] = []
        while state.phase != "over":
            if until is not None and state.turn > until:
                break
            if max_records is not None and len(bodies) >= max_records:
                break
            side, order = scheduled(state, data, seq, proposals) or (state.pending.side, None)
            if order is None:
                options = [o for o in legal_orders(state, data, side) if o.kind != "armistice"]
                if not options:
                    out.failure = f"record {seq + 1}: the {side} player has no legal order"
                    break
                if len(options) > out.busiest[1]:
                    out.busiest = (seq, len(options))
                order = rng.choice(options)
            text = format_order(order)
            dice = Dice(header["game_id"], seq + 1, secret)
            if order.kind != "armistice" and sealed_for(state, side):   # one order per plan
                private = plan_label(state)
                events, state_after = decide_plan(state, data, [(text, order)], side, dice,
                                                  in_place=True)
            else:
                private = is_private(state, order)
                events, state_after = decide(state, data, order, side, dice, text,
                                             in_place=True)
            seq += 1
            state_after.seq = seq
            rec = body(side, text, events, dice, private)
            bodies.append(rec)
            out.orders.append(f"{side}: {text}")
            for ev in parse_events(rec["events"]):
                evolve(replayed, ev, data)
            replayed.seq = seq
            state = state_after
            if len(bodies) % check_every == 0 or state.phase == "over":
                broken = problems(state, data)
                if not broken and replayed != state:
                    broken = ["replaying the journal does not give the live state"]
                if broken:
                    out.failure = f"record {seq} ({side}: {text}): " + "; ".join(broken)
                    break
        out.records = len(bodies)
        out.turn = state.turn
        out.over = state.phase == "over"
        out.result = state.result
        out.state = state
        out.header = header
        out.source = pos.bound
        return pos.seq, pos.hash, bodies

    raw, written = journal.append_raw(build)
    if written and out.failure is None:
        snapshot.save_state(journal.path, raw, out.source, written[-1]["seq"],
                            written[-1]["hash"], out.header, state_to_builtins(out.state))
    return out
