"""The orders a side's report lists as open to him, and each one's form, derived from the
checks that refuse them (decider.check, checks.may_fire): an order listed can be legal, and
a value a form names is one some order of his could take now."""

from __future__ import annotations

from ...base.plurals import a_or_an, joined
from ...contracts.skirmish import SkirmishCard
from ...render.documents import side_name
from . import decider as sk
from .checks import fighting, may_fire, owed_melees
from .contacted import contactable
from .order_text import order_form
from .readable import HANGING, reads
from .state import FigureState, SkState
from .turns import next_side, open_unit, turn_words

_FIRES = ("fire", "unaimed")


def usable(card: SkirmishCard, state: SkState, side: str, verb: str) -> bool:
    """Whether some order of verb may be legal for side now (a verb of the phase): one
    decider.check takes, of those _tried (a fire, a move, a melee: as their forms read
    them); done is always listed, its mail naming what the card compels first."""
    if verb in _FIRES:
        return any(f.side == side and may_fire(card, state, f, (verb,))
                   for f in state.figures.values())
    if verb == "move":
        return bool(_moves(card, state, side))
    if verb == "melee":
        return any(True for _ in _melees(card, state, side))
    return verb not in _TRIED or any(sk.check(card, state, o, side) is None
                                     for o in _tried(card, state, side, verb))


_TRIED = ("spot", "unpin", "rally", "morale", "surrender")


def _tried(card: SkirmishCard, state: SkState, side: str, verb: str):
    """An order of verb for each subject (and target) it could have now, with the facts
    that favour it (the check reads whether a fact is declared, not its value, but for a
    leader's command and a morale test's trigger): one of them is legal when any is."""
    figures = state.figures.values()
    if verb == "spot":
        seen = {"range": 0, **{k: getattr(card.facts, k)[0] for k in ("light", "state",
                                                                       "cover")}}
        yield from (sk.SkOrder("spot", f.id, {"at": [g.id], **seen}) for f in figures
                    for g in figures if f.side == side and g.side != side and g.active)
    elif verb == "unpin":
        yield from (sk.SkOrder("unpin", f.id, {"command": True}) for f in figures
                    if f.side == side and f.pins)
    elif verb in ("rally", "morale"):
        own = [s.id for s in state.sections.values() if s.side == side]
        facts = [{}] if verb == "rally" else [{"trigger": t} for t in card.morale.triggers]
        yield from (sk.SkOrder(verb, s, x) for s in own for x in facts)
    else:                               # surrender: his own, or claimed of the enemy
        yield from (sk.SkOrder(verb, s, {"reason": "routing"}) for s in state.sections)
        yield from (sk.SkOrder(verb, f.id, {"reason": "melee"}) for f in figures)


def waits_turn(card: SkirmishCard, state: SkState, side: str) -> bool:
    """Whether side, still to say done, waits for the other side's unit to move first
    (movement alternates units) with no move of his own legal meanwhile: he is told he
    waits, not asked (his done and a spotting test are still taken, as a side not waited
    on in a fire step may spot)."""
    mover = _mover(card, state)
    return mover not in (None, side) and not _moves(card, state, side)


def _mover(card: SkirmishCard, state: SkState) -> str | None:
    """The side whose unit moves next in the movement phase (None: not in it, or no
    turns left to keep)."""
    if sk.phase_of(card, state).phase != "movement":
        return None
    return next_side(state) if card.unit_turns else sk.moving_next(state)


def still_open(card: SkirmishCard, state: SkState, side: str) -> list[str]:
    """The verbs a side the game does not wait on may still send now, each one check takes
    some order of: a spotting test in a phase that passes him over (a fire step with none
    of his figures fit, the other side's off-table artillery), and while his unit moves
    after the other's, the tests of the phase and done."""
    if side in state.done:
        return ["spot"] if side in state.passed and usable(card, state, side, "spot") else []
    if not waits_turn(card, state, side):
        return []
    tests = ["fire" if t == "aimed" else t for t in sk.phase_of(card, state).tests]
    done = any(sk.check(card, state, sk.SkOrder("done", named, {}), side) is None
               for named in (None, sk.phase_of(card, state).phase))   # dones.py
    return [t for t in tests if usable(card, state, side, t)] + (["done"] if done else [])


def fallen_firing(card: SkirmishCard, state: SkState, side: str) -> str:
    """Of side's figures his forms offer fire to, those killed in this fire step, which
    still fire in it (the figures of one step fire together: checks.may_fire), as his order
    list says it beside the fire forms; '' when none."""
    fallen = [f.id for f in state.figures.values() if f.side == side and f.killed
              and may_fire(card, state, f)]
    if not fallen:
        return ""
    who = joined(fallen)
    return f"({who} {'was' if len(fallen) == 1 else 'were'} killed in this fire step and " \
           f"still fire{'s' if len(fallen) == 1 else ''} in it: the figures of one step " \
           f"fire together)"


def forms(card: SkirmishCard, state: SkState, side: str, verbs: list[str]) -> list[str]:
    """The form of each verb as his mail lists it, with the values some order of his may
    take now where the checks narrow them: the move modes (a routing section rushes away),
    one target for a spotting test and unaimed fire, several for aimed fire only when a
    figure that may fire has a weapon that fires at several."""
    return [order_form(verb, card, _narrowed(card, state, side, verb)) for verb in verbs]


def _narrowed(card: SkirmishCard, state: SkState, side: str, verb: str
              ) -> dict[str, str | None]:
    if verb == "dispute":
        return {"fact": "KEY"}              # as the rest of his mail names it
    if verb == "done" and side in state.unasked:    # the step before asked nothing of him:
        return {"subject": sk.phase_of(card, state).phase}    # his done names the phase
    if verb in _FIRES:
        return _fire_form(card, state, side, verb)
    if verb == "spot":
        return {"at": "FIGURE"}             # one test per target
    if verb == "morale" and card.morale.facts_read:
        return _morale_form(card, state, side)
    if verb == "melee" and card.forms_named:
        return _melee_form(card, state, side)
    if verb != "move":
        return {}
    pairs = list(_legal_moves(card, state, side))       # each rule check made once
    legal = {how for _, how in pairs}
    if not legal:
        return {}
    into = any(x[2] for x in legal)
    movers = sorted({f.id for f, _ in pairs})
    own = [f for f in state.figures.values() if f.side == side and fighting(state, f.id)]
    return {**({"subject": "|".join(movers)} if len(movers) < len(own) else {}),
            "mode": "|".join(m for m in card.movement.modes if any(x[0] == m for x in legal)),
            "away": _yes_no({x[1] for x in legal}),
            "contact": _yes_no({x[2] for x in legal}),
            # the figure a move into contact names (contacted.py): offered with contact=yes
            "at": "FIGURE" if into and card.melee.contact_holds else None}


def _fire_form(card: SkirmishCard, state: SkState, side: str, verb: str
               ) -> dict[str, str | None]:
    """A fire form: one target for unaimed fire, and for aimed fire unless a figure that may
    fire has a weapon that fires at several; no rapid= but for the 1914 British; and, by
    the card's facts_read, none of the facts no figure that may fire could have read, for
    its weapon and the enemy figures (readable.py)."""
    firers = [f for f in state.figures.values() if f.side == side
              and may_fire(card, state, f, (verb,))]
    several = verb == "fire" and any(_several(card, f) for f in firers)
    out: dict[str, str | None] = {} if several else {"at": "FIGURE"}
    if verb == "unaimed" and not sk.rapid_fire(state, side):
        out["rapid"] = None                 # rapid fire: the 1914 British's alone
    if card.facts_read:
        enemies = [g for g in state.figures.values() if g.side != side and fighting(state, g.id)]
        read = set().union(*(reads(card, verb, card.weapons.kinds[f.weapon], enemies)
                             for f in firers))
        out.update({k: None for k in HANGING if k not in read})
    return out


def _morale_form(card: SkirmishCard, state: SkState, side: str) -> dict[str, str | None]:
    """A morale form offers advancing= and defending= only where a section of the side is
    rated by it (card morale.facts_read: a Ferocious section, a Stubborn one)."""
    rated = [card.morale.counts_as.get(s.quality) for s in state.sections.values()
             if s.side == side and not s.dispersed]
    return {k: None for k in ("advancing", "defending")
            if not any(r is not None and getattr(r, k) for r in rated)}


def _several(card: SkirmishCard, f: FigureState) -> bool:
    """A weapon that fires at several figures (checks.check_fire: an area or a radius)."""
    w = card.weapons.kinds[f.weapon]
    return bool(w.area or w.radius)


def _yes_no(values: set[bool]) -> str:
    return "|".join(w for v, w in ((True, "yes"), (False, "no")) if v in values)


def _moves(card: SkirmishCard, state: SkState, side: str) -> set[tuple[str, bool, bool]]:
    """(mode, away, contact) of each move some figure of side may make now, as check takes
    it (a leader within command range declared)."""
    return {how for _, how in _legal_moves(card, state, side)}


def _legal_moves(card: SkirmishCard, state: SkState, side: str):
    """Each figure of side with each (mode, away, contact) it may move by now (into
    contact, naming an enemy figure it may contact, card contact_holds: any one serves,
    as whether one may be named does not hang on the mover)."""
    named = contactable(state, side, card)[:1] if card.melee.contact_holds else []
    for f in state.figures.values():
        if f.side != side or not fighting(state, f.id):
            continue
        for mode in card.movement.modes:
            for away in (False, True):
                for contact in (False, True):
                    o = sk.SkOrder("move", f.id, {"mode": mode, "away": away,
                                                  "contact": contact, "command": True,
                                                  **({"at": named} if contact and named
                                                     else {})})
                    if sk.check(card, state, o, side) is None:
                        yield f, (mode, away, contact)


def step_words(game) -> str:
    """The turn and step of play a game is at, as its mails' first line names them (their
    subject, the turn): 'turn 1, fire phase (gallant and veteran figures fire now)'."""
    firing = sk.firing_now(game.card, game.state)
    step = f" ({' and '.join(firing)} figures fire now)" if firing else ""
    return f"turn {game.state.turn}, {sk.phase_of(game.card, game.state).phase} phase{step}"


def move_turn_words(card: SkirmishCard, state: SkState, side: str | None = None) -> str:
    """Whose unit moves next, in the movement phase while both sides move (units move in
    turn, rules.md Sequence of play); to a side still asked while the other's unit is next,
    what check takes of him meanwhile: the figures of the units he began (checks.move_turn),
    or a platoon commander, who moves with any unit; or done."""
    if card.unit_turns and sk.phase_of(card, state).phase == "movement":
        words = turn_words(state, {s: _finishing(card, state, s) for s in state.sides})
        return words[:-1] + _closed_words(card, state, side) + ")" if words else words
    mover = _mover(card, state)
    if mover is None:
        return ""
    after = f"{a_or_an(side_name(mover))} unit"
    movers = {f.id: f for f, _ in _legal_moves(card, state, side)} \
        if side not in (None, mover) else {}
    begun = sorted({f.section for f in movers.values() if f.section})
    if begun:
        units = f"section{'s' if len(begun) > 1 else ''} {joined(begun)}"
        return f" (units move in turn: finish moving {units}, or done; then {after})"
    if movers:
        alone = ", ".join(sorted(movers))
        return f" (units move in turn: move {alone}, or done; then {after})"
    return f" (units move in turn: {after} next)"


def _closed_words(card: SkirmishCard, state: SkState, side: str | None) -> str:
    """To a side whose units' turns have ended (turns.py), which of his figures may still
    move (as check takes them: a platoon commander, a unit not begun), as his prompt adds it:
    '; your section B's move is over: of your figures only B0 may still move'."""
    closed = [s for s in state.closed if side and state.sections[s].side == side]
    if not closed:
        return ""
    units = f"section{'s' if len(closed) > 1 else ''} {joined(closed)}"
    movers = movable(card, state, side)
    still = f"of your figures only {joined(movers)} may still move" if movers else \
        "none of your figures may still move"
    return f"; your {units}'s move is over: {still}"


def movable(card: SkirmishCard, state: SkState, side: str) -> list[str]:
    """His figures some move of which check takes now."""
    return sorted({f.id for f, _ in _legal_moves(card, state, side)})


def _finishing(card: SkirmishCard, state: SkState, side: str) -> str | None:
    """His unit whose turn has not ended, when a figure of it may still move."""
    unit = open_unit(state, side)
    return unit if any(f.section == unit for f, _ in _legal_moves(card, state, side)) \
        else None


def _melee_form(card: SkirmishCard, state: SkState, side: str) -> dict[str, str | None]:
    """A melee form naming its defender and attackers when one melee alone is open to him
    ('melee B1 attackers=G6'), else the form as the card gives it (its note names them)."""
    legal = open_melees(card, state, side)
    if len(legal) != 1:
        return {}
    o = legal[0]
    return {"subject": o.subject, "attackers": ",".join(o.facts["attackers"])}


def open_melees(card: SkirmishCard, state: SkState, side: str) -> list[sk.SkOrder]:
    """The melee orders side may give now, as check takes them (_melees)."""
    return list(_melees(card, state, side))


def _melees(card: SkirmishCard, state: SkState, side: str):
    """The melees side may order now, as check takes them: each enemy figure attacked by
    the attackers its melee is owed with, by one of his figures, or by those in contact
    with it."""
    own = [f.id for f in state.figures.values() if f.side == side and fighting(state, f.id)]
    due = owed_melees(card, state, side) if card.melee.contact_owed else []
    for d in state.figures.values():
        if d.side == side or not fighting(state, d.id):
            continue
        held = [c["attackers"] for c in state.contacts if c["defender"] == d.id]
        tried = [*(a for g, a in due if g == d.id), *held, *([a] for a in own)]
        for attackers in [a for n, a in enumerate(tried) if a not in tried[:n]]:
            o = sk.SkOrder("melee", d.id, {"attackers": list(attackers)})
            if sk.check(card, state, o, side) is None:
                yield o
