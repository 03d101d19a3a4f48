"""How the events of the sequence of play, the cards and sealed plans change the state (2.0)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..contracts.events_turn import (
    ArmisticeLapsed,
    ArmisticeProposed,
    ArmisticeRefused,
    ArmisticeWithdrawn,
    CardPlayed,
    CardRemoved,
    CardsDiscarded,
    CardsDrawn,
    CardsStacked,
    DecisionPending,
    DecisionSkipped,
    DeckShuffled,
    GameEnded,
    Passed,
    PhaseBegan,
    PlanClosed,
    PlanRevealed,
    PlanSealed,
    PlansOpened,
    PlayerTurnBegan,
    PlayerTurnEnded,
    RulesUpgraded,
    SeasonAdvanced,
    SecretRevealed,
    StandingApplied,
)
from ..data.gamedata import GameData
from .apply_units import onto_discard, within_the_deck
from .endings import game_result
from .state import BOTH, Decision, State, TurnState


def _phase(s: State, e: PhaseBegan, d: GameData) -> None:
    s.phase = e.phase
    s.turn = e.turn
    if e.phase != "player_turn":
        s.player = None
        s.turn_state = None
    if e.phase == "reinforcements":
        s.consecutive_passes = 0
    if e.phase == "production":
        s.production = {}


def _turn_began(s: State, e: PlayerTurnBegan, d: GameData) -> None:
    s.phase = "player_turn"
    s.player = e.side
    # 2.0 II.1: cards drawn after a pass discard are playable from the next player turn on.
    s.locked = {side: [] for side in (*s.locked, e.side)}
    # Friendly: held by the side and not Disputed (4.1), read off the sides present once.
    present, control = s.sides_present(d), s.control
    s.turn_state = TurnState(side=e.side, friendly_at_start=[
        a for a in d.areas if control.get(a) == e.side and present.get(a, 0) != BOTH])


def _passed(s: State, e: Passed, d: GameData) -> None:
    s.turn_state.mode = "pass"


def _turn_ended(s: State, e: PlayerTurnEnded, d: GameData) -> None:
    s.consecutive_passes = s.consecutive_passes + 1 if e.counts_as_pass else 0
    s.turn_state = None


def _season(s: State, e: SeasonAdvanced, d: GameData) -> None:
    s.turn = e.turn


def _pending(s: State, e: DecisionPending, d: GameData) -> None:
    s.pending = Decision(e.kind, e.side, dict(e.info))


def _skipped(s: State, e: DecisionSkipped, d: GameData) -> None:
    """Nothing changes: the events that follow carry the skipped decision's answer."""


def _standing(s: State, e: StandingApplied, d: GameData) -> None:
    """Nothing changes: the events that follow carry the standing answer."""


def _ended(s: State, e: GameEnded, d: GameData) -> None:
    s.phase = "over"
    s.pending = None
    # The record ending it is the next one: records are numbered on, and a record's events
    # change the state before it takes the record's number (game/replay.py apply_record).
    s.result = game_result(e.reason, e.vp, e.level, e.level_name, s.turn, s.seq + 1, d)


def _shuffled(s: State, e: DeckShuffled, d: GameData) -> None:
    order = e.secret.data["order"]
    within_the_deck(order, d, "the draw pile")
    s.draw_pile = list(order)
    shuffled = set(order)
    s.discard = [c for c in s.discard if c not in shuffled]


def _stacked(s: State, e: CardsStacked, d: GameData) -> None:
    s.draw_pile[:0] = e.secret.data["cards"]
    within_the_deck(s.draw_pile, d, "the draw pile")


def _drawn(s: State, e: CardsDrawn, d: GameData) -> None:
    cards = e.secret.data["cards"]
    del s.draw_pile[:len(cards)]
    hand = s.hands.setdefault(e.side, [])
    hand.extend(cards)
    within_the_deck(hand, d, f"the {e.side} hand")
    if e.locked:
        locked = s.locked.setdefault(e.side, [])
        locked.extend(cards)
        within_the_deck(locked, d, f"the {e.side} locked cards")


def _played(s: State, e: CardPlayed, d: GameData) -> None:
    s.hands[e.side].remove(e.card)
    onto_discard(s, [e.card], d)
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
    onto_discard(s, e.cards, d)
    if e.reason == "pass" and s.turn_state is not None:
        s.turn_state.discarded = True


def _removed(s: State, e: CardRemoved, d: GameData) -> None:
    if e.card in s.discard:
        s.discard.remove(e.card)
    s.removed_cards.append(e.card)
    within_the_deck(s.removed_cards, d, "the cards out of the game")


def _upgraded_rules(s: State, e: RulesUpgraded, d: GameData) -> None:
    """The rules and data the next records are decided under change; the position does not."""


def _revealed(s: State, e: SecretRevealed, d: GameData) -> None:
    s.revealed = True        # the dice are predictable now: no order is taken any more


def _proposed(s: State, e: ArmisticeProposed, d: GameData) -> None:
    s.armistice, s.armistice_heard, s.armistice_ended = e.side, False, None


def _refused(s: State, e: ArmisticeRefused, d: GameData) -> None:
    s.armistice, s.armistice_heard, s.armistice_ended = None, False, None


def _withdrawn(s: State, e: ArmisticeWithdrawn, d: GameData) -> None:
    s.armistice, s.armistice_heard = None, False
    s.armistice_ended = {"side": e.side, "how": "withdrawn", "season": d.label(s.turn)}


def _lapsed(s: State, e: ArmisticeLapsed, d: GameData) -> None:
    s.armistice, s.armistice_heard = None, False
    s.armistice_ended = {"side": e.side, "how": "lapsed", "season": e.season}


def _plans_opened(s: State, e: PlansOpened, d: GameData) -> None:
    s.sealed = {"kind": e.kind, "plans": {side: [] for side in e.sides}, "done": []}


def _plan_sealed(s: State, e: PlanSealed, d: GameData) -> None:
    s.sealed["plans"][e.side].extend(e.secret.data["orders"])


def _plan_closed(s: State, e: PlanClosed, d: GameData) -> None:
    s.sealed["done"].append(e.side)


def _plan_revealed(s: State, e: PlanRevealed, d: GameData) -> None:
    s.sealed = None


BY_TYPE: dict[type, Callable[[State, Any, GameData], None]] = {
    PhaseBegan: _phase, PlayerTurnBegan: _turn_began, Passed: _passed,
    PlayerTurnEnded: _turn_ended, SeasonAdvanced: _season, DecisionPending: _pending,
    DecisionSkipped: _skipped, StandingApplied: _standing, GameEnded: _ended,
    DeckShuffled: _shuffled, CardsStacked: _stacked, CardsDrawn: _drawn,
    CardPlayed: _played, CardsDiscarded: _discarded, CardRemoved: _removed,
    RulesUpgraded: _upgraded_rules, SecretRevealed: _revealed, ArmisticeProposed: _proposed,
    ArmisticeRefused: _refused, ArmisticeWithdrawn: _withdrawn, ArmisticeLapsed: _lapsed,
    PlansOpened: _plans_opened, PlanSealed: _plan_sealed,
    PlanClosed: _plan_closed, PlanRevealed: _plan_revealed,
}

# None of these moves, adds or removes a unit: the board stays as it was (evolve.BOARD_AREAS).
NO_UNIT_MOVES = tuple(BY_TYPE)
