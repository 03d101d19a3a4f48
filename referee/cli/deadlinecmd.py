"""Deadlines for the moderator: deadline (show, change, pause, resume) and extend.

Each command returns its exit code (None for 0); app.py registers it inside the error boundary.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from ..base.errors import UsageError
from . import commands
from .params import GAMES, Fmt


def deadline(
    journal: Annotated[Path, typer.Argument(help="The game's journal.")],
    set_: Annotated[Optional[str], typer.Option(
        "--set", help="The deadline of each hand-off from now on, e.g. 72h or 3d.")] = None,
    kind: Annotated[Optional[str], typer.Option(
        help="With --set: only for this kind of decision (as status --format json names "
             "it, e.g. movement).")] = None,
    reminders: Annotated[Optional[str], typer.Option(
        help="When to remind the sides owing orders, before the deadline, e.g. 24h,2h; "
             "each shorter than the game's longest deadline; '' for none.")
    ] = None,
    missed: Annotated[Optional[str], typer.Option(
        help="At a missed deadline: default, wait or pause.")] = None,
    extensions: Annotated[Optional[int], typer.Option(
        help="How many times each side may ask for more time by mail.")] = None,
    skip_weekends: Annotated[Optional[bool], typer.Option(
        "--skip-weekends/--no-skip-weekends",
        help="Whether a deadline falling on a weekend (in the game's time zone) moves to "
             "Monday, same time.")] = None,
    zone: Annotated[Optional[str], typer.Option(
        help="The game's time zone, an IANA name like Europe/Paris or America/New_York: "
             "every time is told there (with UTC beside it) and its weekend is skipped; "
             "UTC puts the game back on UTC.")] = None,
    pause: Annotated[bool, typer.Option(
        "--pause", help="Pause the game: no orders are taken and no deadline runs.")] = False,
    resume: Annotated[bool, typer.Option(
        "--resume", help="Resume a paused game: the deadlines run again from now.")] = False,
    format: Annotated[Fmt, typer.Option(help="text or json.")] = Fmt.text,
) -> None:
    """Each owing side's deadline; with options, a moderator's record changing them."""
    from ..game import timeline  # start-up: only the deadline commands need it

    commands.check_private(journal)
    commands.load_msgspec()
    table = commands.needing(journal, "deadlines", "deadline", GAMES["dir"], shown=True)
    if pause and resume:
        raise UsageError("--pause and --resume: give one of them")
    fact = timeline.settings_fact(set_, reminders, missed, extensions, skip_weekends, kind,
                                  "--set", zone) \
        if any(v is not None for v in (set_, kind, reminders, missed, extensions,
                                       skip_weekends, zone)) else None
    made = []
    if fact or pause or resume:
        commands.check_ours(journal)
    if fact:
        made.append(timeline.set_deadlines(journal, fact, GAMES["dir"]))
    if pause or resume:
        made.append(timeline.pause_or_resume(journal, pause, GAMES["dir"]))
    typer.echo(_shown(journal, made, format, None if made else table))


def extend(
    journal: Annotated[Path, typer.Argument(help="The game's journal.")],
    what: Annotated[list[str], typer.Argument(
        help="[SIDE] DURATION: whose deadline (default: every side owing orders) and by how "
             "much, e.g. 24h.", metavar="[SIDE] DURATION")],
    from_now: Annotated[bool, typer.Option(
        "--from-now", help="Count the duration from now, not from the deadline: the new "
                           "deadline is DURATION after now, however long ago it passed.")
    ] = False,
    format: Annotated[Fmt, typer.Option(help="text or json.")] = Fmt.text,
) -> None:
    """Give a side (or every side owing orders) more time for its decision now."""
    from ..game import timeline  # start-up: only the deadline commands need it

    commands.check_private(journal)
    commands.load_msgspec()
    commands.needing(journal, "deadlines", "extend", GAMES["dir"], shown=True)
    if len(what) not in (1, 2):
        raise UsageError("extend JOURNAL [SIDE] DURATION: give the duration, and the side "
                         "before it if only one side gets more time")
    side = what[0].casefold() if len(what) == 2 else None
    commands.check_ours(journal)
    made = timeline.extend(journal, "moderator", side, what[-1], GAMES["dir"],
                           from_now=from_now, journal_named=journal)
    typer.echo(_shown(journal, made, format))


def _shown(journal: Path, made: list[dict], fmt: Fmt, table=None) -> str:
    """The deadlines as they stand, with the records just made: worked out from the bytes
    the command's Table holds, whose check (Table.vouched) passed, or after a write from
    the journal read again and checked so (someone who can write the folder may have put
    another copy in its place since)."""
    from ..game import timeline  # start-up: only the deadline commands need it
    from ..game.dues import deadline_view  # start-up: only the deadline commands
    from ..game.missednow import marked_missed  # start-up: only the deadline commands
    from ..render.documents import extension_note, missed_note, side_name

    if table is None:
        table = commands.table_of(journal, GAMES["dir"], shown=True)
    from ..mail.nextpass import as_the_next_pass_rules  # start-up: only the deadline commands

    view = marked_missed(deadline_view(
        timeline.timeline(table.journal, table.raw, GAMES["dir"]),
        records=[r["seq"] for r in made]))
    view = {**view, "due": as_the_next_pass_rules(view, table.path, GAMES["dir"])["due"]}
    if fmt == Fmt.json:
        return commands.dump(view)
    owed = {d["side"]: d["decision"] for d in view["due"]}
    lines = [f"record {r['seq']}: "
             f"{timeline.clock_words(r, asked=owed.get(r['clock'].get('side')), opening=False)}"
             for r in made]
    if view["paused"]:
        lines.append("the game is paused: no orders are taken, no deadline runs")
    elif not view["due"]:
        lines.append("no side owes orders with a deadline now")
    lines += [f"{side_name(d['side'])}: {d['words']}{extension_note(d)}{missed_note(d)}"
              for d in view["due"]]
    return "\n".join(lines)
