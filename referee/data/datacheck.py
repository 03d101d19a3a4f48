"""What the cross-file checks of game data and scenarios share, and the limits of an army's
contents, which the engine checks as well (1.4, 8.1-8.3).

The checks (namecheck.py: the names the files use; gamecheck.py: the files
against each other; scenariocheck.py: a scenario against the game) return
problem lines ('file: where: what (rule)') instead of stopping at the first,
so an owner correcting the reconstructed data sees everything that is wrong
in one run (`referee games check DIR`). Each line knows its place in the file
(problems.py), to be named as FILE:LINE:COLUMN when the file's text is at hand.
"""

from __future__ import annotations

from collections import Counter

from ..base.plurals import a_or_an
from .gamedata import GameData


class Known:
    """The names a game declares, for the checks to skip what depends on one it does not:
    that name is reported once, where it is written, and not again as a cascade."""

    def __init__(self, data: GameData):
        u = data.units
        self.sides = frozenset(u.sides)
        self.nations = frozenset(u.nations)
        self.kinds = frozenset(u.unit_types)
        self.countries = data.countries
        # The sides in the order of play (2.0); units.yaml's `sides` when side_order is wrong.
        self.order = tuple(data.sides) if sorted(u.side_order) == sorted(u.sides) \
            else tuple(u.sides)
        self.nation_side = {n: x.side for n, x in u.nations.items() if x.side in self.sides}
        self._rows = u.counter_mix
        self._mix_unsure = self.unsure(u.counter_mix, self.nations, ("source",)) or any(
            not isinstance(r, dict) for n, r in u.counter_mix.items() if n != "source")

    @staticmethod
    def unsure(table: object, declared: frozenset[str], also: tuple[str, ...] = ()) -> bool:
        """Whether a mapping keyed by names has a key the game does not declare: an entry it
        lacks may then be that misspelt one, not missing."""
        return isinstance(table, dict) and any(k not in declared and k not in also
                                               for k in table)

    def mix(self, nation: str | None, kind: str) -> int | None:
        """How many counters of a kind a nation has (11.1), or None when a name the game does
        not declare leaves it in doubt."""
        if nation not in self.nations:
            return None
        row = self._rows.get(nation)
        if not isinstance(row, dict):
            return None if self._mix_unsure else 0
        if kind not in row and self.unsure(row, self.kinds):
            return None
        n = row.get(kind, 0)
        return n if isinstance(n, int) else None


def placements(data: GameData) -> set[str]:
    """Where a reinforcement may be placed: any, an area id or a country (2.0 I, 4.6, 7.3)."""
    return {"any", *data.areas, *data.countries}


def turn_years(data: GameData) -> set[int]:
    """The years of the turn track."""
    return {t.year for t in data.charts.turn_track.turns}


def turn_label(data: GameData, turn: int) -> str:
    """A turn's label, or its number when the turn track lacks it (reported by gamecheck)."""
    return data.label(turn) if turn in data.turns else f"turn {turn}"


def first_turn_of(data: GameData, year: int) -> int:
    """The first turn of a year on the turn track."""
    return min(t.turn for t in data.charts.turn_track.turns if t.year == year)


def army_limits_problems(data: GameData, nation: str, contents: Counter, year: int, *,
                         unsure: frozenset[str] = frozenset()) -> list[str]:
    """What is wrong with an army's contents: nationality, template, artillery (1.4, 8.1-8.3);
    `unsure` names the charts ('template', 'artillery') whose entry for the nation a misspelt
    name leaves in doubt, not checked."""
    out: list[str] = []
    cap = data.charts.army_templates.capacity.get(nation)
    inf = aux = 0
    for (cnat, kind), n in contents.items():
        cls = data.units.unit_types[kind].class_ if kind in data.units.unit_types else None
        if cls not in ("infantry", "auxiliary") or kind == "army":
            out.append(f"{a_or_an(kind)} cannot go on an army template (1.4)")
            continue
        anywhere = [n for n, x in data.units.nations.items() if x.infantry_in_any_army]
        if cnat != nation and not (cnat in anywhere and kind == "infantry"
                                   and data.nation_side.get(nation) == data.nation_side[cnat]):
            but = "".join(f", except {n.upper()} infantry in any "
                          f"{data.side_name(data.nation_side[n])} army" for n in anywhere)
            out.append(f"{a_or_an(cnat.upper())} {kind} in {a_or_an(nation.upper())} army: an "
                       f"army holds only its own nationality{but} (8.1)")
        if cls == "infantry":
            inf += n
        else:
            aux += n
    if cap is None:
        if "template" not in unsure:
            out.append(f"{nation} has no army template (1.4)")
        return out
    if inf > cap.infantry:
        out.append(f"{inf} infantry-type units, the {nation} template holds {cap.infantry} (1.4)")
    if aux > cap.auxiliary:
        out.append(f"{aux} auxiliary units, the {nation} template holds {cap.auxiliary} (1.4)")
    chart = data.charts.artillery_per_army
    art = sum(n for (_, k), n in contents.items() if k == chart.unit_type)
    limit = data.artillery_limit(year, nation) if "artillery" not in unsure else art
    if art > limit:
        out.append(f"{art} {chart.unit_type.replace('_', ' ')}, the {year} limit for a "
                   f"{nation} army is {limit} (8.3.2)")
    for kind, t in data.units.unit_types.items():
        most = t.max_per_army
        if most is not None and sum(n for (_, k), n in contents.items() if k == kind) > most:
            out.append(f"more than {'one' if most == 1 else most} "
                       f"{kind.replace('_', ' ').title()} in one army ({t.rule})")
    return out
