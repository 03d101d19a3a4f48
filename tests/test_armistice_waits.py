"""An armistice the German proposed waits for the Entente's answer (3.2), whatever else the
game waits on. A line of the Entente's with an unknown verb was answered "it is not the
Entente player's decision … the orders open to the Entente player now start with one of:
accept, refuse, surrender", and his status told only that the game waited on the German:
both now say the proposal is his to answer, as his report does."""

from __future__ import annotations

import json


def _proposed(cli, game):
    r = cli("order", game, "--as", "german", "propose armistice")
    assert r.exit_code == 0, r.output
    return game


def test_an_unknown_verb_is_answered_with_the_armistice_that_waits(cli, game):
    _proposed(cli, game)
    before = game.read_bytes()
    r = cli("order", game, "--as", "entente", "frob x")
    assert r.exit_code != 0 and game.read_bytes() == before
    said = r.stderr.strip()
    assert len(said.splitlines()) == 1, said
    assert "unknown verb 'frob'; the German player proposes an armistice, which waits for " \
           "the Entente player's answer: 'accept armistice' or 'refuse armistice' (rule " \
           "3.2)" in said, said
    assert "not the Entente player's decision" not in said, said
    assert said.endswith("the orders open to the Entente player now start with one of: "
                         "accept, refuse, surrender"), said
    # The German, who proposed it, is told nothing of it: his answer is not awaited.
    r = cli("order", game, "--as", "german", "frob x")
    assert r.exit_code != 0 and "armistice, which waits" not in r.stderr, r.stderr


def test_status_says_the_armistice_waits_for_the_answer(cli, game):
    _proposed(cli, game)
    entente = " ".join(cli("status", game, "--as", "entente").stdout.split())
    assert "The German player proposes an armistice (3.2): 'accept armistice' ends the " \
           "game now; 'refuse armistice' plays on. You may answer it at any time until the end " \
           "of the season in which you are next asked for a decision, when it lapses " \
           "(2.0 VI)." in entente
    assert entente.index("proposes an armistice") < entente.index("Waiting on the German")
    german = " ".join(cli("status", game, "--as", "german").stdout.split())
    assert "Your armistice proposal waits for the Entente player's answer (3.2); 'withdraw " \
           "armistice' takes it back, and it lapses at the end of the season in which the " \
           "Entente player is next asked for a decision (2.0 VI)." in german
    public = " ".join(cli("status", game).stdout.split())
    assert "The German player has proposed an armistice; the Entente player has not " \
           "answered it yet (3.2)." in public
    view = json.loads(cli("status", game, "--as", "entente", "--format", "json").stdout)
    assert view["armistice"] == "german"
    # Refused, it waits no more (3.2: the war goes on).
    assert cli("order", game, "--as", "entente", "refuse armistice").exit_code == 0
    assert "armistice" not in json.loads(cli("status", game, "--as", "entente", "--format",
                                             "json").stdout)
    assert "proposes an armistice" not in cli("status", game, "--as", "entente").stdout


def test_status_names_the_season_a_heard_proposal_lapses_with(cli, game):
    """Once the Entente has been asked a decision after it, the proposal lapses at the end of
    this season (3.2, 2.0 VI), and both sides' status says which season that is."""
    _proposed(cli, game)
    for order in ("pass", "end turn"):          # the Entente's player turn: he is asked
        r = cli("order", game, "--as", "german", order)
        assert r.exit_code == 0, r.output
    entente = " ".join(cli("status", game, "--as", "entente").stdout.split())
    assert "You may answer it at any time until the end of SUMMER 1914, when it lapses " \
           "(2.0 VI)." in entente, entente
    german = " ".join(cli("status", game, "--as", "german").stdout.split())
    assert "and it lapses at the end of SUMMER 1914 (2.0 VI)." in german, german
    view = json.loads(cli("status", game, "--as", "german", "--format", "json").stdout)
    assert view["armistice_heard"] is True


def test_evolve_s_handlers_are_the_topic_modules_own():
    """Whether an open proposal was heard (armistice_heard.py) is asked by evolve after each
    event, not by handlers rewritten at import: each handler is its topic module's own."""
    import sys

    from referee.engine import apply_combat, apply_map, apply_production, apply_turn

    handlers = sys.modules["referee.engine.evolve"].HANDLERS
    for part in (apply_turn, apply_map, apply_combat, apply_production):
        for cls, handler in part.BY_TYPE.items():
            assert handlers[cls.__struct_config__.tag] is handler, cls
