"""A busy pass shared among the machine's cores.

Games are independent: each is handled under its own lock, exactly as two `tick`
processes over one folder handle it. So when a pass has work for several games (mail to
apply and answer, with the pictures it carries, or deadlines to rule), it deals them to
a few workers forked from itself, by their work (the heaviest first, to the least
loaded), keeps one share, and takes back from each worker what it did to its games: the
lines and problems it logged, the messages it handled and whether it read them all. A
worker that stops before it has told everything (killed, out of memory) leaves its
games' messages unread and their deadlines unruled: the next pass takes them up, and
the ledgers see that nothing is applied or answered twice. A worker that cannot be
started leaves its share to the pass itself.

One game's failure is that game's problem, wherever it is handled: an error no rule
foresaw (a fault of the referee's own) is reported on the game's line, its traceback
written to standard error, and the other games are handled as usual.

The workers are forked (Linux and the other POSIX systems): they start with the pass's
memory as it is (the games read, the data compiled, the key), so forking costs no start.
Where there is no fork, or one core, or the mail settings say `workers = 1`, the pass
handles its games one after the other, as it always could.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import tempfile
import threading
from collections.abc import Callable
from contextlib import contextmanager
from typing import IO

from ..base.errors import RefereeError
from ..store import home, mailsettings
from ..store.beside import cores
from .tickgame import Game

MOST = 4                # workers a pass uses when the mail settings do not say
# each_game bound to a pass's workers and to what tells each game's lines as it is done
# (tick.py): how the pass shares out its games, whichever step hands them.
Share = Callable[..., list[bool]]


def workers() -> int:
    """How many processes a pass shares its games among: the mail settings' `workers`,
    else the cores this process may use, at most MOST; 1 without fork (UsageError when
    the mail settings cannot be read)."""
    if not hasattr(os, "fork"):
        return 1
    chosen = mailsettings.load().passes.workers
    return chosen if chosen is not None else max(1, min(cores(), MOST))


def each_game(games: list[Game], handle: Callable[[Game], bool],
              weight: Callable[[Game], int] = lambda x: 1, share_among: int | None = None,
              done: Callable[[Game], None] = lambda x: None) -> list[bool]:
    """handle(x) for every game, shared among workers: what each returned (False for a
    game whose handling failed, or whose worker stopped before telling it: the game is
    then marked unread, with a problem saying so). done(x) once each game is handled: as
    it is, for the pass's own share; as the pass takes a worker's share back, for the
    worker's (told in the pass's own process, whatever its output is bound to)."""
    n = min(share_among or workers(), len(games))
    told = _then(handle, done)      # a worker's games are told as the pass takes them back
    if n < 2:
        return [_handled(x, told) for x in games]
    home.key(create=True)           # made once, before the workers sign with it
    shares = dealt(games, weight, n)
    sys.stdout.flush()
    sys.stderr.flush()
    finished: dict[int, bool] = {}
    started: list[tuple[list[Game], int, IO[str]]] = []
    with _children_waited_for():
        try:
            for share in shares[1:]:
                worker = _start(share, handle)
                if worker is None:              # no fork, no file: the pass handles it
                    shares[0] += share
                else:
                    started.append((share, *worker))
            for x in shares[0]:
                finished[id(x)] = _handled(x, told)
        finally:                    # every worker waited for, whatever this share met
            for share, pid, kept in started:
                finished.update(_taken_back(share, pid, kept, done))
    return [finished[id(x)] for x in games]


def dealt(games: list[Game], weight: Callable[[Game], int], n: int) -> list[list[Game]]:
    """The games in n shares of about equal work: the heaviest first, each to the share
    with the least so far; each share keeps the games' own order."""
    loads = [0] * n
    shares: list[list[int]] = [[] for _ in range(n)]
    for i in sorted(range(len(games)), key=lambda i: -weight(games[i])):
        least = loads.index(min(loads))
        shares[least].append(i)
        loads[least] += weight(games[i])
    return [[games[i] for i in sorted(share)] for share in shares]


def _handled(x: Game, handle: Callable[[Game], bool]) -> bool:
    """handle(x); an error no rule foresaw is the game's problem (its traceback on standard
    error), and the game counts as unread this pass."""
    try:
        return bool(handle(x))
    except Exception as exc:  # noqa: BLE001 - one game's fault must not stop the others
        import traceback  # start-up: only a fault of the referee's own prints one

        traceback.print_exc(file=sys.stderr)
        x.read = False
        x.fail(f"the referee failed on this game ({type(exc).__name__}: {exc}); the next "
               f"pass tries again (the traceback is on standard error)")
        return False


# What a worker tells of each of its games, the rest of a game being as the pass had it.
TOLD = ("lines", "problems", "messages", "read", "took", "busy", "outbox", "moderator",
        "unsent")


def _then(handle: Callable[[Game], bool], done: Callable[[Game], None]
          ) -> Callable[[Game], bool]:
    """handle, then done whatever handle met (its fault made the game's problem first)."""
    def handled_then_done(x: Game) -> bool:
        try:
            return _handled(x, handle)
        finally:
            done(x)
    return handled_then_done


def _start(share: list[Game], handle: Callable[[Game], bool]
           ) -> tuple[int, IO[str]] | None:
    """A forked worker handling its share, writing what it did to each game as soon as it
    is done (a line each) to a file of its own, unlinked, in the referee's home: its pid
    and that file; None when no worker can be started (no file, no process). A file, not a
    pipe, so that a worker is never held up by a pass still busy with its share."""
    try:
        told = tempfile.TemporaryFile("w+", encoding="utf-8",
                                      dir=home.ensure_dir(home.data_dir("incoming")))
    except (OSError, RefereeError):
        return None
    try:
        pid = os.fork()
    except OSError:
        told.close()
        return None
    if pid:
        return pid, told
    code = 0
    try:
        for x in share:
            result = _handled(x, handle)
            told.write(json.dumps({"handled": result,
                                   **{k: getattr(x, k) for k in TOLD}}) + "\n")
            told.flush()
        sys.stderr.flush()
    except BaseException:  # noqa: BLE001 - a worker never returns into the pass's own code
        code = 1
    finally:
        os._exit(code)


def _taken_back(share: list[Game], pid: int, told: IO[str],
                done: Callable[[Game], None]) -> dict[int, bool]:
    """What a worker did to its games, into them; a game it did not tell of is marked
    unread, with a problem, its messages left for the next pass."""
    try:
        _, status = os.waitpid(pid, 0)
        how = _how(status)
    except ChildProcessError:       # reaped already (SIGCHLD ignored by whoever started us)
        how = "its end unknown"
    with told:
        told.seek(0)
        lines = told.read().splitlines()
    got: dict[int, bool] = {}
    for x, line in zip(share, lines):
        try:
            back = json.loads(line)
        except ValueError:
            break
        for k in TOLD:
            setattr(x, k, back[k])
        got[id(x)] = back["handled"]
        done(x)
    for x in share:
        if id(x) not in got:
            x.read = False
            x.fail(f"the worker handling this game stopped ({how}) before it was done: the "
                   f"next pass takes the game up again")
            got[id(x)] = False
            done(x)
    return got


@contextmanager
def _children_waited_for():
    """SIGCHLD at its default while the workers run, so that the kernel keeps each one's
    end for the pass to wait for (a parent that ignores SIGCHLD hands that to the kernel);
    only the main thread may set it."""
    ignored = threading.current_thread() is threading.main_thread() and \
        signal.getsignal(signal.SIGCHLD) == signal.SIG_IGN
    if ignored:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    try:
        yield
    finally:
        if ignored:
            signal.signal(signal.SIGCHLD, signal.SIG_IGN)


def _how(status: int) -> str:
    if os.WIFSIGNALED(status):
        return f"signal {os.WTERMSIG(status)}"
    return f"exit {os.waitstatus_to_exitcode(status)}"
