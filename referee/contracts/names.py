"""Patterns of names several layers check, free of pydantic: the quick paths read them; and
how a pattern is written outside Python."""

# A game's folder name under games/ and the `game` of a journal header.
GAME_NAME_PATTERN = r"^[a-z0-9][a-z0-9_-]{0,39}\Z"


def portable_pattern(pattern: str) -> str:
    """A contract's pattern as JSON Schema writes it. The classes end a pattern with `\\Z`,
    the end of the text: in Python's re, which msgspec and the validation match with, `$`
    also matches before a last newline, so "liege\\n" would pass for an id. In JSON
    Schema (ECMA-262's patterns) `$` is the end of the text, and `\\Z` is unknown."""
    return pattern.replace("\\Z", "$")
