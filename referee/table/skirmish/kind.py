"""The skirmish kind: the skirmish of TO THE LAST MAN! bound into one GameKind, so that
`order status show log report explain dice verify reveal players inbox` take its journal as
they take a campaign's. Its orders are the card's tests with the facts the ordering side
declares; every die comes from the committed secret; nothing of it is secret, so every
reader is shown the same."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ...base.errors import OrderError, UsageError, quoted
from ...base.plurals import counted
from ...base.readers import MODERATOR, check_reader
from ...base.warned import carried
from ...contracts.skirmish import (
    SkirmishDice,
    SkirmishHeader,
    SkirmishOrderResult,
    SkirmishOrders,
    SkirmishRecord,
    SkirmishReveal,
    SkirmishRoute,
    SkirmishStatus,
)
from ...game.audit import check_first, check_since, record_number
from ...render.documents import players_words, side_name
from ...render.formats import render
from ...render.sections import Document, Items, Section, Span, para
from ...store.signing import shown
from ..kinds import GameKind
from . import decider as sk
from . import life, mailed
from .asking import reader_report_text
from .disputewait import dispute_lines, disputes_of, moderator_wait
from .dones import done_words
from .dryrun import dry_answer, dry_run, stopped_at
from .ending import (
    DISPUTE_LEFT,
    disputable,
    end_line,
    end_words,
    ending_record,
    moderator_end_mail,
    open_after_the_end,
)
from .endresult import phase_now, result_of
from .explained import dice_counts, explained, explained_document
from .held import checked_records, closed
from .listed import move_turn_words, step_words, usable
from .loading import load_skirmish
from .made import record_lines
from .order_text import KINDS, refusal
from .report import (
    artillery_line,
    artillery_of,
    claims_by_side,
    ended_words,
    figure_words,
    owed_by_side,
    owed_lines,
    report_document,
    test_lines,
)
from .reported import kind_waiting, reader_report, waited
from .ruled import ruling_lines

FLOW = "Sequence of Play"


class SkirmishKind(GameKind):
    """The skirmish: tests declared and rolled, disputes within the challenge window, the
    moderator's rulings."""

    name = "skirmish"
    moderator_orders = True         # he settles disputes (the card's Disputes)
    mail = "direct"
    features = frozenset({"route", "autoplay"})

    def keep_contract(self, seq: int, line: bytes) -> None:
        life.keep_contract(seq, line)

    def route_record(self, body: dict) -> dict:
        return {"kind": "route", **body}

    # ------------------------------------------------------------ the game
    def open(self, table, upto: int | None) -> life.Skirmish:
        records = checked_records(table)
        if upto is not None:
            if not 0 <= upto < len(records):
                raise UsageError(f"--at {upto}: the journal has records 0 to "
                                 f"{len(records) - 1}")
            records = records[:upto + 1]
        return life.open_skirmish(table.path, records)

    def load(self, game: str, games_dir: Path | None = None) -> Any:
        from ...data.paths import default_games_dir  # start-up: only a skirmish's data

        return load_skirmish(Path(games_dir or default_games_dir()) / game)

    def shapes(self) -> tuple[type, ...]:
        return SkirmishHeader, SkirmishRecord, SkirmishReveal, SkirmishRoute

    def setup(self, table) -> Any:
        return life.replayed(checked_records(table)[:1], table.name)[1]

    def sides(self, table) -> tuple[str, ...]:
        return tuple(table.game().state.sides)

    def sides_named(self, head: dict, games_dir: Path | None = None) -> tuple[str, ...]:
        sides = (head.get("scenario_data") or {}).get("sides")
        return tuple(s for s in sides if isinstance(s, str)) if isinstance(sides, list) else ()

    def players(self, table) -> dict[str, str]:
        table.game()                    # a game that cannot be played has no players to show
        return dict(checked_records(table)[0].get("players", {}))

    def verbs(self) -> frozenset[str]:
        return frozenset(KINDS)

    def parse(self, table, text: str) -> sk.SkOrder:
        return sk.parse_order(text, table.game().card)

    def format(self, order: sk.SkOrder) -> str:
        return order.text

    def decide(self, table, order: sk.SkOrder, side: str, dice: Any) -> dict:
        game = table.game()
        return sk.decide(game.card, game.state.clone(), order, side, dice)

    def evolve(self, table, state: Any, record: dict) -> None:
        sk.evolve(table.game().card, state, record, record["seq"])

    def legal_orders(self, table, side: str) -> list[str]:
        """The first words open to side now: the tests of this phase (each with the facts
        he declares, which the referee cannot list), a dispute while one is open to him,
        and done; none once he is done."""
        game = table.game()
        if side not in self.waiting_on(table):
            return []
        tests = _open_tests(game, side)
        # A dispute open to him is his to send with his decision too (player.md, A skirmish).
        mine = disputable(table.records, game.state, side) if tests else []
        return [*tests[:-1], "dispute", tests[-1]] if mine else tests

    def waiting_on(self, table) -> list[str]:
        return kind_waiting(table)

    def prompt(self, table, side: str | None = None) -> str:
        """What the game asks now; side: the reader asked it (listed.move_turn_words), and
        the done taken from him (dones.done_words; else from each side the game waits on)."""
        game = table.game()
        closes = done_words(game.card, game.state, [side] if side else waited(game))
        return (f"{step_words(game)}"
                f"{move_turn_words(game.card, game.state, side)}: the tests of the phase with "
                f"the facts each side declares, then {closes} ({FLOW})")

    def season(self, table) -> str:
        return f"turn {table.game().state.turn}"

    def step_at(self, table, seq: int) -> str:
        return step_words(table.game(upto=seq))

    def default_order(self, table, side: str) -> tuple[str, str] | None:
        return "done", FLOW

    # ------------------------------------------------------------ views
    def status_view(self, table, reader: str) -> dict:
        _reader(table, reader)
        game, last = table.game(), checked_records(table)[-1]
        state = game.state
        waiting = self.waiting_on(table)
        return SkirmishStatus.plain(
            game_id=game.header["game_id"], game=game.header["game"],
            scenario=game.header["scenario"], seq=last["seq"], turn=state.turn,
            phase=phase_now(game.card, state),
            firing=[] if closed(state) else sk.firing_now(game.card, state),
            waiting_on=waiting, waiting_on_all=waiting,
            tests=_open_tests(game) or open_after_the_end(table.records, state, reader),
            owed=owed_by_side(game.card, state),
            claims=claims_by_side(game.card, state), **artillery_of(state),
            prompt=end_words(game.card, state) if closed(state) else self.prompt(table),
            game_over=state.over(), result=result_of(game.card, state),
            revealed=state.revealed, **disputes_of(game.card, state))

    def status_document(self, view: dict, aids: Any, every: bool) -> Document:
        """The status as text: whom the game waits on and for what, the tests of the phase;
        once it has ended, how (its prompt says it: ending.end_words) and no more."""
        title = f"Skirmish {view['game_id']} ({view['scenario']}): record {view['seq']}"
        if view["game_over"] or view["revealed"]:
            return Document(title, [Section("Now", [para(view["prompt"])] + (
                [para("The dice secret is revealed: the game is closed.")]
                if view["revealed"] else []) + (
                [para(DISPUTE_LEFT)] if "dispute" in view["tests"] else []) +
                [para(line) for line in dispute_lines(view)])])
        waiting = players_words(view["waiting_on"]) if view["waiting_on"] else "nobody"
        now = [para(Span("Waiting on ", "bold"), f"{waiting}: {view['prompt']}."),
               para("Tests of this phase: ", Span(", ".join(view["tests"]), "order")),
               *(para(line) for line in artillery_line(view.get("off_table_artillery"))),
               *(para(line) for line in owed_lines(view["owed"], view.get("claims"))),
               *(para(line) for line in dispute_lines(view))]
        return Document(title, [Section("Now", now)])

    def show_view(self, table, reader: str, at: int | None) -> dict:
        _reader(table, reader)
        game = table.game(upto=at)
        return report_document(game.header, game.card, game.state, waiting=waited(game))

    def show_document(self, view: dict) -> Document:
        return _report_sections(view)

    # ------------------------------------------------------------ the commands
    def order(self, table, side: str, texts: list[str], fmt: str, **how: Any
              ) -> tuple[Any, tuple[str, Exception] | None]:
        """The side's orders taken in turn, each its own record with its own dice
        (life.submit_many): a refusal before a die was rolled appends nothing and is the
        command's error; one after stops there, the records before it standing, and is
        the command's error after their lines."""
        if how.get("link") is not None:
            raise UsageError("--link: a skirmish's orders take none (it has no dice sheets)")
        if not texts:
            raise UsageError("no orders given (as arguments, or '-' / a file name for a list)")
        life.check_side(side, self.sides(table))
        given = given_dice(how.get("dice_text"))
        if how.get("dry_run"):          # checked up to the first die, nothing written
            return dry_answer(texts, dry_run(checked_records(table), side, texts, given,
                                             how.get("expect_seq")), fmt)
        try:
            records, refused = life.submit_many(table.path, side, texts, given,
                                                expect_seq=how.get("expect_seq"))
        except OrderError as exc:       # refused whole: as a campaign's, printed with it
            if fmt != "json":
                raise
            return SkirmishOrders.of(records=[], **refusal(texts, None, exc, whole=True)), \
                (f"referee: {exc}", exc)
        table.forget()
        stop = None if refused is None else _stopped(texts, *refused)
        if fmt == "json":
            return SkirmishOrders.of(
                records=[SkirmishOrderResult.of(record=r["seq"], body=r) for r in records],
                **({"not_applied": []} if refused is None else refusal(texts, *refused))), stop
        return self.taken_text(table, records), stop

    def taken_text(self, table, records: list[dict]) -> str:
        """The records an order made, as `order` and `skirmish order` print them: a test in
        two lines; a ruling, what it did (ruled.py); else one line."""
        return "\n".join(line for r in records for line in (
            ruling_lines(checked_records(table), table.game(), r["seq"])[0]
            if isinstance(r.get("settle"), dict) else [record_lines(r)]))

    def log(self, table, reader: str, since: int, fmt: str, width: int):
        """Each record: a test in two lines, else one; with fmt json each record whole, for
        the moderator alone (record 0 names the players' addresses, and a record the
        Message-ID its orders came in: nothing of a skirmish is salted for an export)."""
        _reader(table, reader)
        if fmt == "json" and reader != MODERATOR:
            self.needs("export", f"log --format json --as {reader}", table.path)
        records = checked_records(table)
        check_first(since, records[-1]["seq"])
        for rec in records[since:]:
            if fmt == "json":
                yield json.dumps(rec, sort_keys=True, separators=(",", ":"))
            elif rec["seq"] == 0:
                yield (f"#0 moderator: new skirmish {rec['game_id']} ({rec['scenario']}), "
                       f"dice {rec['dice']['mode']}")
            else:
                yield record_lines(rec)

    def report(self, table, reader: str, since: int | None, fmt: str, width: int = 72,
               dialect: str = "common", remember: bool = True, ruled=None) -> str:
        """The report: every test (after record `since`, when given) and the forces now; the
        same for every reader, so no bookmark is kept."""
        _reader(table, reader)
        if since is not None:
            check_since(since, checked_records(table)[-1]["seq"])
        doc = reader_report(self, table, reader, since=since or 0)
        if fmt == "json":
            return json.dumps(carried(doc), indent=2, ensure_ascii=False)
        if fmt == "text":
            return reader_report_text(doc).rstrip("\n")
        return render(_report_sections(doc), fmt, width, dialect).rstrip("\n")

    def explain(self, table, seq: str, reader: str, fmt: str, width: int) -> Any:
        _reader(table, reader)
        records = checked_records(table)
        rec = records[record_number(seq, records[-1]["seq"])]
        doc = explained(records, rec)
        return doc if fmt == "json" else render(explained_document(doc), "text", width)

    def dice(self, table, reader: str, fmt: str, width: int) -> Any:
        _reader(table, reader)
        records = checked_records(table)
        doc = SkirmishDice.of(game_id=records[0]["game_id"], dice=dice_counts(records))
        if fmt == "json":
            return doc
        rows = [[side_name(d.side), f"D{d.die}", str(d.rolled), " ".join(map(str, d.faces))]
                for d in doc.dice]
        from ...render.sections import Table as Rows  # start-up: only dice as text

        body = [Rows(["side", "die", "rolled", "each face, 1 up"], rows)] if rows else \
            [para("No die has been rolled yet.")]
        return render(Document(f"Dice of skirmish {doc.game_id}", [Section("", body)]),
                      "text", width)

    def verify(self, table, secret: Path | None, export: str | None, pins: list) -> Any:
        if export is not None:
            self.needs("export", "verify --export", table.path)
        lines, authors = life.verify_skirmish(table.path, secret, pins, table.raw)
        from ...store.timesback import went_back  # start-up: only verify needs it

        records = checked_records(table)
        return Verified(lines, len(records), authors, went_back(records[1:]))

    def reveal(self, table, force: bool) -> dict:
        rec = life.reveal_skirmish(table.path, force)
        table.forget()
        return rec

    def order_keys(self, table) -> dict[str, str]:
        return life.order_keys(table.path, checked_records(table)[0])

    def autoplay(self, table, seed: int, until: int | None, fmt: str) -> tuple[Any, str | None]:
        from .autoplayed import autoplayed  # start-up: only autoplay plays at random
        return autoplayed(table, seed, until, fmt)

    # ------------------------------------------------------------ mail (mail/direct.py)
    def by_hand(self, journal: str, side: str) -> list[str]:
        """The report to send the player whose address refuses mail (its players are fixed:
        no command registers another), and the command that enters the orders he sends."""
        return [f"referee skirmish report {journal} --as {side}",
                f"referee skirmish order {journal} 'ORDER' --as {side}"]

    def take_mail(self, table, side: str, lines: list[str], message_id: str,
                  content: str = "") -> life.Taken:
        """A mail's orders taken as life.submit_many takes them: the records they made, and
        the line refused after a die was rolled, if one was. content: the digest of the
        mail's Date, Subject and text, kept with them."""
        taken = life.submit_many(table.path, side, lines, mail=message_id,
                                 mail_content=content)
        table.forget()
        return taken

    def decision(self, table, seq: int | None, reader: str) -> tuple:
        return mailed.decision(table, seq, reader)

    def stopped_mail(self, table, side: str, lines: list[str], seqs: list[int]
                     ) -> tuple[int, Exception] | None:
        """The line a mail's orders stopped at after dice were rolled, and why, when its
        records are seqs (life.stopped_at): for an answer written after a stopped run."""
        return stopped_at(checked_records(table), side, lines, seqs)

    def mailed(self, table) -> dict[str, tuple[set[str], dict[str, int]]]:
        return mailed.mails_held(table)

    def recorded_lines(self, table, seqs: list[int]) -> list[str]:
        return mailed.recorded_lines(table, seqs)

    def mail_report(self, table, reader: str, since: int | None = None,
                    listed: tuple[int, ...] = (), full_most: int | None = None,
                    notes: dict[int, list[str]] | None = None) -> str:
        return mailed.mail_report(self, table, reader, since, listed, full_most, notes)

    def key_serves(self, table, reader: str) -> bool:
        """Whether reader's order key serves for anything still (mail/direct.py shows it
        only then): not once the game is closed, nor a player's once it is over and every
        test of the other side is past his challenge window."""
        state = table.game().state
        return state.revealed is None and (not state.over() or reader not in state.sides
                                           or bool(disputable(table.records, state, reader)))

    def moderator_wait(self, table, journal: str) -> tuple[str, str, list[str]] | None:
        return moderator_wait(table.game().card, table.game().state, journal)

    def ended_for(self, table, reader: str) -> str | None:
        return None if self.key_serves(table, reader) else end_line(table.game(), table.records)

    def ended(self, table, journal: str) -> tuple[dict, str] | None:
        """The record that ended the game and the moderator's mail telling him (how it ended,
        the commands left to him: journal, as he types it); None unless it is over, its
        secret unpublished and no dispute open (the dispute's mail asks him first)."""
        game = table.game()
        return None if game.state.revealed is not None or not game.state.over() or \
            sk.open_disputes(game.state.disputes) else \
            (ending_record(table.records), moderator_end_mail(game.card, game.state, journal))


class Verified:
    """What verify found of a skirmish: its lines, how many records it checked, and the
    warning of records dated back (store/timesback.py)."""

    def __init__(self, lines: list[str], records: int, authors, times: str | None):
        self.lines, self.records, self.older, self.times = lines, records, 0, times
        self.keys = [shown(f) for _, f in authors.keys]     # in order, as verify names them
        self.signed_from = authors.keys[0][0] if authors.keys else None


def _reader(table, reader: str) -> None:
    """A reader of a skirmish is a side of it, the public or the moderator (UsageError):
    all are shown the same, since nothing of it is secret."""
    check_reader(reader, tuple(table.game().state.sides))


def _open_tests(game, side: str | None = None) -> list[str]:
    """The first words of the orders the phase takes (the card's aimed fire is ordered as
    `fire`), then done; none once the game is over or closed. side: those open to him, one
    left out when no order of it can be legal now (listed.usable: a fire when none of his
    figures may fire, a move or a melee that check would refuse for every figure)."""
    if closed(game.state):
        return []
    tests = ["fire" if t == "aimed" else t for t in sk.phase_of(game.card, game.state).tests]
    if side is not None:
        tests = [t for t in tests if usable(game.card, game.state, side, t)]
    return [*tests, "done"]


def given_dice(dice: str | None) -> list[int] | None:
    """The dice a --dice manual game's order gives (every die in order: 3,17,5), or None
    (UsageError for anything but whole numbers separated by commas)."""
    if dice is None:
        return None
    try:
        return [int(x) for x in dice.split(",") if x.strip()]
    except ValueError:
        raise UsageError(f"--dice {dice!r}: whole numbers separated by commas") from None


def _stopped(texts: list[str], at: int, exc: Exception) -> tuple[str, Exception]:
    """The command's error when order `at` was refused after the orders before it rolled
    dice: those stand (their records are printed above), it and the rest were not taken."""
    before = "order 1 stands" if at == 1 else f"orders 1-{at} stand"
    line = (f"referee: {exc}; {before}, recorded once dice were rolled; order {at + 1} "
            f"({quoted(texts[at])}) was refused")
    rest = texts[at + 1:]
    return line + (f"; not taken: {', '.join(map(quoted, rest))}" if rest else ""), exc


def _report_sections(doc: dict) -> Document:
    """A skirmish report (or show) as a document every human format renders."""
    waiting = players_words(doc["waiting"]) if doc["waiting"] else "nobody"
    tests = [[Span(line.strip())] for t in doc["tests"] for line in test_lines(t)]
    forces = [[Span(f"section {s['id']} ({s['side']}, {s['quality']}): {s['killed']} killed, "
                    f"{counted(s['failures'], 'morale failure')}"
                    + (" (dispersed)" if s["dispersed"] else ""))] for s in doc["sections"]]
    forces += [[Span(figure_words(f))] for f in doc["figures"]]
    forces += [[Span(f"{c['defender']} in contact with {', '.join(c['attackers'])} (melee "
                     f"of turn {c['turn']})")] for c in doc.get("contacts", [])]
    step = f" ({' and '.join(doc['firing'])} figures fire now)" if doc.get("firing") else ""
    now = ended_words(doc) or f"{doc['phase']} phase{step}; waiting on {waiting}"
    return Document(f"Skirmish {doc['game_id']} ({doc['scenario']}): turn {doc['turn']}, {now}",
                    [Section("Tests", [Items(tests)] if tests else [para("No test yet.")]),
                     Section("Forces", [Items(forces)]),
                     *([Section("Now", [para(p) for p in doc["asked"]])]
                       if doc.get("asked") else [])])


SKIRMISH = SkirmishKind()
