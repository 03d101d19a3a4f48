"""The memory peak of a piece of work, measured in a child process of its own, with the
garbage collector at CPython's own pace (the test processes run it less often).

tracemalloc counts what every thread of a process allocates. A test process may still run
threads another test started (a mail server, a proxy), and their allocations fell into
the peak now and then, making a pass look as if it held several messages at once. A
child forked for the work has only the thread that forked it: the peak is the work's.
"""

from __future__ import annotations

import gc
import json
import os
import select
import signal
import tracemalloc
from collections.abc import Callable

TIMEOUT = 300.0          # seconds the work may take in the child
DEFAULT_GC = (700, 10, 10)   # CPython's collector thresholds, which the test processes raise


def peak_of(work: Callable[[], dict]) -> tuple[int, dict]:
    """The peak of memory traced while work runs in a forked child, and what work returns
    there (plain JSON data: what the test asserts on). The child's writes to disk stay."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:                                 # the child: measure, tell, and go
        os.close(read_end)
        code = 0
        try:
            gc.set_threshold(*DEFAULT_GC)     # as a user's process runs (conftest.py)
            gc.collect()
            tracemalloc.start()
            found = work()
            _, peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()
            told = json.dumps({"peak": peak, "found": found})
        except BaseException as exc:            # noqa: BLE001 - told to the parent
            told, code = json.dumps({"error": f"{type(exc).__name__}: {exc}"}), 1
        with os.fdopen(write_end, "w") as out:
            out.write(told)
        os._exit(code)
    os.close(write_end)
    with os.fdopen(read_end) as got:
        if not select.select([got], [], [], TIMEOUT)[0]:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            raise AssertionError(f"the work took more than {TIMEOUT} s")
        told = json.loads(got.read() or '{"error": "the child said nothing"}')
    os.waitpid(pid, 0)
    assert "error" not in told, told["error"]
    return told["peak"], told["found"]
