"""The deck and the hands: drawing, reshuffling, and what each card may be played as (1.3, 9.x)."""

from __future__ import annotations

from ..base.plurals import a_or_an
from ..contracts.events_turn import CardsDrawn, DeckShuffled
from ..data.gamedata import GameData
from .core import Ctx, Violation
from .state import State


def reshuffle(ctx: Ctx, reason: str) -> None:
    """Shuffle the draw and discard piles into a new draw pile; hands keep their cards (1.3)."""
    s, d = ctx.state, ctx.data
    cards = sorted(s.draw_pile + s.discard, key=d.card_order.index)
    order, draws = ctx.dice.shuffle(cards)
    ctx.emit(DeckShuffled(reason=reason, count=len(order), draws=draws,
                          secret=ctx.secret("moderator", {"order": order})))


def draw(ctx: Ctx, side: str, count: int, reason: str, locked: bool = False) -> None:
    """Draw count cards face down, reshuffling the discards when the draw pile runs out (1.3)."""
    while count > 0:
        s = ctx.state
        if not s.draw_pile:
            if not s.discard:
                return
            reshuffle(ctx, "the draw pile ran out")
        take = s.draw_pile[:count]
        ctx.emit(CardsDrawn(side=side, count=len(take), reason=reason, locked=locked,
                            secret=ctx.secret(side, {"cards": take})))
        count -= len(take)


def playable_hand(state: State, side: str) -> list[str]:
    """Card ids in a hand that may be played now (not drawn after a pass discard, 2.0 II.1)."""
    locked = state.locked.get(side, [])
    return [c for c in state.hands.get(side, []) if c not in locked]


def first_card(state: State, data: GameData, side: str, key: str) -> str | None:
    """The id of a playable card of the given type in side's hand."""
    for c in playable_hand(state, side):
        if data.cards[c].key == key:
            return c
    return None


def pick(state: State, data: GameData, side: str, keys) -> list[str] | None:
    """Card ids in side's hand for the given card keys (one each), or None if it lacks one."""
    hand = list(state.hands.get(side, []))
    ids = []
    for key in keys:
        card = next((c for c in hand if data.cards[c].key == key), None)
        if card is None:
            return None
        hand.remove(card)
        ids.append(card)
    return ids


def offensive_as(state: State, data: GameData, side: str, key: str) -> str:
    """What an Offensive-type card counts as when side plays it now (9.1.1-9.1.6).

    A special offensive is itself only for its own side from its date; the
    other side, or anyone before that date, plays it as an ordinary Offensive.
    """
    ct = data.card_types[key]
    if key in ("offensive", "limited_offensive"):
        return key
    if ct.event_side not in ("any", side):
        return ct.other_side_plays_as or "offensive"
    if ct.from_turn is not None and state.turn < ct.from_turn:
        return ct.before_that or "offensive"
    return key


def crisis_entry(state: State, data: GameData, side: str, key: str):
    """The crisis a Crisis! card stands for now, or a Violation saying why it cannot be played."""
    ct = data.card_types[key]
    if ct.event_side != side:
        return Violation(ct.rule, f"only {data.player_words(ct.event_side)} may play "
                                  f"{ct.title} as a crisis; the other side may use it only as "
                                  f"Ersatz 1")
    year = data.year(state.turn)
    for entry in ct.crises:
        if entry.year == year:
            return entry
    years = ", ".join(str(e.year) for e in ct.crises)
    return Violation(ct.rule, f"{ct.title} is a crisis only in {years}, not in {year}; hold it "
                              f"or use it as Ersatz 1")


def can_play_offensive(state: State, data: GameData, side: str, key: str) -> Violation | None:
    """Whether side may play a card of this key as its Offensive now (2.0 II.1, 9.1)."""
    ct = data.card_types.get(key)
    if ct is None:
        return Violation("9.0", f"there is no card {key!r}")
    if not ct.offensive:
        turn = data.term("player_turn")
        return Violation("2.0 II.1", f"{ct.title} is not {a_or_an(data.term('offensive_card'))}; "
                                     f"{a_or_an(turn)} opens with an "
                                     f"{data.card_title('offensive')}, a "
                                     f"{data.card_title('limited_offensive')} or a special "
                                     f"offensive, or a pass")
    if first_card(state, data, side, key) is None:
        if any(data.cards[c].key == key for c in state.hands.get(side, [])):
            return Violation("2.0 II.1", f"the {ct.title} card was drawn after a discard this "
                                         f"turn and cannot be played until the next "
                                         f"{data.term('player_turn')}")
        return Violation("1.3", f"the {data.side_name(side)} hand holds no {ct.title} card")
    return None
