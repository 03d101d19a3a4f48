"""How a campaign ends, as data (2.0 VI, 3.0-3.3): the reason each kind of ending records in
its GameEnded event, written here and read back here, so that what a view says of an ending
(its kind, its rule, the side that won, the side whose order ended it) comes from the very
words the engine writes, in every journal since the first (the words have not changed).

The kinds of ending, all the rules give and the engine makes:
- `decisive_victory`: a level the Victory Chart ends the game on, reached at the check made
  after each decision (3.2: the game ends once a Decisive Victory is reached; AT ALL COSTS!
  names none, charts.yaml `game_ends_on`);
- `armistice`: one side's proposal accepted by the other, at the level the VP give (3.2);
- `surrender`: a side resigns, not while winning; the level counts one worse for him (3.3);
- `last_turn`: the last seasonal turn played, at the level the VP give (2.0 VI, 3.1).
"""

from __future__ import annotations

from typing import Any

from ..base.lazyre import LazyPattern
from ..data.gamedata import GameData

ENDINGS = ("decisive_victory", "armistice", "surrender", "last_turn")

# The rule each kind ends the game under.
RULES = {"decisive_victory": "3.2", "armistice": "3.2", "surrender": "3.3",
         "last_turn": "2.0 VI"}


def reached_reason(level_name: str) -> str:
    """A level that ends the game reached at a check (3.2)."""
    return f"{level_name} reached (3.2)"


def armistice_reason(proposer: str) -> str:
    """The proposer's armistice accepted by the other side (3.2)."""
    return f"armistice proposed by the {proposer} player and accepted (3.2)"


def surrender_reason(side: str) -> str:
    """A side resigns (3.3)."""
    return f"the {side} player surrenders: the level counts one worse for him (3.3)"


def last_turn_reason(label: str) -> str:
    """The last seasonal turn is over (2.0 VI)."""
    return f"the last seasonal turn ({label}) has been played (2.0 VI)"


_SIDE = r"([a-z][a-z_]*)"
# Each with the words its reason ends with, which only that kind's do: a reason is matched
# against the one pattern whose ending it has, and each is compiled at its first such use
# (a game in play is never read for its ending).
_READ = (
    ("surrender", "(3.3)", LazyPattern(rf"the {_SIDE} player surrenders: .*\(3\.3\)")),
    ("armistice", " accepted (3.2)",
     LazyPattern(rf"armistice proposed by the {_SIDE} player and accepted \(3\.2\)")),
    ("decisive_victory", " reached (3.2)", LazyPattern(r".+ reached \(3\.2\)")),
    ("last_turn", " played (2.0 VI)",
     LazyPattern(r"the last seasonal turn \(.*\) has been played \(2\.0 VI\)")),
)


def ending_of(reason: object) -> tuple[str | None, str | None]:
    """The kind of ending a GameEnded reason records, and the side it names (who resigned;
    who proposed the armistice); (None, None) for words the engine never wrote."""
    text = str(reason)
    for kind, ending, pattern in _READ:
        m = pattern.fullmatch(text) if text.endswith(ending) else None
        if m:
            return kind, (m.group(1) if m.groups() else None)
    return None, None


def level_winner(level: str | None, data: GameData) -> str | None:
    """The side a level of victory is won by: the half of the Victory Chart it lies in, the
    VP side's above its stalemate, the other's below (3.1); None for the stalemate, a level
    the chart does not have, or none."""
    levels = [lv.id for lv in data.charts.victory.levels]
    if level not in levels:
        return None
    middle = levels.index("stalemate") if "stalemate" in levels else len(levels) // 2
    i = levels.index(level)
    return None if i == middle else \
        data.vp_side if i > middle else data.opponent[data.vp_side]


def game_result(reason: str, vp: int | None, level: str | None, level_name: str | None,
                turn: int, record: int, data: GameData) -> dict[str, Any]:
    """A game's result (contracts.views.GameResult): what its GameEnded event recorded, then
    the kind of ending and its rule, the winner (None: no side wins), the side whose order
    ended it (who resigned, or accepted the other's armistice; None for a level reached or
    the last turn), and the turn and record it ended at."""
    kind, named = ending_of(reason)
    by = named if kind == "surrender" else \
        data.opponent.get(named) if kind == "armistice" and named else None
    turns = data.turns
    return {"reason": reason, "vp": vp, "level": level, "level_name": level_name,
            "ending": kind, "rule": RULES.get(kind) if kind else None,
            "winner": level_winner(level, data), "by": by,
            "turn": turn, "label": turns[turn].label if turn in turns else None,
            "record": record}
