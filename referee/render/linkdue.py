"""The line of a mail or report that tells a dice sheet's holder which link his next orders
carry (store/sheets.py; docs/player.md, Dice sheets): with the answer asked now, when the
ways of answering it that go on to roll dice or shuffle the deck are known (game/ahead.py,
shown under 'Then' above it), else with his next orders that do. His own sheet and his own
orders only: no other reader's link or hand is named.
"""

from __future__ import annotations

from .sections import Para, Span, para

# Imported for annotations only.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..game.ahead import Ahead
    from ..store.sheets import SheetPos

GIVE = "in a line 'Link: LINK'"


def link_due(sheet: SheetPos | None, got: Ahead | None) -> list[Para]:
    """Which link of the reader's dice sheet is due, if he holds one: `got` is what follows
    his decision now (None: he is not asked, or nothing is known ahead)."""
    if sheet is None:
        return []
    head = (f"Your dice sheet: link {sheet.due()} (line {sheet.due() + 1} of the sheet "
            f"file) is due")
    generic = (f"{head} with your next orders that roll dice or shuffle the deck, and with a "
               f"sealed plan you give at once with the other side's, {GIVE}.")
    if got is None:
        return [para(generic)]
    if got.sealed and not got.alone:
        return [para(f"{head} with this plan, {GIVE}: a sealed plan given at once with the "
                     f"other side's carries it, since the plan that closes the phase rolls "
                     f"with both.")]
    rolling = [b for b in got.branches if b.rolls]
    if not rolling:
        return [para(generic)]
    if len(rolling) == len(got.branches):
        return [para(f"{head} with this answer, {GIVE}: every way of answering it goes on "
                     f"to roll dice (Then, above).")]
    firsts = [t for b in rolling for t in b.first]
    spans: list[Span] = [Span(f"{head} with this answer if it begins with ")]
    for i, text in enumerate(firsts):
        spans += [Span(" or " if i == len(firsts) - 1 else ", ")] * bool(i) + \
            [Span(text, "order")]
    spans.append(Span(f": that goes on to roll dice (Then, above); else with your next "
                      f"orders that roll dice or shuffle the deck. Give it {GIVE}."))
    return [Para(spans)]
