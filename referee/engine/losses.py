"""Paying hits (5.3): units from the strongest, forts step by step, Ersatz cards, annihilation.

Hits are paid one at a time by the side that took them. The unit lost comes
from the strongest unit in the battle (an army's strength is the number of
units it holds, a fort's its number, any other unit 1, Sedan 0 last); ties are
the owner's choice. An army gives up a unit of its most numerous type. Ersatz
cards pay hits too; annihilation removes every unit and pays no more.
"""

from __future__ import annotations

from collections import Counter

from ..base.plurals import counted
from ..contracts.events_combat import FortDestroyed, HitsLost, LossTaken
from ..contracts.events_map import ArmyEliminated, PieceEliminated
from ..contracts.orders import Annihilate, Ersatz, Lose, Ord
from ..data.gamedata import GameData
from .cards import playable_hand
from .core import Ctx, DecisionSpec, Violation, open_kinds, register
from .fire import units_in
from .movement import settle
from .state import State, template_key


def _counters(s: State, d: GameData, side: str) -> list[tuple[str, int, list[str]]]:
    """(counter, strength, refs it may lose) for the units that may pay the current hits."""
    b = s.battle
    target = b["pay"]["target"]
    if target == "pursuit":
        refs = [r for r in b["instead"] if r in s.pieces or r in s.armies]
        units = []
        for r in refs:
            if r in s.armies and s.armies[r].status == "map":
                a = s.armies[r]
                for key, n in sorted(a.contents.items()):
                    nation, kind = key.split(":")
                    units += [(a.id, f"{a.id}:{kind}" if nation == a.nation else
                               f"{a.id}:{nation}-{kind}", kind)] * n
            elif r in s.pieces:
                units.append((r, r, s.pieces[r].kind))
    else:
        units = [(u.army or u.ref, u.ref, u.kind) for u in units_in(s, d, b["area"], side)]
    if target == "dogfight":
        dog = set(b["dogfighters"])
        air = d.units.kinds_with("aircraft")
        return [(ref, 1, [ref]) for _, ref, kind in units if kind in air and ref in dog]
    by_counter: dict[str, Counter] = {}
    kind_of: dict[str, str] = {}
    for counter, ref, kind in units:
        by_counter.setdefault(counter, Counter())[ref] += 1
        kind_of[ref] = kind
    out = []
    for counter, refs in by_counter.items():
        strength = sum(refs.values())
        never = d.units.kinds_with("never_a_loss")                  # 8.3.6
        losable = {r: n for r, n in refs.items() if kind_of[r] not in never}
        if not losable:
            continue                       # the Paris Gun is never taken as a loss (8.3.6)
        if counter in s.armies:
            out.append((counter, strength, most_numerous(losable, kind_of, d)))
        else:
            out.append((counter, 1, [counter]))
    if target == "battle":
        for f in sorted(s.forts.values(), key=lambda f: f.id):
            if f.area == b["area"] and d.nation_side[f.nation] == side:
                out.append((f.id, f.strength, [f.id]))
    return out


def loss_type(kind: str, d: GameData) -> str:
    """The type a unit counts as for an army's most numerous type (5.3.1, 8.2.2, 8.2.3).

    Infantry of any nation, Stoßtruppen and Commonwealth infantry are one
    type, infantry type: both are treated like infantry but for firepower,
    cost and forced retreats.
    """
    return "infantry" if kind in d.units.infantry_types else kind


def most_numerous(refs: Counter | dict, kind_of: dict[str, str], d: GameData) -> list[str]:
    """The refs of an army's most numerous unit type; the owner picks among them (5.3.1)."""
    by_type: Counter = Counter()
    for r, n in refs.items():
        by_type[loss_type(kind_of[r], d)] += n
    top = max(by_type.values())
    return sorted(r for r in refs if by_type[loss_type(kind_of[r], d)] == top)


def loss_choices(s: State, d: GameData, side: str) -> list[str]:
    """The units (refs) side may lose for the next hit (5.3.1, 8.3.3)."""
    pay = s.battle["pay"]
    if pay["siege"]:
        fort = _own_fort(s, d, side)
        return [fort] if fort else []
    counters = _counters(s, d, side)
    if not counters:
        return []
    if pay["target"] == "dogfight":
        return sorted(r for _, _, refs in counters for r in refs)
    top = max(st for _, st, _ in counters)
    return sorted(r for _, st, refs in counters if st == top for r in refs)


def _own_fort(s: State, d: GameData, side: str) -> str | None:
    for f in s.forts.values():
        if f.area == s.battle["area"] and d.nation_side[f.nation] == side:
            return f.id
    return None


def total_strength(s: State, d: GameData, side: str) -> int:
    """The strength of all of side's units in the battle (5.3.4)."""
    return sum(st for _, st, _ in _counters(s, d, side)) if s.battle["pay"]["target"] == \
        "battle" else 0


def _prompt(s: State, d: GameData, own: bool = False) -> str:
    """The payment asked, offering only what is open now (open_kinds, 5.3): whether an Ersatz
    card is among it rests on the hand, which only its side reads (own); anyone else reads
    that one may be played when the hand holds any card (its size is public)."""
    pay = s.battle["pay"]
    area = d.areas[s.battle["area"]].name
    what = {"battle": "", "dogfight": " (Biplanes only, 8.3.4)",
            "pursuit": " (from the units that retreated, 8.3.1)"}[pay["target"]]
    siege = _siege_words(pay["siege"], pay["hits"] + pay["siege"])
    kinds = open_kinds(s, d)
    ersatz = ("ersatz" in kinds) if own else bool(s.hands.get(s.pending.side))
    ways = [_lose_words(pay)] * ("lose" in kinds) + \
        [f"play an Ersatz card{'' if own else ' if the hand holds one'}"] * ersatz + \
        ["annihilate"] * ("annihilate" in kinds)
    said = " or ".join(ways) if len(ways) < 3 else ", ".join(ways[:-1]) + ", or " + ways[-1]
    # One citation: a unit loss alone already cites its own, more precise rule (5.3.1).
    cited = "" if said.endswith(f"({LOSS_RULE})") else " (5.3)"
    return f"pay {counted(pay['hits'] + pay['siege'], 'hit')} in {area}{what}{siege}: {said}{cited}"


def _lose_words(pay: dict) -> str:
    """The unit the next hit takes, as the prompt offers it: the fort's step while Siege Gun
    hits are to pay (8.3.3), a Biplane in a dogfight (8.3.4), else the strongest unit's."""
    if pay["siege"]:
        return "lose a step of the fort"
    if pay["target"] == "dogfight":
        return "lose a Biplane"
    return f"lose a unit from the strongest unit in the battle area ({LOSS_RULE})"


LOSS_RULE = "5.3.1"          # which unit a hit takes (the strongest; its most numerous type)


def _siege_words(siege: int, hits: int) -> str:
    """Which of the hits to pay are Siege Gun hits on the fort (8.3.3), as one reads it."""
    if not siege:
        return ""
    if siege == hits:
        said = "a Siege Gun hit" if hits == 1 else "all of them Siege Gun hits"
    else:
        said = f"{siege} of them {'a Siege Gun hit' if siege == 1 else 'Siege Gun hits'}"
    return f", {said} on the fort (8.3.3)"


def _candidates(s: State, d: GameData, side: str):
    for ref in loss_choices(s, d, side):
        yield Lose(unit=ref)
    keys: list[str] = []
    for c in playable_hand(s, side):
        if d.cards[c].key not in keys:
            keys.append(d.cards[c].key)
    for k in sorted(keys, key=lambda k: d.card_order.index(d.card_types[k].ids[0])):
        yield Ersatz(card=k)
    yield Annihilate()


def _target_violation(s: State, d: GameData, unit: str, side: str,
                      choices: list[str]) -> Violation | None:
    """Why a unit is not among those these hits may fall on at all: a dogfight's hits fall on
    Biplanes only (2.0 II.4a note, 8.3.4), pursuit fire's on the units that retreated (8.3.1).
    None when it is, and only the strongest unit's rule (5.3.1) passes it over."""
    target = s.battle["pay"]["target"]
    offered = f"({', '.join(choices) or 'nothing'})"
    if target == "dogfight":
        return Violation("8.3.4", f"{unit} cannot take this hit: a dogfight's hits fall on "
                                  f"Biplanes only, never on other units (2.0 II.4a) {offered}")
    if target == "pursuit" and unit.partition(":")[0] not in {
            c for c, _, _ in _counters(s, d, side)}:
        return Violation("8.3.1", f"{unit} cannot take this hit: pursuit fire's hits fall "
                                  f"on the units that retreated {offered}")
    return None


def _check(s: State, d: GameData, o: Ord, side: str) -> Violation | None:
    pay = s.battle["pay"]
    if isinstance(o, Lose):
        choices = loss_choices(s, d, side)
        if o.unit not in choices:
            kind = s.pieces[o.unit].kind if o.unit in s.pieces else \
                o.unit.partition(":")[2].rpartition("-")[2]
            if d.units.has(kind, "never_a_loss"):
                return Violation(d.units.unit_types[kind].rule,
                                 f"{o.unit} is the {kind.replace('_', ' ').title()}, which is "
                                 f"never taken as a loss")
            if pay["siege"]:
                return Violation("8.3.3", "a Siege Gun hit strikes the fort unless an Ersatz "
                                          "card covers it")
            v = _target_violation(s, d, o.unit, side, choices)
            if v is not None:
                return v
            return Violation("5.3.1", f"{o.unit} cannot take this hit: it must come from the "
                                      f"strongest unit, and from an army's most numerous type "
                                      f"({', '.join(choices) or 'nothing'})")
        return None
    if isinstance(o, Ersatz):
        if not any(d.cards[c].key == o.card for c in playable_hand(s, side)):
            return Violation("5.3.2", f"the {d.side_name(side)} hand holds no playable "
                                      f"{d.card_types[o.card].title} card")
        return None
    if pay["target"] != "battle":
        return Violation("5.3.4", "annihilation removes one's units in the battle area; these "
                                  "hits fall on Biplanes or on retreating units only")
    if pay["hits"] + pay["siege"] < total_strength(s, d, side):
        return Violation("5.3.4", f"annihilation is for hits beyond what the units can pay: "
                                  f"{counted(pay['hits'] + pay['siege'], 'hit')} against a "
                                  f"strength of {total_strength(s, d, side)}")
    return None


def pay_with_unit(ctx: Ctx, side: str, ref: str) -> None:
    """Lose one unit (or fort step) for one hit; an army left empty is eliminated (8.1)."""
    s = ctx.state
    siege = bool(s.battle["pay"]["siege"])
    paid = {"siege_hits": 1, "hits": 0} if siege else {"siege_hits": 0, "hits": 1}
    if ref in s.forts:
        fort = s.forts[ref]
        ctx.emit(LossTaken(side=side, how="fort", unit=ref, nation=fort.nation, kind="fort",
                           **paid))
        if ctx.state.forts[ref].strength <= 0:
            ctx.emit(FortDestroyed(fort=ref, area=fort.area, reason="reduced to zero (5.3.1)"))
        return
    if ref in s.pieces:
        p = s.pieces[ref]
        ctx.emit(LossTaken(side=side, how="unit", unit=ref, nation=p.nation, kind=p.kind,
                           **paid))
        return
    army_id, key = template_key(s, ref)
    nation, kind = key.split(":")
    army = s.armies[army_id]
    ctx.emit(LossTaken(side=side, how="unit", unit=ref, nation=nation, kind=kind, **paid))
    if army.strength == 0:
        ctx.emit(ArmyEliminated(side=side, army=army_id, area=army.area, rule="8.1",
                                reason="it lost its last unit in combat"))


def pay_with_card(ctx: Ctx, side: str, key: str) -> None:
    """Pay hits with an Ersatz card; what it does not use is lost (5.3.2)."""
    s, d = ctx.state, ctx.data
    card = next(c for c in playable_hand(s, side) if d.cards[c].key == key)
    value = d.cards[card].ersatz
    pay = s.battle["pay"]
    siege = min(value, pay["siege"])              # Siege Gun hits are covered first (8.3.3)
    hits = min(value - siege, pay["hits"])
    ctx.emit(LossTaken(side=side, how="ersatz", card=card, hits=hits, siege_hits=siege,
                       wasted=value - siege - hits))


def annihilate(ctx: Ctx, side: str) -> None:
    """Remove all of side's units in the battle area and pay nothing more (5.3.4).

    Each step of strength removed pays a hit, as losing it one at a time would (5.3.1, 8.4:
    an army's strength is its units, a fort's its number); the French 5.3.4 spares the
    player only the losses beyond the steps he has in the battle. What is left goes unpaid.
    """
    s, d = ctx.state, ctx.data
    area = s.battle["area"]
    strength = total_strength(s, d, side)           # before anything leaves the area
    skip = set(s.combat["markers"])
    for a in sorted(s.armies.values(), key=lambda a: a.id):
        if a.status == "map" and a.area == area and a.id not in skip and \
                d.nation_side[a.nation] == side:
            ctx.emit(ArmyEliminated(side=side, army=a.id, area=area, rule="5.3.4",
                                    reason="annihilation instead of paying more hits"))
    for p in sorted(ctx.state.pieces.values(), key=lambda p: p.id):
        if p.area == area and p.id not in skip and d.nation_side[p.nation] == side:
            ctx.emit(PieceEliminated(side=side, unit=p.id, nation=p.nation, kind=p.kind,
                                     area=area, rule="5.3.4",
                                     reason="annihilation instead of paying more hits"))
    for f in sorted(ctx.state.forts.values(), key=lambda f: f.id):
        if f.area == area and d.nation_side[f.nation] == side:
            ctx.emit(FortDestroyed(fort=f.id, area=area, reason="annihilation (5.3.4)"))
    pay = ctx.state.battle["pay"]
    due = pay["hits"] + pay["siege"]
    paid = min(strength, due)                        # _check: never more strength than hits
    ctx.emit(HitsLost(side=side, hits=due - paid, paid=paid, pool="all",
                      reason="annihilation: each step of strength removed pays one hit, "
                             "and nothing more is paid (5.3.4)"))


def pay(ctx: Ctx, o: Ord, side: str) -> None:
    """Apply one payment order, then update the battle area's control (4.1)."""
    area = ctx.state.battle["area"]
    if isinstance(o, Lose):
        pay_with_unit(ctx, side, o.unit)
    elif isinstance(o, Ersatz):
        pay_with_card(ctx, side, o.card)
    else:
        annihilate(ctx, side)
    settle(ctx, [area])


def _apply(ctx: Ctx, o: Ord, side: str) -> str:
    pay(ctx, o, side)
    return "go_on"                  # the battle goes on from where it stands (battle.THEN)


def settle_unpayable(ctx: Ctx) -> bool:
    """Drop hits nothing can pay: no unit left, or Siege Gun hits with no fort (5.3.4, 8.3.3)."""
    s, d = ctx.state, ctx.data
    pay = s.battle["pay"]
    side = pay["side"]
    if pay["siege"] and _own_fort(s, d, side) is None:
        ctx.emit(HitsLost(side=side, hits=pay["siege"], pool="siege",
                          reason="Siege Gun hits strike only a fort, and none is left (8.3.3)"))
        return True
    if pay["hits"] and not pay["siege"] and not loss_choices(s, d, side):
        what = {"battle": "no unit of his is left in the battle",
                "dogfight": "no Biplane of his is left: dogfight hits touch nothing else",
                "pursuit": "no retreating unit of his is left"}[pay["target"]]
        ctx.emit(HitsLost(side=side, hits=pay["hits"], pool="hits", reason=f"{what} (5.3.4)"))
        return True
    return False


register(DecisionSpec(
    kind="losses", rule="5.3", prompt=_prompt, accepts=("lose", "ersatz", "annihilate"),
    candidates=_candidates, check=_check, apply=_apply,
    extra={"own_prompt": lambda s, d: _prompt(s, d, own=True)}))
