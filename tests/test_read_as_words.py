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


@pytest.mark.parametrize("command", ["status", "show"])
def test_the_situation_names_the_player_turn_once(game, cli, command):
    """In the German player turn of SUMMER 1914 (2.0 II), the situation says so once, as the
    map's third line does: 'German player turn', never 'player turn (German player turn)'
    nor a bare 'player turn' that does not say whose."""
    for reader in ("public", "german", "entente", "moderator"):
        r = cli(command, game, "--as", reader)
        assert r.exit_code == 0, r.stderr
        situation = r.stdout.split("Situation\n---------\n", 1)[1].split("\n\n", 1)[0]
        assert situation.endswith("SUMMER 1914, German player turn") or \
            situation == "SUMMER 1914 (turn 1), German player turn", situation
        assert situation.count("player turn") == 1, situation
