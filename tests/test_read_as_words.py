"""What `status`, `show` and `report` say, read by a player who has never seen the program:
the reader a title names, the player turn, a fort, the Build Points and a deadline, each in
words, as the rules and the game's data name them."""

from __future__ import annotations

import pytest

TITLES = [("public", "for the public"), ("moderator", "for the moderator"),
          ("german", "for the German player"), ("entente", "for the Entente player")]


@pytest.mark.parametrize("reader,words", TITLES)
@pytest.mark.parametrize("command", ["status", "show", "report"])
def test_a_title_names_its_reader_in_words(game, cli, command, reader, words):
    """Each output is made for one reader (the public, the moderator or a side); its title
    names him as a person reads it, a side by its name, never by its id ('for german')."""
    for fmt in ("text", "markdown", "bbcode"):
        r = cli(command, game, "--as", reader, "--format", fmt)
        assert r.exit_code == 0, r.stderr
        first = r.stdout.strip().splitlines()[0]
        assert words in " ".join(r.stdout.split()[:20]), (fmt, first)
        assert f"for {reader}:" not in first and f"for {reader}," not in first, (fmt, first)
