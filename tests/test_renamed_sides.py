"""A copy of TO THE LAST MAN! whose two sides are renamed in every file plays, and no output
of `status`, `show` or `report` still says German or Entente.

The copy renames every mention in its YAML, ids and words alike: the side `german` becomes
`central` (its words "German" "Central", the country Germany "Centralia"), `entente` becomes
`allies` (its words "Entente" "Allied"). Whatever the commands print about sides, their
areas, cards, victory levels or boxes then comes from that data or from nowhere.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from datacopy import copy_game

from casebook import SECRET, yaml_text

# Old word (lower case) -> new word, matched whatever its case; the longer word first, so that
# "Germany" is not read as "German" + "y".
RENAMED = {"germany": "centralia", "german": "central", "entente": "allied"}
# The side ids become these (the adjective "allied" above names the side in text).
SIDE_IDS = {"german": "central", "entente": "allies"}
OLD = re.compile(r"german|entente", re.IGNORECASE)
FORMATS = ("text", "markdown", "bbcode", "chat", "json")
READERS = ("central", "allies", "public", "moderator")
OPENING = ["play offensive", "move ge-1 liege", "move ge-4:cavalry ardennes", "end movement"]


def _cased(old: str, new: str) -> str:
    """new written in old's case: 'German' -> 'Central', 'GERMAN' -> 'CENTRAL'."""
    if old.isupper():
        return new.upper()
    return new.capitalize() if old[:1].isupper() else new


def renamed(text: str) -> str:
    """YAML text with every mention of either side renamed: ids, then words."""
    text = re.sub(r"\b(german|entente)(?=\b|_)", lambda m: SIDE_IDS[m[1]], text)
    return re.sub("|".join(RENAMED), lambda m: _cased(m[0], RENAMED[m[0].lower()]), text,
                  flags=re.IGNORECASE)


def rename_sides(root: Path) -> None:
    """Every mention of either side in a game folder's YAML files, renamed."""
    for path in sorted(root.rglob("*.yaml")):
        path.write_text(renamed(path.read_text(encoding="utf-8")), encoding="utf-8")
    left = [p for p in root.rglob("*.yaml") if OLD.search(p.read_text(encoding="utf-8"))]
    assert not left, left


# The copy's 1914 set-up puts units of several kinds into the EFT box, so that the first
# production phase rolls for its losses and its owner must choose which unit goes (2.0 V.4).
EFT_BOX = """eft_box:
  - {type: infantry, count: 3, nation: ge}
  - {type: biplane, count: 4, nation: ge}
  - {type: tank, count: 1, nation: ge}
  - {type: stosstruppen, count: 5, nation: ge}
"""
# What the scripted players answer after the opening: the first of these open to them.
ANSWERS = ("pass", "end turn", "end movement", "done", "lose", "ersatz", "discard")


def _game_at_eft_losses(tmp: Path):
    """(games folder, journal, cli) of a 1914 game on the renamed copy, played by the CLI:
    the demo's opening for the first side, then each decision answered from the legal
    orders, up to the production phase's EFT box losses (2.0 V.4), whose choice is pending."""
    from conftest import Cli

    games = copy_game(tmp)
    rename_sides(games / "ttlm")
    scenario = games / "ttlm" / "scenarios" / "1914.yaml"
    text = scenario.read_text(encoding="utf-8")
    assert text.count("eft_box: []\n") == 1
    scenario.write_text(text.replace("eft_box: []\n", EFT_BOX), encoding="utf-8")
    secret = tmp / "renamed.secret"
    secret.write_text(SECRET + "\n")
    secret.chmod(0o600)
    journal = tmp / "renamed.jsonl"
    cli = Cli()

    def run(*args):
        r = cli("--games", games, *args)
        assert r.exit_code == 0, (args, r.stderr)
        return r.stdout

    run("new", journal, "--scenario", "1914", "--game-id", "renamed", "--secret-file", secret)
    run("order", journal, "--as", "central", *OPENING)
    for _ in range(60):
        now = json.loads(run("status", journal, "--as", "moderator", "--format", "json"))
        assert now["turn"] == 1 and not now["game_over"], now["prompt"]
        if now["decision"] == "eft_losses":
            return games, journal, run
        side = now["waiting_on_all"][0]
        legal = json.loads(run("status", journal, "--as", side, "--format", "json"))["legal"]
        pick = next((o for a in ANSWERS for o in legal if o == a or o.startswith(a + " ")),
                    legal[0])
        run("order", journal, "--as", side, pick)
    raise AssertionError("no EFT box losses to choose in SUMMER 1914")


@pytest.fixture(scope="module")
def at_eft_losses(tmp_path_factory):
    """The game waiting on the EFT box's owner to choose his losses."""
    tmp = tmp_path_factory.mktemp("renamed")
    with pytest.MonkeyPatch.context() as mp:        # this game's own referee home
        mp.setenv("REFEREE_HOME", str(tmp / "home"))
        games, journal, _ = _game_at_eft_losses(tmp)
    return games, journal


@pytest.fixture(scope="module")
def played_on(tmp_path_factory, at_eft_losses):
    """The same game once the losses are chosen, played at random to the end of AUTUMN 1914:
    played on in a copy of at_eft_losses's folder (its data, journal, secret and home)."""
    from conftest import Cli

    tmp = tmp_path_factory.mktemp("renamed-on")
    shutil.copytree(at_eft_losses[1].parent, tmp, symlinks=True, dirs_exist_ok=True)
    games, journal, cli = tmp / at_eft_losses[0].name, tmp / at_eft_losses[1].name, Cli()

    def run(*args):
        r = cli("--games", games, *args)
        assert r.exit_code == 0, (args, r.stderr)
        return r.stdout

    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("REFEREE_HOME", str(tmp / "home"))
        now = json.loads(run("status", journal, "--as", "central", "--format", "json"))
        assert now["decision"] == "eft_losses", now["prompt"]
        run("order", journal, "--as", "central", now["legal"][0])
        run("autoplay", journal, "--seed", "3", "--until", "2")
    return games, journal


def _outputs(cli, games: Path, journal: Path, reader: str):
    """(command, stdout) of status, show and report for one reader in every format."""
    for fmt in FORMATS:
        for command in (["status", journal], ["show", journal],
                        ["report", journal, "--since", "0"]):
            r = cli("--games", games, *command, "--as", reader, "--format", fmt,
                    *(["--width", "400"] if fmt == "text" else []))
            assert r.exit_code == 0, (command, fmt, r.stderr)
            assert r.stderr == "", (command, fmt, r.stderr)
            yield f"{command[0]} --as {reader} --format {fmt}", r.stdout


def _no_old_names(cli, games: Path, journal: Path, reader: str) -> str:
    """Every output for reader, checked for the old names; all of them, joined."""
    seen = ""
    for what, out in _outputs(cli, games, journal, reader):
        found = sorted({m[0] for m in OLD.finditer(out)})
        assert not found, f"{what} says {found}: " + \
            "; ".join(line for line in out.splitlines() if OLD.search(line))[:600]
        seen += out
    return seen


@pytest.mark.parametrize("reader", READERS)
def test_waiting_on_the_eft_box_losses_no_output_names_the_old_sides(at_eft_losses, cli,
                                                                     reader):
    """status, show and report, in text, markdown, bbcode, chat and JSON, for each reader,
    while the EFT box's owner must choose his losses (2.0 V.4): the sides, the box's owner
    and the decision are named as the renamed data names them, never German or Entente."""
    games, journal = at_eft_losses
    seen = _no_old_names(cli, games, journal, reader)
    assert "Central" in seen and "Allies" in seen and "central" in seen
    r = cli("--games", games, "status", journal, "--as", reader, "--format", "json")
    now = json.loads(r.stdout)
    assert now["decision"] == "eft_losses" and now["waiting_on"] == "central"
    assert now["prompt"].startswith("eliminate ")


@pytest.mark.parametrize("reader", READERS)
def test_after_a_production_phase_no_output_names_the_old_sides(played_on, cli, reader):
    """The same once the game has played on through AUTUMN 1914: the reports now hold the
    battles, the losses in the EFT box, the Build Points and the cards of two seasons."""
    games, journal = played_on
    seen = _no_old_names(cli, games, journal, reader)
    assert "Central" in seen and "Allies" in seen
    records = [json.loads(line) for line in journal.read_text(encoding="utf-8").splitlines()]
    types = {e["type"] for rec in records[1:] for e in rec["events"]}
    assert {"BattleBegan", "EftUnitLost", "ProductionBegan", "ProductionEnded"} <= types
    assert {rec["actor"] for rec in records[1:]} <= {"central", "allies", "moderator"}
    assert json.loads(cli("--games", games, "show", journal, "--format", "json").stdout)[
        "turn"] == 3


# ---------------------------------------------------------------- names the code once held

@pytest.fixture(scope="module")
def renamed_games(tmp_path_factory) -> Path:
    """A games folder holding the renamed copy of TTLM (no game made on it)."""
    games = copy_game(tmp_path_factory.mktemp("renamed-data"))
    rename_sides(games / "ttlm")
    return games


def test_reader_completion_offers_the_data_s_sides(renamed_games, tmp_path, monkeypatch):
    """--as completion offers the sides of the game's data, also before a journal is named
    or when it cannot be read (the default game's, here the renamed copy's)."""
    from referee.cli import params

    monkeypatch.setitem(params.GAMES, "dir", renamed_games)

    class Ctx:
        def __init__(self, journal=None):
            self.params = {"journal": journal} if journal else {}

    every = ["central", "allies", "public", "moderator"]
    assert params.complete_reader(Ctx(), "") == every
    assert params.complete_reader(Ctx(str(tmp_path / "missing.jsonl")), "") == every
    assert params.complete_reader(Ctx(), "a") == ["allies"]


def _commands(group, prefix=()):
    """(words, click command) of every command of the application, sub-commands included."""
    for name, command in sorted(group.commands.items()):
        yield (*prefix, name), command
        if hasattr(command, "commands"):
            yield from _commands(command, (*prefix, name))


def test_no_help_text_names_a_side(cli):
    """Every command's help says "a side of the game" where it once said german or entente;
    only the closing example, a TTLM game's, may name one."""
    import typer

    from referee.cli.app import app

    texts = {}
    for words, _ in _commands(typer.main.get_command(app)):
        r = cli(*words, "--help")
        assert r.exit_code == 0, (words, r.stderr)
        texts[" ".join(words)] = r.stdout.split("\n  Example:")[0]
    assert len(texts) > 25 and "a side of the game" in texts["order"]
    named = {cmd: sorted(set(OLD.findall(t))) for cmd, t in texts.items() if OLD.search(t)}
    assert not named, named


def test_asked_who_gives_the_orders_the_example_is_a_side_of_the_game(renamed_games,
                                                                      tmp_path, cli):
    """`order` and `standing` without --as name a side of the journal's own game for an
    example (the data's first side), not TTLM's German."""
    journal = tmp_path / "renamed.jsonl"
    r = cli("--games", renamed_games, "new", journal, "--scenario", "1914")
    assert r.exit_code == 0, r.stderr
    for command in (["order", journal, "pass"], ["standing", journal]):
        r = cli("--games", renamed_games, *command)
        assert r.exit_code == 2
        assert "--as SIDE (a side of the game, e.g. central)" in r.stderr, r.stderr


def test_a_side_named_in_capitals_is_told_the_sides_of_the_game(renamed_games, tmp_path,
                                                                  cli):
    """`order --as Central` and `standing --as Central`: sides are named as the data names
    them; the one line says which there are, those of the journal's own game."""
    journal = tmp_path / "renamed.jsonl"
    r = cli("--games", renamed_games, "new", journal, "--scenario", "1914")
    assert r.exit_code == 0, r.stderr
    before = journal.read_bytes()
    for command in (["order", journal, "pass"], ["standing", journal]):
        r = cli("--games", renamed_games, *command, "--as", "Central")
        assert r.exit_code == 2 and r.stdout == "", r.stderr
        assert r.stderr.splitlines() == ["referee: --as 'Central': choose one of central, "
                                         "allies"]
    assert journal.read_bytes() == before


def test_forum_colours_are_the_map_s(tmp_path, cli):
    """BBCode writes each side in the ink the map writes it in (units.yaml side_colours),
    whatever the side is called: in a report's board and in `area`."""
    games = copy_game(tmp_path)
    rename_sides(games / "ttlm")
    units = games / "ttlm" / "units.yaml"
    text = units.read_text(encoding="utf-8")
    central = 'central:  {fill: "#a9c59a", ink: "#2f4f1f"}'
    assert central in text
    units.write_text(text.replace(central, central.replace("#2f4f1f", "#0a0b0c")),
                     encoding="utf-8")
    journal = tmp_path / "colours.jsonl"
    assert cli("--games", games, "new", journal, "--scenario", "1914").exit_code == 0
    r = cli("--games", games, "report", journal, "--since", "0", "--format", "bbcode")
    assert r.exit_code == 0, r.stderr
    assert "[color=#0a0b0c]Central[/color]" in r.stdout
    assert "[color=#1d3f73]Allies[/color]" in r.stdout
    r = cli("--games", games, "area", journal, "liege", "--format", "bbcode")
    assert r.exit_code == 0, r.stderr
    assert "[b]Control:[/b] [color=#1d3f73]Allies[/color]" in r.stdout


def test_games_begun_under_older_data_write_their_sides_as_their_map_does(tmp_path, cli):
    """A game made on an older version of the data (tests/fixtures), one that gave a forum
    colour of its own included, writes each side in a post in the ink its map draws it in:
    German green, not the dark grey the older data named for posts."""
    from referee.data.dataload import load_game
    from referee.data.paths import default_games_dir
    from referee.render.svgmap import ink

    games = default_games_dir()
    stored = Path(__file__).parent / "fixtures" / "rules1-1914.jsonl"
    journal = tmp_path / "old.jsonl"
    journal.write_bytes(stored.read_bytes())
    journal.chmod(0o600)
    header = json.loads(journal.read_text(encoding="utf-8").splitlines()[0])
    data = load_game(games / "ttlm")
    assert header["data_digest"] != data.digest
    r = cli("report", journal, "--since", "0", "--format", "bbcode")
    assert r.exit_code == 0, r.stderr
    tags = set(re.findall(r"\[color=(#\w+)\](\w+)", r.stdout)) - {("#B22222", "disputed")}
    assert tags == {(ink("german", data), "German"), (ink("entente", data), "Entente")}
    assert "#4D4D4D" not in r.stdout


def test_a_refused_upgrade_names_the_side_as_the_data_does(renamed_games, tmp_path):
    """7.5: an upgrade to Stoßtruppen of a unit that is not the upgrading side's infantry on
    the map is refused naming that side as its data calls it (SUMMER 1917, 8.2.2)."""
    import yaml
    from datacopy import new_game

    import gamecalls as g
    from casebook import position

    sc = position("1914", turn=13, player="entente", passes=1,
                  hands={"german": ["off-01"], "entente": ["off-03"]})
    sc = yaml.safe_load(renamed(yaml_text(sc, allow_unicode=True, sort_keys=False)))
    games = renamed_games
    journal = new_game(tmp_path, games, sc)
    assert g.submit(journal, "allies", ["pass", "end turn"], games_dir=games).rejected is None
    r = g.submit(journal, "central", ["upgrade ge-1:cavalry"], games_dir=games)
    rule, reason = r.rejected[2].rule, r.rejected[2].reason
    assert rule == "7.5" and reason == "ge-1:cavalry is not a Central infantry unit on the map"


# Files whose code may name TTLM's sides, and why.
MAY_NAME_SIDES = {
    "cli/demo.py": "plays the 1914 scenario of TTLM by its sides' names",
    "cli/bench.py": "times commands on a TTLM campaign",
    "cli/roundtrips.py": "scripts a TTLM opening",
    "cli/helptext.py": "each command's example is a TTLM game's",
    "data/upcast.py": "older TTLM and AAC data, whose names the engine then fixed",
}


@pytest.mark.parametrize("every_file", [pytest.param(False, id="quick"),
                                        pytest.param(True, id="full")])
def test_no_code_outside_the_scripted_ttlm_games_names_a_side(every_file):
    """Every string in referee/ that names german or entente (docstrings and comments are the
    rules' words and left out) is in a file that plays or upcasts TTLM by name. Quick: only
    the files whose source text names one are parsed (the full form parses every file, and
    finds a name made of adjacent literals or escapes too)."""
    import ast

    import referee

    root = Path(referee.__file__).parent
    found = []
    for path in sorted(root.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if not every_file and (path.relative_to(root).as_posix() in MAY_NAME_SIDES
                               or not OLD.search(text)):
            continue
        tree = ast.parse(text)
        docs = {id(node.body[0].value) for node in ast.walk(tree)
                if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef,
                                     ast.AsyncFunctionDef))
                and node.body and isinstance(node.body[0], ast.Expr)
                and isinstance(node.body[0].value, ast.Constant)}
        name = path.relative_to(root).as_posix()
        found += [f"{name}:{node.lineno}: {node.value!r}" for node in ast.walk(tree)
                  if isinstance(node, ast.Constant) and isinstance(node.value, str)
                  and id(node) not in docs and OLD.search(node.value)
                  and name not in MAY_NAME_SIDES]
    assert not found, found
