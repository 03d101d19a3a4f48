"""The dice of one record checked against the committed secret, without deciding it again
(a record of older rules, an export), and the streams an export's records name checked
against each side's count of records with material (store/sheets.py)."""

from __future__ import annotations

from ..base.errors import JournalError
from ..store import dice as dicemod
from ..store.sheets import PLANS, mix_text


def fail(name: str, n: int, what: str) -> JournalError:
    return JournalError(f"{name}: record {n}: {what}", record=n)


def check_stream(rec: dict, counts: dict[str, int], name: str) -> None:
    """A record's `dice_from` moves its actor's count on, but one keyed by a phase of sealed
    plans; a stream it names must be that count ("german.4" for his fourth such record), as
    the referee keys it."""
    source = rec.get("dice_from")
    if not isinstance(source, dict) or str(source.get("stream", "")).startswith(PLANS):
        return
    actor = rec.get("actor")
    counts[actor] = counts.get(actor, 0) + 1
    if "stream" in source and source["stream"] != f"{actor}.{counts[actor]}":
        raise fail(name, rec["seq"], f"its dice are keyed {source['stream']!r}, not "
                                     f"{actor}.{counts[actor]}, its side's count of records "
                                     f"with dice of their own")


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
        raise fail(name, n, "its dice are not the ones the committed secret gives")
