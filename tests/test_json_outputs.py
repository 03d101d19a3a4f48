"""Every command prints JSON with `--format json`, in a shape with a JSON Schema.

The commands are found in the Typer application itself (sub-commands of groups
included), so a command added without a JSON output fails here. Each runs on a
real small game; what it prints is validated with jsonschema (Draft 2020-12)
against its published schema (referee.contracts.schemas).
"""

from __future__ import annotations

import ast
import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import jsonschema
import msgspec
import pytest
import typer
from pydantic import TypeAdapter
from sharedgames import kept

import referee
from referee.base.clock import NOW_VARIABLE
from referee.cli.app import app
from referee.contracts.outputs import OUTPUTS
from referee.contracts.schemas import schema

FIXTURE = Path(__file__).parent / "fixtures" / "rules1-1914.jsonl"
GERMAN = "kaiser@example.org"


@pytest.fixture(autouse=True)
def documents_lose_nothing(monkeypatch):
    """Every document a command of these tests builds prints all it was given: a key its
    class (or a part of it) lacks would be dropped by the conversion, unseen by the schema."""
    from referee.contracts.base import Document

    made = Document.of.__func__

    def of(cls, **fields):
        document = made(cls, **fields)
        given = json.loads(json.dumps({"schema_version": cls.VERSION, **fields}, default=str))
        assert msgspec.to_builtins(document) == given, cls.__name__
        return document

    monkeypatch.setattr(Document, "of", classmethod(of))


def command_paths() -> list[str]:
    """Every command of the application, as typed after `referee` ("games list")."""
    def walk(cmd, ctx, path):
        if not hasattr(cmd, "list_commands"):
            yield " ".join(path)
            return
        for name in cmd.list_commands(ctx):
            sub = cmd.get_command(ctx, name)
            yield from walk(sub, sub.make_context(name, [], parent=ctx, resilient_parsing=True),
                            [*path, name])

    root = typer.main.get_command(app)
    return list(walk(root, root.make_context("referee", [], resilient_parsing=True), []))


def json_schema(name: str) -> dict:
    """The published JSON Schema called name."""
    return schema(name)


def validate(text: str, name: str) -> dict:
    """The document text holds, checked against the schema called name (and, for an output
    model, by the model itself: strict, as the contracts read)."""
    doc = json.loads(text)
    published = json_schema(name)
    jsonschema.Draft202012Validator(published).validate(doc)
    assert isinstance(doc["schema_version"], int)
    missing = undescribed(doc, published, published)
    assert missing == [], (name, missing[:12])
    if name in OUTPUTS:
        TypeAdapter(OUTPUTS[name]).validate_json(text)
    return doc


def undescribed(value, shape: dict, root: dict, where: str = "$") -> list[str]:
    """The keys of value its schema does not name: a schema accepts added keys (a later
    version's), so a key the command prints and its class lacks would pass it unseen."""
    while "$ref" in shape:
        shape = root["$defs"][shape["$ref"].rsplit("/", 1)[1]]
    for choice in (*shape.get("anyOf", ()), *shape.get("oneOf", ())):
        if jsonschema.Draft202012Validator(dict(choice, **{"$defs": root.get("$defs", {})})
                                           ).is_valid(value):
            return undescribed(value, choice, root, where)
    if isinstance(value, list) and isinstance(shape.get("items"), dict):
        return [miss for n, item in enumerate(value)
                for miss in undescribed(item, shape["items"], root, f"{where}[{n}]")]
    if not isinstance(value, dict) or "properties" not in shape:
        return []               # not an object, or one the schema leaves free (dict[str, Any])
    named, rest = shape.get("properties", {}), shape.get("additionalProperties")
    out = []
    for key, item in value.items():
        inner = named.get(key, rest if isinstance(rest, dict) else None)
        if inner is None:
            out.append(f"{where}.{key}")
        else:
            out += undescribed(item, inner, root, f"{where}.{key}")
    return out


@dataclass
class Bench:
    """A small game of two registered players, a few orders in, and a folder to work in."""

    cli: object
    tmp: Path
    journal: Path

    def old(self) -> Path:
        """A copy of the journal played under rules 1 (tests/fixtures), private."""
        path = self.tmp / "old.jsonl"
        shutil.copyfile(FIXTURE, path)
        shutil.copyfile(FIXTURE.with_name(FIXTURE.name + ".secret"),
                        path.with_name(path.name + ".secret"))
        for p in (path, path.with_name(path.name + ".secret")):
            p.chmod(0o600)
        return path

    def skirmish(self) -> Path:
        """A skirmish game (games/skirmish) with one test in it."""
        path = self.tmp / "patrol.jsonl"
        if not path.exists():
            assert self.cli("new", path, "--game", "skirmish", "--scenario", "patrol",
                            "--player", "british=tommy@example.org").exit_code == 0
            assert self.cli("skirmish", "order", path, "--as", "british",
                            "move B1 mode=stealthy").exit_code == 0
        return path

    def standing(self) -> tuple[list, str, int]:
        """The run that gives the Entente a standing order."""
        return (["standing", self.journal, "--as", "entente", "--add", "no cavalry retreat"],
                "standing-orders", 0)

    def battle(self) -> int:
        """The German plays on to the first fire at Liège (5.2.1 b): the record of that fire,
        which scores hits and leaves the Entente a batch of them to pay (5.3)."""
        r = self.cli("order", self.journal, "--as", "german", "done", "done", "done")
        assert r.exit_code == 0, r.stderr
        return json.loads(self.journal.read_text(encoding="utf-8").splitlines()[-1])["seq"]

    def mail(self) -> Path:
        """A message of the German player carrying his order key and one order."""
        r = self.cli("players", self.journal, "--keys", "--format", "json")
        key = next(p["key"] for p in json.loads(r.stdout)["players"] if p["side"] == "german")
        path = self.tmp / "orders.eml"
        path.write_text(f"From: <{GERMAN}>\nTo: <umpire@example.com>\n"
                        f"Subject: orders\nMessage-ID: <json.1@example.org>\n"
                        f"Content-Type: text/plain; charset=utf-8\n\n"
                        f"Order key: {key}\n\ndone\n", encoding="utf-8")
        return path


def _bench_game(place: Path, mp) -> None:
    """The bench's game in place (g.jsonl, its secret in fixed.secret, private: its copy is
    first read by the test's commands, which would warn of a secret others may read), made
    at the time it is made, as a test makes it: the German's opening in."""
    from conftest import FIXED_SECRET, Cli

    cli = Cli()
    mp.delenv(NOW_VARIABLE, raising=False)
    (place / "fixed.secret").write_text(FIXED_SECRET + "\n")
    (place / "fixed.secret").chmod(0o600)
    journal = place / "g.jsonl"
    r = cli("new", journal, "--scenario", "1914", "--game-id", "json-1914", "--secret-file",
            place / "fixed.secret", "--player", f"german={GERMAN}", "--player",
            "entente=joffre@example.net", "--player", "moderator=umpire@example.com",
            "--player", "observer=press@example.org")
    assert r.exit_code == 0, r.stderr
    r = cli("order", journal, "--as", "german", "play offensive", "move ge-1 liege",
            "end movement")
    assert r.exit_code == 0, r.stderr


@pytest.fixture
def bench(tmp_path: Path, tmp_path_factory, cli) -> Bench:
    """The test's own copy of the bench's game (tmp_path/g.jsonl), made once a test process,
    with the referee home that made it, the place of its secret noted again as `new` notes
    it; most commands here only read it, and making it cost more than a command's run."""
    made = kept(tmp_path_factory.getbasetemp(), "json-outputs-bench", _bench_game)
    made.back(to=tmp_path, secret=("g.jsonl", "fixed.secret"))
    return Bench(cli, tmp_path, tmp_path / "g.jsonl")


# Each command: the runs that show its JSON outputs, as (arguments, schema name, exit code);
# a command that prints nothing would say so with the schema name None.
RUNS = {
    "new": lambda b: [(["new", b.tmp / "n.jsonl", "--scenario", "1918",
                        "--player", "german=a@example.org", "--player",
                        "observer=b@example.org"], "new-game", 0)],
    "players": lambda b: [(["players", b.journal, "--keys"], "players", 0)],
    "order": lambda b: [(["order", b.journal, "--as", "german", "--dry-run", "done"],
                         "order-result", 0),
                        (["order", b.journal, "--as", "german", "done"], "order-result", 0),
                        (["order", b.journal, "--as", "german", "pass"], "order-result", 1)],
    "standing": lambda b: [b.standing()],
    "status": lambda b: [(["status", b.journal, "--as", "german"], "status-view", 0),
                         b.standing(), (["status", b.journal, "--as", "entente"],
                                        "status-view", 0)],
    "show": lambda b: [(["show", b.journal, "--as", "german"], "state-view", 0),
                       b.standing(), (["show", b.journal, "--as", "entente"], "state-view", 0)],
    "log": lambda b: [(["log", b.journal, "--as", "german"], "log", 0)],
    "report": lambda b: [(["report", b.journal, "--as", "german"], "report", 0)],
    "inbox": lambda b: [(["inbox", b.journal, b.mail(), "--outbox", b.tmp / "out"],
                         "inbox-result", 0)],
    "deadline": lambda b: [(["deadline", b.journal], "deadlines", 0),
                           (["deadline", b.journal, "--set", "48h"], "deadlines", 0)],
    "extend": lambda b: [(["deadline", b.journal, "--set", "48h"], "deadlines", 0),
                         (["extend", b.journal, "24h"], "deadlines", 0)],
    "mail": lambda b: [(["mail", b.journal, "--in", b.mail(), "--out",
                         f"outbox:{b.tmp / 'spool'}"], "mail-route", 0),
                       (["mail", b.journal], "mail-route", 0)],
    "tick": lambda b: [(["mail", b.journal, "--in", b.mail(), "--out",
                         f"outbox:{b.tmp / 'spool'}"], "mail-route", 0),
                       (["tick", b.journal, "--no-map"], "tick-result", 0)],
    "watch": lambda b: [],         # a loop of `tick` that logs text lines: no JSON of its own
    "verify": lambda b: [(["verify", b.journal], "verify-result", 0),
                         (["verify", b.skirmish()], "verify-result", 0),
                         (["verify", b.old()], "verify-result", 5)],
    "upgrade": lambda b: [(["upgrade", b.old(), "--adopt"], "upgrade-result", 0)],
    "rekey": lambda b: [(["rekey", b.journal], "rekey-result", 0)],
    "handover": lambda b: [(["handover", b.journal], "handover-result", 0)],
    "reveal": lambda b: [(["reveal", b.journal, "--force"], "reveal-result", 0)],
    "repair": lambda b: [(["repair", b.journal], "repair-result", 0)],
    "autoplay": lambda b: [(["autoplay", b.journal, "--until", "1"], "autoplay-result", 0)],
    "schema": lambda b: [(["schema"], "schema-list", 0),
                         (["schema", "orders"], "schema-document", 0)],
    "demo": lambda b: [(["demo", "--keep", b.tmp / "demo"], "demo-result", 0)],
    "explain": lambda b: [(["explain", b.journal, "0"], "explanation", 0),
                          (["explain", b.journal, "2", "--as", "moderator"], "explanation", 0),
                          (["explain", b.journal, b.battle()], "explanation", 0)],
    "dice": lambda b: [(["dice", b.journal], "dice-counts", 0)],
    "map": lambda b: [(["map", b.journal, "-o", b.tmp / "map.svg"], "map-result", 0)],
    "area": lambda b: [(["area", b.journal, "liege"], "area-view", 0),
                       (["area", b.journal, "--list"], "area-list", 0)],
    "games check": lambda b: [(["games", "check", Path("games") / "ttlm"], "games-check", 0),
                              (["games", "check", Path("games") / "skirmish"], "games-check",
                               0)],
    "games list": lambda b: [(["games", "list"], "games-list", 0)],
    "skirmish order": lambda b: [(["skirmish", "order", b.skirmish(), "--as", "german",
                                   "move G1 mode=stealthy"], "skirmish-order-result", 0)],
    "skirmish keys": lambda b: [(["skirmish", "keys", b.skirmish()], "skirmish-keys", 0)],
    "skirmish report": lambda b: [(["skirmish", "report", b.skirmish()], "skirmish-report", 0)],
    "sheet new": lambda b: [(["sheet", "new", "-o", b.tmp / "german.sheet", "--links", "3"],
                             "sheet-made", 0)],
}
# The lists a command's runs must print with items at least once: an empty list passes
# whatever its schema says of the items, so runs that print it empty check nothing of them.
FILLED = {"explain": {"hits", "changes"}, "status": {"standing"}, "show": {"standing"}}
ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("command", command_paths())
def test_every_command_prints_json_in_its_documented_shape(command, bench, monkeypatch):
    assert command in RUNS, f"`referee {command}` has no JSON output tested here"
    monkeypatch.chdir(ROOT)
    filled: set[str] = set()
    for args, name, code in RUNS[command](bench):
        r = bench.cli(*args, "--format", "json")
        assert r.exit_code == code, (args, r.stderr)
        if name is None:
            assert r.stdout == "", f"`referee {command}` prints, but not in JSON"
            continue
        assert r.stdout.strip(), f"`referee {command}` printed nothing in JSON"
        if name == "log":                       # JSONL: the journal's records, redacted
            header, *records = r.stdout.splitlines()
            jsonschema.Draft202012Validator(json_schema("journal-header")).validate(
                json.loads(header))
            for line in records:
                jsonschema.Draft202012Validator(json_schema("journal-record")).validate(
                    json.loads(line))
            continue
        doc = validate(r.stdout, name)
        filled |= {key for key in FILLED.get(command, ()) if doc.get(key)}
    assert filled == FILLED.get(command, set()), \
        f"`referee {command}` never printed {sorted(FILLED[command] - filled)} with items"


def test_every_output_model_is_a_document_with_a_schema_version():
    for name, model in OUTPUTS.items():
        assert name == name.lower() and " " not in name and "_" not in name
        schema = TypeAdapter(model).json_schema(by_alias=True)
        assert "schema_version" in schema["required"], name
        assert schema["properties"]["schema_version"]["type"] == "integer", name
        jsonschema.Draft202012Validator.check_schema(schema)


@pytest.mark.parametrize("game,scenario,side", [("ttlm", "1914", "german"),
                                                ("skirmish", "patrol", "british")])
def test_new_names_whose_addresses_it_registered(game, scenario, side, bench):
    """`new --format json` lists the players registered, the moderator among them, as
    `players` lists them; observers only counted: the same in every kind of game."""
    r = bench.cli("new", bench.tmp / f"{game}.jsonl", "--game", game, "--scenario", scenario,
                  "--player", f"{side}=a@example.org", "--player", "moderator=m@example.org",
                  "--format", "json")
    doc = validate(r.stdout, "new-game")
    assert doc["players"] == [side, "moderator"], doc["players"]


def test_map_json_says_what_the_picture_shows(bench):
    out = bench.tmp / "map.svg"
    r = bench.cli("map", bench.journal, "-o", out, "--format", "json")
    doc = validate(r.stdout, "map-result")
    assert doc["file"] == str(out) and doc["bytes"] == out.stat().st_size
    liege = next(a for a in doc["areas"] if a["id"] == "liege")
    assert liege["control"] == "disputed" and liege["battle"] and "ge-1" in liege["units"]
    svg = out.read_text(encoding="utf-8")
    for a in doc["areas"]:
        assert f'id="area-{a["id"]}"' in svg
    assert 'data-battle="true"' in svg


def test_text_outputs_are_unchanged_by_the_json_ones(bench):
    """The commands given a JSON output keep their text, as the docs show it."""
    r = bench.cli("repair", bench.journal)
    assert r.stdout.startswith(f"{bench.journal}: nothing to repair (")
    r = bench.cli("games", "list")
    assert r.stdout.startswith("aac: ") and "\nttlm: TO THE LAST MAN!" in r.stdout
    r = bench.cli("schema")
    assert r.stdout.splitlines()[0] == "orders"


def _schema_version_literals(path: Path) -> list[int]:
    """Lines of dict literals in a module that carry a `schema_version` key."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Dict)
            and any(isinstance(k, ast.Constant) and k.value == "schema_version" for k in n.keys)]


def test_every_printed_document_is_built_as_its_contract_class():
    """No module but the contracts and the journal's store writes a document as a dict with
    its own `schema_version`: each is made by its class (Document.of), which sets the version
    and checks every field's type, so a document cannot drift from its schema unseen."""
    package = Path(referee.__file__).parent
    found = [f"{p.relative_to(package)}:{line}" for p in sorted(package.rglob("*.py"))
             if p.parent.name not in ("contracts", "store")
             for line in _schema_version_literals(p)]
    assert found == []


def test_a_document_of_the_wrong_shape_is_refused_as_it_is_built():
    """Document.of checks what the command gives it against the class: a value of the wrong
    type or a key left out that the document always has is an error, not a quiet output."""
    import msgspec

    from referee.contracts.outputs import ErrorObject, Explanation

    made = ErrorObject.of(error="x", kind="usage", rule=None, exit=2)
    assert msgspec.to_builtins(made) == {"schema_version": 1, "error": "x", "kind": "usage",
                                         "rule": None, "exit": 2}   # no key it was not given
    with pytest.raises(msgspec.ValidationError, match=r"\$\.exit"):
        ErrorObject.of(error="x", kind="usage", rule=None, exit="2")
    with pytest.raises(msgspec.ValidationError, match="rule"):
        ErrorObject.of(error="x", kind="usage", exit=2)
    with pytest.raises(msgspec.ValidationError, match=r"\$\.hits\[0\]"):
        Explanation.of(game_id="g", seq=1, reader="public", actor="german", order=None,
                       decision=None, checks=[], dice=None, hits=[{"fired": {}}], changes=[])


def test_a_key_the_document_lacks_is_refused_and_an_error_is_printed_anyway():
    """A command that gives its document a key the class lacks fails where it builds it; the
    error object alone is printed whatever its details, as given."""
    from referee.cli.commands import error_line
    from referee.contracts.outputs import RevealResult

    with pytest.raises(TypeError, match="RevealResult has no key sneaky"):
        RevealResult.of(journal="j", seq=3, sneaky=1)
    assert json.loads(error_line("bad", "journal", None, 3, record="7")) == {
        "schema_version": 1, "error": "bad", "kind": "journal", "rule": None, "exit": 3,
        "record": "7"}


def test_scripting_names_every_json_output_and_every_schema():
    """docs/scripting.md is where a script's author looks a shape up: each command's row in
    its table of JSON outputs names the schema the command prints, and every schema
    `referee schema` lists is named there (`watch`, the loop of `tick`, has no JSON)."""
    from referee.contracts.schemas import SCHEMAS

    text = (ROOT / "docs" / "scripting.md").read_text(encoding="utf-8")
    table = text[text.index("| command | shape (schema name) | holds |"):]
    rows = [line.split(" | ") for line in table.splitlines()[2:] if line.startswith("| `")]
    listed = {}
    for row in rows:
        words = [w.strip("`") for w in row[0].lstrip("| ").split(", ")]
        group = words[0].split(" ")[0] if " " in words[0] else None
        for w in words:
            listed[w if " " in w or group is None else f"{group} {w}"] = row[1]
    for command in command_paths():
        if command == "watch":
            continue
        assert command in listed, f"docs/scripting.md: no row for `{command}`"
        named = re.findall(r"`([a-z-]+)`", listed[command])
        assert named and set(named) <= set(SCHEMAS), (command, named)
    for name in SCHEMAS:
        assert f"`{name}`" in text, f"docs/scripting.md does not name the schema {name}"


# Rows whose keys are told elsewhere: status and show in the lists below the table, log
# (the journal's records), map (its own section), the skirmish's row of three shapes.
_TOLD_ELSEWHERE = {"status", "show", "log", "map", "skirmish order"}


def _resolved(doc: dict, node: dict) -> dict:
    """A schema node with its $ref, or its one object choice of an anyOf, followed."""
    for choice in node.get("anyOf", [node]):
        if "$ref" in choice:
            return doc["$defs"][choice["$ref"].rsplit("/", 1)[1]]
        if "properties" in choice:
            return choice
    return node


def test_scripting_s_table_names_every_key_of_the_shapes_it_lists():
    """Each row of docs/scripting.md's table names every key its shape gives (beside
    `schema_version`, said once for all), and every key of a part whose keys it lists in
    parentheses: `new`'s mail route, `repair`'s `mended`, `explain`'s `order.part` and
    `report`'s `dice`, `game_id` and `reader` were given but not told."""
    from referee.contracts.schemas import SCHEMAS, schema

    text = (ROOT / "docs" / "scripting.md").read_text(encoding="utf-8")
    table = text[text.index("| command | shape (schema name) | holds |"):].split("\n\n")[0]
    missing = []
    for line in table.splitlines()[2:]:
        if not line.startswith("| `"):
            continue
        row = line.split(" | ")
        command = row[0].lstrip("| ").split(", ")[0].strip("`")
        if command in _TOLD_ELSEWHERE:
            continue
        holds = " | ".join(row[2:])
        for name in re.findall(r"`([a-z-]+)`", row[1]):
            assert name in SCHEMAS, (command, name)
            doc = schema(name)
            for key, node in doc.get("properties", {}).items():
                if key == "schema_version":
                    continue
                if f"`{key}`" not in holds:
                    missing.append(f"{command}: {name}.{key}")
                    continue
                part = _resolved(doc, node)
                if f"`{key}` (`" in holds and "properties" in part:
                    told = holds[holds.index(f"`{key}` (`"):]
                    missing += [f"{command}: {name}.{key}.{sub}" for sub in part["properties"]
                                if f"`{sub}`" not in told]
    assert missing == [], missing


def test_the_keys_scripting_md_says_differ_differ_as_it_says():
    """docs/scripting.md's paragraph on keys that differ between commands: each shape still
    gives them as it says (a renamed or retyped one must change the paragraph too)."""
    from referee.contracts.schemas import schema

    def kind(name: str, *path: str) -> set[str]:
        doc = schema(name)
        node = doc
        for key in path:
            node = _resolved(doc, node)["properties"][key]
        return {c.get("type") for c in node.get("anyOf", [node])} - {"null"}

    text = " ".join((ROOT / "docs" / "scripting.md").read_text(encoding="utf-8").split())
    assert "**Keys that differ between commands**" in text
    assert kind("status-view", "waiting_on") == kind("report", "waiting_on") == {"string"}
    assert kind("explanation", "decision", "waiting_on") == {"array"}
    assert kind("skirmish-status", "waiting_on") == kind("skirmish-report", "waiting") == \
        {"array"}
    assert "record" in schema("skirmish-order-result")["properties"]
    assert "seq" not in schema("skirmish-order-result")["properties"]
    assert kind("status-view", "dice") == kind("report", "dice") == {"string"}
    assert kind("explanation", "dice") == {"object"} or "properties" in _resolved(
        schema("explanation"), schema("explanation")["properties"]["dice"])
    assert kind("dice-counts", "all", "dice") == {"integer"}
    assert kind("skirmish-dice", "dice") == kind("journal-record", "dice") == {"array"}
