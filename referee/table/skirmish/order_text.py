"""The text of a skirmish order: a test, what it is about, and the facts of the table
declared with it (KEY=VALUE), e.g. `fire B2 at=G2 range=24 cover=soft state=halted`."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...base.errors import OrderSyntaxError, order_kind
from ...base.nearness import did_you_mean, nearest
from ...contracts.skirmish import SkirmishCard

KINDS = ("move", "spot", "fire", "unaimed", "melee", "morale", "rally", "unpin", "surrender",
         "done", "dispute", "settle")
NUMBERS = ("range", "dice", "within", "enemies", "record")
LISTS = ("at", "attackers")
YES_NO = ("command", "confined", "advancing", "defending", "rapid", "contact", "between",
          "closer", "away", "uphold")
WORDS = ("mode", "trigger", "reason", "light", "state", "cover", "fact", "value")
# The facts each order reads (dicetests.py, checks.py, life.py): a fact its test does not
# read would be recorded and shown as if it counted, and could be disputed for nothing.
READS = {
    "move": ("mode", "away", "contact", "at", "command"),
    "spot": ("at", "range", "light", "state", "cover"),
    "fire": ("at", "range", "confined", "state", "cover", "dice", "command"),
    "unaimed": ("at", "range", "cover", "advancing", "rapid", "dice", "command"),
    "melee": ("attackers",),
    "morale": ("trigger", "advancing", "defending"),
    "rally": (),
    "unpin": ("command",),
    "surrender": ("reason", "between", "within", "enemies", "closer"),
    "done": (),
    "dispute": ("record", "fact", "value"),
    "settle": ("record", "fact", "value", "uphold", "state", "at"),
}
# A word of an order: no figure, section or card word holds a '.' (contracts/skirmish.py),
# so one ending a word is a sentence's full stop, which the order is read again without.
_TOKEN = re.compile(r"^[A-Za-z0-9_,-]{1,40}$")


@dataclass
class SkOrder:
    kind: str
    subject: str | None
    facts: dict = field(default_factory=dict)
    text: str = ""


def _value(text: str, key: str, value: str, card: SkirmishCard):
    if key == "value":                  # a claimed value: read as the disputed fact reads it
        return value
    if key in NUMBERS:
        if not value.isdigit() or len(value) > 4:
            raise OrderSyntaxError(text, f"{key}= takes a whole number of inches or dice")
        return int(value)
    if key in LISTS:
        return [v for v in value.split(",") if v]
    if key in YES_NO:
        if value.casefold() not in ("yes", "no"):
            raise OrderSyntaxError(text, f"{key}= takes yes or no")
        return value.casefold() == "yes"
    choices = getattr(card.facts, key, None)
    if choices is not None and value.casefold() not in choices:
        raise OrderSyntaxError(text, f"{key}={value}: the card's words are {', '.join(choices)}")
    return value.casefold()


# What may end an order line as it ends a sentence (a phone adds a full stop), and is not
# part of the order: a campaign's orders read so too (engine/reading.py).
SENTENCE_END = ".!…"


def parse_order(text: str, card: SkirmishCard) -> SkOrder:
    """An order's text read (OrderSyntaxError says what is wrong and where). A line that
    reads as an order once the full stop, '!' or '…' it ends with is dropped is that order
    (`Done.` is done, `... command=yes.` declares yes); one that reads as none either way
    is refused as typed (a sentence that begins with an order's word stays one)."""
    try:
        return _parse(text, card)
    except OrderSyntaxError as exc:
        bare = text.strip().rstrip(SENTENCE_END).rstrip()
        if not bare or bare == text.strip():
            raise
        first = exc
    try:
        return _parse(bare, card)
    except OrderSyntaxError:
        raise first from None


def _parse(text: str, card: SkirmishCard) -> SkOrder:
    words = text.split()
    if not words or words[0].casefold() not in KINDS:
        near = nearest(words[0], {k: k for k in KINDS}) if words else []
        raise OrderSyntaxError(text, f"an order starts with one of {', '.join(KINDS)}"
                                     f"{did_you_mean(near)}", 0)
    kind = words[0].casefold()
    subject = None
    facts: dict = {}
    for w in words[1:]:
        if not _TOKEN.match(w.replace("=", "", 1)):
            raise OrderSyntaxError(text, f"{w[:40]!r} is not a word of an order")
        key, sep, value = w.partition("=")
        if not sep:
            if subject is not None:
                raise OrderSyntaxError(text, f"{w!r}: one figure or section per order; facts "
                                             f"are KEY=VALUE")
            subject = w
            continue
        key = key.casefold()
        if key not in NUMBERS + LISTS + YES_NO + WORDS or key in facts:
            near = [] if key in facts else nearest(key, {k: f"{k}=" for k in READS[kind]})
            raise OrderSyntaxError(text, f"{key}=: unknown or repeated fact{did_you_mean(near)}")
        if key not in READS[kind]:
            takes = ", ".join(f"{k}=" for k in READS[kind]) or "no fact"
            raise OrderSyntaxError(text, f"{key}=: {kind} does not read it (it takes {takes})")
        facts[key] = _value(text, key, value, card)
    return SkOrder(kind, subject, facts, " ".join(words))


# What an order is about, as its form names it (the rest are about a figure).
_SUBJECTS = {"morale": "SECTION", "rally": "SECTION", "surrender": "FIGURE|SECTION",
             "done": "", "dispute": "", "settle": ""}


def order_form(verb: str, card: SkirmishCard,
               narrowed: dict[str, str | None] | None = None) -> str:
    """An order's form as a mail lists it: its first word, what it is about, and each fact
    it reads with the values the card knows ('move FIGURE mode=stealthy|manoeuvre|rush|
    assault away=yes|no contact=yes|no command=yes|no'; 'fire' for the card's aimed fire).
    narrowed: a fact's values where fewer can be legal now (listed.py); None: a fact the
    reader may not declare at all, left out."""
    given = narrowed or {}
    # The figures an order may be about now, where fewer than all of his (listed.py)
    subject = given.get("subject") or _SUBJECTS.get(verb, "FIGURE")
    return " ".join([verb, *([subject] if subject else []),
                     *(f"{key}={given.get(key) or _values(key, card)}"
                       for key in READS.get(verb, ()) if key not in given or given[key])])


def _values(key: str, card: SkirmishCard) -> str:
    if key in YES_NO:
        return "yes|no"
    if key in NUMBERS:
        return "N"
    if key in LISTS:
        return "FIGURE,FIGURE"
    choices = {"mode": list(card.movement.modes), "trigger": list(card.morale.triggers),
               "reason": ["routing", "melee"],          # decider.py: a surrender's reasons
               "light": card.facts.light, "state": card.facts.state, "cover": card.facts.cover}
    return "|".join(choices[key]) if key in choices else key.upper()


def rejection(texts: list[str], at: int | None, exc: Exception) -> dict:
    """The order a batch's result names as rejected, as a campaign's order-result names it:
    its index (at; else the line the error quotes, the batch's first when it quotes none:
    the game closed), the order, the error, its rule and its kind."""
    if at is None:
        text = getattr(exc, "text", None)
        at = texts.index(text) if isinstance(text, str) and text in texts else 0
    return {"index": at, "order": texts[at], "error": str(exc),
            "rule": getattr(exc, "rule", None), "kind": order_kind(exc)}


def refusal(texts: list[str], at: int | None, exc: Exception, whole: bool = False) -> dict:
    """What a batch's result says of its refusal, as a campaign's order-result says it: the
    order rejected (rejection) and `not_applied`, the orders besides it that made no record:
    with whole (refused before any die rolled, nothing recorded) every other one of the
    batch, else those after it."""
    rejected = rejection(texts, at, exc)
    i = rejected["index"]
    return {"rejected": rejected,
            "not_applied": [t for n, t in enumerate(texts) if n != i] if whole
            else texts[i + 1:]}
