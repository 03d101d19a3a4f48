"""Declare battles and play combat cards (2.0 II.3, 5.1, 9.1-9.7).

After movement the attacker declares battles (newly Disputed areas are
battles already) and both sides play combat cards; Bad Weather may then
cancel some of them (9.5). battle.py fights what is left.
"""

from __future__ import annotations

from ..base.plurals import a_or_an, counted
from ..contracts.events_combat import (
    BattleCancelled,
    BattleDeclared,
    BonusDesignated,
    CombatCardPlayed,
    CombatPhaseBegan,
    OffensiveDowngraded,
)
from ..contracts.orders import Bonus, DeclareBattle, Done, Keep, Ord, PlayCard
from ..data.gamedata import GameData
from . import movement
from .battle import end_combat, next_battle
from .cards import first_card, playable_hand
from .core import Ctx, DecisionSpec, Violation, and_list, finish, prompt, register, skip
from .fire import no_fire_in_rough
from .state import State, other

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
    return (f"declare battles (battles so far: {have}); newly Disputed areas must be fought; "
            f"then 'done' (2.0 II.3, 5.1.2)")


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
            return Violation("9.1.2", f"{a_or_an(d.card_title('limited_offensive'))} allows "
                                      f"one Battle Area only")
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


def _held_combat_cards(s: State, d: GameData, side: str) -> list[str] | None:
    """The combat cards of side's part that his hand holds, deck order; None unless side is
    asked for combat cards now."""
    p = s.pending
    if p is None or p.side != side or p.kind not in ("attacker_cards", "defender_cards"):
        return None
    held = {d.cards[c].key for c in playable_hand(s, side)}
    return [k for k in combat_cards_of(d, p.kind == "attacker_cards") if k in held]


def barred_in_hand(s: State, d: GameData, side: str) -> list[str]:
    """The combat cards of side's hand that the date forbids now, each with the rule's
    reason: 'Poison Gas! may be played from SPRING 1915 only (9.3)'; none unless side is
    asked for combat cards. Secret (his hand): for his own report only."""
    barred = [_card_dates(s, d, k) for k in _held_combat_cards(s, d, side) or []]
    return [f"{v.reason} ({v.rule})" for v in barred if v is not None]


def allowed_in_hand(s: State, d: GameData, side: str) -> list[str] | None:
    """The titles of the combat cards his prompt names (those the date allows, 9.3-9.5) that
    side's hand holds; None unless side is asked for combat cards. Secret (his hand): for
    his own report only, as barred_in_hand."""
    keys = allowed_in_keys(s, d, side)
    return None if keys is None else [d.card_title(k) for k in keys]


def allowed_in_keys(s: State, d: GameData, side: str) -> list[str] | None:
    """The keys of allowed_in_hand's cards, deck order."""
    held = _held_combat_cards(s, d, side)
    return None if held is None else [k for k in held if _open_now(s, d, k)]


def _open_now(s: State, d: GameData, key: str) -> bool:
    """Whether the date allows the card and Bad Weather, once played, has not closed it: no
    second Bad Weather, no Poison Gas! it neutralizes, no card at all when no battle is left
    (9.3, 9.5). Public facts only: the prompt says it."""
    if _card_dates(s, d, key) is not None:
        return False
    return not s.combat["weather"] or not (
        key in DEFENDER_ONLY or s.turn_state.mode == "weather_pass" or
        "bad_weather" in d.card_types[key].cancelled_by)


def _combat_card_check(s: State, d: GameData, o: PlayCard, side: str,
                       attacker: bool) -> Violation | None:
    if o.card not in d.combat_card_keys:
        names = [d.card_title(k) for k in d.combat_card_keys]
        known = (f"the combat cards are {and_list(names)}" if names else
                 "the deck has no combat card")
        return Violation("2.0 II.3", f"{d.card_title(o.card)} is not a combat card; {known}")
    ct = d.card_types[o.card]
    if first_card(s, d, side, o.card) is None:
        where = [d.areas[x["area"]].name if x["area"] else "this turn"
                 for x in s.combat["cards"] if x["side"] == side and x["key"] == o.card]
        if where:
            return Violation("1.3", f"{ct.title} is played already ({and_list(where)}); the "
                                    f"{d.side_name(side)} hand holds no other")
        return Violation("1.3", f"the {d.side_name(side)} hand holds no playable {ct.title} card")
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
    v = _after_bad_weather(s, d, o)
    if v:
        return v
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


def _after_bad_weather(s: State, d: GameData, o: PlayCard) -> Violation | None:
    """A combat card names a Battle Area (2.0 II.3b): none is left once Bad Weather has made
    the Limited Offensive a pass (9.5); and Bad Weather neutralizes every Poison Gas! of the
    turn, those played after it too (9.3), so such a card is refused, not played for nothing."""
    if not s.combat["weather"]:
        return None
    ct, weather = d.card_types[o.card], d.card_title("bad_weather")
    if s.turn_state.mode == "weather_pass":
        return Violation("9.5", f"no battle is left in {d.areas[o.area].name}: {weather} turned "
                                f"the {d.card_title('limited_offensive')} into a pass, and "
                                f"{ct.title} names a Battle Area (2.0 II.3b)")
    if "bad_weather" in ct.cancelled_by:
        return Violation(ct.rule, f"{weather} was played this turn: it neutralizes every "
                                  f"{ct.title} card of the turn, so {ct.title} would do nothing "
                                  f"(9.5)")
    return None


def _bonus_check(s: State, d: GameData, o: Bonus, side: str) -> Violation | None:
    key = s.turn_state.card_as
    bonus = d.card_bonus.get(key) if key else None
    if bonus is None:
        names = ", ".join(d.card_types[k].title for k in d.card_bonus)
        rules = ", ".join(dict.fromkeys(d.card_types[k].rule for k in d.card_bonus)) or "9.1"
        return Violation(rules, f"no special offensive ({names}) is in play as itself this "
                                f"turn")
    nation = bonus.army_nation
    ct = d.card_types[key]
    limit = bonus.battle_areas
    if o.area in s.combat["bonus"]:
        return Violation(ct.rule, f"{d.areas[o.area].name} is already chosen for "
                                  f"{ct.title}'s extra dice")
    if len(s.combat["bonus"]) >= limit:
        return Violation(ct.rule, f"{ct.title} adds its dice in "
                                  f"{counted(limit, 'battle area')} only")
    if o.area not in s.combat["declared"] or o.area in s.combat["bonus"]:
        return Violation(ct.rule, "name a declared Battle Area not named yet")
    if not any(a.nation == nation for a in s.armies_in(o.area, side, d)):
        return Violation(ct.rule, f"{ct.title} needs {a_or_an(nation.upper())} army in the "
                                  f"Battle Area")
    if no_fire_in_rough(d, bonus.fires_as) and d.areas[o.area].terrain == "rough":
        return Violation("8.3.5", f"{ct.title}'s extra dice are {bonus.fires_as} fire, and "
                                  f"{bonus.fires_as}s do not fire in Rough terrain "
                                  f"({d.areas[o.area].name}) ({ct.rule})")
    return None


def _cards_prompt(s: State, d: GameData, own: bool = False) -> str:
    """The combat cards the side asked may play now: the deck's for his part, but none the
    date forbids to everyone (9.3-9.5); which of his own hand are not allowed, and why, his
    own report tells (barred_in_hand), never the prompt, which the opponent reads too. A card
    played in a battle area names it; Bad Weather names none, it affects every battle
    (9.5), and the prompt says so; once played, it closes what _open_now says. The list
    holds cards alone: the battle areas a special offensive in play gives its extra dice
    (9.1) are said apart, with the order that names them, and only while one is in play.
    own: the words for the side asked alone, which lead with what his hand holds."""
    who = "attacker" if s.pending.kind == "attacker_cards" else "defender"
    keys = combat_cards_of(d, who == "attacker")
    allowed = [k for k in keys if _open_now(s, d, k)]
    names = [d.card_title(k) for k in allowed if k not in DEFENDER_ONLY]
    whole = [f"{d.card_title(k)}, which names no battle area: it affects every battle "
             f"({d.card_types[k].rule})" for k in allowed if k in DEFENDER_ONLY]
    bonus = _bonus_words(s, d) if who == "attacker" else None
    if not names and not whole and bonus is None:
        what = "none the rules allow now" if keys else "none in this deck"
        return f"as {who}, play combat cards ({what}); then 'done' (2.0 II.3b)"
    if own and allowed:
        return _own_cards_prompt(s, d, who, allowed, bonus)
    areas = "their battle areas" if len(names) > 1 else "its battle area"
    # The deck's cards the rules allow now, never read as the cards in his hand: the other
    # side reads the prompt too ('Waiting on the German player: ... (cards allowed now:
    # Surprise Attack!)' read as a card the German held), so it names the rules, not him.
    said = [f"combat cards (cards the rules allow now: {', '.join(names)}), naming {areas}"] \
        if names else []
    play = f"play {', or '.join(said + whole)}" if said or whole else ""
    extra = f"{'; ' if play else ''}{bonus}" if bonus else ""
    return f"as {who}, {play}{extra}; then 'done' (2.0 II.3b)"


def _own_cards_prompt(s: State, d: GameData, who: str, allowed: list[str],
                      bonus: str | None) -> str:
    """The combat cards asked of the side asked, read by him alone: which of the cards the
    rules allow now his hand holds, first, never the list alone, which read as his hand
    (2.0 II.3b). Secret (his hand): pending_prompt gives it to him only."""
    listed = ", ".join(d.card_title(k) for k in allowed)
    held = [k for k in allowed if k in (allowed_in_keys(s, d, s.pending.side) or [])]
    extra = f"; {bonus}" if bonus else ""
    if not held:
        return (f"as {who}, your hand holds none of the cards the rules allow now "
                f"({listed}){extra}; then 'done' (2.0 II.3b)")
    named = [d.card_title(k) for k in held if k not in DEFENDER_ONLY]
    plays = [f"play {'it' if len(named) == 1 else 'them'}, naming "
             f"{'its battle area' if len(named) == 1 else 'their battle areas'}"] if named else []
    plays += [f"play {d.card_title(k)}, which names no battle area: it affects every battle "
              f"({d.card_types[k].rule})" for k in held if k in DEFENDER_ONLY]
    return (f"as {who}, of the cards the rules allow now ({listed}) your hand holds "
            f"{and_list([d.card_title(k) for k in held])}: {', or '.join(plays)}{extra}; "
            f"then 'done' (2.0 II.3b)")


def _bonus_words(s: State, d: GameData) -> str | None:
    """The special offensive in play as itself this turn, said apart from the cards: the
    battle areas still to name for its extra dice, with the order that names one (9.1.3-
    9.1.6), counted among the areas the order may name now (its check, as legal_orders has
    it); that its dice are lost and why when no area can take any; None with no special
    offensive in play, or its areas all named, or no more area able to take them."""
    key = s.turn_state.card_as
    bonus = d.card_bonus.get(key) if key else None
    if bonus is None:
        return None
    left = bonus.battle_areas - len(s.combat["bonus"])
    if left <= 0:
        return None
    ct = d.card_types[key]
    side = s.pending.side
    # The areas the order may name are legal_orders' own (the single source of legality).
    open_areas = [a for a in s.combat["declared"]
                  if _bonus_check(s, d, Bonus(area=a), side) is None]
    if not open_areas:
        return None if s.combat["bonus"] else _bonus_lost(s, d, key, side)
    left = min(left, len(open_areas))
    more = " more" if s.combat["bonus"] else ""
    return (f"name {'a' if left == 1 else f'up to {left}'}{more} battle "
            f"{'area' if left == 1 else 'areas'} for {ct.title}'s extra dice "
            f"('bonus AREA', {ct.rule})")


def _bonus_lost(s: State, d: GameData, key: str, side: str) -> str:
    """Why no Battle Area can take a special offensive's extra dice, which are lost (9.1.3-
    9.1.6: they go to a designated Battle Area holding an Army of the card's nation; 8.3.5:
    tanks do not fire in Rough terrain)."""
    ct, bonus = d.card_types[key], d.card_bonus[key]
    held = [a for a in s.combat["declared"]
            if any(x.nation == bonus.army_nation for x in s.armies_in(a, side, d))]
    army = a_or_an(f"{bonus.army_nation.upper()} army")
    if not held:
        why = f"no Battle Area holds {army} ({ct.rule})"
    else:
        names = and_list([d.areas[a].name for a in held])
        why = (f"the Battle {'Area' if len(held) == 1 else 'Areas'} holding {army} "
               f"({names}) {'is' if len(held) == 1 else 'are'} Rough terrain, where "
               f"{bonus.fires_as}s do not fire (8.3.5, {ct.rule})")
    return f"{ct.title}'s extra dice are lost: {why}"


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
            key = s.turn_state.card_as
            rule = d.card_types[key].rule if key in d.card_bonus else "9.1"
            return Violation(rule, "the special offensive belongs to the attacker")
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
        apply=_cards_apply, extra={"own_prompt": lambda s, d: _cards_prompt(s, d, own=True)}))


def after_cards(ctx: Ctx) -> None:
    """The combat phase (2.0 II.4), once the cards are played: apply Bad Weather's downgrade to
    the declared battles, then fight them (9.5).

    Our reading where the downgrade meets battles already compulsory: an
    Offensive become Limited keeps one battle of the attacker's choice among
    the compulsory ones (a newly Disputed area must have its round of combat,
    5.1.1), any declared one when none is compulsory, and is not asked when
    that leaves one; a Limited Offensive become a pass fights none. The other
    areas stay Disputed with no battle this turn.
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
        keepable = _keepable(s)
        if len(keepable) == 1:
            _cancel_all_but(ctx, keepable[0])
        else:
            prompt(ctx, "keep_battle", s.turn_state.side)
    else:
        next_battle(ctx)


def _keepable(s: State) -> list[str]:
    """The battles a Limited Offensive may keep: the compulsory ones when there are any
    (5.1.1: a newly Disputed area must have its round of combat), else any declared."""
    declared = list(s.combat["declared"])
    return [a for a in declared if a in s.combat.get("compulsory", [])] or declared


def _keep_candidates(s: State, d: GameData, side: str):
    for a in _keepable(s):
        yield Keep(area=a)


def _keep_check(s: State, d: GameData, o: Keep, side: str) -> Violation | None:
    if o.area not in s.combat["declared"]:
        return Violation("9.5", f"no battle is declared in {d.areas.get(o.area, o.area)}")
    if o.area not in _keepable(s):
        return Violation("5.1.1", f"{d.areas[o.area].name} was Disputed before this turn; "
                                  f"the battle kept must be one in a newly Disputed area "
                                  f"({', '.join(d.areas[a].name for a in _keepable(s))})")
    return None


def _keep_apply(ctx: Ctx, o: Keep, side: str) -> None:
    _cancel_all_but(ctx, o.area)


def _cancel_all_but(ctx: Ctx, kept: str) -> None:
    for a in list(ctx.state.combat["declared"]):
        if a != kept:
            d = ctx.data
            ctx.emit(BattleCancelled(area=a, reason=f"{d.card_title('bad_weather')} turned the "
                                                    f"{d.card_title('offensive')} into a "
                                                    f"{d.card_title('limited_offensive')}: one "
                                                    f"battle only (9.5)"))
    next_battle(ctx)


register(DecisionSpec(
    kind="keep_battle", rule="9.5",
    prompt=lambda s, d: (f"{d.card_title('bad_weather')} made the "
                         f"{d.card_title('offensive')} a Limited one; "
                         f"keep one battle, the others are not fought (9.5)"),
    accepts=("keep",), candidates=_keep_candidates, check=_keep_check, apply=_keep_apply))

