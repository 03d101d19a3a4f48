"""Army templates: what an army may hold (1.4, 8.1, 8.3.2, 8.3.4)."""

from __future__ import annotations

import re

from ..data.datacheck import army_limits_problems
from ..data.gamedata import GameData
from .core import Violation
from .state import Army, State

_RULE = re.compile(r"\(([\d.]+)\)$")


def hidden_templates(s: State) -> bool:
    """Whether army templates are hidden from the opponent (optional rule 1.4)."""
    return bool(s.options.get("hidden_templates"))


def template_violation(s: State, d: GameData, army: Army, contents: dict[str, int]):
    """Why an army may not hold these contents (nationality, template, artillery, biplanes)."""
    from collections import Counter

    c = Counter({tuple(k.split(":")): n for k, n in contents.items() if n})
    problems = army_limits_problems(d, army.nation, c, d.year(s.turn))
    if not problems:
        return None
    text = problems[0]
    m = _RULE.search(text)
    rule = m.group(1) if m else "1.4"
    return Violation(rule, f"army {army.id} cannot hold that: {_RULE.sub('', text).strip()}")
