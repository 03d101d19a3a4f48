"""A problem line of a game data or scenario file that knows where in the file it is, so
that it can name the line and column an editor jumps to (FILE:LINE:COLUMN: what (at where))
once the file's text is at hand (marks.py finds them).

A place is a path of steps: a key of a mapping, the index of a list item (an Nth shows
itself as the data names the item: `[3](liege)`, `turns[5]` by its turn number), or, in a
list, an item named by its id, its key or its value (`areas.pfalz`). Without the file's
text (data read from a snapshot, a position in a journal), a line stays as it reads.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Protocol


class Nth(int):
    """The index of a list item, shown as the data names the item: `[3](liege)`, `[5]`."""

    shown: str

    def __new__(cls, index: int, shown: str) -> Nth:
        step = super().__new__(cls, index)
        step.shown = shown
        return step


class Item(str):
    """A list item named by its value, or its id or key: never a key of a mapping, so that a
    value pointed at in a field ends on the field's value."""


def named(index: int, name: object) -> Nth:
    """The item at index, shown with its id: `[3](liege)` (an id that is not printable text
    shown escaped, a long one cut: one problem, one line)."""
    text = str(name)
    text = text if text.isprintable() else repr(text)[1:-1]
    return Nth(index, f"[{index}]({text[:40]}{'…' if len(text) > 40 else ''})")


def turn_at(events: At, index: int, turn: int) -> At:
    """A turn of events.yaml, shown by its number: turns[5]."""
    return events.at("turns", Nth(index, f"[{turn}]"))


def shown(path: tuple) -> str:
    """A path as a problem line names it: areas.pfalz.neighbours, units[3](ge-1).type."""
    parts: list[str] = []
    for step in path:
        if isinstance(step, Nth):
            parts.append(step.shown)
        elif isinstance(step, int):
            parts.append(f"[{step}]")
        else:
            parts.append(("." if parts else "") + str(step))
    return "".join(parts)


class Places(Protocol):
    """What finds the line and column of a path in a file's text (marks.Marks)."""

    def place(self, path: tuple, at_key: bool = False) -> tuple[int, int] | None: ...


class Problem(str):
    """A problem line of one file that can be placed: what it says, where (as shown), and the
    path of the node it points at (at its key when at_key)."""

    label: str | None
    message: str
    where: str
    path: tuple
    at_key: bool

    def place(self, marks: Places) -> tuple[int, int] | None:
        """(line, column) of what the problem points at in the file, or None."""
        return marks.place(self.path, self.at_key)

    def placed(self, at: tuple[int, int] | None) -> str:
        """The line as 'FILE:LINE:COLUMN: what (at where)', or as it is without a place."""
        if at is None:
            return str(self)
        where = f" (at {self.where})" if self.where else ""
        return f"{self.label}:{at[0]}:{at[1]}: {self.message}{where}"


class DataProblem(Problem):
    """A problem one check finds in a file, 'FILE: where: what' until it is placed."""

    def __new__(cls, label: str | None, path: tuple, message: str, value: Any = None,
                at_key: bool = False) -> DataProblem:
        where = shown(path)
        text = f"{where}: {message}" if where else message
        line = super().__new__(cls, f"{label}: {text}" if label else text)
        line.label, line.message, line.where, line.at_key = label, message, where, at_key
        # A name in a list is pointed at as that item (an Nth: the item at its index);
        # where the path ends on the value itself, the extra step leads nowhere and the
        # value is the node pointed at.
        line.path = path if value is None else \
            (*path, value if isinstance(value, Nth) else Item(value))
        line._value = value
        return line

    def labelled(self, label: str) -> DataProblem:
        """The same problem, of the file named label (a scenario's checks name no file)."""
        path = self.path if self._value is None else self.path[:-1]
        return DataProblem(label, path, self.message, self._value, self.at_key)


class At(NamedTuple):
    """A place in a data file, where the checks find problems: the file (None in a scenario,
    labelled later) and the path to the place."""

    label: str | None
    path: tuple = ()

    def at(self, *steps: Any) -> At:
        """A place further in: keys, indexes (Nth) or ids of list items."""
        return At(self.label, (*self.path, *steps))

    def says(self, message: str, value: Any = None) -> DataProblem:
        """A problem here; value, a name or number written in the list or field here (or an
        Nth, the list's item at its index), is what it points at."""
        return DataProblem(self.label, self.path, message, value)

    def key(self, message: str) -> DataProblem:
        """A problem of the key this place ends on (a name used as a key), pointed at the key."""
        return DataProblem(self.label, self.path, message, at_key=True)
