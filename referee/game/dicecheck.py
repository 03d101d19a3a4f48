"""The dice of one record checked against the committed secret, without deciding it again
(a record of older rules, an export); the streams an export's records name checked
against each side's count of records with material; and the players' dice sheets walked
as the records show them: each link revealed a later link of its actor's sheet, each link
a record's dice mix in one its side had shown (store/sheets.py)."""

from __future__ import annotations

from ..base.errors import JournalError
from ..engine.versions import rules_of_header
from ..store import dice as dicemod
from ..store.sheets import (
    OWN_LINKS_FROM,
    PLANS,
    SHEET,
    SheetPos,
    in_side_count,
    mix_text,
    register,
    shown_tip,
    steps_down,
)
from .dicenamed import differing
from .moderated import check_sheet


def fail(name: str, n: int, what: str) -> JournalError:
    return JournalError(f"{name}: record {n}: {what}", record=n)


class Streams:
    """What keys the dice of each record of an export, as far as its public records tell
    (store/sheets.py): each side's count of records with material, and the phase of sealed
    plans given at once a record answers ("plans-production.3"): the decision pending
    (DecisionPending), the sides asked at once (PlansOpened; production asks every side,
    7.0) and the turn (the scenario's start, then SeasonAdvanced)."""

    def __init__(self, header: dict):
        start = (header.get("scenario_data") or {}).get("start") or {}
        self.turn = start.get("turn") if isinstance(start, dict) else None
        self.kind: str | None = None
        self.opened: tuple[str | None, int] = (None, 0)
        self.counts: dict[str, int] = {}

    def phase(self) -> str | None:
        """The stream of the phase of sealed plans given at once now open, if one is."""
        if self.kind != "production" and (self.opened[0] != self.kind or self.opened[1] < 2):
            return None
        return f"{PLANS}{self.kind}.{self.turn}"

    def follow(self, rec: dict) -> None:
        for ev in rec.get("events") or []:
            kind = ev.get("type") if isinstance(ev, dict) else None
            if kind == "DecisionPending":
                self.kind = ev.get("kind")
            elif kind == "PlansOpened":
                self.opened = (ev.get("kind"), len(ev.get("sides") or ()))
            elif kind == "SeasonAdvanced":
                self.turn = ev.get("turn")


def check_stream(rec: dict, streams: Streams, name: str) -> None:
    """A record's `dice_from` moves its actor's count on, but one keyed by a phase of sealed
    plans given at once; a stream it names must be that count ("german.4" for his fourth
    such record), or in such a phase the phase's, as the referee keys it."""
    source, phase = rec.get("dice_from"), streams.phase()
    streams.follow(rec)
    if not isinstance(source, dict):
        return
    stream, actor, counts = source.get("stream"), rec.get("actor"), streams.counts
    if phase is not None and stream is not None:
        if stream != phase:
            raise fail(name, rec["seq"], f"its dice are keyed {stream!r}, not {phase}, the "
                                         f"phase of sealed plans given at once it answers")
        return
    counts[actor] = counts.get(actor, 0) + 1
    if stream is not None and stream != f"{actor}.{counts[actor]}":
        raise fail(name, rec["seq"], f"its dice are keyed {stream!r}, not "
                                     f"{actor}.{counts[actor]}, its side's count of records "
                                     f"with dice of their own")


def follow_link(sheets: dict[str, SheetPos], rec: dict, name: str) -> dict | None:
    """The link a record reveals, checked: its actor's, a later link of his sheet than the
    last one revealed (the sheets move on to it)."""
    link = rec.get("link")
    if link is None:
        return None
    n, side = rec["seq"], link.get("side")
    pos = sheets.get(side)
    if side != rec["actor"] or pos is None:
        why = "has none registered" if pos is None else "is not its actor"
        raise fail(name, n, f"it reveals a link of {side!r}'s dice sheet; {side!r} {why}")
    ahead = steps_down(link["value"], pos.value)
    if ahead is None or link["no"] != pos.no + ahead:
        raise fail(name, n, f"its link {link['no']} of {side}'s dice sheet is not a later "
                            f"link of the sheet than link {pos.no} (record {pos.seq}): its "
                            f"SHA-256 chain does not lead there")
    sheets[side] = SheetPos(pos.tip, link["no"], link["value"], n)
    return dict(link)


def check_mix(sheets: dict[str, SheetPos], rec: dict, name: str, rules: int) -> None:
    """Every link a record's dice mix in (`dice_from`) is its side's as the records had shown
    it by then. Under rules 8 and later (store/sheets.py own_source, plans_source): the
    latest link revealed, of the record's own side but in a phase of sealed plans given at
    once; before, any side's latest link, or before any its tip (older rules mixed it in)."""
    source = rec.get("dice_from")
    links = source.get("links") if isinstance(source, dict) else None
    own = rules >= OWN_LINKS_FROM and in_side_count(source)
    for link in links if isinstance(links, list) else ():
        side = link.get("side") if isinstance(link, dict) else None
        pos = sheets.get(side) if isinstance(side, str) else None
        shown = () if pos is None else \
            (pos.shown,) if rules >= OWN_LINKS_FROM else ((pos.no, pos.value), pos.shown)
        if (link.get("no"), link.get("value")) not in shown:
            raise fail(name, rec["seq"], f"its dice mix in {_named(link)}, which is not that "
                                         f"side's latest link revealed before it")
        if own and side != rec.get("actor"):
            raise fail(name, rec["seq"], f"its dice mix in {_named(link)}: a record of "
                                         f"{rec.get('actor')!r} mixes in its own side's link "
                                         f"alone (rules {OWN_LINKS_FROM} and later)")


def _named(link: object) -> str:
    if isinstance(link, dict) and isinstance(link.get("side"), str):
        return f"link {link.get('no')!r} of {link['side']}'s dice sheet"
    return "a link of no side's dice sheet"


def register_checked(sheets: dict[str, SheetPos], rec: dict, name: str,
                     game: tuple[list[str], bool, int]) -> None:
    """A record registering a dice sheet, checked (game: the sides, whether its dice are
    manual, the rules it was made under): one the referee writes, its tip on no chain the
    game had shown (rules 7 and later); the sheets move on to it."""
    sides, manual, rules = game
    check_sheet(rec, name, sides, manual)
    side, tip = rec["sheet"]["side"], rec["sheet"]["tip"]
    if shown_tip(tip, sheets.get(side), rules):
        raise fail(name, rec["seq"], "its tip lies on a chain the game had shown (a link "
                                     "shown before would check again)")
    register(sheets, side, tip, rec["seq"])


class SheetWalk:
    """The players' dice sheets along an export's records (verify's full walk checks the
    same in its place): each tip registered as the referee registers one, each link
    revealed a later link of its actor's sheet, each link a record's dice mix in one its
    rules take; the rules move on at an upgrade."""

    def __init__(self, header: dict, sides: list[str]):
        self.sheets: dict[str, SheetPos] = {}
        self.rules, self.sides = rules_of_header(header), sides
        self.manual = header["dice"]["mode"] == "manual"
        self.links = 0

    def follow(self, rec: dict, name: str) -> None:
        if rec.get("order") == SHEET or rec.get("sheet") is not None:
            register_checked(self.sheets, rec, name, (self.sides, self.manual, self.rules))
            return
        self.links += follow_link(self.sheets, rec, name) is not None
        check_mix(self.sheets, rec, name, self.rules)
        for ev in rec.get("events") or ():
            if isinstance(ev, dict) and ev.get("type") == "RulesUpgraded" and \
                    type(ev.get("rules")) is int:
                self.rules = ev["rules"]


def check_dice(rec: dict, name: str, game_id: str, secret: bytes) -> None:
    """The dice of one record are the committed stream, around its public shuffle draws."""
    n = rec["seq"]
    rolled = rec.get("dice", [])
    blocks = [e.get("draws", 0) for e in rec.get("events", [])
              if isinstance(e, dict) and e.get("type") == "DeckShuffled"]
    # A shuffle of the 55 cards draws fewer than 55 values (1.3).
    if not isinstance(rolled, list) or len(blocks) > 55 or \
            not all(type(b) is int and 0 <= b < 55 for b in blocks):
        raise fail(name, n, "its dice or shuffles are malformed")
    total = len(rolled) + sum(blocks)
    source = rec.get("dice_from") if isinstance(rec.get("dice_from"), dict) else None
    mix, key = mix_text(source), dicemod.stream_of(n, source)
    stream = [dicemod.die(secret, game_id, key, i, mix) for i in range(total)]
    tried: set[tuple[int, int]] = set()

    def fits(at: int, block: int) -> bool:
        """Whether the dice from stream position at, with shuffles block... placed somewhere
        after it, are the rolled ones (each position and block is tried once)."""
        if (at, block) in tried:
            return False
        tried.add((at, block))
        taken = at - sum(blocks[:block])          # dice used before position at
        if block == len(blocks):
            return stream[at:] == rolled[taken:]
        for start in range(at, total - blocks[block] + 1):
            if stream[start - 1:start] != rolled[taken + start - at - 1:taken + start - at] \
                    and start > at:
                return False                      # the dice before this start differ
            if fits(start + blocks[block], block + 1):
                return True
        return False

    if not fits(0, 0):
        # Without shuffles the record's dice are the stream's in order: each that differs
        # is named (dicenamed.py).
        named = differing(rec, stream) if not blocks and len(stream) == len(rolled) else ""
        err = fail(name, n, "its dice are not the ones the committed secret gives" +
                   (f": {named}" if named else ""))
        err.check = "dice"
        raise err
