"""Reading orders: the text form players write in email, and the JSON form scripts send.

One order per line, a verb first. Cards are named by key or title, areas by
id, name or alias (case, accents and hyphens do not matter; names of several
words are matched longest first), units by the ids the views show.
"""

from __future__ import annotations

import msgspec

from ..base.errors import (
    AmbiguousOrderError,
    IllegalOrderError,
    OrderSyntaxError,
    echoed,
    quoted,
)
from ..base.nearness import did_you_mean, fold, nearest
from ..base.plurals import a_or_an
from ..contracts.orders import (
    Annihilate,
    Armistice,
    Bonus,
    Build,
    Buy,
    CrisisRefuse,
    CrisisRemove,
    DeclareBattle,
    Discard,
    Done,
    Eft,
    Eliminate,
    EndMovement,
    EndTurn,
    Entrench,
    Ersatz,
    Evacuate,
    Fight,
    Keep,
    Lose,
    Move,
    Ord,
    Order,
    Pass,
    Place,
    PlayCard,
    Rail,
    React,
    Rebuild,
    Reserves,
    Retreat,
    Scramble,
    Sea,
    Strategic,
    Suppress,
    Swap,
    Upgrade,
)
from ..data.gamedata import GameData


def area_choices(data: GameData) -> dict[str, str]:
    """Every spelling of every area (id, name, aliases; folded) -> the area's name (1.1)."""
    return {fold(n): a.name for a in data.map.areas for n in (a.id, a.name, *a.aliases)
            if fold(n)}


class Reader:
    """Resolves the words of one order line against the game data."""

    def __init__(self, text: str, data: GameData):
        self.text = text
        self.data = data
        self.words = text.replace(",", " ").split()
        self.pos = 0
        self.folded: list[str] | None = None

    def column(self) -> int:
        """Column (0-based) of the current word in the line."""
        col = 0
        for w in self.words[: self.pos]:
            col = self.text.find(w, col) + len(w)
        nxt = self.text.find(self.words[self.pos], col) if self.pos < len(self.words) else -1
        return nxt if nxt >= 0 else len(self.text)

    def fail(self, reason: str, unknown: str | None = None) -> OrderSyntaxError:
        """A syntax error at the current word; unknown ('unit', 'card' or 'verb') marks a
        name the boundary may answer from what the order's reader may see and do now."""
        exc = OrderSyntaxError(self.text, reason, self.column())
        if unknown is not None:
            exc.unknown = (unknown, tuple(self.words[self.pos:]))
        return exc

    def longest(self, names: dict):
        """(end, value) of the longest run of words from here whose folded spelling is a key
        of names, or (pos, None): a name of the game spans several words (1.1). fold works
        character by character, so each word is folded once and a run longer than the
        longest key is never tried (linear in what was typed)."""
        if self.folded is None:
            self.folded = [fold(w) for w in self.words]
        limit = max(map(len, names), default=0)
        ends, size = [], 0
        for end in range(self.pos + 1, len(self.words) + 1):
            size += len(self.folded[end - 1])
            if size > limit:
                break
            ends.append(end)
        for end in reversed(ends):
            found = names.get("".join(self.folded[self.pos:end]))
            if found:
                return end, found
        return self.pos, None

    def done(self) -> bool:
        """No words left."""
        return self.pos >= len(self.words)

    def expect_end(self) -> None:
        """Fail if words are left over."""
        if not self.done():
            raise self.fail(f"unexpected {quoted(' '.join(self.words[self.pos:]))}")

    def card(self) -> str:
        """A card type key, named by key or title over one or more words (longest match)."""
        if self.done():
            raise self.fail("a card name is missing")
        end, key = self.longest(self.data.card_names)
        if key is not None:
            self.pos = end
            return key
        raise self.fail(f"no card is called {echoed(self.words[self.pos])}", unknown="card")

    def cards(self) -> tuple[str, ...]:
        """One or more card keys."""
        out = [self.card()]
        while not self.done():
            out.append(self.card())
        return tuple(out)

    def area(self) -> str:
        """An area id, named by id, name or alias over one or more words (longest match)."""
        if self.done():
            raise self.fail("an area name is missing")
        end, ids = self.longest(self.data.area_names)
        if ids:
            if len(ids) > 1:
                raise AmbiguousOrderError(self.text, " ".join(self.words[self.pos:end]), ids)
            self.pos = end
            return ids[0]
        raise self.fail(f"no area is called {echoed(self.words[self.pos])}"
                        f"{did_you_mean(nearest(self.words[self.pos:], area_choices(self.data)))}")

    def unit(self) -> str:
        """A unit reference: an id, or ARMY:KIND for a unit on an army template."""
        if self.done():
            raise self.fail("a unit id is missing")
        w = self.words[self.pos].casefold()
        if "-" not in w.split(":")[0]:
            raise self.fail(f"{quoted(self.words[self.pos])} is not a unit id (ids look like ge-1, "
                            f"fr-i-02, ge-1:cavalry or fort-verdun)", unknown="unit")
        self.pos += 1
        return _unit_ref(w, self.data)

    def word(self, what: str) -> str:
        """The next word, as typed."""
        if self.done():
            raise self.fail(f"{what} is missing")
        w = self.words[self.pos]
        self.pos += 1
        return w

    def keyword(self, *options: str) -> str | None:
        """Consume the next word if it is one of options (case-insensitive)."""
        if not self.done() and self.words[self.pos].casefold() in options:
            self.pos += 1
            return self.words[self.pos - 1].casefold()
        return None


def _play(r: Reader) -> Ord:
    card = r.card()
    r.keyword("in", "at", "on")
    area = None if r.done() else r.area()
    r.expect_end()
    return PlayCard(card=card, area=area)


def _area_order(factory):
    def read(r: Reader) -> Ord:
        r.keyword("in", "at")
        area = r.area()
        r.expect_end()
        return factory(area=area)
    return read


def _unit_order(factory):
    def read(r: Reader) -> Ord:
        unit = r.unit()
        r.expect_end()
        return factory(unit=unit)
    return read


def _react(r: Reader) -> Ord:
    unit = r.unit()
    on = r.word("an infantry type").casefold() if r.keyword("on") else None
    r.expect_end()
    return React(unit=unit, on=on)


def _retreat(r: Reader) -> Ord:
    unit = r.unit()
    r.keyword("to")
    to = r.area()
    into = r.unit() if r.keyword("into") else None
    r.expect_end()
    return Retreat(unit=unit, to=to, into=into)


def _eliminate(r: Reader) -> Ord:
    army = r.unit()
    r.expect_end()
    return Eliminate(army=army)


def _ersatz(r: Reader) -> Ord:
    card = r.card()
    r.expect_end()
    return Ersatz(card=card)


def _end(r: Reader) -> Ord:
    what = r.keyword("movement", "move", "moves", "turn")
    if what is None and not r.done():
        typed = r.words[r.pos]
        near = nearest(typed, {"movement": "end movement", "move": "end movement",
                               "turn": "end turn"})
        if near:
            raise r.fail(f"{quoted(typed)} is neither 'movement' nor 'turn'"
                         f"{did_you_mean(near)}")
    r.expect_end()
    if what in ("movement", "move", "moves"):
        return EndMovement()
    if what == "turn":
        return EndTurn()
    raise r.fail("say 'end movement' or 'end turn'")


# Other spellings of unit type names; each type's own name and code (units.yaml) are read
# from the game data (UnitsData.kind_words).
_KIND_WORDS = {
    "inf": "infantry", "stoßtruppen": "stosstruppen", "cav": "cavalry", "art": "artillery",
    "siegegun": "siege_gun", "parisgun": "paris_gun",
}


def _kind(word: str, data: GameData) -> str:
    """The unit type a word names: its name, its code or another spelling (else the word)."""
    return data.units.kind_words.get(word) or _KIND_WORDS.get(word, word)


def _unit_ref(word: str, data: GameData) -> str:
    """Normalise ARMY:KIND references (ge-1:c, fr-8:us-i) to ge-1:cavalry, fr-8:us-infantry."""
    if ":" not in word:
        return word
    army, _, kind = word.partition(":")
    nation = ""
    if "-" in kind:
        nation, _, kind = kind.partition("-")
    kind = _kind(kind.replace("-", "_"), data)
    return f"{army}:{nation + '-' if nation else ''}{kind}"


def _areas_until(r: Reader, *stops: str) -> tuple[str, ...]:
    out = []
    while not r.done() and r.words[r.pos].casefold() not in stops:
        out.append(r.area())
    return tuple(out)


# Why the EFT box cannot be entered in a game without one (AAC: movement_modes.py, the
# eft order, tells the same).
NO_EFT_BOX = ("AAC 2.0 V.4", "this game has no Eastern Front Transit box (AT ALL COSTS! "
                             "plays the Eastern front itself)")


def _eft_moved(r: Reader) -> IllegalOrderError:
    """'move UNIT eft': the box is no area (2.0 V.4), answered as the eft order is where the
    game has none, else pointing to that order."""
    box = r.data.eft_box
    if box is None:
        return IllegalOrderError(r.text, *NO_EFT_BOX)
    return IllegalOrderError(r.text, "2.0 V.4", f"the {box.name} is no area: a unit goes "
                                                f"into it or out of it with 'eft UNIT'")


def _move(r: Reader) -> Ord:
    unit = r.unit()
    if r.keyword("stays", "(stays)") and ":" in unit:
        # The grouped orders' '(stays)' typed after a unit of an army: that unit leaves its
        # army where it stands, as the unit alone says (4.1, 8.1).
        r.expect_end()
        return Move(unit=unit, path=(), into=None, taking=())
    r.keyword("to")
    if not r.done() and fold(r.words[r.pos]) == "eft":
        raise _eft_moved(r)
    path = _areas_until(r, "into", "taking")
    into = r.unit() if r.keyword("into") else None
    taking: list[str] = []
    if r.keyword("taking"):
        while not r.done():
            taking.append(r.unit())
        if not taking:
            raise r.fail("'taking' needs the ids of the units the army takes in")
    r.expect_end()
    if not path and not into and ":" not in unit:
        raise r.fail("say where the unit moves: one or more areas and/or 'into ARMY'")
    return Move(unit=unit, path=path, into=into, taking=tuple(taking))


def _to_area(factory, alone: tuple[str, str] | None = None):
    """An order naming a unit and the one area it goes to. alone: (the kind of move, its
    rule) for a move that cannot be combined with any other movement (4.4-4.6), so that
    'into ARMY' or 'taking' after it is refused by that rule, not as words out of place."""
    def read(r: Reader) -> Ord:
        unit = r.unit()
        r.keyword("to")
        to = r.area()
        if alone is not None and not r.done() and fold(r.words[r.pos]) in ("into", "taking"):
            raise r.fail(f"{a_or_an(alone[0])} cannot be combined with any other type of movement, "
                         f"such as joining an army or taking units in (rule {alone[1]}); "
                         f"'{r.words[0]} {unit} {to}' is the move alone")
        r.expect_end()
        return factory(unit=unit, to=to)
    return read


def _suppress(r: Reader) -> Ord:
    army = r.unit()
    into = r.unit() if r.keyword("into") else None
    r.expect_end()
    return Suppress(army=army, into=into)


def _remove(r: Reader) -> Ord:
    unit = r.unit()
    r.expect_end()
    return CrisisRemove(unit=unit)


def _refuse(r: Reader) -> Ord:
    if r.keyword("armistice"):
        r.expect_end()
        return Armistice(act="refuse")
    r.keyword("crisis")
    r.expect_end()
    return CrisisRefuse()


def _what(r: Reader) -> str:
    """An army id, or 'NATION KIND' (e.g. 'fr infantry') as nation:kind."""
    w = r.word("a unit").casefold()
    nations = r.data.units.nations            # the game's nation codes (units.yaml)
    if w in nations:
        typed = r.word("a unit type")
        kind = typed.casefold().replace("-", "_")
        two = f"{kind}_{r.words[r.pos].casefold()}" if not r.done() else ""
        if kind not in r.data.units.unit_types and two in r.data.units.unit_types:
            r.pos, kind = r.pos + 1, two        # in two words: 'imperial guard', 'siege gun'
        kind = _kind(kind, r.data)
        # no type: the word as typed, which its refusal echoes (7.6), not as looked up
        return f"{w}:{kind if kind in r.data.units.unit_types else typed}"
    if ":" in w and w.split(":")[0] in nations:
        nation, _, kind = w.partition(":")
        return f"{nation}:{_kind(kind, r.data)}"
    return w


def _place_or_build(factory):
    def read(r: Reader) -> Ord:
        unit = _what(r)
        r.keyword("in", "at", "to")
        area = r.area()
        into = r.unit() if r.keyword("into") else None
        r.expect_end()
        return factory(unit=unit, area=area, into=into)
    return read


def _buy(r: Reader) -> Ord:
    w = r.word("a number of cards")
    # Only ASCII digits are numbers ('²', '٣' or '３' are not), and a plan buys few cards.
    if not (w.isascii() and w.isdigit()) or len(w) > 2 or int(w) < 1:
        raise r.fail(f"{quoted(w)} is not a number of cards (1 to 99)")
    r.keyword("card", "cards")
    r.expect_end()
    return Buy(count=int(w))


def _rebuild(r: Reader) -> Ord:
    army = r.unit()
    r.keyword("in", "at")
    area = r.area()
    r.expect_end()
    return Rebuild(army=army, area=area)


def _entrench(r: Reader) -> Ord:
    units = []
    while not r.done():
        units.append(r.unit())
    if not units:
        raise r.fail("name the units to entrench")
    return Entrench(units=tuple(units))


def _eft(r: Reader) -> Ord:
    unit = r.unit()
    r.keyword("to", "out", "from")
    to = None if r.done() else r.area()
    r.expect_end()
    return Eft(unit=unit, to=to)


# A word a player writes first for an order that begins with another (3.2: an armistice is
# proposed, withdrawn, accepted or refused): read as an order's first word, so that mail
# takes such a line for an order, refused naming the orders meant, never for prose passed over.
MEANT = {"armistice": ("propose armistice", "withdraw armistice", "accept armistice",
                       "refuse armistice")}
# What may end such a word, which mail reads as an order's first word all the same
# (mail/message.py's looks_like_order).
_STOPS = ",.!:;"


def _armistice_word(act: str):
    def read(r: Reader) -> Ord:
        r.keyword("armistice")
        r.expect_end()
        return Armistice(act=act)
    return read


def _simple(factory):
    def read(r: Reader) -> Ord:
        r.expect_end()
        return factory()
    return read


def _discard(r: Reader) -> Ord:
    return Discard(cards=r.cards())


VERBS = {
    "play": _play,
    "pass": _simple(Pass),
    "end": _end,
    "discard": _discard,
    "move": _move,
    "rail": _to_area(Rail, ("rail move", "4.4")),
    "strategic": _to_area(Strategic, ("strategic move", "4.5")),
    "sea": _to_area(Sea, ("sea move", "4.6")),
    "reserves": _to_area(Reserves),
    "evacuate": _to_area(Evacuate),
    "suppress": _suppress,
    "remove": _remove,
    "refuse": _refuse,
    "done": _simple(Done),
    "fire": _simple(Done),
    "hold": _simple(Done),
    "stay": _simple(Done),
    "battle": _area_order(DeclareBattle),
    "declare": _area_order(DeclareBattle),
    "bonus": _area_order(Bonus),
    "keep": _area_order(Keep),
    "fight": _area_order(Fight),
    "retreat": _retreat,
    "react": _react,
    "lose": _unit_order(Lose),
    "scramble": _unit_order(Scramble),
    "ersatz": _ersatz,
    "annihilate": _simple(Annihilate),
    "eliminate": _eliminate,
    "place": _place_or_build(Place),
    "swap": _unit_order(Swap),
    "buy": _buy,
    "build": _place_or_build(Build),
    "rebuild": _rebuild,
    "entrench": _entrench,
    "upgrade": _unit_order(Upgrade),
    "eft": _eft,
    "propose": _armistice_word("propose"),
    "accept": _armistice_word("accept"),
    "withdraw": _armistice_word("withdraw"),
    "surrender": _armistice_word("surrender"),
    "resign": _armistice_word("surrender"),
}
# The words a line of orders may begin with (what mail reads as an order line).
ORDER_WORDS = frozenset(VERBS) | frozenset(MEANT)


def _json_order(text: str, line: str) -> Ord:
    """An order in its JSON form; a refused one is described by its contract, every problem
    in plain words (OrderSyntaxError)."""
    try:
        raw = line.encode("utf-8", "surrogatepass")
        return msgspec.json.decode(raw, type=Order)
    except RecursionError:          # no order nests more than a few levels
        raise OrderSyntaxError(text, "not a valid JSON order (schemas/orders.json): nested "
                                     "deeper than any order") from None
    except (msgspec.DecodeError, UnicodeError) as exc:
        first = str(exc)
    # start-up: pydantic's validation only for an order msgspec refused, to say every problem
    from ..contracts import check

    try:
        found = check.problems("orders", raw)
    except ValueError:                         # bytes no JSON reader takes (lone surrogates)
        found = []
    said = "; ".join(f"{what} at {check.where(loc)}" for loc, what in found[:5]) or first
    raise OrderSyntaxError(text, f"not a valid JSON order (schemas/orders.json): {said}")


# Orders read, by their text, per game data: reading depends on nothing else, and an order is
# frozen, so verify and replay read each text once (a plan is read when sealed and revealed).
_READ_LIMIT = 20_000


def parse_order(text: str, data: GameData) -> Ord:
    """Read one order line (text or JSON form); OrderSyntaxError quotes what is wrong."""
    read = data.orders_read
    order = read.get(text)
    if order is None:
        order = _parse_order(text, data)
        if len(read) < _READ_LIMIT:
            read[text] = order
    return order


def _parse_order(text: str, data: GameData) -> Ord:
    line = text.strip()
    if not line:
        raise OrderSyntaxError(text, "empty order")
    if line.startswith("{"):
        return _json_order(text, line)
    # The full stop (or '!', '…') a phone or a writer ends a line with is no part of the
    # order, even where the line reads with it ('lose fort-liege.' names fort-liege); a
    # line that reads as no order without it is read, and refused, as typed (a sentence
    # that begins with an order's word stays one: 'Done with it.').
    bare = line.rstrip(_SENTENCE_END).rstrip()
    if bare and bare != line:
        try:
            return _read_line(bare, data)
        except OrderSyntaxError:
            pass
    return _read_line(line, data)


# What may end an order line as it ends a sentence, and is not part of the order.
_SENTENCE_END = ".!…"


def _read_line(line: str, data: GameData) -> Ord:
    """One order line in the text form, read from its verb on."""
    r = Reader(line, data)
    verb = r.word("a verb").casefold()
    reader = VERBS.get(verb)
    meant = MEANT.get(verb.rstrip(_STOPS))      # "Armistice." as mail reads it, a word
    if reader is None and meant is not None:
        r.pos = 0
        raise r.fail(f"no order begins with {echoed(verb)}{did_you_mean(list(meant))}")
    if reader is None:
        r.pos = 0
        near = nearest(verb, {v: v for v in VERBS})
        raise r.fail(f"unknown verb {echoed(verb)}" + (
            did_you_mean(near) if near else
            f"; orders start with one of: {', '.join(sorted(VERBS))}"), unknown="verb")
    return reader(r)


def order_lines(text: str) -> list[str]:
    """The order lines of an email body: blank lines, '#' comments and '>' quotes dropped."""
    out = []
    for line in text.splitlines():
        s = line.strip()
        if s.startswith(">"):
            continue
        s = s.split("#", 1)[0].strip()
        if s:
            out.append(s)
    return out
