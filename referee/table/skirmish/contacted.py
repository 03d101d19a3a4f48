"""A figure contacted this turn, as the card's melee.contact_holds reads Hand-to-Hand Combat
("if contacted a figure can't move"): a move into contact names the enemy figure it
contacts (`contact=yes at=G6`), that figure moves no more this turn, and in the melee that
follows the mover attacks it and no other. A card without contact_holds (a journal made
before) reads no at= on a move: contact=yes named no one."""

from __future__ import annotations

from ...base.plurals import joined
from ...contracts.skirmish import SkirmishCard
from .checks import contact_of, enemy_figures, fighting, halted, live_contacts
from .order_text import READS, SkOrder
from .state import FigureState, SkState

Refusal = tuple[str, str]


def contacted_by(state: SkState, fid: str) -> list[FigureState]:
    """The figures still fighting that moved into contact with figure fid this turn, in
    the order they moved."""
    return sorted((f for f in state.figures.values()
                   if f.contact and f.contact_at == fid and fighting(state, f.id)),
                  key=lambda f: moved_in(state, f.id) or 0)


def moved_in(state: SkState, fid: str) -> int | None:
    """The record of figure fid's move this turn."""
    return next((x["record"] for x in reversed(state.tests) if x["kind"] == "move"
                 and x["subject"] == fid and x["turn"] == state.turn), None)


def _record(state: SkState, fid: str) -> str:
    """The record of figure fid's move this turn, as a refusal names it: ' (record 12)'."""
    n = moved_in(state, fid)
    return "" if n is None else f" (record {n})"


def _by(state: SkState, figures: list[FigureState]) -> str:
    """Figures, each with the record of its move: 'B5 (record 12) and B2 (record 13)'."""
    return joined([f.id + _record(state, f.id) for f in figures])


def held(card: SkirmishCard, state: SkState, f: FigureState) -> Refusal | None:
    """Why figure f may not move now because an enemy figure moved into contact with it
    this turn (None: none did, or the card does not hold it)."""
    if not card.melee.contact_holds:
        return None
    by = contacted_by(state, f.id)
    if not by:
        return None
    return card.melee.rule, (f"{f.id} was contacted this turn by {_by(state, by)}: a "
                             f"contacted figure can't move, and fights its melee first")


def named(card: SkirmishCard, state: SkState, o: SkOrder, f: FigureState) -> Refusal | None:
    """Why a move's at= is refused (None: taken): with the card's contact_holds, a move
    into contact names one enemy figure standing on the table, and at= goes with
    contact=yes alone; without it, a move reads no at=."""
    at = o.facts.get("at")
    if not card.melee.contact_holds:
        if at is None:
            return None
        takes = ", ".join(f"{k}=" for k in READS["move"] if k != "at")
        return card.movement.rule, (f"at=: a move in this game names no figure it contacts "
                                    f"(it takes {takes})")
    rule = card.melee.rule
    if not o.facts.get("contact"):
        return None if at is None else \
            (rule, "at= names the enemy figure a move into contact contacts: declare "
                   "contact=yes with it, or leave at= out")
    if not at:
        return rule, "declare at=: the enemy figure the move contacts (contact=yes at=FIGURE)"
    if len(at) > 1:
        return rule, "a move into contact names one enemy figure: at=FIGURE"
    return standing(state, at[0], f.side) or full(card, state, at[0], f.id) \
        or engaged(card, state, at[0])


def engaged(card: SkirmishCard, state: SkState, fid: str) -> Refusal | None:
    """Why no figure may move into contact with figure fid (card melee.contact_limited):
    it attacks another already, having moved into contact with it this turn or held in
    contact with it as its attacker from an earlier melee, and a figure in a melee fights
    no other, so a melee it were contacted into could never be fought (None: it does not)."""
    if not card.melee.contact_limited:
        return None
    g = state.figures[fid]
    c = contact_of(state, fid)
    if c is not None and c["defender"] != fid:
        why = f"is in contact with {c['defender']} as its attacker (melee of turn {c['turn']})"
    elif g.contact and g.contact_at and fighting(state, g.contact_at) and not halted(card, g):
        why = f"moved into contact with {g.contact_at} this turn{_record(state, fid)}"
    else:
        return None
    return card.melee.rule, (f"{fid} {why}: a figure in a melee fights no other, so it "
                             f"can't be contacted by another figure")


def full(card: SkirmishCard, state: SkState, fid: str, mover: str | None = None
         ) -> Refusal | None:
    """Why no other figure may move into contact with figure fid (card
    melee.contact_limited): as many as may attack a single defending figure contact it
    already, this turn or held in contact from an earlier melee (None: fewer do)."""
    m = card.melee
    if not m.contact_limited:
        return None
    held = next((c for c in live_contacts(state) if c["defender"] == fid), None)
    kept = held["attackers"] if held else []
    names = [f"{a} (in contact since turn {held['turn']})" for a in kept if a != mover]
    names += [a.id + _record(state, a.id) for a in contacted_by(state, fid)
              if a.id not in kept and a.id != mover and not halted(card, a)]
    if len(names) < m.max_attackers:
        return None
    return m.rule, (f"{fid} is contacted already by {joined(names)}: no more than "
                    f"{m.max_attackers} figures may attack a single defending figure")


def standing(state: SkState, name: str, side: str) -> Refusal | None:
    """Why figure name is no enemy figure of side standing on the table (None: it is)."""
    found = enemy_figures(state, [name], side)
    if isinstance(found, tuple):
        return found
    g = found[0]
    if not fighting(state, g.id):
        return "Morale", f"{g.id}'s section {g.section} has dispersed: it is no longer on " \
                         f"the table to contact"
    return None


def contactable(state: SkState, side: str, card: SkirmishCard | None = None) -> list[str]:
    """The enemy figures a move of side may name in at= (standing, and with card, not
    contacted already by as many as may attack it)."""
    return [g.id for g in state.figures.values()
            if g.side != side and standing(state, g.id, side) is None
            and (card is None or full(card, state, g.id) is None
                 and engaged(card, state, g.id) is None)]


def own_defender(card: SkirmishCard, state: SkState, defender: FigureState,
                 attackers: list[FigureState]) -> Refusal | None:
    """A new attacker (not in the defender's contact of an earlier melee) that moved into
    contact with a named figure this turn attacks that figure and no other."""
    if not card.melee.contact_holds:
        return None
    kept = (contact_of(state, defender.id) or {}).get("attackers", [])
    for a in attackers:
        if a.id not in kept and a.contact and a.contact_at not in (None, defender.id):
            return card.melee.rule, (f"{a.id} moved into contact with {a.contact_at} this "
                                     f"turn{_record(state, a.id)}: it attacks "
                                     f"{a.contact_at}, not {defender.id}")
    return None
