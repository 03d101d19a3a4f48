"""AT ALL COSTS! (games/aac) through the command line: its data checks, a game is created
with `new --game aac` and every command reads the game from the journal header."""

from __future__ import annotations

import json

from referee.data.paths import default_games_dir


def test_aac_data_passes_games_check(cli):
    r = cli("games", "check", default_games_dir() / "aac")
    assert r.exit_code == 0, r.stderr
    assert "OK" in r.stdout and "scenarios 1914" in r.stdout


def test_games_list_and_an_unknown_game(cli, tmp_path):
    r = cli("games", "list")
    assert r.exit_code == 0, r.stderr
    assert "aac: AT ALL COSTS!" in r.stdout and "ttlm: TO THE LAST MAN!" in r.stdout
    j = tmp_path / "x.jsonl"
    r = cli("new", j, "--game", "risk", "--scenario", "1914")
    assert r.exit_code == 2
    assert r.stderr.strip() == ("referee: --game 'risk': no such game; the games are "
                                "aac, skirmish, ttlm")
    assert not j.exists()
    r = cli("new", j, "--game", "aac", "--scenario", "1916")     # a TTLM scenario only
    assert r.exit_code == 2 and "1914" in r.stderr and not j.exists()


def test_games_list_of_a_folder_that_is_not_there_is_a_usage_error(cli, tmp_path):
    """A --games folder typed that does not exist lists no games: it is a usage error (exit
    2, one line), not an empty list a script takes for a folder without games."""
    missing = tmp_path / "nosuchdir"
    r = cli("--games", missing, "games", "list", "--format", "json")
    assert r.exit_code == 2 and r.stdout == ""
    error = json.loads(r.stderr)
    assert error["kind"] == "usage" and "no such directory" in error["error"]
    (tmp_path / "a-file").write_text("")
    r = cli("--games", tmp_path / "a-file", "games", "list")
    assert r.exit_code == 2 and r.stderr.strip().endswith("not a directory")
    r = cli("--games", default_games_dir(), "games", "list")
    assert r.exit_code == 0 and "ttlm: TO THE LAST MAN!" in r.stdout


def test_an_aac_game_through_the_cli(cli, tmp_path, secret_file):
    j = tmp_path / "east.jsonl"
    r = cli("new", j, "--game", "aac", "--scenario", "1914", "--game-id", "east",
            "--secret-file", secret_file)
    assert r.exit_code == 0, r.stderr
    assert "AT ALL COSTS!" in r.stdout
    header = json.loads(j.read_text().splitlines()[0])
    assert header["game"] == "aac" and header["game_name"] == "AT ALL COSTS!"
    r = cli("status", j, "--as", "german", "--format", "json")
    assert r.exit_code == 0, r.stderr
    status = json.loads(r.stdout)
    assert "impulse" in status["prompt"]                    # AAC's word for the player turn
    assert "pass" in status["legal"]
    for side, order in (("german", "pass"), ("german", "move ge-i-03 posen"),
                        ("german", "end turn"), ("entente", "pass")):
        r = cli("order", j, "--as", side, order)
        assert r.exit_code == 0, (order, r.stderr)
    r = cli("show", j, "--as", "german", "--format", "json")
    assert r.exit_code == 0, r.stderr
    shown = json.loads(r.stdout)
    assert shown["areas"]["posen"]["control"] == "german"
    assert shown["areas"]["warsaw"]["control"] == "entente"
    for args in (("report", j, "--as", "entente"), ("verify", j, "--secret", secret_file),
                 ("map", j, "-o", tmp_path / "east.svg")):
        r = cli(*args)
        assert r.exit_code == 0, (args, r.stderr)
    assert "Warsaw" in (tmp_path / "east.svg").read_text(encoding="utf-8")
    r = cli("area", j, "lodz")                   # names are matched without their accents
    assert r.exit_code == 0 and "Łódź" in r.stdout and "Kielce" in r.stdout


def _offensive_played(cli, tmp_path, secret_file):
    """An AAC 1914 game whose German has played an Offensive: his movement is asked."""
    j = tmp_path / "east.jsonl"
    assert cli("new", j, "--game", "aac", "--scenario", "1914", "--game-id", "east",
               "--secret-file", secret_file).exit_code == 0
    assert cli("order", j, "--as", "german", "play offensive").exit_code == 0
    return j


def test_a_sea_move_in_aac_is_refused_in_plain_words(cli, tmp_path, secret_file):
    """4.6: AAC's data has no sea movement (no UK, no ENGLAND): a sea order is refused by
    saying so, not by naming the nations that may use it (none)."""
    j = _offensive_played(cli, tmp_path, secret_file)
    r = cli("order", j, "--as", "german", "sea ge-8 danzig", "--format", "json")
    assert r.exit_code == 1, r.output
    rejected = json.loads(r.stdout)["rejected"]
    assert rejected["rule"] == "4.6"
    assert rejected["error"].endswith(": AT ALL COSTS! has no sea movement (rule 4.6)"), \
        rejected


def test_views_of_aac_leave_out_the_box_it_has_not(cli, tmp_path, secret_file):
    """2.0 V.4: the Eastern Front Transit box is TTLM's (map.yaml boxes); AAC has none, so its
    views and the board of its reports do not speak of one (`eft_box` is null), while a TTLM
    game still shows it."""
    east, west = tmp_path / "east.jsonl", tmp_path / "west.jsonl"
    for j, game in ((east, "aac"), (west, "ttlm")):
        assert cli("new", j, "--game", game, "--scenario", "1914", "--game-id", j.stem,
                   "--secret-file", secret_file).exit_code == 0
    for args in (("show", east), ("show", east, "--as", "german"),
                 ("report", east, "--as", "entente", "--since", "0")):
        r = cli(*args)
        assert r.exit_code == 0, r.stderr
        assert "Eastern Front Transit" not in r.stdout, args
        assert "Eliminated armies: none" in r.stdout, args      # show's and the board's
    assert json.loads(cli("show", east, "--format", "json").stdout)["eft_box"] is None
    report = cli("report", east, "--since", "0", "--format", "json").stdout
    assert json.loads(report)["board"]["eft_box"] is None
    assert "Eastern Front Transit box: empty" in cli("report", west, "--since", "0").stdout
    assert "Eastern Front Transit box: empty" in cli("show", west).stdout
    assert json.loads(cli("show", west, "--format", "json").stdout)["eft_box"] == []


def test_a_unit_type_named_in_two_words_reads_as_its_type():
    """The board and the force pools name a type as words ('imperial guard 3'): a player
    who places or builds it so is read as meaning it, as with its id ('imperial_guard')."""
    from referee.data.catalog import game_data
    from referee.engine.reading import parse_order

    aac, ttlm = game_data("aac"), game_data("ttlm")
    for text in ("place ru imperial guard warsaw", "place ru Imperial Guard Warsaw",
                 "place ru imperial_guard warsaw"):
        assert parse_order(text, aac).unit == "ru:imperial_guard", text
    assert parse_order("build ge siege gun metz", ttlm).unit == "ge:siege_gun"
    assert parse_order("place ru infantry warsaw", aac).unit == "ru:infantry"


def test_moving_the_other_sides_unit_is_refused_naming_its_player(cli, tmp_path, secret_file):
    """2.0 II: the German who orders a Russian unit, or a unit off a Russian army, is told
    whose it is as the mails name a side ('the Entente player'), not by the side's id in a
    sentence ('an entente unit') nor with the wrong article ('a Entente army')."""
    j = _offensive_played(cli, tmp_path, secret_file)
    r = cli("order", j, "--as", "german", "move ru-2 allenstein", "--format", "json")
    assert r.exit_code == 1, r.output
    rejected = json.loads(r.stdout)["rejected"]
    assert rejected["rule"] == "2.0 II"
    assert rejected["error"].endswith(": ru-2 is a unit of the Entente player; a player "
                                      "moves only his own (rule 2.0 II)"), rejected
    r = cli("order", j, "--as", "german", "move ru-2:infantry allenstein", "--format", "json")
    assert json.loads(r.stdout)["rejected"]["error"].endswith(
        ": ru-2:infantry would leave ru-2, an army of the Entente player; a player moves only "
        "his own (rule 2.0 II)"), r.stdout


def test_the_entente_s_production_is_told_without_the_german_upgrade(cli, tmp_path,
                                                                      secret_file):
    """7.5: only the German upgrades infantry to Stosstruppen, from the date the game's data
    gives. Whoever reads the Entente's production decision (the German waiting on it, the
    Entente explaining his own plan) is told it without 'upgrade', as the Entente's own
    prompt tells it; the German's words have it once his upgrades are open."""
    import gamecalls as g
    from referee.engine import pending_prompt

    j = tmp_path / "east.jsonl"
    assert cli("new", j, "--game", "aac", "--scenario", "1914", "--game-id", "east",
               "--secret-file", secret_file).exit_code == 0
    for side, order in (("german", "pass"), ("german", "end turn"), ("entente", "pass"),
                        ("entente", "end turn"), ("german", "done")):
        r = cli("order", j, "--as", side, order)
        assert r.exit_code == 0, (order, r.stderr)
    for reader in ("german", "public", "moderator", "entente"):
        words = " ".join(cli("status", j, "--as", reader).stdout.split())
        assert "production: " in words and "upgrade" not in words, (reader, words)
    played = g.open_game(j)
    assert cli("order", j, "--as", "entente", "done").exit_code == 0
    last = json.loads(j.read_text().splitlines()[-1])["seq"]
    for reader in ("entente", "german", "public"):
        words = " ".join(cli("explain", j, str(last), "--as", reader).stdout.split())
        assert "entrench), then 'done'" in words, (reader, words)
    # Turn 13 (the data's date of the German upgrades), both sides asked: the German may.
    state = played.state
    state.turn = 13
    state.production = {**state.production, "done": []}
    assert "entrench, upgrade), then 'done'" in pending_prompt(state, played.data)
    state.production = {**state.production, "done": ["german"]}
    assert "entrench), then 'done'" in pending_prompt(state, played.data)


def test_the_areas_a_mail_lists_are_named_as_the_board_names_them(cli, tmp_path,
                                                                   secret_file):
    """A production mail lists the areas its long lines share once, after them: each by the
    name the board and the map show ('Upper Hungary', games/aac/map.yaml), as the lines
    themselves name it, never by one word of it ('Hungary', its alias)."""
    import gamecalls as g
    from referee.mail.ordersopen import orders_open_text

    j = tmp_path / "east.jsonl"
    assert cli("new", j, "--game", "aac", "--scenario", "1914", "--game-id", "east",
               "--secret-file", secret_file).exit_code == 0
    for side, order in (("german", "pass"), ("german", "end turn"), ("entente", "pass"),
                        ("entente", "end turn")):
        assert cli("order", j, "--as", side, order).exit_code == 0, order
    played = g.open_game(j)
    text = " ".join(orders_open_text(played.state, played.data, "german").split())
    listed = text.partition(" areas: ")[2].partition(".")[0].split(", ")
    assert "Upper Hungary" in listed and "Hungary" not in listed, listed
    board = " ".join(cli("show", j).stdout.split())
    assert "Upper Hungary" in board


def test_the_dice_of_an_export_are_read_as_the_side_it_was_made_for(cli, tmp_path,
                                                                    secret_file):
    """A redacted export (`log --as entente --format json`) is the Entente's reading of the
    game: `dice` run on it names him as its reader, not the public; a reader who may see
    what it holds only as digests is refused in one line. The game's own journal, and a
    public export, are read as asked."""
    j = tmp_path / "east.jsonl"
    assert cli("new", j, "--game", "aac", "--scenario", "1914", "--game-id", "east",
               "--secret-file", secret_file).exit_code == 0
    exports = {}
    for reader in ("entente", "public"):
        exports[reader] = tmp_path / f"{reader}.jsonl"
        exports[reader].write_text(cli("log", j, "--as", reader, "--format", "json").stdout)
        exports[reader].chmod(0o600)
    for args in ((), ("--as", "entente")):
        r = cli("dice", exports["entente"], *args)
        assert r.exit_code == 0 and r.stdout.splitlines()[0].endswith(", for entente"), r.output
        r = cli("dice", exports["entente"], *args, "--format", "json")
        assert json.loads(r.stdout)["reader"] == "entente", r.output
    for reader in ("german", "moderator"):
        r = cli("dice", exports["entente"], "--as", reader)
        assert r.exit_code == 2 and len(r.stderr.strip().splitlines()) == 1, r.output
        assert "export made for entente" in r.stderr, r.stderr
    assert cli("dice", exports["public"]).stdout.splitlines()[0].endswith(", for public")
    assert cli("dice", j, "--as", "german").stdout.splitlines()[0].endswith(", for german")
