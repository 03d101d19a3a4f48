"""Reading game data and scenario YAML files people write, and reporting every problem at once.

A file handed to the referee may be hostile, so YAML is read with limits: at
most MAX_FILE_BYTES, UTF-8, and within the limits of yamltext.py (nesting, aliases,
tags, long numbers, repeated keys), every refusal in the referee's own words at its
line and column. Each file is then validated against its contract (shapes.py),
so that one run lists every problem, each at its file, line and column
(marks.py); the cross-file checks (gamecheck.py, scenariocheck.py) run on what
is left.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import types
import typing
from pathlib import Path
from typing import Any

import msgspec

from ..base.errors import GameDataError, UsageError
from ..contracts.chartmodels import Charts
from ..contracts.deckmodels import DeckData
from ..contracts.eventmodels import EventsData
from ..contracts.gamemodels import GameFiles, GameInfo
from ..contracts.mapmodels import MapData
from ..contracts.scenariomodels import Scenario
from ..contracts.unitmodels import UnitsData
from ..store.home import read_named
from .gamecheck import check_game
from .gamedata import GameData
from .marks import Marks
from .problems import DataProblem, Problem
from .scenariocheck import check_scenario
from .textcheck import text_problems
from .upcast import upcast_document
from .yamltext import YamlRefusal, load_text

MAX_FILE_BYTES = 1 << 20


def read_yaml(path: Path, problems: list[str], label: str | None = None,
              texts: dict[str, str] | None = None) -> Any:
    """Read one YAML file within the limits; each reason it cannot be used is a problem line.
    Its text goes into texts under its label, to place the problems found in it later."""
    label = label or path.name
    if not os.path.lexists(path):         # (os.path: False, not an error, for a bad name)
        problems.append(f"{label}: file missing")
        return None
    try:
        raw = read_named(path, "a YAML file of game data", MAX_FILE_BYTES)
    except UsageError as exc:                 # a directory, a FIFO, unreadable, too large
        problems.append(f"{label}: {str(exc).split(': ', 1)[-1]}")
        return None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[:exc.start]
        line, column = before.count(b"\n") + 1, len(before[before.rfind(b"\n") + 1:].decode())
        problems.append(f"{label}:{line}:{column + 1}: not UTF-8 text (byte {exc.start} "
                        f"is 0x{raw[exc.start]:02X})")
        return None
    try:
        value = load_text(text)
    except YamlRefusal as exc:
        problems.append(exc.at(label))
        return None
    if value is None:
        problems.append(f"{label}:1:1: the file is empty (no YAML document)")
        return None
    if texts is not None:
        texts[label] = text
    # Game data is JSON data: keys become text, dates their ISO text. What the YAML says is
    # then exactly what the compiled copy (JSON) and the data digest say.
    return json.loads(json.dumps(value, default=str))


# ---------------------------------------------------------------- validation

_BAD = object()


def _struct_type(tp: Any) -> type | None:
    return tp if isinstance(tp, type) and issubclass(tp, msgspec.Struct) else None


def _split(tp: Any) -> tuple[Any, bool]:
    """(type without None, whether None is allowed)."""
    if typing.get_origin(tp) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        if len(args) < len(typing.get_args(tp)) and len(args) == 1:
            return args[0], True
    return tp, False


def _kept(tp: Any, value: Any) -> Any:
    """value with what is in error left out (an unknown key, an item, an optional field), or
    _BAD when nothing usable is left: what the cross-file checks still run on."""
    inner, nullable = _split(tp)
    if value is None and nullable:
        return None
    if typing.get_origin(inner) in (typing.Union, types.UnionType):
        # A mapping or text (a counter mix row or its note): keep a mapping item by item.
        shaped = [a for a in typing.get_args(inner)
                  if (typing.get_origin(a) is dict) == isinstance(value, dict)]
        if len(shaped) == 1 and isinstance(value, dict):
            return _kept(shaped[0], value)
    struct = _struct_type(inner)
    if struct is not None:
        return _kept_struct(struct, value)
    origin, args = typing.get_origin(inner), typing.get_args(inner)
    if origin is list and args and _struct_type(args[0]):
        if not isinstance(value, list):
            return _BAD
        return [v for v in (_kept(args[0], v) for v in value) if v is not _BAD]
    if origin is dict and len(args) == 2:
        if not isinstance(value, dict):
            return _BAD
        kept = {k: _kept(args[1], v) for k, v in value.items()
                if _kept(args[0], k) is not _BAD}
        return {k: v for k, v in kept.items() if v is not _BAD}
    try:
        msgspec.convert(value, inner if not nullable else tp)
    except (msgspec.ValidationError, TypeError, ValueError, RecursionError):
        return _BAD
    return value


def _kept_struct(cls: type, value: Any) -> Any:
    if not isinstance(value, dict):
        return _BAD
    out = {}
    for f in _fields(cls):
        if f.encode_name not in value:
            if f.required:
                return _BAD
            continue
        checked = _kept(f.type, value[f.encode_name])
        if checked is not _BAD:
            out[f.encode_name] = checked
        elif f.required:
            return _BAD
    return out


@functools.cache
def _fields(cls: type) -> tuple:
    """A model's fields, worked out once per model (msgspec reads its annotations each time)."""
    return msgspec.structs.fields(cls)


def validate(model: type, raw: Any, label: str, problems: list[str]) -> Any:
    """Validate raw data against the contract of a model; every error becomes one line
    'file: what (at where)', placed at its line and column by `placed`.

    What is in error is left out of the result (an area, a card, a key), so
    that the cross-file checks can still report their own problems; nothing
    built from a file with problems is ever used for play.
    """
    if raw is None:
        return None
    # Importing dataload (a what-if set-up replayed, a snapshot written) needs no pydantic.
    # start-up: pydantic and the contracts load only when a file is validated
    from .shapes import problems_of

    found = problems_of(model, raw, label)
    problems.extend(found)
    kept = _kept(model, raw) if found else raw
    if kept is _BAD:
        return None
    try:
        return msgspec.convert(kept, model)
    except msgspec.ValidationError as exc:
        if not found:                   # msgspec refuses what pydantic's validation allows
            problems.append(f"{label}: {exc}")
        return None


def _usable(model: type, raw: Any) -> Any:
    """What of raw data its model can be built from, unreported (game.yaml's file names, to
    find the other files; its problems are reported when it is validated)."""
    kept = _kept(model, raw)
    try:
        return None if kept is _BAD else msgspec.convert(kept, model)
    except msgspec.ValidationError:
        return None


def placed(problems: list[str], texts: dict[str, str] | None) -> list[str]:
    """The problem lines, each one that knows its place as FILE:LINE:COLUMN when the text of
    its file is in texts (label -> YAML text), and those of one file in the order of the
    file; the files in the order they were read, then the lines about no file's place.
    Each is plain text (an error's lines are encoded as JSON by msgspec)."""
    if not texts:
        return [str(p) for p in problems]
    marks: dict[str, Marks] = {}
    rank: dict[object, int] = {label: i for i, label in enumerate(texts)}
    out = []
    for i, p in enumerate(problems):
        at = None
        label = p.label if isinstance(p, Problem) else None
        if label in texts:
            at = p.place(marks.setdefault(label, Marks(texts[label])))
            p = p.placed(at)
        group = rank.setdefault(label if label is not None else i, len(rank))
        out.append(((group, *(at or (0, 0))), str(p)))
    out.sort(key=lambda x: x[0])
    return [p for _, p in out]


# ---------------------------------------------------------------- whole directories

def canonical_document(obj: Any) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True,
                      default=str).encode()


def _inside(root: Path, rel: str, where: tuple, problems: list[str]) -> Path | None:
    """A file named by game.yaml (at where in it), which must lie inside the game directory."""
    try:
        path = (root / rel).resolve()
        inside = not Path(rel).is_absolute() and path.is_relative_to(root.resolve())
    except (OSError, ValueError) as exc:          # a name too long, a NUL byte
        problems.append(DataProblem("game.yaml", where, f"{rel!r} cannot name a file ({exc})"))
        return None
    if not inside:
        problems.append(DataProblem("game.yaml", where, f"{rel!r} is outside the game directory"))
        return None
    return root / rel


def load_game(root: Path | str) -> GameData:
    """Load and check a game data directory; raise GameDataError listing every problem."""
    root = Path(root)
    problems: list[str] = []
    if not os.path.isdir(root):
        raise UsageError(f"{root}: not a directory")
    texts: dict[str, str] = {}
    document = read_document(root, problems, texts)
    return build_game(root, document, problems, texts)


PARTS = ("map", "units", "deck", "charts", "events")


def read_document(root: Path, problems: list[str], texts: dict[str, str] | None = None) -> dict:
    """Every YAML file of a game directory as JSON data, in the one document the data digest
    is taken over: {game, map, units, deck, charts, events, scenarios}; the text of each
    file goes into texts, by its name in the document."""
    raw_info = read_yaml(root / "game.yaml", problems, texts=texts)
    info = _usable(GameInfo, raw_info)      # its problems: build_game's
    files = info.files if info else GameFiles()
    document: dict[str, Any] = {"game": raw_info}
    for key in PARTS:
        name = getattr(files, key)
        path = _inside(root, name, ("files", key), problems)
        document[key] = read_yaml(path, problems, name, texts) if path else None
    raw_scen: dict[str, Any] = {}
    for sid, rel in (info.scenarios.items() if info else ()):
        path = _inside(root, rel, ("scenarios", sid), problems)
        raw_scen[sid] = read_yaml(path, problems, rel, texts) if path else None
    document["scenarios"] = raw_scen
    return document


def document_digest(document: dict) -> str:
    """The data digest: SHA-256 of the canonical JSON of the whole data document."""
    return hashlib.sha256(canonical_document(document)).hexdigest()


def build_game(root: Path, document: dict, problems: list[str],
               texts: dict[str, str] | None = None) -> GameData:
    """Validate a data document (from YAML files or a stored snapshot) field by field and
    across files; GameDataError lists every problem, each one about a file's shape at its
    line and column when the file's text is in texts."""
    digest = document_digest(document)          # of the document as written, before upcasting
    document = upcast_document(document)
    raw_info = document.get("game")
    info = validate(GameInfo, raw_info, "game.yaml", problems)
    files = info.files if info else GameFiles()
    problems.extend(_disguised(document, info, files))
    models = [validate(model, document.get(key), getattr(files, key), problems)
              for key, model in zip(PARTS, (MapData, UnitsData, DeckData, Charts, EventsData))]
    scenarios: dict[str, Scenario] = {}
    raw_scen = document.get("scenarios")
    raw_scen = raw_scen if isinstance(raw_scen, dict) else {}
    for sid, rel in (info.scenarios.items() if info else ()):
        sc = validate(Scenario, raw_scen.get(sid), rel, problems) if sid in raw_scen else None
        if sc is not None:
            scenarios[sid] = sc
    if info is None or any(m is None for m in models):
        raise GameDataError(placed(problems, texts) or ["the game data could not be read"])
    data = GameData(root, info, *models, scenarios=scenarios, digest=digest)
    try:
        problems.extend(check_game(data))
        for sid, rel in info.scenarios.items():
            if sid in scenarios:
                problems.extend(check_scenario_quiet(data, scenarios[sid], rel))
    except (KeyError, ValueError, TypeError, IndexError, AttributeError) as exc:
        # A cross-check tripped over something no check caught: say so, also beside other
        # problems, since the checks after it did not run.
        problems.append(f"the game data is inconsistent ({type(exc).__name__}: {exc}); "
                        "some checks could not run")
    if problems:
        raise GameDataError(placed(problems, texts))
    return data


def _disguised(document: dict, info: GameInfo | None, files: GameFiles) -> list:
    """Every text of the document's files that could display as another (textcheck.py)."""
    out = text_problems(document.get("game"), "game.yaml")
    for key in PARTS:
        out += text_problems(document.get(key), getattr(files, key))
    raw_scen = document.get("scenarios")
    for sid, rel in (info.scenarios.items() if info else ()):
        if isinstance(raw_scen, dict):
            out += text_problems(raw_scen.get(sid), rel)
    return out


def check_scenario_quiet(data: GameData, scenario: Scenario, label: str) -> list[str]:
    """Every problem of one scenario against the game data, as lines."""
    return [p.labelled(label) if isinstance(p, DataProblem) else f"{label}: {p}"
            for p in check_scenario(data, scenario)]


def load_scenario_file(path: Path | str, data: GameData) -> tuple[Scenario, dict]:
    """Load a custom scenario file (a what-if position); GameDataError lists its problems."""
    path = Path(path)
    problems: list[str] = []
    texts: dict[str, str] = {}
    raw = read_yaml(path, problems, str(path), texts)
    problems.extend(text_problems(raw, str(path)))
    sc = validate(Scenario, raw, str(path), problems)
    if sc is not None:
        try:
            problems.extend(check_scenario_quiet(data, sc, str(path)))
        except (KeyError, ValueError, TypeError, IndexError, AttributeError) as exc:
            problems.append(f"{path}: the scenario is inconsistent "      # not all checks ran
                            f"({type(exc).__name__}: {exc})")
    if problems:
        raise GameDataError(placed(problems, texts))
    return sc, raw
