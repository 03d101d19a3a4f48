"""Which dice of a record are not the ones the committed secret gives, named as the record's
events tell what each was for: a battle's fire (its area, side, phase, the unit or card that
rolled it), the EFT box's loss roll; and the face the record holds beside the face the
secret gives. Only when the events account for every die of the record, in the order they
were rolled; else each die is named by its place in the record."""

from __future__ import annotations

SHOWN = 3           # the dice named; a count says how many more differ


def purposes(rec: dict) -> list[str] | None:
    """What each die of the record was rolled for, in order, as its events tell; None when
    they do not account for every die."""
    out: list[str] = []
    for ev in rec.get("events") or []:
        if not isinstance(ev, dict):
            continue
        kind = ev.get("type")
        if kind == "FireResolved":
            where = f"{ev.get('side')}'s {ev.get('phase')} fire at {ev.get('area')}"
            for group in ev.get("groups") or []:
                if not isinstance(group, dict):
                    return None
                dice = group.get("dice") or []
                again = group.get("rerolled") or []
                if not isinstance(dice, list) or not isinstance(again, list):
                    return None
                unit = group.get("source")
                out += [f"{where}, by {unit}"] * len(dice)
                out += [f"{where}, by {unit}, rolled again"] * len(again)
        elif kind == "EftLossesDue" and isinstance(ev.get("dice"), list):
            out += ["the EFT box's loss roll (2.0 V.4)"] * len(ev["dice"])
    rolled = rec.get("dice")
    return out if isinstance(rolled, list) and len(out) == len(rolled) else None


def differing(rec: dict, given: list[int]) -> str:
    """The dice of rec that are not the ones given (the secret's, in order): the first few,
    each with what it was for, its face in the record and the secret's."""
    rolled = rec.get("dice") or []
    what = purposes(rec)
    wrong = [i for i, (a, b) in enumerate(zip(rolled, given)) if a != b]
    if not wrong:
        return ""
    said = [f"die {i + 1}" + (f" ({what[i]})" if what else "") +
            f": {rolled[i]} recorded, {given[i]} from the secret" for i in wrong[:SHOWN]]
    more = len(wrong) - SHOWN
    tail = f"; and {more} more" if more > 0 else ""
    return f"{'; '.join(said)}{tail}"
