"""A game of kind skirmish (game.yaml `kind: skirmish`): its game file, card and scenarios
read and validated against their contracts, every problem at once."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic_core import ValidationError

from ...base.errors import GameDataError
from ...contracts.skirmish import SkirmishCard, SkirmishGame, SkirmishScenario
from ...contracts.validation import validator
from ...data.dataload import read_yaml


@dataclass
class SkirmishData:
    """A validated skirmish game: its game file, its card and its scenarios."""

    root: Path
    info: SkirmishGame
    card: SkirmishCard
    scenarios: dict[str, SkirmishScenario]
    digest: str
    documents: dict[str, Any] = field(default_factory=dict)

    @property
    def sides(self) -> tuple[str, ...]:
        """The sides of the first scenario (every scenario names its two)."""
        first = next(iter(self.scenarios.values()), None)
        return tuple(first.sides) if first else ()


def _validated(model: type, raw: Any, label: str, problems: list[str]) -> Any:
    """raw as a model, or None with one problem line per error."""
    if raw is None:
        return None
    try:
        return validator(model).validate_json(json.dumps(raw))
    except ValidationError as exc:
        for e in exc.errors(include_url=False):
            where = ".".join(str(p) for p in e["loc"]) or "top"
            problems.append(f"{label}: {e['msg']} (at {where})")
        return None


def _scenario_problems(sc: SkirmishScenario, data_weapons: set[str], label: str) -> list[str]:
    """A scenario's cross-checks: its sides' forces, known weapons, unique figure ids."""
    out = []
    if set(sc.forces) != set(sc.sides) or sc.first not in sc.sides:
        out.append(f"{label}: forces and first must name the scenario's two sides")
    seen: set[str] = set()
    for force in sc.forces.values():
        figures = [f for s in force.sections for f in s.figures]
        figures += [force.platoon_commander] if force.platoon_commander else []
        ids = [s.id for s in force.sections] + [f.id for f in figures]
        for i in ids:
            if i.casefold() in seen:
                out.append(f"{label}: the id {i} is used twice")
            seen.add(i.casefold())
        out += [f"{label}: figure {f.id}: unknown weapon {f.weapon!r}"
                for f in figures if f.weapon not in data_weapons]
        pc = force.platoon_commander
        if pc is not None and pc.quality is None:
            out.append(f"{label}: platoon commander {pc.id}: a quality is needed")
    return out


def load_skirmish(root: Path | str) -> SkirmishData:
    """A skirmish game read from its folder (GameDataError lists every problem)."""
    root = Path(root)
    problems: list[str] = []
    docs: dict[str, Any] = {"game.yaml": read_yaml(root / "game.yaml", problems)}
    info = _validated(SkirmishGame, docs["game.yaml"], "game.yaml", problems)
    card = None
    if info is not None:
        docs[info.files.card] = read_yaml(root / info.files.card, problems)
        card = _validated(SkirmishCard, docs[info.files.card], info.files.card, problems)
    scenarios: dict[str, SkirmishScenario] = {}
    for sid, rel in (info.scenarios if info else {}).items():
        docs[rel] = read_yaml(root / rel, problems)
        sc = _validated(SkirmishScenario, docs[rel], rel, problems)
        if sc is not None and card is not None:
            problems += _scenario_problems(sc, set(card.weapons.kinds), rel)
            scenarios[sid] = sc
    if problems:
        raise GameDataError(problems)
    digest = hashlib.sha256(json.dumps(docs, sort_keys=True).encode()).hexdigest()
    return SkirmishData(root, info, card, scenarios, digest, docs)
