"""`referee sheet new`: a player's dice sheet, made on his own machine without any game.

The command returns its exit code (None for 0); app.py registers it inside the error boundary.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..contracts.outputs import SheetMade
from ..store import sheets
from . import commands
from .params import Fmt


def sheet_new(
    output: Annotated[Path, typer.Option(
        "--output", "-o", help="The file to write (mode 0600; never over an existing one).")],
    links: Annotated[int, typer.Option(
        min=1, max=sheets.MAX_LINKS,
        help="How many links: one is used by each of your batches of orders that rolls dice "
             "or shuffles the deck.")] = sheets.DEFAULT_LINKS,
    format: Annotated[Fmt, typer.Option(help="text or json.")] = Fmt.text,
) -> None:
    """Make a dice sheet: a random seed hashed again and again with SHA-256, written tip first.
    Register the tip with the game; reveal the links in order, one with each batch of
    orders that rolls dice (`order --link`, or a line 'Link: LINK' in a mail)."""
    chain = sheets.make_sheet(links)
    sheets.write_sheet(output, chain)
    if format == Fmt.json:
        typer.echo(commands.dump(SheetMade.of(file=str(output), links=links, tip=chain[0])))
        return
    typer.echo(f"wrote {output}: a dice sheet of {links} links (keep it private; line k + 1 "
               f"is link k)")
    typer.echo(f"its tip, for the moderator or a line 'Sheet: TIP' in your mail:\n{chain[0]}")
