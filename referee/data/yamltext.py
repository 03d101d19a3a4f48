"""A YAML text people wrote, read within limits and refused in the referee's own words.

The YAML library parses; what is wrong is said by the referee, at a line and a column.
Everything a hostile or mistaken file can do that the game data never needs is checked
here before anything is built: a character YAML does not allow, nesting deeper than
MAX_DEPTH, an alias (a few lines become gigabytes), a tag (the library would make objects
of it), a number of more than MAX_DIGITS digits, a second document, a key given twice.
When the library refuses the text on its own, the referee says where and what kind of
fault it is; the library's wording never reaches the user, so a new release of it
changes no message. Only places (line and column) are taken from the library's errors.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

MAX_DEPTH = 32
MAX_DIGITS = 100        # no number in game data needs more; Python refuses over 4300
_NUMBER_LIKE = re.compile(r"[-+]?\.?[0-9]\S*\Z")
# What YAML 1.1 allows in a text (its printable set), as the library checks it.
_NOT_ALLOWED = re.compile("[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd"
                          "\U00010000-\U0010ffff]")
_CORE = "tag:yaml.org,2002:"
_PLAIN_TAGS = frozenset(_CORE + t for t in ("str", "int", "float", "bool", "null", "seq",
                                             "map"))
_BLOCK_SCALAR = re.compile(r"(?:^|[\s:-])[|>][-+0-9]*\Z")
_FLOW_MARK = re.compile(r"""[\[\]{}'"#]""")
_SINGLE_END = re.compile(r"''|'")
_DOUBLE_END = re.compile(r'\\.|"')

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class YamlRefusal(Exception):
    """Why a YAML text cannot be used, at a line and column (both from 1)."""

    def __init__(self, line: int, column: int, words: str):
        super().__init__(words)
        self.line, self.column, self.words = line, column, words

    def at(self, label: str) -> str:
        """The problem line: 'LABEL:LINE:COLUMN: words'."""
        return f"{label}:{self.line}:{self.column}: {self.words}"


def load_text(text: str) -> Any:
    """The value of one YAML document within the limits; YamlRefusal says why not."""
    bad = _NOT_ALLOWED.search(text)
    if bad:
        raise YamlRefusal(*_line_column(text, bad.start()),
                          f"the character U+{ord(bad.group()):04X} is not allowed in a YAML "
                          f"file (a control character, or a byte of another encoding)")
    deep = flow_too_deep(text)
    if deep is not None:
        raise YamlRefusal(*deep, f"nested more than {MAX_DEPTH} levels deep")
    try:
        _screen(text)
        return yaml.load(text, Loader=_UniqueKeyLoader)
    except yaml.YAMLError as exc:
        raise _diagnosis(text, exc) from None
    except (ValueError, OverflowError, RecursionError, TypeError):
        # A date or number the library reads as one but cannot make (2020-13-45).
        raise _bad_value(text) from None


def _line_column(text: str, index: int) -> tuple[int, int]:
    before = text[:index]
    return before.count("\n") + 1, index - before.rfind("\n")


# ---------------------------------------------------------------- before anything is built

class _Place:
    """Where the parser is in the document, as a path like cards.hand.german."""

    def __init__(self) -> None:
        self.frames: list[list] = []       # [is a mapping, at a key, key or index]

    def path(self) -> str:
        parts = [f".{k}" if is_map else f"[{k}]" for is_map, _, k in self.frames]
        return "".join(parts).lstrip(".") or "(top)"

    def node(self, event: Any) -> None:
        """A scalar or alias, or a collection's start (pushed) or end (popped)."""
        if isinstance(event, yaml.CollectionEndEvent):
            self.frames.pop()
            self._after()
            return
        top = self.frames[-1] if self.frames else None
        if top is not None and top[0] and top[1]:     # a mapping's key
            top[2] = event.value if isinstance(event, yaml.ScalarEvent) else "?"
        if isinstance(event, yaml.CollectionStartEvent):
            self.frames.append([isinstance(event, yaml.MappingStartEvent), True, 0])
        else:
            self._after()

    def _after(self) -> None:
        if self.frames:
            top = self.frames[-1]
            if top[0]:
                top[1] = not top[1]
            else:
                top[2] += 1


def _refusal(event: Any, words: str) -> YamlRefusal:
    mark = event.start_mark
    return YamlRefusal(mark.line + 1, mark.column + 1, words)


def _screen(text: str) -> None:
    """Refuse, before it is built, a text with an alias, a tag, nesting too deep, a number
    too long or a second document."""
    place = _Place()
    documents = 0
    for event in yaml.parse(text, Loader=_Loader):
        if isinstance(event, yaml.DocumentStartEvent):
            documents += 1
            if documents > 1:
                raise _refusal(event, "a second YAML document begins here; a file of game "
                                      "data holds one")
        if isinstance(event, yaml.AliasEvent):
            raise _refusal(event, f"uses the alias *{event.anchor}; aliases are not allowed in "
                                  f"game data (write the value out) (at {place.path()})")
        tag = getattr(event, "tag", None)
        if tag is not None and tag not in _PLAIN_TAGS and tag != "!":
            shown = "!!" + tag[len(_CORE):] if tag.startswith(_CORE) else tag
            raise _refusal(event, f"uses the tag {shown}; tags are not allowed in game data "
                                  f"(at {place.path()})")
        if isinstance(event, yaml.CollectionStartEvent) and len(place.frames) >= MAX_DEPTH:
            raise _refusal(event, f"nested more than {MAX_DEPTH} levels deep")
        if isinstance(event, yaml.ScalarEvent) and not event.style and \
                len(event.value) > MAX_DIGITS and _NUMBER_LIKE.match(event.value):
            # Unquoted, it would be read as a number: refuse it here, where it is.
            raise _refusal(event, f"a number of {len(event.value)} digits; no number in game "
                                  f"data needs more than {MAX_DIGITS} (at {place.path()})")
        if isinstance(event, (yaml.NodeEvent, yaml.CollectionEndEvent)):
            place.node(event)


class _UniqueKeyLoader(_Loader):  # type: ignore[misc,valid-type]
    """Safe YAML loader that refuses a key repeated in one mapping."""

    def construct_mapping(self, node, deep=False):
        seen = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if key in seen:
                mark = key_node.start_mark
                raise YamlRefusal(mark.line + 1, mark.column + 1,
                                  f"the key {key!r} is given twice in one mapping")
            seen.add(key)
        return super().construct_mapping(node, deep)


# ---------------------------------------------------------------- what the library refused

_KINDS = (
    ("ScannerError", "a quote, bracket or indentation out of place, or a character that "
                     "cannot begin a value"),
    ("ParserError", "the structure breaks here: an indentation, a ':' or a '-' out of place, "
                    "or a bracket or quote left open"),
    ("ComposerError", "a node the document cannot hold here"),
    ("ConstructorError", "a value that cannot be made here"),
    ("ReaderError", "a character a YAML file cannot hold"),
)


def _diagnosis(text: str, exc: yaml.YAMLError) -> YamlRefusal:
    """The referee's words for a text the library refused: the kind of fault at the place
    the library stopped."""
    line, column = _place(getattr(exc, "problem_mark", None)) or \
        _place(getattr(exc, "context_mark", None)) or _line_column(text, len(text))
    kind = next((words for name, words in _KINDS
                 if any(c.__name__ == name for c in type(exc).__mro__)),
                "text the YAML reader cannot follow")
    if _character_at(text, line, column) == "\t":
        kind = "a tab; YAML indents with spaces"
    begun = _place(getattr(exc, "context_mark", None))
    if begun is not None and begun < (line, column):
        kind += f" (in what begins at line {begun[0]}, column {begun[1]})"
    return YamlRefusal(line, column, f"not valid YAML: {kind}")


def _place(mark: Any) -> tuple[int, int] | None:
    """(line, column) from 1 of a mark the library gives, or None."""
    try:
        return int(mark.line) + 1, int(mark.column) + 1
    except (AttributeError, TypeError, ValueError):
        return None


def _character_at(text: str, line: int, column: int) -> str:
    lines = text.split("\n", line)
    row = lines[line - 1] if 0 < line <= len(lines) else ""
    return row[column - 1] if 0 < column <= len(row) else ""


def flow_too_deep(text: str) -> tuple[int, int] | None:
    """(line, column) of the first bracket that opens a flow collection deeper than
    MAX_DEPTH, found by the referee itself (a library may refuse such a text before it
    reports any node of it), or None. Quotes, comments and block scalars are skipped; a
    bracket inside a plain value in block context opens nothing. One pass, at the speed
    of a regular expression: only brackets, quotes and comment marks are looked at."""
    depth, quote, block_indent = 0, "", -1
    for n, line in enumerate(text.split("\n"), 1):
        indent = len(line) - len(line.lstrip(" "))
        if block_indent >= 0:
            if not line.strip() or indent > block_indent:
                continue
            block_indent = -1
        i, previous = 0, ""          # previous: the last character before i that is no space
        while i <= len(line):
            if quote:
                i = _quote_end(line, i, quote)
                if i < 0:
                    break                          # the quoted text goes on on the next line
                quote, previous = "", line[i - 1]
            found = _FLOW_MARK.search(line, i)
            if found is None:
                break
            j, c = found.start(), found.group()
            skipped = line[i:j].rstrip(" \t")
            previous, i = skipped[-1:] or previous, j + 1
            if c == "#" and (j == 0 or line[j - 1] in " \t"):
                break
            if c in "'\"[{" and _node_begins(line, j, previous, depth):
                if c in "'\"":
                    quote = c
                else:
                    depth += 1
                    if depth > MAX_DEPTH:
                        return n, j + 1
            elif c in "]}" and depth:
                depth -= 1
            else:
                c = "x"                         # a character of a plain value
            previous = c
        if not quote and not depth and _BLOCK_SCALAR.search(line.split(" #")[0].rstrip()):
            block_indent = indent
    return None


def _node_begins(line: str, j: int, previous: str, depth: int) -> bool:
    """Whether a node may begin at line[j]: first on its line, or after an indicator (in a
    flow collection '[', '{', ',' or ':'; in block context ':', '-' or '?' and a space)."""
    if not previous:
        return True
    if depth:
        return previous in "[{,:?"
    return previous in ":-?" and line[j - 1] in " \t"


def _quote_end(line: str, i: int, quote: str) -> int:
    """The index just past the quote that closes a quoted text going on at line[i:], or -1
    when it does not close on this line ('' inside single quotes, \\" inside double)."""
    closing = _SINGLE_END if quote == "'" else _DOUBLE_END
    while True:
        found = closing.search(line, i)
        if found is None:
            return -1
        if found.group() == quote:
            return found.end()
        i = found.end()


def _bad_value(text: str) -> YamlRefusal:
    """The place of the first value the library reads as a date or number but cannot make."""
    loader = _Loader(text)
    try:
        root = loader.get_single_node()
        stack = [root] if root is not None else []
        while stack:
            node = stack.pop()
            if isinstance(node, yaml.ScalarNode):
                try:
                    loader.construct_object(node, deep=True)
                except (ValueError, OverflowError, TypeError, yaml.YAMLError):
                    mark = node.start_mark
                    return YamlRefusal(mark.line + 1, mark.column + 1,
                                       f"{node.value[:40]!r} looks like a date or a number but "
                                       f"is not one that can be read (quote it if it is text)")
            elif isinstance(node, yaml.MappingNode):
                stack.extend(n for pair in reversed(node.value) for n in pair[::-1])
            elif isinstance(node, yaml.SequenceNode):
                stack.extend(reversed(node.value))
    finally:
        loader.dispose()
    return YamlRefusal(1, 1, "a value cannot be read")
