"""What a text pass of `tick` prints: every line after the pass's time, each problem on a
line of its own on stdout, and on stderr one line counting them."""

from __future__ import annotations

import re

STAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ ")
COUNT = re.compile(r"referee: (\d+) problems? in \d+ games? \(see above\)\n")
PROBLEM = re.compile(r"(?:([^ ]+): )?problem  (.*)")


def unstamped(printed: str | list[str]) -> list[str]:
    """The lines of a text pass of `tick` (its stdout) or of `watch` (the lines it logged),
    each without the pass's time it begins with."""
    lines = printed.splitlines() if isinstance(printed, str) else printed
    assert all(STAMP.match(line) for line in lines), printed
    return [STAMP.sub("", line, count=1) for line in lines]


def problems(r) -> list[str]:
    """The problems a text pass that failed named on stdout (`GAME: problem`, as its JSON
    lists them), as many as stderr's one line counts."""
    count = COUNT.fullmatch(r.stderr)
    assert count, (r.stdout, r.stderr)
    found = [m for line in unstamped(r.stdout) if (m := PROBLEM.fullmatch(line))]
    assert len(found) == int(count[1]), (r.stdout, r.stderr)
    return [f"{m[1]}: {m[2]}" if m[1] else m[2] for m in found]


def problem_text(r) -> str:
    """The problems of a failed text pass, one a line."""
    return "\n".join(problems(r))


def failure(r) -> str:
    """What a `tick` that failed said was wrong: the problems its text pass named, or its
    one-line error when no text pass ran (JSON, or an error before the pass)."""
    return problem_text(r) if COUNT.fullmatch(r.stderr) else r.stderr
