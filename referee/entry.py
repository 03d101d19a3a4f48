"""The `referee` console script: answer `status` and `show` from the snapshot cache at once.

Only the plainest forms are answered here (a journal, --as, --format), and
only when the cache holds exactly the view asked for; everything else,
every error included, goes to the Typer application in cli.py, which gives
the same answer the slow way. This keeps reading a long game as quick as
starting Python.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from .readers import READERS

FORMATS = {"status": ("text", "json"), "show": ("text", "markdown", "json")}


def _options(args: list[str]) -> dict | None:
    out: dict[str, str] = {}
    i = 0
    while i < len(args):
        a = args[i]
        if a.startswith("--") and "=" in a:
            key, value = a[2:].split("=", 1)
        elif a.startswith("--") and i + 1 < len(args):
            key, value = a[2:], args[i + 1]
            i += 1
        elif not a.startswith("-") and "journal" not in out:
            key, value = "journal", a
        else:
            return None
        if key not in ("journal", "as", "format") or key in out:
            return None
        out[key] = value
        i += 1
    return out if "journal" in out else None


def fast(argv: list[str]) -> bool:
    """Print a cached status or show view; False when the slow path must answer."""
    if not argv or argv[0] not in FORMATS:
        return False
    opts = _options(argv[1:])
    if opts is None:
        return False
    command = argv[0]
    fmt = opts.get("format", "text")
    reader = opts.get("as", None if command == "status" else "moderator")
    if fmt not in FORMATS[command] or (reader is not None and reader not in READERS):
        return False
    from . import cache

    view = cache.view(Path(opts["journal"]), f"{command}:{reader}", None)
    if view is None:
        return False
    if fmt == "json":
        text = json.dumps(view, indent=2, ensure_ascii=False)
    elif command == "status":
        from .render.text import status_text
        text = status_text(view)
    elif fmt == "markdown":
        from .render.markdown import show_markdown
        text = show_markdown(view)
    else:
        from .render.text import show_text
        text = show_text(view)
    sys.stdout.write(text + "\n")
    return True


def main() -> None:
    """Entry point of the console script."""
    try:
        if fast(sys.argv[1:]):
            return
    except Exception:  # noqa: BLE001 - the slow path gives the answer (or the error) instead
        pass
    from .cli import main as cli_main
    cli_main()
