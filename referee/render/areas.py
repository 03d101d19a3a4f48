"""`referee area`: one area of the map as a reader may see it, or the list of every area.

An area is named as orders name it (engine/reading.py: id, name or alias;
case, accents and hyphens ignored). What the map says of it is public (1.1:
control, terrain, VP, supply source, fort, neighbours); its units are those
`show` gives the same reader (views.unit_views: the other side's army
contents stay hidden under option hidden_templates, 1.4).
"""

from __future__ import annotations

from typing import Any

from ..base.errors import OrderError, UsageError, quoted
from ..base.plurals import a_or_an
from ..base.readers import PUBLIC, check_reader
from ..contracts.outputs import AreaList, AreaView
from ..data.gamedata import GameData
from ..engine.reading import Reader, area_choices, did_you_mean, nearest
from ..engine.state import State
from ..game.board import battle_status, fort_view
from ..game.views import unit_views
from .documents import control_span, reader_words, side_name, unit_phrase
from .sections import Document, Items, Section, Span, Table, para


def find_area(name: str, data: GameData) -> str:
    """The area id a name means, read as orders read it (UsageError: none, several, or an
    impassable region, which no unit may enter: 4.1, 4.2)."""
    words = name.replace(",", " ").split()
    if not words:
        raise UsageError("name an area (its id, name or an alias), or use --list")
    reader = Reader(" ".join(words), data)
    try:
        found = reader.area()
        reader.expect_end()
    except OrderError:
        raise UsageError(f"area {quoted(name)}: no area is called that (`referee area "
                         f"JOURNAL --list` lists them all)"
                         f"{did_you_mean(nearest(words, area_choices(data)))}") from None
    if found in data.impassable:
        region = data.impassable[found].name
        region = region if region.isprintable() else quoted(region)     # one line, whatever
        raise UsageError(f"area {quoted(name)}: {region} is not an area "
                         f"of the map: no unit may ever enter it (4.1, 4.2)")
    return found


def _head(state: State, data: GameData, reader: str, game_id: str) -> dict[str, Any]:
    return {"game_id": game_id or state.game_id, "game_name": data.info.name,
            "seq": state.seq, "reader": reader, "turn": state.turn,
            "label": data.label(state.turn)}


def area_view(state: State, data: GameData, area: str, reader: str = PUBLIC,
              game_id: str = "") -> dict[str, Any]:
    """One area for one reader (JSON-ready): the map's facts (1.1), control (4.1), its fort
    now (8.4), whether it is a Battle Area (5.1), the units the reader may see (1.4) and
    its neighbours with their control."""
    check_reader(reader, data.sides)
    a = data.areas[area]
    fort = fort_view(state, data, a.id)
    view = _head(state, data, reader, game_id)
    view["area"] = {
        "id": a.id, "name": a.name, "aliases": list(a.aliases), "kind": a.kind,
        "country": a.country, "control": state.area_state(a.id, data), "terrain": a.terrain,
        "vp": a.vp, "coastal": a.coastal, "supply_source": a.supply_source,
        "conditional_supply_source": a.conditional_supply_source,
        "always_supplied": a.always_supplied, "fort": fort,
        "battle": battle_status(state, data, a.id),
        "units": unit_views(state, data, a.id, reader),
        "neighbours": [{"id": n, "name": data.areas[n].name,
                        "control": state.area_state(n, data)} for n in a.neighbours],
        "borders": [data.impassable[b].name for b in a.borders if b in data.impassable],
    }
    return AreaView.plain(**view)


def areas_view(state: State, data: GameData, reader: str = PUBLIC,
               game_id: str = "") -> dict[str, Any]:
    """Every area of the map with its control, VP and terrain (1.1, 4.1), for `area --list`."""
    check_reader(reader, data.sides)
    view = _head(state, data, reader, game_id)
    view["areas"] = [{"id": a.id, "name": a.name, "control": state.area_state(a.id, data),
                      "vp": a.vp, "terrain": a.terrain} for a in data.map.areas]
    return AreaList.plain(**view)


_BATTLE = {"compulsory": "a battle area: made Disputed by this offensive, its battle must be "
                         "fought (4.1, 5.1.1)",
           "declared": "a battle area: battle declared, not yet fought (5.1.2)",
           "fighting": "a battle area: its battle is being fought now (5.2)",
           "fought": "a battle area: its battle was fought this combat phase (5.2)"}


def _title(view: dict[str, Any], what: str) -> str:
    return (f"{view.get('game_name', 'Game')} — {what}: game {view['game_id']}, record "
            f"{view['seq']}, for {reader_words(view['reader'])}")


def _supply(a: dict[str, Any]) -> str:
    if a["supply_source"]:
        return f"{side_name(a['supply_source'])} supply source (6.1)"
    if a["conditional_supply_source"]:
        owner = side_name(a["conditional_supply_source"])
        return f"none ({a_or_an(owner)} one only in special cases)"
    return "none; always in supply" if a["always_supplied"] else "none"


def _fort(f: dict[str, Any] | None) -> str:
    if f is None:
        return "none"
    owner = side_name(f["side"])
    if not f["in_play"]:
        return f"{f['name']} ({owner}): not in play (printed strength {f['printed']}, 8.4)"
    if f["strength"] == 0:
        return (f"{f['name']} ({owner}), strength 0: it fires no dice and holds no area by "
                f"itself, yet enemy supply cannot pass it (8.4)")
    return f"{f['name']} ({owner}), strength {f['strength']} of {f['printed']} (8.4)"


def area_document(view: dict[str, Any], colours: dict[str, str] | None = None) -> Document:
    """`area NAME`: the area's facts, its units and its neighbours; colours: each side's
    (documents.side_colours)."""
    a = view["area"]
    facts = Items([
        [Span("Control: ", "bold"), control_span(a["control"])],
        [Span("Terrain: ", "bold"), Span(f"{a['terrain']}; coastal: "
                                         f"{'yes' if a['coastal'] else 'no'}; VP {a['vp']}"
                                         + ("; off-map box" if a["kind"] == "sea_only" else ""))],
        [Span("Supply: ", "bold"), Span(_supply(a))],
        [Span("Fort: ", "bold"), Span(_fort(a["fort"]))],
        [Span("Battle: ", "bold"), Span(_BATTLE.get(a["battle"], "none now"))],
    ])
    units = [[Span(unit_phrase(u))] for u in a["units"]]
    near = Table(["Neighbour", "Control"],
                 [[n["name"], control_span(n["control"]).text] for n in a["neighbours"]])
    sections = [
        Section(f"{a['name']} ({a['id']}), {view['label']} (turn {view['turn']})", [facts]),
        Section(f"Units ({len(units)})", [Items(units) if units else para("none")]),
        Section(f"Neighbours ({len(a['neighbours'])})",
                [near] if a["neighbours"] else [para("none (reached only by sea, 4.6)")]),
    ]
    if a["borders"]:
        sections[-1].blocks.append(para("Also touches (never entered, 4.1): ",
                                        ", ".join(a["borders"])))
    return Document(_title(view, f"area {a['name']}"), sections, colours=colours)


def areas_document(view: dict[str, Any]) -> Document:
    """`area --list`: every area, one row each."""
    rows = [[a["id"], a["name"], control_span(a["control"]).text, str(a["vp"] or ""),
             a["terrain"]] for a in view["areas"]]
    return Document(_title(view, "areas"), [Section(
        f"Areas ({len(rows)}), {view['label']} (turn {view['turn']})",
        [Table(["Id", "Area", "Control", "VP", "Terrain"], rows)])])
