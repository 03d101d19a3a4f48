"""`make setup`: compile every built-in game into the package and file each new version of
its data in games/history/ (datastore.py), to be committed.

    python -m referee.data.build
"""

import sys

from ..base.errors import GameDataError
from ..base.plurals import counted
from . import datastore
from .catalog import folder_kind
from .compiled import write_package_copy
from .dataload import load_game
from .paths import default_games_dir


def main() -> int:
    """Compile every game of the built-in games directory, and add its data to the shipped
    history (datastore.py) when this version of it is not there yet."""
    games = default_games_dir()
    failed = 0
    for root in sorted(p for p in games.iterdir() if (p / "game.yaml").is_file()):
        try:                 # one game's broken data does not keep the others from compiling
            if folder_kind(root) != "campaign":     # its kind reads its YAML: nothing to compile
                print(f"not compiled: {root.name} ({folder_kind(root)}, read from its YAML; "
                      f"`referee games check` checks it)")
                continue
            print(f"compiled {root.name} into {write_package_copy(root)}")
        except GameDataError as exc:           # every problem, each at its file and line
            print(f"{root.name}: not compiled: {counted(len(exc.problems), 'problem')} in {root}",
                  file=sys.stderr)
            for line in exc.problems:
                print(line, file=sys.stderr)
            failed += 1
            continue
        kept = datastore.write_shipped(load_game(root), root.name)
        if kept is not None:
            print(f"new version of the {root.name} data kept in {kept} (commit it)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
