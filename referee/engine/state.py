"""The game state derived by replaying a journal, and questions asked of it.

The state is plain data (msgspec Structs): evolve() changes it event by event,
decide() works on a clone. Nothing here checks legality; the helpers answer
questions the rules need: area status (4.1, 8.4), stacking (1.2.2),
strength (5.3.1), who holds an area (8.3.x).
"""

from collections import Counter
from typing import Any

import msgspec

from ..data.gamedata import GameData

# What each unit type is and does (infantry or auxiliary slot, holds an area, its letter and
# id code, the stacking limit) is the game data's: GameData.units (UnitsData).
BOTH = 3                                    # both sides' bits (GameData.side_bit)
# The cache key of a board kept through events (events.evolve): (the board before them, the
# areas their moves touched), worked out into the board at its first read only.
KEPT_BOARD = "kept board"
ALL_OF_IT = (True, True)                    # a unit type that stacks and holds (kind_cell)


def other(side: str, data: GameData) -> str:
    """The opposing side (the other of the two sides in units.yaml)."""
    return data.opponent[side]


def piece_key(nation: str, kind: str) -> str:
    """The key of a kind of piece on an army template, e.g. 'us:infantry'."""
    return f"{nation}:{kind}"


def split_key(key: str) -> tuple[str, str]:
    """('us', 'infantry') from 'us:infantry'."""
    nation, kind = key.split(":")
    return nation, kind


class Army(msgspec.Struct):
    """An army counter and the contents of its template (1.4, 8.1)."""

    id: str
    nation: str
    name: str
    status: str = "pool"          # map | pool | eliminated | eft (in the box: data.eft_box)
    area: str | None = None
    entrenched: bool = False
    contents: dict[str, int] = {}

    @property
    def strength(self) -> int:
        """Number of units on the template (5.3.1)."""
        return sum(self.contents.values())


class Piece(msgspec.Struct):
    """A unit standing on its own on the map or in the EFT box (not in an army)."""

    id: str
    nation: str
    kind: str
    area: str
    entrenched: bool = False


class Fort(msgspec.Struct):
    """A fort counter at its current strength (8.4)."""

    id: str
    nation: str
    area: str
    strength: int


class Decision(msgspec.Struct):
    """Who must act now and what kind of decision it is (the pending decision)."""

    kind: str
    side: str
    info: dict[str, Any] = {}


class TurnState(msgspec.Struct):
    """What has happened so far in the current player turn (2.0 II)."""

    side: str
    mode: str = "undecided"        # undecided | offensive | limited | pass | weather_pass
    card: str | None = None        # the Offensive-type card played
    card_as: str | None = None     # what it counts as (special key, offensive, limited...)
    cards_played: int = 0
    discarded: bool = False
    moved: list[str] = []        # counters moved this turn
    received: list[str] = []     # armies that took in a moving unit
    # army id -> piece key -> units that moved onto its template this turn; they may not
    # leave it again (4.1: each counter moves once). The rest of the template is unmoved.
    joined: dict[str, dict[str, int]] = {}
    moves: int = 0                 # unit moves made (pass allows 1, 2.0 II.1)
    reserves_moves: int = 0
    rail: int = 0
    strategic: int = 0
    sea: int = 0
    friendly_at_start: list[str] = []     # for rail and 4.5
    became_disputed: list[str] = []
    enemy_entered: list[str] = []


class State(msgspec.Struct, dict=True):
    """Everything the rules need to know about a game at one moment."""

    game_id: str
    scenario: str
    options: dict[str, bool]
    turn: int
    last_turn: int
    first_player: str
    phase: str = "setup"         # setup | reinforcements | player_turn | production | over
    player: str | None = None                  # whose player turn it is
    consecutive_passes: int = 0
    control: dict[str, str | None] = {}
    armies: dict[str, Army] = {}
    pieces: dict[str, Piece] = {}
    forts: dict[str, Fort] = {}
    removed_forts: list[str] = []
    pool: dict[str, dict[str, int]] = {}   # nation -> kind -> counters
    serial: dict[str, int] = {}            # last id number per prefix
    keep_apart: dict[str, str] = {}        # piece id -> army id (4.6)
    draw_pile: list[str] = []              # top first
    discard: list[str] = []
    hands: dict[str, list[str]] = {}
    locked: dict[str, list[str]] = {}      # drawn, not yet playable
    removed_cards: list[str] = []
    turn_state: TurnState | None = None
    pending: Decision | None = None
    vp_adjust: dict[str, int] = {}
    crisis: dict[str, Any] | None = None                 # a Military Crisis! being answered
    arrivals: dict[str, list] = {}   # reinforcements to place (2.0 I)
    swaps_due: dict[str, list] = {}  # Commonwealth swaps (8.2.3)
    swapped: list[str] = []          # Commonwealth units swapped in
    production: dict[str, Any] | None = None             # the production phase (2.0 V)
    oos: list[str] = []              # units carrying an Out of Supply marker (1.2.3, 6.5)
    sealed: dict[str, Any] | None = None  # sealed plans of both sides (2.0 I, 2.0 V.3)
    armistice: str | None = None                         # the side proposing an armistice
    # the other side has had a decision to make, or given an order, since that proposal
    # (3.2, 2.0 VI: only then does it lapse at a season's end; armistice_heard.py)
    armistice_heard: bool = False
    # how the last proposal ended, when it lapsed or was withdrawn: {side, how, season}
    armistice_ended: dict[str, str] | None = None
    combat: dict[str, Any] | None = None                 # the combat phase of a player turn
    battle: dict[str, Any] | None = None                 # the battle being fought
    suppressed_turn: dict[str, int] = {}   # option 15.4.1
    result: dict[str, Any] | None = None
    revealed: bool = False                               # the dice secret was published
    seq: int = 0

    def __post_init__(self) -> None:
        # Answers worked out from the state, kept until the next event (evolve clears it);
        # an attribute, not a field: never compared, copied or written to a snapshot.
        self._cache: dict = {}

    def clone(self) -> "State":
        """An independent copy for decide() to work on: every field, not the lookup cache
        (through MessagePack, which copies the same values as the snapshot form in half
        the time)."""
        if not _CLONE:
            _CLONE.extend((msgspec.msgpack.Encoder().encode,
                           msgspec.msgpack.Decoder(State).decode))
        return _CLONE[1](_CLONE[0](self))

    def board(self, data: GameData) -> dict[str, list[int]]:
        """Per occupied map area: [sides present, sides holding it, German units, Entente
        units], sides as bits (GameData.side_bit); worked out once per position (evolve
        keeps it through events that move no unit, and works out again only the areas a
        move touches: events.evolve)."""
        b = self._cache.get("board")
        if b is None:
            kept = self._cache.get(KEPT_BOARD)
            if kept is None:
                b = self._cells({}, data, None)
            else:                       # kept through events: only the touched areas again
                before, areas = kept
                b = self.board_after(before, areas, data) if areas else before
            self._cache["board"] = b
        return b

    def board_after(self, before: dict[str, list[int]], areas, data: GameData) -> dict:
        """The board once the units of `areas`, and only theirs, may have changed: the
        other areas' cells of `before`, these worked out again."""
        kept = {a: cell for a, cell in before.items() if a not in areas}
        return self._cells(kept, data, areas)

    def _cells(self, b: dict, data: GameData, only) -> dict[str, list[int]]:
        """Add to b the cells of the areas in `only` (every map area when None)."""
        areas, nation_cell, kind_cell = data.areas, data.nation_cell, data.kind_cell
        pieces, armies, forts = self.pieces.values(), self.armies.values(), self.forts.values()
        if only is not None:            # a move's few areas: their units only
            pieces = [p for p in pieces if p.area in only]
            armies = [a for a in armies if a.area in only]
            forts = [f for f in forts if f.area in only]
        for p in pieces:
            area = p.area
            if area not in areas:
                continue
            bit, slot = nation_cell[p.nation]
            cell = b.get(area)
            if cell is None:
                cell = b[area] = [0, 0, 0, 0]
            cell[0] |= bit
            stacks, holds = kind_cell.get(p.kind, ALL_OF_IT)    # 1.2.2, 8.3: units.yaml
            if stacks:
                cell[slot] += 1
            if holds:
                cell[1] |= bit
        for a in armies:
            if a.status != "map":
                continue
            bit, slot = nation_cell[a.nation]
            cell = b.get(a.area)
            if cell is None:
                cell = b[a.area] = [0, 0, 0, 0]
            cell[0] |= bit
            if a.contents:
                cell[slot] += 1
                cell[1] |= bit
        fort_stacks = kind_cell.get(data.units.fort_kind, ALL_OF_IT)[0]     # 1.2.2, 8.4
        for f in forts:
            counts = fort_stacks and f.strength > 0
            if counts or f.strength >= 2:
                bit, slot = nation_cell[f.nation]
                cell = b.get(f.area)
                if cell is None:
                    cell = b[f.area] = [0, 0, 0, 0]
                if counts:
                    cell[slot] += 1
                if f.strength >= 2:
                    cell[0] |= bit
        return b

    def sides_present(self, data: GameData) -> dict[str, int]:
        """Per map area where a unit stands, the sides present in it as bits: the first of
        each board cell (present, 4.1, 8.4). Read off the board when one is kept; else worked
        out alone, the units' areas and sides without the counts and holders the board adds
        (a replay reads no other part of it, once a player turn, and keeps no board)."""
        if self._cache.get("board") is not None or self._cache.get(KEPT_BOARD) is not None:
            return {area: cell[0] for area, cell in self.board(data).items()}
        areas, bit, b = data.areas, data.nation_bit, {}
        for p in self.pieces.values():
            at = p.area
            if at in areas:
                b[at] = b.get(at, 0) | bit[p.nation]
        for a in self.armies.values():
            if a.status == "map":
                at = a.area
                b[at] = b.get(at, 0) | bit[a.nation]
        for f in self.forts.values():
            if f.strength >= 2:
                at = f.area
                b[at] = b.get(at, 0) | bit[f.nation]
        return b

    def disputed(self, area: str, data: GameData) -> bool:
        """Whether both sides are present in an area (4.1, 8.4)."""
        cell = self.board(data).get(area)
        return cell is not None and cell[0] == BOTH

    # ------------------------------------------------------------ units

    def armies_in(self, area: str, side: str | None = None, data: GameData | None = None):
        """Armies on the map in an area (of one side when side and data are given)."""
        by_area = self._cache.get("armies")
        if by_area is None:
            by_area = self._cache["armies"] = {}
            for a in self.armies.values():
                if a.status == "map":
                    by_area.setdefault(a.area, []).append(a)
        return [a for a in by_area.get(area, ())
                if side is None or data.nation_side[a.nation] == side]

    def pieces_in(self, area: str, side: str | None = None, data: GameData | None = None):
        """Stand-alone pieces in an area (of one side when side and data are given)."""
        by_area = self._cache.get("pieces")
        if by_area is None:
            by_area = self._cache["pieces"] = {}
            for p in self.pieces.values():
                by_area.setdefault(p.area, []).append(p)
        return [p for p in by_area.get(area, ())
                if side is None or data.nation_side[p.nation] == side]

    def forts_in(self, area: str) -> list[Fort]:
        """Fort counters in an area."""
        return [f for f in self.forts.values() if f.area == area]

    def stack_count(self, area: str, side: str, data: GameData) -> int:
        """Units counting toward the stacking limit: forts and empty armies do not (1.2.2)."""
        cell = self.board(data).get(area)
        return cell[data.count_at[side]] if cell is not None else 0

    def present(self, area: str, side: str, data: GameData) -> bool:
        """Whether side's units occupy an area for area status (4.1).

        A fort of strength 1 or less (Sedan 0) alone does not make an area
        Disputed (8.4), so it does not count here.
        """
        cell = self.board(data).get(area)
        return cell is not None and bool(cell[0] & data.side_bit[side])

    def holds(self, area: str, side: str, data: GameData) -> bool:
        """Whether side has a unit there that can conquer or hold an area (8.3.2-8.3.6)."""
        cell = self.board(data).get(area)
        return cell is not None and bool(cell[1] & data.side_bit[side])

    def status(self, area: str, side: str, data: GameData) -> str:
        """friendly | enemy | disputed | neutral, as seen by side (4.1, 8.4).

        Kept until the next event: the legal orders of a busy position ask it
        hundreds of thousands of times.
        """
        key = ("status", side)
        table = self._cache.get(key)
        if table is None:
            table = self._cache[key] = {}
        found = table.get(area)
        if found is None:
            found = table[area] = self._status(area, side, data)
        return found

    def _status(self, area: str, side: str, data: GameData) -> str:
        if self.present(area, side, data) and self.present(area, other(side, data), data):
            return "disputed"
        owner = self.control.get(area)
        if owner is None:
            return "neutral"
        return "friendly" if owner == side else "enemy"

    def area_state(self, area: str, data: GameData) -> str:
        """A side's name | disputed | neutral, as shown on the map."""
        cell = self.board(data).get(area)
        if cell is not None and cell[0] == BOTH:
            return "disputed"
        return self.control.get(area) or "neutral"

    def side_units(self, side: str, data: GameData):
        """Armies on the map and stand-alone pieces of one side (map and EFT box)."""
        for a in self.armies.values():
            if a.status in ("map", "eft") and data.nation_side[a.nation] == side:
                yield a
        for p in self.pieces.values():
            if data.nation_side[p.nation] == side:
                yield p

    def counters_in_play(self) -> Counter:
        """(nation, kind) -> counters on the map, in armies and in the EFT box (11.1: the mix
        limits them); worked out once per position, like the board. Read it, never change it."""
        got = self._cache.get("in_play")
        if got is None:
            got = self._cache["in_play"] = self._counters_in_play()
        return got

    def _counters_in_play(self) -> Counter:
        c: Counter = Counter()
        for a in self.armies.values():
            if a.status in ("map", "eft"):
                c[(a.nation, "army")] += 1
                for key, n in a.contents.items():
                    c[split_key(key)] += n
        for p in self.pieces.values():
            c[(p.nation, p.kind)] += 1
        for f in self.forts.values():
            c[(f.nation, "fort")] += 1
        return c

    def new_piece_id(self, nation: str, kind: str, data: GameData) -> str:
        """The next unused id for a stand-alone piece, e.g. 'ge-i-12' (never reused): the
        type's code in units.yaml, in lower case."""
        prefix = f"{nation}-{data.units.id_code[kind]}"
        n = self.serial.get(prefix, 0) + 1
        while f"{prefix}-{n:02d}" in self.pieces:
            n += 1
        return f"{prefix}-{n:02d}"


# The MessagePack encoder and State decoder clone() copies through, made on its first call:
# a read, which replays and never decides, does without them.
_CLONE: list = []


def state_to_builtins(state: State) -> dict[str, Any]:
    """The state as plain JSON data (the snapshot form): every field, not the lookup cache."""
    return msgspec.to_builtins(state)


def state_from_builtins(raw: dict[str, Any]) -> State:
    """A state from its snapshot form; msgspec.ValidationError when it is not one."""
    return msgspec.convert(raw, State)


def template_key(state: State, ref: str) -> tuple[str, str]:
    """(army id, piece key) of a template reference: ge-1:cavalry, fr-8:us-infantry."""
    army_id, _, spec = ref.partition(":")
    nation, _, kind = spec.rpartition("-")
    return army_id, piece_key(nation or state.armies[army_id].nation, kind)


def nation_of(state: State, ref: str) -> str:
    """The nation of a stand-alone unit, or of a unit on an army template (ARMY:KIND, its own
    nation's unless the reference names another: fr-8:us-infantry)."""
    if ref in state.pieces:
        return state.pieces[ref].nation
    return split_key(template_key(state, ref)[1])[0]


def contents_text(contents: dict[str, int], nation: str, data: GameData) -> str:
    """Army contents as '4I+1C+1A' (foreign pieces marked, e.g. '1usI'): types in the order
    units.yaml lists them, each by its code."""
    letter = data.units.letter
    parts = []
    for kind in letter:
        for key, n in sorted(contents.items()):
            cnat, ckind = split_key(key)
            if ckind == kind and n:
                parts.append(f"{n}{'' if cnat == nation else cnat}{letter[kind]}")
    return "+".join(parts) if parts else "empty"
