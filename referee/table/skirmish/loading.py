"""A game of kind skirmish (game.yaml `kind: skirmish`): its game file, card and scenarios
read and validated against their contracts, every problem at once."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...base.errors import GameDataError
from ...contracts.skirmish import SkirmishCard, SkirmishGame, SkirmishScenario
from ...contracts.validation import engine, validator
from ...data.dataload import placed, read_yaml, validate
from ...data.problems import DataProblem, named
from ...data.textcheck import text_problems

ValidationError = engine().ValidationError     # pydantic-core's, loaded alone


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


# A scenario's size: far above a skirmish's (a platoon a side), far below what would make
# the journal's first line, which holds the forces whole, too long to read.
MOST_FIGURES = 400
# Names of readers and actors the referee keeps: no side may take one.
KEPT_NAMES = frozenset({"moderator", "referee", "public", "observer", "all", "everyone"})


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
    """A scenario's cross-checks: its sides' forces, known weapons, unique figure ids; each
    problem at the place in the file it is about."""
    out = []
    count = sum(len(s.figures) for f in sc.forces.values() for s in f.sections)
    if count > MOST_FIGURES:
        out.append(DataProblem(label, ("forces",), f"{count} figures: a skirmish takes "
                                                   f"{MOST_FIGURES} at most"))
    out += [DataProblem(label, ("sides",), f"{side!r} is a name the referee keeps for a "
                                           f"reader; name the side otherwise")
            for side in sc.sides if side.casefold() in KEPT_NAMES]
    if set(sc.forces) != set(sc.sides):
        out.append(DataProblem(label, ("forces",), "the forces must be those of the two "
                                                   f"sides ({', '.join(sc.sides)})"))
    if sc.first not in sc.sides:
        out.append(DataProblem(label, ("first",), f"{sc.first!r} is not one of the sides "
                                                  f"({', '.join(sc.sides)})"))
    out += [DataProblem(label, (key, n), why) for key, n, why in side_list_problems(sc)]
    seen: set[str] = set()
    for side, force in sc.forces.items():
        at = ("forces", side)
        figures = [(("sections", named(n, s.id), "figures", named(k, f.id)), f)
                   for n, s in enumerate(force.sections) for k, f in enumerate(s.figures)]
        pc = force.platoon_commander
        figures += [(("platoon_commander",), pc)] if pc else []
        ids = [(("sections", named(n, s.id), "id"), s.id)
               for n, s in enumerate(force.sections)]
        for where, i in ids + [((*w, "id"), f.id) for w, f in figures]:
            if i.casefold() in seen:
                out.append(DataProblem(label, (*at, *where), f"the id {i} is used twice"))
            seen.add(i.casefold())
        out += [DataProblem(label, (*at, *w, "weapon"), f"figure {f.id}: unknown weapon "
                            f"{f.weapon!r} (the card's are {', '.join(sorted(data_weapons))})")
                for w, f in figures if f.weapon not in data_weapons]
        if pc is not None and pc.quality is None:
            out.append(DataProblem(label, (*at, "platoon_commander"),
                                   f"platoon commander {pc.id}: a quality is needed"))
    return out


SIDE_LISTS = ("off_table_artillery", "british_1914")


def side_list_problems(sc: SkirmishScenario) -> list[tuple[str, int, str]]:
    """Each side a list of the scenario's sides (off_table_artillery, british_1914) names
    that is not one of its sides, or is named again (the field, its position, why), so that
    no artillery, nor a 1914 British side, is read as none."""
    out = []
    for key in SIDE_LISTS:
        named = getattr(sc, key) or []
        for n, side in enumerate(named):
            if side not in sc.sides or side in named[:n]:
                why = "is named twice" if side in sc.sides else "is not one of the sides"
                out.append((key, n, f"{side!r} {why} ({', '.join(sc.sides)})"))
    return out


def card_problems(card: SkirmishCard, label: str) -> list[str]:
    """The card's cross-checks: its fire steps (when it has them) name every quality once,
    so that no figure waits for a step that never comes; its sequence has a phase that
    always waits on the players, neither fire in steps (passed over when no figure is fit)
    nor the off-table artillery (passed over when no side has any), nor a melee the card
    passes over with no figure in contact (melee_passed_over), so that a turn never
    passes over every phase of itself, and the next, without end."""
    out = []
    if not any(p.phase != "artillery" and not (card.fire_steps and "aimed" in p.tests)
               and not (card.melee_passed_over and "melee" in p.tests)
               for p in card.sequence):
        melee = ", or a melee passed over with no figure in contact" \
            if card.melee_passed_over and any("melee" in p.tests for p in card.sequence) else ""
        out.append(f"{label}: sequence: every phase is fire in steps or the off-table "
                   f"artillery{melee}; a turn needs one that always waits on the players "
                   f"(at sequence)")
    if not card.fire_steps:
        return out
    named = [q for step in card.fire_steps for q in step]
    missing = [q for q in card.qualities if q not in named]
    twice = sorted({q for q in named if named.count(q) > 1})
    return out + [f"{label}: fire_steps: {what} ({', '.join(qs)}); each quality fires in "
                  f"one step (at fire_steps)" for what, qs in (("missing", missing),
                                                              ("named twice", twice)) if qs]


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
        problems += card_problems(card, info.files.card) if card is not None else []
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


def load_scenario_file(path: Path | str, data: SkirmishData) -> SkirmishScenario:
    """A group's own forces from a scenario file (`new --scenario FILE.yaml`), checked as the
    game's own scenarios are; GameDataError lists every problem at its file and line."""
    label = str(path)
    problems: list[str] = []
    texts: dict[str, str] = {}
    raw = read_yaml(Path(path), problems, label, texts)
    problems.extend(text_problems(raw, label))
    sc = validate(SkirmishScenario, raw, label, problems)
    if sc is not None:
        problems += _scenario_problems(sc, set(data.card.weapons.kinds), label)
    if problems:
        raise GameDataError(placed(problems, texts))
    return sc
