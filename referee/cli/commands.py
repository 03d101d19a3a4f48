"""What `status`, `show` and `order` do, without Typer: one implementation for two front doors.

The Typer application (app.py) parses every form of every command; the
console script (entry.py) parses only the plain forms of these three and
calls the same functions, so that reading a game or giving an order does not
pay for importing Typer. Each function returns what to print; `guard` is the
error boundary both use: one line per problem on stderr, a stable exit code,
never a traceback.

Only the standard library and the referee's light modules are imported at
the top: a view this user's referee signed for exactly the journal's bytes
is printed without loading the rules. The rest is imported where it is
needed (`start-up:`), also because `--help` and shell completion import
this module through the Typer application.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path

from .. import load_msgspec
from ..base.errors import (
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_REJECTED,
    INTERRUPTED,
    UNREADABLE,
    GameDataError,
    JournalError,
    RefereeError,
    UsageError,
    quoted,
)
from ..base.readers import MODERATOR, PUBLIC, check_name, check_reader
from ..base.warned import carried, gathered, left

# Imported for annotations only: the quick paths do without the typing module.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def error_line(message: str, kind: str, rule: str | None, code: int, **more: Any) -> str:
    """The error object a command run with --format json prints on stderr instead of its
    `referee: ` line: one line of JSON (the `error` output)."""
    load_msgspec()
    from ..contracts.outputs import ErrorObject  # start-up: only an error needs it

    error = carried(ErrorObject.plain_anyway(error=message, kind=kind, rule=rule, exit=code,
                                             **more))
    return json.dumps(error, separators=(",", ":"), default=str)


def _error_of(exc: RefereeError) -> str:
    """The error object of an expected error: the data problems, or the damaged record, too."""
    more: dict[str, Any] = {}
    if isinstance(exc, GameDataError):
        more["problems"] = exc.problems
    if isinstance(exc, JournalError) and exc.record is not None:
        more["record"] = exc.record
    if isinstance(exc, JournalError) and getattr(exc, "checks", None):
        more["checks"] = exc.checks
    if isinstance(exc, JournalError) and getattr(exc, "mailboxes", None):
        more["mailboxes"] = exc.mailboxes
    return error_line(str(exc), exc.kind, getattr(exc, "rule", None), exc.exit_code, **more)


def guard(fn: Callable[[], int | None], json_errors: bool = False) -> int:
    """Run fn; expected errors become one line each on stderr and their exit code (with
    json_errors, one error object instead, its warnings in it, as in the documents the
    command prints: base/warned.py)."""
    with gathered(json_errors):
        code = _guarded(fn, json_errors)
        if left():          # no document of the command carried them: one object alone
            load_msgspec()
            from ..contracts.outputs import WarningsOnly  # start-up: warnings left only

            alone = WarningsOnly.plain(warnings=left())
            sys.stderr.write(json.dumps(carried(alone), separators=(",", ":"),
                                        ensure_ascii=False) + "\n")
        return code


def _guarded(fn: Callable[[], int | None], json_errors: bool) -> int:
    try:
        return fn() or 0
    except RefereeError as exc:
        if json_errors:
            sys.stderr.write(_error_of(exc) + "\n")
            return exc.exit_code
        for line in exc.lines():
            sys.stderr.write(f"referee: {line}\n")
        return exc.exit_code
    except KeyboardInterrupt:
        sys.stderr.write((error_line(INTERRUPTED, "interrupted", None, EXIT_INTERRUPTED)
                          if json_errors else f"referee: {INTERRUPTED}") + "\n")
        return EXIT_INTERRUPTED
    except BrokenPipeError:               # output piped into `head` and the like
        try:
            sys.stdout = open(os.devnull, "w")   # noqa: SIM115 - stdout for the rest of the run
        except OSError:
            pass
        return 0
    except SystemExit:
        raise
    except Exception as exc:  # noqa: BLE001 - the boundary: a bug must not show a traceback
        # No word on the journal: an order's records may be written before a bug shows.
        message = (f"internal error ({type(exc).__name__}: {exc}). Please report it with the "
                   f"command you ran.")
        sys.stderr.write((error_line(message, "internal", None, EXIT_INTERNAL) if json_errors
                          else f"referee: {message}") + "\n")
        return EXIT_INTERNAL


def dump(obj: Any) -> str:
    """JSON as the commands print it: a document (a contract class) or plain data, indented
    by two. The json module indents only in Python; once msgspec is loaded, its formatter
    indents the one-line text json's C encoder writes, the same characters (numbers and
    strings copied as written): a cold show of a campaign prints 50 kB."""
    if not isinstance(obj, (dict, list)):     # a document; a view kept signed is plain data
        load_msgspec()
        import msgspec  # start-up: a view answered from its signed copy needs no msgspec

        obj = msgspec.to_builtins(obj)
    if isinstance(obj, dict):
        obj = carried(obj)          # the warnings met so far, under --format json
    formats = sys.modules.get("msgspec.json")
    if formats is not None:         # loaded already (a cold read, an order)
        try:
            return formats.format(json.dumps(obj, ensure_ascii=False), indent=2)
        except (UnicodeError, ValueError):      # a lone surrogate, NaN: as json writes it
            pass
    return json.dumps(obj, indent=2, ensure_ascii=False)


def read_orders(orders: list[str], file: Path | None, stdin=None) -> list[str]:
    """The order lines of the arguments, of '-' (standard input) and of --file."""
    load_msgspec()              # before the rules import it: without typing_extensions
    from ..engine.reading import order_lines  # start-up: only order reads order lines

    texts: list[str] = []
    if file is not None and str(file) == "-":
        texts += order_lines((stdin or sys.stdin).read())
        file = None
    if file is not None:
        from ..store.home import read_named  # start-up: --help and completion do without

        raw = read_named(file, "an orders file", 1 << 20)
        try:
            texts += order_lines(raw.decode("utf-8-sig"))
        except UnicodeDecodeError as exc:
            raise UsageError(f"--file {file}: not UTF-8 text (byte {exc.start})") from None
    for item in orders:
        if item == "-":
            texts += order_lines((stdin or sys.stdin).read())
        else:
            texts += order_lines(item)
    return texts


def check_private(journal: Path, unless: Callable[[Path], object] | None = None) -> None:
    """Warn (one line on stderr) when the journal can be read by other users, unless
    unless(journal), asked only then, says it is no journal to keep private."""
    from ..store.home import warn_if_shared  # start-up: --help and completion do without

    warn_if_shared(journal, "a journal holds what only its players may see: hands, the deck "
                            "order, their addresses", unless)


def check_ours(journal: Path) -> None:
    """Refuse a journal this user's referee did not sign, before a command that writes to
    it asks for anything else (one line, the journal untouched)."""
    from ..store.journal import Journal  # start-up: only the commands that write need it

    Journal(journal).check_ours()


def table_of(journal: Path, games_dir: Path | None = None, shown: bool = False):
    """The game's Table (table/): every command opens its journal through one. shown: for a
    command that shows the game, refused when it is passed off as this referee's
    (Table.vouched)."""
    from ..table import Table  # start-up: --help and completion do without

    table = Table(journal, games_dir)
    if shown:
        table.vouched()
    return table


def needing(journal: Path, feature: str, command: str, games_dir: Path | None = None,
            shown: bool = False):
    """The game's Table, when its kind has the feature the command asks for (UsageError,
    one line and exit 2, when it lacks it)."""
    table = table_of(journal, games_dir, shown)
    table.kind.needs(feature, command, journal)
    return table


def _cached_view(table, key: str) -> Any | None:
    """A view this user's referee made from exactly the journal's bytes and data, or None."""
    from ..data.paths import GAME_NAME, default_games_dir, source_digest  # start-up: not for --help

    head = table.header_line(whole=True)    # the view is bound to the whole bytes anyway
    game = head.get("game", "ttlm") if head is not None else None
    if not isinstance(game, str) or not GAME_NAME.match(game):
        return None
    root = Path(table.games_dir or default_games_dir()) / game
    source = source_digest(root)
    return table.kept_view(key, source) if source else None


def status(journal: Path, reader: str | None, fmt: str, games_dir: Path | None = None,
           width: int = 72, every: bool = False, dialect: str = "common") -> str:
    """Whose decision it is, what kind, and the legal orders (2.0): grouped for reading, or
    every one whole with `every` (`--all`; the JSON `legal` list is always whole)."""
    reader = check_name(reader or PUBLIC)
    check_private(journal)
    key = f"status:{reader}"
    table = table_of(journal, games_dir, shown=True)
    view = _cached_view(table, key)
    if view is None:
        load_msgspec()
        view = table.kind.status_view(table, reader)
        table.keep_view(key, view)
    aids = view.pop("_aids", None)
    from ..table.statusshown import as_shown  # start-up: what is never kept with the view

    view = _with_held(_as_tick_rules(as_shown(view, table, reader), table), table, reader)
    if fmt == "json":
        return dump(view)
    from ..render.formats import render  # start-up: JSON needs no renderer

    return render(table.kind.status_document(view, aids, every), fmt, width, dialect)


def as_tick_rules_deadlines(table):
    """How a report shows the deadlines of the game of table as `status` does
    (_as_tick_rules): a function of its deadlines' view."""
    return lambda clock: _as_tick_rules({"deadlines": clock}, table)["deadlines"]


def _as_tick_rules(view: dict, table) -> dict:
    """The view with each deadline past its time as the next pass of tick rules it: missed,
    or not yet and why (mail/nextpass.py: the pass's own function decides)."""
    clock = view.get("deadlines")
    if not clock or not any(d.get("missed") for d in clock.get("due") or ()):
        return view
    load_msgspec()
    from ..mail.nextpass import as_the_next_pass_rules  # start-up: only a deadline passed

    return {**view, "deadlines": as_the_next_pass_rules(clock, table.path, table.games_dir)}


def _with_held(view: dict, table, reader: str) -> dict:
    """The moderator's view with the mailed orders held for his dice (a manual-dice game):
    read from the mail ledger (mail/waiting.py), never from a cached view, and never shown
    to anyone else."""
    if reader != MODERATOR or view.get("dice") != "manual":
        return view
    from ..mail.waiting import held_now  # start-up: only the moderator's manual-dice status

    held = held_now(table)
    return {**view, "held": held} if held else view


def standing_orders(journal: Path, side: str, add: list[str], withdraw: list[str],
                    fmt: str = "text", games_dir: Path | None = None) -> str:
    """List, add and withdraw a side's standing orders (the text `standing` prints)."""
    check_side(side, journal, games_dir)
    check_private(journal)
    table = needing(journal, "standing", "standing", games_dir, shown=True)
    game = table.game()
    check_reader(side, game.data.sides, allow_moderator=False)   # a side of this game
    from ..engine.standing import describe  # start-up: only standing and a side's views
    from ..game import standing  # start-up: only standing and a side's views
    from ..game.timeline import taking_standing_orders  # start-up: only standing

    if add or withdraw:
        if not game.state.revealed:         # a closed game: the store refuses it (GameClosed)
            taking_standing_orders(game.state)
        mine = standing.change(journal, side, game.data, game.state.turn, add, withdraw)
    else:
        mine = standing.current(standing.load(journal, table.header_hash(), table.raw),
                                side, game.state.turn)
    shown = [describe(e, game.data) for e in mine]
    if fmt == "json":
        from ..contracts.outputs import StandingOrders  # start-up: only as JSON

        return dump(StandingOrders.of(side=side, standing=shown))
    name = game.data.side_name(side)
    if not shown:
        return f"{name}: no standing orders"
    return "\n".join([f"{name}: standing orders (applied when their decision comes up, if "
                      f"legal then):"] + [f"  {t}" for t in shown])


def show(journal: Path, reader: str | None, fmt: str, at: int | None = None,
         games_dir: Path | None = None, width: int = 72, dialect: str = "common") -> str:
    """The game for one reader, now or after record `at` (the text `show` prints)."""
    reader = check_name(reader or PUBLIC)
    check_private(journal)
    table = table_of(journal, games_dir, shown=True)
    check_at(table, at)
    key = f"show:{reader}"
    view = _cached_view(table, key) if at is None else None
    if view is None:
        load_msgspec()
        view = table.kind.show_view(table, reader, at)
        if at is None:
            table.keep_view(key, view)
    if at is None:
        from ..table.statusshown import with_standing  # start-up: the side's own, never kept

        view = _with_held(with_standing(view, table, reader), table, reader)
    if fmt == "json":
        return dump(view)
    from ..render.formats import render  # start-up: JSON needs no renderer

    return render(table.kind.show_document(view), fmt, width, dialect)


def check_at(table, at: int | None, option: str = "--at") -> None:
    """A record number given to --at must be one the journal (its Table's) holds, 0 to its
    last record (UsageError naming that range); checked before anything is replayed."""
    if at is None:
        return
    try:
        last = table.last_seq()
    except RefereeError:            # a journal that cannot be read: the command says why
        last = -1
    if last >= 0 and not 0 <= at <= last:
        raise UsageError(f"{option} {at}: out of range; the journal has records 0 to {last}")
    if at < 0:              # the last record cannot be read (a torn line): still no record
        raise UsageError(f"{option} {at}: out of range; records are numbered from 0")


def game_sides(journal: Path | str | None, games_dir: Path | None = None) -> tuple[str, ...]:
    """The sides of the journal's game, as its kind reads them from record 0: of the default
    game when no journal is named or its header cannot be read; none when they cannot be
    read."""
    load_msgspec()
    from ..table import kind_named  # start-up: only a missing or wrong --as asks

    head, kind = {}, kind_named("campaign")
    if journal:
        try:
            table = table_of(Path(journal), games_dir)
            head, kind = table.header_line() or {}, table.kind
        except (RefereeError, OSError):
            pass                        # the default game's, as with no journal named
    try:
        return kind.sides_named(head, games_dir)
    except (RefereeError, OSError, ValueError, TypeError):
        return ()


def check_side(side: str, journal: Path | None = None, games_dir: Path | None = None) -> None:
    """The side giving orders: a side of the game, never the public, nor the moderator but in
    a game whose kind takes his rulings as orders (UsageError otherwise, naming a side of
    the journal's game for an example)."""
    if not side:
        sides = game_sides(journal, games_dir)
        example = f", e.g. {sides[0]}" if sides else ""
        raise UsageError(f"say who gives the orders: --as SIDE (a side of the game{example})")
    if side == PUBLIC or (side == MODERATOR and not _moderator_orders(journal, games_dir)):
        raise UsageError(f"--as {side}: orders come from a side, not the {side}")
    try:
        check_name(side)
    except UsageError:      # 'British': sides are named in lower case, as the data names them
        sides = game_sides(journal, games_dir)
        if not sides:
            raise
        choices = (*sides, MODERATOR) if _moderator_orders(journal, games_dir) else sides
        raise UsageError(f"--as {side!r}: choose one of {', '.join(choices)}") from None


def _moderator_orders(journal: Path | None, games_dir: Path | None) -> bool:
    """Whether the moderator gives orders of his own in the journal's game (its kind says:
    the skirmish's rulings); False when it cannot be read (the command then says why)."""
    if not journal:
        return False
    try:
        return table_of(journal, games_dir).kind.moderator_orders
    except RefereeError:
        return False


def order(journal: Path, side: str, texts: list[str], dice: str | None = None,
          expect_seq: int | None = None, fmt: str = "text",
          games_dir: Path | None = None, atomic: bool = False,
          dry_run: bool = False, link: str | None = None) -> tuple[str | None, str | None]:
    """Submit orders (with the next link of the side's dice sheet, if given) through the
    game's kind; returns (what to print or None, the one-line rejection or None)."""
    check_side(side, journal, games_dir)
    check_private(journal)
    load_msgspec()
    table = table_of(journal, games_dir)
    out, rejection = table.kind.order(table, side, texts, fmt, dice_text=dice,
                                      expect_seq=expect_seq, atomic=atomic, dry_run=dry_run,
                                      link=link)
    if out is not None and not isinstance(out, str):
        out = dump(out)
    if rejection is None:
        return out, None
    line, exc = rejection
    if fmt != "json":
        return out, line
    return out, error_line(line.removeprefix("referee: "), getattr(exc, "kind", "order_rejected"),
                           getattr(exc, "rule", None), EXIT_REJECTED)


def _picture_kind(out: Path | None, fmt: str, to_terminal: bool) -> str:
    """The picture `map` draws, 'svg' or 'png': -o's suffix, or --format svg|png (which must
    agree with it). A picture goes to standard output only with --format svg|png and never
    to a terminal."""
    kind = out.suffix.lower()[1:] if out is not None else None
    if out is not None and kind not in ("svg", "png"):
        raise UsageError(f"-o {quoted(str(out))}: name a .svg or a .png file")
    if fmt in ("svg", "png"):
        if kind is not None and kind != fmt:
            raise UsageError(f"-o {quoted(str(out))} is a .{kind} file but --format is {fmt}")
        if out is None and to_terminal:
            raise UsageError(f"--format {fmt}: a picture is not printed on a terminal; name "
                             f"the file with -o FILE.{fmt} or redirect standard output")
        return fmt
    if kind is None:
        raise UsageError(f"--format {fmt}: name the picture with -o FILE.svg or -o FILE.png, "
                         f"or give --format svg or png to print it")
    return kind


def _drawn(game, reader: str, close_up: bool):
    """The SVG element of the whole map, or of the close-up of the decision asked (None:
    it concerns no area)."""
    from ..render.closeup import closeup_tree  # start-up: only map draws
    from ..render.svgmap import map_tree  # start-up: only map draws

    if close_up:
        return closeup_tree(game.state, game.data, reader, game.game_id)
    return map_tree(game.state, game.data, reader, game.game_id)


def map_picture(journal: Path, reader: str | None, out: Path | None, at: int | None = None,
                games_dir: Path | None = None, fmt: str = "text",
                to_terminal: bool = False, close_up: bool = False) -> str | bytes:
    """Draw the map for one reader (or the close-up of the decision asked), now or after
    record `at`, as SVG or PNG (png.py, with the fonts it ships), into out or, with
    --format svg|png and no out, as the bytes to print (the line `map` prints, or in JSON
    the file and what it shows)."""
    reader = check_name(reader or PUBLIC)
    kind = _picture_kind(out, fmt, to_terminal)
    if out is not None and (not out.parent.is_dir() or out.is_dir()):
        raise UsageError(f"-o {quoted(str(out))}: not a file in an existing folder")
    check_private(journal)
    table = needing(journal, "map", "map", games_dir, shown=True)
    check_at(table, at)
    game = table.game(upto=at)
    # start-up: only map draws
    from ..render.svgmap import as_text, map_facts
    from ..table.kinds import unplayable  # start-up: only map draws

    try:
        svg = _drawn(game, reader, close_up)
    except UNREADABLE as exc:
        raise unplayable(journal, game.state.seq, exc, "cannot be drawn") from None
    if svg is None:
        raise UsageError(f"--close-up: the decision asked after record {game.state.seq} "
                         f"concerns no area on the map; draw the whole map")
    where = f"-o {quoted(str(out))}" if out is not None else f"--format {kind}"
    try:
        from ..render.png import to_png  # start-up: the renderer, for a PNG only

        # the element, not its text read back: the painter knows its static part (png.py)
        data = as_text(svg).encode("utf-8") if kind == "svg" else to_png(svg)
    except OSError as exc:
        raise UsageError(f"{where}: {exc}") from None
    if out is None:
        return data
    from ..store.home import replace_atomically  # start-up: --help and completion do without

    if not replace_atomically(out, data):
        raise UsageError(f"-o {quoted(str(out))}: cannot be written")
    if fmt == "json":
        from ..contracts.outputs import MapResult  # start-up: only map as JSON

        return dump(MapResult.of(
            file=str(out), format=kind, bytes=len(data), game_id=game.game_id, seq=game.state.seq,
            reader=reader, areas=map_facts(game.state, game.data, reader, game.game_id)))
    shown = str(out) if str(out).isprintable() else quoted(str(out))   # one line, no escapes
    return f"map of record {game.state.seq} for {reader}: {shown}"


def key_facts(header: dict) -> dict:
    """What `new --format json` says of the game's key: fingerprint and where it is kept."""
    from ..store import signing  # start-up: only new needs it

    fpr = header["signing"]["fingerprint"]
    return {"fingerprint": signing.shown(fpr), "file": str(signing.key_file(fpr))}


def key_line(header: dict) -> str:
    """What `new` says of the game's key: players check receipts against its fingerprint."""
    facts = key_facts(header)
    return (f"signed by key {facts['fingerprint']} (players see it in every mail and receipt); "
            f"its private half is in {facts['file']}: back it up, and never put it beside "
            f"the journal (docs/moderator.md)")


def tick_pass(path: Path, format: str, with_map: bool, games_dir: Path | None
              ) -> tuple[list[str], RefereeError | None]:
    """One pass of `tick` over a journal or a folder (mail/tick.py): the lines it prints
    at its end (one JSON document with format json; in text, each game's lines are
    printed as it is done), and the error it ends with when it left something undone."""
    load_msgspec()                      # before the rules, as every command loads it
    from ..base.clock import now  # start-up: datetime, for tick and watch
    from ..mail import tick as ticking  # start-up: the mail transport, for tick and watch
    from ..mail.folderexports import never_a_journal  # start-up: as tick's

    # A redacted export saved beside the games holds nothing private (the pass passes it
    # over): its warning would tell the moderator to hide what he gives out. A game's
    # journal that only looks like one is warned of as every journal.
    export = never_a_journal(path)
    for journal in ticking.journals_in(path):
        check_private(journal, unless=export)
    moment = now()
    if format == "json":            # one document, once the pass is over
        report = ticking.tick(path, games_dir, with_map)
        return [dump(_tick_document(report))], ticking.summary(report)

    def tell(line: str) -> None:    # a game's lines as it is done (a pass killed keeps them)
        emit(ticking.stamped(moment, [line])[0])
        sys.stdout.flush()
    report = ticking.tick(path, games_dir, with_map, tell)
    lines = ticking.stamped(moment, report.lines() + [ticking.tally(report)])
    return lines, ticking.summary(report, shown=True)


def _tick_document(report) -> dict:
    from ..contracts.outputs import TickResult  # start-up: only tick --format json needs it
    from ..mail.passreport import kind_of  # start-up: as TickResult

    return TickResult.plain(
        ok=not report.problems,
        games=[{"journal": str(x.journal), "game_id": x.game_id, "source": x.source,
                "target": x.target, "messages": x.messages, "log": x.lines,
                "problems": x.problems, "busy": x.busy, "outbox": x.outbox,
                "waits_on_moderator": x.moderator, "kind": kind_of(x),
                "waits_on_moderator_code": x.wait_code,
                "waits_on_moderator_sides": x.wait_sides}
               for x in report.games],
        unclaimed=report.unclaimed, waiting=report.waiting, problems=report.problems,
        busy=report.busy, mailboxes=[d.document() for d in report.down],
        servers=[d.document() for d in report.servers],
        exports=[str(p) for p in report.exports])


def emit(text: str, stream=None) -> None:
    """Print a line as click.echo would: a character the terminal's encoding lacks is
    replaced, never an error (an order's records are written by then)."""
    stream = stream or sys.stdout
    try:
        stream.write(text + "\n")
    except UnicodeEncodeError:
        data = (text + "\n").encode(stream.encoding or "utf-8", "replace")
        stream.flush()
        stream.buffer.write(data)


def print_pass(lines: list[str], problem) -> None:
    """A pass's lines, sent on before its one-line error (a cron log taking both streams
    has them in that order; a reader gone is told nothing more), then the error."""
    for line in lines:
        emit(line)
    sys.stdout.flush()
    if problem is not None:
        raise problem


def route_line(journal: Path, route: dict) -> str | None:
    """The line `new` prints of the mail route it was given (None: none was)."""
    if not (route["source"] or route["target"] or route.get("sender")):
        return None
    sender = f"; mail from: {route['sender']}" if route.get("sender") else ""
    return (f"mail in: {route['source'] or 'not set'}; mail out: "
            f"{route['target'] or 'not set'}{sender} (`referee mail {journal}` changes them)")
