"""A record's events as every reader's line tells them: with what they did that the event
does not hold but the game before the record does, so that `log`, a report (and its mail)
and `explain` say one event in one wording (words_combat reads what is added here).

- a fire phase: why a die group fired at a firepower not its unit type's own (firewhy.py);
- Bad Weather: the Poison Gas! it cancels, played this turn before it (9.3), and the
  Biplanes in the battle areas it keeps out of the combat phase (8.3.4, 9.5);
- a Poison Gas! played once Bad Weather was (a record made under rules that still took
  it): cancelled as it is played (9.3);
- a battle that is not fought: the combat cards played for it, spent with no effect;
- a battle area named for a special offensive's extra dice: the card whose dice they are
  (9.1.3-9.1.6), the one the attacker's turn counts as.

Every combat card is played in the open, so what is added tells no reader more than the
records he may read. Without the game before the record (none given: a redacted export
that cannot be replayed) an event is told as it stands.
"""

from __future__ import annotations

from ..engine.armies import hidden_templates
from ..engine.fire import has_biplanes
from .firewhy import with_reasons

# Imported for annotations only: the quick paths do without the typing module.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..data.gamedata import GameData

GASSED = "_gassed"      # Bad Weather's: the Poison Gas! it cancels, each {"side", "area"}
GROUNDED = "_grounded"  # Bad Weather's: that Biplanes take no part in the combat phase
CANCELLED = "_cancelled"    # a Poison Gas! played after Bad Weather: cancelled as played
SPENT = "_spent"        # a battle not fought: the combat cards played for it
BONUS = "_bonus"        # a battle area named for extra dice: the special offensive's key


def in_context(events: list[dict], before, data: GameData) -> list[dict]:
    """events, each with what its line tells beyond it (see the module); before: the game
    as it stood before their record (None: each told as it stands)."""
    if before is None:
        return events
    weather = bool((before.combat or {}).get("weather"))
    played = [{**c, CANCELLED: True} if weather and _cancels(c["key"], data) else dict(c)
              for c in (before.combat or {}).get("cards", [])]
    ts = before.turn_state
    bonus = ts.card_as if ts is not None and ts.card_as in data.card_bonus else None
    out = []
    for ev in events:
        kind = ev.get("type")
        if kind == "BonusDesignated" and bonus:
            ev = {**ev, BONUS: bonus}
        elif kind == "OffensiveDowngraded":
            bonus = None
        elif kind == "FireResolved":
            ev = with_reasons(ev, before, data)
        elif kind == "CombatCardPlayed":
            ev, weather = _card(ev, played, weather, data, before)
        elif kind == "BattleCancelled":
            spent = [c for c in played if c.get("area") == ev.get("area")
                     and not c.get(CANCELLED)]
            if spent:
                ev = {**ev, SPENT: [{"side": c["side"], "key": c["key"]} for c in spent]}
        elif kind == "CombatPhaseEnded":
            played, weather = [], False
        out.append(ev)
    return out


def _card(ev: dict, played: list[dict], weather: bool, data: GameData,
          before) -> tuple[dict, bool]:
    """A combat card played, with what Bad Weather does to it or with it; the cards played
    so far (played) and whether Bad Weather is one of them, after it."""
    key = ev.get("key")
    if key == "bad_weather" and not weather:
        gassed = [c for c in played if _cancels(c["key"], data) and not c.get(CANCELLED)]
        for c in gassed:
            c[CANCELLED] = True
        ev = {**ev, GASSED: [{"side": c["side"], "area": c.get("area"), "key": c["key"]}
                             for c in gassed]}
        if _flying(before, data):
            ev[GROUNDED] = True
        weather = True
    card = {"side": ev.get("side"), "area": ev.get("area"), "key": key}
    if weather and key != "bad_weather" and _cancels(key, data):
        card[CANCELLED] = True
        ev = {**ev, CANCELLED: True}
    played.append(card)
    return ev, weather


def _cancels(key: str | None, data: GameData) -> bool:
    """Whether Bad Weather cancels a combat card of this key (deck.yaml `cancelled_by`)."""
    ct = data.card_types.get(key) if key else None
    return ct is not None and "bad_weather" in ct.cancelled_by


def _flying(before, data: GameData) -> bool:
    """Whether Biplanes stand in a battle area declared (8.3.4); with hidden army templates
    (1.4), whether the game has Biplanes at all, so that the line tells nothing of what an
    army holds."""
    if not data.units.kinds_with("aircraft"):
        return False
    if hidden_templates(before):
        return True
    return any(has_biplanes(before, data, a, side) for a in before.combat.get("declared", [])
               for side in data.sides)
