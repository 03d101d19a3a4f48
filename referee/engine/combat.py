"""Declare battles and fight them (2.0 II.3-4, 5.0-5.4, 8.x, 9.1-9.7).

After movement the attacker declares battles (newly Disputed areas are
battles already), both sides play combat cards, and each battle runs through
its fixed order: cavalry retreat, dogfight, artillery fire, defensive fire
(or retreat instead), offensive fire, retreat after combat. The surprise
order drops the artillery phase and lets the attacker fire first (4a). The
referee rolls everything and stops at each choice a player has.
"""

from __future__ import annotations

import msgspec

from ..data.gamedata import GameData
from . import losses, movement, scramble
from .armies import hidden_templates
from .cards import first_card, playable_hand
from .core import DECISIONS, Ctx, DecisionSpec, Violation, and_list, finish, prompt, register, skip
from .events import (
    ArmyEliminated,
    BattleBegan,
    BattleCancelled,
    BattleDeclared,
    BattleEnded,
    BattleStep,
    BonusDesignated,
    CombatCardPlayed,
    CombatPhaseBegan,
    CombatPhaseEnded,
    HitsToPay,
    OffensiveDowngraded,
    PieceEliminated,
)
from .fire import (
    has_biplanes,
    no_fire_in_rough,
    roll,
    units_in,
)
from .orders import Bonus, DeclareBattle, Done, Fight, Keep, Ord, PlayCard
from .retreats import forced_eliminations, forced_left, reaction_options, retreat_options
from .state import State, other

NORMAL = ["cavalry_attacker", "cavalry_defender", "dogfight", "dogfight_attacker_pays",
          "dogfight_defender_pays", "artillery", "artillery_pays", "defence", "pursuit_pays",
          "defensive_fire", "defensive_pays", "offensive_fire", "offensive_pays",
          "retreat_attacker", "retreat_defender", "end"]
SURPRISE = ["cavalry_attacker", "cavalry_defender", "dogfight", "dogfight_attacker_pays",
            "dogfight_defender_pays", "reaction", "offensive_fire", "offensive_pays", "defence",
            "pursuit_pays", "defensive_fire", "defensive_pays", "retreat_attacker",
            "retreat_defender", "end"]
# Which side plays a combat card is a rule, not data: Surprise Attack! is the attacker's (9.7),
# Bad Weather the defender's (9.5); which combat cards exist is the deck's (d.combat_card_keys).
ATTACKER_ONLY = ("surprise_attack",)
DEFENDER_ONLY = ("bad_weather",)


def combat_cards_of(d: GameData, attacker: bool) -> list[str]:
    """The combat cards the attacker or the defender may play, deck order (2.0 II.3b, 9.3-9.7)."""
    barred = DEFENDER_ONLY if attacker else ATTACKER_ONLY
    return [k for k in d.combat_card_keys if k not in barred]


# ---------------------------------------------------------------- declare battles (2.0 II.3)

def begin_combat(ctx: Ctx) -> None:
    """After movement: battles in newly Disputed areas are compulsory; others may be declared
    (2.0 II.3). With no Disputed area there is no battle: the combat phase is over at once."""
    s, d = ctx.state, ctx.data
    side = s.player
    disputed = [a for a in d.areas if s.area_state(a, d) == "disputed"]
    if not disputed:
        finish(ctx, "combat")
        return
    compulsory = [a for a in s.turn_state.became_disputed if a in disputed]
    ctx.emit(CombatPhaseBegan(side=side, compulsory=compulsory))
    s = ctx.state
    if s.hands.get(side) or any(True for _ in _declarable(s, d)):
        prompt(ctx, "declare_battles", side)
        return
    skip(ctx, "declare_battles", side, "every Disputed area is a Battle Area already and his "
                                       "hand is empty: nothing is left to declare or play "
                                       "(2.0 II.3, 5.1.2)")
    ask_cards(ctx, "attacker_cards", side)


def _declarable(s: State, d: GameData):
    """Disputed areas a battle may still be declared in (5.1.2, 9.1.2)."""
    if s.turn_state.mode == "limited" and s.combat["declared"]:
        return
    for a in _disputed(s, d):
        if a not in s.combat["declared"]:
            yield a


def _disputed(s: State, d: GameData) -> list[str]:
    return [a for a in d.areas if s.area_state(a, d) == "disputed"]


def _declare_prompt(s: State, d: GameData) -> str:
    c = s.combat
    have = ", ".join(d.areas[a].name for a in c["declared"]) or "none yet"
    return (f"{s.pending.side} declares battles (battles so far: {have}); newly Disputed areas "
            f"must be fought; then 'done' (2.0 II.3, 5.1.2)")


def _declare_candidates(s: State, d: GameData, side: str):
    for a in _disputed(s, d):
        if a not in s.combat["declared"]:
            yield DeclareBattle(area=a)
    yield Done()


def _declare_check(s: State, d: GameData, o: Ord, side: str) -> Violation | None:
    if isinstance(o, DeclareBattle):
        v = movement.off_map(d, o.area)
        if v:
            return v
        if s.area_state(o.area, d) != "disputed":
            return Violation("5.1.2", f"{d.areas[o.area].name} is not a Disputed area")
        if o.area in s.combat["declared"]:
            return Violation("5.1.2", f"a battle is already declared in {d.areas[o.area].name}")
        if s.turn_state.mode == "limited" and s.combat["declared"]:
            return Violation("9.1.2", f"a {d.card_title('limited_offensive')} allows one Battle "
                                      f"Area only")
    return None


def _declare_apply(ctx: Ctx, o: Ord, side: str) -> None:
    if isinstance(o, DeclareBattle):
        ctx.emit(BattleDeclared(area=o.area))
    elif not ctx.state.combat["declared"]:
        end_combat(ctx)
    else:
        ask_cards(ctx, "attacker_cards", side)


register(DecisionSpec(
    kind="declare_battles", rule="2.0 II.3", prompt=_declare_prompt,
    accepts=("battle", "done"), candidates=_declare_candidates, check=_declare_check,
    apply=_declare_apply))


# ---------------------------------------------------------------- combat cards (2.0 II.3b)

def _card_dates(s: State, d: GameData, key: str) -> Violation | None:
    ct = d.card_types[key]
    if ct.from_turn and s.turn < ct.from_turn:
        return Violation(ct.rule, f"{ct.title} may be played from {ct.from_label} only")
    if s.turn in ct.not_on_turns:
        return Violation(ct.rule, f"{ct.title} cannot be played on turn {s.turn}")
    return None


def _combat_card_check(s: State, d: GameData, o: PlayCard, side: str,
                       attacker: bool) -> Violation | None:
    if o.card not in d.combat_card_keys:
        names = [d.card_title(k) for k in d.combat_card_keys]
        known = (f"the combat cards are {and_list(names)}" if names else
                 "the deck has no combat card")
        return Violation("2.0 II.3", f"{d.card_title(o.card)} is not a combat card; {known}")
    ct = d.card_types[o.card]
    if first_card(s, d, side, o.card) is None:
        return Violation("1.3", f"the {side} hand holds no playable {ct.title} card")
    v = _card_dates(s, d, o.card)
    if v:
        return v
    c = s.combat
    played = [x for x in c["cards"] if x["side"] == side]
    if o.card == "bad_weather":
        if attacker:
            return Violation("9.5", f"{ct.title} is played by the defensive player")
        if o.area:
            return Violation("9.5", f"{ct.title} affects the whole turn; name no area")
        if c["weather"]:
            return Violation("9.5", f"{ct.title} has already been played this turn")
        return None
    if o.card == "surprise_attack" and not attacker:
        return Violation("9.7", f"{ct.title} is played by the attacker")
    if not o.area or o.area not in c["declared"]:
        return Violation(ct.rule, f"{ct.title} names one declared Battle Area")
    same = [x["key"] for x in played if x["area"] == o.area]
    if o.card in same:
        return Violation(ct.rule, f"one {ct.title} card per player per Battle Area")
    clash = [k for k in same if k in ct.not_with or o.card in d.card_types[k].not_with]
    if clash:                                           # deck.yaml not_with (9.3, 9.4)
        a, b = sorted((o.card, clash[0]), key=lambda k: d.card_order.index(d.card_types[k].ids[0]))
        ta, tb = d.card_types[a], d.card_types[b]
        return Violation(ct.rule, f"{ta.title} and {tb.title} cannot be combined ({ta.rule}, "
                                  f"{tb.rule})")
    return None


def _bonus_check(s: State, d: GameData, o: Bonus, side: str) -> Violation | None:
    key = s.turn_state.card_as
    bonus = d.card_bonus.get(key) if key else None
    if bonus is None:
        names = ", ".join(d.card_types[k].title for k in d.card_bonus)
        return Violation("9.1.3", f"no special offensive ({names}) is in play as itself this "
                                  f"turn")
    nation = bonus.army_nation
    ct = d.card_types[key]
    limit = bonus.battle_areas
    if len(s.combat["bonus"]) >= limit:
        return Violation(ct.rule, f"{ct.title} adds its dice in {limit} battle area(s) only")
    if o.area not in s.combat["declared"] or o.area in s.combat["bonus"]:
        return Violation(ct.rule, "name a declared Battle Area not named yet")
    if not any(a.nation == nation for a in s.armies_in(o.area, side, d)):
        return Violation(ct.rule, f"{ct.title} needs a {nation.upper()} army in the Battle Area")
    if no_fire_in_rough(d, bonus.fires_as) and d.areas[o.area].terrain == "rough":
        return Violation("8.3.5", f"{ct.title}'s extra dice are {bonus.fires_as} fire, and "
                                  f"{bonus.fires_as}s do not fire in Rough terrain "
                                  f"({d.areas[o.area].name}) ({ct.rule})")
    return None


def _cards_prompt(s: State, d: GameData) -> str:
    who = "attacker" if s.pending.kind == "attacker_cards" else "defender"
    names = [d.card_title(k) for k in combat_cards_of(d, who == "attacker")]
    if who == "attacker" and d.card_bonus:
        names.append("the special offensive's battle areas")
    what = ", ".join(names) or "none in this deck"
    return (f"{s.pending.side} ({who}) plays combat cards ({what}), naming their battle "
            f"areas; then 'done' (2.0 II.3b)")


def _cards_candidates(s: State, d: GameData, side: str):
    attacker = s.pending.kind == "attacker_cards"
    keys = [d.cards[c].key for c in playable_hand(s, side)]
    for key in d.combat_card_keys:
        if key in keys and key not in DEFENDER_ONLY:
            for a in s.combat["declared"]:
                yield PlayCard(card=key, area=a)
    if not attacker and "bad_weather" in keys and "bad_weather" in d.combat_card_keys:
        yield PlayCard(card="bad_weather")
    if attacker:
        for a in s.combat["declared"]:
            yield Bonus(area=a)
    yield Done()


def _cards_check(s: State, d: GameData, o: Ord, side: str) -> Violation | None:
    attacker = s.pending.kind == "attacker_cards"
    if isinstance(o, PlayCard):
        return _combat_card_check(s, d, o, side, attacker)
    if isinstance(o, Bonus):
        if not attacker:
            return Violation("9.1.3", "the special offensive belongs to the attacker")
        return _bonus_check(s, d, o, side)
    return None


def _cards_apply(ctx: Ctx, o: Ord, side: str) -> None:
    s, d = ctx.state, ctx.data
    kind = s.pending.kind
    if isinstance(o, PlayCard):
        card = first_card(s, d, side, o.card)
        ctx.emit(CombatCardPlayed(side=side, card=card, key=o.card, area=o.area))
        if o.card == "bad_weather":
            _bad_weather(ctx)
    elif isinstance(o, Bonus):
        ctx.emit(BonusDesignated(area=o.area))
    elif kind == "attacker_cards":
        ask_cards(ctx, "defender_cards", other(side, ctx.data))
    else:
        finish(ctx, "declare_battles")


def cards_cannot_matter(s: State, d: GameData, kind: str, side: str) -> str | None:
    """Why a side's combat-card decision cannot matter, on public facts only (2.0 II.3b).

    Only what the opponent sees counts: the size of the hand (never which
    cards it holds), the date, the cards already played and the position.
    """
    if kind == "attacker_cards":
        if s.hands.get(side):
            return None
        if any(_bonus_check(s, d, Bonus(area=a), side) is None for a in s.combat["declared"]):
            return None
        return "his hand is empty and no special offensive's dice are to be placed"
    if not s.hands.get(side):
        return "his hand is empty"
    keys = combat_cards_of(d, attacker=False)
    for key in keys:
        if _card_dates(s, d, key) is None and not (key == "bad_weather" and
                                                    s.combat["weather"]):
            return None
    # The deck's dates: the turns a card is never played, then the first turns (9.3-9.5).
    cts = [d.card_types[k] for k in keys]
    dates = [f"{ct.title} not on turn{'s' if len(ct.not_on_turns) > 1 else ''} "
             f"{and_list([str(t) for t in ct.not_on_turns])}, {ct.rule}"
             for ct in cts if ct.not_on_turns]
    dates += [f"{ct.title} from {ct.from_label or d.label(ct.from_turn)}, {ct.rule}"
              for ct in cts if ct.from_turn]
    why = f" ({'; '.join(dates)})" if dates else ""
    return f"no combat card the defender plays is allowed now{why}"


def ask_cards(ctx: Ctx, kind: str, side: str) -> None:
    """Ask a side for combat cards, unless public facts say no card can be played (2.0 II.3b)."""
    reason = cards_cannot_matter(ctx.state, ctx.data, kind, side)
    if reason is None:
        prompt(ctx, kind, side)
    else:
        skip(ctx, kind, side, reason)
        if kind == "attacker_cards":
            ask_cards(ctx, "defender_cards", other(side, ctx.data))
        else:
            finish(ctx, "declare_battles")


def _bad_weather(ctx: Ctx) -> None:
    """Bad Weather downgrades the attacker's card one step (9.5)."""
    ts = ctx.state.turn_state
    before = ts.card_as
    after = {"offensive": "limited_offensive", "limited_offensive": "pass"}.get(before,
                                                                              "offensive")
    ctx.emit(OffensiveDowngraded(side=ts.side, before=before, after=after))


for _kind, _side in (("attacker_cards", "attacker"), ("defender_cards", "defender")):
    register(DecisionSpec(
        kind=_kind, rule="2.0 II.3", prompt=_cards_prompt,
        accepts=("play", "bonus", "done"), candidates=_cards_candidates, check=_cards_check,
        apply=_cards_apply))


def after_cards(ctx: Ctx) -> None:
    """The combat phase (2.0 II.4), once the cards are played: apply Bad Weather's downgrade to
    the declared battles, then fight them (9.5).

    Our reading where the downgrade meets battles already compulsory: an
    Offensive become Limited keeps one battle of the attacker's choice; a
    Limited Offensive become a pass fights none. The other areas stay
    Disputed with no battle this turn.
    """
    s = ctx.state
    mode = s.turn_state.mode
    declared = list(s.combat["declared"])
    if mode == "weather_pass":
        for a in declared:
            ctx.emit(BattleCancelled(area=a, reason=f"{ctx.data.card_title('bad_weather')} "
                                                    f"turned the "
                                                    f"{ctx.data.card_title('limited_offensive')} "
                                                    f"into a pass (9.5)"))
        end_combat(ctx)
    elif mode == "limited" and len(declared) > 1:
        prompt(ctx, "keep_battle", s.turn_state.side)
    else:
        next_battle(ctx)


def _keep_candidates(s: State, d: GameData, side: str):
    for a in s.combat["declared"]:
        yield Keep(area=a)


def _keep_check(s: State, d: GameData, o: Keep, side: str) -> Violation | None:
    if o.area not in s.combat["declared"]:
        return Violation("9.5", f"no battle is declared in {d.areas.get(o.area, o.area)}")
    return None


def _keep_apply(ctx: Ctx, o: Keep, side: str) -> None:
    for a in list(ctx.state.combat["declared"]):
        if a != o.area:
            d = ctx.data
            ctx.emit(BattleCancelled(area=a, reason=f"{d.card_title('bad_weather')} turned the "
                                                    f"{d.card_title('offensive')} into a "
                                                    f"{d.card_title('limited_offensive')}: one "
                                                    f"battle only (9.5)"))
    next_battle(ctx)


register(DecisionSpec(
    kind="keep_battle", rule="9.5",
    prompt=lambda s, d: (f"{s.pending.side}: {d.card_title('bad_weather')} made the "
                         f"{d.card_title('offensive')} a Limited one; "
                         f"keep one battle, the others are not fought (9.5)"),
    accepts=("keep",), candidates=_keep_candidates, check=_keep_check, apply=_keep_apply))


# ---------------------------------------------------------------- the battles in turn (5.2.1)

def next_battle(ctx: Ctx) -> None:
    """Fight the next declared battle; the attacker chooses the order (5.2.1)."""
    c = ctx.state.combat
    left = [a for a in c["declared"] if a not in c["resolved"]]
    if not left:
        end_combat(ctx)
    elif len(left) == 1:
        start_battle(ctx, left[0])
    else:
        prompt(ctx, "battle_order", c["attacker"])


def _order_candidates(s: State, d: GameData, side: str):
    for a in s.combat["declared"]:
        if a not in s.combat["resolved"]:
            yield Fight(area=a)


def _order_check(s: State, d: GameData, o: Fight, side: str) -> Violation | None:
    c = s.combat
    if o.area not in c["declared"] or o.area in c["resolved"]:
        return Violation("5.2.1", f"{d.areas.get(o.area, o.area)} is not a battle still to "
                                  f"be fought")
    return None


register(DecisionSpec(
    kind="battle_order", rule="5.2.1",
    prompt=lambda s, d: f"{s.pending.side} chooses the next battle to fight (5.2.1)",
    accepts=("fight",), candidates=_order_candidates, check=_order_check,
    apply=lambda ctx, o, side: start_battle(ctx, o.area)))


def start_battle(ctx: Ctx, area: str) -> None:
    """Begin one battle: surprise order if a Surprise Attack! names it (4a, 9.7)."""
    s = ctx.state
    att = s.combat["attacker"]
    surprise = any(c["key"] == "surprise_attack" and c["area"] == area
                   for c in s.combat["cards"])
    ctx.emit(BattleBegan(area=area, attacker=att, defender=other(att, ctx.data), surprise=surprise))
    if scramble.start(ctx):                # optional 13.7: the defender may shift Biplanes in
        return
    _first_step(ctx)
    continue_battle(ctx)


def _first_step(ctx: Ctx) -> None:
    ctx.emit(BattleStep(step="cavalry_attacker"))


def _steps(s: State) -> list[str]:
    return SURPRISE if s.battle["surprise"] else NORMAL


def advance_step(ctx: Ctx) -> None:
    steps = _steps(ctx.state)
    ctx.emit(BattleStep(step=steps[steps.index(ctx.state.battle["step"]) + 1]))


def continue_battle(ctx: Ctx) -> None:
    """Run the battle's steps until a player must decide, or the battle ends."""
    while ctx.state.battle is not None:
        s, d = ctx.state, ctx.data
        b = s.battle
        pay = b["pay"]
        if pay and (pay["hits"] or pay["siege"]):
            if losses.settle_unpayable(ctx):
                continue
            spec = DECISIONS["losses"]
            options = [o for o in spec.candidates(s, d, pay["side"])
                       if spec.check(s, d, o, pay["side"]) is None]
            if len(options) == 1:          # no choice to make: the referee applies it
                losses.pay(ctx, options[0], pay["side"])
                continue
            if s.pending is None or s.pending.kind != "losses" or s.pending.side != pay["side"]:
                prompt(ctx, "losses", pay["side"])
            return
        if STEP[b["step"]](ctx):
            return


def has_target(s: State, d: GameData, side: str) -> bool:
    """side has something in the battle that hits can fall on: a unit or a fort (5.2.3, 5.4).

    Units with a retreat marker take no losses (5.4.4); a fort never retreats
    and takes hits (and its fall may leave retreated units alone, 5.4.4).
    """
    area = s.battle["area"]
    return bool(units_in(s, d, area, side)) or any(
        f.area == area and d.nation_side[f.nation] == side for f in s.forts.values())


def _fire(ctx: Ctx, phase: str, side: str, reacting: list[str | None] | None = None) -> None:
    """Roll one fire phase, unless nothing of the enemy is left for its dice to hit (5.2.3)."""
    if not has_target(ctx.state, ctx.data, other(side, ctx.data)):
        return
    ev = roll(ctx, phase, side, reacting)
    if ev.groups:
        ctx.emit(ev)


def _pay(ctx: Ctx, payer: str, phase: str, target: str = "battle") -> None:
    """The side that was fired on in a phase pays what that fire hit."""
    hits, siege = ctx.state.battle["fired"].get(f"{phase}:{other(payer, ctx.data)}", (0, 0))
    if hits or siege:
        ctx.emit(HitsToPay(side=payer, hits=hits, siege_hits=siege, target=target))


# Each step function returns True when it stopped for a decision.

def _cavalry(side_key: str):
    def step(ctx: Ctx) -> bool:
        b = ctx.state.battle
        side = b[side_key]
        if cavalry_may_retreat(ctx.state, ctx.data, side):
            prompt(ctx, "cavalry_retreat", side)
            return True
        skip(ctx, "cavalry_retreat", side, "no cavalry of his in the battle can retreat (5.4.3)")
        advance_step(ctx)
        return False
    return step


def cavalry_may_retreat(s: State, d: GameData, side: str) -> bool:
    """Whether to ask side for a cavalry retreat before combat, on public facts only (5.4.3).

    With hidden templates (1.4) what an army holds is secret: a side with an
    army in the battle and a Friendly or Disputed area next to it is asked
    whatever the army holds, so the question gives nothing away.
    """
    options = retreat_options(s, d, side, "cavalry")
    if not hidden_templates(s):
        return bool(options)
    if any(o.unit in s.pieces for o in options):
        return True
    area = s.battle["area"]
    return any(a.id not in s.combat["markers"] for a in s.armies_in(area, side, d)) and any(
        s.status(n, side, d) in ("friendly", "disputed") for n in d.neighbours[area])


def _dogfight(ctx: Ctx) -> bool:
    s, d = ctx.state, ctx.data
    b = s.battle
    area = b["area"]
    if not s.combat["weather"] and has_biplanes(s, d, area, b["attacker"]) and \
            has_biplanes(s, d, area, b["defender"]):
        # 5.2.1a: all Biplanes of both sides fire at once; losses fall on Biplanes only.
        att = roll(ctx, "dogfight", b["attacker"])
        dfn = roll(ctx, "dogfight", b["defender"])
        ctx.emit(att)
        ctx.emit(dfn)
    advance_step(ctx)
    return False


def _dog_pay(side_key: str):
    def step(ctx: Ctx) -> bool:
        side = ctx.state.battle[side_key]
        advance_step(ctx)
        _pay(ctx, side, "dogfight", "dogfight")
        return False
    return step


def _artillery(ctx: Ctx) -> bool:
    _fire(ctx, "artillery", ctx.state.battle["attacker"])
    advance_step(ctx)
    return False


def _pays(side_key: str, phase: str):
    def step(ctx: Ctx) -> bool:
        side = ctx.state.battle[side_key]
        advance_step(ctx)
        _pay(ctx, side, phase)
        return False
    return step


def _defence(ctx: Ctx) -> bool:
    s, d = ctx.state, ctx.data
    side = s.battle["defender"]
    if retreat_options(s, d, side, "instead") or reaction_options(s, d) and \
            not s.battle["surprise"]:
        prompt(ctx, "defence", side)
        return True
    after_defence(ctx)
    return False


def after_defence(ctx: Ctx) -> None:
    """End of the defender's retreat declarations: empty armies out, then pursuit fire (8.3.1)."""
    s, d = ctx.state, ctx.data
    b = s.battle
    side, area = b["defender"], b["area"]
    for a in s.armies_in(area, side, d):
        if a.strength == 0 and a.id not in s.combat["markers"]:
            ctx.emit(ArmyEliminated(side=side, army=a.id, area=area, rule="8.1",
                                    reason="an empty army that could not retreat from a battle"))
    b = ctx.state.battle
    instead = b["instead"]
    kinds = _kinds_of(ctx.state, d, instead)
    stays = any(u.kind in d.units.infantry_types for u in units_in(ctx.state, d, area, side))
    advance_step(ctx)
    if instead and not stays and not kinds & d.units.kinds_with("retreat_before_combat"):
        ev = roll(ctx, "pursuit", b["attacker"])
        if ev.groups:
            ctx.emit(ev)
            if ev.hits:
                ctx.emit(HitsToPay(side=side, hits=ev.hits, target="pursuit"))


def _kinds_of(s: State, d: GameData, refs: list[str]) -> set[str]:
    out = set()
    for r in refs:
        if r in s.pieces:
            out.add(s.pieces[r].kind)
        elif r in s.armies:
            out |= {k.split(":")[1] for k in s.armies[r].contents}
    return out


def _reaction(ctx: Ctx) -> bool:
    if reaction_options(ctx.state, ctx.data):
        prompt(ctx, "reaction", ctx.state.battle["defender"])
        return True
    advance_step(ctx)
    return False


def _pursuit_pays(ctx: Ctx) -> bool:
    advance_step(ctx)
    return False


def _defensive_fire(ctx: Ctx) -> bool:
    _fire(ctx, "defensive", ctx.state.battle["defender"])
    advance_step(ctx)
    return False


def _offensive_fire(ctx: Ctx) -> bool:
    s = ctx.state
    on = s.battle.get("react_on", {})
    reacting = [] if s.combat["weather"] else [on.get(r) for r in s.battle["reacting"]]
    _fire(ctx, "offensive", s.battle["attacker"], reacting)
    advance_step(ctx)
    return False


def _retreat_after(side_key: str):
    def step(ctx: Ctx) -> bool:
        s, d = ctx.state, ctx.data
        side = s.battle[side_key]
        if retreat_options(s, d, side, "after") or forced_left(s, d) and \
                side == s.battle["defender"]:
            prompt(ctx, "retreat_after", side)
            return True
        if side == s.battle["defender"] and forced_eliminations(ctx):
            return True
        advance_step(ctx)
        return False
    return step


def _end(ctx: Ctx) -> bool:
    """End of one battle: stranded retreated units go (5.4.4), then control and auxiliaries."""
    s, d = ctx.state, ctx.data
    area = s.battle["area"]
    marks = set(s.combat["markers"])
    for side in (s.battle["attacker"], s.battle["defender"]):
        forts = any(f.area == area and d.nation_side[f.nation] == side for f in s.forts.values())
        if s.present(area, other(side, d), d) and not units_in(s, d, area, side) and not forts:
            for a in s.armies_in(area, side, d):
                if a.id in marks:
                    ctx.emit(ArmyEliminated(side=side, army=a.id, area=area, rule="5.4.4",
                                            reason="retreated here, and left alone it would "
                                                   "have to retreat a second time"))
            for p in s.pieces_in(area, side, d):
                if p.id in marks:
                    ctx.emit(PieceEliminated(side=side, unit=p.id, nation=p.nation,
                                             kind=p.kind, area=area, rule="5.4.4",
                                             reason="retreated here, and left alone it would "
                                                    "have to retreat a second time"))
    touched = [area, *ctx.state.battle["after_to"].values()]
    movement.settle(ctx, touched + list(d.neighbours[area]))
    movement.unaccompanied(ctx, "combat phase")
    ctx.emit(BattleEnded(area=area))
    next_battle(ctx)
    return True


STEP = {
    "cavalry_attacker": _cavalry("attacker"), "cavalry_defender": _cavalry("defender"),
    "dogfight": _dogfight, "dogfight_attacker_pays": _dog_pay("attacker"),
    "dogfight_defender_pays": _dog_pay("defender"), "artillery": _artillery,
    "artillery_pays": _pays("defender", "artillery"), "defence": _defence,
    "reaction": _reaction, "pursuit_pays": _pursuit_pays, "defensive_fire": _defensive_fire,
    "defensive_pays": _pays("attacker", "defensive"), "offensive_fire": _offensive_fire,
    "offensive_pays": _pays("defender", "offensive"),
    "retreat_attacker": _retreat_after("attacker"),
    "retreat_defender": _retreat_after("defender"), "end": _end,
}


# The decisions of a battle's steps are answered in losses.py, retreats.py and scramble.py:
# their handlers return what the battle does next (None: the decision stays open), and the
# battle goes on from here; they never call back into combat (5.2-5.4, 13.7).
THEN = {
    "go_on": lambda ctx: None,              # hits paid: the step goes on (5.3)
    "advance": advance_step,                # the step is over
    "after_defence": after_defence,         # the defender's declarations are over (5.4.1)
    "begin": _first_step,                   # the scramble is over: the battle begins (13.7)
}


def _goes_on(spec: DecisionSpec) -> DecisionSpec:
    """A battle decision whose answer says what the battle does next, and combat does it (5.2)."""
    answer = spec.apply

    def apply(ctx: Ctx, o: Ord, side: str) -> None:
        then = answer(ctx, o, side)
        if then is not None:
            THEN[then](ctx)
            continue_battle(ctx)
    return msgspec.structs.replace(spec, apply=apply)


for _kind in ("scramble", "cavalry_retreat", "defence", "reaction", "losses", "retreat_after",
              "forced_elimination"):
    register(_goes_on(DECISIONS[_kind]))


def end_combat(ctx: Ctx) -> None:
    """All battles fought: retreat markers come off; the combat phase is over (5.4)."""
    ctx.emit(CombatPhaseEnded())
    finish(ctx, "combat")
