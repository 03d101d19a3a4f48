"""Random legal play of a skirmish, seeded: `referee autoplay` of a skirmish (autoplayed.py)
and the soak driver of its property tests.

Whoever the game waits on (kind.waiting_on) is drawn, and one of the orders the kind lists
to him (kind.legal_orders, with a dispute while one is open to him) is filled in from the
form his mail gives it (listed.forms): a subject and each fact's value drawn from what the
form names (a figure of his or of the enemy's, a word of the card, yes or no, a number the
card names or any up to its longest), a fact left out now and then. Nothing here says what
is legal: a drawn order is kept when decider.check takes it (a dispute or a ruling: when
the kind's dry run does, as `order --dry-run`), else another is drawn; a melee is drawn
from those his mail's note names open to him (listed.open_melees). A side the game does
not wait on sends now and then what his mail says he may still send (listed.still_open); a
dispute open, the moderator settles it (the claimed value, or the test upheld).

Each order kept is played as a player's `order` plays it (kind.order: its own record, its
dice from the committed secret). One that the check took and the order refuses is the
game's fault, not the player's: the run stops there with it as its failure, the journal
holding every record before it, so that the seed reproduces it."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ...base.errors import OrderError
from ...base.readers import MODERATOR
from . import decider as sk
from .checks import fighting
from .dryrun import dry_run
from .ending import disputable
from .life import card_words
from .listed import forms, open_melees, still_open

# How often a player draws, when he may: a test rather than done; a dispute of a fact the
# other side declared; an order while the game does not wait on him; a fact left out.
TEST, DISPUTE, ASIDE, LEFT_OUT = 0.75, 0.08, 0.1, 0.1
# Orders drawn from one form before another of his forms is tried.
DRAWS = 60


@dataclass
class Played:
    """What a run of random play did: the records it made, the orders (side: text), whether
    the game is over, the turn it stopped in, and the failure that stopped it (an order
    check took, refused)."""

    records: int = 0
    orders: list[str] = field(default_factory=list)
    over: bool = False
    turn: int = 0
    failure: str | None = None
    drawn: int = 0          # orders drawn, legal or not


def play(table, seed: int, max_records: int = 0, until: int | None = None) -> Played:
    """Random legal orders for the skirmish a Table holds, up to max_records records (0: no
    bound), the end of turn `until` (the card's sequence of play gone through: the game in
    the next turn) or the end of the game; seeded by seed and the journal's last record, so
    that a game played a few records at a time is the game played at once. The Table is
    given, not opened here: its kind, which plays the orders, calls this."""
    out = Played()
    while not max_records or out.records < max_records:
        game = table.game()
        if game.state.over() or game.state.revealed is not None:
            break
        if until is not None and game.state.turn > until:
            break
        rng = random.Random(f"{seed}/{game.state.seq}")
        side, text = next_order(table, rng, out)
        if text is None:
            out.failure = f"record {game.state.seq + 1}: {side} is waited on, and no order " \
                          f"drawn from his forms was legal"
            break
        if not _played(table, side, text, out):
            break
    out.over = table.game().state.over()
    out.turn = table.game().state.turn
    return out


def _played(table, side: str, text: str, out: Played) -> bool:
    """Play one order as `order --as side` plays it; False (with the failure, named for the
    record it would have been) when it is refused."""
    seq = table.game().state.seq + 1
    try:
        doc, stop = table.kind.order(table, side, [text], "json")
    except OrderError as exc:
        stop = (str(exc), exc)
    if stop is not None:
        out.failure = f"record {seq}: {side}: {text!r} was taken by the check, then refused: " \
                      f"{stop[0]}"
        return False
    out.records += len(doc.records)
    out.orders.append(f"{side}: {text}")
    return True


def next_order(table, rng: random.Random, out: Played) -> tuple[str, str | None]:
    """(who, the order he gives) now: the moderator's ruling on a dispute open; a side the
    game does not wait on, now and then, what he may still send; else a side it waits on."""
    game = table.game()
    card, state = game.card, game.state
    open_ = sk.open_disputes(state.disputes)
    if open_:
        return MODERATOR, _ruling(table, rng, open_[0]["record"], open_[0]["fact"],
                                  open_[0].get("claimed"))
    waited = table.kind.waiting_on(table)
    aside = [s for s in state.sides if s not in waited and still_open(card, state, s)]
    if aside and (not waited or rng.random() < ASIDE):
        side = rng.choice(aside)
        text = _drawn(table, rng, side, still_open(card, state, side), out)
        if text is not None:
            return side, text
    if not waited:
        return "nobody", None
    side = rng.choice(waited)
    verbs = table.kind.legal_orders(table, side)
    if "dispute" in verbs and rng.random() < DISPUTE:
        text = _dispute(table, rng, side)
        if text is not None:
            return side, text
    return side, _drawn(table, rng, side, [v for v in verbs if v != "dispute"], out)


def _drawn(table, rng: random.Random, side: str, verbs: list[str], out: Played
           ) -> str | None:
    """A legal order of one of verbs, filled in from its form: a test first, most often,
    then done; None when no order drawn was legal."""
    game = table.game()
    card, state = game.card, game.state
    tests = [v for v in verbs if v != "done"]
    rng.shuffle(tests)
    order = [*tests, "done"] if rng.random() < TEST else ["done", *tests]
    for verb in (v for v in order if v in verbs):
        form = forms(card, state, side, [verb])[0]
        # The melees open to him, as his mail's note under the melee form names them.
        melees = [f"melee {o.subject} attackers={','.join(o.facts['attackers'])}"
                  for o in open_melees(card, state, side)] if verb == "melee" else []
        for _ in range(DRAWS):
            out.drawn += 1
            text = rng.choice(melees) if melees else filled(form, card, state, side, rng)
            try:
                order = sk.parse_order(text, card)
            except OrderError:          # a value no order reads (none of his figures left)
                continue
            if sk.check(card, state, order, side) is None:
                return text
    return None


def filled(form: str, card, state, side: str, rng: random.Random) -> str:
    """An order drawn from a form ('fire FIGURE at=FIGURE range=N cover=none|soft|hard'):
    its subject and each fact's value drawn from what the form names, a fact left out now
    and then (a phase a done names is kept)."""
    verb, *words = form.split()
    own = [f for f, x in state.figures.items() if x.side == side and fighting(state, f)]
    enemy = [f for f, x in state.figures.items() if x.side != side and fighting(state, f)]
    subject = [w for w in words if "=" not in w]
    facts = [w.split("=", 1) for w in words if "=" in w]
    said, numbers = [verb], _numbers(card)
    if subject:
        said.append(_subject(subject[0], verb, own, enemy, state, side, rng))
    for key, values in facts:
        if rng.random() < LEFT_OUT:
            continue
        value = _value(key, values, own, enemy, numbers, rng)
        if value:
            said.append(f"{key}={value}")
    return " ".join(said)


def _subject(named: str, verb: str, own: list[str], enemy: list[str], state, side: str,
             rng: random.Random) -> str:
    """What the order is about, as its form names it: a figure of his (a melee's defender,
    the enemy's), a section of his, any figure or section, one of the ids it lists, or the
    phase a done names."""
    if named == "FIGURE":
        return rng.choice((enemy if verb == "melee" else own) or ["?"])
    if named == "SECTION":
        return rng.choice([s for s, x in state.sections.items() if x.side == side] or ["?"])
    if named == "FIGURE|SECTION":
        return rng.choice([*state.figures, *state.sections])
    return rng.choice(named.split("|"))


def _value(key: str, values: str, own: list[str], enemy: list[str], numbers: list[int],
           rng: random.Random) -> str:
    """A fact's value drawn from what its form names: a figure (at=: the enemy's; attackers=:
    his own), one or two of them, a number, or one of the words it lists."""
    if values in ("FIGURE", "FIGURE,FIGURE"):
        pool = own if key == "attackers" else enemy
        if not pool:
            return ""
        many = 1 if values == "FIGURE" else rng.choice((1, 1, 2))
        return ",".join(rng.sample(pool, min(many, len(pool))))
    if values == "N":
        return str(rng.choice([*numbers, rng.randint(0, max(numbers))]))
    return rng.choice(values.split("|"))


def _numbers(card) -> list[int]:
    """The numbers a declared fact is drawn from: the card's ranges, radii and dice."""
    found = {n for w in card.weapons.kinds.values()
             for n in (w.range, w.radius, w.defensive_radius, *w.dice) if n}
    found |= set(card.motivation.ranges.values())
    return sorted(found) or [1]


def _dispute(table, rng: random.Random, side: str) -> str | None:
    """A dispute of a fact of a test of the other side's within his challenge window, a
    value other than the one declared claimed; None when the dry run refuses the one
    drawn."""
    game = table.game()
    records = table.records
    open_ = disputable(records, game.state, side)
    if not open_:
        return None
    n = rng.choice(open_)
    facts = records[n]["test"]["facts"]
    fact = rng.choice(sorted(facts))
    value = _other(facts[fact], fact, game.card, list(game.state.figures), rng)
    text = f"dispute record={n} fact={fact} value={value}"
    return text if _dry_legal(records, side, text) else None


def _other(old: object, fact: str, card, figures: list[str], rng: random.Random) -> str:
    """A value a declared fact could take other than the one declared."""
    if isinstance(old, bool):
        return "no" if old else "yes"
    if isinstance(old, int):
        return str(max(0, old + rng.choice((-6, -2, 2, 6, 12))))
    if isinstance(old, list):
        return rng.choice([f for f in figures if f not in old] or figures)
    words = [w for w in card_words(card, fact) or [] if w != old]
    return rng.choice(words) if words else str(old)


def _ruling(table, rng: random.Random, n: int, fact: str, claimed: object) -> str | None:
    """The moderator's ruling on record n's dispute, the test upheld or the claimed value,
    drawn in either order: the first the dry run takes; None when it takes neither."""
    rulings = [f"settle record={n} uphold=yes", f"settle record={n} fact={fact} value={claimed}"]
    if rng.random() >= 0.5:
        rulings.reverse()
    return next((text for text in rulings if _dry_legal(table.records, MODERATOR, text)), None)


def _dry_legal(records: list[dict], side: str, text: str) -> bool:
    """Whether `order --dry-run` takes the order (up to its first die)."""
    return dry_run(records, side, [text], None).rejected is None
