"""Where the `referee` console script and `python -m referee` begin: the process of a read
pauses the cyclic garbage collector before it loads anything of the referee's.

A read (`status`, `show`) is a short process that leaves almost no cyclic garbage (about a
thousand objects after replaying a 3,313-record campaign), and it ends without the
interpreter's teardown (entry.console). Left running, the collector walks the objects the
imports make several times over, and then every object of the replayed game once the read
has started it again: together 4 to 5 ms of a cold `status` of a full campaign, to free
memory the system takes back at once anyway. A read that a program runs in its own process
(entry.main) pauses the collector for the command alone (entry.run).
"""

import gc
import sys

from . import READS


def console() -> None:
    """The console script: a read runs with the collector paused from its first import to
    its end; anything else as it comes (entry.console)."""
    if sys.argv[1:2] and sys.argv[1] in READS:
        gc.disable()
    from .entry import console as run_console  # start-up: after the pause, on purpose

    run_console()
