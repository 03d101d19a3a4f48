"""What the unit models can tell beyond their fields, worked out once at load (1.2.2, 1.4, 8.x).

The models themselves are generated from referee/contracts/unitmodels.py;
these mixins give them their methods. The engine asks these, never a unit
type by name.
"""

from functools import cached_property


class UnitTypeMethods:
    """The methods of a unit type."""

    __slots__ = ()

    @cached_property
    def firepower(self) -> dict[str, int]:
        """Each firepower as the highest roll that hits (F2 -> 2, null -> 0) (5.2.1)."""
        return {k: int(v[1:]) if v else 0 for k, v in (self.fire or {}).items()}


class UnitsMethods:
    """The methods of units.yaml's model."""

    __slots__ = ()

    @cached_property
    def mix(self) -> dict[str, dict[str, int]]:
        """The counter mix per nation (11.1), without the source note."""
        return {n: dict(row) for n, row in self.counter_mix.items()
                if isinstance(row, dict) and row}

    # Unit types by what they are and do, worked out once at load (1.2.2, 1.4, 8.x): the
    # engine asks these, never a unit type by name.

    @cached_property
    def infantry_types(self) -> frozenset[str]:
        """Types that fill an army's infantry slots and count as infantry (1.4, 8.2)."""
        return frozenset(k for k, u in self.unit_types.items() if u.class_ == "infantry")

    @cached_property
    def non_holding(self) -> frozenset[str]:
        """Types that cannot conquer or hold an area by themselves (8.3.2-8.3.6)."""
        return frozenset(k for k, u in self.unit_types.items() if not u.holds_area)

    @cached_property
    def non_stacking(self) -> frozenset[str]:
        """Types that never count toward the stacking limit (1.2.2, 8.4)."""
        return frozenset(k for k, u in self.unit_types.items() if not u.stacking)

    @cached_property
    def entrenching(self) -> frozenset[str]:
        """Types that entrench and fire entrenched in defence (6.4, 8.2.1, 8.2.2)."""
        return frozenset(k for k, u in self.unit_types.items() if u.entrench)

    @cached_property
    def dated_kind(self) -> str | None:
        """The unit type whose counters bear the year they become available (8.3.4), if any:
        `biplane_counter_years` gives those years."""
        return next((k for k, u in self.unit_types.items()
                     if u.counter_years_from is not None), None)

    @cached_property
    def fort_kind(self) -> str:
        """The unit type of fort counters (8.4): their firepower and place in the roll order."""
        return next((k for k, u in self.unit_types.items() if u.class_ == "fort"), "fort")

    def has(self, kind: str, flag: str) -> bool:
        """Whether unit type kind has a yes/no property of units.yaml (never_retreats, ...)."""
        u = self.unit_types.get(kind)
        return u is not None and getattr(u, flag)

    def kinds_with(self, flag: str) -> frozenset[str]:
        """The unit types with a yes/no property of units.yaml, e.g. 'aircraft' (8.x)."""
        found = self._flags.get(flag)
        if found is None:
            found = self._flags[flag] = frozenset(
                k for k, u in self.unit_types.items() if getattr(u, flag))
        return found

    @cached_property
    def _flags(self) -> dict[str, frozenset[str]]:
        return {}

    def cost(self, kind: str) -> int:
        """Build Points to build one unit of kind (7.2, 7.6, 8.x): its cost_bp."""
        return self.unit_types[kind].cost_bp or 0

    @cached_property
    def roll_rank(self) -> dict[str, int]:
        """Kind -> place in the order dice are rolled: roll_order, then the other types in
        the order they are listed, then card dice ('card')."""
        order = [*self.roll_order, *(k for k in self.unit_types if k not in self.roll_order),
                 "card"]
        return {k: i for i, k in enumerate(order)}

    @cached_property
    def letter(self) -> dict[str, str]:
        """Kind -> its letter in army contents, e.g. '4I+1C' (the code in units.yaml)."""
        return {k: u.code for k, u in self.unit_types.items() if u.code}

    @cached_property
    def kind_words(self) -> dict[str, str]:
        """Words that name a unit type in an order: its name and its code, lower case."""
        words = {u.code.lower(): k for k, u in self.unit_types.items() if u.code}
        return {**words, **{k: k for k in self.unit_types}}

    @cached_property
    def id_code(self) -> dict[str, str]:
        """Kind -> its part of a stand-alone piece id, e.g. 'ge-i-12' (its code, lower case)."""
        return {k: u.code.lower() for k, u in self.unit_types.items() if u.code}
