"""A game: replay the journal, submit orders, create, upgrade and reveal, verify and audit.

The names below are the layer's public face, for the layers above it (render, mail, cli)
and for scripts: `from referee import game; game.open_game(path)`. Each is imported from
its module the first time it is asked for, so a command that never replays a journal
(a signed view answers it) pays for none of them.
"""

from __future__ import annotations

import importlib
from typing import Any

PUBLIC: dict[str, str] = {
    # replay.py: reading a game
    "Game": "replay", "Position": "replay", "Era": "replay", "open_game": "replay",
    "position": "replay", "apply_record": "replay", "body": "replay",
    "order_text": "replay", "check_actor": "replay", "check_current": "replay",
    "data_for": "replay", "scenario_of": "replay", "start_state": "replay",
    "PRIVATE": "replay", "SEALED_PLAN": "replay", "REVEAL": "replay", "UPGRADE": "replay",
    # batch.py: one side's batch of orders
    "submit": "batch", "Submission": "batch", "Applied": "batch", "AlreadyApplied": "batch",
    # lifecycle.py: new, upgrade, reveal
    "create_game": "lifecycle", "upgrade": "lifecycle", "reveal": "lifecycle",
    "register_sheets": "lifecycle", "rekey": "lifecycle",
    # verification.py
    "verify": "verification", "Verification": "verification",
    # receipts.py: the receipt a report ends with, and verify --receipt
    "receipt_line": "receipts", "check_receipts": "receipts", "key_line": "receipts",
    "receipt_key": "receipts",
    # ahead.py: what a side is asked after the decision now, up to the other side or a die
    "ahead": "ahead", "next_for": "ahead",
    # below this layer, named here for the layers above
    "game_data": "..data.catalog", "game_names": "..data.catalog",
    "kind_of": "..data.catalog", "skirmish_data": "..data.catalog",
    "any_game_data": "..data.catalog",
    "check_game_name": "..data.catalog", "parse_options": "..data.catalog",
    "load_secret": "..store.secrets", "Journal": "..store.journal",
}


def __getattr__(name: str) -> Any:
    where = PUBLIC.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = importlib.import_module(where if where.startswith(".") else "." + where, __name__)
    value = getattr(module, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(PUBLIC)
