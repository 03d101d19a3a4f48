"""A random 1914 game, every invariant checked after every record (issue: soak).

`make soak` plays hundreds of whole games of both games; `make test` plays one
through its first twelve seasonal turns (1914-1916), within its three minutes:
whole games to their end are in tests/test_replay_identity.py (decided again
record by record) and tests/test_sequence.py (every turn to the last). A
failing game leaves its journal in pytest's temporary folder as a
reproducible case.
"""

from __future__ import annotations

import pytest

import gamecalls as g
from referee.game.autoplay import autoplay


@pytest.mark.parametrize("seed, turns", [pytest.param(3, 1, id="quick"),
                                         pytest.param(3, 6, id="full")])
def test_a_random_1914_game_through_six_turns(tmp_path, seed, turns):
    """Six turns with every invariant checked (`make soak` plays hundreds of whole games);
    its quick form plays the first turn alone, with the same checks."""
    secret = tmp_path / "fixed.secret"
    secret.write_text(f"{seed:064x}\n")
    journal = tmp_path / f"soak-{seed}.jsonl"
    g.create_game(journal, "1914", game_id=f"soak-{seed}", secret_file=secret)
    out = autoplay(journal, seed, until=turns)
    assert out.failure is None, f"{out.failure} (journal kept in {journal})"
    assert out.turn == turns + 1 or out.over, out.turn
    report = g.verify(journal, secret)
    assert any("recomputed from the secret" in line for line in report.lines)


@pytest.mark.parametrize("scenario, first, seed", [
    pytest.param("1914", 1, "4", id="quick"),       # two short turns: 74 records
    pytest.param("1916", 8, "7", id="full")])
def test_autoplay_until_a_turn_and_resume(tmp_path, cli, secret_file, scenario, first, seed):
    journal = tmp_path / "part.jsonl"
    # A fixed game id and secret: the same random game every run.
    assert cli("new", journal, "--scenario", scenario, "--game-id", f"resume-{scenario}",
               "--secret-file", secret_file).exit_code == 0
    r = cli("autoplay", journal, "--seed", seed, "--until", str(first))
    assert r.exit_code == 0, r.stderr
    st = g.open_game(journal).state
    assert st.turn == first + 1 and st.phase != "over"
    r = cli("autoplay", journal, "--seed", seed, "--until", str(first + 1))
    assert r.exit_code == 0 and g.open_game(journal).state.turn == first + 2
    assert cli("verify", journal).exit_code == 0


def test_soak_with_all_options_plays_every_option_both_ways(data):
    """`make soak --options all`: every optional rule of game.yaml on and off, and all at once."""
    from gamecalls import parse_options
    from referee.cli.soak import options_for

    declared = list(data.info.options)
    games = [parse_options(options_for(seed, "all", declared), data) for seed in range(1, 201)]
    for key in declared:
        assert {g[key] for g in games} == {True, False}, key
    assert all(all(g.values()) for g in games[::2])         # odd seeds: every option on
    assert options_for(5, "default", declared) == []
    assert options_for(5, "hidden_templates=true, antwerp_evacuation=false", declared) == [
        "hidden_templates=true", "antwerp_evacuation=false"]
