"""The models of game.yaml: the game's files, scenarios, optional rules, switches, terms

The fast msgspec twin of referee/contracts/gamemodels.py."""

# Generated from referee/contracts/gamemodels.py (make schemas): edit that, not this.
# ruff: noqa: E501

from typing import Annotated

import msgspec

from .modelbase import Model

__all__ = [
    'OptionSpec',
    'GameFiles',
    'GameRules',
    'Terms',
    'RailMovement',
    'StrategicMovement',
    'SeaMovement',
    'Movement',
    'GameInfo',
]


class OptionSpec(Model, frozen=True, forbid_unknown_fields=True, kw_only=True):
    rule: str
    default: bool = False
    description: str = ''
    links_with: str | None = None


class GameFiles(Model, frozen=True, forbid_unknown_fields=True, kw_only=True):
    map: str = 'map.yaml'
    units: str = 'units.yaml'
    deck: str = 'deck.yaml'
    charts: str = 'charts.yaml'
    events: str = 'events.yaml'


class GameRules(Model, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """Rules that differ between the games of one system, as switches; each default is
    TO THE LAST MAN!'s own rule, so a game that names none plays TTLM's core rules.
    """

    oos_markers_persist: bool = False


class Terms(Model, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """Words a game uses for the steps of the sequence of play, in every output."""

    player_turn: Annotated[str, msgspec.Meta(pattern="^[A-Za-z][A-Za-z' -]{0,39}$")] = 'player turn'


class RailMovement(Model, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """Rail movement (4.4): units per player turn."""

    units: Annotated[int, msgspec.Meta(ge=0, le=99)] = 2


class StrategicMovement(Model, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """Strategic movement (4.5): who may use it, and how many units per player turn
    (`default`, or `turn_N` for turn N).
    """

    sides: list[Annotated[str, msgspec.Meta(pattern='^[a-z][a-z0-9_]{0,31}$')]]
    units: dict[str, Annotated[int, msgspec.Meta(ge=0, le=99)]] = msgspec.field(default_factory=lambda: {'default': 2})


class SeaMovement(Model, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """Sea movement (4.6): which nations, their home area, units per movement phase, and
    whether the other end must be a coastal supply source of their side.
    """

    nations: list[Annotated[str, msgspec.Meta(pattern='^[a-z][a-z0-9_]{0,31}$')]]
    home: str
    units: Annotated[int, msgspec.Meta(ge=0, le=99)] = 1
    requires_coastal: bool = True


class Movement(Model, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The movement kinds beyond walking that a game has, and for whom (4.4-4.6)."""

    rail: RailMovement = msgspec.field(default_factory=RailMovement)
    strategic: StrategicMovement | None = None
    sea: SeaMovement | None = None


class GameInfo(Model, frozen=True, forbid_unknown_fields=True, kw_only=True):
    version: Annotated[int, msgspec.Meta(ge=1, le=999)]
    id: str
    name: str
    ruleset: str = ''
    files: GameFiles = msgspec.field(default_factory=GameFiles)
    scenarios: dict[str, str]
    options: dict[str, OptionSpec] = {}
    rules: GameRules = msgspec.field(default_factory=GameRules)
    terms: Terms = msgspec.field(default_factory=Terms)
    movement: Movement = msgspec.field(default_factory=Movement)
