"""The models of map.yaml: areas, forts, impassable regions and off-map boxes.

The fast msgspec twin of referee/contracts/mapmodels.py."""

# Generated from referee/contracts/mapmodels.py (make schemas): edit that, not this.
# ruff: noqa: E501

from typing import Annotated, Literal

import msgspec

from .modelbase import Model

__all__ = ['FortSpec', 'Area', 'Impassable', 'Box', 'CountryName', 'MapData']


class FortSpec(Model, frozen=True, forbid_unknown_fields=True, kw_only=True):
    id: str
    name: str
    nation: Annotated[str, msgspec.Meta(pattern='^[a-z][a-z0-9_]{0,31}$')]
    strength: Annotated[int, msgspec.Meta(ge=0, le=8)]


class Area(Model, frozen=True, forbid_unknown_fields=True, kw_only=True):
    id: str
    name: str
    aliases: list[str] = []
    kind: Literal['front', 'sea_only']
    country: Annotated[str, msgspec.Meta(pattern='^[a-z][a-z0-9_]{0,31}$')]
    vp: Annotated[int, msgspec.Meta(ge=0, le=99)]
    terrain: Literal['clear', 'rough']
    coastal: bool
    supply_source: Annotated[str, msgspec.Meta(pattern='^[a-z][a-z0-9_]{0,31}$')] | None = None
    conditional_supply_source: Annotated[str, msgspec.Meta(pattern='^[a-z][a-z0-9_]{0,31}$')] | None = None
    always_supplied: bool = False
    enemy_may_enter: bool = True
    fort: FortSpec | None = None
    neighbours: list[str]
    borders: list[str] = []
    at: tuple[Annotated[float, msgspec.Meta(ge=-90, le=90)], Annotated[float, msgspec.Meta(ge=-180, le=180)]] | None = None
    covers: str = ''


class Impassable(Model, frozen=True, forbid_unknown_fields=True, kw_only=True):
    id: str
    name: str
    kind: Literal['neutral_country', 'sea']
    touches: list[str] = []


class Box(Model, frozen=True, forbid_unknown_fields=True, kw_only=True):
    id: str
    name: str
    owner: Annotated[str, msgspec.Meta(pattern='^[a-z][a-z0-9_]{0,31}$')]
    rules: str = ''
    access_note: str = ''
    losses_not_when_linked_with: str | None = None


class CountryName(Model, frozen=True, forbid_unknown_fields=True, kw_only=True):
    id: Annotated[str, msgspec.Meta(pattern='^[a-z][a-z0-9_]{0,31}$')]
    name: str


class MapData(Model, frozen=True, forbid_unknown_fields=True, kw_only=True):
    version: Annotated[int, msgspec.Meta(ge=1, le=999)]
    provenance: str
    countries: list[Annotated[str, msgspec.Meta(pattern='^[a-z][a-z0-9_]{0,31}$')]] = []
    country_names: list[CountryName] = []
    areas: list[Area]
    impassable: list[Impassable] = []
    boxes: list[Box] = []
