"""The checks of a scenario, built-in or a what-if position, against the game data: its start,
who controls what, its forts, units and armies, what it leaves to arrive, and its cards.

A check skips only what depends on a name the game does not declare; that name is reported
once, where it is written (namecheck.check_scenario_names).
"""

from __future__ import annotations

from collections import Counter

from ..base.plurals import a_or_an
from ..contracts.scenariomodels import Scenario, ScenarioUnit
from .datacheck import Known, army_limits_problems, first_turn_of, turn_label
from .gamedata import GameData
from .namecheck import check_scenario_names
from .problems import At, Nth, named

TOP = At(None)          # a scenario's checks name no file: its label is added after


def check_scenario(data: GameData, sc: Scenario) -> list[str]:
    """Every problem of a scenario (built-in or a what-if position) against the game data;
    a check skips only what depends on a name the game does not declare (reported once)."""
    return _ScenarioCheck(data, sc).problems()


class _ScenarioCheck:
    """One scenario against the game data, and what its checks find out as they go: the
    status of each area, the forts placed and, unit by unit, what is set up where."""

    def __init__(self, data: GameData, sc: Scenario):
        self.data, self.sc = data, sc
        self.known = Known(data)
        self.start = sc.start.turn
        self.year = data.year(self.start) if self.start in data.turns else None   # year-bound
        self.out: list[str] = []
        self.control: dict[str, str] = {}      # area -> a side or "neutral"
        self.settled: set[str] = set()         # areas whose status names a declared side
        self.placed: set[str] = set()          # the forts set up
        self.ids: set[str] = set()             # the units set up
        self.in_play: Counter = Counter()      # (nation, kind) -> counters set up
        self.stack: dict[tuple, list[At]] = {}  # (area, side) -> the units stacking there
        self.presence: dict[str, set[str]] = {}            # area -> the sides with units there
        self.first: dict[tuple, At] = {}       # (area, side) -> the first unit or fort there

    def problems(self) -> list[str]:
        """Every check, in the order its problems are listed."""
        self.check_start()
        self.out.extend(check_scenario_names(self.data, self.sc))
        self.check_control()
        self.check_forts()
        for i, u in enumerate(self.sc.units):
            self.check_unit(TOP.at("units", named(i, u.id)), u)
        self.check_holders()
        self.check_eliminated_and_eft()
        self.check_counter_mix()
        self.out.extend(_check_cards(self.data, self.sc, self.year))
        if self.sc.position.phase == "player_turn" and self.sc.position.player is None:
            self.out.append(TOP.at("position", "player").says("say whose player turn it is"))
        if self.sc.expected_start and set(self.sc.control) <= self.known.sides:
            self.out.extend(_check_expected_vp(self.data, self.sc, self.control, self.known))
        return self.out

    def check_start(self) -> None:
        """The start turn is on the turn track under its label, before the last turn (2.0 VI)."""
        data, start, label = self.data, self.start, self.sc.start.label
        if self.year is None:
            self.out.append(TOP.at("start", "turn").says(f"{start} is not on the turn track"))
        elif label != data.label(start):
            self.out.append(TOP.at("start", "label").says(f"turn {start} is "
                                                          f"{data.label(start)!r}, not {label!r}"))
        if not start <= self.sc.last_turn <= 23:
            self.out.append(TOP.at("last_turn").says("must be between the start turn and 23 "
                                                     "(2.0 VI)"))

    def check_control(self) -> None:
        """Every area has one status: a side's control or neutral (4.1)."""
        data, sc, known, out, control = self.data, self.sc, self.known, self.out, self.control
        for side in [*known.order, *(s for s in sc.control if s not in known.order)]:
            listed = TOP.at("control", side)
            for k, a in enumerate(sc.control.get(side, [])):
                if a not in data.areas:
                    out.append(listed.says(f"unknown area id {a!r}", Nth(k, "")))
                elif a in control:
                    out.append(listed.says(f"area {a} is listed twice", Nth(k, "")))
                control[a] = side
        for k, a in enumerate(sc.neutral):
            if a not in data.areas:
                out.append(TOP.at("neutral").says(f"unknown area id {a!r}", Nth(k, "")))
            elif a in control:
                out.append(TOP.at("neutral").says(f"area {a} is also listed under control",
                                                  Nth(k, "")))
            control[a] = "neutral"
        missing = sorted(set(data.areas) - set(control))
        if missing:
            out.append(TOP.at("control").says(f"areas with no status: {', '.join(missing)} "
                                              f"(4.1)"))
        self.settled = {a for a, s in control.items() if s in known.sides or s == "neutral"}

    def check_forts(self) -> None:
        """Each fort of the map is placed where the map has it, at most at its printed strength
        (5.3.1, 8.4), or listed out of play, never both."""
        data, out, placed = self.data, self.out, self.placed
        for i, fo in enumerate(self.sc.forts):
            loc = TOP.at("forts", named(i, fo.id))
            if fo.id not in data.forts:
                out.append(loc.at("id").says("unknown fort id"))
                continue
            area, spec = data.forts[fo.id]
            if fo.area != area or (fo.nation != spec.nation and
                                   {fo.nation, spec.nation} <= self.known.nations):
                out.append(loc.at("area" if fo.area != area else "nation").says(
                    f"the {spec.nation} fort {fo.id} stands in {area} (map)"))
            if fo.strength > spec.strength:
                out.append(loc.at("strength").says(f"strength {fo.strength} above its printed "
                                                   f"{spec.strength} (8.4)"))
            if fo.strength == 0 and spec.strength > 0:
                out.append(loc.at("strength").says("a fort reduced to 0 is out of the game "
                                                   "(5.3.1); list it under forts_out_of_play"))
            if fo.id in placed:
                out.append(loc.says("placed twice"))
            placed.add(fo.id)
        for k, fid in enumerate(self.sc.forts_out_of_play):
            if fid not in data.forts:
                out.append(TOP.at("forts_out_of_play").says(f"unknown fort id {fid!r}",
                                                            Nth(k, "")))
            elif fid in placed:
                out.append(TOP.at("forts_out_of_play").says(f"{fid} is also placed", Nth(k, "")))
        for fid in sorted(set(data.forts) - placed - set(self.sc.forts_out_of_play)):
            out.append(TOP.at("forts").says(f"fort {fid} is neither placed nor listed out of "
                                            f"play"))

    def check_unit(self, loc: At, u: ScenarioUnit) -> None:
        """One unit set up: its id, place, contents and dates; tallied for the checks after."""
        if u.id in self.ids:
            self.out.append(loc.at("id").says("duplicate unit id"))
        self.ids.add(u.id)
        # Its side, where it stands and stacks; None when a name or the area is unknown.
        side = self.known.nation_side.get(u.nation) if u.area in self.data.areas else None
        if u.type == "fort":
            self.out.append(loc.at("type").says("forts go under forts:, not units:"))
            return
        self.check_unit_place(loc, u)
        if side is not None:
            self.presence.setdefault(u.area, set()).add(side)
            self.first.setdefault((u.area, side), loc)
        self.in_play[(u.nation, u.type)] += 1
        if u.type == "army":
            self.check_army(loc, u, side)
        else:
            if u.contents and u.type in self.known.kinds:
                self.out.append(loc.at("contents").says("only armies have contents"))
            if side is not None:
                self.stack.setdefault((u.area, side), []).append(loc)
        if u.keep_apart_from and u.keep_apart_from not in {x.id for x in self.sc.units}:
            self.out.append(loc.at("keep_apart_from").says(
                f"keep_apart_from names unknown unit {u.keep_apart_from!r}"))
        self.check_build_dates(loc, u)
        self.check_counter_years(loc, u)

    def check_unit_place(self, loc: At, u: ScenarioUnit) -> None:
        """The nation has counters of the unit's kind (11.1), its area is known and open to it
        (4.6), and it entrenches only if it may (7.4, 8.2.2)."""
        data, known, out = self.data, self.known, self.out
        if u.type in known.kinds and known.mix(u.nation, u.type) == 0:
            out.append(loc.at("type").says(f"{u.nation} has no {u.type} counters (11.1)"))
        area = data.areas.get(u.area)
        if area is None:           # only what depends on the area is skipped
            out.append(loc.at("area").says(f"unknown area id {u.area!r}"))
        elif area.kind == "sea_only" and u.nation not in data.sea_nations and \
                u.nation in known.nations and data.sea_nations <= known.nations:
            out.append(loc.at("area").says(
                f"only {'/'.join(n.upper() for n in sorted(data.sea_nations))} units may be in "
                f"{area.name} (4.6)"))
        if u.entrenched and u.type != "army" and u.type not in data.units.entrenching and \
                u.type in known.kinds:
            out.append(loc.at("entrenched").says("only armies and infantry entrench "
                                                 "(7.4, 8.2.2)"))

    def check_army(self, loc: At, u: ScenarioUnit, side: str | None) -> None:
        """An army's contents fit its template and the charts (1.4, 8.1-8.3); they are counters
        in play, and an army with contents stacks (1.2.2)."""
        known = self.known
        contents: Counter = Counter()
        for c in u.contents:
            contents[(c.nation or u.nation, c.type)] += c.count
        for (cnat, kind), n in contents.items():
            self.in_play[(cnat, kind)] += n
        sure = Counter({(cnat, kind): n for (cnat, kind), n in contents.items()
                        if cnat in known.nation_side and kind in known.kinds})
        if u.nation in known.nation_side:
            unsure = _army_unsure(self.data, known, u.nation, self.year)
            for p in army_limits_problems(self.data, u.nation, sure, self.year or 0,
                                          unsure=unsure):
                self.out.append(loc.at("contents").says(p))
        if contents and side is not None:
            self.stack.setdefault((u.area, side), []).append(loc)

    def arrived(self, turn: int) -> bool:
        """Whether the reinforcements of a turn are in play when the scenario starts."""
        return turn < self.start or (turn == self.start and
                                     self.sc.position.phase != "reinforcements")

    def check_build_dates(self, loc: At, u: ScenarioUnit) -> None:
        """No unit, nor any in an army, is in play before it can be built unless it arrived as
        a reinforcement (7.6). A type's first date is a Production Phase, the last phase of
        its turn (2.0 V): before it, in that turn too, none of the type has been built."""
        data, sc = self.data, self.sc
        # (where it is written, from the unit: its type or an item of its contents)
        for kind, nat, at in [(u.type, u.nation, ("type",))] + [
                (c.type, c.nation or u.nation, ("contents", j))
                for j, c in enumerate(u.contents)]:
            when = data.build_date(nat, kind)
            first = when.from_turn if when else None
            came = [t.turn for t in data.events.turns if self.arrived(t.turn)
                    for r in t.reinforcements if (r.nation, r.type) == (nat, kind)]
            built = first is None or first <= 1 or self.start > first or (
                self.start == first and sc.position.phase == "production")
            if not built and not came:
                self.out.append(loc.at(*at).says(
                    f"{a_or_an(nat.upper())} {kind} cannot be in play before the Production "
                    f"phase of turn {first} ({turn_label(data, first)}), the first in which "
                    f"it can be built ({when.rule})"))

    def check_counter_years(self, loc: At, u: ScenarioUnit) -> None:
        """A unit whose counters bear a year, or an army holding one, has a counter of a year
        before the start (8.3.4)."""
        data, known, year, start = self.data, self.known, self.year, self.start
        dated = data.units.dated_kind
        bip = dated and sum(c.count for c in u.contents if c.type == dated) + (u.type == dated)
        years = data.units.biplane_counter_years
        if bip and year is not None and u.nation in known.nations and (
                u.nation in years or not known.unsure(years, known.nations)):
            counters = years.get(u.nation, [])
            if not any(y < year or (y == year and start > first_turn_of(data, y))
                       for y in counters):
                self.out.append(loc.says(f"no {u.nation} {dated.replace('_', ' ').title()} "
                                         f"counter could have been built before "
                                         f"{data.label(start)} (8.3.4)"))

    def check_holders(self) -> None:
        """Who stands where agrees with who controls it (4.1), and no side is over the stacking
        limit in an area (1.2.2)."""
        data, known, out, control, presence = (self.data, self.known, self.out, self.control,
                                               self.presence)
        for i, fo in enumerate(self.sc.forts):
            if fo.strength >= 2 and fo.area in presence and fo.nation in known.nation_side:
                presence[fo.area].add(known.nation_side[fo.nation])
                self.first.setdefault((fo.area, known.nation_side[fo.nation]),
                                      TOP.at("forts", named(i, fo.id)))
        for a, sides in presence.items():
            for side in sides:
                if control.get(a) != side and not (sides - {side}) and a in self.settled:
                    out.append(self.first[(a, side)].at("area").says(
                        f"{side} units stand in {a}, which is {control.get(a)} and holds no "
                        f"other side's units (4.1)"))
        limit = data.units.stacking_limit
        for (a, side), units in self.stack.items():
            if len(units) > limit:
                out.append(units[limit].at("area").says(
                    f"{len(units)} {side} units in {a}, the stacking limit is {limit} (1.2.2)"))
        for i, fo in enumerate(self.sc.forts):
            if fo.id in data.forts and fo.strength > 1 and fo.nation in known.nation_side and \
                    fo.area in self.settled:
                side = known.nation_side[fo.nation]
                if control.get(fo.area) != side and not presence.get(fo.area, set()) - {side}:
                    out.append(TOP.at("forts", named(i, fo.id), "area").says(
                        f"{fo.id} stands in {fo.area}, which is {control.get(fo.area)} with no "
                        f"unit there (4.1)"))

    def check_eliminated_and_eft(self) -> None:
        """An eliminated army is not also set up, and units in the EFT box need the box; both
        are counters in play."""
        data, sc = self.data, self.sc
        for k, aid in enumerate(sc.eliminated_armies):
            if aid in self.ids:
                self.out.append(TOP.at("eliminated_armies").says(f"{aid} is also set up",
                                                                 Nth(k, "")))
        eft = data.eft_box
        owners = (data.units.sides.get(eft.owner) or []) if eft else []
        if sc.eft_box and eft is None:
            self.out.append(TOP.at("eft_box").says("the game has no EFT box (map.yaml boxes)"))
        for e in sc.eft_box:
            if e.nation or owners:
                self.in_play[(e.nation or owners[0], e.type)] += e.count
        for aid in sc.eliminated_armies:
            nat = aid.split("-")[0]
            self.in_play[(nat, "army")] += 1

    def check_counter_mix(self) -> None:
        """The counters set up, and those still to arrive, are within the counter mix (11.1)."""
        known, sc = self.known, self.sc
        # The undeclared nations it writes: reported by check_scenario_names, not counted again.
        written = {x.nation for x in (*sc.units, *sc.eft_box, *sc.forts,
                                      *(c for u in sc.units for c in u.contents))
                   if x.nation is not None} - known.nations
        later: Counter = Counter()
        for t in self.data.events.turns:
            if not self.arrived(t.turn):
                for r in t.reinforcements:
                    later[(r.nation, r.type)] += r.count
        for (nat, kind), n in sorted(self.in_play.items()):
            have = known.mix(nat, kind)
            if kind not in known.kinds or nat in written or have is None and nat in known.nations:
                continue            # a name reported where it is written, or the mix in doubt
            have = have or 0
            if n > have:
                self.out.append(TOP.at("units").says(f"{n} {nat} {kind} set up, the counter "
                                                     f"mix has {have} (11.1)"))
            elif n + later[(nat, kind)] > have and kind != "stosstruppen":
                self.out.append(TOP.at("units").says(
                    f"{n} {nat} {kind} set up and {later[(nat, kind)]} still to arrive, the "
                    f"counter mix has {have} (11.1)"))


def _army_unsure(data: GameData, known: Known, nation: str, year: int | None) -> frozenset[str]:
    """The charts whose entry for an army's nation a misspelt name (or a start off the turn
    track) leaves in doubt: its template (1.4) and its artillery limit (8.3.2)."""
    c = data.charts
    unsure = set()
    if nation not in c.army_templates.capacity and known.unsure(c.army_templates.capacity,
                                                                known.nations):
        unsure.add("template")
    rows = c.artillery_per_army.by_year
    row = next((r for r in rows if r.get("year") == year), {})
    if year is None or not all(isinstance(r.get("year"), int) for r in rows) or \
            nation not in row and known.unsure(row, known.nations, ("year",)):
        unsure.add("artillery")
    return frozenset(unsure)


def _check_cards(data: GameData, sc: Scenario, year: int | None) -> list[str]:
    """The cards dealt are within the card limit (7.1) and the deck, each named card is known,
    and none is named twice."""
    out: list[str] = []
    cards, at = sc.cards, TOP.at("cards")
    limits = data.card_limits_by_year.get(year, {})      # a row without its year: gamecheck
    seen: dict[str, list[tuple[At, int]]] = {}     # a card id -> each list and index naming it
    if cards.hands is not None:
        for side, hand in cards.hands.items():
            for k, c in enumerate(hand):
                seen.setdefault(c, []).append((at.at("hands", side), k))
            if side in limits and len(hand) > limits[side]:
                out.append(at.at("hands", side).says(f"{len(hand)} cards, the {year} card "
                                                     f"limit is {limits[side]} (7.1)"))
    else:
        for side, n in cards.hand.items():
            if side in limits and n > limits[side]:
                out.append(at.at("hand", side).says(f"{n} cards, the {year} card limit is "
                                                    f"{limits[side]} (7.1)"))
        if sum(cards.hand.values()) > data.deck.total:
            out.append(at.at("hand").says("more cards dealt than the deck holds"))
    for name, lst in (("draw_pile", cards.draw_pile or []), ("discard", cards.discard),
                      ("removed", cards.removed)):
        for k, c in enumerate(lst):
            seen.setdefault(c, []).append((at.at(name), k))
            if c not in data.cards:
                out.append(at.at(name).says(f"unknown card id {c!r}", Nth(k, "")))
    if cards.hands:
        for side, hand in cards.hands.items():
            for k, c in enumerate(hand):
                if c not in data.cards:
                    out.append(at.at("hands", side).says(f"unknown card id {c!r}", Nth(k, "")))
    for c, places in seen.items():
        if len(places) > 1:
            again, k = places[1]
            out.append(again.says(f"card {c!r} is named {len(places)} times", Nth(k, "")))
    return out


def _check_expected_vp(data: GameData, sc: Scenario, control: dict[str, str],
                       known: Known) -> list[str]:
    """The VP of the counted side's Friendly areas are what the scenario expects (3.1)."""
    exp = sc.expected_start or {}
    side = data.charts.victory.counts_for or (known.order or ("",))[0]    # GameData.vp_side
    vp = sum(data.areas[a].vp for a, s in control.items() if s == side and a in data.areas)
    out = []
    if "area_vp" in exp and exp["area_vp"] != vp and side in known.sides:
        out.append(TOP.at("expected_start", "area_vp").says(
            f"the {data.side_name(side)}-Friendly areas are worth {vp}, not {exp['area_vp']} "
            f"(3.1)"))
    return out
