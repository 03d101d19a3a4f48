"""The skirmish game: the card's dice tests as decide (an order and dice -> a test) and
evolve (a test -> the state), with the card's sequence of play as the flow.

Pure functions over plain data: no files, no printing. `check` is the one source of what
is legal: decide refuses what it refuses, and nothing else.
"""

from __future__ import annotations

from ...base.errors import IllegalOrderError
from ...base.plurals import counted, joined
from ...contracts.skirmish import SkirmishCard
from ...render.documents import side_name
from . import dicetests as t
from .checks import (
    LEADERS,
    Refusal,
    check_fire,
    check_melee,
    check_move,
    contact_of,
    enemy_figures,
    firing_now,
    in_contact,
    may_fire,
    motivation,
    moving_next,
    owed,
    own_figure,
    short_of_owed,
    stepped,
    too_many,
)
from .contacted import held, named, own_defender
from .dones import after_done, before_done, named_phase_ok, not_asked, spoke, stray_done
from .nearest import FORCES, one_of
from .order_text import SkOrder, parse_order
from .readable import kept, morale_unread
from .settled import left_contact, move_settled, told_void
from .state import SkState, initial_state, is_open, open_disputes
from .turns import end_turns

__all__ = ["check", "decide", "evolve", "firing_now", "initial_state", "moving_next",
           "is_open", "open_disputes", "parse_order", "phase_of", "rapid_fire", "waiting",
           "SkOrder", "SkState"]

FLOW = "Sequence of Play"


def phase_of(card: SkirmishCard, state: SkState):
    """The phase of the card's sequence of play the game is in."""
    return card.sequence[state.phase]


def waiting(state: SkState) -> list[str]:
    """The sides that have not said done in this phase (or its fire step)."""
    return [s for s in state.sides if s not in state.done]


def _fit(card: SkirmishCard, state: SkState, f) -> bool:
    """A figure fit to fire in the fire step about to begin: one some order of which
    check_fire takes now but for its step (checks.may_fire, as the order list reads it): not
    one without a leader left to motivate it, nor with no enemy it may shoot at.
    A card without steps_wait_on_fit (a journal made before) read the forces alone: on the
    table, unpinned, and in a section neither dispersed nor routing."""
    if card.steps_wait_on_fit:
        return may_fire(card, state, f, any_step=True)
    sec = state.sections.get(f.section or "")
    return f.active and not f.pins and not (sec and (sec.dispersed or sec.failures >= 2))


def _start_step(card: SkirmishCard, state: SkState, step: int) -> None:
    """Begin the first fire step from `step` with a figure fit to fire; a side with none
    of that step's qualities fit is not waited on. With no step left the phase ends."""
    state.fit = []                  # a pin taken in the step before counts now
    # and a leader killed in it motivates no more (checks.motivation reads standing)
    state.standing = [f.id for f in state.figures.values() if f.active]
    fit = [f for f in state.figures.values() if _fit(card, state, f)]
    for n in range(step, len(card.fire_steps)):
        firing = [f.side for f in fit if f.quality in card.fire_steps[n]]
        if firing:
            state.fire_step, state.fit = n, [f.id for f in fit]
            state.done = [s for s in state.sides if s not in firing]
            state.passed = list(state.done)
            return
    state.fire_step, state.fit, state.standing = len(card.fire_steps), [], []
    _next_phase(card, state)


def _in_phase(card: SkirmishCard, state: SkState, o: SkOrder) -> Refusal | None:
    kind = "aimed" if o.kind == "fire" else o.kind
    spec = phase_of(card, state)
    if kind not in spec.tests:
        where = [p.phase for p in card.sequence if kind in p.tests]
        return FLOW, f"{o.kind} is no test of the {spec.phase} phase (it belongs to the " \
                     f"{joined(where)} phase{'s' if len(where) > 1 else ''})"
    return None


def _section(state: SkState, name: str | None, side: str):
    s = state.sections.get(name or "")
    if s is None or s.side != side:
        return FORCES, f"no section {name!r} of the {side_name(side)} side"
    if s.dispersed:
        return "Morale", f"section {s.id} has dispersed"
    return s


def check(card: SkirmishCard, state: SkState, o: SkOrder, side: str) -> Refusal | None:
    """The line of the card an order breaks now, or None when it is legal."""
    if side not in state.sides:
        return FLOW, f"{side} is no side of this game"
    if state.over():        # a dispute of its last test, and its ruling, are taken still
        return FLOW, "the game is over: a side has no figure left fighting"
    if o.kind == "done":
        if not named_phase_ok(card, o.subject) or o.facts:
            return FLOW, "done ends the side's part of the phase: it names no figure and no fact"
        stray = card.dones_asked and stray_done(card, state, o.subject, side)
        if stray:
            return stray
        if side in state.done:
            return FLOW, not_asked(card, state, side, _not_waited(card, state, side))
        due = owed(card, state, side)
        if not due:
            return None
        listed = f"the {side_name(side)} side owes {len(due)}: " \
            f"{'; '.join(dict.fromkeys(due))} first"
        if due[0].startswith("melee"):
            return card.melee.rule, f"figures in contact must fight, and {listed}"
        return card.morale.rule, (f"the card compels a morale test for each figure killed "
                                  f"this turn, and {listed}")
    if side in state.done and not (o.kind == "spot" and side in state.passed):
        return FLOW, _not_waited(card, state, side)
    r = _in_phase(card, state, o) or CHECKS[o.kind](card, state, o, side)
    return r or _taken_already(card, state, o, side)


def _not_waited(card: SkirmishCard, state: SkState, side: str) -> str:
    now = firing_now(card, state)
    if side in state.passed and not now:
        return (f"the {side_name(side)} side has no off-table artillery in this scenario: its "
                f"phase does not wait on it")
    if now:
        return (f"{' and '.join(now)} figures fire now, and the {side_name(side)} side has none "
                f"fit to fire or has said done for them")
    return f"the {side_name(side)} side is done with this phase already"


def _taken_already(card: SkirmishCard, state: SkState, o: SkOrder, side: str
                   ) -> Refusal | None:
    """A test the card gives its subject once a turn or a phase (card.yaml `attempts`),
    taken already: its result stands, whatever it was."""
    per = card.attempts.get(o.kind)
    if per is None:
        return None
    phase = phase_of(card, state).phase
    for x in state.tests:
        if (x["kind"], x["subject"], x["side"], x["turn"]) == (o.kind, o.subject, side,
                                                                state.turn) and \
                (per == "turn" or x["phase"] == phase) and \
                (o.kind != "spot" or x["facts"].get("at") == o.facts.get("at")):
            what = f" at {', '.join(o.facts['at'])}" if o.kind == "spot" else ""
            return (getattr(card, "spotting" if o.kind == "spot" else o.kind).rule,
                    f"{o.subject} has taken its {o.kind} test{what} this {per} already "
                    f"(record {x['record']}): one a {per}, and its result stands")
    return None


def _subject(state, o, side):
    return own_figure(state, o.subject, side)


def _aiming(state, o, side, fires: bool = False):
    """(refusal, figure, targets): the side's figure the order is for and the enemy figures it
    names with at=, or why either cannot be. fires: in a fire step, where a figure fit to
    fire when the step began fires though killed in it."""
    f = state.figures.get(o.subject or "")
    if not (fires and f is not None and f.side == side and f.id in state.fit
            and not f.surrendered):
        f = _subject(state, o, side)
    if isinstance(f, tuple):
        return f, None, None
    targets = enemy_figures(state, o.facts.get("at", []), side)
    if isinstance(targets, tuple):
        return targets, None, None
    return None, f, targets


def _check_move(card, state, o, side):
    f = _subject(state, o, side)
    return f if isinstance(f, tuple) else \
        held(card, state, f) or check_move(card, state, o, f) or named(card, state, o, f)


def _check_spot(card, state, o, side):
    refused, f, targets = _aiming(state, o, side)
    if refused:
        return refused
    sp = card.spotting.rule
    missing = [k for k in ("range", "light", "state", "cover") if k not in o.facts]
    if missing:
        return sp, "declare " + ", ".join(f"{k}=" for k in missing)
    if len(targets) != 1:
        return sp, "one spotting test per target"
    if f.moved and not card.movement.modes[f.moved].spot:
        return card.movement.rule, f"{f.id} moved {f.moved} this turn and cannot spot"
    return None


def _check_fire(card, state, o, side):
    refused, f, targets = _aiming(state, o, side, stepped(card, state))
    if refused:
        return refused
    if o.kind == "unaimed" and len(targets) != 1:
        return card.unaimed.rule, "unaimed fire is at one figure"
    if o.facts.get("rapid") and not rapid_fire(state, side):
        return RAPID, (f"rapid fire is the 1914 British's, and the {side_name(side)} side "
                       f"is none in this scenario: declare rapid=no, or leave it out")
    return check_fire(card, state, o, f, targets)


# The card's section that gives rapid fire its -1, to the 1914 British alone.
RAPID = "Unaimed Fire Modifiers"


def rapid_fire(state: SkState, side: str) -> bool:
    """Whether a side may use the 1914 British rapid fire: one the scenario names as 1914
    British (british_1914), or any when it does not say."""
    return state.rapid is None or side in state.rapid


def corrected(card: SkirmishCard, state: SkState, test: dict, facts: dict,
              text: str) -> SkOrder:
    """A disputed test's order again with its corrected facts, less one the test cannot
    read now (advancing= recorded at a Ferocious target, the target corrected to another)."""
    f = state.figures.get(test["subject"] or "")
    if test["kind"] in ("fire", "unaimed") and f is not None:
        targets = [state.figures[n] for n in facts.get("at", []) if n in state.figures]
        facts = kept(card, test["kind"], facts, card.weapons.kinds[f.weapon], targets)
    if test["kind"] == "move" and not facts.get("contact"):
        facts = {k: v for k, v in facts.items() if k != "at"}    # at= goes with contact=yes
    return SkOrder(test["kind"], test["subject"], facts, text)


def _check_melee(card, state, o, side):
    names = o.facts.get("attackers", [])
    attackers = [own_figure(state, n, side) for n in names]
    bad = next((a for a in attackers if isinstance(a, tuple)), None)
    if bad or not attackers:
        return bad or (card.melee.rule, "name the attackers: attackers=A[,B]")
    twice = next((n for n in names if names.count(n) > 1), None)
    if twice:
        return card.melee.rule, f"{twice} is named twice: each attacker fights once"
    defender = enemy_figures(state, [o.subject] if o.subject else [], side)
    if isinstance(defender, tuple):
        return defender
    return too_many(card, defender[0], names) or \
        _fought_already(card, state, defender[0], names) or \
        check_melee(card, state, defender[0], attackers) or \
        own_defender(card, state, defender[0], attackers) or \
        (None if _a_ruling(o) else short_of_owed(card, state, side, defender[0], names))


def _a_ruling(o: SkOrder) -> bool:
    """Whether o is a moderator's ruling made into the test it corrects (corrected: its text
    is the settle's, whose verb is read in any case, as parse_order reads it): a ruling names
    who fought, whatever was owed."""
    words = o.text.split(None, 1)
    return bool(words) and words[0].casefold() == "settle"


def _fought_already(card, state, defender, names: list[str]) -> Refusal | None:
    """A melee is one test a turn for its defender, its attackers declared together (the
    second attacker's +2 and the defender's one roll against both), and each attacker
    fights once a turn."""
    if defender.attackers:
        return card.melee.rule, (f"{defender.id} has fought its melee this turn (attacked by "
                                 f"{', '.join(defender.attackers)}): both attackers are "
                                 f"named in one order, attackers=A,B")
    fought = {a for f in state.figures.values() for a in f.attackers}
    again = next((n for n in names if n in fought), None)
    return (card.melee.rule, f"{again} has fought a melee this turn already") if again else None


def _check_morale(card, state, o, side):
    s = _section(state, o.subject, side)
    if isinstance(s, tuple):
        return s
    mo = card.morale
    trig = o.facts.get("trigger")
    if trig not in mo.triggers:
        return mo.rule, one_of("trigger", trig, mo.triggers)
    unread = morale_unread(card, s.id, s.quality, o.facts)
    if unread:
        return unread
    if trig == "killed" and s.killed_tests >= s.killed_this_turn:
        return mo.rule, f"section {s.id} has {counted(s.killed_this_turn, 'figure')} killed " \
                        f"this turn and has taken a test for each"
    if trig == "leader" and not any(
            f.side == side and f.role in LEADERS and f.killed_turn == state.turn
            and f.killed for f in state.figures.values()):
        return mo.rule, f"no platoon commander nor squad leader of the {side_name(side)} side " \
                        f"has been killed this turn"
    return None


def _check_rally(card, state, o, side):
    s = _section(state, o.subject, side)
    if isinstance(s, tuple):
        return s
    if not s.failures:
        return card.rally.rule, f"section {s.id} has no morale failure marker"
    if s.id in state.moved_sections:
        return card.rally.rule, f"section {s.id} moved this turn: only a unit that spent " \
                                f"the turn stationary may rally"
    return None


def _check_unpin(card, state, o, side):
    f = _subject(state, o, side)
    if isinstance(f, tuple):
        return f
    if not f.pins:
        return card.unpin.rule, f"{f.id} is not pinned"
    return motivation(card, state, f, o.facts, "unpin")


def _check_surrender(card, state, o, side):
    """A surrender is ordered by its owner or claimed by the enemy, who sees the table too
    (his facts are recorded, and the owner may dispute them)."""
    reason = o.facts.get("reason")
    s = card.surrender.rule
    if reason not in ("routing", "melee"):
        return s, "reason= is routing or melee"
    if reason == "routing":
        found = state.sections.get(o.subject or "")
        sec = _section(state, o.subject, found.side if found else side)
        if isinstance(sec, tuple):
            return sec
        if sec.failures < 2:
            return s, f"section {sec.id} is not routing (fewer than 2 morale failures)"
        return None
    found = state.figures.get(o.subject or "")
    f = own_figure(state, o.subject, found.side if found else side)
    if isinstance(f, tuple):
        return f
    if (f.side != side or card.surrender.melee_checked) and not (
            f.attackers or contact_of(state, f.id) or
            any(f.id in g.attackers for g in state.figures.values())):
        who = "a figure" if card.surrender.melee_checked else \
            "the enemy may claim the surrender of a figure"      # a journal made before
        return s, f"{f.id} is in no melee: {who} surrenders for reason=melee in a melee only"
    return None


CHECKS = {"move": _check_move, "spot": _check_spot, "fire": _check_fire,
          "unaimed": _check_fire, "melee": _check_melee, "morale": _check_morale,
          "rally": _check_rally, "unpin": _check_unpin, "surrender": _check_surrender}


def _outcome(card: SkirmishCard, state: SkState, o: SkOrder, side: str, dice) -> t.Outcome:
    f = state.figures.get(o.subject or "")
    targets = [state.figures[n] for n in o.facts.get("at", [])]
    if o.kind == "move":
        return t.move(card, f, o.facts, dice)
    if o.kind == "spot":
        return t.spot(card, f, targets[0], o.facts, dice)
    if o.kind == "fire":
        return t.aimed(card, f, targets, o.facts, dice)
    if o.kind == "unaimed":
        return t.unaimed(card, f, targets[0], o.facts, dice)
    if o.kind == "melee":
        return t.melee(card, f, [state.figures[n] for n in o.facts["attackers"]], dice)
    sec = state.sections.get(o.subject or "")
    members = [g for g in state.figures.values() if sec and g.section == sec.id]
    if o.kind == "morale":
        return t.morale(card, sec, members, o.facts, dice)
    if o.kind == "rally":
        return t.rally(card, sec, dice)
    if o.kind == "unpin":
        return t.unpin(card, f, dice)
    return t.surrender(card, members if sec else [f], o.facts)


def _stated(card: SkirmishCard, state: SkState, o: SkOrder) -> dict:
    """The order's facts, with the card's default for each fact its test reads that the
    order left out and whose omission would favour the firer (card.yaml defaults)."""
    read = {"fire": ["cover"], "unaimed": ["cover"]}.get(o.kind, [])
    if o.kind == "unaimed":
        fierce = next((m for m in card.unaimed.modifiers if m.id == "ferocious_advancing"),
                      None)
        target = state.figures[o.facts["at"][0]]
        read += ["advancing"] if fierce and target.quality in fierce.qualities else []
    return {**o.facts, **{k: card.defaults[k] for k in read
                          if k in card.defaults and k not in o.facts}}


def decide(card: SkirmishCard, state: SkState, o: SkOrder, side: str, dice) -> dict:
    """The test an order makes (a journal record's body), or IllegalOrderError."""
    r = check(card, state, o, side)
    if r is not None:
        raise IllegalOrderError(o.text, r[0], r[1])
    body = {"actor": side, "order": o.text, "turn": state.turn,
            "phase": phase_of(card, state).phase}
    if o.kind == "done":
        return {**body, "test": None}
    o = SkOrder(o.kind, o.subject, _stated(card, state, o), o.text)
    out = _outcome(card, state, o, side, dice)
    return {**body, "test": {"kind": o.kind, "subject": o.subject, "facts": o.facts,
                             "dice": out.dice, "modifiers": out.modifiers,
                             "result": out.result, "effects": out.effects,
                             "rule": out.rule}}


def apply_effects(state: SkState, effects: list[dict], sign: int = 1,
                  turn: int | None = None) -> None:
    """Add (sign 1) or take back (sign -1) a test's effects on the forces (turn: the turn
    of the test, the current one unless a settle corrects an earlier test: a kill counts
    for the morale tests of the turn it happened in, and no other's)."""
    turn = state.turn if turn is None else turn
    for e in effects:
        if "figure" in e:
            f = state.figures[e["figure"]]
            f.pins = max(0, f.pins + sign * e.get("pins", 0))
            if e.get("killed"):
                f.killed = sign > 0
                f.killed_turn = turn if sign > 0 else 0
                if f.section and turn == state.turn:
                    state.sections[f.section].killed_this_turn += sign
            if e.get("surrendered"):
                f.surrendered = sign > 0
        else:
            s = state.sections[e["section"]]
            s.failures = max(0, s.failures + sign * e.get("failures", 0))
            if e.get("dispersed"):
                s.dispersed = sign > 0


def _bookkeep(card: SkirmishCard, state: SkState, side: str, test: dict) -> None:
    """What a test marks for the card's limits this turn: moves, fire, melee, morale."""
    kind, subj = test["kind"], test["subject"]
    f = state.figures.get(subj or "")
    if kind == "move":
        f.moved = test["facts"]["mode"]
        f.contact = bool(test["facts"].get("contact"))
        f.contact_at = (test["facts"].get("at") or [None])[0] if f.contact else None
        test["broke_off"] = left_contact(state, f.id)     # held again if ruled void
        if card.unit_turns:
            end_turns(state, side, f.section)
        if f.section and f.section not in state.moved_sections:
            state.moved_sections.append(f.section)
            state.moves[side] += 1
    elif kind in ("fire", "unaimed"):
        f.fired = True
        state.fire_rank = max(state.fire_rank, card.qualities.index(f.quality))
    elif kind == "melee":
        f.attackers += [a for a in test["facts"]["attackers"] if a not in f.attackers]
        for g in [f, *(state.figures[a] for a in test["facts"]["attackers"])]:
            g.melee_turn = state.turn
        if card.melee.contact_lasts:
            _hold(state, f.id, test["facts"]["attackers"])
    elif kind == "morale" and test["facts"]["trigger"] == "killed":
        state.sections[subj].killed_tests += 1


def _hold(state: SkState, defender: str, attackers: list[str]) -> None:
    """The figures a melee leaves standing stay in contact (its start turn kept)."""
    old = next((c for c in state.contacts if c["defender"] == defender), None)
    state.contacts = [c for c in state.contacts if c is not old]
    if state.figures[defender].active:
        state.contacts.append({"defender": defender, "attackers": list(attackers),
                               "turn": old["turn"] if old else state.turn})


def _next_phase(card: SkirmishCard, state: SkState) -> None:
    state.done, state.passed = [], []
    state.fire_rank = 0
    state.phase += 1
    if state.phase < len(card.sequence):
        _begin(card, state)
        return
    state.phase, state.turn = 0, state.turn + 1
    state.moved_sections, state.moves = [], {s: 0 for s in state.sides}
    state.closed = []
    for f in state.figures.values():
        f.moved, f.fired, f.attackers, f.contact = None, False, [], False
        f.contact_at = None
    for s in state.sections.values():
        s.killed_this_turn = s.killed_tests = 0
    _begin(card, state)                      # a card whose turn opens with its fire


def _begin(card: SkirmishCard, state: SkState) -> None:
    """Begin the phase the game has come to: a fire phase at its first step; the off-table
    artillery phase waiting on the sides that have some (the others, not waited on, may
    spot in it, as a side with none fit to fire may in a fire step), and passed over when
    none has (a scenario that does not say waits on both); a melee phase with no figure in
    contact passed over (card melee_passed_over; with contact_move, as only a figure in
    contact fights)."""
    if stepped(card, state):
        _start_step(card, state, 0)
    elif card.melee_passed_over and card.melee.contact_move and \
            "melee" in phase_of(card, state).tests and not in_contact(state):
        _next_phase(card, state)
    elif phase_of(card, state).phase == "artillery" and state.artillery is not None:
        state.done = [s for s in state.sides if s not in state.artillery]
        state.passed = list(state.done)
        if not waiting(state) and any(p.phase != "artillery" for p in card.sequence):
            _next_phase(card, state)


def evolve(card: SkirmishCard, state: SkState, body: dict, seq: int) -> None:
    """Apply one record's body to the state (in place; never checks)."""
    state.seq = seq
    if body.get("kind") == "route":          # the mail route: nothing of the game
        return
    if body.get("kind") == "reveal":
        state.revealed = {"record": seq, "secret": body["secret"]}
        return
    if "settle" in body:
        settle(state, body["settle"], card, seq)
        return
    if "dispute" in body:
        state.disputes.append({**body["dispute"], "by": body["actor"], "seq": seq})
        return
    test = body.get("test")
    spoke(state, body["actor"])
    if test is None:
        state.done.append(body["actor"])
        if waiting(state):
            return
        was = before_done(card, state)
        if stepped(card, state):
            _start_step(card, state, state.fire_step + 1)
        else:
            _next_phase(card, state)
        after_done(card, state, was, seq)
        return
    state.tests.append({**test, "record": seq, "side": body["actor"], "order": body["order"],
                        "turn": body["turn"], "phase": body["phase"], "by_mail": "mail" in body})
    apply_effects(state, test["effects"])
    if card.pins_told:      # the pins each figure it pinned holds after it (report.py)
        state.tests[-1]["pins_after"] = {e["figure"]: state.figures[e["figure"]].pins
                                         for e in test["effects"] if e.get("pins")}
    _bookkeep(card, state, body["actor"], state.tests[-1])


def settle(state: SkState, ruling: dict, card: SkirmishCard | None = None,
           seq: int | None = None) -> None:
    """A moderator's ruling on a dispute (record seq): a corrected test replaces the effects
    of the disputed one (for a melee, who fought it and who stays in contact; for a move of
    this turn, how its figure moved, card settled_moves), and
    keeps the records of the rulings that corrected it. A correction settles the dispute of
    its fact; an uphold, every open one of the test."""
    for d in open_disputes(state.disputes, ruling["record"]):
        if ruling.get("fact", d["fact"]) == d["fact"]:
            d["ruling"] = ruling
    if ruling.get("test") is None:
        return
    old = next(x for x in state.tests if x["record"] == ruling["record"])
    apply_effects(state, (old.get("settled") or old)["effects"], -1, old["turn"])
    apply_effects(state, ruling["test"]["effects"], 1, old["turn"])
    if old["kind"] == "melee":
        _melee_settled(card, state, old, ruling["test"])
    if old["kind"] == "move" and old["turn"] == state.turn and card is not None and \
            card.settled_moves:
        move_settled(state, old, ruling["test"])
    old["settled"] = told_void(card, ruling["test"])     # card voids_told
    old["rulings"] = [*old.get("rulings", []), *([] if seq is None else [seq])]


def _melee_settled(card: SkirmishCard | None, state: SkState, old: dict, new: dict) -> None:
    """A melee corrected: the attackers it no longer names, or all of a void one, are out
    of the defender's melee of that turn and of his contact; those it names now are in."""
    fought = [] if new["result"].startswith("void") else new["facts"]["attackers"]
    gone = [a for a in (old.get("settled") or old)["facts"]["attackers"] if a not in fought]
    defender = state.figures[old["subject"]]
    if old["turn"] == state.turn:
        defender.attackers = [a for a in defender.attackers if a not in gone] + \
            [a for a in fought if a not in defender.attackers]
    held = [c for c in state.contacts if c["defender"] == defender.id]
    if card is not None and card.melee.contact_lasts and fought and not held:
        held = [{"defender": defender.id, "attackers": [], "turn": old["turn"]}]
        state.contacts.append(held[0])
    for c in held:
        c["attackers"] = [a for a in c["attackers"] if a not in gone] + \
            [a for a in fought if a not in c["attackers"]]
    state.contacts = [c for c in state.contacts if c["attackers"]]
