"""The sequence of play, in the order of rule 2.0.

    I    place reinforcements                    begin_seasonal_turn (reinforce.py)
    II   first player turn (the German)          begin_player_turn
         1 play "offensive" or "pass"            decision card_or_pass
         2 movement                              decision movement / pass_move
         3 declare battles                       after_movement -> combat.begin_combat
         4 combat                                combat.after_cards (combat.py)
    III  second player turn (the Entente)        end_player_turn -> begin_player_turn
    IV   repeat II and III until both sides pass in a row
    V    production                              begin_production
         1 check supply                          supply.check_supply
         2 spend build points                    production.begin_spending
         3 discard excess cards                  production.discard_excess
         4 EFT box losses                        production.eft_losses
    VI   advance the season marker               advance_season

Each function emits the events of the steps that need no choice and stops
at the next decision a player must make (core.prompt). A phase module never
calls the next step itself: when its step is over it says so (core.finish)
and returns, and resume, which the engine calls after every order, goes on
to the step that NEXT names. Only this module knows what comes next; the
phase modules never import it.
"""

from __future__ import annotations

import itertools

from ..base.plurals import a_or_an
from ..contracts.events_combat import UnitRetreated
from ..contracts.events_map import ArmyEliminated
from ..contracts.events_turn import (
    CardPlayed,
    CardsDiscarded,
    GameEnded,
    Passed,
    PhaseBegan,
    PlayerTurnBegan,
    PlayerTurnEnded,
    SeasonAdvanced,
)
from ..contracts.orders import Discard, EndMovement, EndTurn, Ord, Pass, PlayCard, Retreat
from ..contracts.scenariomodels import Scenario
from ..data.gamedata import GameData
from . import combat, movement, movement_modes, production, reinforce, setup, supply
from .armistice import lapse_armistice
from .cards import can_play_offensive, draw, first_card, offensive_as, pick, reshuffle
from .core import Ctx, DecisionSpec, Violation, prompt, register
from .endings import last_turn_reason
from .order_text import format_order
from .state import State, other
from .suppress import apply_suppress, suppress_candidates, suppress_violation
from .victory import victory_level

# ---------------------------------------------------------------- I  reinforcements

def begin_seasonal_turn(ctx: Ctx) -> None:
    """Start a seasonal turn with Phase I, placing reinforcements (2.0 I)."""
    ctx.emit(PhaseBegan(phase="reinforcements", turn=ctx.state.turn))
    reinforce.arrivals(ctx)
    if not reinforce.next_placement(ctx):
        after_reinforcements(ctx)


def after_reinforcements(ctx: Ctx) -> None:
    """Reinforcements placed: the first player turn begins (2.0 II)."""
    begin_player_turn(ctx, ctx.state.first_player)


# ---------------------------------------------------------------- II, III  player turns

def begin_player_turn(ctx: Ctx, side: str) -> None:
    """Open a player turn: the player plays an Offensive-type card or passes (2.0 II.1)."""
    ctx.emit(PlayerTurnBegan(side=side))
    prompt(ctx, "card_or_pass", side)


def after_movement(ctx: Ctx) -> None:
    """Movement over: declare battles (2.0 II.3); NEXT then goes on to combat (II.4) and, once
    it is over, to the end of the player turn."""
    combat.begin_combat(ctx)


def end_player_turn(ctx: Ctx) -> None:
    """Close a player turn; two passes in a row lead to production (2.0 IV)."""
    s = ctx.state
    side = s.player
    ctx.emit(PlayerTurnEnded(side=side, counts_as_pass=s.turn_state.mode == "pass"))
    if ctx.state.consecutive_passes >= 2:
        begin_production(ctx)
    else:
        begin_player_turn(ctx, other(side, ctx.data))


# ---------------------------------------------------------------- V  production

def begin_production(ctx: Ctx) -> None:
    """The production phase (2.0 V): supply, build points, excess cards, EFT box losses.

    supply.py runs V.1, production.py V.2 to V.4; NEXT goes from each to the next, and
    from V.4 to advance_season.
    """
    ctx.emit(PhaseBegan(phase="production", turn=ctx.state.turn))
    supply.check_supply(ctx)


# ---------------------------------------------------------------- VI  advance the season

def advance_season(ctx: Ctx) -> None:
    """Move the season marker on; reshuffle after WINTER; the game ends after turn 23 (2.0 VI)."""
    s, d = ctx.state, ctx.data
    if s.turn >= s.last_turn:
        end_game(ctx, last_turn_reason(d.label(s.turn)))
        return
    lapse_armistice(ctx)
    if d.turn(s.turn).season == "WINTER":
        reshuffle(ctx, f"end of {d.label(s.turn)} (1.3, 2.0 VI)")
    ctx.emit(SeasonAdvanced(turn=s.turn + 1, label=d.label(s.turn + 1)))
    begin_seasonal_turn(ctx)


def end_game(ctx: Ctx, reason: str) -> None:
    """The game is over: record the final VP total and level (3.0)."""
    vp, level = victory_level(ctx.state, ctx.data)
    ctx.emit(GameEnded(reason=reason, vp=vp, level=level.id, level_name=level.name))


# ---------------------------------------------------------------- what comes next

# The step a phase module has just finished (core.finish) -> the step that follows it,
# in the order of rule 2.0.
NEXT = {
    "reinforcements": after_reinforcements,         # I     -> II
    "declare_battles": combat.after_cards,          # II.3  -> II.4
    "combat": end_player_turn,                      # II.4  -> III, or after IV -> V
    "supply": production.begin_spending,            # V.1   -> V.2
    "build_points": production.discard_excess,      # V.2   -> V.3
    "excess_cards": production.eft_losses,          # V.3   -> V.4
    "eft_losses": advance_season,                   # V.4   -> VI
}


def resume(ctx: Ctx) -> None:
    """Go on from each step just finished to the next (2.0), up to a decision or the end."""
    while ctx.finished is not None:
        step, ctx.finished = ctx.finished, None
        NEXT[step](ctx)


def setup_record(ctx: Ctx, sc: Scenario) -> None:
    """The set-up record: the cards dealt (1.3), then the sequence of play begun where the
    scenario says (2.0)."""
    setup.deal(ctx, sc)
    pos = sc.position
    if pos.phase == "reinforcements":
        begin_seasonal_turn(ctx)
    elif pos.phase == "player_turn":
        begin_player_turn(ctx, pos.player)
    else:
        begin_production(ctx)
    resume(ctx)


# ---------------------------------------------------------------- decision: card or pass

def _card_or_pass_prompt(s: State, d: GameData) -> str:
    return (f"play {a_or_an(d.term('offensive_card'))} or pass in this "
            f"{d.term('player_turn')}, {d.label(s.turn)} (2.0 II.1)")


def _hand_keys(s: State, d: GameData, side: str) -> list[str]:
    keys = {d.cards[c].key for c in s.hands.get(side, [])}
    return sorted(keys, key=lambda k: d.card_order.index(d.card_types[k].ids[0]))


def _card_or_pass_candidates(s: State, d: GameData, side: str):
    for key in _hand_keys(s, d, side):
        if key not in d.crisis_keys:            # Crisis! cards: engine.crisis_orders (9.8)
            yield PlayCard(card=key)
    yield Pass()


def _play_check(s: State, d: GameData, o: PlayCard, side: str, offensive: bool):
    ct = d.card_types.get(o.card)
    if not offensive:
        return Violation("2.0 II.1", f"{ct.title if ct else o.card} cannot be played now: "
                                     f"once the {d.term('player_turn')} has opened only a "
                                     f"Crisis! card is played this way "
                                     f"({d.card_title('strategic_reserves')} with "
                                     f"'reserves UNIT AREA')")
    return can_play_offensive(s, d, side, o.card)


def _card_or_pass_check(s: State, d: GameData, o: Ord, side: str) -> Violation | None:
    if isinstance(o, PlayCard):
        return _play_check(s, d, o, side, offensive=True) or _names_no_area(s, d, o, side)
    return None


def _names_no_area(s: State, d: GameData, o: PlayCard, side: str) -> Violation | None:
    """An opening card names no area (2.0 II.1): the battles are declared after movement
    (2.0 II.3), and a special offensive's extra dice go to a Battle Area named then with
    'bonus AREA' (9.1.3-9.1.6). Rules 13: 'play offensive paris' was taken, the area
    dropped, as if it had chosen something."""
    if not o.area:
        return None
    ct = d.card_types[o.card]
    bonus = d.card_bonus.get(offensive_as(s, d, side, o.card))
    later = (f"its extra dice go to a Battle Area named after movement with 'bonus AREA' "
             f"({ct.rule})" if bonus is not None else
             "battles are declared after movement (2.0 II.3)")
    return Violation("2.0 II.1", f"{ct.title} names no area (play {o.card}): a "
                                 f"{d.term('player_turn')} opens with its card alone "
                                 f"(2.0 II.1); {later}")


def _card_or_pass_apply(ctx: Ctx, o: Ord, side: str) -> None:
    s, d = ctx.state, ctx.data
    if isinstance(o, PlayCard):
        card = first_card(s, d, side, o.card)
        ctx.emit(CardPlayed(side=side, card=card, key=o.card,
                            as_=offensive_as(s, d, side, o.card)))
        prompt(ctx, "movement", side)
    else:
        ctx.emit(Passed(side=side))
        prompt(ctx, "pass_move", side)


register(DecisionSpec(
    kind="card_or_pass", rule="2.0 II.1", prompt=_card_or_pass_prompt,
    accepts=("play", "pass"), candidates=_card_or_pass_candidates,
    check=_card_or_pass_check, apply=_card_or_pass_apply))


# ---------------------------------------------------------------- movement (Offensive and pass)

MOVE_CHECKS = {
    "move": movement.move_violation, "rail": movement_modes.rail_violation,
    "strategic": movement_modes.strategic_violation, "sea": movement_modes.sea_violation,
    "reserves": movement_modes.reserves_violation, "evacuate": movement_modes.evacuate_violation,
    "suppress": suppress_violation, "eft": movement_modes.eft_violation,
}
MOVE_KINDS = tuple(MOVE_CHECKS)


def _movement_candidates(s: State, d: GameData, side: str):
    yield from movement.move_candidates(s, d, side)
    yield from movement_modes.whole_move_candidates(s, d, side)
    yield from movement_modes.eft_candidates(s, d, side)
    yield from suppress_candidates(s, d, side)


def _stranded_violation(s: State, d: GameData, side: str) -> Violation | None:
    """8.1: an empty army in a Disputed area must leave it while it still can."""
    for army in movement.stranded_empty_armies(s, d, side):
        for o in movement.move_candidates(s, d, side):
            if o.unit == army.id and movement.move_violation(s, d, o, side) is None:
                return Violation("8.1", f"army {army.id} is empty and stands in a Disputed "
                                        f"area ({d.areas[army.area].name}); it must leave "
                                        f"before movement ends (e.g. '{format_order(o)}')")
    return None


def _movement_check(s: State, d: GameData, o: Ord, side: str) -> Violation | None:
    if o.kind in MOVE_CHECKS:
        return MOVE_CHECKS[o.kind](s, d, o, side)
    if isinstance(o, PlayCard):
        return _play_check(s, d, o, side, offensive=False)
    if isinstance(o, Discard):
        return _discard_check(s, d, o, side)
    return _stranded_violation(s, d, side)          # end movement / end turn


def _movement_apply(ctx: Ctx, o: Ord, side: str) -> None:
    resume = ctx.state.pending.kind
    if o.kind == "suppress":
        apply_suppress(ctx, o, side)
    elif o.kind == "eft":
        movement_modes.apply_eft(ctx, o, side)
    elif o.kind in MOVE_CHECKS:
        movement.apply_move(ctx, o, side)
    elif isinstance(o, Discard):
        _discard_apply(ctx, o, side)
    elif end_of_movement(ctx, side):
        _movement_over(ctx, resume)
    else:                                    # an empty army's retreat waits on its owner
        prompt(ctx, "empty_retreat", side, then=resume)


def _movement_over(ctx: Ctx, resume: str) -> None:
    """Movement is over: unaccompanied auxiliaries go (8.3), then battles or the turn's end."""
    movement.unaccompanied(ctx, "movement phase")
    if resume == "movement":
        after_movement(ctx)
    else:
        end_player_turn(ctx)


def end_of_movement(ctx: Ctx, side: str) -> bool:
    """8.1: an empty army still in a Disputed area at the end of movement retreats, even
    beside Friendly units: to its one open area by itself, or where its owner chooses when
    there are several; with none open it is eliminated. False while a choice waits."""
    s, d = ctx.state, ctx.data
    waiting = False
    for army in movement.stranded_empty_armies(s, d, side):
        ways = empty_retreats(s, d, army.id)
        if len(ways) == 1:
            _retreat_empty(ctx, side, army.id, ways[0])
        elif not ways:
            ctx.emit(ArmyEliminated(side=side, army=army.id, area=army.area, rule="8.1",
                                    reason="an empty army in a Disputed area at the end of "
                                           "movement, with no area open to retreat to"))
        else:
            waiting = True
    return not waiting


def empty_retreats(s: State, d: GameData, army: str) -> list[str]:
    """Where an empty army may retreat to from a Disputed area (8.1 by the rules of retreat,
    5.4): an adjacent area Friendly to its side. Not an Enemy one (5.4), nor another Disputed
    one, which it would have to leave again; an empty army counts toward no stacking limit."""
    a = s.armies[army]
    side = d.nation_side[a.nation]
    return [to for to in sorted(d.neighbours[a.area]) if s.status(to, side, d) == "friendly"]


def _retreat_empty(ctx: Ctx, side: str, army: str, to: str) -> None:
    a = ctx.state.armies[army]
    left = a.area
    ctx.emit(UnitRetreated(side=side, unit=army, kind="army", nation=a.nation,
                           from_area=left, to_area=to, how="empty"))
    movement.settle(ctx, [left, to])


def _empty_choices(s: State, d: GameData, side: str):
    for army in movement.stranded_empty_armies(s, d, side):
        ways = empty_retreats(s, d, army.id)
        if len(ways) > 1:
            yield from (Retreat(unit=army.id, to=to) for to in ways)


def _empty_check(s: State, d: GameData, o: Ord, side: str) -> Violation | None:
    if not isinstance(o, Retreat) or o.into is not None or \
            o not in list(_empty_choices(s, d, side)):
        ways = "; ".join(format_order(x) for x in _empty_choices(s, d, side))
        return Violation("8.1", f"an empty army in a Disputed area retreats at the end of "
                                f"movement to an adjacent Friendly area: {ways}")
    return None


def _empty_apply(ctx: Ctx, o: Ord, side: str) -> None:
    then = ctx.state.pending.info.get("then", "movement")
    _retreat_empty(ctx, side, o.unit, o.to)
    if end_of_movement(ctx, side):
        _movement_over(ctx, then)
    else:
        prompt(ctx, "empty_retreat", side, then=then)


def _empty_prompt(s: State, d: GameData) -> str:
    armies = sorted({o.unit for o in _empty_choices(s, d, s.pending.side)})
    return (f"movement is over; empty army {', '.join(armies)} must "
            f"retreat from its Disputed area to an adjacent Friendly one, where you choose "
            f"(8.1, 5.4)")


register(DecisionSpec(
    kind="empty_retreat", rule="8.1", prompt=_empty_prompt, accepts=("retreat",),
    candidates=_empty_choices, check=_empty_check, apply=_empty_apply))


def _movement_prompt(s: State, d: GameData) -> str:
    ts = s.turn_state
    name = d.card_types[ts.card_as].title if ts.card_as in d.card_types else ts.card_as
    return f"movement phase ({name} played): move units, then end movement (2.0 II.2, 4.0)"


register(DecisionSpec(
    kind="movement", rule="2.0 II.2", prompt=_movement_prompt,
    accepts=MOVE_KINDS + ("play", "end_movement"),
    candidates=lambda s, d, side: itertools.chain(_movement_candidates(s, d, side),
                                                  [EndMovement()]),
    check=_movement_check, apply=_movement_apply))


# ---------------------------------------------------------------- the pass move

def _pass_prompt(s: State, d: GameData) -> str:
    ts = s.turn_state
    left = ("one unit may move (not into an Enemy area)" if ts.moves == 0
            else "the pass move is made")
    reserves = (f"{a_or_an(d.card_types['strategic_reserves'].title)} card moves a second unit; "
                if "strategic_reserves" in d.card_types else "")              # 9.6
    return (f"a pass: {left}; {reserves}"
            f"with no card played, cards may be discarded and replaced; then end the turn "
            f"(2.0 II.1)")


def _discard_candidates(s: State, d: GameData, side: str):
    counts: dict[str, int] = {}
    for c in s.hands.get(side, []):
        counts[d.cards[c].key] = counts.get(d.cards[c].key, 0) + 1
    keys = sorted(counts, key=lambda k: d.card_order.index(d.card_types[k].ids[0]))
    for combo in itertools.product(*(range(counts[k] + 1) for k in keys)):
        if any(combo):
            yield Discard(cards=tuple(k for k, n in zip(keys, combo) for _ in range(n)))


def _pass_candidates(s: State, d: GameData, side: str):
    yield from _movement_candidates(s, d, side)
    ts = s.turn_state
    if ts.cards_played == 0 and not ts.discarded:
        yield from _discard_candidates(s, d, side)
    yield EndTurn()


def _discard_check(s: State, d: GameData, o: Discard, side: str) -> Violation | None:
    ts = s.turn_state
    if ts.cards_played:
        return Violation("2.0 II.1", "a card was played this turn; only a player who plays "
                                     "no card at all may discard and draw")
    if ts.discarded:
        return Violation("2.0 II.1", "cards were already discarded and replaced this turn")
    if pick(s, d, side, o.cards) is None:
        return Violation("1.3", f"the {d.side_name(side)} hand does not hold the cards named")
    return None


def _discard_apply(ctx: Ctx, o: Discard, side: str) -> None:
    ids = pick(ctx.state, ctx.data, side, o.cards)
    ctx.emit(CardsDiscarded(side=side, cards=ids, reason="pass"))
    draw(ctx, side, len(ids), "replacing cards discarded while passing (2.0 II.1)", locked=True)


register(DecisionSpec(
    kind="pass_move", rule="2.0 II.1", prompt=_pass_prompt,
    accepts=MOVE_KINDS + ("play", "discard", "end_turn"), candidates=_pass_candidates,
    check=_movement_check, apply=_movement_apply))
