"""Army templates: what an army may hold, and when units may join it (1.4, 8.1, 8.3.2, 8.3.4)."""

from __future__ import annotations

from collections import Counter

from ..base.lazyre import LazyPattern
from ..base.plurals import a_or_an
from ..data.datacheck import army_limits_problems
from ..data.gamedata import GameData
from .core import Violation
from .state import Army, State

_RULE = LazyPattern(r"\(([\d.]+)\)$")


def hidden_templates(s: State) -> bool:
    """Whether army templates are hidden from the opponent (optional rule 1.4)."""
    return bool(s.options.get("hidden_templates"))


def template_violation(s: State, d: GameData, army: Army, contents: dict[str, int]):
    """Why an army may not hold these contents (nationality, template, artillery, biplanes).

    Kept until the next event for each army and contents (in their order, which decides the
    problem named first): the legal moves of a position ask again for every path that
    ends where the army stands and for every set of units it could take in with the same
    kinds."""
    held = tuple((k, n) for k, n in contents.items() if n)
    key = ("template", army.id, army.nation, s.turn, held)
    cache = s._cache
    if key not in cache:
        cache[key] = _template_violation(s, d, army, held)
    return cache[key]


def _template_violation(s: State, d: GameData, army: Army, held: tuple[tuple[str, int], ...]):
    c = Counter({tuple(k.split(":")): n for k, n in held})
    problems = army_limits_problems(d, army.nation, c, d.year(s.turn))
    if not problems:
        return None
    text = problems[0]
    m = _RULE.search(text)
    rule = m.group(1) if m else "1.4"
    return Violation(rule, f"army {army.id} cannot hold that: {_RULE.sub('', text).strip()}")


def marked(s: State, d: GameData, ref: str) -> bool:
    """Whether a unit carries an OoS marker that keeps it from receiving reinforcements and
    new units (6.5): only where the marker stays until the unit is resupplied (AAC 1.2.3)."""
    return d.info.rules.oos_markers_persist and ref in s.oos


def join_violation(s: State, d: GameData, side: str, area: str, army: str, units: list[str],
                   rule: str, what: str) -> Violation | None:
    """Why units (keys like 'fr:infantry') may not join an army in area outside movement: not
    side's army there (rule), an OoS marker on it (AAC 1.2.3, 6.5), or its template (1.4, 8.1).

    `what` names the units in the marker's reason: "reinforcement" (2.0 I),
    "newly built unit" (7.2).
    """
    t = s.armies.get(army)
    if t is None or t.status != "map" or t.area != area or d.nation_side[t.nation] != side:
        return Violation(rule, f"{army} is not {a_or_an(d.side_name(side))} army in "
                                     f"{d.areas[area].name}")
    if marked(s, d, army):
        return Violation("AAC 1.2.3", f"army {army} in {d.areas[area].name} carries an Out of "
                                      f"Supply marker: it receives no {what} until a Check "
                                      f"Supply Status phase finds it in supply (6.5)")
    contents = Counter(t.contents)
    for unit in units:
        contents[unit] += 1
    return template_violation(s, d, t, dict(contents))
