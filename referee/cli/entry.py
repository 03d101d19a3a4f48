"""The `referee` console script: `status`, `show`, `order`, `tick` and `verify` without
importing Typer.

Importing Typer costs about half of the import floor, more than answering
`status` from a signed view, and most of an idle `tick` pass over a folder from
cron; building its application's commands costs a verify about as much again. So the
plain forms of these five commands are
parsed here and run by the same functions the Typer application calls
(commands.py), with the same error boundary. What each command takes is read
from forms.json, which `make docs` writes from the Typer application's own
commands (forms.py): the options are declared once, in the commands'
signatures. A form is parsed here only where the result is sure to be the
one Typer's parser gives; anything else (help, `-h`, `--`, a misspelt option,
a bad or repeated value, any other command) goes to the Typer application,
which answers it or gives the usage message.
"""

from __future__ import annotations

import gc
import json
import os
import sys
from pathlib import Path

from ..base.errors import EXIT_REJECTED
from ..base.flowing import FLOWED
from ..base.glyphs import VisibleStream
from . import COLLECTED_LATE, MAILED, READS, commands
from .commands import emit

FORMS_FILE = Path(__file__).with_name("forms.json")
_FORMS: list[dict] = []                       # the table, once read


class _ForTyper(Exception):
    """The form is left to the Typer application."""


def forms() -> dict:
    """The declared parameters of the quick commands (forms.json); none if it cannot be read."""
    if not _FORMS:
        try:
            _FORMS.append(json.loads(FORMS_FILE.read_bytes()))
        except (OSError, ValueError):
            _FORMS.append({})
    return _FORMS[0]


def _integer(text: str) -> int | None:
    body = text[1:] if text.startswith("-") else text
    return int(text) if body.isascii() and body.isdigit() and len(body) < 10 else None


def _value(declared: dict, text: str):
    """The value of a parameter as Typer's parser gives it (else _ForTyper)."""
    kind = declared["type"]
    if kind == "text":
        return text
    if kind == "choice" and text in declared["choices"]:
        return text
    if kind == "integer":
        number = _integer(text)
        low, high = declared["min"], declared["max"]
        if number is not None and (low is None or number >= low) and \
                (high is None or number <= high):
            return number
    if kind == "path" and not (declared["readable"] and _unreadable(declared, text)):
        return Path(text)
    raise _ForTyper


def _unreadable(declared: dict, text: str) -> bool:
    """An existing path this user may not read (Typer's parser refuses it)."""
    if declared["allow_dash"] and text == "-":
        return False
    return os.path.exists(text) and not os.access(text, os.R_OK)


def _default(declared: dict):
    value = declared["default"]
    if declared.get("multiple") and value is None:
        return []                   # a repeatable option not given, as Click's parser has it
    return Path(value) if declared["type"] == "path" and value is not None else value


def _options(declared: list[dict], args: list[str]) -> tuple[dict, list[str]]:
    """The options given and the positional arguments, parsed as Typer's parser does."""
    names = {name: (d, on) for d in declared
             for on, opts in ((True, d["opts"]), (False, d["secondary_opts"])) for name in opts}
    given: dict = {}
    positionals: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if not arg.startswith("-") or arg == "-":
            positionals.append(arg)
            continue
        name, eq, text = arg.partition("=") if arg.startswith("--") else (arg, "", "")
        d, on = names.get(name, (None, True))
        if d is None or d["name"] in given or d["multiple"] or d["type"] == "other" or \
                not name.startswith("--"):
            raise _ForTyper         # -h, --, a short or unknown option, a repeated one
        if d["flag"]:
            if eq:
                raise _ForTyper
            given[d["name"]] = on
            continue
        if not eq:
            if i >= len(args):
                raise _ForTyper
            text = args[i]
            i += 1
        given[d["name"]] = _value(d, text)
    return given, positionals


def _arguments(declared: list[dict], positionals: list[str]) -> dict:
    """The positional arguments by name: one each, the rest to a last one taking any number."""
    values = {}
    rest = list(positionals)
    for n, d in enumerate(declared):
        if d["nargs"] == -1 and n == len(declared) - 1 and (rest or not d["required"]):
            values[d["name"]] = [_value(d, text) for text in rest]
            rest = []
        elif d["nargs"] == 1 and rest:
            values[d["name"]] = _value(d, rest.pop(0))
        else:
            raise _ForTyper
    if rest:
        raise _ForTyper
    return values


def parse(argv: list[str]) -> tuple[str, dict] | None:
    """(command, its parameters by name as Typer's parser gives them) of a plain form, or None
    for the Typer application."""
    if not argv or argv[0] not in RUNNERS or argv[0] not in forms():
        return None
    declared = forms()[argv[0]]
    params = declared["arguments"] + declared["options"]
    if {p["name"] for p in params} != set(_takes(RUNNERS[argv[0]])) or \
            any(p["callback"] or p["envvar"] or p["prompt"] for p in params):
        return None             # a parameter the runner does not take, or one set elsewhere
    try:
        given, positionals = _options(declared["options"], argv[1:])
        if any(p["required"] and p["name"] not in given for p in declared["options"]):
            return None
        values = {p["name"]: _default(p) for p in declared["options"]}
        return argv[0], {**values, **given, **_arguments(declared["arguments"], positionals)}
    except _ForTyper:
        return None


def _status(journal: Path, as_: str, format: str, bbcode_dialect: str, width: int,
            all_: bool) -> int:
    emit(commands.status(journal, as_, format, None, width, all_, bbcode_dialect))
    return 0


def _show(journal: Path, as_: str, format: str, bbcode_dialect: str, at: int | None,
          width: int) -> int:
    emit(commands.show(journal, as_, format, at, None, width, bbcode_dialect))
    return 0


def _order(journal: Path, orders: list[str], as_: str, file: Path | None, dice: str | None,
           link: str | None, expect_seq: int | None, format: str, atomic: bool,
           dry_run: bool) -> int:
    commands.check_side(as_, journal)
    texts = commands.read_orders(orders, file)
    out, rejection = commands.order(journal, as_, texts, dice, expect_seq, format,
                                    atomic=atomic, dry_run=dry_run, link=link)
    if out is not None:
        emit(out)
    if rejection is not None:
        sys.stdout.flush()
        emit(rejection, sys.stderr)
        return EXIT_REJECTED
    return 0


def _tick(path: Path, format: str, with_map: bool) -> int:
    commands.print_pass(*commands.tick_pass(path, format, with_map, None))
    return 0


def _verify(journal: Path, secret: Path | None, export: str | None, receipt: list[str] | None,
            key: str | None, format: str) -> int:
    from .verifying import verify  # start-up: only verify needs it

    lines, code = verify(journal, secret, export, receipt, key, format, None, emit)
    for line in lines:
        emit(line)
    return code or 0


# What runs each quick command, given every parameter the command declares.
RUNNERS = {"status": _status, "show": _show, "order": _order, "tick": _tick,
           "verify": _verify}


def _takes(fn) -> tuple[str, ...]:
    """The parameter names of a runner (read from its code: `inspect` costs start-up time)."""
    return fn.__code__.co_varnames[:fn.__code__.co_argcount]


def run(command: str, params: dict) -> int:
    """Run a parsed plain form; returns the exit code. A read or an order runs with the cyclic
    garbage collector paused (start.py says why), started again after it only when it ran before:
    from the console script it stays paused until the process leaves."""
    pause = command in COLLECTED_LATE and gc.isenabled()
    if pause:
        gc.disable()
    token = FLOWED.set(command in MAILED)       # its mails flowed (base/flowing.py)
    try:
        return commands.guard(lambda: RUNNERS[command](**params),
                              json_errors=params.get("format") == "json")
    finally:
        FLOWED.reset(token)
        if pause:
            gc.enable()


def main() -> None:
    """Parse the command line and run it (SystemExit with its exit code)."""
    # Nothing printed may disguise itself: a bidirectional override or an escape sequence
    # from a journal or a mail shows as its escape (base/glyphs.py).
    sys.stdout, sys.stderr = _visible(sys.stdout), _visible(sys.stderr)
    plain = parse(sys.argv[1:])
    if plain is not None:
        code = run(*plain)
        _flush()
        raise SystemExit(code)
    from .app import main as cli_main  # start-up: the plain forms run without Typer
    cli_main()


def _visible(stream) -> VisibleStream:
    """A standard stream as the referee writes to it; one closed before the referee started
    (`>&-`: Python then has none) takes what is written to it away, as a pipe whose reader
    has gone does (commands.guard)."""
    if stream is None:
        stream = open(os.devnull, "w")  # noqa: SIM115 - the stream for the rest of the run
    return VisibleStream(stream)


def _flush() -> None:
    """Send on what was printed; a reader gone (`| head`) is told nothing more."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass


# The commands that only read and print, and `order`, whose record and every other file it
# writes are on disk (os.write, synced under the journal's lock) before it prints: from the
# console script they end at once.
LEAVE_AT_ONCE = (*READS, "verify", "order")


def console() -> None:
    """The `referee` console script and `python -m referee`, called by start.py: main, and the
    process of a read or an order ends without tearing the interpreter down. The teardown frees
    every object of the replayed game and every module one by one, a sixth of a cold `status`
    and a seventh of an order, for memory the system takes back at once anyway. Neither leaves
    anything to close: the record, the views and the snapshots are written with os.write (the
    record synced) before it prints, and the locks go with the process. main() itself ends with
    SystemExit, for the tests and scripts that call it."""
    try:
        main()
    except SystemExit as done:
        command = sys.argv[1] if len(sys.argv) > 1 else None
        if command in LEAVE_AT_ONCE and isinstance(done.code, int | None):
            _flush()
            os._exit(done.code or 0)
        raise
