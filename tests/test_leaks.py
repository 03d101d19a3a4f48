"""Secrets by default: no output shows a reader what is not his to see.

Thirty short random games (each a fresh journal from `referee new`, 15 with hidden army
templates and 15 without, all three scenarios, played by autoplay and stopped somewhere in
the first turn, in the middle of a production phase with one side's plan sealed and the
other's not yet given, or after a whole turn) are read by the German, the Entente and the
public (half the games through `--as public`, half through no `--as` at all) with every
command of COMMANDS, as JSON and in one of its text formats (text, markdown, BBCode) by turns
from game to game, so that each reader reads every format of every command in some third of
the games (the map picture in one game in four; the whole table in the game of
test_checks_find_every_kind_of_secret), and the outbox
mails `inbox` writes them (with map.png attached in those games: the SVG it is drawn from
is read) and the two observers of each game (the public report and map, read as the
public's); each JSON log
is exported and checked with `verify --export`; each side's first legal order is given on a
copy of the journal and what `order` prints him (text and json) is checked too. The
moderator reads everything once: no command may fail (exit 4, a traceback).

In a share of the games a side proposes an armistice (3.2) at a point of the random play
drawn with the game's seed (autoplay's proposals), and by game the proposal still stands at
the stop, is withdrawn, refused or accepted (the game ends), or lapses at the end of the
season (2.0 VI): every output above then carries the armistice's lines, and in those games
a side with no decision of his own gives his armistice order (a proposal, its withdrawal,
an answer) on a copy.

What a reader must not see is worked out from the moderator's truth (leakcheck.py): cards in
other hands and in the draw pile, the deck order, sealed plans before their reveal, hidden
army templates (the definition of test_hidden_templates.py), the players' and observers'
addresses and order keys, the salts of the secret parts. The Board section of every report
and outbox mail (and the `board` of a JSON report) is read again on its own
(leakcheck.board_part). The same checks run on the moderator's output (and on the players'
mails) as if another reader read it must find those secrets (negative controls, in every
game: among them the moderator's board, which names every hand and, with hidden templates,
every army's contents and every force pool), so a check that finds nothing cannot pass
unnoticed.

These games end early in the first turn; test_leaks_late.py reads positions over whole games
with the same readers, commands and checks.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import random
from collections import defaultdict
from dataclasses import dataclass, replace
from pathlib import Path
from unittest import mock

import pytest
import typer
import typer.testing
from forging import forget_mark
from inprocess import console
from leakcheck import MODERATOR, PUBLIC, SIDES, Output, Truth, board_part

from referee.cli.app import app
from referee.game.autoplay import Proposal, autoplay
from referee.render import png, svgmap

# ---------------------------------------------------------------- what is read

# Every command that prints game content: (command, extra arguments, formats, shape).
# shape (leakcheck.py): state (the position now), records (one chunk per record), whole (the
# game so far). A command the referee does not have (yet) is left out: a new one is one line.
COMMANDS = [
    ("show", (), ("text", "markdown", "bbcode", "chat", "json"), "state"),
    ("status", (), ("text", "markdown", "bbcode", "chat", "json"), "state"),
    ("status", ("--all",), ("text",), "state"),
    ("log", (), ("text", "json"), "records"),
    ("report", ("--since", "0"), ("text", "markdown", "bbcode", "chat", "json"), "records"),
    ("explain", (), ("text", "json"), "whole"),
    ("dice", (), ("text", "json"), "whole"),
    ("map", (), ("svg", "json"), "state"),   # writes a file: the SVG read back as the output
    ("area", ("verdun",), ("text", "chat", "json"), "state"),
]
# The area `area` reads, by game (a fortress city with a battle in many games).
AREA_OF = {"ttlm": "verdun", "aac": "warsaw"}
# Drawing the map costs more than printing a view: it is read in one game in seven (games 0, 7,
# 14 and 21, hidden templates and not, 1.4) and in the game of the negative controls.
PICTURES = 7
READERS = (*SIDES, PUBLIC)          # checked for leaks; the moderator is run for crashes only
BIG = 10 ** 9                       # autoplay's invariant checks are other tests' business

# ---------------------------------------------------------------- running the referee

_COMMAND = typer.main.get_command(app)          # built once: building it costs more than a run


def referee(*argv) -> tuple[int, str, str, str | None]:
    """Run the referee as the console script does, in-process: (exit code, stdout, stderr,
    the traceback of an exception that escaped, if any)."""
    return console(*argv)


def _commands() -> set[str]:
    return set(_COMMAND.commands)


@functools.cache
def _player_option() -> bool:
    """Whether `referee new` takes the players' addresses (--player SIDE=ADDRESS)."""
    return "--player" in referee("new", "--help")[1]


@functools.cache
def _formats(command: str, wanted: tuple[str, ...]) -> tuple[str, ...]:
    if command in ("show", "status", "log", "map"):
        return wanted
    help_text = referee(command, "--help")[1]
    if "--format" not in help_text:
        return ("text",)
    return tuple(f for f in wanted if f == "text" or f in help_text)


# ---------------------------------------------------------------- the games

@dataclass(frozen=True)
class Spec:
    n: int
    scenario: str
    hidden: bool
    stop: str           # early: after `steps` records; sealed: production, one side sealed;
    steps: int          # turn: after the first seasonal turn
    game: str = "ttlm"
    armistice: str = ""     # an armistice proposed (3.2), and at the stop: one of ENDINGS

    @property
    def name(self) -> str:
        return (f"g{self.n:02d}-{self.game}-{self.scenario}-"
                f"{'hidden' if self.hidden else 'open'}-"
                f"{self.stop}{self.steps if self.stop != 'turn' else ''}"
                f"{'-armistice-' + self.armistice if self.armistice else ''}")


def _games() -> list[Spec]:
    """22 games: 11 with hidden templates, 11 without; every scenario. Most stop somewhere in
    the first turn's player turns; 8 in the middle of the production phase (one side's
    orders sealed, the other's not yet given); 3 after a whole turn (plans revealed). One
    1914 game that stops after a whole turn is AT ALL COSTS!'s instead of TTLM's."""
    rng = random.Random(1914)
    stops = ["sealed"] * 8 + ["turn"] * 3 + ["early"] * 11
    rng.shuffle(stops)
    # (a sealed stop in 1916 or 1918 comes after a longer first turn, and its production
    # phase has many more orders to list: those are by far the slowest games)
    sealed = iter(["1914", "1916", "1914", "1914", "1914", "1918", "1914", "1914"])
    out = []
    for n, stop in enumerate(stops):
        scenario = next(sealed) if stop == "sealed" else "1914" if stop == "turn" else \
            ("1914", "1916", "1918")[n % 3]
        steps = {"early": rng.randint(1, 60), "sealed": rng.randint(1, 4), "turn": 0}[stop]
        out.append(Spec(n, scenario, n % 2 == 0, stop, steps))
    first = next(i for i, s in enumerate(out) if s.stop == "turn" and s.hidden)
    out[first] = replace(out[first], game="aac")
    for n, ending in ARMISTICES.items():
        assert ending in ENDINGS[out[n].stop], (out[n].name, ending)
        out[n] = replace(out[n], armistice=ending)
    return out


# How a proposal stands at the stop, by the stop it can come to: open (an early game's may
# not yet be heard; a sealed game's is made as the production phase opens), withdrawn by
# the proposer, refused or accepted by the other side, lapsed at the season's end (2.0 VI).
ENDINGS = {"early": ("standing", "withdrawn", "refused", "accepted"), "sealed": ("standing",),
           "turn": ("lapsed",)}
# The games with an armistice: each ending in `make test`'s games (0, 3, 4, 11), both kinds
# of templates with each in QUICK's, and a few more in the soak.
ARMISTICES = {0: "withdrawn", 3: "standing", 4: "lapsed", 11: "accepted", 8: "refused",
              19: "lapsed", 14: "accepted", 17: "withdrawn", 20: "standing"}
# The order that ends it, by ending (autoplay's Proposal.end).
_END = {"withdrawn": "withdraw", "refused": "refuse", "accepted": "accept"}


def proposals(spec: Spec, start: int) -> tuple[Proposal, ...]:
    """The armistice of spec's game, from record start on (the first record of its play, or
    of its production phase), drawn with its seed: proposed by the side deciding then or by
    either side, after some of an early game's records (and withdrawn or refused after some
    more, accepted after the last), or within the first records of a whole turn; none in a
    game without one."""
    if not spec.armistice:
        return ()
    rng = random.Random(f"armistice-{spec.n}")
    side = rng.choice((None, *SIDES))
    if spec.stop == "sealed":
        return (Proposal(start, side=side),)
    k = rng.randint(0, spec.steps - 1) if spec.stop == "early" else rng.randint(0, 15)
    after = 0 if spec.armistice not in _END else spec.steps - k \
        if spec.armistice == "accepted" else rng.randint(0, spec.steps - k)
    return (Proposal(start + k, _END.get(spec.armistice, ""), after, side),)


def armistice_read(name: str, endings: tuple[str, ...], truth: Truth) -> list[str]:
    """What a game's records and state lack of the armistices endings say (empty when they
    hold them: ENDINGS' words, "lapsed" too; none, a game without one)."""
    events = [e for r in truth.records for e in r.get("events", [])]
    kinds = {e["type"] for e in events if e["type"].startswith("Armistice")}
    ended = [e for e in events if e["type"] == "GameEnded" and "armistice" in e["reason"]]
    s = truth.state
    held = {"standing": kinds == {"ArmisticeProposed"} and s.armistice is not None,
            "withdrawn": "ArmisticeWithdrawn" in kinds and s.armistice is None,
            "refused": "ArmisticeRefused" in kinds and s.armistice is None,
            "accepted": bool(ended) and s.phase == "over",
            "lapsed": "ArmisticeLapsed" in kinds and s.armistice is None}
    if all(held[x] for x in endings) and (endings or not kinds):
        return []
    return [f"{name}: the records hold {sorted(kinds)}, {len(ended)} game ended by one, open "
            f"now: {s.armistice}; wanted: {', '.join(endings) or 'none'}"]


GAMES = _games()
# `make test` plays four of them (0, 3, 4, 11: tests/soaks.py), which between them hold every
# kind of stop, both kinds of templates, every scenario, both games and a map picture, and
# read every format of every command as every reader; `make soak-tests` the other six of
# QUICK; `make soak` all 22 (REFEREE_SOAK=1).
QUICK = {0, 3, 4, 6, 8, 10, 11, 13, 15, 19}
PLAYED = GAMES if os.environ.get("REFEREE_SOAK") == "1" else [s for s in GAMES if s.n in QUICK]
# The slow games first, so that the workers finish together.
_COST = {"sealed": 0, "turn": 1, "early": 2}
ORDERED = sorted(PLAYED, key=lambda s: (_COST[s.stop], -s.steps))


def _sealed_sides(state) -> tuple[list[str], list[str]]:
    """(sides with orders sealed in this production phase, sides with none yet)."""
    prod = state.production or {}
    plans, done = prod.get("plans") or {}, prod.get("done") or []
    some = [s for s in SIDES if plans.get(s) or s in done]
    return some, [s for s in SIDES if s not in some]


def play(spec: Spec, folder: Path, addresses: dict[str, str], observers: list[str]) -> Path:
    """A fresh game from `referee new`, played by autoplay up to the spec's stop."""
    journal = folder / f"{spec.name}.jsonl"
    secret = folder / "fixed.secret"
    secret.write_text(hashlib.sha256(f"leaks-{spec.n}".encode()).hexdigest() + "\n")
    secret.chmod(0o600)
    argv = ["new", journal, "--game", spec.game, "--scenario", spec.scenario,
            "--game-id", f"leaks-{spec.n}",
            "--secret-file", secret, "--option",
            f"hidden_templates={'true' if spec.hidden else 'false'}"]
    for side, addr in addresses.items():
        argv += ["--player", f"{side}={addr}"]
    for addr in observers:
        argv += ["--player", f"observer={addr}"]
    code, out, err, escaped = referee(*argv)
    assert code == 0 and escaped is None, f"referee new: {err}{escaped or ''}"
    out = autoplay(journal, spec.n, max_records=0, check_every=BIG)
    first = out.state.turn
    armistice = proposals(spec, out.state.seq)
    if spec.stop == "early":        # the armistice's records besides the steps of play
        extra = sum(1 + bool(p.end) for p in armistice)
        out = autoplay(journal, spec.n, until=first, max_records=spec.steps + extra,
                       check_every=BIG, proposals=armistice)
    elif spec.stop == "turn":
        out = autoplay(journal, spec.n, until=first, check_every=BIG, proposals=armistice)
    else:
        # Up to the production phase: two passes in a row end the player turns (2.0 IV), and
        # a pass turn is two records at least (pass, end turn), so four records from inside
        # an offensive (or from the reinforcement phase) cannot reach it; else one at a time.
        # Then on: stop with one side's orders sealed and the other's not yet given.
        taken = 0
        while out.state.phase != "production":
            ts = out.state.turn_state
            calm = out.state.consecutive_passes or (
                ts is not None and ts.mode not in ("offensive", "limited"))
            step = 1 if calm else 4
            out = autoplay(journal, spec.n, until=first, max_records=step, check_every=BIG)
            assert out.failure is None, out.failure
            assert out.records and out.state.turn == first and not out.over, \
                f"{spec.name}: the first turn ended without a sealed production phase"
        armistice = proposals(spec, out.state.seq)
        while True:
            some, none = _sealed_sides(out.state)
            assert none, f"{spec.name}: both plans were sealed before the stop"
            if some and (taken >= spec.steps or out.state.pending.side in none):
                break
            out = autoplay(journal, spec.n, until=first, max_records=1, check_every=BIG,
                           proposals=armistice)
            taken += 1
    assert out.failure is None, out.failure
    return journal


def read_everything(journal: Path, reader: str, folder: Path, default: bool = False,
                    pictures: bool = True, turn: int | None = None,
                    since: int = 0, export: bool = True) -> list[Output]:
    """Every command of the table for one reader in each of its formats, and the export of
    the log checked by verify. default: the public reader named by no --as at all; pictures:
    the map too; turn: read a command that has several text formats (text, markdown, bbcode)
    as JSON and in one of them, the one whose turn it is (so that over the games each reader
    reads every format of every command); since: the first record `log` and `report` print
    (a late position of a long game: the records about it); export: the whole log exported
    and verified (with since, read on its own)."""
    have = _commands() - ({"map"} if not pictures else set())
    outs = []
    as_ = [] if default else ["--as", reader]
    for command, extra, formats, shape in COMMANDS:
        if command not in have:
            continue
        if command == "explain":
            records = [json.loads(line) for line in journal.read_text().splitlines()]
            extra = (str(explained_record(records)), *extra)
        if command == "area":
            with journal.open(encoding="utf-8") as fh:
                extra = (AREA_OF[json.loads(fh.readline())["game"]],)
        if since and command in ("log", "report"):    # (report: the records after it)
            extra = ("--since", str(since if command == "log" else since - 1))
        formats = _formats(command, formats)
        if reader == MODERATOR:         # once for crashes, and what the controls read
            formats = tuple(f for f in formats if f in ("json", "svg") or
                            f == "text" and command in ("show", "log")) or formats[:1]
        elif turn is not None:
            formats = by_turns(formats, reader, turn)
        for fmt in formats:
            if command == "map":        # the picture is the output, and what JSON says of it
                picture = folder / f"map-{reader}{'-default' if default else ''}.svg"
                argv = [command, journal, *as_, *extra, "-o", picture]
                if fmt == "json":
                    argv += ["--format", "json"]
                code, out, err, escaped = referee(*argv)
                if fmt != "json":
                    out = picture.read_text(encoding="utf-8") if code == 0 else out
            else:
                argv = [command, journal, *as_, *extra, "--format", fmt]
                code, out, err, escaped = referee(*argv)
            outs.append(Output(command, fmt, reader, argv, code, out, err + (escaped or ""),
                               shape))
            if command == "log" and fmt == "json" and export:
                exported = folder / f"export-{reader}{'-default' if default else ''}.jsonl"
                if since:           # the whole log, which verify reads from the header on
                    argv = [command, journal, *as_, "--format", fmt]
                    code, out, err, escaped = referee(*argv)
                    outs.append(Output(command, fmt, reader, argv, code, out,
                                       err + (escaped or ""), shape))
                exported.write_text(out)
                argv = ["verify", exported, "--export", reader]
                code, vout, verr, escaped = referee(*argv)
                outs.append(Output("verify", "text", reader, argv, code, vout,
                                   verr + (escaped or ""), "whole"))
    return outs


def by_turns(formats: tuple[str, ...], reader: str, turn: int) -> tuple[str, ...]:
    """The formats a reader reads in the game whose turn it is: all but the text formats, and
    one of those, each in its turn."""
    texts = [f for f in formats if f in ("text", "markdown", "bbcode")]
    if len(texts) < 2:
        return formats
    mine = texts[(turn + READERS.index(reader)) % len(texts)]
    return tuple(f for f in formats if f not in texts or f == mine)


def explained_record(records: list[dict]) -> int:
    """The record `explain` is read on: the last one holding a sealed order (a plan, an order
    between hidden templates), else the last with a fire phase, else the last."""
    for wanted in (lambda r: "private_order" in r,
                   lambda r: any(e.get("type") == "FireResolved" for e in r.get("events", []))):
        found = [r["seq"] for r in records if wanted(r)]
        if found:
            return found[-1]
    return records[-1]["seq"]


def crashes(outs: list[Output]) -> list[str]:
    """Outputs that failed: a non-zero exit (4: an internal error) or a traceback."""
    bad = []
    for o in outs:
        if o.code != 0 or "Traceback" in o.out + o.err or "internal error" in o.err:
            bad.append(f"{o.label()} as {o.reader}: exit {o.code}: {o.err.strip()[-600:]}")
    return bad


def leak_report(found: dict[tuple, list]) -> str:
    lines = []
    for (label, reader, kind), leaks in sorted(found.items()):
        lines.append(f"  {label} [{reader}] {kind} x{len(leaks)}: {leaks[0].line()}")
    return "\n".join(lines)


def roster(journal: Path) -> tuple[Output | None, dict[str, str], dict[str, str], list[str]]:
    """The moderator's `players --keys` (None when the referee has no players): the output,
    each side's address, each side's order key and the observers' addresses."""
    if "players" not in _commands():
        return None, {}, {}, []
    argv = ["players", journal, "--keys", "--format", "json"]
    code, out, err, escaped = referee(*argv)
    o = Output("players", "json", MODERATOR, argv, code, out, err + (escaped or ""), "whole")
    if code != 0:
        return o, {}, {}, []
    doc = json.loads(out)
    rows = [r for r in doc.get("players", []) if r.get("side") in SIDES]
    return o, {r["side"]: r["address"] for r in rows if r.get("address")}, \
        {r["side"]: r["key"] for r in rows if r.get("key")}, list(doc.get("observers", []))


def outbox_mails(journal: Path, folder: Path, addresses: dict[str, str],
                 pictures: bool = True, observers: list[str] = ()) -> list[Output]:
    """The moderator's `inbox` over an empty Maildir writes each player his report and each
    observer the public report: each mail (headers and decoded body, and with pictures the
    map attached) is what its recipient reads, an observer's read as the public's (his own
    address in it allowed)."""
    import email
    from email.policy import default as policy

    if not addresses or "inbox" not in _commands():
        return []
    box = folder / "Maildir"
    for sub in ("cur", "new", "tmp"):
        (box / sub).mkdir(parents=True, exist_ok=True)
    argv = ["inbox", journal, box, "--outbox", folder / "outbox",
            "--map" if pictures else "--no-map"]
    drawn: dict[bytes, str] = {}          # each PNG attached, and the SVG it was drawn from

    def recording(svg, width=None) -> bytes:
        # What a reader may see is in the SVG; the pixels Pillow makes of it are test_map.py's
        # (the PNG decodes, its size) and cost more than the rest of a game: a stand-in here.
        text = svg if isinstance(svg, str) else svgmap.as_text(svg)
        made = b"\x89PNG\r\n\x1a\n" + hashlib.sha256(text.encode("utf-8")).digest()
        drawn[made] = text
        return made

    with mock.patch.object(png, "to_png", recording):
        code, out, err, escaped = referee(*argv)
    assert code == 0 and escaped is None, f"inbox: {err}{escaped or ''}"
    side_of = {a.casefold(): s for s, a in addresses.items()}
    side_of.update({a.casefold(): PUBLIC for a in observers})
    mails = []
    for path in sorted((folder / "outbox").glob("*.eml")):
        msg = email.message_from_bytes(path.read_bytes(), policy=policy)
        reader = side_of[str(msg["To"]).casefold()]
        own = str(msg["To"]) if reader == PUBLIC else ""
        body = msg.get_body(("plain",))
        text = "".join(f"{k}: {v}\n" for k, v in msg.items()) + "\n" + body.get_content()
        mails.append(Output("outbox", "text", reader, ["outbox", journal, str(path.name)], 0,
                            text, "", "records", own))
        for att in msg.iter_attachments():      # the map drawn for him, as PNG
            assert att.get_content_type() == "image/png", att.get_content_type()
            svg = drawn[att.get_content()]      # a PNG drawn from an SVG, read as text
            mails.append(Output("map", "svg", reader, ["outbox", journal, f"{path.name} map"],
                                0, svg, "", "state"))
        assert pictures == any(True for _ in msg.iter_attachments()), path.name
    assert {m.reader for m in mails} == set(addresses) | ({PUBLIC} if observers else set()), \
        "a report for every player"
    sent = sorted(m.own.casefold() for m in mails if m.command == "outbox" and m.own)
    assert sent == sorted(a.casefold() for a in observers), "one mail for each observer"
    return mails


def check_game(journal: Path, folder: Path, addresses: dict[str, str], observers: list[str],
               public_by_default: bool, pictures: bool = True, turn: int | None = None,
               former: tuple[str, ...] = (), since: int = 0, orders: bool = True,
               armistice: bool = False) -> tuple[Truth, list[Output], dict]:
    """Every output of the game for every reader, checked: (the truth, what the negative
    controls read -- the moderator's outputs and the players' mails --, the leaks found).
    former: what the roster held before the moderator changed it (an address replaced, an
    observer dropped, an order key renewed), which no reader but the moderator may see.
    since: the first record `log` and `report` print; orders: each side's first order given
    on a copy too (a journal another referee signed takes none); armistice: a side with no
    decision gives his armistice order there, a proposal too (a game with an armistice)."""
    players, registered, keys, watchers = roster(journal)
    assert registered == addresses, f"players: {registered}, registered with new: {addresses}"
    assert watchers == observers, f"observers: {watchers}, registered with new: {observers}"
    truth = Truth(journal, addresses, keys, observers)
    outs: list[Output] = outbox_mails(journal, folder, addresses, pictures, observers)
    for reader in READERS:
        # (from a late position read by turns, the whole log is exported by one reader)
        outs += read_everything(journal, reader, folder,
                                default=reader == PUBLIC and public_by_default,
                                pictures=pictures, turn=turn, since=since,
                                export=not since or turn is None or
                                READERS[turn % len(READERS)] == reader)
    moderator = read_everything(journal, MODERATOR, folder, pictures=pictures, since=since,
                                export=not since) + \
        ([players] if players else [])
    moderator += [b for b in map(board_part, moderator) if b is not None]
    moderator += [o for o in outs if o.command == "outbox"]
    outs += [b for b in map(board_part, outs) if b is not None]
    bad = crashes(outs + moderator)
    assert not bad, "commands failed:\n" + "\n".join(bad)
    found: dict[tuple, list] = defaultdict(list)
    for o in outs:
        for leak in truth.leaks(o):
            found[(o.label(), o.reader, leak.kind)].append(leak)
        shown = (o.out if isinstance(o.out, str) else o.out.decode("latin-1")).casefold()
        found.update({(o.label(), o.reader, "former"): [x] for x in former
                      if x.casefold() in shown})
    for side in SIDES if orders else ():
        for o, after in order_outputs(journal, folder, side, addresses, keys, observers,
                                      armistice):
            bad = crashes([o])
            assert not bad, "order failed:\n" + "\n".join(bad)
            for leak in after.leaks(o):
                found[(o.label(), o.reader, leak.kind)].append(leak)
    return truth, moderator, found


def order_outputs(journal: Path, folder: Path, side: str, addresses: dict[str, str],
                  keys: dict[str, str], observers: list[str], armistice: bool = False
                  ) -> list[tuple[Output, Truth]]:
    """What `order` prints to the side that gives it (its records and its status), in both
    formats, each on a copy of the journal, with the truth of that copy afterwards. Never a
    surrender; an armistice proposal only with armistice, from a side with nothing else to
    order (the answers to a proposal and its withdrawal, which such a side gives first,
    whenever one is open)."""
    code, out, _, _ = referee("status", journal, "--as", side, "--format", "json")
    left_out = ("surrender",) if armistice else ("propose armistice", "surrender")
    legal = [o for o in json.loads(out)["legal"] if o not in left_out] if code == 0 else []
    if not legal:
        return []
    outs = []
    for fmt in ("text", "json"):
        copy = folder / f"order-{side}-{fmt}.jsonl"
        copy.write_bytes(journal.read_bytes())
        forget_mark(copy)                       # each copy played on its own
        copy.chmod(0o600)
        argv = ["order", copy, "--as", side, legal[0], "--format", fmt]
        code, out, err, escaped = referee(*argv)
        o = Output("order", fmt, side, argv, code, out, err + (escaped or ""), "records")
        outs.append((o, Truth(copy, addresses, keys, observers)))
    return outs


def controls(truth: Truth, moderator: list[Output], since: int = 0) -> list[str]:
    """Negative controls: the checks, run on the moderator's output as if a side or the public
    read it, must find the secrets the moderator sees. Returns the controls that found
    nothing. since: the first record the moderator's log and report printed (what they must
    find is what the records from there on hold)."""
    def of(command: str, fmt: str) -> Output:
        return next(o for o in moderator if o.command == command and o.fmt == fmt)

    s = truth.state
    missed = []
    found: dict[tuple[int, str], set[str]] = {}
    boards = [o for o in moderator if o.command == "board"]
    if "report" in _commands():
        read = {o.fmt for o in moderator if o.command == "report"}
        if {o.fmt for o in boards} != read:
            missed.append(f"board: found in the moderator's report as "
                          f"{sorted(o.fmt for o in boards)}, read as {sorted(read)}")

    def expect(kind: str, o: Output, reader: str, why: str) -> None:
        if (id(o), reader) not in found:
            found[id(o), reader] = {leak.kind for leak in truth.leaks(o, reader)}
        if kind not in found[id(o), reader]:
            missed.append(f"{kind}: {why}, but the check finds nothing in the moderator's "
                          f"{o.label()} read as {reader}")

    for reader in READERS:
        others = [x for x in SIDES if x != reader]
        if any(s.hands.get(x) for x in others):
            expect("hand", of("show", "json"), reader, "another hand holds cards")
            own = truth.explained_now(reader)
            if {truth.card_title[c] for x in others for c in s.hands.get(x, [])} - own:
                expect("hand", of("show", "text"), reader, "another hand holds a card title "
                       "the reader cannot account for")
            for o in boards:
                if o.fmt == "json" or {truth.card_title[c] for x in others
                                       for c in s.hands.get(x, [])} - own:
                    expect("hand", o, reader, "the moderator's board names another hand")
        reports = [of("report", "json")] if "report" in _commands() else []
        if s.draw_pile and (not since or truth.at_stake("deck", reader, since)):
            for o in [of("log", "json"), of("log", "text"), *reports]:
                expect("deck", o, reader, "the deck was shuffled")
        if truth.sealed_secrets(reader, since):
            for o in [of("log", "json"), of("log", "text"), *reports]:
                expect("sealed", o, reader, "another side sealed orders")
        if truth.template_secrets(reader, since):
            for o in [of("log", "json"), of("log", "text"), *reports]:
                expect("template", o, reader, "another side's template is named outside "
                       "battles")
        if truth.hidden and any(a.status == "map" and a.contents and
                                truth.army_side[a.id] != reader for a in s.armies.values()):
            expect("template", of("show", "json"), reader, "another side's army holds units")
            expect("template", of("show", "text"), reader, "another side's army holds units")
            if any(o.command == "map" for o in moderator):
                expect("template", of("map", "svg"), reader, "another side's army holds units")
            for o in boards:
                expect("template", o, reader, "the moderator's board shows another side's "
                       "army contents")
        if "explain" in _commands():
            part = truth.records[explained_record(truth.records)].get("private_order") or {}
            lines = (part.get("data") or {}).get("text", "").split("\n")
            if part.get("to") != reader and set(lines) & truth.sealed_now(reader):
                expect("sealed", of("explain", "json"), reader, "the record explained holds "
                       "a plan still sealed from the reader")
        if not since or truth.parts_for_others(reader, since):
            expect("salt", of("log", "json"), reader, "secret parts have salts")
            expect("redaction", of("log", "json"), reader, "secret parts are in the journal")
        if truth.addresses and any(side != reader for side in truth.addresses):
            logs = [] if since else [of("log", "json")]     # the roster is in record 0
            for o in (of("players", "json"), *logs):
                expect("address", o, reader, "addresses were registered")
        if truth.keys and any(side != reader for side in truth.keys):
            expect("key", of("players", "json"), reader, "each side has an order key")
        if truth.observers:
            shown = [leak for leak in truth.leaks(of("players", "json"), reader)
                     if leak.what.startswith("observer: ")]
            if {leak.what for leak in shown} != {f"observer: {a}" for a in truth.observers}:
                missed.append(f"address: observers were registered, but the check finds "
                              f"{len(shown)} of them in the moderator's players read as {reader}")
    for o in moderator:
        if o.command != "outbox":
            continue
        if o.reader in SIDES and o.reader in truth.keys:
            if s.phase != "over":       # (once it has ended, his mail says it takes none)
                expect("key", o, PUBLIC, "a player's mail carries his order key")
        elif o.own:                 # an observer's mail, as if it were not his own address
            expect("address", replace(o, own=""), PUBLIC, "the mail is to an observer")
    return missed


def _addresses(n: int) -> dict[str, str]:
    return {side: f"{side}.player{n}@example.org" for side in SIDES} if _player_option() \
        else {}


def _observers(n: int) -> list[str]:
    """Two observers of game n (one address in capitals: a reply may keep them)."""
    return [f"observer{n}@example.org", f"Press.Desk{n}@Example.COM"] if _player_option() \
        else []


# ---------------------------------------------------------------- the tests

@pytest.mark.parametrize("spec", ORDERED, ids=lambda s: s.name)
def test_no_reader_sees_a_secret(spec: Spec, tmp_path: Path):
    addresses, observers = _addresses(spec.n), _observers(spec.n)
    journal = play(spec, tmp_path, addresses, observers)
    truth, moderator, found = check_game(journal, tmp_path, addresses, observers,
                                         public_by_default=spec.n % 4 < 2,
                                         pictures=spec.n % PICTURES == 0, turn=spec.n,
                                         armistice=bool(spec.armistice))
    wanted = (spec.armistice,) if spec.armistice else ()
    assert not armistice_read(spec.name, wanted, truth), armistice_read(spec.name, wanted, truth)
    if spec.stop == "sealed":
        some, none = _sealed_sides(truth.state)
        assert truth.state.phase == "production" and some and none, \
            f"{spec.name}: not stopped with one side's plan sealed ({some} sealed, {none} not)"
    missed = controls(truth, moderator)
    assert not missed, "negative controls found nothing:\n" + "\n".join(missed)
    assert not found, f"{spec.name}: secrets shown to a reader who may not see them:\n" + \
        leak_report(found)


def test_checks_find_every_kind_of_secret(tmp_path: Path):
    """One game where every kind of secret is at stake (hidden templates, a sealed plan, a
    shuffled deck, hands, addresses and keys when players are registered): the checks, run
    on the moderator's output as each side and the public, find each kind."""
    spec = Spec(99, "1914", True, "sealed", 3)
    addresses, observers = _addresses(spec.n), _observers(spec.n)
    journal = play(spec, tmp_path, addresses, observers)
    truth, moderator, found = check_game(journal, tmp_path, addresses, observers,
                                         public_by_default=False)
    s = truth.state
    assert all(s.hands.get(side) for side in SIDES) and s.draw_pile
    assert truth.sealed_now("entente") and truth.sealed_secrets("entente"), "no sealed plan"
    assert truth.template_secrets("entente") and truth.template_secrets(PUBLIC), \
        "no hidden template at stake: choose another game for this control"
    assert not controls(truth, moderator)
    assert any(o.command == "map" for o in moderator), "the map picture was not read"
    assert not found, leak_report(found)


def test_player_addresses_stay_private(tmp_path: Path):
    """With addresses registered (`new --player SIDE=ADDRESS`, and observers), a side sees
    only his own address and order key, the public none, an observer only his own address
    in his mail; the moderator's output shows them (the control)."""
    if not _player_option():
        pytest.skip("`referee new` has no --player option yet")
    addresses, observers = _addresses(7), _observers(7)
    spec = Spec(7, "1916", False, "early", 30)
    journal = play(spec, tmp_path, addresses, observers)
    former = _roster_changed(journal, addresses, observers)
    truth, moderator, found = check_game(journal, tmp_path, addresses, observers,
                                         public_by_default=True, pictures=False,
                                         former=former)
    assert truth.addresses == addresses and set(truth.keys) == set(SIDES)
    assert truth.observers == observers and len(observers) == 2
    assert not [c for c in controls(truth, moderator) if c.startswith(("address", "key"))]
    shown = {k: v for k, v in found.items() if k[2] in ("address", "key")}
    assert not shown, leak_report(shown)


def _roster_changed(journal: Path, addresses: dict[str, str], observers: list[str]
                    ) -> tuple[str, ...]:
    """The moderator changes the roster mid-game, as `players` does (the German's address,
    the Entente's order key, an observer dropped and another added) and gives the game a
    time zone; addresses and observers are updated to the roster now: what it held before,
    which the records saying what changed must name to nobody."""
    _, _, keys, _ = roster(journal)
    gone, moved = observers[0], "german.moved7@example.org"
    former = (addresses["german"], keys["entente"], gone)
    for argv in (["--set", f"german={moved}"], ["--new-key", "entente"],
                 ["--drop-observer", gone], ["--set", "observer=late7@example.org"]):
        code, _, err, escaped = referee("players", journal, *argv)
        assert code == 0 and escaped is None, err
    code, _, err, _ = referee("deadline", journal, "--set", "72h", "--zone", "Asia/Kolkata")
    assert code == 0, err
    addresses["german"] = moved
    observers[:] = [*observers[1:], "late7@example.org"]
    return former


def test_every_reader_reads_every_format_of_every_command_in_some_game():
    """The formats read by turns cover the whole table: each reader, each command, each
    format, in at least one of the games (the map in those that draw it); and the games
    hold every ending of an armistice."""
    assert any(s.n % PICTURES == 0 for s in PLAYED), "no game played draws the map picture"
    assert {s.stop for s in PLAYED} == {"early", "sealed", "turn"} and \
        {s.scenario for s in PLAYED} == {"1914", "1916", "1918"} and \
        {s.hidden for s in PLAYED} == {True, False} and {s.game for s in PLAYED} == {"ttlm", "aac"}
    assert {s.armistice for s in PLAYED} >= {x for xs in ENDINGS.values() for x in xs}, \
        "an armistice ending no game played comes to"
    covered = {(reader, command, f) for spec in PLAYED for reader in READERS
               for command, _, formats, _ in COMMANDS
               for f in by_turns(formats, reader, spec.n)}
    assert covered == {(r, c, f) for r in READERS for c, _, fs, _ in COMMANDS for f in fs}


def test_a_leaking_board_is_caught(tmp_path: Path, monkeypatch):
    """A board made from the moderator's view but sent to another reader (every army's
    contents, every hand, every force pool) is found in each format of the report by the
    check of the board on its own (board_part), and its hands by the check of the whole
    report too."""
    from referee.game import board as board_module
    from referee.game.views import state_view
    from referee.table import showing

    def leaking(state, data, reader, view):
        whole = board_module.board_view(state, data, MODERATOR,
                                        state_view(state, data, MODERATOR))
        return {**whole, "reader": reader}

    monkeypatch.setattr(showing, "board_view", leaking)
    spec = Spec(98, "1914", True, "early", 5)
    journal = play(spec, tmp_path, {}, [])
    truth = Truth(journal)
    s = truth.state
    for reader in READERS:
        others = [x for x in SIDES if x != reader]
        unexplained = {truth.card_title[c] for x in others for c in s.hands.get(x, [])} - \
            truth.explained_now(reader)
        assert unexplained or reader == PUBLIC, "choose a game where the hands differ"
        for fmt in ("json", "text", "markdown", "bbcode"):
            argv = ["report", journal, "--as", reader, "--since", "0", "--format", fmt]
            code, out, err, escaped = referee(*argv)
            assert code == 0 and escaped is None, err
            report = Output("report", fmt, reader, argv, code, out, err, "records")
            board = board_part(report)
            assert board is not None, f"no board in the {fmt} report"
            kinds = {leak.kind for leak in truth.leaks(board)}
            want = {"template"} | ({"hand"} if fmt == "json" or unexplained else set())
            assert want <= kinds, (reader, fmt, kinds)
            # (army contents are a board's and show's to tell: read in the board part only)
            assert want - {"template"} <= {leak.kind for leak in truth.leaks(report)}, \
                (reader, fmt)


@pytest.mark.parametrize("what", ["pools", "names"])
def test_another_side_s_force_pool_is_caught_in_show_and_the_board(tmp_path: Path,
                                                                   monkeypatch, what):
    """Under hidden templates, a view that gives a reader every nation's force pool (pools),
    or only every nation's name beside his own pools (names: a script reads nation_names),
    is found in each format of `show` and of the report's board: the check must not pass
    a view whose armies and hands are right and whose pools are not."""
    from referee.game import views
    from referee.table import showing

    right = views.state_view

    def leaking(state, data, reader, *args, **kwargs):
        view = right(state, data, reader, *args, **kwargs)
        whole = right(state, data, MODERATOR, *args, **kwargs)
        if what == "pools":
            view["force_pool"] = whole["force_pool"]
        view["nation_names"] = whole["nation_names"]
        return view

    monkeypatch.setattr(views, "state_view", leaking)
    monkeypatch.setattr(showing, "state_view", leaking)
    journal = play(Spec(98, "1914", True, "early", 5), tmp_path, {}, [])
    truth = Truth(journal)
    formats = ("json", "text", "markdown", "bbcode", "chat") if what == "pools" else ("json",)
    for reader in READERS:
        for command, fmt in [(c, f) for c in ("show", "report") for f in formats]:
            argv = [command, journal, "--as", reader, "--format", fmt]
            if command == "report":
                argv += ["--since", "0", "--keep-place"]
            code, out, err, escaped = referee(*argv)
            assert code == 0 and escaped is None, err
            o = Output(command, fmt, reader, argv, code, out, err,
                       "state" if command == "show" else "records")
            o = board_part(o) if command == "report" else o
            assert o is not None, (command, fmt)
            found = {leak.what for leak in truth.leaks(o) if "force pool" in leak.what}
            assert found, (reader, command, fmt)
