"""`make bench`'s rows for a judge host: how the cost of a `tick` pass grows with the games
of a folder. For 10, 100 and 1,000 1914 games (random play to mixed points, fixed seeds),
all reading one Maildir and each writing its own outbox folder, it times through the
`referee` console script:

- an idle pass (no mail, nothing due: the folder's index lets it open no journal);
- a busy pass: one mail for a tenth of the games (the order of the player the game waits
  on, applied and answered), with the maps the mails carry, the games shared among the
  workers a pass chooses on this machine (mail/sharing.py: its cores, at most four);
- an idle pass again once the games that had mail are indexed, that mail kept in the box
  (as a Maildir keeps it): the mail a pass dealt with costs the next ones nothing;
- for the largest folder, a second such round passed in one process: what a mail costs
  one core;
- the peak resident memory of each pass and, for the largest folder, of `watch` serving
  it from one process through two more busy passes and idle ones (new mail dropped into
  its box while it runs).

It draws the cost per pass against the number of games into docs/host-growth.png, so the
growth is seen. Targets (issue: a judge host): 1,000 idle games in at most 1 s; the busy
pass of 1,000 games (100 mails) in at most 10 s on the workers it chooses; a mail with its
maps in at most 0.1 s on one core, measured on the largest folder by a second round of
mail that a pass handles alone (mail.toml's `[passes] workers = 1`), its scan of the
folder included; a pass in at most 200 MB.

    python -m referee.cli.hostbench [--installed PATH_TO_REFEREE] [--plot FILE]
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from PIL import Image, ImageDraw

from ..base.plurals import counted
from ..engine import legal_orders
from ..engine.order_text import format_order
from ..game.autoplay import autoplay
from ..mail.routes import set_route
from ..mail.sharing import workers
from ..render.svgparts import face
from ..store import home, mailsettings
from ..table import Table, kind_named
from .bench import measured

SIZES = (10, 100, 1000)
MB = 1024                  # ru_maxrss is in KB on Linux
IDLE_1000 = 1.0            # target: seconds for an idle pass over 1,000 games
BUSY_1000 = 10.0           # target: seconds for the busy pass over 1,000 games (100 mails)
PER_MAIL = 0.1             # target: seconds a mail with its maps, on one core
RSS = 200 * MB             # target: the peak RSS of a pass, and of watch (largest folder)
WATCH_ROUNDS = 2           # rounds of mail `watch` answers while its memory is measured


def _folder(root: Path, n: int) -> list[Path]:
    """n 1914 games in root/games, each played at random to a point of its own, reading
    root/box and writing root/out/NAME."""
    sides = kind_named("campaign").load("ttlm").sides
    box = root / "box"
    for sub in ("cur", "new", "tmp"):
        (box / sub).mkdir(parents=True, exist_ok=True)
    games = []
    for i in range(n):
        j = root / "games" / f"g{i:04d}.jsonl"
        j.parent.mkdir(parents=True, exist_ok=True)
        Table.create(j, "1914", None, dice_mode="committed", game_id=f"host{n}-{i:04d}",
                     players=[f"{side}={side}{i}@club.example" for side in sides])
        played = random.Random(i).randrange(0, 12)
        if played:
            autoplay(j, seed=i, max_records=played)
        set_route(j, str(box), f"outbox:{root / 'out' / j.stem}")
        games.append(j)
    return games


def _mail_a_tenth(root: Path, games: list[Path], tag: str = "host") -> int:
    """For every tenth game, the mail of the side it waits on (with his order key) giving
    an order he may give (`pass` when he may), into the box; tag tells one round's
    Message-IDs, subjects and files from another's (the same text from the same side with
    the same date and subject is a copy sent again, applied once)."""
    count = 0
    for i, j in enumerate(games[::10]):
        table = Table(j)
        side, order = _asked(table)
        key = table.kind.order_keys(table)[side]
        raw = (f"From: {side}{games.index(j)}@club.example\nTo: referee@club.example\n"
               f"Subject: orders ({tag})\nMessage-ID: <{tag}{i}.{j.stem}@club.example>\n"
               f"Date: Mon, 23 Nov 2026 18:00:00 +0000\n\n{order}\n\nOrder key: {key}\n"
               ).encode()
        (root / "box" / "new" / f"{tag}-{j.stem}.eml").write_bytes(raw)
        count += 1
    return count


def _asked(table: Table) -> tuple[str, str]:
    """The side a game waits on and an order he may give: `pass` when he may, else the
    first of his legal orders."""
    game = table.game()
    pending = game.state.pending
    side = pending.side if pending else table.kind.sides(table)[0]
    texts = [format_order(o) for o in legal_orders(game.state, game.data, side)
             if o.kind != "armistice"]
    return side, "pass" if "pass" in texts or not texts else texts[0]


def measure(referee: str) -> list[dict]:
    """For each folder size: the idle pass, the busy pass and their peak RSS."""
    out = []
    for n in SIZES:
        root = Path(tempfile.mkdtemp(prefix=f"referee-host{n}-"))
        try:
            games = _folder(root, n)
            folder = str(root / "games")
            for _ in range(2):              # the opening mails, then the index
                measured([referee, "tick", folder, "--no-map"])
            idle, idle_rss = measured([referee, "tick", folder, "--no-map"])
            before = {j: Table(j).last_seq() for j in games[::10]}
            mails = _mail_a_tenth(root, games)
            busy, busy_rss = measured([referee, "tick", folder])
            applied = sum(Table(j).last_seq() > seq for j, seq in before.items())
            measured([referee, "tick", folder, "--no-map"])     # the games with mail indexed
            kept, _ = measured([referee, "tick", folder, "--no-map"])
            last = n == SIZES[-1]
            out.append({"games": n, "idle": idle, "busy": busy, "mails": mails,
                        "applied": applied, "idle_kept": kept,
                        "one_core": _one_core(referee, root, games) if last else (0.0, 0),
                        "rss": max(idle_rss, busy_rss),
                        "watch": _watch_rss(referee, root, games) if last else 0})
        finally:
            shutil.rmtree(root, ignore_errors=True)
    return out


def _one_core(referee: str, root: Path, games: list[Path]) -> tuple[float, int]:
    """The seconds a mail costs a pass that handles its mail alone, in one process, and
    how many of its mails were applied: a round of mail for a tenth of the games (the
    round before taken out of the box, handled), passed with `[passes] workers = 1` in
    this home's mail settings (as they were after)."""
    for handled in (root / "box" / "new").glob("*.eml"):
        handled.unlink()
    settings = mailsettings.settings_path()
    home.ensure_dir(settings.parent)
    kept = settings.read_bytes() if settings.exists() else None
    settings.write_text("[passes]\nworkers = 1\n")
    settings.chmod(0o600)
    try:
        before = {j: Table(j).last_seq() for j in games[::10]}
        mails = _mail_a_tenth(root, games, "one")
        seconds, _ = measured([referee, "tick", str(root / "games")])
    finally:
        if kept is None:
            settings.unlink()
        else:
            settings.write_bytes(kept)
    return seconds / mails, sum(Table(j).last_seq() > seq for j, seq in before.items())


def _sent(root: Path) -> int:
    return sum(1 for _ in (root / "out").glob("*/*.eml"))


def _watch_rss(referee: str, root: Path, games: list[Path]) -> int:
    """The peak resident memory (KB) of `watch` over the folder, one pass a second, while
    WATCH_ROUNDS rounds of mail for a tenth of the games are dropped into its box, each once
    the one before is answered, then two idle passes (Linux: the kernel's high-water mark)."""
    proc = subprocess.Popen([referee, "watch", str(root / "games"), "--interval", "1"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for n in range(WATCH_ROUNDS):
            before, until = _sent(root), time.monotonic() + 600
            mails = _mail_a_tenth(root, games, f"watch{n}-")
            while _sent(root) < before + mails:
                if proc.poll() is not None or time.monotonic() > until:
                    raise SystemExit(f"hostbench: watch left mail unanswered (exit "
                                     f"{proc.returncode})")
                time.sleep(0.5)
        time.sleep(2.5)
        return _high_water(proc.pid)
    finally:
        proc.terminate()
        proc.wait(timeout=600)


def _high_water(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    raise SystemExit("hostbench: no VmHWM in /proc (a Linux measure)")


def plot(rows: list[dict], path: Path) -> None:
    """The seconds of a pass against the games of the folder, idle and busy, as a PNG."""


    w, h, left, bottom, top = 1000, 640, 110, 90, 70
    img = Image.new("RGB", (w, h), "white")
    d = ImageDraw.Draw(img)
    small, big = face(False, size=20), face(True, size=26)
    d.text((left, 20), "tick: seconds a pass against the games of the folder", font=big,
           fill="black")
    most = max(r["busy"] for r in rows) * 1.1
    xs = {r["games"]: left + (w - left - 40) * k / (len(rows) - 1) for k, r in enumerate(rows)}

    def y(v: float) -> float:
        return h - bottom - (h - bottom - top) * v / most

    d.line([(left, top), (left, h - bottom), (w - 40, h - bottom)], fill="black", width=2)
    for k in range(6):
        v = most * k / 5
        d.text((10, y(v) - 12), f"{v:.1f} s", font=small, fill="black")
    for n, x in xs.items():
        d.text((x - 20, h - bottom + 12), f"{n}", font=small, fill="black")
    d.text((left, h - 40), "games in the folder (10, 100, 1,000)", font=small, fill="black")
    for key, colour, label in (("busy", "#c0392b", "a tenth of the games with a mail"),
                               ("idle", "#2e6da4", "idle (no mail, nothing due)")):
        points = [(xs[r["games"]], y(r[key])) for r in rows]
        d.line(points, fill=colour, width=4)
        for x, yy in points:
            d.ellipse([x - 6, yy - 6, x + 6, yy + 6], fill=colour)
        d.text((points[-1][0] - 330, points[-1][1] - 34), label, font=small, fill=colour)
    img.save(path, optimize=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m referee.cli.hostbench")
    ap.add_argument("--installed", default=shutil.which("referee") or "referee")
    ap.add_argument("--plot", type=Path, default=Path("docs/host-growth.png"))
    args = ap.parse_args(argv)
    home = tempfile.mkdtemp(prefix="referee-host-home-")
    os.environ["REFEREE_HOME"] = home
    try:
        shared = workers()              # as the passes measured will choose (no mail.toml)
        t = time.perf_counter()
        rows = measure(args.installed)
        plot(rows, args.plot)
    finally:
        shutil.rmtree(home, ignore_errors=True)
    print(f"judge host (1914 games on one Maildir, built and passed in "
          f"{time.perf_counter() - t:.0f} s; a busy pass shared among {counted(shared, 'worker')}; "
          f"plot: {args.plot})")
    missed = []
    for r in rows:
        per_game = r["idle"] / r["games"] * 1000
        per_mail = r["busy"] / r["mails"]
        print(f"  {r['games']:>5} games: idle pass {r['idle']:.2f} s ({per_game:.1f} ms a game)"
              f" ({r['idle_kept']:.2f} s with a round's mail kept in the box)"
              f", a tenth with a mail {r['busy']:.2f} s ({per_mail:.2f} s a mail on "
              f"{counted(shared, 'worker')}, {r['applied']} of {r['mails']} applied), "
              f"peak RSS {r['rss'] // MB} MB"
              + (f", watch {r['watch'] // MB} MB" if r["watch"] else "")
              + (f"; on one core a mail {r['one_core'][0]:.3f} s ({r['one_core'][1]} of "
                 f"{r['mails']} applied)" if r["one_core"][0] else ""))
    last = rows[-1]
    if max(last["idle"], last["idle_kept"]) > IDLE_1000:
        missed.append(f"1,000 idle games {max(last['idle'], last['idle_kept']):.2f} s > "
                      f"{IDLE_1000} s")
    if last["busy"] > BUSY_1000:
        missed.append(f"{last['mails']} mails {last['busy']:.2f} s > {BUSY_1000} s")
    if last["one_core"][0] > PER_MAIL:
        missed.append(f"a mail on one core {last['one_core'][0]:.3f} s > {PER_MAIL} s")
    if last["one_core"][1] < last["mails"] or any(r["applied"] < r["mails"] for r in rows):
        missed.append("mail left unapplied")
    most = max(max(r["rss"], r["watch"]) for r in rows)
    if most > RSS:
        missed.append(f"peak RSS {most // MB} MB > {RSS // MB} MB")
    print("host targets: " + ("all met" if not missed else "NOT met: " + "; ".join(missed)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
