"""`make soak`: many random 1914 games in parallel; failing journals are kept to replay.

    python -m referee.cli.soak [--game GAME] [--games N] [--jobs J] [--out DIR] [--first-seed S]
                           [--options default|all|KEY=VALUE,...]

--game names the game (a folder of the games directory: ttlm, the default, or aac);
every game plays its 1914 scenario.

--options all plays odd seeds with every optional rule of game.yaml on and
even seeds with each one on or off by the bits of the seed, so that every
option is played both ways, alone and together; KEY=VALUE,... sets the same
options for every game; default (the default) uses each option's default.
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

from ..base.errors import UsageError
from ..data.catalog import check_game_name, game_data, parse_options
from ..game.autoplay import autoplay
from ..game.lifecycle import create_game
from ..game.verification import verify


def options_for(seed: int, mode: str, declared: list[str]) -> list[str]:
    """The --option strings of one soak game: see the module's docstring."""
    if mode == "default":
        return []
    if mode == "all":
        keys = sorted(declared)
        if seed % 2:
            return [f"{k}=true" for k in keys]
        bits = seed // 2
        return [f"{k}={'true' if bits >> i & 1 else 'false'}" for i, k in enumerate(keys)]
    return [x.strip() for x in mode.split(",") if x.strip()]


def one(seed: int, out: str, mode: str = "default",
        game: str = "ttlm") -> tuple[int, str, int, str]:
    """Play one complete game; returns (seed, status, records, detail)."""
    folder = Path(out) / f"seed-{seed}"
    folder.mkdir(parents=True, exist_ok=True)
    secret = folder / "fixed.secret"
    secret.write_text(f"{seed:064x}\n")
    secret.chmod(0o600)             # a dice secret is private to its owner
    journal = folder / "game.jsonl"
    try:
        options = options_for(seed, mode, list(game_data(game).info.options))
        on = [o.split("=")[0] for o in options if o.endswith("=true")]
        create_game(journal, "1914", options=options, game_id=f"soak-{seed}",
                    secret_file=secret, game=game)
        result = autoplay(journal, seed)
        if result.failure:
            return seed, "FAIL", result.records, result.failure
        verify(journal, secret)
    except Exception as exc:  # noqa: BLE001 - a soak reports every kind of failure
        return seed, "CRASH", 0, f"{type(exc).__name__}: {exc}"
    level = (result.result or {}).get("level", "?")
    shutil.rmtree(folder)
    return seed, "ok", result.records, (f"turn {result.turn}, {level}; options: "
                                        f"{', '.join(on) or 'none'}")


def main(argv: list[str] | None = None) -> int:
    """Run the soak; exit 1 if any game failed (its journal is kept)."""
    ap = argparse.ArgumentParser(prog="python -m referee.cli.soak")
    ap.add_argument("--game", default="ttlm", help="the game to play (ttlm or aac)")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--out", default=None)
    ap.add_argument("--options", default="default",
                    help="default, all (every optional rule on and off by seed) or "
                         "KEY=VALUE,... for every game")
    args = ap.parse_args(argv)
    try:
        check_game_name(args.game)
        if args.options not in ("default", "all"):
            parse_options(options_for(1, args.options, []), game_data(args.game))
    except UsageError as exc:
        ap.error(str(exc))
    out = args.out or tempfile.mkdtemp(prefix="referee-soak-")
    start = time.time()
    bad = 0
    seeds = range(args.first_seed, args.first_seed + args.games)
    with ProcessPoolExecutor(args.jobs) as pool:
        for seed, status, records, detail in pool.map(one, seeds, [out] * args.games,
                                                      [args.options] * args.games,
                                                      [args.game] * args.games):
            print(f"seed {seed:5d}: {status:5s} {records:5d} records  {detail}", flush=True)
            bad += status != "ok"
    print(f"{args.games} games in {time.time() - start:.0f} s; {bad} failed"
          + (f"; their journals are in {out}" if bad else ""))
    if not bad:
        shutil.rmtree(out, ignore_errors=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
