"""A child process that file modes bind, to meet a real EACCES (the `unprivileged` fixture).

Root passes every mode check, so as root the child first gives up the two capabilities that
override file modes (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH: Linux prctl PR_CAPBSET_DROP) and
then starts Python anew: still the owner of the checkout and of its interpreter wherever they
live (a private folder included), but held to file modes like any other owner.
"""

from __future__ import annotations

import os
import subprocess
import sys
from types import SimpleNamespace

import pytest

WITHOUT_OVERRIDE = """\
import ctypes, os, sys
prctl = ctypes.CDLL(None, use_errno=True).prctl
for cap in (1, 2):
    if prctl(24, cap, 0, 0, 0):
        sys.exit(f"prctl(PR_CAPBSET_DROP, {cap}): {os.strerror(ctypes.get_errno())}")
os.execv(sys.executable, [sys.executable, *sys.argv[1:]])
"""

# What the child must show before its runs prove anything: a folder of mode 0500 refuses it a
# new file, and it can use the interpreter, the package and the game data.
PROBE = """\
import sys
from pathlib import Path
try:
    (Path(sys.argv[1]) / "new").write_bytes(b"")
except PermissionError:
    pass
else:
    sys.exit("file modes do not bind it")
import referee.cli.app
from referee.data.catalog import game_data
game_data()
"""


def bound_by_modes(*argv: str) -> list[str]:
    """A Python command line for a child that file modes bind (root's dropping its override)."""
    if os.geteuid() == 0:
        return [sys.executable, "-c", WITHOUT_OVERRIDE, *argv]
    return [sys.executable, *argv]


@pytest.fixture(scope="session")
def unprivileged(tmp_path_factory):
    """Runs `referee ARGS` in a child that file modes bind (skips, saying why, if none can)."""
    if os.name != "posix":
        pytest.skip("POSIX permissions only")
    locked = tmp_path_factory.mktemp("modes-bind")
    locked.chmod(0o500)
    env = {**os.environ, "REFEREE_HOME": str(tmp_path_factory.mktemp("probe-home"))}
    try:
        probe = subprocess.run(bound_by_modes("-c", PROBE, str(locked)), env=env,
                               capture_output=True, text=True, timeout=120)
    finally:
        locked.chmod(0o700)
    if probe.returncode:
        why = (probe.stderr.strip().splitlines() or [f"exit {probe.returncode}"])[-1]
        pytest.skip(f"no child that file modes bind can run the referee here: {why}")

    def run(*args):
        out = subprocess.run(bound_by_modes("-m", "referee", *map(str, args)),
                             capture_output=True, text=True, timeout=120)
        return SimpleNamespace(exit_code=out.returncode, stdout=out.stdout, stderr=out.stderr)

    return run


