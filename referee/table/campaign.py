"""The campaign kind: TO THE LAST MAN! and AT ALL COSTS!, the games the rules engine plays
(referee/engine/, the sequence of play of rule 2.0), bound into one GameKind.

Only the standard library and the journal's store load with this module; each answer loads
the rules, the views or the renderers it needs (`start-up`), so that a command answered
from a kept view loads none of them.
"""

from __future__ import annotations

from .. import load_msgspec
from ..base.errors import UNREADABLE, UsageError
from ..base.readers import MODERATOR
from .kinds import GameKind, unplayable

# Imported for annotations only: the quick paths do without the typing module.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

class CampaignKind(GameKind):
    """The campaign games: every order decided by the engine, hands and plans kept secret."""

    name = "campaign"
    mail = "ledger"
    features = frozenset({"map", "area", "standing", "deadlines", "sheets", "route", "upgrade",
                          "rekey", "export", "roster", "autoplay"})

    def route_record(self, body: dict) -> dict:
        return body

    def keep_contract(self, seq: int, line: bytes) -> None:
        # start-up: the contracts' validation loads only for a command that writes
        from ..game.records import keep_contract

        keep_contract(seq, line)

    # ------------------------------------------------------------ the game
    def open(self, table, upto: int | None) -> Any:
        """The game replayed to its last record (or to record upto), from this user's
        snapshot when one fits; the state it leads to is kept as a snapshot."""
        load_msgspec()
        check = _cold_check(table) if upto is None else None
        try:
            return self._replayed(table, upto, check)
        finally:
            if check is not None:
                check.close()

    @staticmethod
    def _replayed(table, upto: int | None, check) -> Any:
        from ..engine.state import state_to_builtins  # start-up: the rules, for a replay
        from ..game.replay import Game, kept_walk, position  # start-up: the rules, for a replay
        from ..store import snapshot  # start-up: the rules, for a replay

        pos = position(table.journal, table.raw, table.games_dir, upto, table.checked_records(),
                       check)
        if upto is not None:
            if not 0 <= upto <= pos.seq:
                raise UsageError(f"--at {upto}: the journal has records 0 to {pos.seq}")
        elif pos.read:              # records were replayed: keep the state they lead to
            snapshot.save_state(table.path, table.raw, pos.bound, pos.seq, pos.hash, pos.header,
                                state_to_builtins(pos.state), kept_walk(pos.walk))
        game = Game(table.journal, pos.data, pos.header, pos.state, table.raw, pos.rules,
                    table.checked_records())
        game.bound, game.walk, game.last = pos.bound, pos.walk, pos.hash
        return game

    def load(self, game: str, games_dir: Path | None = None) -> Any:
        load_msgspec()
        from ..data.catalog import game_data  # start-up: the data, for a campaign game

        return game_data(game, games_dir)

    def shapes(self) -> tuple[type, ...]:
        from ..contracts.records import JournalHeader, JournalRecord  # start-up: contracts

        return JournalHeader, JournalRecord

    def setup(self, table) -> Any:
        from ..game.replay import start_state  # start-up: the rules

        game = table.game()
        return start_state(table.records[0], game.data, table.name)

    def sides(self, table) -> tuple[str, ...]:
        return tuple(table.game().data.sides)

    def sides_named(self, head: dict, games_dir: Path | None = None) -> tuple[str, ...]:
        game = head.get("game", "ttlm")     # a header that names no game is TTLM's (the first)
        return tuple(self.load(game if isinstance(game, str) else "ttlm", games_dir).sides)

    def verbs(self) -> frozenset[str]:
        from ..engine.reading import ORDER_WORDS  # start-up: only mail reads the verbs

        return ORDER_WORDS

    def parse(self, table, text: str) -> Any:
        from ..engine.reading import parse_order  # start-up: the rules

        game = table.game()
        return parse_order(text, game.data)

    def format(self, order: Any) -> str:
        from ..engine.order_text import format_order  # start-up: the rules

        return format_order(order)

    def decide(self, table, order: Any, side: str, dice: Any) -> Any:
        from ..engine import decide  # start-up: the rules

        game = table.game()
        return decide(game.state, game.data, order, side, dice)

    def evolve(self, table, state: Any, record: dict) -> None:
        from ..game.replay import apply_record  # start-up: the rules

        apply_record(state, record, table.game().data, table.name)

    def legal_orders(self, table, side: str) -> list[str]:
        from ..engine import legal_orders  # start-up: the rules
        from ..engine.order_text import format_order  # start-up: the rules

        game = table.game()
        return [format_order(o) for o in legal_orders(game.state, game.data, side)]

    def waiting_on(self, table) -> list[str]:
        from ..engine import waiting_on  # start-up: the rules

        return list(waiting_on(table.game().state))

    def prompt(self, table) -> str:
        from ..engine import pending_prompt  # start-up: the rules

        game = table.game()
        return pending_prompt(game.state, game.data)

    def season(self, table) -> str:
        game = table.game()
        return game.data.label(game.state.turn)     # the turn track's (2.0 VI)

    def step_at(self, table, seq: int) -> str:
        from ..render.documents import phase_words  # start-up: only a stale reply asks

        game = table.game(upto=seq)
        state, data = game.state, game.data
        view = {"phase": state.phase, "player": state.player,
                "terms": {"player_turn": data.info.terms.player_turn}}
        return f"{data.label(state.turn)}, {phase_words(view)}"

    def players(self, table) -> dict[str, str]:
        from ..store.players import roster  # start-up: only the players' commands ask

        return {side: p["address"] for side, p in roster(table.records).items()}

    def ended_for(self, table, reader: str) -> str | None:
        from .campaign_end import end_line  # start-up: only a mail pass asks

        return end_line(table)

    def moderator_wait(self, table, journal: str) -> tuple[str, str, list[str]] | None:
        return None         # its waits on the moderator are read by mail/waiting.py

    def ended(self, table, journal: str) -> tuple[dict, str] | None:
        from .campaign_end import ended  # start-up: only a mail pass asks

        return ended(table, journal, self.sides(table))

    def default_order(self, table, side: str) -> tuple[str, str] | None:
        from ..game.defaults import default_order  # start-up: only a missed deadline asks

        game = table.game()
        return default_order(game.state, game.data, side)

    # ------------------------------------------------------------ views
    def status_view(self, table, reader: str) -> dict:
        """The status view (2.0): whose decision, what kind, the legal orders, deadlines."""
        game = table.game()
        from ..game.views import readable_status_view  # start-up: the rules, no kept view

        try:
            view = readable_status_view(game.state, game.data, reader, game.game_id,
                                        game.header["dice"]["mode"])
        except UNREADABLE as exc:
            raise unplayable(table.path, game.state.seq, exc, "cannot be shown") from None
        if game.walk is not None:       # the journal holds a record about time: it was walked
            from ..game.dues import deadline_view, timeline_of  # start-up: a game with deadlines

            view["deadlines"] = deadline_view(timeline_of(
                game.walk, game.state, game.data, game.state.seq, game.last, table.name))
        return halted_now(view, table, None)

    def status_document(self, view: dict, aids: Any, every: bool) -> Any:
        from ..render.documents import status_document  # start-up: JSON needs no renderer

        return status_document(view, aids, every)

    def show_view(self, table, reader: str, at: int | None) -> dict:
        """Everything the reader may see of the game, now or after record at."""
        game = table.game(upto=at)
        from ..game.views import state_view  # start-up: the rules, when no kept view fits

        try:
            view = state_view(game.state, game.data, reader, game.game_id,
                              dice=game.header["dice"]["mode"])
        except UNREADABLE as exc:
            raise unplayable(table.path, game.state.seq, exc, "cannot be shown") from None
        return halted_now(view, table, at)

    def show_document(self, view: dict) -> Any:
        from ..render.documents import show_document  # start-up: JSON needs no renderer

        return show_document(view)

    # ------------------------------------------------------------ the commands
    def order(self, table, side: str, texts: list[str], fmt: str, **how: Any
              ) -> tuple[Any, tuple[str, Exception] | None]:
        from .ordering import take_orders  # start-up: only order

        return take_orders(table, side, texts, fmt, **how)

    def log(self, table, reader: str, since: int, fmt: str, width: int) -> Iterator[str]:
        from .ordering import log_lines  # start-up: only log

        return log_lines(table, reader, since, fmt, width)

    def report(self, table, reader: str, since: int | None, fmt: str, width: int = 72,
               dialect: str = "common", remember: bool = True, ruled=None) -> str:
        from ..render.reports import render_report  # start-up: only report

        doc, meta = table.report(reader, since, remember, ruled=ruled)
        return render_report(doc, meta, fmt, width, dialect)

    def explain(self, table, seq: str, reader: str, fmt: str, width: int) -> Any:
        from ..render.audit import explain, explain_document  # start-up: only explain
        from ..render.formats import render  # start-up: only explain

        doc = explain(table.path, table.raw, seq, reader, table.games_dir)
        return doc if fmt == "json" else render(explain_document(doc), "text", width)

    def dice(self, table, reader: str, fmt: str, width: int) -> Any:
        from ..render.audit import dice_counts, dice_document  # start-up: only dice
        from ..render.formats import render  # start-up: only dice

        doc = dice_counts(table.path, table.raw, reader, table.games_dir)
        return doc if fmt == "json" else render(dice_document(doc), "text", width)

    def verify(self, table, secret: Path | None, export: str | None, pins: list) -> Any:
        return table.verify(secret_file=secret, export=export, pins=pins)

    def reveal(self, table, force: bool) -> dict:
        return table.reveal(force)

    def order_keys(self, table) -> dict[str, str]:
        from ..store.players import order_key, roster  # start-up: only players --keys
        from ..store.secrets import load_secret, secret_missing  # start-up: only players --keys

        game = table.game()
        secret = load_secret(table.path, game.header)
        if secret is None:
            raise secret_missing(table.path, game.header, "to print the order keys")
        return {side: order_key(secret, game.game_id, side, p.get("key_no") or 0)
                for side, p in roster(table.records).items() if side != MODERATOR}

    def autoplay(self, table, seed: int, until: int | None, fmt: str
                 ) -> tuple[Any, str | None]:
        """game/autoplay.py: the seasonal turn `until` over, invariants checked after each
        record (a broken one is the failure)."""
        from ..contracts.outputs import AutoplayResult  # start-up: only autoplay
        from ..game.autoplay import autoplay as play  # start-up: only autoplay needs it

        out = play(table.path, seed, until, games_dir=table.games_dir)
        failure = None if out.failure is None else (
            f"invariant broken at {out.failure}; the journal holds every record up to it")
        if fmt == "json":
            return AutoplayResult.of(
                journal=str(table.path), records=out.records, turn=out.turn,
                game_over=out.over, result=out.result, failure=out.failure), failure
        return (f"{out.records} records played; turn {out.turn}; "
                + (f"game over: {(out.result or {}).get('level_name')}" if out.over else
                   "game not over")), failure

    def by_hand(self, journal: str, side: str) -> list[str]:
        """None: a player's address is changed instead (`referee players --set`)."""
        return []


CAMPAIGN = CampaignKind()


def _cold_check(table) -> Any:
    """A long journal this account keeps no snapshot of is replayed from its start: its
    check begins beside at once (store/checking.py), before the rules and the game data
    load here, so that it ends well before the replay does; None otherwise."""
    if table.checked_records() is not None:
        return None
    from ..game.records import parts_checked  # start-up: the contracts, for a replay
    from ..store import checking, snapshot  # start-up: for a replay

    if snapshot.has_state(table.path):
        return None
    return checking.start(table.raw, table.journal.name, parts_checked)


def halted_now(view: dict, table, at: int | None) -> dict:
    """A status or show view of the game now (at: None or its last record) as it reads
    while the game takes no orders, closed, paused or outdated (game/halts.py); a view of an earlier
    record as it is: no order is given to the past."""
    if at is not None and at != table.records[-1].get("seq"):
        return view
    from ..game.halts import halted, outdated_now  # start-up: the rules, when no kept view fits

    game = table.game()
    return halted(view, game.state, table.raw, lambda: table.records,
                  outdated_now(game, table.path, table.games_dir))
