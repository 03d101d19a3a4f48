"""A report as a mail gives it while both sides give sealed plans at once (production 7.0,
reinforcements 2.0 I, discards 2.0 V.3), or when their plans are revealed: read on a phone,
what is asked and how to answer come first, with the example of a plan; then what each
order costs and the orders open; then what happened, the VP in brief, and the whole
board. The rest of the report is as every report has it.
"""

from __future__ import annotations

from ..engine import sealed_sides
from ..game.endlevel import vp_level_name
from .costs import EXAMPLE_INTRO
from .sections import Items, Orders, Para, Section, Span

# The heading of the orders open to the side asked, once they follow his Build Points.
ORDERS_TITLE = "Orders open to you"


def wanted(state, revealed: list) -> bool:
    """Whether a mail's report is laid out for a phone: a sealed plan is asked now, or the
    records it tells revealed the production plans."""
    return bool(sealed_sides(state)) or bool(revealed)


def reordered(happened: list[Section], now: list[Section]) -> list[Section]:
    """The sections in a phone's order: the decision now with the example of a plan, its
    Build Points, the orders open; then what happened (the VP and the board among it)."""
    first, *rest = now
    blocks = list(first.blocks)
    lead, blocks = blocks[:1], blocks[1:]
    start = next((i for i, b in enumerate(blocks) if _opens_orders(b)), len(blocks))
    asked, orders = blocks[:start], blocks[start:]
    costs = []
    for section in rest:
        example, kept = _example_apart(section.blocks)
        asked += example
        costs.append(Section(section.title, kept))
    out = [Section(first.title, lead + asked), *costs]
    if orders and costs:
        out.append(Section(ORDERS_TITLE, orders))
    elif orders:
        out[0].blocks += orders
    return out + happened


def _opens_orders(block) -> bool:
    return isinstance(block, Para) and bool(block.spans) and \
        block.spans[0].text.startswith("Reply with one order per line")


def _example_apart(blocks: list) -> tuple[list, list]:
    """(the worked example of a plan, the other blocks) of a Build Points section."""
    at = next((i for i, b in enumerate(blocks) if isinstance(b, Para) and b.spans and
               b.spans[0].text == EXAMPLE_INTRO), None)
    if at is None or at + 1 >= len(blocks) or not isinstance(blocks[at + 1], Orders):
        return [], blocks
    end = at + 3 if at + 2 < len(blocks) else at + 2      # its cost, said after it
    return blocks[at:end], blocks[:at] + blocks[end:]


def vp_change(since: int, change: int) -> str:
    """How the VP changed over the records a report tells (3.1), as a sentence; nothing for
    a report from the start of the game in which they did not change (the game's first
    mail: "+0 since record 0" told a player nothing). Record 0 is said as what it is to
    him, the start of the game."""
    if not change:
        return f"No change since record {since}." if since else ""
    return f"Change since {f'record {since}' if since else 'the start of the game'}: " \
        f"{change:+d}."


def vp_brief(vp: dict, since: int, change: int) -> Section:
    """The VP in one line, its breakdown only when it changed (3.1)."""
    said = vp_change(since, change)
    head = Para([Span(f"VP {vp['total']}: {vp_level_name(vp)}", "bold"),
                 Span(f"; {said[:1].lower()}{said[1:]}" if said else ".")])
    if not change:
        return Section("Victory points", [head])
    return Section("Victory points", [head, Items([[Span(f"{b['label']}: {b['vp']:+d}")]
                                                   for b in vp["breakdown"]])])
