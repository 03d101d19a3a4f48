"""Game data documents written for older versions of the data, in today's shape, their
meaning unchanged.

Every document is upcast before it is validated (dataload.build_game): a
stored snapshot of an older version (datastore.py) as well as YAML files of
one. Each upcaster adds what the engine then fixed by itself and the data
now says; anything malformed is left as it is, for validation to report.
"""

from __future__ import annotations

# The countries the schema allowed before map.yaml declared its own (`countries`).
_OLD_COUNTRIES = ["germany", "france", "belgium", "luxembourg", "uk"]


def upcast_document(document: dict) -> dict:
    """An older data document in today's shape, its meaning unchanged: before map.yaml
    declared `countries`, the schema allowed exactly TTLM's five; before units.yaml had
    `side_order` and game.yaml `movement`, the engine fixed them to TTLM's; the forum
    colours; then the build dates."""
    game_map = document.get("map")
    if isinstance(game_map, dict) and "countries" not in game_map:
        document = {**document, "map": {**game_map, "countries": list(_OLD_COUNTRIES)}}
    units = document.get("units")
    if isinstance(units, dict) and "side_order" not in units and \
            set(units.get("sides") or ()) == {"german", "entente"}:
        # Before units.yaml gave the order of the sides, the engine fixed TTLM's, German
        # infantry was the one upgraded to Stoßtruppen (7.5), and the map had fixed colours.
        nations = units.get("nations")
        if isinstance(nations, dict) and isinstance(nations.get("ge"), dict):
            nations = {**nations, "ge": {**nations["ge"], "stosstruppen_upgrade": True}}
        colours = {"german": {"fill": "#a9c59a", "ink": "#2f4f1f"},
                   "entente": {"fill": "#9dbbe3", "ink": "#1d3f73"}}      # the map's, as fixed
        document = {**document, "units": {**units, "side_order": ["german", "entente"],
                                          "nations": nations, "side_colours": colours}}
    document = _upcast_forum_colours(document)
    game, events = document.get("game"), document.get("events")
    if isinstance(game, dict) and "movement" not in game and isinstance(events, dict):
        # Before game.yaml said who moves how, strategic movement was the Entente's (4.5),
        # limited by events.yaml, and sea movement the UK's from ENGLAND (4.6).
        avail = events.get("availability")
        units = (avail if isinstance(avail, dict) else {}).get(
            "strategic_movement_units_per_turn", {"default": 2})
        document = {**document, "game": {**game, "movement": {
            "strategic": {"sides": ["entente"], "units": units},
            "sea": {"nations": ["uk"], "home": "england", "requires_coastal": True}}}}
    return upcast_deck(_upcast_names(_upcast_build_dates(document)))


# How the map draws sides its data gives no colours (render/svgmap.py: the first free fills in
# the order of the sides, the default ink): a version without side_colours keeps them.
_UNCOLOURED = ({"fill": "#e0c07a", "ink": "#333333"}, {"fill": "#c9a3d6", "ink": "#333333"})
_SIDES_V1 = {"german", "entente"}


def _upcast_forum_colours(document: dict) -> dict:
    """Before units.yaml gave the sides' colours, the map drew the two sides german and
    entente in the first free colours; posts now write a side in its map ink, so those
    colours are given to such a version."""
    units = document.get("units")
    if not isinstance(units, dict):
        return document
    colours, order = units.get("side_colours"), units.get("side_order")
    if colours is None and isinstance(order, list) and set(order) == _SIDES_V1 and \
            len(order) == len(_UNCOLOURED):
        return {**document, "units": {**units, "side_colours": dict(
            zip(order, _UNCOLOURED, strict=True))}}
    return document


# What the special Offensives did before deck.yaml said it (9.1.3-9.1.6): the engine knew
# them by key.
_BONUS_V1 = {
    "the_big_push": ("uk", 1, "artillery", ["artillery", "offensive"], False),
    "gericht": ("ge", 1, "artillery", ["artillery", "offensive"], False),
    "tout_le_monde": ("fr", 2, "tank", ["offensive"], True),
    "friedensturm": ("ge", 2, "stosstruppen", ["offensive"], True),
}
_CARD_TEXT_V1 = (("when_played", "When played"), ("effect", "Effect"),
                 ("removed_units_go_to", "Removed units go to"), ("other_years", "Other years"),
                 ("unit_kinds", "Units removed"))


def upcast_deck(document: dict) -> dict:
    """deck.yaml written before cards said what the engine does with them (a card with
    `effect`, `when_played`, `other_years` or `removed_units_go_to`) in today's shape, its
    meaning unchanged: the special Offensives get the extra dice the engine then gave them by
    key, the Crisis! cards the kinds it removed when an entry named none (9.8), and the
    descriptive fields become notes. Anything malformed is left for validation to report."""
    deck = document.get("deck")
    cards = deck.get("cards") if isinstance(deck, dict) else None
    if not isinstance(cards, list) or not any(
            isinstance(c, dict) and {"effect", "when_played", "other_years",
                                     "removed_units_go_to"} & set(c) for c in cards):
        return document
    new_cards = []
    for c in cards:
        if not isinstance(c, dict):
            new_cards.append(c)
            continue
        new = {k: v for k, v in c.items() if k not in dict(_CARD_TEXT_V1)}
        text = [f"{label}: {c[k]}" for k, label in _CARD_TEXT_V1 if isinstance(c.get(k), str)]
        if text:
            new["notes"] = "; ".join(text)
        if c.get("key") in _BONUS_V1 and "bonus" not in c:
            nation, areas, kind, phases, retreat = _BONUS_V1[c["key"]]
            new["bonus"] = {"army_nation": nation, "battle_areas": areas, "dice": areas,
                            "firepower": 2, "fires_as": kind, "phases": phases,
                            "hits_force_retreat": retreat}
        if c.get("type") == "crisis":
            new["unit_kinds"] = c["unit_kinds"] if isinstance(c.get("unit_kinds"), list) \
                else ["infantry", "commonwealth"]
        new_cards.append(new)
    return {**document, "deck": {**deck, "cards": new_cards}}


def _upcast_names(document: dict) -> dict:
    """An older TTLM data document in today's shape, its meaning unchanged: before the data
    said them, the engine fixed the matériel-superiority start (events.yaml availability,
    8.3.2), the Biplane counters' first year (8.3.4), the Belgian army's evacuation from
    Antwerp (14.2.4), the US reinforcements in France and US infantry in any Entente army
    (7.3, 8.1) and the Paris Gun's VP near Paris
    (8.3.6). Such data is known by its `uk_materiel_superiority_from_turn`; anything
    malformed is left for validation to report."""
    events, units, charts = (document.get(k) for k in ("events", "units", "charts"))
    avail = events.get("availability") if isinstance(events, dict) else None
    if not isinstance(avail, dict) or "uk_materiel_superiority_from_turn" not in avail or \
            not isinstance(units, dict) or not isinstance(charts, dict):
        return document
    try:
        types = dict(units["unit_types"])
        for kind, raw in types.items():
            ms = raw.get("materiel_superiority") if isinstance(raw, dict) else None
            if isinstance(ms, dict) and "from_turn" not in ms:
                types[kind] = {**raw, "materiel_superiority": {
                    **ms, "from_turn": avail["uk_materiel_superiority_from_turn"]}}
        if isinstance(types.get("biplane"), dict):      # 8.3.4: no Biplane before 1916
            types["biplane"] = {"counter_years_from": 1916, **types["biplane"]}
        nations = dict(units["nations"])
        if isinstance(nations.get("be"), dict):
            nations["be"] = {"evacuation_area": "antwerp", **nations["be"]}
        if isinstance(nations.get("us"), dict):
            nations["us"] = {"reinforcements_in": "france", "infantry_in_any_army": True,
                             **nations["us"]}
        victory = charts["victory"]
        items = [{"unit": "paris_gun", "near_area": "paris", **m}
                 if isinstance(m, dict) and m.get("id") == "paris_gun" else m
                 for m in victory["modifiers"]["items"]]
    except (KeyError, TypeError, AttributeError):
        return document
    avail = {k: v for k, v in avail.items() if k != "uk_materiel_superiority_from_turn"}
    return {**document,
            "units": {**units, "unit_types": types, "nations": nations},
            "events": {**events, "availability": avail},
            "charts": {**charts, "victory": {**victory, "modifiers": {
                **victory["modifiers"], "items": items}}}}


def _upcast_build_dates(document: dict) -> dict:
    """An older data document in today's shape, its meaning unchanged (7.6): data written
    before events.yaml had `build_dates` gave only `availability.build`, and every other
    counter was buildable from the first turn; a stored snapshot of such data still loads.
    Anything malformed is left as it is for validation to report."""
    document = upcast_units(document)
    events, units = document.get("events"), document.get("units")
    if not isinstance(events, dict) or "build_dates" in events or not isinstance(units, dict):
        return document
    try:
        build = (events.get("availability") or {}).get("build") or {}
        mix = units["counter_mix"]
        turns = document["charts"]["turn_track"]["turns"]
        first_of = {}
        for t in turns:
            first_of.setdefault(t["year"], t["turn"])
        swaps = [t["turn"] for t in events.get("turns", []) for _ in t.get("swaps") or ()]
        dates: dict[str, dict[str, dict]] = {}
        for nat, row in mix.items():
            if not isinstance(row, dict):
                continue
            for kind, n in row.items():
                if not n or kind in ("army", "fort"):
                    continue
                entry = build.get(kind) or {}
                turn = entry.get(nat, entry.get("from_turn", 1)) if isinstance(entry, dict) else 1
                if kind == "biplane":       # the old rule: no counter before the year it bears
                    years = (units.get("biplane_counter_years") or {}).get(nat) or []
                    if years and min(years) in first_of:
                        turn = max(turn, first_of[min(years)])
                if kind == "commonwealth" and swaps:      # rebuilt only after its swap
                    turn = max(turn, min(swaps))
                dates.setdefault(nat, {})[kind] = {"from_turn": turn, "rule": "7.6",
                                                   "source": "reading",
                                                   "note": "upcast from older data"}
        stoss = build.get("stosstruppen") or {}
        upgrades = {"stosstruppen": {"from_turn": stoss.get("upgrade_from_turn", 13),
                                     "rule": "7.5", "source": "reading",
                                     "note": "upcast from older data"}}
    except (KeyError, TypeError, AttributeError):
        return document
    return {**document, "events": {**events, "build_dates": {"units": dates,
                                                              "upgrades": upgrades}}}


# What TTLM's unit types did before units.yaml said it (units.yaml without roll_order): the
# engine then knew it by their names (5.2.1, 8.2.3, 8.3.1-8.3.6, 9.3, 9.4).
_UNITS_V1 = {
    "commonwealth": {"code": "CW", "rebuilt_only_after_swap": True},
    "artillery": {"fires_in_artillery_step": True, "alone_lost_to": "enemy_infantry",
                  "fire": {"poison_gas": "F2", "advanced_artillery_barrage": "F3"},
                  "materiel_superiority": {"option": "uk_materiel_superiority",
                                           "nations": ["uk"],
                                           "fire": {"defense": "F2", "poison_gas": "F3"}}},
    "siege_gun": {"fires_in_artillery_step": True, "alone_lost_to": "enemy_units"},
    "biplane": {"aircraft": True, "alone_lost_to": "enemy_infantry", "fire": {"dogfight": "F1"}},
    "tank": {"alone_lost_to": "enemy_infantry"},
    "paris_gun": {"alone_lost_to": "enemy_units"},
}
_ROLL_ORDER_V1 = ["infantry", "stosstruppen", "commonwealth", "cavalry", "artillery",
                  "siege_gun", "tank", "biplane", "fort"]


def upcast_units(document: dict) -> dict:
    """units.yaml written before unit types said what they do (it has no roll_order) in
    today's shape, its meaning unchanged: the properties the engine then gave TTLM's types
    by name are added where absent, the dates kept only as notes (`available`) become notes,
    and the artillery chart names the type it limits (8.3.2). Anything malformed is left
    for validation to report."""
    units, charts = document.get("units"), document.get("charts")
    if not isinstance(units, dict) or "roll_order" in units or \
            not isinstance(units.get("unit_types"), dict):
        return document
    types = {}
    for kind, raw in units["unit_types"].items():
        if not isinstance(raw, dict):
            types[kind] = raw
            continue
        new = {k: v for k, v in raw.items() if k != "available"}
        if raw.get("class") in ("army", "fort"):     # their codes were never read
            new.pop("code", None)
        if "available" in raw:
            new["notes"] = " ".join(x for x in (str(raw.get("notes") or ""),
                                                f"available: {raw['available']}") if x)
        for key, value in _UNITS_V1.get(kind, {}).items():
            if key == "fire" and isinstance(new.get("fire"), dict):
                new["fire"] = {**value, **new["fire"]}
            elif key == "code" or key not in new:        # commonwealth's letter was CW
                new[key] = value
        types[kind] = new
    units = {**units, "unit_types": types,
             "roll_order": [k for k in _ROLL_ORDER_V1 if k in types]}
    document = {**document, "units": units}
    if isinstance(charts, dict) and isinstance(charts.get("artillery_per_army"), dict):
        chart = {"unit_type": "artillery", **charts["artillery_per_army"]}
        document["charts"] = {**charts, "artillery_per_army": chart}
    return document
