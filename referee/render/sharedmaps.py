"""The whole maps of one position for its readers, each painted once (svgmap.py): readers
shown the very same drawing share one picture, whose top names them all."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping
from itertools import zip_longest

import msgspec

from ..base.errors import GameDataError
from ..data.gamedata import GameData
from ..engine.armies import hidden_templates
from ..engine.state import State
from .svgmap import Scene, map_png, scene_map, scene_of


class SharedMaps:
    """The whole maps of one position for its readers, each painted once: readers shown the
    very same drawing share one picture, whose top names them all.

    Where the rules hide nothing of one side from the other (no hidden templates, 1.4),
    each reader's map is drawn naming all the readers, and shared only when the drawings
    are then the same, element by element: a picture goes only to readers each of whom
    would have been drawn exactly it. A reader whose scene holds the same as the first
    reader's at every key its drawing read is not drawn again (Reads): the same things
    drawn the same way are the same drawing.
    Otherwise, and under hidden templates, each reader's map is drawn for him alone."""

    def __init__(self, state: State, data: GameData, readers: tuple[str, ...],
                 game_id: str = ""):
        self.state, self.data, self.readers, self.game_id = state, data, readers, game_id
        hoped = len(readers) > 1 and not hidden_templates(state)
        self.shared: bool | None = None if hoped else False     # None: not known yet
        self.tree: ET.Element | None = None                      # the drawing they share
        self.drawn: dict[str, bytes] = {}

    def png(self, reader: str) -> bytes:
        """The reader's map as PNG bytes (GameDataError where the data leaves it no room;
        OSError if it cannot be drawn)."""
        from .png import to_png  # start-up: the renderer is loaded only to draw a PNG

        if reader not in self.drawn:
            if reader in self.readers and self._shared():
                self.drawn.update(dict.fromkeys(self.readers, to_png(self.tree)))
            else:
                self.drawn[reader] = map_png(self.state, self.data, reader, self.game_id)
        return self.drawn[reader]

    def _shared(self) -> bool:
        """Whether every reader is drawn the same, drawn naming them all (the first time):
        a reader whose scene holds what the first reader's drawing read of his is not drawn
        again (Reads)."""
        if self.shared is None:
            first, *others = [scene_of(self.state, self.data, r, self.game_id)
                              for r in self.readers]
            first.view = read = Reads(first.view)
            try:
                tree = scene_map(first, self.readers)
                rest = [scene_map(s, self.readers) for s in others if not read.same_in(s, first)]
            except GameDataError:       # a reader's map has no room: each is drawn alone
                self.shared = False
            else:
                self.shared = all(same_drawing(tree, other) for other in rest)
                self.tree = tree
        return self.shared


class Reads(Mapping):
    """A reader's view, read-only, that notes the keys a drawing reads of it (svgmap.scene_map
    draws from its scene alone) and each one's value as it was when first read (its JSON):
    another reader's scene that holds the same at each of them, and the same EFT box, is
    drawn the very same way, step by step. A key asked for, even one the view has not,
    counts as read. A drawing that looks at the view whole (its keys, items, length, text, an
    equality) reads every key, and so does a value that has no JSON. It is no dict: a library
    that would read a dict without its methods (an encoder in C) refuses it, and a drawing
    cannot change it, so a look this class cannot note fails loudly instead of passing
    unseen."""

    def __init__(self, view: dict):
        self.plain = view               # the view itself, for a look that is not the drawing's
        self.seen: dict = {}
        self.whole = False

    def _note(self, key) -> None:
        if key not in self.seen and not self.whole:
            try:
                self.seen[key] = _as_read(self.plain, key)
            except (TypeError, msgspec.EncodeError):
                self.whole = True

    def __getitem__(self, key):
        self._note(key)
        return self.plain[key]

    def get(self, key, default=None):
        self._note(key)
        return self.plain.get(key, default)

    def __contains__(self, key) -> bool:
        self._note(key)
        return key in self.plain

    def __iter__(self):
        self.whole = True
        return iter(self.plain)

    def __len__(self) -> int:
        self.whole = True
        return len(self.plain)

    def __repr__(self) -> str:
        self.whole = True
        return repr(self.plain)

    def keys(self):
        self.whole = True
        return self.plain.keys()

    def values(self):
        self.whole = True
        return self.plain.values()

    def items(self):
        self.whole = True
        return self.plain.items()

    def same_in(self, other: Scene, mine: Scene) -> bool:
        """Whether other's scene holds what this one's drawing read of it, as it was read
        (not when it read the whole view), with the same EFT box and rings."""
        if self.whole or other.box != mine.box or \
                (other.battles, other.decision, other.scale, other.data) != \
                (mine.battles, mine.decision, mine.scale, mine.data):
            return False
        try:
            return all(_as_read(other.view, k) == v for k, v in self.seen.items())
        except (TypeError, msgspec.EncodeError):
            return False


def _as_read(view: dict, key) -> bytes | None:
    """A view's value at key as JSON bytes (None when the view has no such key)."""
    return msgspec.json.encode(view[key]) if key in view else None


def same_drawing(a: ET.Element, b: ET.Element) -> bool:
    """Whether two finished pictures are the same, element by element: every tag, attribute
    and text, and every element holding as many as the other's (so the same nesting: a text
    takes its colour from the group around it)."""
    return all(x is not None and y is not None and x.tag == y.tag and x.attrib == y.attrib
               and x.text == y.text and x.tail == y.tail and len(x) == len(y)
               for x, y in zip_longest(a.iter(), b.iter()))
