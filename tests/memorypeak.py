"""The memory peak of a piece of work, measured in a fresh interpreter of its own, as a
user's `tick` or `inbox` process would hold it.

tracemalloc counts what every thread of a process allocates, and everything the process
allocates while it measures. A test process may still run threads another test started (a
mail server, a proxy), and it holds what every test before it left: caches, tables grown
near their next doubling, objects the garbage collector is slow to reach, since the test
processes run it less often (conftest.py). Any of these could fall into a peak, a few MB at
a time, making a pass look as if it held several messages at once. A fresh interpreter has
none of them: the same work gives the same peak, run after run, whatever ran before.

The work is named as "module:function" (a module of tests/), called with string
arguments, and returns plain JSON data: what the test asserts on. The environment is the
test's own (its REFEREE_HOME, its clock); the work's writes to disk stay.
"""

from __future__ import annotations

import gc
import importlib
import json
import os
import subprocess
import sys
import tempfile
import tracemalloc
from pathlib import Path

TIMEOUT = 300.0          # seconds the work may take
TESTS = Path(__file__).resolve().parent


def peak_of(work: str, *args: str) -> tuple[int, object]:
    """The peak of memory traced while work(*args) runs in a fresh interpreter, and what
    it returned there."""
    path = [str(TESTS), str(TESTS.parent), os.environ.get("PYTHONPATH", "")]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in path if p)}
    with tempfile.TemporaryDirectory() as tmp:
        told = Path(tmp) / "told.json"
        run = subprocess.run([sys.executable, "-c", "import memorypeak; memorypeak.measure()",
                              str(told), work, *args], env=env, capture_output=True,
                             text=True, timeout=TIMEOUT, stdin=subprocess.DEVNULL)
        assert run.returncode == 0 and told.exists(), run.stderr[-3000:]
        found = json.loads(told.read_text())
    return found["peak"], found["found"]


def measure() -> None:
    """In the fresh interpreter: import the work's module, then trace the work alone."""
    told, work, *args = sys.argv[1:]
    module, function = work.split(":")
    run = getattr(importlib.import_module(module), function)
    gc.collect()
    tracemalloc.start()
    found = run(*args)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    Path(told).write_text(json.dumps({"peak": peak, "found": found}))
