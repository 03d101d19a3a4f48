"""Where the `referee` console script and `python -m referee` begin: the process of a read
or an order pauses the cyclic garbage collector before it loads anything of the referee's.

A read (`status`, `show`) is a short process that leaves almost no cyclic garbage (about a
thousand objects after replaying a 3,313-record campaign), and it ends without the
interpreter's teardown (entry.console). Left running, the collector walks the objects the
imports make several times over, and then every object of the replayed game once the read
has started it again: together 4 to 5 ms of a cold `status` of a full campaign, to free
memory the system takes back at once anyway. An order is as short, and leaves as little
(about a thousand objects after one order at the end of a campaign): its collector would run
some sixty times over the objects of its imports, about 4 ms. A read or an order that a
program runs in its own process (entry.main) pauses the collector for the command alone
(entry.run).

Ctrl-C before a command's own boundary (commands.guard) has taken over, while the referee
is still being imported or its command line parsed, is told here as the boundary tells it:
one line, the error object with --format json, and exit 130, never a traceback.
"""

import gc
import sys

from . import COLLECTED_LATE, wants_json


def console() -> None:
    """The console script: a read or an order runs with the collector paused from its first
    import to its end; anything else as it comes (entry.console)."""
    if sys.argv[1:2] and sys.argv[1] in COLLECTED_LATE:
        gc.disable()
    try:
        from .entry import console as run_console  # start-up: after the pause, on purpose

        run_console()
    except KeyboardInterrupt:
        interrupted()


def interrupted() -> None:
    """Ctrl-C outside the boundary: its line, or the `error` object as the boundary makes
    it (an import the interrupt cut short is undone, so it is made again), and exit 130
    (base/errors.py EXIT_INTERRUPTED)."""
    from ..base.errors import EXIT_INTERRUPTED as code  # start-up: an interrupt only
    from ..base.errors import INTERRUPTED  # start-up: an interrupt only

    line = f"referee: {INTERRUPTED}"
    if wants_json(sys.argv[1:]):
        from .commands import error_line  # start-up: an interrupt only

        line = error_line(INTERRUPTED, "interrupted", None, code)
    try:
        sys.stderr.write(line + "\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    raise SystemExit(code)
