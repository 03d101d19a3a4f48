"""docs/scripting.md names every key of the JSON a script reads: each field of the contract
class behind a shape is named, as `key`, where the guide says what that shape holds (an
output key no one documented is one a script cannot rely on, nor tell from a mistake)."""

from __future__ import annotations

import re
from pathlib import Path

import msgspec
import pytest

from referee.contracts.results import OrderResult, ReportView, ReportVp
from referee.contracts.skirmish import SkirmishOrderResult, SkirmishOrders
from referee.contracts.views import (
    DeadlineDue,
    Deadlines,
    GameResult,
    StatusView,
)

GUIDE = Path(__file__).resolve().parent.parent / "docs" / "scripting.md"


def _row(command: str) -> str:
    """The line of the JSON outputs table whose first cell starts with `command`."""
    rows = [line for line in GUIDE.read_text().splitlines()
            if line.startswith(f"| `{command}`")]
    assert len(rows) == 1, command
    return rows[0]


def _between(start: str, end: str) -> str:
    text = GUIDE.read_text()
    return text[text.index(start):text.index(end, text.index(start))]


def _keys(cls) -> set[str]:
    return {f.encode_name for f in msgspec.structs.fields(cls)} - {"schema_version"}


@pytest.mark.parametrize("cls, where", [
    (StatusView, lambda: _between("- `status --format json`:", "- `show --format json`:")),
    (ReportView, lambda: _row("report")),
    (ReportVp, lambda: _row("report")),
    (GameResult, lambda: _between("`game_over` and `result` (", "`armistice` (the")),
    (OrderResult, lambda: _row("order")),
    (Deadlines, lambda: _row("deadline")),
    (DeadlineDue, lambda: _row("deadline")),
    (SkirmishOrderResult, lambda: _row("skirmish order")),
    (SkirmishOrders, lambda: _between("`order` a `skirmish-orders`", "`verify`")),
], ids=lambda x: getattr(x, "__name__", ""))
def test_every_key_of_the_shape_is_named_where_the_guide_tells_it(cls, where):
    told = set(re.findall(r"`([a-z_]+)`", where()))
    assert _keys(cls) - told == set()
