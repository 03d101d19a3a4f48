"""The state a scenario starts from, and the events of the set-up record (1.3, 4.1, 4.6)."""

from __future__ import annotations

import re
from collections import Counter

from ..contracts.events_turn import CardsStacked, DeckShuffled
from ..contracts.scenariomodels import Scenario
from ..data.gamedata import GameData
from .cards import draw
from .core import Ctx
from .state import Army, Fort, Piece, State, piece_key

_SERIAL = re.compile(r"^([a-z]+-[a-z]+)-(\d+)$")


def initial_state(data: GameData, sc: Scenario, game_id: str, options: dict[str, bool]) -> State:
    """The position a scenario describes, before any card is dealt (no randomness here)."""
    s = State(game_id=game_id, scenario=sc.id, options=dict(options), turn=sc.start.turn,
              last_turn=sc.last_turn, first_player=sc.first_player or data.sides[0])
    for side, areas in sc.control.items():
        for a in areas:
            s.control[a] = side
    for a in sc.neutral:
        s.control[a] = None
    for a in data.areas:
        s.control.setdefault(a, None)
    for f in sc.forts:
        s.forts[f.id] = Fort(f.id, f.nation, f.area, f.strength)
    s.removed_forts = list(sc.forts_out_of_play)
    # Every army counter the game will use: set up, eliminated, or still to arrive.
    for t in data.events.turns:
        for r in t.reinforcements:
            if r.type == "army" and r.id:
                s.armies.setdefault(r.id, Army(r.id, r.nation, r.name or r.id))
    for aid in sc.eliminated_armies:
        army = s.armies.setdefault(aid, Army(aid, aid.split("-")[0], aid))
        army.status = "eliminated"
    for u in sc.units:
        if u.type == "army":
            contents: Counter = Counter()
            for c in u.contents:
                contents[piece_key(c.nation or u.nation, c.type)] += c.count
            s.armies[u.id] = Army(u.id, u.nation, u.name or u.id, "map", u.area, u.entrenched,
                                  dict(contents))
        else:
            s.pieces[u.id] = Piece(u.id, u.nation, u.type, u.area, u.entrenched)
        if u.keep_apart_from:
            s.keep_apart[u.id] = u.keep_apart_from
    for e in sc.eft_box:
        box = data.eft_box
        nation = e.nation or data.units.sides[box.owner][0]
        for _ in range(e.count):
            pid = s.new_piece_id(nation, e.type, data)
            s.pieces[pid] = Piece(pid, nation, e.type, box.id)
    for pid in s.pieces:
        m = _SERIAL.match(pid)
        if m:
            s.serial[m.group(1)] = max(s.serial.get(m.group(1), 0), int(m.group(2)))
    in_play = s.counters_in_play()
    for nation, row in data.units.mix.items():
        s.pool[nation] = {kind: n - in_play[(nation, kind)] for kind, n in row.items()
                          if kind not in ("army", "fort")}
    # Commonwealth units whose swap turn is past are in play already (8.2.3 note).
    for sw in data.events.commonwealth_swaps.get("swaps", []):
        if sw["turn"] < sc.start.turn:
            s.swapped.append(sw["unit"])
    s.consecutive_passes = sc.position.consecutive_passes
    s.discard = list(sc.cards.discard)
    s.removed_cards = data.removed_cards(sc)
    s.hands = {x: [] for x in data.sides}
    s.locked = {x: [] for x in data.sides}
    return s


def deal(ctx: Ctx, sc: Scenario) -> None:
    """Shuffle and deal the cards of the set-up record (1.3); flow.setup_record then starts
    the sequence of play."""
    d = ctx.data
    cards = sc.cards
    named = set(cards.discard) | set(d.removed_cards(sc))
    draw_order = cards.draw_order if cards.draw_order is not None else d.sides
    stacked: list[str] = []
    if cards.hands is not None:
        for side in draw_order:
            stacked += cards.hands.get(side, [])
    if cards.draw_pile is not None:
        stacked += cards.draw_pile
    rest = [c for c in d.card_order if c not in named and c not in stacked]
    if rest:
        order, draws = ctx.dice.shuffle(rest)
        ctx.emit(DeckShuffled(reason="set-up (1.3)", count=len(order), draws=draws,
                              secret=ctx.secret("moderator", {"order": order})))
    if stacked:
        ctx.emit(CardsStacked(count=len(stacked),
                              secret=ctx.secret("moderator", {"cards": stacked})))
    for side in draw_order:
        n = len(cards.hands.get(side, [])) if cards.hands is not None else cards.hand.get(side, 0)
        if n:
            draw(ctx, side, n, "starting hand (scenario set-up)")
