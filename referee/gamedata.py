"""Pydantic models of a game data directory (games/ttlm/*.yaml) and its loader.

The loader validates every file against its model, then cross-checks the
files against each other (datacheck.py) and reports every problem at once,
each with its file and path (GameDataError). Models are frozen and forbid
unknown keys, so a misspelt key in a hand-edited file is reported, not ignored.
"""

from __future__ import annotations

import hashlib
import json
import unicodedata
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .errors import GameDataError, UsageError
from .paths import default_games_dir  # noqa: F401  (re-exported)

Side = Literal["german", "entente"]
SIDES: tuple[str, str] = ("german", "entente")
NationId = Literal["ge", "fr", "uk", "be", "us"]
UnitKind = Literal[
    "army", "infantry", "stosstruppen", "commonwealth", "cavalry", "artillery",
    "siege_gun", "biplane", "tank", "paris_gun", "fort",
]
Season = Literal["SUMMER", "AUTUMN", "WINTER", "SPRING"]


class Model(BaseModel):
    """Base of every data model: frozen, unknown keys rejected."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


# ---------------------------------------------------------------- game.yaml

class OptionSpec(Model):
    rule: str
    default: bool = False
    description: str = ""


class GameFiles(Model):
    map: str = "map.yaml"
    units: str = "units.yaml"
    deck: str = "deck.yaml"
    charts: str = "charts.yaml"
    events: str = "events.yaml"


class GameInfo(Model):
    version: int
    id: str
    name: str
    ruleset: str = ""
    files: GameFiles = GameFiles()
    scenarios: dict[str, str]
    options: dict[str, OptionSpec] = {}


# ---------------------------------------------------------------- map.yaml

class FortSpec(Model):
    id: str
    name: str
    nation: NationId
    strength: int = Field(ge=0, le=8)


class Area(Model):
    id: str
    name: str
    aliases: list[str] = []
    kind: Literal["front", "sea_only"]
    country: Literal["germany", "france", "belgium", "luxembourg", "uk"]
    vp: int = Field(ge=0)
    terrain: Literal["clear", "rough"]
    coastal: bool
    supply_source: Side | None = None
    conditional_supply_source: Side | None = None
    always_supplied: bool = False
    enemy_may_enter: bool = True
    fort: FortSpec | None = None
    neighbours: list[str]
    borders: list[str] = []
    at: tuple[float, float] | None = None
    covers: str = ""


class Impassable(Model):
    id: str
    name: str
    kind: Literal["neutral_country", "sea"]
    touches: list[str] = []


class Box(Model):
    id: str
    name: str
    owner: Side
    rules: str = ""
    access_note: str = ""


class MapData(Model):
    version: int
    provenance: str
    areas: list[Area]
    impassable: list[Impassable] = []
    boxes: list[Box] = []


# ---------------------------------------------------------------- units.yaml

class Nation(Model):
    name: str
    side: Side
    home_country: str
    rebuild_area: str | None = None


class CommonwealthUnit(Model):
    id: str
    name: str


class UnitType(Model):
    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)
    class_: Literal["army", "infantry", "auxiliary", "fort"] = Field(alias="class")
    code: str
    nations: list[NationId] = []
    move: int = Field(ge=0)
    cost_bp: int | None = None
    fire: dict[str, str | None] | None = None
    entrench: bool = False
    holds_area: bool = True
    never_retreats: bool = False
    never_a_loss: bool = False
    forced_retreat_on_hit: bool = False
    retreat_before_combat: bool = False
    max_per_army: int | None = None
    stacking: bool = True
    available: str | dict[str, str] | None = None
    rule: str
    notes: str = ""


class UnitsData(Model):
    version: int
    sides: dict[Side, list[NationId]]
    nations: dict[NationId, Nation]
    counter_mix: dict[str, Any]
    commonwealth_units: list[CommonwealthUnit] = []
    biplane_counter_years: dict[NationId, list[int]] = {}
    unit_types: dict[UnitKind, UnitType]

    @cached_property
    def mix(self) -> dict[str, dict[str, int]]:
        """The counter mix per nation (11.1), without the source note."""
        return {k: dict(v) for k, v in self.counter_mix.items() if k != "source"}


# ---------------------------------------------------------------- deck.yaml

class CrisisEntry(Model):
    year: int
    name: str
    remove: dict[str, Any]
    removes_card_from_play: bool = False


class CardType(Model):
    key: str
    title: str
    rule: str
    count: int = Field(ge=1)
    ids: list[str]
    type: Literal["offensive", "ersatz", "combat", "bad_weather", "movement", "crisis"]
    offensive: bool
    event_side: Literal["any", "german", "entente"] | None = None
    other_side_plays_as: str | None = None
    when_played: str = ""
    from_turn: int | None = None
    from_label: str | None = None
    before_that: str | None = None
    effect: str = ""
    not_with: list[str] = []
    cancelled_by: list[str] = []
    not_on_turns: list[int] = []
    bad_weather: str | None = None
    ersatz: int = Field(ge=1, le=3)
    ersatz_use: Literal["any", "german", "entente"] = "any"
    crises: list[CrisisEntry] = []
    removed_units_go_to: str | None = None
    unit_kinds: str | None = None
    unpaid_vp: int | None = None
    other_years: str | None = None
    removed_in_scenarios: list[str] = []


class DeckData(Model):
    version: int
    total: int
    offensive_type_total: int
    cards: list[CardType]
    notes: list[str] = []


# ---------------------------------------------------------------- charts.yaml

class TurnInfo(Model):
    turn: int
    season: Season
    label: str
    year: int


class TurnTrack(Model):
    source: str
    turns: list[TurnInfo]
    notes: list[str] = []


class BuildPointsTurn(Model):
    turn: int
    german: int = Field(ge=0)
    entente: int = Field(ge=0)
    entente_parts: dict[str, int] = {}


class BuildPoints(Model):
    source: str
    reasoning: str = ""
    turns: list[BuildPointsTurn]


class CardLimitYear(Model):
    year: int
    german: int = Field(ge=1)
    entente: int = Field(ge=1)


class CardLimit(Model):
    source: str
    reasoning: str = ""
    by_year: list[CardLimitYear]


class VictoryLevel(Model):
    id: str
    name: str
    min: int | None = None
    max: int | None = None


class VpModifier(Model):
    id: str
    vp: int | None
    per: str
    years: list[int] = []
    not_when_linked_with: str | None = None
    rule: str | None = None


class VpModifiers(Model):
    source: str
    items: list[VpModifier]
    notes: list[str] = []


class Victory(Model):
    source: str
    anchors: str = ""
    levels: list[VictoryLevel]
    game_ends_on: list[str]
    surrender_shift: int = 1
    reasoning: str = ""
    modifiers: VpModifiers


class BlockadeYear(Model):
    year: int
    vp: int
    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)
    from_: str | None = Field(default=None, alias="from")
    to: str | None = None


class Blockade(Model):
    source: str
    by_year: list[BlockadeYear]


class ArtilleryYear(Model):
    year: int
    ge: int = 0
    uk: int = 0
    fr: int = 0
    us: int = 0
    be: int = 0


class ArtilleryChart(Model):
    source: str
    by_year: list[ArtilleryYear]
    notes: list[str] = []


class TemplateCapacity(Model):
    infantry: int = Field(ge=0)
    auxiliary: int = Field(ge=0)


class ArmyTemplates(Model):
    source: str
    capacity: dict[NationId, TemplateCapacity]
    reasoning: str = ""


class Charts(Model):
    version: int
    turn_track: TurnTrack
    build_points: BuildPoints
    card_limit: CardLimit
    victory: Victory
    total_blockade: Blockade
    artillery_per_army: ArtilleryChart
    army_templates: ArmyTemplates


# ---------------------------------------------------------------- events.yaml

class Reinforcement(Model):
    nation: NationId
    type: UnitKind
    count: int = Field(default=1, ge=1)
    id: str | None = None
    name: str | None = None
    placement: Literal["any", "england", "france"]
    substitute: UnitKind | None = None


class Swap(Model):
    rule: str
    nation: NationId
    unit: str
    name: str
    replaces: str


class RuleNote(Model):
    rule: str
    text: str


class EventTurn(Model):
    turn: int
    label: str
    reinforcements: list[Reinforcement] = []
    swaps: list[Swap] = []
    rules: list[RuleNote] = []


class EventsData(Model):
    version: int
    placement_codes: dict[str, str] = {}
    turns: list[EventTurn]
    availability: dict[str, Any] = {}
    commonwealth_swaps: dict[str, Any] = {}
    stosstruppen_1918: dict[str, Any] = {}
    neutrals: dict[str, Any] = {}


# ---------------------------------------------------------------- scenarios

class ContentEntry(Model):
    type: UnitKind
    count: int = Field(default=1, ge=1)
    nation: NationId | None = None
    name: str | None = None


class ScenarioUnit(Model):
    id: str
    nation: NationId
    type: UnitKind
    name: str | None = None
    area: str
    entrenched: bool = False
    contents: list[ContentEntry] = []
    keep_apart_from: str | None = None


class ScenarioFort(Model):
    id: str
    nation: NationId
    area: str
    strength: int = Field(ge=0, le=8)


class ScenarioCards(Model):
    draw_order: list[Side] = ["german", "entente"]
    hand: dict[Side, int] = {}
    # What-if positions: exact hands, draw pile (top first), discard and
    # removed cards. Cards not named anywhere are shuffled into the draw pile.
    hands: dict[Side, list[str]] | None = None
    draw_pile: list[str] | None = None
    discard: list[str] = []
    removed: list[str] = []


class ScenarioStart(Model):
    turn: int = Field(ge=1, le=23)
    label: str


class Position(Model):
    """Where in the sequence of play a what-if scenario starts (rule 2.0)."""

    phase: Literal["reinforcements", "player_turn", "production"] = "reinforcements"
    player: Side | None = None
    consecutive_passes: int = Field(default=0, ge=0, le=1)


class Scenario(Model):
    id: str
    title: str
    provenance: str = "custom"
    start: ScenarioStart
    last_turn: int = 23
    first_player: Side = "german"
    cards: ScenarioCards = ScenarioCards()
    status: dict[str, Any] = {}
    control: dict[Side, list[str]]
    neutral: list[str] = []
    eft_box: list[ContentEntry] = []
    forts: list[ScenarioFort] = []
    forts_out_of_play: list[str] = []
    units: list[ScenarioUnit] = []
    eliminated_armies: list[str] = []
    position: Position = Position()
    expected_start: dict[str, Any] | None = None
    notes: list[str] = []


# ---------------------------------------------------------------- the whole game

def fold(name: str) -> str:
    """Fold a name for matching: case, accents, hyphens, spaces and apostrophes ignored."""
    text = unicodedata.normalize("NFKD", name)
    text = "".join(c for c in text if not unicodedata.combining(c))
    text = text.replace("ß", "ss").casefold()
    return "".join(c for c in text if c.isalnum())


class GameData:
    """A validated game: its files as models plus lookup tables built once."""

    def __init__(self, root: Path, info: GameInfo, map: MapData, units: UnitsData,
                 deck: DeckData, charts: Charts, events: EventsData,
                 scenarios: dict[str, Scenario], digest: str):
        self.root = root
        self.info = info
        self.map = map
        self.units = units
        self.deck = deck
        self.charts = charts
        self.events = events
        self.scenarios = scenarios
        self.digest = digest
        self.areas: dict[str, Area] = {a.id: a for a in map.areas}
        self.neighbours: dict[str, frozenset[str]] = {
            a.id: frozenset(a.neighbours) for a in map.areas}
        self.card_types: dict[str, CardType] = {c.key: c for c in deck.cards}
        self.cards: dict[str, CardType] = {i: c for c in deck.cards for i in c.ids}
        self.card_order: list[str] = [i for c in deck.cards for i in c.ids]
        self.turns: dict[int, TurnInfo] = {t.turn: t for t in charts.turn_track.turns}
        self.event_turns: dict[int, EventTurn] = {t.turn: t for t in events.turns}
        self.nation_side: dict[str, str] = {k: v.side for k, v in units.nations.items()}
        self.area_names: dict[str, list[str]] = {}
        for a in map.areas:
            for n in (a.id, a.name, *a.aliases):
                ids = self.area_names.setdefault(fold(n), [])
                if a.id not in ids:
                    ids.append(a.id)
        self.forts = {a.fort.id: (a.id, a.fort) for a in map.areas if a.fort}
        self.impassable = {r.id: r for r in map.impassable}
        for r in map.impassable:
            names = {r.id, r.name.split("(")[0]}
            if "(" in r.name:
                inner = r.name.split("(", 1)[1].rstrip(")")
                names |= {inner, inner.removeprefix("the ")}
            for n in names:
                ids = self.area_names.setdefault(fold(n), [])
                if r.id not in ids:
                    ids.append(r.id)

    def turn(self, n: int) -> TurnInfo:
        """The turn track entry of turn n (2.0 VI)."""
        return self.turns[n]

    def year(self, turn: int) -> int:
        """The game year of a turn; WINTER belongs to the year it starts in (charts note)."""
        return self.turns[turn].year

    def label(self, turn: int) -> str:
        """The season and year label of a turn, e.g. 'SUMMER 1914'."""
        return self.turns[turn].label

    def option_defaults(self) -> dict[str, bool]:
        """Every optional rule with its default setting."""
        return {k: v.default for k, v in self.info.options.items()}


# ---------------------------------------------------------------- loading

class _UniqueKeyLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """Safe YAML loader that rejects a key repeated in one mapping."""

    def construct_mapping(self, node, deep=False):
        seen = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"duplicate key {key!r}", key_node.start_mark)
            seen.add(key)
        return super().construct_mapping(node, deep)


def read_yaml(path: Path, problems: list[str], label: str | None = None) -> Any:
    """Read one YAML file; a missing or malformed file becomes a problem line."""
    label = label or path.name
    try:
        with path.open(encoding="utf-8") as fh:
            return yaml.load(fh, Loader=_UniqueKeyLoader)
    except FileNotFoundError:
        problems.append(f"{label}: file missing")
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        problems.append(f"{label}: not valid YAML: {' '.join(str(exc).split())}")
    return None


def _loc(loc: tuple, raw: Any) -> str:
    """Turn a pydantic error location into a readable path, naming list items by id."""
    parts: list[str] = []
    node = raw
    for key in loc:
        if isinstance(key, int):
            item = node[key] if isinstance(node, list) and key < len(node) else None
            name = (item.get("id") or item.get("key")) if isinstance(item, dict) else None
            parts.append(f"[{key}]" + (f"({name})" if name else ""))
        else:
            parts.append(("." if parts else "") + str(key))
        try:
            node = node[key]
        except (KeyError, IndexError, TypeError):
            node = None
    return "".join(parts) or "(top)"


def _prune(raw: Any, errors: list[dict]) -> Any:
    """A copy of raw without what the errors point at, so later checks still run.

    An unknown key is dropped; any other bad value takes its enclosing list
    item with it (an area, a card, a unit). Nothing pruned is ever used for
    play: pruning only happens on the way to a GameDataError.
    """
    import copy

    raw = copy.deepcopy(raw)
    doomed: list[tuple] = []
    for err in errors:
        loc = tuple(err["loc"])
        if err["type"] == "extra_forbidden":
            doomed.append(loc)
        else:
            cut = max((i for i, k in enumerate(loc) if isinstance(k, int)), default=None)
            if cut is None:
                return None
            doomed.append(loc[:cut + 1])
    for loc in sorted(set(doomed), key=lambda x: [str(k) for k in x], reverse=True):
        node = raw
        try:
            for k in loc[:-1]:
                node = node[k]
            if isinstance(node, list):
                node[loc[-1]] = None
            else:
                del node[loc[-1]]
        except (KeyError, IndexError, TypeError):
            continue
    def strip(node: Any) -> Any:
        if isinstance(node, list):
            return [strip(x) for x in node if x is not None]
        if isinstance(node, dict):
            return {k: strip(v) for k, v in node.items()}
        return node
    return strip(raw)


def validate(model: type[Model], raw: Any, label: str, problems: list[str]) -> Any:
    """Validate raw data against a model; every error becomes one 'file: path: msg' line.

    After errors the offending parts are pruned and the rest validated again,
    so that the cross-file checks can still report their own problems.
    """
    if raw is None:
        return None
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
        for err in errors:
            problems.append(f"{label}: {_loc(err['loc'], raw)}: {err['msg']}")
    pruned = _prune(raw, errors)
    try:
        return model.model_validate(pruned) if pruned is not None else None
    except ValidationError:
        return None


def _canonical(obj: Any) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True,
                      default=str).encode()


def load_game(root: Path | str) -> GameData:
    """Load and check a game data directory; raise GameDataError listing every problem."""
    from .datacheck import check_game  # cross-file checks live beside the models

    root = Path(root)
    problems: list[str] = []
    if not root.is_dir():
        raise UsageError(f"{root}: not a directory")
    raw_info = read_yaml(root / "game.yaml", problems)
    info = validate(GameInfo, raw_info, "game.yaml", problems)
    files = info.files if info else GameFiles()
    raws: dict[str, Any] = {}
    for key, model in (("map", MapData), ("units", UnitsData), ("deck", DeckData),
                       ("charts", Charts), ("events", EventsData)):
        name = getattr(files, key)
        raws[key] = read_yaml(root / name, problems, name)
        raws[key + "_model"] = validate(model, raws[key], name, problems)
    scenarios: dict[str, Scenario] = {}
    raw_scen: dict[str, Any] = {}
    for sid, rel in (info.scenarios.items() if info else ()):
        raw = read_yaml(root / rel, problems, rel)
        raw_scen[sid] = raw
        sc = validate(Scenario, raw, rel, problems)
        if sc is not None:
            scenarios[sid] = sc
    models = [raws[k + "_model"] for k in ("map", "units", "deck", "charts", "events")]
    if info is None or any(m is None for m in models):
        raise GameDataError(problems)
    digest = hashlib.sha256(_canonical(
        {"game": raw_info, **{k: raws[k] for k in ("map", "units", "deck", "charts", "events")},
         "scenarios": raw_scen})).hexdigest()
    data = GameData(root, info, *models, scenarios=scenarios, digest=digest)
    problems.extend(check_game(data))
    for sid, rel in info.scenarios.items():
        if sid in scenarios:
            problems.extend(check_scenario_quiet(data, scenarios[sid], rel))
    if problems:
        raise GameDataError(problems)
    return data


def check_scenario_quiet(data: GameData, scenario: Scenario, label: str) -> list[str]:
    """Every problem of one scenario against the game data, as lines."""
    from .datacheck import check_scenario

    return [f"{label}: {p}" for p in check_scenario(data, scenario)]


def load_scenario_file(path: Path | str, data: GameData) -> tuple[Scenario, dict]:
    """Load a custom scenario file (a what-if position); GameDataError lists its problems."""
    path = Path(path)
    problems: list[str] = []
    raw = read_yaml(path, problems, str(path))
    sc = validate(Scenario, raw, str(path), problems)
    if sc is not None:
        problems.extend(check_scenario_quiet(data, sc, str(path)))
    if problems:
        raise GameDataError(problems)
    return sc, raw
