"""A move of the turn as the moderator's ruling left it (card settled_moves): its figure
marked again from the corrected facts, as the move itself marked it (decider._bookkeep)."""

from __future__ import annotations

from ...contracts.skirmish import SkirmishCard
from .checks import contact_of
from .state import SkState


def is_void(test: dict) -> bool:
    """A test decided again on corrected facts that it could not stand on."""
    return test["result"].startswith("void")


def told_void(card: SkirmishCard | None, test: dict) -> dict:
    """A ruling's test as the game holds it: one it made void, with the card's voids_told,
    with no modifier (the shot never counted) and marked void, so that its report line
    leads with it (report.test_lines); any other as the ruling recorded it."""
    if card is None or not card.voids_told or not is_void(test):
        return test
    return {**test, "modifiers": [], "void": True}


def move_settled(state: SkState, old: dict, new: dict) -> None:
    """The figure of a move of this turn, corrected by new (old: the state's entry of the
    move, still holding its ruling before this one, if any): it moved by the mode ruled, into
    contact only if ruled so; a void move is one it could not make, so it did not move (and
    a contact the move broke off holds again); a move made again after a void one breaks it
    off again. What was taken on the move as it stood before stays."""
    f = state.figures[old["subject"]]
    was = is_void(old.get("settled") or old)
    void = is_void(new)
    f.moved = None if void else new["facts"]["mode"]
    f.contact = not void and bool(new["facts"].get("contact"))
    f.contact_at = (new["facts"].get("at") or [None])[0] if f.contact else None
    if void and not was:
        _held_again(state, f.id, old.get("broke_off", []))
    elif was and not void:
        old["broke_off"] = left_contact(state, f.id)


def left_contact(state: SkState, fid: str) -> list[dict]:
    """A figure that moves is out of contact (a move in contact is a break-off): the
    defender's going ends the melee, an attacker's leaves the other in it. The contacts it
    was in, as they were."""
    kept, left = [], []
    for c in state.contacts:
        if c["defender"] == fid or fid in c["attackers"]:
            left.append({**c, "attackers": list(c["attackers"])})
        if c["defender"] != fid:
            rest = [a for a in c["attackers"] if a != fid]
            kept += [{**c, "attackers": rest}] if rest else []
    state.contacts = kept
    return left


def _held_again(state: SkState, fid: str, left: list[dict]) -> None:
    """The contacts a move broke off, held again when the move is ruled void: the figure
    stood where it was. Not when it is in another contact since."""
    if contact_of(state, fid) is not None:
        return
    for c in left:
        now = next((x for x in state.contacts if x["defender"] == c["defender"]), None)
        if now is None:
            state.contacts.append({**c, "attackers": list(c["attackers"])})
        elif c["defender"] != fid and fid not in now["attackers"]:
            now["attackers"].append(fid)
