"""Victory (3.0-3.3): VP modifications, decisive victory, armistice and surrender."""

from __future__ import annotations

import pytest

import gamecalls as g
from casebook import new_game, position
from referee.engine.victory import victory_level, vp_breakdown
from referee.game.timeline import GameOver

BELGIUM = ["ostend", "ypres", "ghent", "antwerp", "brussels", "liege", "namur", "mons",
           "ardennes"]


def _at_22(tmp_path, name="v22"):
    """Belgium, Lille, Calais, Dunkirk and Briey German: 12 + 6 + 4 = 22 VP (Substantial)."""
    control = {a: "german" for a in BELGIUM + ["lille", "calais", "dunkirk", "briey"]}
    sc = position("1914", player="german", hands={"german": ["off-01"], "entente": ["off-03"]},
                  control=control, remove_units=["be-1", "be-i-01"],
                  add_units=["ge-i-05 ge infantry calais"],
                  forts={"fort-antwerp": "out", "fort-liege": "out", "fort-namur": "out",
                         "fort-dunkirk": "out"})
    return new_game(tmp_path, sc, name=name)


def test_a_decisive_victory_ends_the_game_at_once_mid_turn(tmp_path):
    j = _at_22(tmp_path)
    st = g.open_game(j).state
    vp, level = victory_level(st, g.game_data())
    assert (vp, level.id) == (22, "substantial_german")
    r = g.submit(j, "german", ["play offensive", "move ge-i-05 amiens", "end movement"])
    assert r.rejected is not None and r.rejected[1] == "end movement"     # game already over
    assert r.rejected[2].rule == "3.2"              # refused by the rule that ended it
    ended = r.applied[-1].record["events"][-1]
    assert ended["type"] == "GameEnded" and ended["level"] == "decisive_german"
    assert ended["vp"] == 23 and "(3.2)" in ended["reason"]
    st = g.open_game(j).state
    assert st.phase == "over" and st.pending is None and st.turn == 1


def test_surrender_while_winning_is_rejected_and_otherwise_counts_one_level_worse(tmp_path):
    j = _at_22(tmp_path)
    before = j.read_bytes()
    r = g.submit(j, "german", ["surrender"])
    assert r.rejected is not None and r.rejected[2].rule == "3.3"
    assert j.read_bytes() == before
    r = g.submit(j, "entente", ["surrender"])          # not winning: allowed, any time
    ended = r.applied[-1].record["events"][-1]
    assert ended["type"] == "GameEnded"
    assert ended["level"] == "decisive_german"         # Substantial German, one level worse
    assert g.open_game(j).state.phase == "over"
    with pytest.raises(GameOver) as refused:           # cited by what ended it
        g.submit(j, "german", ["pass"])
    assert refused.value.rule == "3.3"


def test_a_german_resigning_in_a_stalemate_gives_a_marginal_entente_victory(tmp_path, game):
    """3.3's own example."""
    r = g.submit(game, "german", ["resign"])
    assert r.applied[-1].record["events"][-1]["level"] == "marginal_entente"


def test_armistice_refused_then_accepted(tmp_path, game):
    assert g.submit(game, "german", ["propose armistice"]).rejected is None
    assert g.submit(game, "german", ["accept armistice"]).rejected[2].rule == "3.2"
    assert g.submit(game, "entente", ["refuse armistice"]).rejected is None
    st = g.open_game(game).state
    assert st.phase == "player_turn" and st.armistice is None
    assert g.submit(game, "german", ["pass", "end turn"]).rejected is None  # play goes on
    assert g.submit(game, "entente", ["propose armistice"]).rejected is None
    r = g.submit(game, "german", ["accept armistice"])
    ended = r.applied[-1].record["events"][-1]
    assert ended["type"] == "GameEnded" and ended["level"] == "stalemate"
    assert "armistice" in ended["reason"]
    with pytest.raises(GameOver) as refused:           # cited by what ended it
        g.submit(game, "entente", ["pass"])
    assert refused.value.rule == "3.2"


def test_each_vp_modification(tmp_path, data):
    """3.1: blockade by year, eliminated armies, unanswered crises, EFT box, the Paris Gun."""
    sc = position("1918", turn=17, player="german",
                  hands={"german": ["off-01"], "entente": ["off-03"]},
                  control={"compiegne": "german"},
                  remove_units=["fr-10", "ge-1", "ge-7", "ge-i-01"],   # room in the counter mix
                  add_units=["ge-i-07 ge infantry compiegne", "ge-p-01 ge paris_gun compiegne"],
                  eliminated_armies=["fr-10", "ge-9"])
    sc["eft_box"] = [{"type": "infantry", "count": 5, "nation": "ge"}]
    j = new_game(tmp_path, sc)
    st = g.open_game(j).state
    st.vp_adjust = {"entente_crisis_unpaid": 2, "german_crisis_unpaid": 1}
    lines = dict(vp_breakdown(st, data))
    assert lines["German-Friendly areas (3.1)"] == 19           # Compiègne is worth nothing
    assert lines["1 eliminated army of the Entente player (3.1)"] == 1
    assert lines["1 eliminated army of the German player (3.1)"] == -1
    assert lines["Entente Military Crisis! not answered (3.1)"] == 2
    assert lines["German Military Crisis! not answered (3.1)"] == -1
    assert lines["Total Blockade 1918 (3.1)"] == -3
    assert lines["the Paris Gun in or next to Paris (8.3.6)"] == 1
    assert "units in the EFT box, 1 per 5 BP (3.1)" not in lines    # 1914-1917 only
    st.turn = 15                                                    # WINTER 1917-18: year 1917
    lines = dict(vp_breakdown(st, data))
    assert lines["units in the EFT box, 1 per 5 BP (3.1)"] == 1
    assert lines["Total Blockade 1917 (3.1)"] == -2




def test_a_report_after_a_surrender_gives_the_result_beside_the_vp_level(game, cli):
    """3.3's own example: the German resigning in a Stalemate gives a Marginal Entente
    Victory. The report's VP stay a Stalemate (3.1), so the result is told beside them, and
    the closing section begins as a sentence; an armistice ends at the VP's own level (3.2),
    with no second level told."""
    assert g.submit(game, "german", ["resign"]).rejected is None
    said = cli("report", game, "--as", "entente").stdout
    flat = " ".join(said.split())
    assert "VP 12: Stalemate" in flat, said
    assert "Result: Marginal Entente Victory, not the level of the VP, as the German player " \
           "surrenders" in flat, said
    assert "The game is over ---------------- The German player surrenders" in flat, said
    assert "Result: Marginal Entente Victory" in " ".join(cli("show", game).stdout.split())


def test_a_game_ended_at_its_vp_level_tells_no_second_level(game, cli):
    assert g.submit(game, "german", ["propose armistice"]).rejected is None
    assert g.submit(game, "entente", ["accept armistice"]).rejected is None
    said = cli("report", game, "--as", "german").stdout
    assert "Stalemate" in said and "Result:" not in said, said


def test_the_game_over_line_of_a_surrender_gives_the_vp_level_and_the_result_apart(game, cli):
    """3.3: the German resigning at 12 VP (a Stalemate) makes a Marginal Entente Victory. The
    event line must not tie 12 VP to that level, which the Victory Chart gives 8 to 10."""
    assert g.submit(game, "german", ["resign"]).rejected is None
    for said in (cli("log", game).stdout, cli("report", game, "--as", "entente").stdout):
        flat = " ".join(said.split())
        assert "VP 12: Marginal Entente Victory" not in flat, said
        assert "Modified German VP 12 (Stalemate); result: Marginal Entente Victory" in flat, \
            said


def test_a_game_over_report_says_what_now_and_each_step_it_names_works(game, cli, tmp_path):
    """The end (3.2): each reader's report says what comes now, the dice secret published by
    the moderator (`reveal`), and how he checks the game (moderator.md, player.md): a player
    with his side's export and `verify --export`, the public with the public export. Each
    command it names is run here as it says."""
    assert g.submit(game, "german", ["propose armistice"]).rejected is None
    assert g.submit(game, "entente", ["accept armistice"]).rejected is None

    def told(reader):
        said = cli("report", game, "--as", reader, "--keep-place").stdout
        return " ".join(said[said.index("The game is over"):].split())

    german, public, moderator = told("german"), told("public"), told("moderator")
    assert "the moderator publishes the dice secret (referee reveal)" in german, german
    assert "the game's log as the German player may see it (log --as german --format json)" \
        in german, german
    assert "referee verify german.jsonl --export german" in german, german
    assert "--as entente" not in german and "JOURNAL" not in german, german
    assert "(log --as public --format json)" in public, public
    assert f"referee reveal {game.name}. Give each player his side's export" in moderator, \
        moderator
    assert cli("reveal", game).exit_code == 0
    assert "the moderator has published the dice secret" in told("entente")
    lines = cli("report", game, "--as", "german", "--keep-place").stdout.splitlines()
    assert "be checked. Ask him for your side's export, the game's log as the" in lines, \
        lines                                        # "the" stays where it fits
    after = told("moderator")
    assert "The dice secret is published. Give each" in after and "reveal" not in after, after
    for side in ("german", "public"):
        export = tmp_path / f"{side}.jsonl"
        export.write_text(cli("log", game, "--as", side, "--format", "json").stdout)
        export.chmod(0o600)
        done = cli("verify", export, "--export", side)
        assert done.exit_code == 0 and "every die recomputed" in done.stdout, done.stdout


def test_a_decisive_victory_is_told_once_in_the_game_over_section(tmp_path, cli):
    """The reason a decisive victory records names its level ('Decisive German Victory
    reached (3.2)'): the game-over section says it once, not followed by the level again."""
    j = _at_22(tmp_path)
    g.submit(j, "german", ["play offensive", "move ge-i-05 amiens", "end movement"])
    said = cli("report", j, "--as", "entente", "--keep-place").stdout
    over = " ".join(said[said.index("The game is over"):].split())
    assert over.startswith("The game is over ---------------- Decisive German Victory "
                           "reached (3.2). The German player wins. What now:"), over


@pytest.mark.parametrize("turn", [22, 23])
def test_every_reader_is_told_when_the_turn_is_the_last(tmp_path, cli, turn):
    """2.0 VI: WINTER 1919-20, the 23rd turn, is the last; the game ends with it, at the level
    of victory its VP give then (3.1). Every reader's report says so in that turn, and only
    then: a player planning his last production must know that nothing comes after it."""
    j = new_game(tmp_path, position("1918", turn=turn, hands={"german": ["off-01"],
                                                            "entente": ["off-03"]}),
                 name=f"t{turn}")
    last = "WINTER 1919-20 is the last turn: the game ends with it, at the level of victory " \
        "its VP give then (2.0 VI, 3.1)."
    for reader in ("german", "entente", "public"):
        said = " ".join(cli("report", j, "--as", reader).stdout.split())
        assert (last in said) == (turn == 23), (reader, said[:400])
