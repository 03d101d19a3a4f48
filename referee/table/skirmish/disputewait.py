"""The disputes a skirmish waits on its moderator for: a player disputed a fact another side
declared (rule Disputes) and only the moderator's `settle` (a fact's value, or the test
upheld) closes it. `status` names each (its JSON `disputes_open`, a line each in its
text), and each pass of `tick` says the game waits on him while one is open: the same line
every pass, his mail once (mail/direct.py). Nothing is asked once the secret is published
(the game is closed: nothing more is ruled)."""

from __future__ import annotations

from ...render.documents import reader_words
from .state import SkState, open_disputes

WAIT_CODE = "dispute_open"     # contracts/codes.py WaitCode


def disputes_of(card, state: SkState) -> dict:
    """The status's part for the disputes open (card disputes_wait; none in a journal made
    before, whose status said nothing of them)."""
    return {"disputes_open": open_view(state)} if card.disputes_wait else {}


def open_view(state: SkState) -> list[dict]:
    """The disputes open, as `status` gives them: the record of the test disputed, the fact,
    what was declared and what is claimed, the side that disputes it and its record."""
    if state.revealed is not None:
        return []
    return [{"record": d["record"], "fact": d["fact"], "declared": d.get("declared"),
             "claimed": d.get("claimed"), "by": d.get("by"), "seq": d.get("seq")}
            for d in open_disputes(state.disputes)]


def dispute_line(d: dict) -> str:
    """One open dispute in words: whose, of what, and the orders that settle it."""
    n = d["record"]
    return (f"Waiting on the moderator: {reader_words(str(d.get('by')))}'s dispute of record "
            f"{n}'s {d['fact']} (record {d.get('seq')}), settled by the moderator's `settle "
            f"record={n} fact={d['fact']} value=VALUE` or `settle record={n} uphold=yes`.")


def dispute_lines(view: dict) -> list[str]:
    """A status view's open disputes, a line each (none in a view made before they were
    given)."""
    return [dispute_line(d) for d in view.get("disputes_open") or ()]


def moderator_wait(card, state: SkState, journal: str) -> tuple[str, str, list[str]] | None:
    """What a pass of tick says while disputes are open (journal: as the moderator types
    it): the line, its code and the sides that disputed; None with none open, or in a
    journal made before (card disputes_wait)."""
    found = open_view(state) if card.disputes_wait else []
    if not found:
        return None
    said = "; ".join(
        f"{reader_words(str(d['by']))} disputes record {d['record']}'s {d['fact']} (record "
        f"{d['seq']})" for d in found)
    n, fact = found[0]["record"], found[0]["fact"]
    each = "" if len(found) == 1 else ", each with its record and fact"
    return (f"the game waits on the moderator: {said}; settle {'it' if not each else 'each'} "
            f"by mail, as his report asks, or with `referee skirmish order {journal} 'settle "
            f"record={n} fact={fact} value=VALUE' --as moderator` (or 'settle record={n} "
            f"uphold=yes'){each}", WAIT_CODE, sorted({str(d["by"]) for d in found}))
