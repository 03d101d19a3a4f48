"""The models of map.yaml: areas, forts, impassable regions and off-map boxes."""

from typing import Annotated, Literal

from msgspec import Meta

from .modelbase import Country, Latitude, Longitude, Model, NationId, Side, Version


class FortSpec(Model):
    id: str
    name: str
    nation: NationId
    strength: Annotated[int, Meta(ge=0, le=8)]


class Area(Model):
    id: str
    name: str
    aliases: list[str] = []
    kind: Literal["front", "sea_only"]
    country: Country
    vp: Annotated[int, Meta(ge=0, le=99)]
    terrain: Literal["clear", "rough"]
    coastal: bool
    supply_source: Side | None = None
    conditional_supply_source: Side | None = None
    always_supplied: bool = False
    enemy_may_enter: bool = True
    fort: FortSpec | None = None
    neighbours: list[str]
    borders: list[str] = []
    at: tuple[Latitude, Longitude] | None = None
    covers: str = ""


class Impassable(Model):
    id: str
    name: str
    kind: Literal["neutral_country", "sea"]
    touches: list[str] = []


class Box(Model):
    id: str
    name: str
    owner: Side
    rules: str = ""
    access_note: str = ""
    # TTLM 2.0 V.4: the box's loss roll is not made when the game is linked with this game.
    losses_not_when_linked_with: str | None = None


class CountryName(Model):
    id: Country
    name: str


class MapData(Model):
    version: Version
    provenance: str
    countries: list[Country] = []       # countries of the map besides the nations' home countries
    # What the board of a report heads each country's areas with, in the order it lists them.
    country_names: list[CountryName] = []
    areas: list[Area]
    impassable: list[Impassable] = []
    boxes: list[Box] = []
