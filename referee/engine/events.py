"""Events: past-tense facts written in the journal, and evolve(), which applies them.

Every event is a pydantic model tagged by `type`; `schemas/events.json` is
generated from the union. evolve() never checks anything: legality was
settled by decide() before the event was written. A secret part (a drawn
card, a shuffled deck) sits in `secret` as {to, salt, data}; other readers
see only its digest (journal.redact).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from ..gamedata import GameData
from .state import Army, Decision, Fort, Piece, State, TurnState, other


class Secret(BaseModel):
    """A payload only one reader (a side or the moderator) may see."""

    model_config = ConfigDict(extra="forbid", defer_build=True)
    to: str
    salt: str | None = None
    data: dict[str, Any] | None = None
    digest: str | None = None


class Ev(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)


# ---------------------------------------------------------------- sequence of play

class PhaseBegan(Ev):
    """A phase of the seasonal turn began (2.0 I, V)."""

    type: Literal["PhaseBegan"] = "PhaseBegan"
    phase: str
    turn: int


class PlayerTurnBegan(Ev):
    """A player turn began (2.0 II, III)."""

    type: Literal["PlayerTurnBegan"] = "PlayerTurnBegan"
    side: str


class Passed(Ev):
    """The player played no Offensive card: he passes (2.0 II.1)."""

    type: Literal["Passed"] = "Passed"
    side: str


class PlayerTurnEnded(Ev):
    """A player turn ended; counts_as_pass feeds the end of the turn (2.0 IV, 9.5)."""

    type: Literal["PlayerTurnEnded"] = "PlayerTurnEnded"
    side: str
    counts_as_pass: bool


class SeasonAdvanced(Ev):
    """The season marker moved on (2.0 VI)."""

    type: Literal["SeasonAdvanced"] = "SeasonAdvanced"
    turn: int
    label: str


class DecisionPending(Ev):
    """The referee now waits on one side for one kind of decision."""

    type: Literal["DecisionPending"] = "DecisionPending"
    kind: str
    side: str
    info: dict[str, Any] = {}


class GameEnded(Ev):
    """The game is over (2.0 VI, 3.0-3.3)."""

    type: Literal["GameEnded"] = "GameEnded"
    reason: str
    vp: int | None = None
    level: str | None = None
    level_name: str | None = None


# ---------------------------------------------------------------- cards

class DeckShuffled(Ev):
    """Draw and discard piles shuffled into a new draw pile (1.3)."""

    type: Literal["DeckShuffled"] = "DeckShuffled"
    reason: str
    count: int
    draws: int
    secret: Secret


class CardsStacked(Ev):
    """Named cards put on top of the draw pile, in order (what-if scenario set-up)."""

    type: Literal["CardsStacked"] = "CardsStacked"
    count: int
    secret: Secret


class CardsDrawn(Ev):
    """A side drew cards face down from the draw pile (1.3, 2.0 II.1, 7.1)."""

    type: Literal["CardsDrawn"] = "CardsDrawn"
    side: str
    count: int
    reason: str
    locked: bool = False
    secret: Secret


class CardPlayed(Ev):
    """A card was played face up; `as_` says what it counts as (9.x)."""

    type: Literal["CardPlayed"] = "CardPlayed"
    side: str
    card: str
    key: str
    as_: str = Field(alias="as")
    model_config = ConfigDict(extra="forbid", defer_build=True, populate_by_name=True)


class CardsDiscarded(Ev):
    """Cards went face up onto the discard pile (2.0 II.1, 2.0 V.3)."""

    type: Literal["CardsDiscarded"] = "CardsDiscarded"
    side: str
    cards: list[str]
    reason: str


class CardRemoved(Ev):
    """A card left play for good (9.8, 9.9 notes)."""

    type: Literal["CardRemoved"] = "CardRemoved"
    card: str
    reason: str


class SecretRevealed(Ev):
    """The dice secret was published so that anyone can check every die (dice.py)."""

    type: Literal["SecretRevealed"] = "SecretRevealed"
    secret: str


Event = Annotated[Union[
    PhaseBegan, PlayerTurnBegan, Passed, PlayerTurnEnded, SeasonAdvanced, DecisionPending,
    GameEnded, DeckShuffled, CardsStacked, CardsDrawn, CardPlayed, CardsDiscarded, CardRemoved,
    SecretRevealed,
], Field(discriminator="type")]

EVENT_LIST = TypeAdapter(list[Event])


def parse_events(raw: list[dict]) -> list[Ev]:
    """Validate the events of one journal record."""
    return EVENT_LIST.validate_python(raw)


def dump(event: Ev) -> dict:
    """An event as the JSON object written in the journal."""
    return event.model_dump(mode="json", by_alias=True, exclude_none=True)


# ---------------------------------------------------------------- evolve

def evolve(state: State, event: Ev, data: GameData) -> State:
    """Apply one event to the state in place and return it; never checks legality."""
    _HANDLERS[event.type](state, event, data)
    return state


def _phase(s: State, e: PhaseBegan, d: GameData) -> None:
    s.phase = e.phase
    s.turn = e.turn
    if e.phase != "player_turn":
        s.player = None
        s.turn_state = None
    if e.phase == "reinforcements":
        s.consecutive_passes = 0


def _turn_began(s: State, e: PlayerTurnBegan, d: GameData) -> None:
    s.phase = "player_turn"
    s.player = e.side
    s.locked[e.side] = []
    s.turn_state = TurnState(side=e.side, control_at_start=dict(s.control))


def _passed(s: State, e: Passed, d: GameData) -> None:
    s.turn_state.mode = "pass"


def _turn_ended(s: State, e: PlayerTurnEnded, d: GameData) -> None:
    s.consecutive_passes = s.consecutive_passes + 1 if e.counts_as_pass else 0
    s.turn_state = None


def _season(s: State, e: SeasonAdvanced, d: GameData) -> None:
    s.turn = e.turn


def _pending(s: State, e: DecisionPending, d: GameData) -> None:
    s.pending = Decision(e.kind, e.side, dict(e.info))


def _ended(s: State, e: GameEnded, d: GameData) -> None:
    s.phase = "over"
    s.pending = None
    s.result = {"reason": e.reason, "vp": e.vp, "level": e.level, "level_name": e.level_name}


def _shuffled(s: State, e: DeckShuffled, d: GameData) -> None:
    order = e.secret.data["order"]
    s.draw_pile = list(order)
    shuffled = set(order)
    s.discard = [c for c in s.discard if c not in shuffled]


def _stacked(s: State, e: CardsStacked, d: GameData) -> None:
    s.draw_pile[:0] = e.secret.data["cards"]


def _drawn(s: State, e: CardsDrawn, d: GameData) -> None:
    cards = e.secret.data["cards"]
    del s.draw_pile[:len(cards)]
    s.hands.setdefault(e.side, []).extend(cards)
    if e.locked:
        s.locked.setdefault(e.side, []).extend(cards)


def _played(s: State, e: CardPlayed, d: GameData) -> None:
    s.hands[e.side].remove(e.card)
    s.discard.append(e.card)
    ts = s.turn_state
    if ts is not None and ts.side == e.side:
        ts.cards_played += 1
        if e.as_ in ("offensive", "limited_offensive") or d.cards[e.card].offensive and \
                e.as_ == e.key:
            ts.card = e.card
            ts.card_as = e.as_
            ts.mode = "limited" if e.as_ == "limited_offensive" else "offensive"


def _discarded(s: State, e: CardsDiscarded, d: GameData) -> None:
    for c in e.cards:
        s.hands[e.side].remove(c)
        s.discard.append(c)
    if e.reason == "pass" and s.turn_state is not None:
        s.turn_state.discarded = True


def _removed(s: State, e: CardRemoved, d: GameData) -> None:
    if e.card in s.discard:
        s.discard.remove(e.card)
    s.removed_cards.append(e.card)


def _revealed(s: State, e: SecretRevealed, d: GameData) -> None:
    pass


_HANDLERS = {
    "PhaseBegan": _phase, "PlayerTurnBegan": _turn_began, "Passed": _passed,
    "PlayerTurnEnded": _turn_ended, "SeasonAdvanced": _season, "DecisionPending": _pending,
    "GameEnded": _ended, "DeckShuffled": _shuffled, "CardsStacked": _stacked,
    "CardsDrawn": _drawn,
    "CardPlayed": _played, "CardsDiscarded": _discarded, "CardRemoved": _removed,
    "SecretRevealed": _revealed,
}

__all__ = ["Army", "Fort", "Piece", "other"]
