"""The drawing's caches: a few results kept, each for as long as it is in use, the least
recently used given up first, one at a time (a run of close-ups, each of its own areas,
must not clear what every whole map uses)."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TypeVar

T = TypeVar("T")


def remembered(memo: dict, key: Hashable, make: Callable[[], T], most: int) -> T:
    """memo[key], made by make() the first time it is asked for; at most `most` entries are
    kept, the one used last being the last to go."""
    if key in memo:
        memo[key] = memo.pop(key)
        return memo[key]
    value = make()
    if len(memo) >= most:
        memo.pop(next(iter(memo)))
    memo[key] = value
    return value
