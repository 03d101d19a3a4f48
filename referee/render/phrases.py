"""The pieces every line of the log is made of: side, area and card names, and an event's
secret details when its reader may see them (hidden templates, 1.4)."""

from __future__ import annotations

from ..base.plurals import counted
from ..game.views import readable_name
from .grouped import readable_order

# Imported for annotations only: the quick paths do without the typing module.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from ..data.gamedata import GameData

    # How one kind of event is told to one reader: its line, or None for nothing worth printing.
    Wording = Callable[[dict, GameData, str], "str | None"]

# Each fire phase of a battle with its rule (5.2.1, 8.3.1): the log's line and the dice count's
# purpose.
PHASE = {"dogfight": "dogfight (5.2.1 a)", "artillery": "artillery fire (5.2.1 b)",
         "defensive": "defensive fire (5.2.1 c)", "offensive": "offensive fire (5.2.1 d)",
         "pursuit": "pursuit fire (8.3.1)"}
# A Surprise Attack! battle fires in its own order, with its own letters (9.7; the sequence of
# play's "4a. Surprise Attack! combat" and the note of 5.2.1: a dogfight, b offensive fire,
# the artillery firing once, c defensive fire), cited by the card's rule as the battle's
# heading is: the index numbers the usual combat's dogfight "2.0 II.4a", so "4a" alone would
# name another step; pursuit fire is 8.3.1's in any battle.
SURPRISE_PHASE = {"dogfight": "dogfight (surprise order a, 9.7)",
                  "offensive": "offensive fire (surprise order b, 9.7)",
                  "defensive": "defensive fire (surprise order c, 9.7)"}


def phase_name(ev: dict) -> str:
    """A fire event's phase as the log and the dice counts name it, with its rule: the
    surprise order's for a fire phase of a Surprise Attack! battle (the event marked so,
    game/battlethread.py), else 5.2.1's (8.3.1 pursuit fire)."""
    phase = ev["phase"]
    if ev.get("surprise") and phase in SURPRISE_PHASE:
        return SURPRISE_PHASE[phase]
    return PHASE[phase]


def unprinted(ev: dict, data: GameData, reader: str) -> None:
    """Nothing worth a line: the event only marks a step that other lines show."""
    return None


def side(ev: dict, data: GameData) -> str:
    """The name of the side an event is about, as the game's data prints it."""
    return data.side_name(ev["side"])


def box_owner(data: GameData) -> str:
    """The name of the side whose units the EFT box holds (map.yaml boxes, 2.0 V.4); a game
    without the box has none there, and its first side stands in."""
    return data.side_name(data.eft_box.owner if data.eft_box else data.sides[0])


def area(aid: str, data: GameData) -> str:
    """An area's name, or the EFT box's (the box of map.yaml, GameData.eft_box)."""
    if data.eft_box and aid == data.eft_box.id:
        return "the EFT box"
    return data.areas[aid].name if aid in data.areas else aid


def cards(ids: list[str], data: GameData) -> str:
    """Card ids as their titles, or 'none'."""
    return ", ".join(data.cards[c].title for c in ids) if ids else "none"


def card_name(key: str, data: GameData) -> str:
    """What a card counts as, by its type's title; 'pass' is a pass with free movement (9.5)."""
    if key == "pass":
        return "a pass (with free movement; not a pass for ending the turn)"
    return data.card_types[key].title if key in data.card_types else key


def kind_name(kind: str) -> str:
    """A unit kind or decision kind as words ('siege_gun' -> 'siege gun')."""
    return kind.replace("_", " ")


def unit_named(ref: str, kind: str, data: GameData) -> str:
    """A lost unit as the board names it: a stand-alone piece by its id and kind
    ('ge-i-01 (infantry)'), a unit of an army's template by its kind and the army, which
    the board shows as its id and contents ('an infantry unit from army ge-8'). A unit of
    another nation on the template names its nation (8.1: US infantry in any army)."""
    army, sep, spec = ref.partition(":")
    if not sep:
        return f"{ref} ({kind_name(kind)})"
    what = kind_name(kind)
    article = "an" if what[:1] in "aeiou" else "a"
    foreign, _, _ = spec.rpartition("-")
    nation = data.units.nations.get(foreign)
    whose = f" ({nation.name})" if nation else ""
    return f"{article} {what} unit{whose} from army {army}"


def secret_data(ev: dict, reader: str) -> dict | None:
    """The event's secret payload if reader may see it (its owner or the moderator)."""
    sec = ev.get("secret")
    if isinstance(sec, dict) and "data" in sec and reader in ("moderator", sec.get("to")):
        return sec["data"]
    return None


def opened(ev: dict, reader: str) -> dict | None:
    """The event with its secret details when reader may see them (hidden templates, 1.4);
    None when they are kept from him."""
    sec = ev.get("secret")
    if not isinstance(sec, dict):
        return ev
    d = secret_data(ev, reader)
    return None if d is None else {**ev, **d}


def readable_orders(orders: list[str], data: GameData) -> list[str]:
    """Orders as the plan keeps them (areas by id) with their areas named as the orders open
    to a side name them, which read back as the same areas (4.1)."""
    names = {a: readable_name(a, data) for a in data.areas}
    return [readable_order(o, names) for o in orders]


def revealed_orders(ev: dict, data: GameData, reader: str) -> str:
    """A revealed sealed plan's orders, one a line (never split when the log is wrapped), its
    areas named as the orders open to a side name them; orders on army templates the reader
    may not see are counted, not shown (1.4). A plan told as a heading over the events that
    carried it out (told_once.under_reveals) names only the orders none of them says."""
    e = opened(ev, reader)
    if "untold" in ev:
        shown, hidden = readable_orders(ev["untold"], data), ev.get("untold_hidden", 0)
    else:
        shown = readable_orders(ev["orders"] if e is None else e["orders"], data)
        hidden = ev["hidden"] if e is None else 0
    if hidden:
        shown.append(f"{counted(hidden, 'order')} on army templates (hidden, 1.4)")
    if "untold" in ev and ev.get("under"):
        return "".join(f"\n        {o}" for o in shown)
    return "".join(f"\n        {o}" for o in shown) or " nothing"
