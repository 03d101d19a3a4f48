"""Orders: what a player submits, in a short text form for email and a JSON form.

One order per line. The text form starts with a verb; cards are named by
their key or title, areas by id, name or alias (case, accents and hyphens do
not matter), units by the ids every view shows. `format_order` writes the
canonical text that `status` lists and `order` accepts. A line starting with
'{' is read as the JSON form (see schemas/orders.json).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..contracts.orders import Ord  # the shapes, generated from referee/contracts/orders.py

# ---------------------------------------------------------------- text form

def format_order(order: Ord) -> str:
    """The canonical one-line text of an order, as `status` lists it."""
    k = order.kind
    if k == "play":
        return f"play {order.card}" + (f" {order.area}" if order.area else "")
    if k in ("done", "annihilate"):
        return k
    if k in ("battle", "bonus", "keep", "fight"):
        return f"{k} {order.area}"
    if k == "retreat":
        return f"retreat {order.unit} {order.to}" + (f" into {order.into}" if order.into else "")
    if k == "react":
        return f"react {order.unit}" + (f" on {order.on}" if order.on else "")
    if k in ("lose", "scramble"):
        return f"{k} {order.unit}"
    if k == "ersatz":
        return f"ersatz {order.card}"
    if k == "eliminate":
        return f"eliminate {order.army}"
    if k in ("place", "build"):
        nation, _, kind = order.unit.partition(":")
        what = f"{nation} {kind}" if kind else order.unit
        return f"{k} {what} {order.area}" + (f" into {order.into}" if order.into else "")
    if k == "swap":
        return f"swap {order.unit}"
    if k == "buy":
        return f"buy {order.count}"
    if k == "rebuild":
        return f"rebuild {order.army} {order.area}"
    if k == "entrench":
        return "entrench " + " ".join(order.units)
    if k == "upgrade":
        return f"upgrade {order.unit}"
    if k == "eft":
        return f"eft {order.unit}" + (f" {order.to}" if order.to else "")
    if k == "armistice":
        return "surrender" if order.act == "surrender" else f"{order.act} armistice"
    if k == "pass":
        return "pass"
    if k == "end_movement":
        return "end movement"
    if k == "end_turn":
        return "end turn"
    if k == "discard":
        return "discard " + " ".join(order.cards)
    if k == "move":
        text = " ".join(("move", order.unit, *order.path))
        if order.into:
            text += f" into {order.into}"
        if order.taking:
            text += " taking " + " ".join(order.taking)
        return text
    if k in ("rail", "strategic", "sea", "reserves", "evacuate"):
        return f"{k} {order.unit} {order.to}"
    if k == "suppress":
        return f"suppress {order.army}" + (f" into {order.into}" if order.into else "")
    if k == "crisis_remove":
        return f"remove {order.unit}"
    if k == "crisis_refuse":
        return "refuse crisis"
    raise ValueError(k)
