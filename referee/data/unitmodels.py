"""The models of units.yaml: sides, nations, the counter mix and the unit types.

The fast msgspec twin of referee/contracts/unitmodels.py."""

# Generated from referee/contracts/unitmodels.py (make schemas): edit that, not this.
# ruff: noqa: E501

from typing import Annotated, Literal

import msgspec

from .modelbase import Model
from .unitmethods import UnitsMethods, UnitTypeMethods

__all__ = [
    'Nation',
    'CommonwealthUnit',
    'MaterielSuperiority',
    'UnitType',
    'SideColours',
    'UnitsData',
    'FIRE_KEYS',
]

FIRE_KEYS = ('offense', 'defense', 'defense_entrenched', 'raiding', 'pursuit', 'dogfight', 'offense_vs_fort', 'in_rough', 'poison_gas', 'advanced_artillery_barrage')


class Nation(Model, frozen=True, forbid_unknown_fields=True, kw_only=True):
    name: str
    side: Annotated[str, msgspec.Meta(pattern='^[a-z][a-z0-9_]{0,31}$')]
    home_country: Annotated[str, msgspec.Meta(pattern='^[a-z][a-z0-9_]{0,31}$')]
    rebuild_area: str | None = None
    modern: bool = True
    stosstruppen_upgrade: bool = False
    evacuation_area: str | None = None
    reinforcements_in: Annotated[str, msgspec.Meta(pattern='^[a-z][a-z0-9_]{0,31}$')] | None = None
    infantry_in_any_army: bool = False


class CommonwealthUnit(Model, frozen=True, forbid_unknown_fields=True, kw_only=True):
    id: str
    name: str


class MaterielSuperiority(Model, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """An optional rule raising some nations' defensive fire of a unit type (8.3.2)."""

    option: str
    nations: list[Annotated[str, msgspec.Meta(pattern='^[a-z][a-z0-9_]{0,31}$')]]
    fire: dict[str, Annotated[str, msgspec.Meta(pattern='^F[1-6]$')] | None]
    from_turn: Annotated[int, msgspec.Meta(ge=1, le=99)]


class UnitType(
    UnitTypeMethods,
    Model,
    frozen=True,
    forbid_unknown_fields=True,
    dict=True,
    kw_only=True,
):
    class_: Literal['army', 'infantry', 'auxiliary', 'fort'] = msgspec.field(name='class')
    code: Annotated[str, msgspec.Meta(pattern='^[A-Z]{1,3}$')] | None = None
    nations: list[Annotated[str, msgspec.Meta(pattern='^[a-z][a-z0-9_]{0,31}$')]] = []
    move: Annotated[int, msgspec.Meta(ge=0, le=9)] = 0
    cost_bp: Annotated[int, msgspec.Meta(ge=0, le=999)] | None = None
    fire: dict[str, Annotated[str, msgspec.Meta(pattern='^F[1-6]$')] | None] | None = None
    materiel_superiority: MaterielSuperiority | None = None
    entrench: bool = False
    holds_area: bool = True
    never_retreats: bool = False
    never_a_loss: bool = False
    forced_retreat_on_hit: bool = False
    retreat_before_combat: bool = False
    fires_in_artillery_step: bool = False
    aircraft: bool = False
    alone_lost_to: Literal['enemy_infantry', 'enemy_units'] | None = None
    rebuilt_only_after_swap: bool = False
    max_per_army: Annotated[int, msgspec.Meta(ge=0, le=999)] | None = None
    stacking: bool = True
    counter_years_from: Annotated[int, msgspec.Meta(ge=1900, le=1999)] | None = None
    rule: str
    notes: str = ''


class SideColours(Model, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """How a side is drawn on the map: the fill of its areas and the ink of its units."""

    fill: Annotated[str, msgspec.Meta(pattern='^#[0-9a-fA-F]{6}$')]
    ink: Annotated[str, msgspec.Meta(pattern='^#[0-9a-fA-F]{6}$')]
    forum: Annotated[str, msgspec.Meta(pattern='^#[0-9a-fA-F]{6}$')] | None = None


class UnitsData(
    UnitsMethods,
    Model,
    frozen=True,
    forbid_unknown_fields=True,
    dict=True,
    kw_only=True,
):
    version: Annotated[int, msgspec.Meta(ge=1, le=999)]
    sides: dict[Annotated[str, msgspec.Meta(pattern='^[a-z][a-z0-9_]{0,31}$')], list[Annotated[str, msgspec.Meta(pattern='^[a-z][a-z0-9_]{0,31}$')]]]
    side_order: list[Annotated[str, msgspec.Meta(pattern='^[a-z][a-z0-9_]{0,31}$')]]
    side_colours: dict[Annotated[str, msgspec.Meta(pattern='^[a-z][a-z0-9_]{0,31}$')], SideColours] = {}
    nations: dict[Annotated[str, msgspec.Meta(pattern='^[a-z][a-z0-9_]{0,31}$')], Nation]
    counter_mix: dict[str, dict[Annotated[str, msgspec.Meta(pattern='^[a-z][a-z0-9_]{0,31}$')], Annotated[int, msgspec.Meta(ge=0, le=999)]] | str]
    commonwealth_units: list[CommonwealthUnit] = []
    biplane_counter_years: dict[Annotated[str, msgspec.Meta(pattern='^[a-z][a-z0-9_]{0,31}$')], list[Annotated[int, msgspec.Meta(ge=1900, le=1999)]]] = {}
    stacking_limit: Annotated[int, msgspec.Meta(ge=1, le=99)] = 3
    roll_order: list[Annotated[str, msgspec.Meta(pattern='^[a-z][a-z0-9_]{0,31}$')]]
    unit_types: dict[Annotated[str, msgspec.Meta(pattern='^[a-z][a-z0-9_]{0,31}$')], UnitType]
