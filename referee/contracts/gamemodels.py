"""The models of game.yaml: the game's files, scenarios, optional rules, switches, terms
and movement kinds."""

from typing import Annotated

from msgspec import Meta, field

from .modelbase import Model, NationId, Side, Version


class OptionSpec(Model):
    rule: str
    default: bool = False
    description: str = ""
    # The name of the other game this option links the game with (TTLM 2.0 V.4, 3.1:
    # "linked with AT ALL COSTS!"): what a `not_when_linked_with` in the data is matched with.
    links_with: str | None = None


class GameFiles(Model):
    map: str = "map.yaml"
    units: str = "units.yaml"
    deck: str = "deck.yaml"
    charts: str = "charts.yaml"
    events: str = "events.yaml"


class GameRules(Model):
    """Rules that differ between the games of one system, as switches; each default is
    TO THE LAST MAN!'s own rule, so a game that names none plays TTLM's core rules."""

    # AAC 1.2.3: an OoS marker stays on a unit until a Check Supply Status phase finds it in
    # supply (2.0 V.1) or the unit is eliminated, and while it is on the unit receives no
    # reinforcement nor newly built unit (6.5). TTLM 1.2.3 and 6.5 only place the marker in
    # the Check Supply Status phase; the referee takes it off at the end of that production
    # phase (false).
    oos_markers_persist: bool = False


class Terms(Model):
    """Words a game uses for the steps of the sequence of play, in every output."""

    # AAC calls the player turn an "impulse" (AAC 2.0 II.1, 4.5, 5.4.4); TTLM 2.0 II.
    # A few words on one line: the term goes into error messages and every output format.
    player_turn: Annotated[str, Meta(pattern=r"^[A-Za-z][A-Za-z' -]{0,39}\Z")] = "player turn"
    # What a card that opens a player turn is called: TTLM 2.0 II.1 "Offensive type card", AAC
    # 2.0 II.1 a card with the word Offensive in its title, "Offensive card".
    offensive_card: Annotated[str, Meta(pattern=r"^[A-Za-z][A-Za-z' -]{0,39}\Z")] = \
        "Offensive-type card"


class RailMovement(Model):
    """Rail movement (4.4): units per player turn."""

    units: Annotated[int, Meta(ge=0, le=99)] = 2


class StrategicMovement(Model):
    """Strategic movement (4.5): who may use it, and how many units per player turn
    (`default`, or `turn_N` for turn N)."""

    sides: list[Side]
    units: dict[str, Annotated[int, Meta(ge=0, le=99)]] = field(
        default_factory=lambda: {"default": 2})


class SeaMovement(Model):
    """Sea movement (4.6): which nations, their home area, units per movement phase, and
    whether the other end must be a coastal supply source of their side."""

    nations: list[NationId]
    home: str
    units: Annotated[int, Meta(ge=0, le=99)] = 1
    requires_coastal: bool = True


class Movement(Model):
    """The movement kinds beyond walking that a game has, and for whom (4.4-4.6)."""

    rail: RailMovement = field(default_factory=RailMovement)
    strategic: StrategicMovement | None = None
    sea: SeaMovement | None = None


class GameInfo(Model):
    version: Version
    id: str
    name: str
    ruleset: str = ""
    files: GameFiles = field(default_factory=GameFiles)
    scenarios: dict[str, str]
    options: dict[str, OptionSpec] = {}
    rules: GameRules = field(default_factory=GameRules)
    terms: Terms = field(default_factory=Terms)
    movement: Movement = field(default_factory=Movement)
