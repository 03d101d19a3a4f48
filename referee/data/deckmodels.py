"""The models of deck.yaml: the card types and what the engine does with them (9.x).

The fast msgspec twin of referee/contracts/deckmodels.py."""

# Generated from referee/contracts/deckmodels.py (make schemas): edit that, not this.
# ruff: noqa: E501

from typing import Annotated, Any, Literal

import msgspec

from .modelbase import Model

__all__ = ['CrisisEntry', 'CardBonus', 'CardType', 'DeckData']


class CrisisEntry(Model, frozen=True, forbid_unknown_fields=True, kw_only=True):
    year: Annotated[int, msgspec.Meta(ge=1900, le=1999)]
    name: str
    remove: dict[str, Any]
    removes_card_from_play: bool = False


class CardBonus(Model, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The extra dice a special Offensive adds to its Battle Areas (9.1.3-9.1.6)."""

    army_nation: str
    battle_areas: Annotated[int, msgspec.Meta(ge=1, le=9)]
    dice: Annotated[int, msgspec.Meta(ge=1, le=9)]
    firepower: Annotated[int, msgspec.Meta(ge=1, le=6)]
    fires_as: str
    phases: list[Literal['artillery', 'offensive']]
    hits_force_retreat: bool = False


class CardType(Model, frozen=True, forbid_unknown_fields=True, kw_only=True):
    key: str
    title: str
    rule: str
    count: Annotated[int, msgspec.Meta(ge=1, le=99)]
    ids: list[str]
    type: Literal['offensive', 'ersatz', 'combat', 'bad_weather', 'movement', 'crisis']
    offensive: bool
    event_side: str | None = None
    other_side_plays_as: str | None = None
    from_turn: Annotated[int, msgspec.Meta(ge=1, le=99)] | None = None
    from_label: str | None = None
    before_that: str | None = None
    not_with: list[str] = []
    cancelled_by: list[str] = []
    not_on_turns: list[Annotated[int, msgspec.Meta(ge=1, le=99)]] = []
    bad_weather: str | None = None
    ersatz: Annotated[int, msgspec.Meta(ge=1, le=3)]
    ersatz_use: str = 'any'
    crises: list[CrisisEntry] = []
    unit_kinds: list[str] = []
    unpaid_vp: Annotated[int, msgspec.Meta(ge=-99, le=99)] | None = None
    removed_in_scenarios: list[str] = []
    bonus: CardBonus | None = None
    notes: str = ''


class DeckData(Model, frozen=True, forbid_unknown_fields=True, kw_only=True):
    version: Annotated[int, msgspec.Meta(ge=1, le=999)]
    total: Annotated[int, msgspec.Meta(ge=0, le=999)]
    offensive_type_total: Annotated[int, msgspec.Meta(ge=0, le=999)]
    cards: list[CardType]
    notes: list[str] = []
