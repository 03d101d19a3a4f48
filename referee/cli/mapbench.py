"""`make bench`'s rows for the pictures a mail carries: the whole map and the close-up of a
decision, drawn as PNG in this process for both sides at a dozen records spread over a
campaign, with their sizes and how long each took (one process, one core).

The first map a process draws also lays out and paints the part of the map that is the
same at every record (render/mapbase.py, the layer png.py paints), or reads it from this
user's cache when an earlier run kept it (render/stored.py); the others find it in memory,
as the maps of one `inbox` or `tick` run do. The first map is timed in a process of its
own twice, with a user's folder of its own, empty and then as the first left it. Each is
painted from its drawing as a mail's is, not from its text read back. The times are the
process's own (CPU, one core: the drawing uses one), from the position to the PNG's
bytes. Targets: a
PNG at most 150 KB at median, a map drawn again in at most 0.2 s at median.

    python -m referee.cli.mapbench JOURNAL
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ..render.closeup import closeup_tree
from ..render.png import to_png
from ..render.svgmap import map_tree
from ..table import Table

POSITIONS = 12         # records drawn, spread over the journal
KB = 1024
LIGHT = 150 * KB       # target: a PNG's size at median
QUICK = 0.2            # target: a map drawn again, at median, in seconds


def _drawn(svg) -> tuple[float, int]:
    """Paint a drawing, as a mail does (the element itself), its CPU seconds and bytes."""
    t = time.process_time()
    data = to_png(svg)
    return time.process_time() - t, len(data)


def measure(journal: Path) -> tuple[list[tuple[str, str]], list[tuple[str, bool]]]:
    """The rows and the targets met: sizes of the whole map and of the close-up, and the
    time to draw a map to PNG, first in the process and again."""
    with tempfile.TemporaryDirectory(prefix="referee-mapbench-") as home:
        made, kept = _first_in_a_process(journal, home), _first_in_a_process(journal, home)
    table = Table(journal)
    whole, close, times = [], [], []
    for seq in _positions(table):
        game = table.game(upto=seq)
        for side in game.data.sides:
            t = time.process_time()
            _, size = _drawn(map_tree(game.state, game.data, side, game.game_id))
            times.append(time.process_time() - t)
            whole.append(size)
            svg = closeup_tree(game.state, game.data, side, game.game_id)
            if svg is not None:
                close.append(_drawn(svg)[1])
    again = times[1:]              # the first may make its static part in this process
    rows = [
        ("map PNG, whole map: median / largest", f"{_kb(statistics.median(whole))} / "
                                                 f"{_kb(max(whole))} (target <= 150 KB)"),
        ("map PNG, close-up of a decision: median / largest",
         f"{_kb(statistics.median(close))} / {_kb(max(close))}" if close else "none drawn"),
        ("a map to PNG, first in a process: its static part made / kept by an earlier run, CPU",
         f"{made:.2f} s / {kept:.2f} s"),
        ("a map to PNG, again: median / slowest, CPU", f"{statistics.median(again):.2f} s / "
                                                       f"{max(again):.2f} s (target <= 0.2 s)"),
    ]
    checks = [("map PNG <= 150 KB at median", statistics.median(whole) <= LIGHT),
              ("map drawn again <= 0.2 s at median", statistics.median(again) <= QUICK)]
    return rows, checks


def _positions(table: Table) -> list[int]:
    last = table.last_seq()
    return sorted({max(1, last * k // POSITIONS) for k in range(1, POSITIONS + 1)})


def _first_in_a_process(journal: Path, home: str) -> float:
    """The CPU seconds a new process takes to draw the first position's map to PNG, its
    user's folder `home` (what an earlier one kept there)."""
    out = subprocess.run([sys.executable, "-m", "referee.cli.mapbench", "--first",
                          str(journal)], capture_output=True, text=True, check=True,
                         env={**os.environ, "REFEREE_HOME": home})
    return float(out.stdout)


def first_map(journal: Path) -> float:
    table = Table(journal)
    game = table.game(upto=_positions(table)[0])
    t = time.process_time()
    _drawn(map_tree(game.state, game.data, game.data.sides[0], game.game_id))
    return time.process_time() - t


def _kb(n: float) -> str:
    return f"{n / KB:.0f} KB"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) == 2 and args[0] == "--first":
        print(f"{first_map(Path(args[1])):.4f}")
        return 0
    if len(args) != 1:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    rows, checks = measure(Path(args[0]))
    for k, v in rows:
        print(f"  {k}  {v}")
    missed = [label for label, ok in checks if not ok]
    print("targets: " + ("all met" if not missed else "NOT met: " + "; ".join(missed)))
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
