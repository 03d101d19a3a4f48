"""The Board section of every report, laid out from the board (game/board.py) for one reader.

Country by country, as map.yaml names them: one line for each area where something stands
or happens (who holds it, its battle, the units the reader may see, its fort), then the
quiet areas of each side and the neutral ones on one line each, then the supply sources
and what each supplies now.
After the countries, what lies off the map: the cards, the EFT box (in a game that has
it), the eliminated armies, the force pool and, in a production phase, the Build Points.
Nothing here decides what a reader may see: the board is already his.
"""

from __future__ import annotations

from .documents import control_span, fort_strength, hand_phrase, side_name
from .sections import Items, Para, Section, Span

# Imported for annotations only, as documents.py does.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_BATTLE = {"compulsory": "battle to fight (5.1.1)", "declared": "battle declared (5.1.2)",
           "fighting": "battle being fought (5.2)", "fought": "battle fought (5.2)"}


def unit_word(u: dict[str, Any]) -> str:
    """A unit in a few words: an army by its id and what the reader may see of its template
    ('ge-1 [4I+1C]', 'fr-3 [hidden]'), a lone unit by its id and kind; then entrenched and
    the Out of Supply marker (4.3, 1.2.3)."""
    marks = [w for w, on in (("entrenched", u.get("entrenched")), ("OoS", u.get("oos"))) if on]
    if u["type"] == "army":
        return " ".join([u["id"], f"[{u.get('summary') or 'hidden'}]", *marks])
    return f"{u['id']} ({', '.join([u['type'].replace('_', ' '), *marks])})"


def fort_word(f: dict[str, Any], area: str) -> str:
    """A fort in play: its name (left out when it is the area's), its strength now of its
    printed strength, and whether it is besieged or Out of Supply (8.4, 1.2.3)."""
    marks = [w for w, on in (("besieged", f.get("besieged")), ("OoS", f.get("oos"))) if on]
    name = "" if f["name"] == area else f" {f['name']}"
    return f"fort{name} {fort_strength(f['strength'], f['printed'])}" + \
        (f" ({', '.join(marks)})" if marks else "")


def _in_order(found, sides: list[str]) -> list[str]:
    """The sides among found in the game's order, then any other key found (neutral)."""
    return [s for s in sides if s in found] + [s for s in found if s not in sides]


def _busy(a: dict[str, Any]) -> bool:
    return bool(a["units"] or a["battle"] or (a["fort"] and a["fort"]["in_play"]))


def _stands(a: dict[str, Any], sides: list[str]) -> str:
    """What stands in an area, side by side: the side holding the area first and unnamed
    (the line has just named it: 'Briey, German: ge-5 [3I]; Entente fort Longwy 1/1'), each
    other side by its name; in a disputed area every side by its name, in the game's order."""
    by_side: dict[str, list[str]] = {}
    for u in a["units"]:
        by_side.setdefault(u["side"], []).append(unit_word(u))
    fort = a["fort"]
    if fort and fort["in_play"]:
        by_side.setdefault(fort["side"], []).append(fort_word(fort, a["name"]))
    order = _in_order(by_side, sides)
    holder = [", ".join(by_side[a["control"]])] if a["control"] in by_side else []
    return "; ".join(holder + [f"{side_name(s)} {', '.join(by_side[s])}" for s in order
                               if s != a["control"]])


def area_line(a: dict[str, Any], sides: list[str]) -> list[Span]:
    """'Verdun, disputed, battle declared (5.1.2): German ge-1 [3I+1G]; Entente fr-3 [hidden],
    fort 3/4 (besieged)'."""
    spans = [Span(a["name"], "bold"), Span(", "), control_span(a["control"])]
    if a["battle"]:
        spans.append(Span(f", {_BATTLE.get(a['battle'], a['battle'])}", "bold"))
    return spans + [Span(": " + _stands(a, sides))]


def _quiet(areas: list[dict[str, Any]], sides: list[str]) -> list[list[Span]]:
    """The areas where nothing stands, one line for each side holding some, and the neutral."""
    held: dict[str, list[str]] = {}
    for a in areas:
        held.setdefault(a["control"], []).append(a["name"])
    order = _in_order(held, sides)
    return [[Span("Neutral: " if c == "neutral" else "Quiet, "),
             *([] if c == "neutral" else [control_span(c), Span(": ")]),
             Span(", ".join(held[c]))] for c in order]


def source_word(a: dict[str, Any]) -> str:
    """A supply source by its area's name, with what it supplies when that is not its side's
    units along a line of Friendly areas (6.2): only his units in its area while Disputed
    (6.3), no one while the other side holds it ('Ostend (German-Friendly: supplies neither
    side, 6.2)')."""
    reach, side = a.get("supplies"), side_name(a["supply_source"])
    if reach == "own_area":
        why = "disputed" if a["control"] == "disputed" else "an enemy unit in it"
        return f"{a['name']} ({why}: supplies only the {side} units in it, 6.3)"
    if reach == "none":
        now = "Neutral" if a["control"] == "neutral" else f"{side_name(a['control'])}-Friendly"
        return f"{a['name']} ({now}: supplies neither side, 6.2)"
    return a["name"]


def _supply(areas: list[dict[str, Any]], sides: list[str]) -> list[list[Span]]:
    """The supply sources of a country, by the side whose sources they are (6.1), each with
    what it supplies now when its side does not hold it whole (6.2, 6.3)."""
    of: dict[str, list[str]] = {}
    for a in areas:
        if a["supply_source"]:
            of.setdefault(a["supply_source"], []).append(source_word(a))
    if not of:
        return []
    order = _in_order(of, sides)
    return [[Span("Supply sources (6.1): " + "; ".join(
        f"{side_name(s)} {', '.join(of[s])}" for s in order))]]


def country_blocks(country: dict[str, Any], sides: list[str]) -> list:
    """A country's heading and its lines."""
    busy = [a for a in country["areas"] if _busy(a)]
    lines = [area_line(a, sides) for a in busy]
    lines += _quiet([a for a in country["areas"] if not _busy(a)], sides)
    lines += _supply(country["areas"], sides)
    return [Para([Span(country["name"], "bold")], heading=True), Items(lines)]


def _cards(cards: dict[str, Any], sides: list[str]) -> list[list[Span]]:
    """The reader's hand (every hand for the moderator), then what everyone sees (1.3)."""
    lines = []
    if cards.get("hand") is not None:
        lines.append([Span(f"Your hand ({len(cards['hand'])}): ", "bold"),
                      Span(hand_phrase(cards["hand"]))])
    for s, hand in (cards.get("hands") or {}).items():
        lines.append([Span(f"{side_name(s)} hand ({len(hand)}): ", "bold"),
                      Span(hand_phrase(hand))])
    sizes = ", ".join(f"{side_name(s)} {n}" for s, n in cards["hand_sizes"].items())
    lines.append([Span(f"Hand sizes: {sizes}. Draw pile {cards['draw_pile']}, discard pile "
                       f"{cards['discard']}.")])
    return lines


def off_map_lines(board: dict[str, Any], sides: list[str], points: bool = True
                  ) -> list[list[Span]]:
    """Cards, the EFT box, eliminated armies, the force pool and (points) the Build Points."""
    lines = _cards(board["cards"], sides)
    if board.get("eft_box") is not None:
        lines.append([Span("Eastern Front Transit box: " + (", ".join(board["eft_box"])
                                                            or "empty"))])
    lines.append([Span("Eliminated armies: " + (", ".join(board["eliminated_armies"])
                                                or "none"))])
    names = board.get("nation_names") or {}
    for nation, row in board["force_pool"].items():
        if row:
            lines.append([Span(f"Force pool, {names.get(nation, nation)}: " + ", ".join(
                f"{k.replace('_', ' ')} {n}" for k, n in row.items()))])
    if points and board.get("build_points"):
        lines.append([Span("Build Points (7.0): " + ", ".join(
            f"{side_name(s)} {n}" for s, n in board["build_points"].items()), "bold")])
    return lines


def board_section(board: dict[str, Any], points_apart: bool = False) -> Section:
    """The Board section of a report; points_apart: without the Build Points line, which the
    report gives in a section of their own (a mail at a sealed plan, phone.py)."""
    sides = list(board["cards"]["hand_sizes"])
    blocks: list = []
    for country in board["countries"]:
        blocks += country_blocks(country, sides)
    blocks += [Para([Span("Off the map", "bold")], heading=True),
               Items(off_map_lines(board, sides, points=not points_apart))]
    return Section("Board", blocks)
