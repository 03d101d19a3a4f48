"""The map pictures of the stored replays as digests, to show that a change to the drawing
keeps every byte: the whole map and the close-up, at records spread over each of the
1914, 1916 and 1918 games, for each side and for the public (252 pictures, about half a
minute). Write them with the code before the change, then check them with the code after:

    python tests/mapbytes.py write BEFORE.json
    python tests/mapbytes.py check BEFORE.json
"""

from __future__ import annotations

import gzip
import hashlib
import json
import shutil
import sys
import tempfile
from pathlib import Path

from referee.render.closeup import closeup_tree
from referee.render.png import to_png
from referee.render.svgmap import map_tree
from referee.table import Table

REPLAYS = Path(__file__).parent / "replays"
GAMES = ("ttlm-1914-seed7", "ttlm-1916-seed8", "ttlm-1918-seed9")
SPREAD = 16            # records drawn in each game, beside its first two


def digests() -> dict[str, str]:
    out = {}
    with tempfile.TemporaryDirectory(prefix="referee-mapbytes-") as folder:
        for name in GAMES:
            journal = Path(folder) / f"{name}.jsonl"
            journal.write_bytes(gzip.decompress((REPLAYS / f"{name}.jsonl.gz").read_bytes()))
            shutil.copyfile(REPLAYS / f"{name}.jsonl.secret", f"{journal}.secret")
            for path in (journal, Path(f"{journal}.secret")):
                path.chmod(0o600)
            table = Table(journal)
            last = table.last_seq()
            for seq in sorted({max(1, last * k // SPREAD) for k in range(1, SPREAD + 1)}
                              | {1, 2}):
                g = table.game(upto=seq)
                for reader in (*g.data.sides, "public"):
                    at = f"{name}@{seq}/{reader}"
                    out[f"{at}/map"] = hashlib.sha256(
                        to_png(map_tree(g.state, g.data, reader, g.game_id))).hexdigest()
                    close = closeup_tree(g.state, g.data, reader, g.game_id)
                    if close is not None:
                        out[f"{at}/close"] = hashlib.sha256(to_png(close)).hexdigest()
    return out


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in ("write", "check"):
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    got, path = digests(), Path(argv[1])
    if argv[0] == "write":
        path.write_text(json.dumps(got, indent=0) + "\n")
        print(f"{len(got)} pictures written to {path}")
        return 0
    before = json.loads(path.read_text())
    differ = sorted(k for k in before.keys() | got.keys() if before.get(k) != got.get(k))
    print(f"{len(got)} pictures: " + (f"{len(differ)} differ: {', '.join(differ[:10])}"
                                      if differ else "every one the same bytes"))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
