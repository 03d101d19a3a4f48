"""`make soak`: many random 1914 games in parallel; failing journals are kept to replay.

    python -m referee.soak [--games N] [--jobs J] [--out DIR] [--first-seed S]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path


def one(seed: int, out: str) -> tuple[int, str, int, str]:
    """Play one complete game; returns (seed, status, records, detail)."""
    from .autoplay import autoplay
    from .game import create_game, verify

    folder = Path(out) / f"seed-{seed}"
    folder.mkdir(parents=True, exist_ok=True)
    secret = folder / "fixed.secret"
    secret.write_text(f"{seed:064x}\n")
    journal = folder / "game.jsonl"
    try:
        create_game(journal, "1914", game_id=f"soak-{seed}", secret_file=secret)
        result = autoplay(journal, seed)
        if result.failure:
            return seed, "FAIL", result.records, result.failure
        verify(journal, secret)
    except Exception as exc:  # noqa: BLE001 - a soak reports every kind of failure
        return seed, "CRASH", 0, f"{type(exc).__name__}: {exc}"
    level = (result.result or {}).get("level", "?")
    shutil.rmtree(folder)
    return seed, "ok", result.records, f"turn {result.turn}, {level}"


def main(argv: list[str] | None = None) -> int:
    """Run the soak; exit 1 if any game failed (its journal is kept)."""
    ap = argparse.ArgumentParser(prog="python -m referee.soak")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)
    out = args.out or tempfile.mkdtemp(prefix="referee-soak-")
    start = time.time()
    bad = 0
    seeds = range(args.first_seed, args.first_seed + args.games)
    with ProcessPoolExecutor(args.jobs) as pool:
        for seed, status, records, detail in pool.map(one, seeds, [out] * args.games):
            print(f"seed {seed:5d}: {status:5s} {records:5d} records  {detail}", flush=True)
            bad += status != "ok"
    print(f"{args.games} games in {time.time() - start:.0f} s; {bad} failed"
          + (f"; their journals are in {out}" if bad else ""))
    if not bad:
        shutil.rmtree(out, ignore_errors=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
