"""The drawing's caches: a few results kept, each for as long as it is in use, the least
recently used given up first, one at a time (a run of close-ups, each of its own areas,
must not clear what every whole map uses)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable, Hashable
from typing import TypeVar
from weakref import WeakKeyDictionary

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


class Weighed:
    """A cache bounded by what its values weigh (bytes, say): the least recently used go
    first while the whole is over `budget`, and a value over `most_each` is made and not
    kept (one that is seldom asked again, and would push out many that are)."""

    def __init__(self, budget: int, most_each: int):
        self.budget, self.most_each, self.held = budget, most_each, 0
        self.items: dict[Hashable, tuple[object, int]] = {}

    def get(self, key: Hashable, make: Callable[[], T], weigh: Callable[[T], int]) -> T:
        """The value kept for key, else make()'s, kept when weigh(it) allows."""
        if key in self.items:
            value, weight = self.items[key] = self.items.pop(key)
            return value            # type: ignore[return-value]
        value = make()
        weight = weigh(value)
        if weight <= self.most_each:
            self.items[key] = (value, weight)
            self.held += weight
            while self.held > self.budget:
                self.held -= self.items.pop(next(iter(self.items)))[1]
        return value

    def clear(self) -> None:
        self.items.clear()
        self.held = 0


# The static layer of each picture drawn in this process (svgmap.draw_base), by the element
# that holds it: the mark of the Base it was drawn from (mapbase.Base.mark), so that the
# painter knows its layer's pixels without writing the layer out to compare it (png._base).
_STATIC: WeakKeyDictionary = WeakKeyDictionary()


def drawn_from(layer: ET.Element, mark: object) -> None:
    """Note that the layer element was drawn, whole and as it stands, from the Base marked."""
    _STATIC[layer] = mark


def source_of(layer: ET.Element) -> object | None:
    """The mark of the Base the layer was drawn from (None: a layer from elsewhere)."""
    return _STATIC.get(layer)
