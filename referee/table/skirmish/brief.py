"""A skirmish mail's tests, bounded as a campaign's report mail is (render/reports.py): at
most full_most tests are told in full, the last ones; those before them (many, after the
moderator entered a run of orders by hand, or a long absence) are told in brief, a turn a
line, so that a mail read on a phone stays a screenful or two whatever was played."""

from __future__ import annotations

import shlex

from ...base.errors import one_line
from ...base.plurals import counted


def bounded(tests: list[dict], full_most: int | None, journal: str
            ) -> tuple[list[str], list[dict]]:
    """The lines telling the earlier tests in brief (none when every test is told in full)
    and the tests told in full. full_most: the most told in full (None: every one); journal:
    the journal's file name, as the command the lines name gives it (one line, quoted for a
    shell where it needs it: a name cannot forge a line of the mail)."""
    if full_most is None or len(tests) <= full_most:
        return [], tests
    early, kept = tests[:-full_most], tests[-full_most:]
    turns: dict[int, list[int]] = {}
    for t in early:
        turns.setdefault(t["turn"], []).append(t["record"])
    lines = [f"{counted(len(early), 'test')} before these in brief, a turn a line; the "
             f"{len(kept)} after them follow in full. Every test, with its dice, is in the "
             f"moderator's `referee skirmish report {shlex.quote(one_line(journal))} --turn N`:"]
    for turn, seqs in turns.items():
        span = f"#{seqs[0]}" if len(seqs) == 1 else f"#{seqs[0]} to #{seqs[-1]}"
        lines.append(f"  turn {turn}: {counted(len(seqs), 'test')}, {span}")
    return lines, kept
