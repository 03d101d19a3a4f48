"""What keys a skirmish record's dice, and verify's check of every die and key.

A game whose record 0 does not say `"keyed": "side"` in its dice keys each record's dice by
the record's number (`game-id/n/i`): whoever holds the secret foresees them, and could
choose among them by writing records first. A game whose record 0 says it keys each
rolling record of a side by that side's own count of such records, as a campaign's mail
does (store/sheets.py own_source): its `dice_from` names its stream ("british.3"), and,
for an order that came by mail, the digest of the mail's order lines, which the dice mix
in (`game-id/british.3/i/mail=DIGEST`). No record the moderator writes (a ruling, a mail
route, the other side's orders applied first) moves a side's count, and he cannot know a
mail's digest before it comes. A ruling that decides a test again takes the test's own
dice, then, if it needs more, the next ones of the test's stream."""

from __future__ import annotations

from ...base.errors import JournalError
from ...store import dice as dicemod
from ...store import sheets
from ...store.anydice import AnyDice

KEYED = "side"          # record 0's dice.keyed in a game whose dice are keyed by side


def keyed_by_side(header: dict) -> bool:
    """Whether record 0 keys each side's rolling records by the side's own count (its dice
    committed: dice given by hand are keyed by nothing)."""
    dice = header.get("dice")
    return isinstance(dice, dict) and dice.get("keyed") == KEYED and \
        dice.get("mode") == "committed"


def side_count(records: list[dict], side: str) -> int:
    """How many of the records are side's with a `dice_from` (its rolling records)."""
    return sum(1 for r in records[1:]
               if r.get("actor") == side and sheets.in_side_count(r.get("dice_from")))


def record_source(records: list[dict], side: str, texts: list[str],
                  mail: str | None) -> dict | None:
    """The `dice_from` of side's next record after records, if it rolls (None: the game
    keys its dice by record, or they are given by hand): its stream, one more than the
    side's rolling records before it, and for a mail's order the digest of its lines."""
    if not keyed_by_side(records[0]):
        return None
    digest = sheets.lines_digest(texts) if mail else None
    # referees=True: without a sheet or a mail the stream is the side's all the same.
    return sheets.own_source({}, side, digest, side_count(records, side), referees=True)


def follow_test(dice: AnyDice, rec: dict) -> None:
    """A ruling's fresh dice, beyond the disputed test's own: the next ones of that test's
    stream, when the game keys its dice by side (else this record's, as before)."""
    source = rec.get("dice_from")
    if dice.given is None and isinstance(source, dict):
        dice.keyed(source, len(rec["test"]["dice"]))


def _fail(name: str, n: int, what: str) -> JournalError:
    return JournalError(f"{name}: record {n} {what}", record=n)


def check_keys(records: list[dict], name: str) -> None:
    """Each record's `dice_from` is the one the referee writes under its game's scheme: none
    in a game keyed by record or with dice given by hand; in a game keyed by side, one on
    each record that rolled and on no other, its stream its side's count of rolling records,
    a mail's digest if and only if it came in a mail (JournalError naming the record)."""
    keyed, counts = keyed_by_side(records[0]), {}
    for rec in records[1:]:
        n, source, actor = rec["seq"], rec.get("dice_from"), rec.get("actor")
        if source is not None and not keyed:
            raise _fail(name, n, "keys its dice by a stream, but record 0 keys this game's "
                                 "dice by record number or takes them by hand")
        rolled = bool((rec.get("test") or {}).get("dice"))
        if not keyed or (source is None and not rolled):
            continue
        if not rolled:
            raise _fail(name, n, "names a dice stream but rolls no die")
        counts[actor] = counts.get(actor, 0) + 1
        want = f"{actor}.{counts[actor]}"
        stream = source.get("stream") if isinstance(source, dict) else None
        if stream != want:
            raise _fail(name, n, f"has its dice keyed {stream!r}, not {want!r}, its side's "
                                 f"count of rolling records")
        if bool(rec.get("mail")) != bool(source.get("mail")):
            raise _fail(name, n, "came in a mail but its dice mix in no digest of its order "
                                 "lines" if rec.get("mail") else
                        "mixes a mail's digest into its dice but came in no mail")


def check_reveal(records: list[dict], name: str) -> None:
    """A reveal is the last record, and its secret is the one the header committed to."""
    shown = [r for r in records[1:] if r["kind"] == "reveal"]
    if not shown:
        return
    n = shown[0]["seq"]
    if len(records) - 1 > n:
        raise _fail(name, n + 1, f"comes after the dice secret was revealed in record {n}; "
                                 f"a revealed game takes no more records")
    if dicemod.commitment(bytes.fromhex(shown[0]["secret"])) != \
            records[0]["dice"]["commitment"]:
        raise _fail(name, n, "reveals a secret that does not match the commitment in the "
                             "journal header")


def _die(secret: bytes, game_id: str, seq: int, source: object, i: int, faces: int) -> int:
    source = source if isinstance(source, dict) else None
    return 1 + dicemod.below(secret, game_id, dicemod.stream_of(seq, source), i, faces,
                             sheets.mix_text(source))


def check_dice(records: list[dict], secret: bytes, name: str) -> None:
    """Every die of a test is its record's (by its stream, mixing in what it names), and
    every fresh die of a ruling's test the one its scheme gives."""
    game_id = records[0]["game_id"]
    for rec in records[1:]:
        for i, d in enumerate((rec.get("test") or {}).get("dice", [])):
            if d["value"] != _die(secret, game_id, rec["seq"], rec.get("dice_from"), i,
                                  d["die"]):
                raise _fail(name, rec["seq"], f"die {i} is not the committed die")
        _check_ruling(records, rec, secret, name)


def _check_ruling(records: list[dict], rec: dict, secret: bytes, name: str) -> None:
    """The dice of a ruling's test past the disputed test's own: the next of that test's
    stream in a game keyed by side, else this record's from its first."""
    ruling = rec.get("settle") or {}
    n = ruling.get("record")
    disputed = records[n] if type(n) is int and 0 < n < rec["seq"] else {}
    old = (disputed.get("test") or {}).get("dice")
    if ruling.get("test") is None or not isinstance(old, list):
        return
    source = disputed.get("dice_from") if keyed_by_side(records[0]) else None
    for i, d in enumerate(ruling["test"]["dice"][len(old):], start=len(old)):
        at = (n, i) if isinstance(source, dict) else (rec["seq"], i - len(old))
        if d["value"] != _die(secret, records[0]["game_id"], at[0], source, at[1],
                              d["die"]):
            raise _fail(name, rec["seq"], f"die {i} of its ruling is not the committed die")
