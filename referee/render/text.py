"""Plain text of journal records and their events, as one reader may see them (log, reports)."""

from __future__ import annotations

# Imported for annotations only: the quick paths do without the typing module.
TYPE_CHECKING = False
if TYPE_CHECKING:

    from ..data.gamedata import GameData


class _SideNames(dict):
    """Side names as printed; another game's side is its id capitalised."""

    def __missing__(self, side: str) -> str:
        return str(side).replace("_", " ").title()


SIDE = _SideNames(german="German", entente="Entente", moderator="Moderator")


def _cards(ids: list[str], data: GameData) -> str:
    return ", ".join(data.cards[c].title for c in ids) if ids else "none"


def _secret_data(ev: dict, reader: str) -> dict | None:
    sec = ev.get("secret")
    if isinstance(sec, dict) and "data" in sec and reader in ("moderator", sec.get("to")):
        return sec["data"]
    return None


def _open(ev: dict, reader: str) -> dict | None:
    """The event with its secret details when reader may see them (hidden templates, 1.4);
    None when they are kept from him."""
    sec = ev.get("secret")
    if not isinstance(sec, dict):
        return ev
    d = _secret_data(ev, reader)
    return None if d is None else {**ev, **d}


def _revealed_orders(ev: dict, reader: str) -> str:
    """A revealed sealed plan's orders, one a line (never split when the log is wrapped);
    orders on army templates the reader may not see are counted, not shown (1.4)."""
    e = _open(ev, reader)
    shown = list(ev["orders"] if e is None else e["orders"])
    if e is None:
        shown.append(f"{ev['hidden']} order(s) on army templates (hidden, 1.4)")
    return "".join(f"\n        {o}" for o in shown) or " nothing"


def describe(ev: dict, data: GameData, reader: str) -> str | None:
    """One line for an event as reader may see it (None: nothing worth printing)."""
    t = ev["type"]
    side = SIDE.get(ev.get("side", ""), ev.get("side", ""))
    if t == "PhaseBegan":
        name = {"reinforcements": "Reinforcement phase (2.0 I)",
                "production": "Production phase (2.0 V)"}.get(ev["phase"], ev["phase"])
        return f"— {name}, {data.label(ev['turn'])} —"
    if t == "PlayerTurnBegan":
        return f"{side} {data.term('player_turn')} begins (2.0 II)"
    if t == "Passed":
        return f"{side} passes (2.0 II.1)"
    if t == "PlayerTurnEnded":
        return f"{side} {data.term('player_turn')} ends" + ("" if ev["counts_as_pass"] else
                                              " (not a pass for ending the turn)")
    if t == "SeasonAdvanced":
        return f"Season marker advances to {ev['label']} (turn {ev['turn']}) (2.0 VI)"
    if t == "DecisionPending":
        return None
    if t == "DecisionSkipped":
        return f"{side} is not asked ({ev['kind'].replace('_', ' ')}): {ev['reason']}"
    if t == "StandingApplied":
        scope = " this turn" if ev.get("turn") is not None else ""
        return (f"{side} answers ({ev['kind'].replace('_', ' ')}) with his standing order "
                f"'{ev['standing']}{scope}'")
    if t == "GameEnded":
        return (f"GAME OVER: {ev['reason']}. Modified German VP {ev.get('vp')}: "
                f"{ev.get('level_name')}")
    if t == "DeckShuffled":
        d = _secret_data(ev, reader)
        extra = f" (order: {', '.join(d['order'])})" if d and reader == "moderator" else ""
        return f"Deck shuffled, {ev['count']} cards: {ev['reason']}{extra}"
    if t == "CardsStacked":
        return f"{ev['count']} named cards put on top of the draw pile (scenario set-up)"
    if t == "CardsDrawn":
        d = _secret_data(ev, reader)
        cards = f": {_cards(d['cards'], data)}" if d else ""
        lock = f" (not playable until his next {data.term('player_turn')})" \
            if ev.get("locked") else ""
        return f"{side} draws {ev['count']} card(s), {ev['reason']}{cards}{lock}"
    if t == "CardPlayed":
        ct = data.cards[ev["card"]]
        as_ = ev["as"]
        name = data.card_types[as_].title if as_ in data.card_types else as_
        note = "" if as_ == ct.key else f" as {name}"
        return f"{side} plays {ct.title}{note} ({ct.rule})"
    if t == "CardsDiscarded":
        return f"{side} discards {_cards(ev['cards'], data)} ({ev['reason']})"
    if t == "CardRemoved":
        return f"{data.cards[ev['card']].title} is removed from play ({ev['reason']})"
    if t == "RulesUpgraded":
        return (f"The game moves on to rules {ev['rules']} and game data "
                f"{ev['data_digest'][:12]} (from rules {ev['from_rules']}, data "
                f"{ev['from_data_digest'][:12]}): later orders are decided under them")
    if t == "SecretRevealed":
        return f"Dice secret revealed: {ev['secret']} (anyone can now check every die)"
    if t == "UnitMoved":
        return _moved(ev, data, reader)
    if t == "AreaControlChanged":
        who = SIDE.get(ev["control"], "nobody")
        return f"{_area(ev['area'], data)} is now {who}-Friendly (4.1)"
    if t == "BecameDisputed":
        return (f"{_area(ev['area'], data)} is now Disputed: a battle must be fought there "
                f"(5.1.1)")
    if t == "EnemyAreaEntered":
        return None
    if t == "PieceEliminated":
        e = _open(ev, reader)
        if e is None:
            return f"{side} loses a unit from one of his armies (hidden, 1.4)"
        return (f"{side} {e['kind'].replace('_', ' ')} {e['unit']} in "
                f"{_area(e['area'], data)} eliminated: {e['reason']} ({e['rule']})")
    if t == "ArmyEliminated":
        return (f"{side} army {ev['army']} in {_area(ev['area'], data)} eliminated: "
                f"{ev['reason']} ({ev['rule']})")
    if t == "ArmySuppressed":
        e = _open(ev, reader)
        where = "in another army there (hidden, 1.4)" if e is None else \
            f"into {e['into']}" if e.get("into") else \
            f"standing alone as {', '.join(e['new_ids'])}"
        return (f"{side} suppresses army {ev['army']} in {_area(ev['area'], data)}; its units "
                f"stay, {where} (15.4.1)")
    if t == "CombatPhaseBegan":
        must = ", ".join(_area(a, data) for a in ev["compulsory"]) or "none"
        return f"Declare battles (2.0 II.3): battles that must be fought: {must}"
    if t == "BattleDeclared":
        return f"{_area(ev['area'], data)} declared a Battle Area (5.1.2)"
    if t == "CombatCardPlayed":
        where = f" in {_area(ev['area'], data)}" if ev.get("area") else ""
        return f"{side} plays {data.cards[ev['card']].title}{where} ({data.cards[ev['card']].rule})"
    if t == "BonusDesignated":
        return f"The special offensive's extra dice go to {_area(ev['area'], data)} (9.1)"
    if t == "OffensiveDowngraded":
        return (f"Bad Weather: the {side} {_card_name(ev['before'], data)} now counts as "
                f"{_card_name(ev['after'], data)} (9.5)")
    if t == "BattleCancelled":
        return f"No battle in {_area(ev['area'], data)}: {ev['reason']}"
    if t == "BattleBegan":
        kind = "SURPRISE ATTACK! battle (4a)" if ev.get("surprise") else "battle (5.2.1)"
        return f"=== {_area(ev['area'], data)}: {kind}, {SIDE[ev['attacker']]} attacking ==="
    if t in ("BattleStep", "HitsToPay", "DecisionPending"):
        if t == "HitsToPay":
            what = {"battle": "", "dogfight": " (Biplanes only)",
                    "pursuit": " (on the retreating units)"}[ev.get("target", "battle")]
            siege = f", {ev['siege_hits']} of them on the fort" if ev.get("siege_hits") else ""
            return f"{side} must pay {ev['hits'] + ev.get('siege_hits', 0)} hit(s){what}{siege}"
        return None
    if t == "FireResolved":
        return _fire_line(ev, data)
    if t == "LossTaken":
        if ev["how"] == "ersatz":
            waste = f", {ev['wasted']} point(s) lost (5.3.2)" if ev.get("wasted") else ""
            paid = ev.get("hits", 0) + ev.get("siege_hits", 0)
            return (f"{side} pays {paid} hit(s) with {data.cards[ev['card']].title} as Ersatz"
                    f"{waste}")
        if ev["how"] == "fort":
            return f"{side} fort {ev['unit']} loses a step (5.3.1)"
        return f"{side} loses {ev['unit']} ({ev['kind'].replace('_', ' ')}) (5.3.1)"
    if t == "HitsLost":
        return f"{ev['hits']} hit(s) on the {side} side go unpaid: {ev['reason']}"
    if t == "FortDestroyed":
        return f"Fort {ev['fort']} in {_area(ev['area'], data)} is gone: {ev['reason']}"
    if t == "UnitRetreated":
        how = {"cavalry": "retreats before combat (5.4.3)",
               "instead": "retreats instead of firing (5.4.1)",
               "after": "retreats after combat (5.4.2)"}[ev["how"]]
        now = f" (now {ev['new_id']})" if ev.get("new_id") else ""
        seen = _open(ev, reader)
        joins = (", into one of his armies (hidden, 1.4)" if seen is None else
                 f", into army {seen['into']} (8.1)" if seen.get("into") else "")
        return (f"{side} {ev['unit']}{now} {how}: {_area(ev['from_area'], data)} -> "
                f"{_area(ev['to_area'], data)}{joins}")
    if t == "BiplaneReacts":
        first = f", a {ev['on']} hit first" if ev.get("on") else ""
        return f"{side} Biplane {ev['unit']} reacts: it will force a re-roll{first} (8.3.4)"
    if t == "BattleEnded":
        return f"=== end of the battle in {_area(ev['area'], data)} ==="
    if t == "CombatPhaseEnded":
        return "Combat phase over; retreat markers removed (5.4)"
    if t == "ReinforcementsDue":
        items = ", ".join(i["unit"].replace(":", " ") for i in ev["items"]) or "nothing"
        swaps = "; the " + ", ".join(sw["name"] for sw in ev.get("swaps", [])) + \
            " unit swaps in (8.2.3)" if ev.get("swaps") else ""
        return f"{side} reinforcements (2.0 I): {items}{swaps}"
    if t == "UnitPlaced":
        e = _open(ev, reader)
        if e is None:
            return f"{side} places a reinforcement into one of his armies (hidden, 1.4)"
        into = f" into {e['into']}" if e.get("into") else ""
        now = f" as {e['new_id']}" if e.get("new_id") else ""
        return (f"{side} places {e['unit'].replace(':', ' ')}{now} in "
                f"{_area(e['area'], data)}{into}")
    if t == "ReinforcementLost":
        return (f"{side} reinforcement {ev['unit'].replace(':', ' ')} does not arrive: "
                f"{ev['reason']}")
    if t == "CommonwealthSwapped":
        e = _open(ev, reader)
        if e is None:
            return (f"The {ev['name']} unit takes the place of a UK infantry unit in one of the "
                    f"Entente armies (8.2.3; hidden, 1.4)")
        if not e.get("replaced"):
            return f"The {ev['name']} swap does not take place: no UK infantry on the map (8.2.3)"
        return (f"The {ev['name']} unit takes the place of {e['replaced']} in "
                f"{_area(e['area'], data)} (8.2.3)")
    if t == "OutOfSupply":
        return f"{side} units out of supply (6.5): {', '.join(ev['units'])}"
    if t == "BackInSupply":
        return f"{side} units in supply again, their OoS markers come off (AAC 1.2.3): " \
               f"{', '.join(ev['units'])}"
    if t == "FortReduced":
        return f"Fort {ev['fort']} out of supply drops to {ev['strength']} (6.5)"
    if t == "AttritionDue":
        return f"{side} unsupplied armies must each lose a unit: {', '.join(ev['armies'])} (6.5)"
    if t == "AttritionTaken":
        e = _open(ev, reader)
        what = "a unit (which one is hidden, 1.4)" if e is None else \
            e["kind"].replace("_", " ")
        return f"{side} army {ev['army']} loses {what} (out of supply, 6.5)"
    if t == "ProductionBegan":
        bp = ev["bp"]
        return ("Build Points (7.0): " + ", ".join(f"{SIDE[x]} {n}" for x, n in bp.items()) +
                "; orders are sealed until both sides are done")
    if t == "ProductionOrdered":
        sec = ev.get("secret") or {}
        if "data" in sec and reader in ("moderator", sec.get("to")):
            orders = sec["data"].get("orders")
            if orders is None:
                return f"{side} production order (sealed): {sec['data']['order']}"
            return f"{side} seals a production plan (7.0): {'; '.join(orders) or 'no orders'}"
        if "orders" in (sec.get("data") or {}) or ev.get("secret", {}).get("digest"):
            return f"{side} seals a production plan (7.0)"
        return f"{side} gives a sealed production order"
    if t == "PlansOpened":
        what = {"reinforce": "reinforcement placements (2.0 I)",
                "discard_excess": "discards over the card limit (2.0 V.3)"}.get(ev["kind"],
                                                                                ev["kind"])
        return (f"{' and '.join(ev['sides'])} give sealed {what}; sealed until "
                f"{'both are' if len(ev['sides']) > 1 else 'it is'} in")
    if t == "PlanSealed":
        e = _open(ev, reader)
        if e is None:
            return f"{side} seals a plan"
        return f"{side} seals a plan: {'; '.join(e['orders']) or 'no orders'}"
    if t == "PlanClosed":
        return f"{side} plan is complete"
    if t == "PlanRevealed":
        return f"{side} plan revealed:{_revealed_orders(ev, reader)}"
    if t == "ProductionDone":
        return f"{side} production orders are all in"
    if t == "ProductionRevealed":
        orders = _revealed_orders(ev, reader)
        return (f"{side} production revealed ({ev['spent']} BP spent, {ev['lost']} lost, 7.0):"
                f"{orders}")
    if t == "UnitBuilt":
        e = _open(ev, reader)
        if e is None:
            return f"{side} builds a unit into one of his armies (hidden, 1.4)"
        into = f" into {e['into']}" if e.get("into") else ""
        now = f" ({e['new_id']})" if e.get("new_id") else ""
        return (f"{side} builds {e['unit'].replace(':', ' ')}{now} in "
                f"{_area(e['area'], data)}{into} ({e['cost']} BP)")
    if t == "ArmyRebuilt":
        return f"{side} rebuilds army {ev['army']}, empty, in {_area(ev['area'], data)} (7.3)"
    if t == "UnitEntrenched":
        return f"{side} {ev['unit']} entrenches (7.4)"
    if t == "InfantryUpgraded":
        e = _open(ev, reader)
        if e is None:
            return (f"{side} upgrades an infantry unit in one of his armies to Stoßtruppen "
                    f"(7.5; hidden, 1.4)")
        now = f" (now {e['new_id']})" if e.get("new_id") else ""
        return f"{side} {e['unit']}{now} upgraded to Stoßtruppen (7.5)"
    if t == "EftLossesDue":
        e = _open(ev, reader)
        value = "units of hidden BP value (1.4)" if e is None else f"{e['bp']} BP of units"
        return (f"EFT box: {value}, {len(ev['dice'])} dice "
                f"[{' '.join(map(str, ev['dice']))}]: {ev['losses']} loss(es) (2.0 V.4)")
    if t == "EftUnitLost":
        e = _open(ev, reader)
        if e is None:
            return "German loses a unit of an army in the EFT box (2.0 V.4; hidden, 1.4)"
        return f"German {e['unit']} ({e['kind'].replace('_', ' ')}) lost in the EFT box (2.0 V.4)"
    if t == "ProductionEnded":
        return None
    if t == "ArmisticeProposed":
        return f"The {side} player proposes an armistice (3.2)"
    if t == "ArmisticeRefused":
        return f"The {side} player refuses the armistice; the war goes on (3.2)"
    if t == "CrisisDeclared":
        return (f"{side} plays {ev['name']}: the {SIDE[ev['target']]} player must remove "
                f"{ev['count']} {'/'.join(n.upper() for n in ev['nations'])} infantry-type "
                f"unit(s), or 1 VP for too few on the map")
    if t == "CrisisUnitRemoved":
        e = _open(ev, reader)
        if e is None:
            return (f"{side} removes an infantry-type unit from one of his armies to the force "
                    f"pool (hidden, 1.4)")
        return (f"{side} removes {e['unit']} ({e['kind']}) in {_area(e['area'], data)} to "
                f"the force pool")
    if t == "CrisisEnded":
        if ev["answered"]:
            return f"{side} has answered the crisis"
        return f"{side} does not answer the crisis ({ev['reason']}): 1 VP to the other side (3.1)"
    return f"{t}: " + ", ".join(f"{k}={v}" for k, v in ev.items() if k != "type")


def answered(rec: dict, pending: dict[str, str]) -> str:
    """' (declare battles)' for a bare answer such as 'done': the decision it answered."""
    kind = pending.get(rec.get("actor", ""))
    if kind and rec.get("order") in ("done", "pass", "keep"):
        return f" ({kind.replace('_', ' ')})"
    return ""


def note_pending(rec: dict, pending: dict[str, str]) -> None:
    """Remember, per side, the last decision a record left pending (for `answered`)."""
    for ev in rec.get("events", []):
        if ev.get("type") == "DecisionPending":
            pending[ev["side"]] = ev["kind"]


def record_lines(rec: dict, data: GameData, reader: str,
                 pending: dict[str, str] | None = None) -> list[str]:
    """A journal record as text: header line, then its events; with `pending` (kept
    across records), a bare 'done' names the decision it answered."""
    if rec["seq"] == 0:
        return [f"#0 {rec['created_at']} game {rec['game_id']} created: scenario "
                f"{rec['scenario']}, dice {rec['dice']['mode']} (commitment "
                f"{rec['dice']['commitment'][:16]}...)"]
    who = SIDE.get(rec["actor"], rec["actor"])
    order = rec["order"]
    private = rec.get("private_order")
    if isinstance(private, dict) and "data" in private:
        order = private["data"]["text"]
    note = answered(rec, pending) if pending is not None else ""
    out = [f"#{rec['seq']} {rec['at']} {who}: {order.replace(chr(10), '; ')}{note}"]
    if pending is not None:
        note_pending(rec, pending)
    if rec.get("dice"):
        out.append(f"    dice rolled: {', '.join(map(str, rec['dice']))}")
    for ev in rec["events"]:
        line = describe(ev, data, reader)
        if line:
            out.append(f"    {line}")
    return out


def wrap_lines(lines: list[str], width: int = 72) -> list[str]:
    """Lines wrapped at width, continuations indented under their first word; no word split."""
    import textwrap

    out: list[str] = []
    for line in (part for whole in lines for part in whole.split("\n")):
        if len(line) <= width:
            out.append(line)
            continue
        indent = " " * (len(line) - len(line.lstrip()) + 4)
        out.extend(textwrap.wrap(line, width, subsequent_indent=indent, break_long_words=False,
                                 break_on_hyphens=False, drop_whitespace=True)
                   or [line])
    return out










def _area(aid: str, data: GameData) -> str:
    if aid == "eft":
        return "the EFT box"
    return data.areas[aid].name if aid in data.areas else aid


def _moved(ev: dict, data: GameData, reader: str) -> str:
    side = SIDE.get(ev["side"], ev["side"])
    mode = {"normal": "moves", "rail": "moves by rail (4.4)",
            "strategic": "moves strategically (4.5)", "sea": "crosses by sea (4.6)",
            "reserves": "moves with Strategic Reserves! (9.6)",
            "evacuate": "is evacuated by sea (14.2.4)",
            "reorganise": "is reorganised within its area (8.1)",
            "eft": "moves " + ("into" if ev["to_area"] == "eft" else "out of") +
                   " the Eastern Front Transit box"}[ev["mode"]]
    details = ev
    sec = ev.get("secret")
    if isinstance(sec, dict):
        if "data" in sec and reader in ("moderator", sec.get("to")):
            details = sec["data"]
        elif ev.get("unit"):            # an army's move is public, what it takes in is not
            route = " - ".join(_area(a, data) for a in ev.get("path", []))
            dug = " (entrenched, 4.3)" if ev.get("entrenched") else ""
            return (f"{side} {ev['unit']} {mode}: {_area(ev['from_area'], data)} - {route}, "
                    f"taking in units standing there (hidden, 1.4){dug}")
        else:
            return (f"{side} moves a unit between army templates in "
                    f"{_area(ev['to_area'], data)} (hidden, 1.4)")
    unit = details.get("unit")
    what = unit
    if details.get("from_army"):
        what = f"{details['kind'].replace('_', ' ')} from {details['from_army']}"
        if details.get("new_id"):
            what += f" (now {details['new_id']})"
    route = " - ".join(_area(a, data) for a in ev.get("path", []))
    text = f"{side} {what} {mode}"
    if route:
        text += f": {_area(ev['from_area'], data)} - {route}"
    if details.get("into"):
        text += f", into {details['into']}"
    if details.get("taking"):
        text += f", taking in {', '.join(details['taking'])}"
    if ev.get("entrenched"):
        text += " (entrenched, 4.3)"
    return text


def _card_name(key: str, data: GameData) -> str:
    if key == "pass":
        return "a pass (with free movement; not a pass for ending the turn)"
    return data.card_types[key].title if key in data.card_types else key


PHASE = {"dogfight": "dogfight (5.2.1 a)", "artillery": "artillery fire (5.2.1 b)",
         "defensive": "defensive fire (5.2.1 c)", "offensive": "offensive fire (5.2.1 d)",
         "pursuit": "pursuit fire (8.3.1)"}


def _fire_line(ev: dict, data: GameData) -> str:
    """Every die of a fire phase: unit or card, firepower, the dice, the hits."""
    parts = []
    for g in ev["groups"]:
        dice = " ".join(str(x) for x in g["dice"])
        if g.get("rerolled"):
            dice += f" (re-rolled from {' '.join(map(str, g['rerolled']))}, 8.3.4)"
        name = data.card_types[g["source"]].title if g["kind"] == "card" else \
            f"{g['source']}" + ("" if g["source"].endswith(g["kind"]) else
                                f" {g['kind'].replace('_', ' ')}")
        extra = " at the fort" if g.get("siege") else ""
        extra += ", forces retreats" if g.get("forces_retreat") else ""
        hits = f"{g['hits']} hit" + ("s" if g["hits"] != 1 else "") if g["hits"] else "miss"
        parts.append(f"{name} F{g['fp']}{extra} [{dice}] {hits}")
    total = ev["hits"] + ev.get("siege_hits", 0)
    side = SIDE[ev["side"]]
    tail = f" = {total} hit(s)"
    if ev.get("siege_hits"):
        tail += f" ({ev['siege_hits']} on the fort)"
    if ev.get("forced_retreats"):
        tail += f"; {ev['forced_retreats']} army retreat(s) forced (8.2.2, 8.3.5)"
    return (f"{_area(ev['area'], data)} — {side} {PHASE[ev['phase']]}: " + "; ".join(parts)
            + tail)
