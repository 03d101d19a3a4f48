"""What `watch` has told of the problems that stand from one pass to the next: a problem
(of the folder, or of a game: a missed deadline under `--missed wait`, orders held for the
moderator's dice, a side with no address...) is printed at the pass it first appears or
changes, not again at each pass while it stands as it was, and again once a day while it
still stands, so that the service's log of any one day names it. `tick`, one pass, prints
every problem every time."""

from __future__ import annotations

from datetime import datetime, timedelta

AGAIN = timedelta(days=1)       # a problem standing as it was is printed again after this


class StandingProblems:
    """The problems printed, each with when it was last printed (the commands' clock)."""

    def __init__(self) -> None:
        self.printed: dict[str, datetime] = {}

    def standing(self, now: datetime) -> set[str]:
        """The problems quiet should they stand as they were (printed less than AGAIN ago):
        what a pass tells as it goes leaves them out, as quiet will."""
        return {p for p, when in self.printed.items() if timedelta(0) <= now - when < AGAIN}

    def quiet(self, problems: list[str], now: datetime) -> set[str]:
        """Which of this pass's problems are not printed again (printed less than AGAIN
        ago, standing since as they were); the others are noted as printed now, and a
        problem gone is forgotten (should it come back, it is printed again)."""
        kept: dict[str, datetime] = {}
        quiet: set[str] = set()
        for problem in problems:
            when = self.printed.get(problem)
            if when is not None and timedelta(0) <= now - when < AGAIN:
                quiet.add(problem)
                kept[problem] = when
            else:
                kept[problem] = now
        self.printed = kept
        return quiet
