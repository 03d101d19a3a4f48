"""The base of the game data models and the bounded names and numbers they share.

Models are frozen and forbid unknown keys, so a misspelt key in a hand-edited file is
reported, not ignored (dataload.py).
"""

from typing import Annotated, Literal

from msgspec import Meta

from .base import Contract

# Sides, nations, unit kinds and countries are named by the game's own files (units.yaml
# `sides`, `nations` and `unit_types`; map.yaml `countries` and the nations' `home_country`):
# here any short lower-case name, and namecheck reports every one the game does not declare.
Ident = Annotated[str, Meta(pattern=r"^[a-z][a-z0-9_]{0,31}\Z")]
Side = Ident
NationId = Ident
UnitKind = Ident
Country = Ident
Season = Literal["SUMMER", "AUTUMN", "WINTER", "SPRING"]


# Bounded numbers: a hand-edited file with a negative or absurd value is reported, not played.
Count = Annotated[int, Meta(ge=0, le=999)]
Turn = Annotated[int, Meta(ge=1, le=99)]
Year = Annotated[int, Meta(ge=1900, le=1999)]
Vp = Annotated[int, Meta(ge=-99, le=99)]
Version = Annotated[int, Meta(ge=1, le=999)]
# Map coordinates: a bound check also refuses NaN (it compares false with both ends).
Latitude = Annotated[float, Meta(ge=-90, le=90)]
Longitude = Annotated[float, Meta(ge=-180, le=180)]


class Model(Contract, frozen=True):
    """Base of every data model: frozen, unknown keys rejected (a Frozen, made straight on
    Contract: see base.Frozen)."""
