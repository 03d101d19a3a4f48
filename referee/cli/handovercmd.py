"""`referee handover`: mark a game as moved to another machine, and say what to copy there.

Run on the machine the game leaves, before its files are copied: under the game's mail lock
(a pass of `tick` or `watch` under way finishes first) and the journal's (no write lands
meanwhile), the referee home keeps a signed mark (store/handedover.py) that the game, as of
its last record, is another machine's; from then on nothing here writes to it. The command
prints what the new machine needs and how to take the game back here.
"""

from __future__ import annotations

import os
from pathlib import Path
from types import SimpleNamespace
from typing import Annotated

import typer

from ..base.errors import JournalError, StorageError, one_line
from . import commands
from .params import Fmt


def handover(
    journal: Annotated[Path, typer.Argument(help="The game's journal.")],
    format: Annotated[Fmt, typer.Option(help="text or json.")] = Fmt.text,
) -> None:
    """Hand the game over to another machine (moderator): from its last record on, nothing on
    this machine writes to it; prints what to copy there."""
    from ..game.standing import store_path  # start-up: only handover needs it
    from ..mail.tickgame import game_lock  # start-up: only handover needs them
    from ..store import (  # start-up: only handover needs it
        handedover,
        signing,
        written,  # start-up: only handover needs it
    )
    from ..store.chain import last_line, record_in  # start-up: only handover needs it
    from ..store.dice import secret_path  # start-up: only handover needs it
    from ..store.journal import Journal  # start-up: only handover needs it

    commands.check_private(journal)
    first = written.head((Journal(journal).first_line() or b"") + b"\n")
    if not isinstance(first.get("game_id"), str) or not isinstance(first.get("hash"), str):
        raise JournalError(f"{one_line(str(journal))}: record 0 is not a game's header the "
                           f"referee wrote; nothing was handed over")
    game = SimpleNamespace(game_id=first["game_id"], header_hash=first["hash"])
    with game_lock(game), Journal(journal).exclusive() as raw:
        last = record_in(last_line(raw))
        try:
            mark = handedover.note(raw, last, journal)
        except OSError as exc:
            raise StorageError(f"{handedover.mark_path(game.game_id)}: the mark cannot be kept "
                               f"({exc.strerror}); nothing was handed over") from None
    fpr = signing.signer_of(last.get("sig")) or ""
    key, secret, standing = signing.key_file(fpr), secret_path(journal), store_path(journal)
    if format == Fmt.json:
        from ..contracts.outputs import HandoverResult  # start-up: only handover needs it
        typer.echo(commands.dump(HandoverResult.of(
            journal=str(journal), game_id=str(mark["game_id"]), seq=mark["seq"],
            secret=str(secret) if os.path.lexists(secret) else None, key_file=str(key),
            standing=str(standing) if os.path.lexists(standing) else None,
            mark=str(handedover.mark_path(mark["game_id"])))))
        return
    for line in _told(journal, mark, key, secret, standing):
        typer.echo(line)


def _told(journal: Path, mark: dict, key: Path, secret: Path, standing: Path) -> list[str]:
    """What handover prints: the game handed over, what to copy, what stays, how to undo."""
    from ..store import handedover  # start-up: only handover needs it

    name = one_line(str(journal))
    lines = [f"{name}: game {one_line(mark['game_id'])} is handed over to another machine at "
             f"record {mark['seq']}: nothing on this machine writes to it from now on "
             f"(`tick` and `watch` pass it over; status, show, log and verify still read it)",
             "copy to the new machine:",
             f"  the journal: {name} (into the game folder there)"]
    if os.path.lexists(secret):
        lines.append(f"  its dice secret: {one_line(str(secret))} (beside the journal there, "
                     f"as {one_line(journal.name)}.secret)")
    else:
        lines.append(f"  its dice secret, if the game keeps one with --secret-file (it is not "
                     f"at {one_line(str(secret))}): beside the journal there, as "
                     f"{one_line(journal.name)}.secret")
    lines.append(f"  the key file: {one_line(str(key))} (into that machine's keys/ folder, same "
                 f"name, mode 0600)")
    if os.path.lexists(standing):
        lines.append(f"  not {one_line(str(standing))}: it is signed by this machine's referee; "
                     f"give the standing orders again there (`referee standing`), as `referee "
                     f"status` here lists them")
    lines += ["  nothing else: the mail route is in the journal; the mail settings (mail.toml), "
              "the players' dice sheets and this machine's records of the game's mail stay; "
              "the new machine's first mail to each player repeats the game from its start",
              "then add the game to the new machine's `tick` or `watch` folder; here its cron "
              "or watch line may stay: it passes the game over",
              f"to take the game back on this machine (handed over by mistake, nothing copied "
              f"yet): remove {handedover.mark_path(mark['game_id'])}"]
    return lines
