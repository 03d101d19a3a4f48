"""The skirmish game through the command line: listed beside the other two games, created
with `new --game skirmish`, its tests taken, refused, reported, verified, and a disputed
fact settled by the moderator."""

from __future__ import annotations

import json

import jsonschema
import pytest
from skirmish_cases import done_until, said_done

from referee.contracts.schemas import schema


def valid(text: str, name: str) -> dict:
    doc = json.loads(text)
    jsonschema.Draft202012Validator(schema(name)).validate(doc)
    return doc


@pytest.fixture
def game(patrol):
    return patrol


def order(cli, j, side, text, *more):
    return said_done(cli, j, side, *more) if text == "done" else \
        cli("skirmish", "order", j, "--as", side, text, *more)


def test_games_list_shows_three_games(cli):
    r = cli("games", "list", "--format", "json")
    doc = valid(r.stdout, "games-list")
    assert [g["id"] for g in doc["games"]] == ["aac", "skirmish", "ttlm"]
    assert all(g["readable"] for g in doc["games"])
    skirmish = doc["games"][1]
    assert skirmish["scenarios"] == ["patrol"]


def test_new_skirmish_game_shows_the_forces(cli, tmp_path, secret_file):
    j = tmp_path / "s.jsonl"
    r = cli("new", j, "--game", "skirmish", "--scenario", "patrol", "--secret-file",
            secret_file, "--format", "json")
    assert r.exit_code == 0, r.stderr
    doc = valid(r.stdout, "new-game")
    valid(json.dumps(doc["status"]), "skirmish-report")
    assert doc["status"]["phase"] == "movement" and len(doc["status"]["figures"]) == 13
    r = cli("new", tmp_path / "t.jsonl", "--game", "skirmish", "--scenario", "1914")
    assert r.exit_code == 2 and "patrol" in r.stderr


def test_new_says_it_waits_on_whom_status_says(cli, tmp_path, secret_file):
    """The patrol opens in movement, the British unit first: the German, with no move of
    his own legal until it has, is not waited on. `new` said it waited on both sides, in
    text and JSON, where status, its JSON and the mails said the British alone."""
    j = tmp_path / "s.jsonl"
    r = cli("new", j, "--game", "skirmish", "--scenario", "patrol", "--secret-file",
            secret_file, "--format", "json")
    assert r.exit_code == 0, r.stderr
    shown = json.loads(cli("status", j, "--format", "json").stdout)["waiting_on"]
    assert shown == ["british"]
    assert json.loads(r.stdout)["status"]["waiting"] == shown
    k = tmp_path / "t.jsonl"
    r = cli("new", k, "--game", "skirmish", "--scenario", "patrol", "--secret-file",
            secret_file)
    assert r.exit_code == 0, r.stderr
    assert "\nWaiting on the British player\n" in r.stdout, r.stdout
    assert "Waiting on the British player:" in cli("status", k).stdout


def _empty_headings(text: str) -> list[str]:
    """The headings of a text report ('Tests:') with nothing under them."""
    lines = text.splitlines()
    return [x for x, after in zip(lines, [*lines[1:], ""])
            if x.endswith(":") and not after.strip()]


def test_the_opening_report_says_no_test_is_made_yet(cli, tmp_path, secret_file):
    """A report before any test (the one `new` prints, and a report since the last record)
    leaves no heading empty: it says no test is made yet and what will be listed there."""
    j = tmp_path / "s.jsonl"
    made = cli("new", j, "--game", "skirmish", "--scenario", "patrol", "--secret-file",
               secret_file)
    assert made.exit_code == 0, made.stderr
    reports = [made.stdout, cli("skirmish", "report", j).stdout, cli("report", j).stdout]
    assert order(cli, j, "british", "move B2 mode=manoeuvre command=yes").exit_code == 0
    reports.append(cli("report", j, "--since", "1").stdout)
    for text in reports:
        assert _empty_headings(text) == [], text
        assert "\nTests: none yet (each will be listed here with its dice and result)\n" \
            in text, text
    played = cli("skirmish", "report", j).stdout
    assert "\nTests:\n#1 British: move B2" in played and "none yet" not in played


def test_a_test_is_journaled_reported_and_verified(cli, game, secret_file):
    r = order(cli, game, "british", "move B2 mode=manoeuvre command=yes", "--format", "json")
    assert r.exit_code == 0, r.stderr
    rec = valid(r.stdout, "skirmish-order-result")["body"]
    (die,) = rec["test"]["dice"]
    assert rec["test"]["result"] == f'B2 may move up to {3 + die["value"]}" (manoeuvre)'
    r = cli("skirmish", "report", game, "--format", "json")
    doc = valid(r.stdout, "skirmish-report")
    assert doc["tests"][0]["dice"] == [die] and doc["waiting"] == ["british", "german"]
    r = cli("verify", game, "--secret", secret_file)
    assert r.exit_code == 0 and "every die is the one the committed secret gives" in r.stdout
    text = cli("skirmish", "report", game).stdout
    assert "#1 British: move B2 mode=manoeuvre command=yes" in text
    assert f"D6={die['value']}" in text


def test_a_wrong_secret_is_named_as_a_campaign_s_verify_names_it(cli, game, tmp_path):
    from referee.store.dice import write_secret

    wrong = tmp_path / "wrong.secret"
    write_secret(wrong, bytes.fromhex("ab" * 32))
    r = cli("verify", game, "--secret", wrong)
    assert (r.exit_code, r.stderr) == (3, f"referee: {wrong}: this secret does not match the "
                                          f"commitment in the journal header (record 0)\n")


def test_a_refusal_is_one_line_with_the_cards_reason_and_the_journal_is_unchanged(cli, game):
    before = game.read_bytes()
    r = order(cli, game, "british", "move B2 mode=rush contact=yes command=yes")
    assert r.exit_code != 0 and r.stdout == ""
    line, = r.stderr.strip().splitlines()
    assert "rush into contact" in line and "Hand-to-Hand Combat" in line
    r = order(cli, game, "german", "move G2 mode=stealthy command=yes")
    assert r.exit_code != 0 and "(rule Movement (alternate units))" in r.stderr
    r = order(cli, game, "british", "fire B2 at=G2 range=10")
    assert r.exit_code != 0 and "no test of the movement phase" in r.stderr
    r = order(cli, game, "british", "move B2 mode=sideways")
    assert r.exit_code != 0 and "mode=" in r.stderr
    assert game.read_bytes() == before


def _to_fire_phase(cli, game):
    done_until(cli, game, "fire")


def test_a_disputed_range_is_settled_by_the_moderator(cli, game):
    _to_fire_phase(cli, game)
    r = order(cli, game, "british", "fire B3 at=G2 range=70 state=moving command=yes",
              "--format", "json")
    fired = json.loads(r.stdout)["record"]
    r = order(cli, game, "british", f"dispute record={fired} fact=range value=90")
    assert r.exit_code != 0 and "opponent" in r.stderr
    r = order(cli, game, "german", f"dispute record={fired} fact=range value=90")
    assert r.exit_code == 0, r.stderr
    r = order(cli, game, "german", f"settle record={fired} fact=range value=90")
    assert r.exit_code != 0 and "only the moderator" in r.stderr
    r = order(cli, game, "moderator", f"settle record={fired} fact=range value=90",
              "--format", "json")
    ruling = json.loads(r.stdout)["body"]["settle"]
    assert ruling["value"] == 90 and ruling["test"]["effects"] == []
    assert ruling["test"]["result"].startswith("void: out of range: a Rifle reaches 80\"")
    doc = valid(cli("skirmish", "report", game, "--format", "json").stdout, "skirmish-report")
    g2 = next(f for f in doc["figures"] if f["id"] == "G2")
    assert g2["state"] == "active" and g2["pins"] == 0
    assert doc["disputes"][0]["ruling"]["value"] == 90
    assert cli("verify", game).exit_code == 0


def test_a_settled_range_keeps_the_tests_own_dice(cli, game):
    _to_fire_phase(cli, game)
    r = order(cli, game, "british", "fire B3 at=G2 range=10 state=halted command=yes",
              "--format", "json")
    rec = json.loads(r.stdout)
    old = rec["body"]["test"]
    order(cli, game, "german", f"dispute record={rec['record']} fact=range value=30")
    r = order(cli, game, "moderator", f"settle record={rec['record']} fact=range value=30",
              "--format", "json")
    new = json.loads(r.stdout)["body"]["settle"]["test"]
    assert new["dice"] == old["dice"]
    assert {m["id"] for m in new["modifiers"]} == {m["id"] for m in old["modifiers"]} | \
        {"far_still"}                                   # stationary over 18": -1


def test_a_dispute_after_the_challenge_window_is_refused(cli, game):
    """The window (6, games/skirmish/game.yaml) is counted in the disputing side's own
    records after the test: the German's sixth record since closes it."""
    order(cli, game, "british", "move B2 mode=stealthy command=yes")
    for _ in range(6):
        for side in ("british", "german"):
            order(cli, game, side, "done")
    r = order(cli, game, "german", "dispute record=1 fact=mode value=rush")
    assert r.exit_code != 0 and "challenge window" in r.stderr
    assert "the German side has made 6 records since it" in r.stderr


def test_the_declaring_side_s_run_of_orders_cannot_close_the_window(cli, game):
    """The British fire their four regular figures and say done, then their raw one and say
    done twice (fire, melee): eight records after the first while the German has made one
    (his done for his own regulars); he may still dispute the first one's cover."""
    done_until(cli, game, "fire", step="regular")                   # the second fire step
    facts = "command=yes state=halted cover=none"
    for f in ("B1", "B2", "B4", "B5"):                              # its regular figures
        r = order(cli, game, "british", f"fire {f} at=G1 range=5 {facts}")
        assert r.exit_code == 0, r.stderr
    assert order(cli, game, "british", "done").exit_code == 0
    assert order(cli, game, "german", "done").exit_code == 0        # the raw figures' step
    assert order(cli, game, "british", "fire B6 at=G2 range=5 " + facts).exit_code == 0
    assert order(cli, game, "british", "done").exit_code == 0       # the fire phase ends
    assert order(cli, game, "british", "done").exit_code == 0       # and the British melee
    first = json.loads(cli("log", game, "--as", "moderator", "--format", "json", "--since",
                           "5").stdout.splitlines()[0])
    assert first["order"].startswith("fire B1")
    r = order(cli, game, "german", "dispute record=5 fact=cover value=soft")
    assert r.exit_code == 0, r.stderr


@pytest.mark.parametrize("command", ["log", "report"])
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_since_past_the_journal_is_a_usage_error_as_in_a_campaign(cli, game, command, fmt):
    """A skirmish's `log` and `report` take --since as a campaign's do: a record the journal
    does not reach is one line naming its records, exit 2 (the JSON error object with
    --format json); `log` from one past the last record prints nothing."""
    assert order(cli, game, "british", "done").exit_code == 0         # records 0 and 1
    for since in ("3", "99", "-1"):
        r = cli(command, game, "--as", "moderator", "--since", since, "--format", fmt)
        assert r.exit_code == 2 and r.stdout == "", (since, r.exit_code, r.stdout, r.stderr)
        line = f"--since {since}: the journal has records 0 to 1"
        assert (json.loads(r.stderr)["error"] if fmt == "json"
                else r.stderr.strip()) == (line if fmt == "json" else f"referee: {line}")
    r = cli("log", game, "--as", "moderator", "--since", "2", "--format", fmt)
    assert (r.exit_code, r.stdout) == (0, "")


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_a_side_named_otherwise_than_the_data_names_it_is_refused_as_order_refuses_it(
        cli, game, fmt):
    """`skirmish order --as British` is refused as `order --as British` is: sides are named
    as the data names them, in lower case; one line naming the sides there are (and the
    moderator, who settles disputes), exit 2, nothing written; the same with --format
    json as its error object."""
    before = game.read_bytes()
    for command in (["skirmish", "order", game, "done"], ["order", game, "done"]):
        for side in ("British", "GERMAN", "Moderator"):
            r = cli(*command, "--as", side, "--format", fmt)
            assert r.exit_code == 2 and r.stdout == "", (command, side, r.stdout, r.stderr)
            line = f"--as {side!r}: choose one of british, german, moderator"
            assert (json.loads(r.stderr)["error"] if fmt == "json"
                    else r.stderr.strip()) == (line if fmt == "json" else f"referee: {line}")
    assert game.read_bytes() == before
    assert order(cli, game, "british", "done").exit_code == 0


def test_manual_dice_are_the_ones_given(cli, tmp_path):
    j = tmp_path / "m.jsonl"
    assert cli("new", j, "--game", "skirmish", "--scenario", "patrol", "--dice",
               "manual").exit_code == 0
    r = order(cli, j, "british", "move B2 mode=rush command=yes", "--dice", "6,6")
    assert r.exit_code == 0 and '15"' in r.stdout
    r = order(cli, j, "german", "move G2 mode=rush command=yes")
    assert r.exit_code != 0 and "dice" in r.stderr


@pytest.mark.parametrize("extra", [["--deadline", "48h"], ["--deadline", "2d", "--missed", "wait"]])
def test_a_skirmish_refuses_what_only_a_campaign_runs_on_and_makes_no_file(cli, tmp_path,
                                                                           extra):
    """Deadlines drive the campaign games' hand-offs; the card has no clock, so a skirmish
    given one refuses it before any file is made."""
    journal = tmp_path / "s.jsonl"
    r = cli("new", journal, "--game", "skirmish", "--scenario", "patrol", *extra)
    assert r.exit_code == 2 and "a skirmish takes no --deadline" in r.stderr
    assert not journal.exists() and not (tmp_path / "s.jsonl.secret").exists()


def test_new_s_help_names_every_game_of_the_data_and_its_scenarios(cli):
    """`new --help` lists the games as the games directory holds them, the skirmish among
    them, each with its scenarios: none is named by the code."""
    from referee.data.paths import default_games_dir

    text = " ".join(cli("new", "--help").stdout.split())
    games = sorted(p.name for p in default_games_dir().iterdir() if (p / "game.yaml").is_file())
    assert "skirmish" in games
    assert f"The game: a folder of the games directory ({', '.join(games)})" in text
    for game in games:
        stems = sorted(s.stem for s in (default_games_dir() / game / "scenarios").glob("*.yaml"))
        assert f"{game}: {', '.join(stems)}" in text, game


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_a_turn_the_skirmish_has_not_reached_is_a_usage_error(cli, game, fmt):
    """`skirmish report --turn` takes a turn the skirmish has had, as `report --since`
    takes a record the journal holds: another (one ahead, 0, negative) is one line naming
    the turns there are, exit 2, never an empty report; the turn it is in is reported,
    tests or none."""
    for turn in ("2", "99", "0", "-1"):
        r = cli("skirmish", "report", game, "--turn", turn, "--format", fmt)
        assert r.exit_code == 2 and r.stdout == "", (turn, r.exit_code, r.stdout, r.stderr)
        line = f"--turn {turn}: the skirmish has had turn 1 only"
        assert (json.loads(r.stderr)["error"] if fmt == "json"
                else r.stderr.strip()) == (line if fmt == "json" else f"referee: {line}")
    r = cli("skirmish", "report", game, "--turn", "1", "--format", fmt)
    assert r.exit_code == 0 and r.stdout, r.stderr


def test_past_the_first_turn_the_report_names_every_turn_there_is(cli, game):
    done_until(cli, game, "movement", turn=2)
    r = cli("skirmish", "report", game, "--turn", "3")
    assert r.exit_code == 2 and r.stdout == "", (r.exit_code, r.stdout, r.stderr)
    assert r.stderr.strip() == "referee: --turn 3: the skirmish has had turns 1 to 2"
    for turn in ("1", "2"):
        assert cli("skirmish", "report", game, "--turn", turn).exit_code == 0


def _shared_shapes() -> dict[str, str]:
    """The shape docs/scripting.md names for each command a skirmish shares with a
    campaign ("`status` a `skirmish-status`, ...")."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "scripting.md").read_text()
    para = text[text.index("On a skirmish's journal"):].split("\n\n")[0]
    return dict(re.findall(r"`(\w+)` an? `([\w-]+)`", para))


def test_the_shared_commands_print_the_shapes_scripting_names_for_a_skirmish(game, cli):
    shapes = _shared_shapes()
    assert set(shapes) == {"status", "show", "report", "explain", "dice", "order", "verify",
                           "autoplay"}, shapes
    # autoplay to the end of turn 0: nothing played, its document printed all the same
    args = {"explain": ["1"], "order": ["--as", "german", "done"],
            "autoplay": ["--seed", "1", "--until", "0"]}
    order(cli, game, "british", "done")
    for command, name in shapes.items():
        r = cli(command, game, *args.get(command, []), "--format", "json")
        assert r.exit_code == 0, (command, r.stderr)
        valid(r.stdout, name)
    r = cli("log", game, "--format", "json")
    assert r.exit_code == 2 and "no redacted export" in r.stderr, r.stderr


def _shot_disputed_and_ruled(cli, game) -> int:
    """The British B3 fires at G2 declaring 70", the German disputes the range (90") and
    the moderator settles it at 90; the record of the shot."""
    _to_fire_phase(cli, game)
    r = order(cli, game, "british", "fire B3 at=G2 range=70 state=moving command=yes",
              "--format", "json")
    fired = json.loads(r.stdout)["record"]
    assert order(cli, game, "german", f"dispute record={fired} fact=range value=90"
                 ).exit_code == 0
    assert order(cli, game, "moderator", f"settle record={fired} fact=range value=90"
                 ).exit_code == 0
    return fired


def test_explain_of_a_disputed_test_points_to_its_dispute_and_ruling_in_words(cli, game):
    """explain of a test the moderator's ruling decided again named neither the dispute nor
    the ruling (null in JSON) while the report showed the test as ruled; explain of those
    records printed raw JSON dicts in the text, called the moderator "Moderator" where
    every mail says "moderator", and gave the claimed range as the string "90" beside the
    declared number 70."""
    fired = _shot_disputed_and_ruled(cli, game)
    disputed, ruled = fired + 1, fired + 2
    shot = valid(cli("explain", game, str(fired), "--format", "json").stdout,
                 "skirmish-explained")
    assert (shot["disputed_in"], shot["ruled_in"]) == ([disputed], [ruled])
    text = cli("explain", game, str(fired)).stdout
    assert f"\ndisputed in #{disputed}; ruled on in #{ruled} (the report shows the test as " \
        "ruled)\n" in text, text
    dispute = valid(cli("explain", game, str(disputed), "--format", "json").stdout,
                    "skirmish-explained")["dispute"]
    assert (dispute["declared"], dispute["claimed"]) == (70, 90)
    text = cli("explain", game, str(disputed)).stdout
    assert f"\ndispute of #{fired} by German: range declared 70, claimed 90\n" in text, text
    text = cli("explain", game, str(ruled)).stdout
    assert f"\n#{ruled} moderator: settle record={fired}" in text, text
    assert f"ruling on #{fired}: range set to 90; its new result: void: out of range: a " \
        "Rifle" in " ".join(text.split()), text
    assert "{" not in text, text


def test_a_settled_test_still_tells_the_facts_its_order_left_to_the_card(cli, game):
    """Once the moderator ruled the range, the report showed the cover the order never
    stated as if declared (cover=none), its "(not stated, taken as ...)" dropped: only the
    facts a ruling changed are shown as ruled."""
    fired = _shot_disputed_and_ruled(cli, game)
    report = cli("skirmish", "report", game).stdout
    line = next(x for x in report.splitlines() if x.startswith(f"#{fired} British:"))
    assert line == f"#{fired} British: fire B3 at=G2 range=90 state=moving command=yes (not " \
        f"stated, taken as cover=none) [settled: range 70 → 90 by the moderator's ruling, " \
        f"#{fired + 2}]", line
