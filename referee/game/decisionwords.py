"""What each kind of decision asks, in words a player or the moderator reads (a deadline's
extension, a deadline set for one kind, a missed deadline), never the engine's name of the
kind: what is decided, and the rule that asks it (the engine's DecisionSpec); the decision
at hand as the engine asks it (its prompt)."""

from __future__ import annotations

from ..data.gamedata import GameData
from ..engine import pending_prompt
from ..engine.core import DECISIONS
from ..engine.state import State

# What is decided, as a noun phrase ('orders for ...', 'the decision: ...'); no card's
# title (each game names its cards: games/<game>/deck.yaml).
WORDS = {
    "attacker_cards": "the attacker's cards for a battle",
    "attrition": "the losses of unsupplied armies",
    "battle_order": "the order the battles are fought in",
    "card_or_pass": "a card to play or a pass",
    "cavalry_retreat": "cavalry retreating before combat",
    "crisis": "the units a Crisis removes",
    "declare_battles": "the battles declared",
    "defence": "the defender's retreat instead of firing",
    "defender_cards": "the defender's cards for a battle",
    "discard_excess": "the cards discarded over the hand limit",
    "eft_losses": "the losses in the Eastern Front Transit box",
    "empty_retreat": "an empty army's retreat",
    "forced_elimination": "the armies eliminated for retreats that cannot be made",
    "keep_battle": "the one battle kept of those declared",
    "losses": "the losses in a battle",
    "movement": "the movement",
    "pass_move": "the movement after a pass",
    "production": "the production plan",
    "reaction": "the defending Biplanes' reaction",
    "reinforce": "the reinforcements placed",
    "retreat_after": "the retreat after combat",
    "scramble": "the Biplanes scrambled into a battle",
}


def decision_words(kind: str) -> str:
    """What a kind of decision asks, with its rule: 'a card to play or a pass (2.0 II.1)';
    a kind this referee does not know (a journal of a later one), its name in words."""
    spec = DECISIONS.get(kind)
    words = WORDS.get(kind) or kind.replace("_", " ")
    return f"{words} ({spec.rule})" if spec is not None else words


def owed_words(state: State | None, data: GameData | None, side: str, kind: str) -> str:
    """The decision of a kind a side owes, as the engine asks it (its prompt, with the rule)
    when it is the decision at hand for that side; else its kind's words (decision_words)."""
    if state is not None and data is not None and state.pending is not None and \
            (state.pending.kind, state.pending.side) == (kind, side):
        return pending_prompt(state, data)
    return decision_words(kind)


def roll_waits(state: State, data: GameData, sender: str) -> str:
    """Why manual dice given with a batch were not needed yet, as a refusal's tail: no die is
    due yet, and the decision the game now waits on, the sender's own or whose else; none
    when it is over. It never says a roll waits on that decision: the next die may come
    from it or from steps after it (a retreat after combat rolls none)."""
    p = state.pending
    if p is None or p.side not in data.sides:
        return ""
    whose = "your own" if p.side == sender else f"{data.player_words(p.side)}'s"
    return f"; no die is due yet: the decision now is {whose}, {decision_words(p.kind)}"
