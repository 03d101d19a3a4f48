"""`make bench`: what each command costs on a full campaign, as ratios to the import floor.

Everything is measured in one run on one machine: a full-campaign journal is
built by random play (turns 1-23, at least 3,000 records), then each command
runs in a fresh process, several times, and its median wall time is divided
by the median of `python -c "import typer, pydantic, yaml"` (the floor).
Peak memory is each process's maximum resident size. Every child gets a
temporary $REFEREE_HOME, so the user's own key and snapshots are never used.
"Cold" means no snapshot, view or compiled copy in that folder and nothing
beside the journal: the read of a journal this account has never read. The
account's key, made and synced to disk once by its first command ever, stays;
one row times that very first command on its own. Commands run as users run
them: the `referee` console script beside the interpreter.

    python -m referee.cli.bench [--seed N] [--runs R] [--markdown]
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

from ..engine import decide, legal_orders, plan_labels
from ..engine.order_text import format_order
from ..engine.reading import parse_order
from ..game.autoplay import autoplay
from ..game.lifecycle import create_game
from ..game.replay import SEALED_PLAN, body, open_game, position
from ..store import home, signing
from ..store.dice import Dice
from ..store.journal import Journal
from . import mapbench

MB = 1024          # ru_maxrss is in KB on Linux


def measured(cmd: list[str], stdin: bytes | None = None) -> tuple[float, int]:
    """Wall time of a command and its peak RSS in KB (measured around a fresh child)."""
    probe = ("import resource, subprocess, sys, time; data = sys.stdin.buffer.read(); "
             "t = time.perf_counter(); "
             "r = subprocess.run(sys.argv[1:], input=data, stdout=subprocess.DEVNULL, "
             "stderr=subprocess.PIPE); t = time.perf_counter() - t; "
             "print(t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, r.returncode); "
             "sys.stderr.buffer.write(r.stderr)")
    done = subprocess.run([sys.executable, "-c", probe, *cmd], input=stdin or b"",
                          capture_output=True, check=True)
    out = done.stdout.split()
    if out[2] != b"0":
        raise SystemExit(f"bench: {' '.join(cmd)} failed: {done.stderr.decode()[-300:]}")
    return float(out[0]), int(out[1])


FLOOR = [sys.executable, "-c", "import typer, pydantic, yaml"]

# Ratios to the floor a judge host asks of the commands every mail and every look at a game
# runs (docs/design.md, Speed): a cold read no dearer than the floor, an order near it.
COLD_READ = 1.0
ORDER = 1.2


def _median(cmd: list[str], runs: int, before=None) -> tuple[float, int]:
    times, peak = [], 0
    for _ in range(runs):
        if before:
            before()
        t, rss = measured(cmd)
        times.append(t)
        peak = max(peak, rss)
    return statistics.median(times), peak


def _against_floor(cmd: list[str], runs: int, before=None) -> tuple[float, float, int]:
    """(median time, median ratio to the floor, peak RSS), the floor timed just before each
    of the command's runs.

    A shared machine drifts in speed over a run of minutes, and by a fifth within one:
    each run is divided by the floor timed next to it, and the ratio reported is the
    median of these paired ratios, which compares like with like.
    """
    times, ratios, peak = [], [], 0
    for _ in range(runs):
        floor = measured(FLOOR)[0]
        if before:
            before()
        t, rss = measured(cmd)
        times.append(t)
        ratios.append(t / floor)
        peak = max(peak, rss)
    return statistics.median(times), statistics.median(ratios), peak


class Bench:
    """The journals, the folders and the measurements of one benchmark run."""

    def __init__(self, runs: int):
        self.runs = runs
        self.tmp = Path(tempfile.mkdtemp(prefix="referee-bench-"))
        self.home = self.tmp / "home"
        self.home.mkdir()
        os.environ["REFEREE_HOME"] = str(self.home)
        script = Path(sys.executable).with_name("referee")
        self.referee = [str(script)] if script.is_file() else [sys.executable, "-m", "referee"]
        self.rows: list[tuple[str, str]] = []
        self.checks: list[tuple[str, bool]] = []
        self.peaks: dict[str, int] = {}

    # The moderator's: the games' keys and the marks of what his referee wrote to them.
    KEPT = ("keys", "written", "games")

    def cold(self) -> None:
        """Forget every snapshot, view and compiled copy; the account's key and the
        moderator's keys and marks stay (as a cleared cache leaves them)."""
        for entry in self.home.iterdir():
            if entry.name not in ("key", *self.KEPT):
                shutil.rmtree(entry) if entry.is_dir() else entry.unlink()

    def first_ever(self) -> None:
        """$REFEREE_HOME as for the account's first read, which makes its key: nothing but the
        games' keys (the moderator's, made by `new`) and the marks of what he wrote."""
        for entry in self.home.iterdir():
            if entry.name not in self.KEPT:
                shutil.rmtree(entry) if entry.is_dir() else entry.unlink()
        self._forget_key()

    def measure_first(self, label: str, cmd: list[str], short: str) -> float:
        """measure cmd as the account's first command (first_ever), then put the home back
        as it was: the key made anew leaves the marks of what the account wrote unreadable
        (each is signed with the key), and every read after would check the last record's
        signature instead, as the moderator's own reads never do."""
        saved = self.keep_home("before-first")
        try:
            return self.measure(label, cmd, before=self.first_ever, short=short)
        finally:
            self.restore_home(saved)

    @staticmethod
    def _forget_key() -> None:
        home._KEY.clear()

    def keep_home(self, name: str) -> Path:
        saved = self.tmp / f"home-{name}"
        shutil.rmtree(saved, ignore_errors=True)
        shutil.copytree(self.home, saved)
        return saved

    def restore_home(self, saved: Path) -> None:
        shutil.rmtree(self.home)
        shutil.copytree(saved, self.home)
        self._forget_key()

    def measure(self, label: str, cmd: list[str], target: float | None = None,
                before=None, runs: int | None = None, short: str | None = None) -> float:
        t, ratio, rss = _against_floor(cmd, runs or self.runs, before)
        self.peaks[short or label] = rss
        self.rows.append((label, f"{t * 1000:.0f} ms = {ratio:.2f} x floor"
                                 + (f" (target <= {target})" if target else "")))
        if target is not None:
            self.checks.append((label, ratio <= target))
        return t


def _campaign(tmp: Path, first_seed: int):
    """The first random 1914 game from first_seed on that lasts to turn 23 and 3,000 records."""
    for seed in range(first_seed, first_seed + 30):
        journal = tmp / f"campaign-{seed}.jsonl"
        secret = tmp / f"bench-{seed}.secret"
        secret.write_text(f"{seed:064x}\n")
        secret.chmod(0o600)
        t0 = time.perf_counter()
        create_game(journal, "1914", game_id=f"bench-{seed}", secret_file=secret)
        played = autoplay(journal, seed)
        build = time.perf_counter() - t0
        if played.turn == 23 and played.records >= 3000:
            return journal, secret, seed, played, build
    raise SystemExit("bench: no random game from these seeds lasted to turn 23")


def _cut(journal: Path, records: int, to: Path, secret: Path) -> Path:
    """A copy of the journal's first `records` records (a valid journal of its own), with
    its secret beside it (an empty $REFEREE_HOME knows nothing of where secrets are)."""
    raw = journal.read_bytes()
    end = 0
    for _ in range(records):
        end = raw.index(b"\n", end) + 1
    to.write_bytes(raw[:end])
    to.chmod(0o600)
    # An older copy of the game put to use on purpose: the referee's mark of what it last
    # wrote to the game goes (store/written.py), as the moderator's would.
    shutil.rmtree(home.data_dir("written"), ignore_errors=True)
    shutil.copyfile(secret, to.with_name(to.name + ".secret"))
    to.with_name(to.name + ".secret").chmod(0o600)
    return to


def _record(journal: Path, seq: int) -> dict:
    with open(journal, "rb") as fh:
        for n, line in enumerate(fh):
            if n == seq:
                return json.loads(line)
    raise KeyError(seq)


def _lengthen(journal: Path, pairs: int) -> None:
    """Append armistice proposals and refusals (legal at any time, 3.2) in one write."""
    j = Journal(journal)

    def build(raw: bytes):
        pos = position(j, raw, None)
        state, seq, bodies = pos.state, pos.seq, []
        for _ in range(pairs):
            for side, text in (("german", "propose armistice"), ("entente", "refuse armistice")):
                dice = Dice(pos.header["game_id"], seq + 1, None)
                events, state = decide(state, pos.data, parse_order(text, pos.data), side,
                                       dice, text)
                seq += 1
                bodies.append(body(side, text, events, dice))
        return pos.seq, pos.hash, bodies

    j.append_raw(build)


def main(argv: list[str] | None = None) -> int:
    """Build the journals, measure, print the report; exit 1 if a target is missed."""
    ap = argparse.ArgumentParser(prog="python -m referee.cli.bench")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--runs", type=int, default=11)
    ap.add_argument("--markdown", action="store_true", help="print a table for the README")
    ap.add_argument("--installed", type=Path, default=None,
                    help="the referee console script of an installed wheel, timed beside this "
                         "checkout's (make bench: .ci/try-wheel's environment)")
    args = ap.parse_args(argv)
    # Measure the code as installed: with bytecode (PYTHONDONTWRITEBYTECODE would otherwise
    # make every child compile the modules changed since `make setup`).
    compileall.compile_dir(Path(__file__).resolve().parent.parent, quiet=1)
    b = Bench(args.runs)
    try:
        return _measure_all(b, args)
    finally:
        shutil.rmtree(b.tmp, ignore_errors=True)


def _measure_all(b: Bench, args) -> int:
    """Every measurement, in the order the report lists them; 1 if a target is missed."""
    journal, secret, seed, played, build_s = _campaign(b.tmp, args.seed)
    n_records, floor_rss = _describe(b, journal, seed, played, build_s)
    _measure_reads(b, journal)
    _measure_deadline_reads(b, journal, secret, n_records)
    if args.installed is not None:
        _measure_installed(b, journal, args.installed)
    _measure_orders(b, journal, secret, n_records)
    _measure_checks(b, journal, secret, played)
    _measure_contracts(b, journal)
    _measure_signing(b, journal)
    _measure_memory(b, journal, secret, n_records, floor_rss)
    rows, checks = mapbench.measure(journal)
    b.rows += rows
    b.checks += checks
    return _print_report(b, args.markdown)


def _describe(b: Bench, journal: Path, seed: int, played, build_s: float) -> tuple[int, int]:
    """The rows that say what was measured against what: the journal and the floor.
    Returns the journal's record count and the floor's peak RSS."""
    raw = journal.read_bytes()
    n_records = raw.count(b"\n")
    events = sum(len(r.get("events", [])) for r in Journal(journal).read())
    b.floor, floor_rss = _median(FLOOR, b.runs)
    b.rows += [
        ("journal", f"{n_records} records, {events} events, {len(raw) / 1e6:.1f} MB, turns "
                    f"1-{played.turn}, {(played.result or {}).get('level_name', 'not over')} "
                    f"(seed {seed})"),
        ("built by random play in", f"{build_s:.1f} s"),
        ("floor: python -c 'import typer, pydantic, yaml'", f"{b.floor * 1000:.0f} ms"),
    ]
    return n_records, floor_rss


def _measure_reads(b: Bench, journal: Path) -> None:
    """status and show, cold and then from their signed views."""
    status = b.referee + ["status", str(journal)]
    show = b.referee + ["show", str(journal), "--format", "json"]
    measured(status)                        # the account's key, made once
    b.measure("status, cold (no snapshot anywhere)", status, COLD_READ, before=b.cold,
              short="status cold")
    b.measure("show --format json, cold", show, COLD_READ, before=b.cold, short="show cold")
    b.measure_first("status, the account's first command (its key made)", status,
                    short="status first")
    measured(status)
    measured(show)
    b.measure("status, from its signed view", status, 0.5, short="status warm")
    b.measure("show --format json, from its signed view", show, 0.5, short="show warm")


def _measure_deadline_reads(b: Bench, journal: Path, secret: Path, n_records: int) -> None:
    """status and show, cold, of the campaign as a game by mail has it: with deadlines (its
    last record but one, then the moderator's `deadline --set 72h`), which `status` works
    out from every record since the game began. The home is put back after."""
    saved = b.keep_home("before-deadlines")
    try:
        timed = _cut(journal, n_records - 1, b.tmp / "deadlines.jsonl", secret)
        measured(b.referee + ["deadline", str(timed), "--set", "72h"])
        status = b.referee + ["status", str(timed)]
        b.measure("status, cold, the campaign with deadlines", status, COLD_READ,
                  before=b.cold, short="status cold, deadlines")
        b.measure("show --format json, cold, with deadlines",
                  b.referee + ["show", str(timed), "--format", "json"], COLD_READ,
                  before=b.cold, short="show cold, deadlines")
    finally:
        b.restore_home(saved)


def _measure_installed(b: Bench, journal: Path, installed: Path) -> None:
    """The wheel as users install it: its first read (the game data compiled into the
    user's cache, no view yet) on its own, then its reads after that beside the checkout's,
    run in turn, each pair's ratio the installed one's time over the checkout's."""
    if not installed.is_file():
        raise SystemExit(f"bench: --installed {installed}: no such console script")
    theirs = [str(installed), "status", str(journal)]
    ours = b.referee + ["status", str(journal)]
    first, _ = _median(theirs, b.runs, before=b.cold)
    b.rows.append(("installed wheel: status, its first read (data compiled into the cache)",
                   f"{first * 1000:.0f} ms = {first / b.floor:.2f} x floor"))

    def no_views() -> None:                 # the compiled data stays, as after a first read
        for entry in b.home.iterdir():
            if entry.name not in ("key", "compiled", *Bench.KEPT):
                shutil.rmtree(entry) if entry.is_dir() else entry.unlink()

    for label, before in (("status, no view yet", no_views), ("status, from its view", None)):
        ratios = []
        for _ in range(b.runs):
            pair = []
            for cmd in (theirs, ours):
                if before:
                    before()
                else:
                    measured(cmd)
                pair.append(measured(cmd)[0])
            ratios.append(pair[0] / pair[1])
        ratio = statistics.median(ratios)
        b.rows.append((f"installed wheel: {label}", f"{ratio:.2f} x this checkout's "
                                                    f"(target <= 1.1)"))
        b.checks.append((f"installed {label}", ratio <= 1.1))


def _measure_orders(b: Bench, journal: Path, secret: Path, n_records: int) -> None:
    """One order at the end of the journal, with a valid snapshot of what comes before it,
    and the same 2,000 records earlier, the two run in turn beside one floor: its cost at
    the end, and its growth per 1,000 records as the median of the paired differences."""
    early = _order_setup(b, journal, secret, n_records - 2000, "early")
    last = _order_setup(b, journal, secret, n_records - 1, "last")
    pairs, times, peak = [], [], 0
    for _ in range(b.runs):
        floor = measured(FLOOR)[0]
        ratios = []
        for cmd, again, _ in (early, last):
            again()
            t, rss = measured(cmd)
            ratios.append(t / floor)
        times.append(t)
        peak = max(peak, rss)
        pairs.append(ratios)
    ratio = statistics.median(r[1] for r in pairs)
    growth = statistics.median((r[1] - r[0]) / 2 for r in pairs)
    t = statistics.median(times)
    listing, count = last[2]()
    listing /= t / ratio                  # as a share of the floor
    b.peaks["order"] = peak
    b.rows.append(("order at the end, valid snapshot", f"{t * 1000:.0f} ms = {ratio:.2f} x "
                   f"floor, of which listing its position ({count} orders) {listing:.2f} x "
                   f"(target <= {ORDER} + listing)"))
    b.checks.append(("order", ratio - listing <= ORDER))
    b.rows.append(("order: growth per 1,000 records", f"{growth:+.3f} x floor "
                   f"(target <= 0.1)"))
    b.checks.append(("order growth", growth <= 0.1))


def _order_setup(b: Bench, journal: Path, secret: Path, target: int, name: str):
    """(command, what puts its journal and home back before each run, what times listing
    its position in this process: (seconds, orders)) for giving again the order of the
    record at `target`, on a copy of the journal cut just before it."""
    # The order of a sealed plan's record is only its label: take the nearest record
    # before the target whose order can be typed again.
    sealed_labels = plan_labels() | {SEALED_PLAN}
    cut = target
    while _record(journal, cut)["order"] in sealed_labels:
        cut -= 1
    prefix = b.tmp / f"prefix-{cut}.jsonl"
    _cut(journal, cut, prefix, secret)
    rec = _record(journal, cut)
    b.cold()
    measured(b.referee + ["status", str(prefix)])            # the snapshot of the prefix
    saved = b.keep_home(name)
    whole = prefix.read_bytes()

    def again() -> None:
        prefix.write_bytes(whole)
        b.restore_home(saved)

    def listing() -> tuple[float, int]:
        again()
        game = open_game(prefix)
        t0 = time.perf_counter()
        listed = [format_order(o) for o in legal_orders(game.state, game.data, rec["actor"])]
        return time.perf_counter() - t0, len(listed)

    return b.referee + ["order", str(prefix), "--as", rec["actor"], rec["order"]], again, listing


def _measure_contracts(b: Bench, journal: Path) -> None:
    """What validation by the contracts adds: to an order (its new record), to verify of an
    export (every line), each as the time of a process doing only that less a bare interpreter's."""
    bare = [sys.executable, "-c", "pass"]
    probe = ("import sys, referee; referee.load_msgspec(); "     # as the commands load it
             "from referee.contracts import check; "
             "lines = open(sys.argv[1], 'rb').read().splitlines(); "
             "lines = lines[-1:] if sys.argv[2] == 'last' else lines[1:]; "
             "assert not [n for n in lines if check.problems('journal-record', n)]")
    base = _median(bare, b.runs)[0]
    for which, label in (("last", "validating a record by its contract (what each order "
                                  "adds)"),
                         ("all", "validating every record by its contract (what verify "
                                 "of an export adds)")):
        t = _median([sys.executable, "-c", probe, str(journal), which], b.runs)[0]
        b.rows.append((label, f"{(t - base) * 1000:.0f} ms = {(t - base) / b.floor:.2f} x "
                              f"floor"))


def _measure_signing(b: Bench, journal: Path) -> None:
    """What the signatures cost: importing the library (a process doing only that, less a
    bare interpreter's), and signing and checking one record (the median over the
    campaign's records, in this process)."""

    bare = [sys.executable, "-c", "pass"]
    probe = [sys.executable, "-c",
             "from cryptography.hazmat.primitives.asymmetric import ed25519"]
    base = _median(bare, b.runs)[0]
    t = _median(probe, b.runs)[0]
    b.rows.append(("importing the signing library (once in a command that signs or checks)",
                   f"{(t - base) * 1000:.0f} ms = {(t - base) / b.floor:.2f} x floor"))
    records = [json.loads(line) for line in journal.read_bytes().splitlines()]
    key = signing.held(signing.signer_of(records[-1]["sig"]) or "")
    public = signing.public_of(records[0]["signing"])
    assert key is not None and public is not None
    signs, checks = [], []
    for rec in records:
        t0 = time.perf_counter()
        key.sig(rec["hash"])
        t1 = time.perf_counter()
        assert signing.checks(rec["sig"], rec["hash"], public)
        checks.append(time.perf_counter() - t1)
        signs.append(t1 - t0)
    for label, times in (("signing one record (each record written)", signs),
                         ("checking one record's signature (verify: each record; a write: "
                          "the last)", checks)):
        b.rows.append((label, f"{statistics.median(times) * 1e6:.0f} µs"))


def _measure_checks(b: Bench, journal: Path, secret: Path, played) -> None:
    """verify with and without the secret, and status at the busiest position."""
    ref = b.referee
    b.measure("verify", ref + ["verify", str(journal)], 10, runs=7)
    b.measure("verify --secret", ref + ["verify", str(journal), "--secret", str(secret)], 10,
              runs=7)
    busy_seq, busy_count = played.busiest
    busiest = _cut(journal, busy_seq + 1, b.tmp / "busiest.jsonl", secret)
    b.measure(f"status at the busiest position (record {busy_seq}, {busy_count} orders), cold",
              ref + ["status", str(busiest)], 2, before=b.cold, short="busiest status")


def _measure_memory(b: Bench, journal: Path, secret: Path, n_records: int,
                    floor_rss: int) -> None:
    """log and verify of a journal ten times as long, and every peak RSS against 100 MB."""
    long = _cut(journal, n_records - 1, b.tmp / "long.jsonl", secret)
    _lengthen(long, (9 * n_records) // 2 + 1)
    long_records = long.read_bytes().count(b"\n")
    b.cold()
    _, rss_log = measured(b.referee + ["log", str(long), "--format", "json"])
    _, rss_verify = measured(b.referee + ["verify", str(long)])
    b.peaks[f"log --format json of {long_records:,} records"] = rss_log
    b.peaks[f"verify of {long_records:,} records"] = rss_verify

    worst = max(b.peaks.values())
    b.rows.append(("peak RSS (target <= 100 MB)", ", ".join(
        f"{k} {v / MB:.0f}" for k, v in b.peaks.items()) + " MB"))
    b.rows.append(("floor peak RSS", f"{floor_rss / MB:.0f} MB"))
    b.checks.append(("peak RSS <= 100 MB", worst <= 100 * MB))


def _print_report(b: Bench, markdown: bool) -> int:
    """Print the machine, the rows and the targets missed; 1 if any was."""
    machine = (f"{platform.machine()}, {os.cpu_count()} CPUs, "
               f"{os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / 2**30:.0f} GiB, "
               f"Python {platform.python_version()}")
    print(f"make bench — {date.today().isoformat()} — {machine}")
    if markdown:
        print("\n| measure | result |\n|---|---|")
        for k, v in b.rows:
            print(f"| {k} | {v} |")
    else:
        width = max(len(k) for k, _ in b.rows)
        for k, v in b.rows:
            print(f"  {k:<{width}}  {v}")
    missed = [label for label, ok in b.checks if not ok]
    print("targets: " + ("all met" if not missed else "NOT met: " + "; ".join(missed)))
    return 1 if missed else 0

if __name__ == "__main__":
    sys.exit(main())
