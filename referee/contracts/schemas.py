"""The published JSON Schemas: one per contract a user or a script meets, by a stable name.

`schemas/NAME.json` in the repository are these, derived from the contract
classes and checked in; a test fails when one is stale (`make schemas`
rewrites them). `referee schema NAME` prints one. Each carries `$schema` (JSON
Schema 2020-12) and `$id` (`urn:referee:schema:NAME`, which never changes;
a document's own `schema_version` says which version of it a command wrote).
"""

import json
from functools import cache
from pathlib import Path
from typing import Any

from .chartmodels import Charts
from .deckmodels import DeckData
from .eventmodels import EventsData
from .events import Event
from .gamemodels import GameInfo
from .mailsettings import MailSettings
from .mapmodels import MapData
from .names import portable_pattern
from .orders import Order
from .outputs import OUTPUTS
from .records import JournalHeader, JournalRecord
from .results import InboxResult, OrderResult, PlayersView, ReportView
from .scenariomodels import Scenario
from .secretparts import Roster
from .skirmish import (
    SkirmishAutoplay,
    SkirmishCard,
    SkirmishDice,
    SkirmishExplained,
    SkirmishGame,
    SkirmishHeader,
    SkirmishKeys,
    SkirmishOrderResult,
    SkirmishOrders,
    SkirmishRecord,
    SkirmishReport,
    SkirmishReveal,
    SkirmishRoute,
    SkirmishScenario,
    SkirmishStatus,
)
from .unitmodels import UnitsData
from .validation import core_schema
from .views import StateView, StatusView

DIALECT = "https://json-schema.org/draft/2020-12/schema"

SCHEMAS: dict[str, Any] = {
    "orders": Order,
    "events": Event,
    "journal-header": JournalHeader,
    "journal-record": JournalRecord,
    "state-view": StateView,
    "status-view": StatusView,
    "order-result": OrderResult,
    "report": ReportView,
    "players": PlayersView,
    "roster": Roster,
    "mail-settings": MailSettings,
    "inbox-result": InboxResult,
    "game": GameInfo,
    "map": MapData,
    "units": UnitsData,
    "deck": DeckData,
    "charts": Charts,
    "game-events": EventsData,
    "scenario": Scenario,
    "skirmish-game": SkirmishGame,
    "skirmish-card": SkirmishCard,
    "skirmish-scenario": SkirmishScenario,
    "skirmish-journal-header": SkirmishHeader,
    "skirmish-journal-record": SkirmishRecord,
    "skirmish-journal-reveal": SkirmishReveal,
    "skirmish-journal-route": SkirmishRoute,
    "skirmish-report": SkirmishReport,
    "skirmish-order-result": SkirmishOrderResult,
    "skirmish-keys": SkirmishKeys,
    "skirmish-orders": SkirmishOrders,
    "skirmish-status": SkirmishStatus,
    "skirmish-explained": SkirmishExplained,
    "skirmish-dice": SkirmishDice,
    "skirmish-autoplay": SkirmishAutoplay,
    **OUTPUTS,
}


def schema_id(name: str) -> str:
    """The stable `$id` of the schema called name."""
    return f"urn:referee:schema:{name}"


def schema(name: str) -> dict:
    """The JSON Schema called name."""
    body = _generator()(by_alias=True).generate(core_schema(SCHEMAS[name]))
    return {"$schema": DIALECT, "$id": schema_id(name), "title": body.pop("title", name),
            **body}


@cache
def _generator() -> type:
    """Pydantic's JSON Schema generator, writing a default that is a contract as its JSON."""
    import msgspec
    from pydantic.json_schema import GenerateJsonSchema  # start-up: only schemas need it

    class Generator(GenerateJsonSchema):
        def encode_default(self, dft: Any) -> Any:
            return super().encode_default(msgspec.to_builtins(dft))

        def str_schema(self, schema: Any) -> dict:
            out = super().str_schema(schema)
            if "pattern" in out:
                out["pattern"] = portable_pattern(out["pattern"])
            return out

    return Generator


def schema_text(name: str) -> str:
    """The schema as the text checked in under schemas/NAME.json."""
    return json.dumps(schema(name), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def write_all(folder: str) -> list[str]:
    """Write every schema to folder/NAME.json; returns the names written."""
    out = Path(folder)
    out.mkdir(exist_ok=True)
    for name in SCHEMAS:
        (out / f"{name}.json").write_text(schema_text(name), encoding="utf-8")
    return list(SCHEMAS)
