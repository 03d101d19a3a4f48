"""Orders: what a player submits, in a short text form for email and a JSON form.

One order per line. The text form starts with a verb; cards are named by
their key or title, areas by id, name or alias (case, accents and hyphens do
not matter), units by the ids every view shows. `format_order` writes the
canonical text that `status` lists and `order` accepts. A line starting with
'{' is read as the JSON form (see schemas/orders.json).
"""

from __future__ import annotations

import json
from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from ..errors import AmbiguousOrderError, OrderSyntaxError
from ..gamedata import GameData, fold


class Ord(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class PlayCard(Ord):
    """Play a card for its effect (2.0 II.1, 9.x); combat cards name their battle area (II.3b)."""

    kind: Literal["play"] = "play"
    card: str
    area: str | None = None


class Pass(Ord):
    """Play no Offensive card this player turn (2.0 II.1)."""

    kind: Literal["pass"] = "pass"


class EndMovement(Ord):
    """Finish the movement phase of an Offensive (2.0 II.2)."""

    kind: Literal["end_movement"] = "end_movement"


class EndTurn(Ord):
    """Finish a passing player turn (2.0 II.1)."""

    kind: Literal["end_turn"] = "end_turn"


class Discard(Ord):
    """Passing without playing any card: discard cards and draw as many (2.0 II.1)."""

    kind: Literal["discard"] = "discard"
    cards: tuple[str, ...]


class Move(Ord):
    """Move one unit: along a path of adjacent areas, out of and/or into an army (4.1-4.3).

    unit is an army id, a stand-alone unit id, or ARMY:KIND for a unit on an
    army template (e.g. ge-1:cavalry, fr-8:us-infantry). An army may take in
    stand-alone units at its destination as part of its move (`taking`).
    """

    kind: Literal["move"] = "move"
    unit: str
    path: tuple[str, ...] = ()
    into: str | None = None
    taking: tuple[str, ...] = ()


class Rail(Ord):
    """Rail movement: up to three areas through areas Friendly since the turn began (4.4)."""

    kind: Literal["rail"] = "rail"
    unit: str
    to: str


class Strategic(Ord):
    """Entente strategic movement between Friendly Entente supply source areas (4.5)."""

    kind: Literal["strategic"] = "strategic"
    unit: str
    to: str


class Sea(Ord):
    """UK sea movement between ENGLAND and a coastal Entente supply source area (4.6)."""

    kind: Literal["sea"] = "sea"
    unit: str
    to: str


class Reserves(Ord):
    """Play Strategic Reserves!: one unit any distance through Friendly areas (9.6)."""

    kind: Literal["reserves"] = "reserves"
    unit: str
    to: str


class Evacuate(Ord):
    """Optional 14.2.4: the Belgian army leaves Antwerp by sea for a coastal supply source."""

    kind: Literal["evacuate"] = "evacuate"
    unit: str
    to: str


class Suppress(Ord):
    """Optional 15.4.1: remove an army in supply; its units stay in the area or join an army."""

    kind: Literal["suppress"] = "suppress"
    army: str
    into: str | None = None


class CrisisRemove(Ord):
    """Answer a Military Crisis!: remove one infantry-type unit (9.8, 9.9)."""

    kind: Literal["crisis_remove"] = "crisis_remove"
    unit: str


class CrisisRefuse(Ord):
    """Answer a Military Crisis! by removing nothing and conceding the VP (3.1, 9.8, 9.9)."""

    kind: Literal["crisis_refuse"] = "crisis_refuse"


class Done(Ord):
    """Finish the current step: declaring battles, playing combat cards, retreating (2.0 II.3-4)."""

    kind: Literal["done"] = "done"


class DeclareBattle(Ord):
    """Declare a battle in a Disputed area (2.0 II.3a, 5.1.2)."""

    kind: Literal["battle"] = "battle"
    area: str


class Bonus(Ord):
    """Name a battle area for the special offensive's extra dice (9.1.3-9.1.6)."""

    kind: Literal["bonus"] = "bonus"
    area: str


class Keep(Ord):
    """After Bad Weather turns an Offensive into a Limited one: the one battle fought (9.5)."""

    kind: Literal["keep"] = "keep"
    area: str


class Fight(Ord):
    """Resolve this declared battle next (5.2.1: the attacker orders the battles)."""

    kind: Literal["fight"] = "fight"
    area: str


class Retreat(Ord):
    """Retreat a unit to an adjacent Friendly or Disputed area (5.4)."""

    kind: Literal["retreat"] = "retreat"
    unit: str
    to: str


class React(Ord):
    """A defending Biplane reacts instead of firing: it forces re-rolls of hits (8.3.4)."""

    kind: Literal["react"] = "react"
    unit: str


class Lose(Ord):
    """Pay one hit with a unit: an army's unit, a fort step or a stand-alone unit (5.3.1)."""

    kind: Literal["lose"] = "lose"
    unit: str


class Ersatz(Ord):
    """Pay hits with a card: Ersatz 2 or 3, or any card as Ersatz 1 (5.3.2, 9.2)."""

    kind: Literal["ersatz"] = "ersatz"
    card: str


class Annihilate(Ord):
    """Remove every unit of one's own in the battle and pay nothing more (5.3.4)."""

    kind: Literal["annihilate"] = "annihilate"


class Place(Ord):
    """Place an arriving reinforcement: an army by id, or a unit by nation and type (2.0 I)."""

    kind: Literal["place"] = "place"
    unit: str                          # army id, or nation:kind
    area: str
    into: str | None = None


class Swap(Ord):
    """Swap the arriving Commonwealth unit for this UK infantry unit on the map (8.2.3)."""

    kind: Literal["swap"] = "swap"
    unit: str


class Buy(Ord):
    """Announce the number of cards bought this Production phase, 1 BP each (7.1)."""

    kind: Literal["buy"] = "buy"
    count: int = Field(ge=1)


class Build(Ord):
    """Build a unit in a supplied Friendly or Disputed area, or into an army there (7.2, 7.6)."""

    kind: Literal["build"] = "build"
    unit: str                          # nation:kind
    area: str
    into: str | None = None


class Rebuild(Ord):
    """Rebuild an eliminated army, empty, in its home country (7.3)."""

    kind: Literal["rebuild"] = "rebuild"
    army: str
    area: str


class Entrench(Ord):
    """Entrench up to four units for 1 BP (an army is one unit) (7.4)."""

    kind: Literal["entrench"] = "entrench"
    units: tuple[str, ...]


class Upgrade(Ord):
    """Upgrade one German infantry unit to Stoßtruppen for 1 BP (7.5)."""

    kind: Literal["upgrade"] = "upgrade"
    unit: str


class Eft(Ord):
    """Move a German unit into the Eastern Front Transit box, or back out (2.0 V.4, games/ttlm)."""

    kind: Literal["eft"] = "eft"
    unit: str
    to: str | None = None              # None: into the box; an area: out of it


class Armistice(Ord):
    """Propose, accept or refuse an armistice (3.2), or resign (3.3)."""

    kind: Literal["armistice"] = "armistice"
    act: Literal["propose", "accept", "refuse", "surrender"]


Order = Annotated[Union[PlayCard, Pass, EndMovement, EndTurn, Discard, Move, Rail, Strategic,
                        Sea, Reserves, Evacuate, Suppress, CrisisRemove, CrisisRefuse, Done,
                        DeclareBattle, Bonus, Keep, Fight, Retreat, React, Lose, Ersatz,
                        Annihilate, Place, Swap, Buy, Build, Rebuild, Entrench, Upgrade, Eft,
                        Armistice],
                  Field(discriminator="kind")]
ORDER = TypeAdapter(Order)


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
        return f"retreat {order.unit} {order.to}"
    if k in ("react", "lose"):
        return f"{k} {order.unit}"
    if k == "ersatz":
        return f"ersatz {order.card}"
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


class Reader:
    """Resolves the words of one order line against the game data."""

    def __init__(self, text: str, data: GameData):
        self.text = text
        self.data = data
        self.words = text.replace(",", " ").split()
        self.pos = 0

    def column(self) -> int:
        """Column (0-based) of the current word in the line."""
        col = 0
        for w in self.words[: self.pos]:
            col = self.text.find(w, col) + len(w)
        nxt = self.text.find(self.words[self.pos], col) if self.pos < len(self.words) else -1
        return nxt if nxt >= 0 else len(self.text)

    def fail(self, reason: str) -> OrderSyntaxError:
        """A syntax error at the current word."""
        return OrderSyntaxError(self.text, reason, self.column())

    def done(self) -> bool:
        """No words left."""
        return self.pos >= len(self.words)

    def expect_end(self) -> None:
        """Fail if words are left over."""
        if not self.done():
            raise self.fail(f"unexpected {' '.join(self.words[self.pos:])!r}")

    def card(self) -> str:
        """A card type key, named by key or title over one or more words (longest match)."""
        if self.done():
            raise self.fail("a card name is missing")
        for end in range(len(self.words), self.pos, -1):
            key = fold("".join(self.words[self.pos:end]))
            for ct in self.data.deck.cards:
                if key in (fold(ct.key), fold(ct.title)) or key in map(fold, ct.ids):
                    self.pos = end
                    return ct.key
        raise self.fail(f"no card is called {self.words[self.pos]!r}")

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
        for end in range(len(self.words), self.pos, -1):
            ids = self.data.area_names.get(fold("".join(self.words[self.pos:end])))
            if ids:
                if len(ids) > 1:
                    raise AmbiguousOrderError(self.text, " ".join(self.words[self.pos:end]), ids)
                self.pos = end
                return ids[0]
        raise self.fail(f"no area is called {self.words[self.pos]!r}")

    def unit(self) -> str:
        """A unit reference: an id, or ARMY:KIND for a unit on an army template."""
        if self.done():
            raise self.fail("a unit id is missing")
        w = self.words[self.pos].casefold()
        if "-" not in w.split(":")[0]:
            raise self.fail(f"{self.words[self.pos]!r} is not a unit id (ids look like ge-1, "
                            f"fr-i-02, ge-1:cavalry or fort-verdun)")
        self.pos += 1
        return _unit_ref(w)

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


def _ersatz(r: Reader) -> Ord:
    card = r.card()
    r.expect_end()
    return Ersatz(card=card)


def _end(r: Reader) -> Ord:
    what = r.keyword("movement", "move", "moves", "turn")
    r.expect_end()
    if what in ("movement", "move", "moves"):
        return EndMovement()
    if what == "turn":
        return EndTurn()
    raise r.fail("say 'end movement' or 'end turn'")


_KIND_WORDS = {
    "i": "infantry", "inf": "infantry", "infantry": "infantry", "s": "stosstruppen",
    "stosstruppen": "stosstruppen", "stoßtruppen": "stosstruppen", "cw": "commonwealth",
    "commonwealth": "commonwealth", "c": "cavalry", "cav": "cavalry", "cavalry": "cavalry",
    "a": "artillery", "art": "artillery", "artillery": "artillery", "g": "siege_gun",
    "siege_gun": "siege_gun", "siegegun": "siege_gun", "b": "biplane", "biplane": "biplane",
    "t": "tank", "tank": "tank", "p": "paris_gun", "paris_gun": "paris_gun",
    "parisgun": "paris_gun",
}


def _unit_ref(word: str) -> str:
    """Normalise ARMY:KIND references (ge-1:c, fr-8:us-i) to ge-1:cavalry, fr-8:us-infantry."""
    if ":" not in word:
        return word
    army, _, kind = word.partition(":")
    nation = ""
    if "-" in kind:
        nation, _, kind = kind.partition("-")
    kind = _KIND_WORDS.get(kind.replace("-", "_"), kind)
    return f"{army}:{nation + '-' if nation else ''}{kind}"


def _areas_until(r: Reader, *stops: str) -> tuple[str, ...]:
    out = []
    while not r.done() and r.words[r.pos].casefold() not in stops:
        out.append(r.area())
    return tuple(out)


def _move(r: Reader) -> Ord:
    unit = r.unit()
    r.keyword("to")
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


def _to_area(factory):
    def read(r: Reader) -> Ord:
        unit = r.unit()
        r.keyword("to")
        to = r.area()
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


_NATIONS = ("ge", "fr", "uk", "be", "us")


def _what(r: Reader) -> str:
    """An army id, or 'NATION KIND' (e.g. 'fr infantry') as nation:kind."""
    w = r.word("a unit").casefold()
    if w in _NATIONS:
        kind = r.word("a unit type").casefold()
        return f"{w}:{_KIND_WORDS.get(kind.replace('-', '_'), kind)}"
    if ":" in w and w.split(":")[0] in _NATIONS:
        nation, _, kind = w.partition(":")
        return f"{nation}:{_KIND_WORDS.get(kind, kind)}"
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
    if not w.isdigit() or int(w) < 1:
        raise r.fail(f"{w!r} is not a number of cards")
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
    "rail": _to_area(Rail),
    "strategic": _to_area(Strategic),
    "sea": _to_area(Sea),
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
    "retreat": _to_area(Retreat),
    "react": _unit_order(React),
    "lose": _unit_order(Lose),
    "ersatz": _ersatz,
    "annihilate": _simple(Annihilate),
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
    "surrender": _armistice_word("surrender"),
    "resign": _armistice_word("surrender"),
}


def parse_order(text: str, data: GameData) -> Ord:
    """Read one order line (text or JSON form); OrderSyntaxError quotes what is wrong."""
    line = text.strip()
    if not line:
        raise OrderSyntaxError(text, "empty order")
    if line.startswith("{"):
        try:
            return ORDER.validate_python(json.loads(line))
        except (ValueError, ValidationError) as exc:
            msg = exc.errors(include_url=False)[0]["msg"] if isinstance(
                exc, ValidationError) else str(exc)
            raise OrderSyntaxError(text, f"not a valid JSON order: {msg}") from None
    r = Reader(line, data)
    verb = r.word("a verb").casefold()
    reader = VERBS.get(verb)
    if reader is None:
        r.pos = 0
        raise r.fail(f"unknown verb {verb!r}; orders start with one of: "
                     f"{', '.join(sorted(VERBS))}")
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
