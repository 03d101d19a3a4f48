"""Patterns of names several layers check, free of pydantic: the quick paths read them."""

# A game's folder name under games/ and the `game` of a journal header.
GAME_NAME_PATTERN = r"^[a-z0-9][a-z0-9_-]{0,39}$"
