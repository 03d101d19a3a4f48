"""Where each side's standing orders are kept between his records, and how they change.

The current set of each side sits beside the journal in one sealed file
(JOURNAL.standing, mode 0600, like the dice secret): the referee applies what
it holds the moment a decision comes up, whoever's record raises it. It joins
the journal as a secret part (`standing`, for that side's eyes) of every
record the side itself makes -- every one, with or without standing orders,
so that neither the part nor its digest tells the opponent whether any exist
or when they changed. A standing order used is public anyway: the record that
applies it holds a StandingApplied event naming it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from .engine import standing as rules
from .errors import UsageError
from .gamedata import GameData


def store_path(journal: Path | str) -> Path:
    """The sealed file beside the journal that holds both sides' standing orders."""
    p = Path(journal)
    return p.with_name(p.name + ".standing")


def load(journal: Path | str) -> dict[str, list[dict]]:
    """Both sides' standing orders as kept now ({} when none were ever given)."""
    path = store_path(journal)
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        raise UsageError(f"cannot read the standing orders in {path}: {exc}") from None
    if not isinstance(raw, dict):
        raise UsageError(f"{path} does not hold standing orders")
    return {side: [{"text": str(e["text"]), "turn": e.get("turn")} for e in entries]
            for side, entries in raw.items()}


def save(journal: Path | str, sets: dict[str, list[dict]]) -> None:
    """Write both sides' standing orders, readable by this user only."""
    path = store_path(journal)
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(sets, f, sort_keys=True, indent=1)
    os.replace(tmp, path)


def current(sets: dict[str, list[dict]], side: str, turn: int) -> list[dict]:
    """Side's standing orders still in force on turn (those for an earlier turn are gone)."""
    return rules.in_force(sets.get(side, []), turn)


def change(journal: Path | str, side: str, data: GameData, turn: int,
           add: list[str] = (), withdraw: list[str] = ()) -> list[dict]:
    """Add and withdraw standing orders of side; returns his set in force. OrderSyntaxError
    for a phrase outside the vocabulary, UsageError for withdrawing one he has not given."""
    sets = load(journal)
    mine = current(sets, side, turn)
    for text in withdraw:
        entry = rules.parse_standing(text, data, turn)
        if not any(e["text"] == entry["text"] for e in mine):
            raise UsageError(f"'{text}' is not one of the {side} player's standing orders "
                             f"({', '.join(rules.describe(e) for e in mine) or 'none'})")
        mine = rules.withdraw(mine, entry)
    for text in add:
        mine = rules.add(mine, rules.parse_standing(text, data, turn))
    sets[side] = mine
    save(journal, sets)
    return mine


def part(sets: dict[str, list[dict]], side: str, turn: int, salt: str) -> dict:
    """The secret part every record of side carries: his whole set of standing orders."""
    return {"to": side, "salt": salt, "data": {"orders": current(sets, side, turn)}}
