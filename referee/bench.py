"""`make bench`: a full-campaign journal by random play, and what reading it costs.

Prints, in one run on one machine: the journal's records and events; replay
throughput (events per second); the wall time of `referee status` and
`referee show --format json` beside `python -c "import typer, pydantic, yaml"`
(the floor) as a ratio, with the snapshot cache warm and cold; peak memory.

    python -m referee.bench [--seed N] [--runs R] [--markdown]
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path


def _run(cmd: list[str]) -> tuple[float, int]:
    """Wall time of a command and its peak RSS in KB (measured in a fresh child)."""
    probe = ("import resource, subprocess, sys, time; t = time.perf_counter(); "
             "r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL); "
             "t = time.perf_counter() - t; "
             "print(t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, r.returncode)")
    out = subprocess.run([sys.executable, "-c", probe, *cmd], capture_output=True, text=True,
                         check=True).stdout.split()
    if out[2] != "0":
        raise SystemExit(f"bench: {' '.join(cmd)} failed")
    return float(out[0]), int(out[1])


def _median(cmd: list[str], runs: int, before=None) -> tuple[float, int]:
    times, peak = [], 0
    for _ in range(runs):
        if before:
            before()
        t, rss = _run(cmd)
        times.append(t)
        peak = max(peak, rss)
    return statistics.median(times), peak


def main(argv: list[str] | None = None) -> int:
    """Build the journal, measure, print the report."""
    ap = argparse.ArgumentParser(prog="python -m referee.bench")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--markdown", action="store_true", help="print a table for the README")
    args = ap.parse_args(argv)

    from .autoplay import autoplay
    from .engine.events import evolve, parse_events
    from .engine.setup import initial_state
    from .game import _scenario_of, create_game, game_data
    from .journal import Journal

    tmp = Path(tempfile.mkdtemp(prefix="referee-bench-"))
    # A full campaign: the first seed whose random game lasts to WINTER 1919-20 (turn 23).
    for seed in range(args.seed, args.seed + 20):
        journal = tmp / f"campaign-{seed}.jsonl"
        secret = tmp / f"bench-{seed}.secret"
        secret.write_text(f"{seed:064x}\n")
        t0 = time.perf_counter()
        create_game(journal, "1914", game_id=f"bench-{seed}", secret_file=secret)
        played = autoplay(journal, seed)
        build_s = time.perf_counter() - t0
        if played.turn == 23:
            break
    records = Journal(journal).read()
    events = sum(len(r.get("events", [])) for r in records)

    data = game_data()
    best = None
    for _ in range(3):
        t = time.perf_counter()
        header = records[0]
        state = initial_state(data, _scenario_of(header), header["game_id"], header["options"])
        for rec in records[1:]:
            for ev in parse_events(rec["events"]):
                evolve(state, ev, data)
        dt = time.perf_counter() - t
        best = dt if best is None else min(best, dt)
    throughput = events / best
    peak_self = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

    referee = [sys.executable, "-m", "referee"]
    cache = journal.with_name(journal.name + ".cache")

    def drop_cache():
        cache.unlink(missing_ok=True)

    floor, floor_rss = _median([sys.executable, "-c", "import typer, pydantic, yaml"],
                               args.runs)
    status_cmd = referee + ["status", str(journal)]
    show_cmd = referee + ["show", str(journal), "--format", "json"]
    cold_status, cold_status_rss = _median(status_cmd, args.runs, drop_cache)
    cold_show, cold_show_rss = _median(show_cmd, args.runs, drop_cache)
    _run(status_cmd)
    _run(show_cmd)                     # the cache now holds both views
    warm_status, warm_status_rss = _median(status_cmd, args.runs)
    warm_show, warm_show_rss = _median(show_cmd, args.runs)

    rows = [
        ("journal", f"{len(records)} records, {events} events, "
                    f"{journal.stat().st_size / 1e6:.1f} MB, turns 1-{played.turn}, "
                    f"{(played.result or {}).get('level_name', 'not over')} (seed {seed})"),
        ("built by random play in", f"{build_s:.1f} s"),
        ("replay throughput", f"{throughput:,.0f} events/s ({best * 1000:.0f} ms for all)"),
        ("floor: python -c 'import typer, pydantic, yaml'", f"{floor * 1000:.0f} ms"),
        ("referee status (cache warm)", f"{warm_status * 1000:.0f} ms = "
                                        f"{warm_status / floor:.2f} x floor"),
        ("referee show --format json (cache warm)", f"{warm_show * 1000:.0f} ms = "
                                                    f"{warm_show / floor:.2f} x floor"),
        ("referee status (no cache)", f"{cold_status * 1000:.0f} ms = "
                                      f"{cold_status / floor:.2f} x floor"),
        ("referee show --format json (no cache)", f"{cold_show * 1000:.0f} ms = "
                                                  f"{cold_show / floor:.2f} x floor"),
        ("peak RSS: status / show (warm)", f"{warm_status_rss / 1024:.0f} / "
                                           f"{warm_show_rss / 1024:.0f} MB"),
        ("peak RSS: status / show (no cache)", f"{cold_status_rss / 1024:.0f} / "
                                               f"{cold_show_rss / 1024:.0f} MB"),
        ("peak RSS: building and replaying in-process", f"{peak_self / 1024:.0f} MB"),
        ("floor peak RSS", f"{floor_rss / 1024:.0f} MB"),
    ]
    machine = (f"{platform.machine()}, {os.cpu_count()} CPUs, "
               f"{os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / 2**30:.0f} GiB, "
               f"Python {platform.python_version()}")
    print(f"make bench — {date.today().isoformat()} — {machine}")
    if args.markdown:
        print("\n| measure | result |\n|---|---|")
        for k, v in rows:
            print(f"| {k} | {v} |")
    else:
        width = max(len(k) for k, _ in rows)
        for k, v in rows:
            print(f"  {k:<{width}}  {v}")
    ok = warm_status / floor <= 1.5 and warm_show / floor <= 1.5 and \
        max(warm_status_rss, warm_show_rss, cold_status_rss, cold_show_rss) < 150 * 1024
    print("targets (status/show <= 1.5 x floor, peak RSS < 150 MB): "
          + ("met" if ok else "NOT met"))
    shutil.rmtree(tmp, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
