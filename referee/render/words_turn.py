"""How the log tells the events of the sequence of play, the cards, a Military Crisis! and an
armistice (2.0, 1.3, 9.x, 3.2), one function per event kind."""

from __future__ import annotations

from ..base.plurals import counted, noun, plain_plurals
from ..engine.victory import level_of
from .crisis_told import PLAYED
from .documents import reason_words
from .phrases import area, cards, kind_name, opened, secret_data, side, unprinted

# Imported for annotations only: the quick paths do without the typing module.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..data.gamedata import GameData
    from .phrases import Wording

_PHASES = {"reinforcements": "Reinforcement phase (2.0 I)",
           "production": "Production phase (2.0 V)"}


# ---------------------------------------------------------------- sequence of play

def _phase_began(ev: dict, data: GameData, reader: str) -> str:
    return f"— {_PHASES.get(ev['phase'], ev['phase'])}, {data.label(ev['turn'])} —"


def _player_turn_began(ev: dict, data: GameData, reader: str) -> str:
    return f"{side(ev, data)} {data.term('player_turn')} begins (2.0 II)"


def _passed(ev: dict, data: GameData, reader: str) -> str:
    return f"{side(ev, data)} passes (2.0 II.1)"


def _player_turn_ended(ev: dict, data: GameData, reader: str) -> str:
    return f"{side(ev, data)} {data.term('player_turn')} ends" + (
        "" if ev["counts_as_pass"] else " (not a pass for ending the turn)")


def _season_advanced(ev: dict, data: GameData, reader: str) -> str:
    return f"Season marker advances to {ev['label']} (turn {ev['turn']}) (2.0 VI)"


def _decision_skipped(ev: dict, data: GameData, reader: str) -> str:
    return f"{side(ev, data)} is not asked ({kind_name(ev['kind'])}): {ev['reason']}"


def _standing_applied(ev: dict, data: GameData, reader: str) -> str:
    """Its owner and the moderator read the standing order; anyone else the answer alone, as
    he would have read it had it come by mail: naming the order would tell him it answers
    every such decision to come (player.md, Standing orders)."""
    said = f"{side(ev, data)} answers ({kind_name(ev['kind'])})"
    if reader not in (ev["side"], "moderator"):
        answer = _standing_answer(ev["standing"])
        return f"{said}: {answer}" if answer else said
    scope = " this turn" if ev.get("turn") is not None else ""
    return f"{said} with his standing order '{ev['standing']}{scope}'"


def _standing_answer(standing: str) -> str | None:
    """The order a standing order answers with ('done', 'eliminate uk-3'); None for a loss,
    whose unit the loss's own line names (engine/standing.py)."""
    from ..engine.standing import meaning  # start-up: only a standing answer needs it

    answer = meaning({"text": standing})[1]
    return None if answer == "lose" else answer


def _game_ended(ev: dict, data: GameData, reader: str) -> str:
    """The final VP and the result; a result the VP do not give (a surrender, one level worse,
    3.3) is told apart from the VP's own level, never as if the chart gave it."""
    vp, result = ev.get("vp"), ev.get("level_name")
    at = _level_of(vp, data)
    told = f"{vp}: {result}" if at is None or at.id == ev.get("level", at.id) else \
        f"{vp} ({at.name}); result: {result}"
    return (f"GAME OVER: {reason_words(ev['reason'])}. Modified {data.side_name(data.vp_side)} VP "
            f"{told}")


def _level_of(vp, data: GameData):
    """The Victory Chart's level of a VP total (3.1: engine.victory's), None where the data
    give none."""
    try:
        return level_of(vp, data) if isinstance(vp, int) else None
    except ValueError:
        return None


def _secret_revealed(ev: dict, data: GameData, reader: str) -> str:
    """The secret as the record gives it, which the log does not check (a forged export may
    hold another): what checks it, and the dice by it, is named instead."""
    return (f"Dice secret revealed: {ev['secret']} (`referee verify` checks it against the "
            f"commitment of record 0, then every die with it)")


def _rules_upgraded(ev: dict, data: GameData, reader: str) -> str:
    return (f"The game moves on to rules {ev['rules']} and game data "
            f"{ev['data_digest'][:12]} (from rules {ev['from_rules']}, data "
            f"{ev['from_data_digest'][:12]}): later orders are decided under them")


# ---------------------------------------------------------------- cards

def _deck_shuffled(ev: dict, data: GameData, reader: str) -> str:
    d = secret_data(ev, reader)
    extra = f" (order: {', '.join(d['order'])})" if d and reader == "moderator" else ""
    return f"Deck shuffled, {ev['count']} cards: {ev['reason']}{extra}"


def _cards_stacked(ev: dict, data: GameData, reader: str) -> str:
    return f"{ev['count']} named cards put on top of the draw pile (scenario set-up)"


def _cards_drawn(ev: dict, data: GameData, reader: str) -> str:
    d = secret_data(ev, reader)
    drawn = f": {cards(d['cards'], data)}" if d else ""
    # 2.0 II.1: cards drawn for a pass discard may not be played in the rest of this player
    # turn (the French: not before the opponent's turn); a lock that ends with it.
    lock = f" (none may be played in the rest of this {data.term('player_turn')}, 2.0 II.1)" \
        if ev.get("locked") else ""
    return (f"{side(ev, data)} draws {counted(ev['count'], 'card')}, "
            f"{plain_plurals(ev['reason'])}{drawn}{lock}")


def _card_played(ev: dict, data: GameData, reader: str) -> str:
    ct = data.cards[ev["card"]]
    as_ = ev["as"]
    name = data.card_types[as_].title if as_ in data.card_types else as_
    note = "" if as_ == ct.key else f" as {name}"
    return f"{side(ev, data)} plays {ct.title}{note} ({ct.rule})"


def _cards_discarded(ev: dict, data: GameData, reader: str) -> str:
    why = str(ev["reason"])       # one citing its rule follows a colon: no brackets in brackets
    return f"{side(ev, data)} discards {cards(ev['cards'], data)}" + (
        f": {why}" if "(" in why else f" ({why})")


def _card_removed(ev: dict, data: GameData, reader: str) -> str:
    why = str(ev["reason"])       # one citing its rule follows a colon: no brackets in brackets
    return f"{data.cards[ev['card']].title} is removed from play" + (
        f": {why}" if "(" in why else f" ({why})")


# ---------------------------------------------------------------- Military Crisis! (9.8, 9.9)

def _crisis_declared(ev: dict, data: GameData, reader: str) -> str:
    # The VP count for one side (3.1): a crisis its own player cannot answer costs it one.
    moves = "falls" if ev["target"] == data.vp_side else "rises"
    what = ev["name"]
    if ev.get(PLAYED):              # the card played for it, whose own line is not told
        ct = data.cards[ev["card"]]
        what = f"{ct.title} ({ct.rule}), the {what}"
    return (f"{side(ev, data)} plays {what}: the {data.side_name(ev['target'])} player "
            f"must remove {ev['count']} {'/'.join(n.upper() for n in ev['nations'])} "
            f"infantry-type {noun(ev['count'], 'unit')}, or, with too few on the map, the VP "
            f"total {moves} by 1 (3.1)")


def _crisis_unit_removed(ev: dict, data: GameData, reader: str) -> str:
    e = opened(ev, reader)
    if e is None:
        return (f"{side(ev, data)} removes an infantry-type unit from one of his armies to the "
                f"force pool (hidden, 1.4)")
    return (f"{side(ev, data)} removes {e['unit']} ({e['kind']}) in {area(e['area'], data)} "
            f"to the force pool")


def _crisis_ended(ev: dict, data: GameData, reader: str) -> str:
    if ev["answered"]:
        return f"{side(ev, data)} has answered the crisis"
    return (f"{side(ev, data)} does not answer the crisis ({reason_words(ev['reason'])}): 1 VP "
            f"to the other side (3.1)")


# ---------------------------------------------------------------- armistice (3.2)

def _armistice_proposed(ev: dict, data: GameData, reader: str) -> str:
    return f"The {side(ev, data)} player proposes an armistice (3.2)"


def _armistice_refused(ev: dict, data: GameData, reader: str) -> str:
    return f"The {side(ev, data)} player refuses the armistice; the war goes on (3.2)"


def _armistice_withdrawn(ev: dict, data: GameData, reader: str) -> str:
    return f"The {side(ev, data)} player withdraws his armistice proposal (3.2)"


def _armistice_lapsed(ev: dict, data: GameData, reader: str) -> str:
    return (f"The {side(ev, data)} player's armistice proposal, not answered, lapses with "
            f"the end of {ev['season']} (3.2, 2.0 VI)")


WORDING: dict[str, Wording] = {
    "PhaseBegan": _phase_began,
    "PlayerTurnBegan": _player_turn_began,
    "Passed": _passed,
    "PlayerTurnEnded": _player_turn_ended,
    "SeasonAdvanced": _season_advanced,
    "DecisionPending": unprinted,
    "DecisionSkipped": _decision_skipped,
    "StandingApplied": _standing_applied,
    "GameEnded": _game_ended,
    "SecretRevealed": _secret_revealed,
    "RulesUpgraded": _rules_upgraded,
    "DeckShuffled": _deck_shuffled,
    "CardsStacked": _cards_stacked,
    "CardsDrawn": _cards_drawn,
    "CardPlayed": _card_played,
    "CardsDiscarded": _cards_discarded,
    "CardRemoved": _card_removed,
    "CrisisDeclared": _crisis_declared,
    "CrisisUnitRemoved": _crisis_unit_removed,
    "CrisisEnded": _crisis_ended,
    "ArmisticeProposed": _armistice_proposed,
    "ArmisticeRefused": _armistice_refused,
    "ArmisticeWithdrawn": _armistice_withdrawn,
    "ArmisticeLapsed": _armistice_lapsed,
}
