"""The models of deck.yaml: the card types and what the engine does with them (9.x)."""

from typing import Annotated, Any, Literal

from msgspec import Meta

from .modelbase import Count, Model, Turn, Version, Vp, Year


class CrisisEntry(Model):
    year: Year
    name: str
    remove: dict[str, Any]
    removes_card_from_play: bool = False


class CardBonus(Model):
    """The extra dice a special Offensive adds to its Battle Areas (9.1.3-9.1.6)."""

    army_nation: str                       # a nation whose Army must be in the Battle Area
    battle_areas: Annotated[int, Meta(ge=1, le=9)]
    dice: Annotated[int, Meta(ge=1, le=9)]
    firepower: Annotated[int, Meta(ge=1, le=6)]
    fires_as: str                          # the unit type the dice fire as (units.yaml)
    phases: list[Literal["artillery", "offensive"]]
    hits_force_retreat: bool = False


class CardType(Model):
    key: str
    title: str
    rule: str
    count: Annotated[int, Meta(ge=1, le=99)]
    ids: list[str]
    type: Literal["offensive", "ersatz", "combat", "bad_weather", "movement", "crisis"]
    offensive: bool
    event_side: str | None = None          # "any" or a side (units.yaml sides)
    other_side_plays_as: str | None = None
    from_turn: Turn | None = None
    from_label: str | None = None
    before_that: str | None = None
    not_with: list[str] = []
    cancelled_by: list[str] = []
    not_on_turns: list[Turn] = []
    bad_weather: str | None = None
    ersatz: Annotated[int, Meta(ge=1, le=3)]
    ersatz_use: str = "any"                # "any" or a side
    crises: list[CrisisEntry] = []
    unit_kinds: list[str] = []             # a crisis entry's kinds when it names none (9.8)
    unpaid_vp: Vp | None = None
    removed_in_scenarios: list[str] = []
    bonus: CardBonus | None = None
    notes: str = ""                        # when it is played and what it does, in words


class DeckData(Model):
    version: Version
    total: Count
    offensive_type_total: Count
    cards: list[CardType]
    notes: list[str] = []
