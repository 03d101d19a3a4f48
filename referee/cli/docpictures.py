"""`make docs`: the pictures docs/player.md shows, those of one mail that asks a decision:
the mail that asks the demo's first side to declare its battles once its opening has moved
its 1st Army into Liège (render/closeup.py, then the whole map, svgmap.py), drawn for that
side as the mail carries them.

    python -m referee.cli.docpictures docs
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from ..render.closeup import closeup_png
from ..render.sharedmaps import SharedMaps
from ..store.dice import write_secret
from ..table import Table
from .demo import DEMO_OPENING, DEMO_SECRET


def draw(folder: Path) -> list[Path]:
    """Play the demo's opening in a temporary folder and write the mail's two pictures into
    folder: mail-closeup.png and mail-map.png."""
    with tempfile.TemporaryDirectory(prefix="referee-docs-") as tmp:
        path = Path(tmp) / "demo-1914.jsonl"
        secret = Path(tmp) / "demo.secret"
        write_secret(secret, bytes.fromhex(DEMO_SECRET))
        first = Table.create(path, "1914", game_id="demo-1914",
                             secret_file=secret).data.units.side_order[0]
        done = Table(path).submit(first, DEMO_OPENING)
        if done.rejected:
            raise SystemExit(f"docpictures: the demo's opening was refused: {done.rejected}")
        game = Table(path).game()
        asked = game.state.pending.side          # the side asked to declare the battle
        pictures = {"mail-closeup.png": closeup_png(game.state, game.data, asked,
                                                    game.game_id),
                    "mail-map.png": SharedMaps(game.state, game.data, tuple(game.data.sides),
                                               game.game_id).png(asked)}
    out = []
    for name, data in pictures.items():
        if data is None:
            raise SystemExit("docpictures: the demo's decision concerns no area")
        (folder / name).write_bytes(data)
        out.append(folder / name)
    return out


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or not Path(args[0]).is_dir():
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    for p in draw(Path(args[0])):
        print(f"wrote {p}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
