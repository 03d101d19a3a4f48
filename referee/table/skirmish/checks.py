"""What the card forbids, as one place: every order is checked here before a die is rolled,
and a refusal names the line of the card it breaks."""

from __future__ import annotations

from ...contracts.skirmish import SkirmishCard
from ...render.documents import side_name
from .nearest import FORCES, nearest, one_of
from .order_text import SkOrder
from .readable import unread
from .state import FigureState, SkState
from .turns import unit_turn

Refusal = tuple[str, str]          # (the line of the card, the reason)
LEADERS = ("squad_leader", "platoon_commander")


def _need(facts: dict, keys: tuple[str, ...], rule: str) -> Refusal | None:
    missing = [k for k in keys if k not in facts]
    if missing:
        return rule, "declare " + ", ".join(f"{k}=" for k in missing)
    return None


def stepped(card: SkirmishCard, state: SkState) -> bool:
    """The game is in a fire phase the card runs in steps of quality (card.yaml
    fire_steps)."""
    return bool(card.fire_steps) and "aimed" in card.sequence[state.phase].tests


def firing_now(card: SkirmishCard, state: SkState) -> list[str]:
    """The qualities whose figures fire now, in a stepped fire phase ([] otherwise)."""
    if not stepped(card, state) or state.fire_step >= len(card.fire_steps):
        return []
    return list(card.fire_steps[state.fire_step])


def fighting(state: SkState, fid: str) -> bool:
    """A figure on the table and in a section that has not dispersed."""
    f = state.figures[fid]
    sec = state.sections.get(f.section or "")
    return f.active and not (sec is not None and sec.dispersed)


def live_contacts(state: SkState) -> list[dict]:
    """The melees whose figures are still in contact: the defender and at least one
    attacker still fighting (the figures gone, or dispersed with their section, left out)."""
    out = []
    for c in state.contacts:
        standing = [a for a in c["attackers"] if fighting(state, a)]
        if fighting(state, c["defender"]) and standing:
            out.append({**c, "attackers": standing})
    return out


def in_contact(state: SkState) -> bool:
    """Whether a figure fights in the melee phase: one in a melee of an earlier turn, or
    one that moved into contact this turn, still fighting (card melee_passed_over)."""
    return bool(live_contacts(state)) or any(f.contact and fighting(state, f.id)
                                             for f in state.figures.values())


def contact_of(state: SkState, fid: str) -> dict | None:
    """The melee a figure is held in, or None."""
    return next((c for c in live_contacts(state)
                 if fid == c["defender"] or fid in c["attackers"]), None)


def _others(c: dict, fid: str) -> str:
    return ", ".join(c["attackers"]) if fid == c["defender"] else c["defender"]


def own_figure(state: SkState, name: str | None, side: str) -> FigureState | Refusal:
    f = state.figures.get(name or "")
    if f is None:
        own = [g.id for g in state.figures.values() if g.side == side]
        return FORCES, f"no figure {name!r} of the {side_name(side)} side" + \
            nearest(name or "", own)
    if f.side != side:
        return FORCES, f"{f.id} is not a figure of the {side_name(side)} side"
    if not f.active:
        return FORCES, f"{f.id} is {'killed' if f.killed else 'surrendered'}"
    sec = state.sections.get(f.section or "")
    if sec is not None and sec.dispersed:
        return "Morale", f"{f.id}'s section {sec.id} has dispersed"
    return f


def enemy_figures(state: SkState, names: list[str], side: str) -> list[FigureState] | Refusal:
    out = []
    for n in names:
        f = state.figures.get(n)
        if f is not None and f.side != side and not f.active:
            return FORCES, f"{f.id} is no enemy figure on the table: it {_gone(state, f)}"
        if f is None or f.side == side:
            return FORCES, f"{n!r} is no enemy figure on the table"
        out.append(f)
    return out or (FORCES, "name the enemy figure: at=FIGURE")


def _gone(state: SkState, f: FigureState) -> str:
    """How an enemy figure left the table: killed or surrendered, in the record whose test
    (as a ruling settled it) did so last."""
    how = "killed" if f.killed else "surrendered"
    rec = next((x["record"] for x in reversed(state.tests)
                if any(e.get("figure") == f.id and e.get(how)
                       for e in (x.get("settled") or x)["effects"])), None)
    return f"was {how}" + (f" in record {rec}" if rec is not None else "")


def motivation(card: SkirmishCard, state: SkState, f: FigureState, facts: dict,
               what: str) -> Refusal | None:
    """Moving, firing and removing pins need a leader within command range (Motivation)."""
    mo = card.motivation
    if what not in mo.needed_for or f.role in LEADERS:
        return None
    ranges = ", ".join(f'{k.replace("_", " ")} {v}"' for k, v in mo.ranges.items())
    if "command" not in facts:
        return mo.rule, f"declare command=yes or no: is a leader within command range ({ranges})?"
    # In a fire step, a leader killed in it still motivates: its figures fire together.
    was = state.standing if stepped(card, state) else []
    living = [g for g in state.figures.values() if g.side == f.side
              and (g.active or g.id in was)
              and (g.role == "platoon_commander"
                   or (g.role == "squad_leader" and g.section == f.section))]
    if not facts["command"] or not living:
        why = "no leader is within command range" if living else "no leader of it is left"
        return mo.rule, f"{f.id} cannot {what}: {why} ({ranges})"
    return None


def moving_next(state: SkState) -> str | None:
    """The side whose turn it is to start a unit's move (move_turn), while both are still
    moving; None once one has said done (the other then moves the rest as he likes)."""
    if any(side in state.done for side in state.sides):
        return None
    a, b = state.sides
    return a if state.moves[a] < state.moves[b] else \
        b if state.moves[b] < state.moves[a] else state.first


def move_turn(card: SkirmishCard, state: SkState, f: FigureState) -> Refusal | None:
    """Movement alternates units: a side starts a new unit's move only in its turn, and
    (card unit_turns) moves no figure of a unit whose turn has ended (turns.py)."""
    if card.unit_turns:
        return unit_turn(state, f.side, f.id, f.section)
    side, section = f.side, f.section
    if section is None or section in state.moved_sections:
        return None                  # a platoon commander moves with any unit
    other = state.opponent(side)
    if other in state.done:
        return None
    mine, theirs = state.moves[side], state.moves[other]
    if mine > theirs or (mine == theirs and side != state.first):
        return "Sequence of Play", f"movement alternates units: the {side_name(other)} side " \
                                   f"moves a unit now (or says done)"
    return None


def check_move(card: SkirmishCard, state: SkState, o: SkOrder, f: FigureState) -> Refusal | None:
    mv = card.movement
    r = _need(o.facts, ("mode",), mv.rule)
    if r or o.facts["mode"] not in mv.modes:
        return r or (mv.rule, one_of("mode", o.facts["mode"], mv.modes))
    mode, away = o.facts["mode"], o.facts.get("away", False)
    if f.moved:
        return mv.rule, f"{f.id} has moved this turn ({f.moved})"
    held = _held(card, state, f, away)
    if held:
        return held
    if o.facts.get("contact") and not mv.modes[mode].contact:
        return "Hand-to-Hand Combat", f"a figure cannot {mode} into contact: only assault " \
                                      f"or manoeuvre"
    if f.pins and not away:
        return "If Pinned", f"{f.id} is pinned: it may not move closer to the enemy " \
                            f"(declare away=yes)"
    if f.pins and o.facts.get("contact") and card.melee.contact_unpinned:
        return "If Pinned", f"{f.id} is pinned: it may not move closer to the enemy, and " \
                            f"a move into contact is closer (its move away is no contact=yes)"
    sec = state.sections.get(f.section or "")
    if sec and sec.failures >= 2 and not (away and mode == "rush"):
        return card.morale.rule, f"section {sec.id} has {sec.failures} morale failures: it " \
                                 f"moves only away from the enemy, by rush"
    return motivation(card, state, f, o.facts, "move") or move_turn(card, state, f)


def _held(card: SkirmishCard, state: SkState, f: FigureState, away: bool) -> Refusal | None:
    """A figure in contact moves only to break off: away, unpinned, having fought a round."""
    c = contact_of(state, f.id) if card.melee.contact_lasts else None
    if c is None:
        return None
    why = f"{f.id} is in contact with {_others(c, f.id)} (melee of turn {c['turn']})"
    if c["turn"] == state.turn:
        return "Hand-to-Hand Combat", f"{why}: it fights a round before breaking off"
    if f.pins:
        return "Hand-to-Hand Combat", f"{why} and pinned: it can't move"
    if not away:
        return "Hand-to-Hand Combat", f"{why}: it can't move, except to break off " \
                                      f"(away=yes, unpinned)"
    return None


def check_fire(card: SkirmishCard, state: SkState, o: SkOrder, f: FigureState,
               targets: list[FigureState], any_step: bool = False,
               held: set[str] | None = None) -> Refusal | None:
    """Why an order of f firing at targets is refused (None: taken). any_step: whatever the
    step or order of quality it fires in (checks.may_fire). held: the figures in melee now
    (in_melee_now), when the caller asks of many orders."""
    w = card.weapons.kinds[f.weapon]
    facts = o.facts
    r = _need(facts, ("range",), card.weapons.rule)
    if r:
        return r
    if facts["range"] > w.range:
        return card.weapons.rule, f"out of range: a {w.name} reaches {w.range}\", the " \
                                  f"target is at {facts['range']}\""
    steps = stepped(card, state)
    unstated = _far_state(card, o) or unread(card, o.kind, facts, w, targets)
    if unstated:
        return unstated
    # A move's bar first (Movement's Fire? column, "the figure moving into contact can't
    # shoot"): it stops the shot whatever else does, where a pin taken in the figure's own
    # fire step does not, so the pin is not named as what stops it.
    barred = (_moved_bar(card, f, o.kind) if f.pins else None) or _firer(card, state, f)
    if barred:
        return barred
    for g in [f, *targets]:
        bar = _melee_bar(card, state, g, held)
        if bar:
            return bar
    moved = _moved_defender(card, f, targets)
    if moved:
        return moved
    if len(targets) > 1 and not (w.area or w.radius):
        return card.weapons.rule, f"a {w.name} fires at one figure"
    if "dice" in facts and facts["dice"] not in w.dice:
        return card.weapons.rule, f"a {w.name} fires {' or '.join(map(str, w.dice))} dice"
    return _moved_fire(card, f, o) or motivation(card, state, f, facts, _fire_kind(o)) \
        or (None if any_step else
            _fire_step(card, state, f) if steps else _quality_order(card, state, f))


def _melee_bar(card: SkirmishCard, state: SkState, g: FigureState,
               held: set[str] | None = None) -> Refusal | None:
    """Why g can neither shoot nor be shot at now: in melee, or in one last turn. held:
    the figures in melee now (in_melee_now), when the caller asks of many figures."""
    if g.melee_turn and g.melee_turn == state.turn - 1:
        return "Hand-to-Hand Combat", (f"{g.id} was in melee last turn: it can't shoot or "
                                       f"be shot at this turn")
    if (g.id in held) if held is not None else \
            _in_melee(state, g) or (card.melee.contact_lasts and contact_of(state, g.id)):
        return "Hand-to-Hand Combat", f"{g.id} is in melee and can't shoot or be shot at"
    return None


def _moved_defender(card: SkirmishCard, f: FigureState, targets: list[FigureState]
                    ) -> Refusal | None:
    """A defending figure fires upon the figure moving into contact with it only if it has
    not moved already that turn (card melee.defender_fire)."""
    if not card.melee.defender_fire or not f.moved:
        return None
    by = [g.id for g in targets if g.contact and g.contact_at == f.id]
    if not by:
        return None
    return card.melee.rule, (f"{f.id} moved this turn ({f.moved}): a defending figure fires "
                             f"upon the figure moving into contact with it ({', '.join(by)}) "
                             f"only if it has not moved already that turn")


def _firer(card: SkirmishCard, state: SkState, f: FigureState) -> Refusal | None:
    """What bars a figure from firing now whatever it fires at: a pin (but in the fire
    step it was fit in), its section's morale, a shot this turn already."""
    if f.pins and not (stepped(card, state) and f.id in state.fit):
        return "If Pinned", f"{f.id} is pinned and may not shoot until the pin is removed"
    sec = state.sections.get(f.section or "")
    if sec and sec.failures >= 2:
        return card.morale.rule, f"section {sec.id} has {sec.failures} morale failures and " \
                                 f"cannot fire"
    if f.fired:
        return card.aimed.rule, f"{f.id} has fired this turn"
    return None


FIRES = ("fire", "unaimed")


def may_fire(card: SkirmishCard, state: SkState, f: FigureState, kinds=FIRES,
             any_step: bool = False) -> bool:
    """Whether figure f may fire now as one of kinds with some facts, as check_fire takes
    it: fighting (or fit when its fire step began, which it fires in though killed in it),
    and some order of it taken, at one enemy figure on the table with the facts that favour
    it (the nearest range, a leader within command range): so whatever the facts it
    declares, an order of a figure that may not fire is refused. any_step: whatever the step
    or order of quality (a fire step about to begin)."""
    fits = fighting(state, f.id) or (stepped(card, state) and f.id in state.fit
                                     and not f.surrendered)
    if not fits:
        return False
    # check_fire refuses every order of a firer in melee or under one of its own bars
    # (_firer), every one of a kind its move bars it from (_moved_bar, as _moved_fire reads
    # it, if not before), and every one at a target in melee: those are not asked one by one.
    held = in_melee_now(card, state)
    if _melee_bar(card, state, f, held) or _firer(card, state, f):
        return False
    kinds = [k for k in kinds if not _moved_bar(card, f, k)]
    targets = [g for g in state.figures.values() if g.side != f.side and g.active
               and not _melee_bar(card, state, g, held)] if kinds else []
    return any(
        check_fire(card, state, SkOrder(kind, f.id, {"at": [g.id], "range": 0,
                                                     "command": True}),
                   f, [g], any_step, held) is None
        for kind in kinds for g in targets)


def _far_state(card: SkirmishCard, o: SkOrder) -> Refusal | None:
    """Aimed fire beyond the card's 18" states the target's state, which the -1 reads (with
    the card's defaults; a journal made before them read a missing state as none)."""
    far = next((m for m in card.aimed.modifiers if m.beyond is not None), None)
    if o.kind != "fire" or not card.defaults or far is None or "state" in o.facts or \
            o.facts["range"] <= far.beyond:
        return None
    return card.aimed.rule, (f"declare state=: at {o.facts['range']}\" the card's "
                             f"\"{far.text}\" (-1) may apply")


def _in_melee(state: SkState, f: FigureState) -> bool:
    return bool(f.attackers) or any(f.id in g.attackers for g in state.figures.values())


def in_melee_now(card: SkirmishCard, state: SkState) -> set[str]:
    """The figures in melee now, as _melee_bar reads them one by one: each _in_melee (one
    attacked, and its attackers), and (card contact_lasts) each held in a contact_of."""
    held = {fid for g in state.figures.values() if g.attackers
            for fid in (g.id, *g.attackers)}
    if card.melee.contact_lasts:
        held |= {fid for c in live_contacts(state) for fid in (c["defender"], *c["attackers"])}
    return held


def _fire_kind(o: SkOrder) -> str:
    return "aimed" if o.kind == "fire" else "unaimed"


def _moved_fire(card: SkirmishCard, f: FigureState, o: SkOrder) -> Refusal | None:
    """What a figure may fire after its move (Movement: the Fire? column)."""
    mv = card.movement
    barred = _moved_bar(card, f, o.kind)
    if barred or not f.moved:
        return barred
    if mv.modes[f.moved].fire == "close" and o.facts["range"] > mv.assault_fire_range:
        return mv.rule, f"{f.id} assaulted: it fires only with both within " \
                        f"{mv.assault_fire_range}\""
    return None


def _moved_bar(card: SkirmishCard, f: FigureState, kind: str) -> Refusal | None:
    """What a figure's move this turn bars it from firing as kind (fire, unaimed), at any
    range (Movement: the Fire? column)."""
    mv = card.movement
    if f.contact:
        return "Hand-to-Hand Combat", f"{f.id} moved into contact and can't shoot"
    rule = mv.modes[f.moved].fire if f.moved else None
    if rule == "none":
        return mv.rule, f"{f.id} moved {f.moved} this turn and may not fire"
    if rule == "unaimed" and kind == "fire":
        return mv.rule, f"{f.id} moved {f.moved} this turn: unaimed fire only"
    return None


def _quality_order(card: SkirmishCard, state: SkState, f: FigureState) -> Refusal | None:
    rank = card.qualities.index(f.quality)
    if rank < state.fire_rank:
        return "Sequence of Play", f"firing goes in order of troop quality: " \
                                   f"{card.qualities[state.fire_rank]} figures have fired, " \
                                   f"{f.quality} ones fire before them"
    return None


def _fire_step(card: SkirmishCard, state: SkState, f: FigureState) -> Refusal | None:
    """In a stepped fire phase a figure fires in the step of its quality."""
    now = card.fire_steps[state.fire_step]
    if f.quality in now:
        return None
    step = next((n for n, q in enumerate(card.fire_steps) if f.quality in q),
                len(card.fire_steps))
    when = "fired in an earlier step" if step < state.fire_step else "fire in a later step"
    return "Sequence of Play", (f"firing goes in order of troop quality: {' and '.join(now)} "
                                f"figures fire now; {f.quality} ones {when}")


def too_many(card: SkirmishCard, defender: FigureState, names: list[str]) -> Refusal | None:
    """No more than two figures may attack a single defending figure."""
    m = card.melee
    if len(set(defender.attackers) | set(names)) > m.max_attackers:
        return m.rule, f"no more than {m.max_attackers} figures may attack {defender.id}"
    return None


def check_melee(card: SkirmishCard, state: SkState, defender: FigureState,
                attackers: list[FigureState]) -> Refusal | None:
    held = _contact_melee(card, state, defender, attackers)
    if held is not None:
        return held
    kept = (contact_of(state, defender.id) or {}).get("attackers", [])
    return next((r for a in attackers if a.id not in kept    # kept: fighting on where it
                 if (r := _new_attacker(card, defender, a))), None)      # stands


def _new_attacker(card: SkirmishCard, defender: FigureState, a: FigureState
                  ) -> Refusal | None:
    """Why a may not attack defender as a figure new to its melee, that moved into contact."""
    m = card.melee
    if a.fired:                 # "the figure moving into contact can't shoot"
        return m.rule, f"{a.id} fired this turn: the figure moving into contact can't " \
                       f"shoot, so it did not move into contact"
    if a.moved and not card.movement.modes[a.moved].contact:
        return m.rule, f"{a.id} moved by {a.moved}: a figure can't {a.moved} into contact"
    if m.contact_move and not a.contact:
        return m.rule, f"{a.id} did not move into contact this turn: a new attacker " \
                       f"moves in by assault or manoeuvre, declaring contact=yes"
    if halted(card, a):
        return m.rule, f"{a.id} is pinned: it halts {card.movement.pinned_retreat}\" " \
                       f"from {defender.id}"
    return None


def halted(card: SkirmishCard, f: FigureState) -> bool:
    """Whether a pin halted figure f 4" short of the figure it moved into contact with (the
    card: a pinned attacker halts, unless he is one who may ignore the pin): no contact."""
    return bool(f.pins) and f.quality not in card.melee.ignore_pin


def joining(card: SkirmishCard, state: SkState, g: FigureState) -> list[FigureState]:
    """The figures that moved into contact this turn with g, the defender of a contact of
    an earlier melee, and join that melee (card melee.contact_owed: "has to fight at least
    one round"): still fighting, not in it, not fought this turn, each free to attack g, in
    the order they moved, as many as the places its attackers leave (at most two)."""
    c = contact_of(state, g.id)
    if not card.melee.contact_owed or c is None or c["defender"] != g.id \
            or c["turn"] == state.turn:             # begun by this turn's melee: no join
        return []
    fought = {a for f in state.figures.values() for a in f.attackers}
    moved = {t["subject"]: t["record"] for t in state.tests
             if t["kind"] == "move" and t["turn"] == state.turn}
    by = sorted((a for a in state.figures.values() if a.contact and a.contact_at == g.id
                 and a.side != g.side and fighting(state, a.id) and a.id not in c["attackers"]
                 and a.id not in fought and _new_attacker(card, g, a) is None),
                key=lambda a: moved.get(a.id, 0))
    return by[:max(0, card.melee.max_attackers - len(c["attackers"]))]


def _contact_melee(card: SkirmishCard, state: SkState, defender: FigureState,
                   attackers: list[FigureState]) -> Refusal | None:
    """Figures in contact fight each other, as their melee began: every attacker still in
    contact with the defender is in his melee, and none fights a figure it is not in
    contact with."""
    if not card.melee.contact_lasts:
        return None
    c = contact_of(state, defender.id)
    if c is not None and c["defender"] != defender.id:
        return card.melee.rule, (f"{defender.id} is in contact with {c['defender']} as its "
                                 f"attacker: that melee is fought as it began (melee "
                                 f"{c['defender']} attackers={','.join(c['attackers'])})")
    kept = c["attackers"] if c is not None else []
    missing = [k for k in kept if k not in {a.id for a in attackers}]
    if missing:                 # (card contact_owed: with the figures joining it)
        late = [a.id for a in joining(card, state, defender)]
        whole = f"melee {defender.id} attackers={','.join([*kept, *late])}" if late else \
            f"attackers={','.join(kept)}"
        return card.melee.rule, (f"{defender.id} is in contact with {', '.join(kept)}"
                                 f"{' and joined by ' + ', '.join(late) if late else ''}: "
                                 f"they fight this melee together ({whole})")
    for a in attackers:
        other = contact_of(state, a.id) if a.id not in kept else None
        if other is not None:
            return card.melee.rule, (f"{a.id} is in contact with {_others(other, a.id)}: "
                                     f"it can't fight another figure")
    return None


def claims(card: SkirmishCard, state: SkState, side: str) -> list[str]:
    """The surrenders a side may claim now, as orders: each enemy section routing (two or
    more morale failures) with a figure that would surrender. The claim's distances are
    the claimant's to state (the referee cannot see them), and the owner may dispute."""
    if "surrender" not in card.sequence[state.phase].tests:
        return []
    within = card.surrender.routing_within
    return [f"surrender {sec.id} reason=routing between=yes within={within}"
            for sec in state.sections.values()
            if sec.side != side and sec.failures >= 2 and not sec.dispersed
            and any(f.section == sec.id and f.active and f.quality not in
                    card.surrender.never for f in state.figures.values())]


def owed(card: SkirmishCard, state: SkState, side: str) -> list[str]:
    """The tests the card compels of a side in the phase the game is in, as orders: in the
    melee phase, the melee of each contact its figures attack in (figures in contact fight
    on); in the morale phase, one morale test for each figure a section of it lost this
    turn (a section with a figure still fighting; the other triggers hang on distances the
    referee cannot see, so their tests are the player's to declare)."""
    tests = card.sequence[state.phase].tests
    if "melee" in tests:
        return [f"melee {g} attackers={','.join(a)}" for g, a in owed_melees(card, state, side)]
    if "morale" not in tests:
        return []
    due = []
    for sec in state.sections.values():
        standing = any(f.section == sec.id and f.active for f in state.figures.values())
        if sec.side == side and not sec.dispersed and standing:
            due += [f"morale {sec.id} trigger=killed"] * (sec.killed_this_turn -
                                                          sec.killed_tests)
    return due


def owed_melees(card: SkirmishCard, state: SkState, side: str
                ) -> list[tuple[str, list[str]]]:
    """The melees side owes in the melee phase, each as its defender and attackers: each
    contact of an earlier melee its figures attack in, its defender not fought this turn,
    with those held and (card contact_owed) the figures joining it; then each contact made
    this turn (new_contacts)."""
    held = [(c["defender"], [*c["attackers"], *(a.id for a in joining(card, state, g))])
            for c in live_contacts(state)
            if state.figures[c["attackers"][0]].side == side
            and not (g := state.figures[c["defender"]]).attackers] \
        if card.melee.contact_lasts else []
    return held + new_contacts(card, state, side)


def short_of_owed(card: SkirmishCard, state: SkState, side: str, defender: FigureState,
                  names: list[str]) -> Refusal | None:
    """A melee owed (card melee.contact_owed) is fought in one order naming every attacker
    owed for it, the held and those joining, or both new ones (the second's +2, the
    defender's one die): an order naming fewer would leave one owed a round it could not
    fight, the defender's melee of the turn fought."""
    if not card.melee.contact_owed:
        return None
    due = next((a for g, a in owed_melees(card, state, side) if g == defender.id), [])
    left = [a for a in due if a not in names]
    if not left:
        return None
    return card.melee.rule, (f"melee {defender.id} attackers={','.join(due)} is owed: its "
                             f"attackers are named in one order (the second's +2, the "
                             f"defender's one die), {' and '.join(left)} left out")


def new_contacts(card: SkirmishCard, state: SkState, side: str) -> list[tuple[str, list[str]]]:
    """Each enemy figure a figure of side moved into contact with this turn whose melee is
    owed (card melee.contact_owed: "has to fight at least one round"), with its attackers
    in the order they moved: the contact stands (both still fighting, and each attacker may
    attack it now, not halted by a pin it may not ignore), its melee not yet fought this
    turn, and the defender in no contact of an earlier melee (which owed names already)."""
    if not card.melee.contact_owed:
        return []
    moved = {t["subject"]: t["record"] for t in state.tests
             if t["kind"] == "move" and t["turn"] == state.turn}
    out = []
    for g in state.figures.values():
        if g.side == side or g.attackers or not fighting(state, g.id) or contact_of(state, g.id):
            continue
        by = sorted((a for a in state.figures.values() if a.side == side and a.contact
                     and a.contact_at == g.id and fighting(state, a.id)
                     and check_melee(card, state, g, [a]) is None),
                    key=lambda a: moved.get(a.id, 0))[:card.melee.max_attackers]
        if by:
            out.append((g.id, [a.id for a in by]))
    return out
