"""A side's order keys the moderator replaced (`players --new-key`, or a new address, which
brings a new key): the player's next mail says so near its top, and a mail from his address
that carries his former key is told which record replaced it, so that the older reports
that end with that key do not contradict the answer. No key is named but in the player's
own mail, as ever (after its report, 'Order key:')."""

from __future__ import annotations

from ..base.addresses import address_key
from ..store.players import REGISTER, compact, order_key
from ..store.secrets import load_secret
from .observers import sent_mark, still_held

# Why a side's key changed at a record, as its player reads it.
_NEW_KEY = "the moderator gave your side a new one"
_NEW_ADDRESS = "a new key goes with a new address"
# How the answer to a mail with a former key begins.
FORMER_KEY = "your order key was replaced at record"
# The ledger's part: by side, the mark of the record his last mail ended at (sent_mark) and
# the number of the order key that mail carried, which a journal set back past that record
# no longer tells.
CARRIED = "keys_carried"


def replaced(records: list[dict]) -> dict[str, list[tuple[int, int, bool]]]:
    """By side, each former key: its number, the record that replaced it, and whether the
    side's address changed there too (a roster record's moderator-only part, read whole)."""
    before: dict[str, dict] = {}
    out: dict[str, list[tuple[int, int, bool]]] = {}
    for rec in records:
        part = rec.get("players") if rec.get("order") == REGISTER else None
        data = part.get("data") if isinstance(part, dict) else None
        if not isinstance(data, dict):
            continue
        now = {p["side"]: p for p in data.get("players", [])
               if isinstance(p, dict) and isinstance(p.get("side"), str)}
        for side, p in now.items():
            old = before.get(side)
            was, number = (old or {}).get("key_no") or 0, p.get("key_no") or 0
            if old is not None and type(number) is int and number > was:
                moved = address_key(str(old.get("address"))) != \
                    address_key(str(p.get("address")))
                out.setdefault(side, []).extend((n, rec["seq"], moved)
                                                for n in range(was, number))
        before = now
    return out


def key_note(records: list[dict], ledger: dict, side: str) -> str | None:
    """The first lines of a player's mail when the moderator gave his side a new key (his
    address as it was) after the key his last mail carried (the ledger's mark of that mail,
    none when he was never mailed, so never mailed a key): the record it ended at while the
    journal holds it, else the key's number the ledger kept with that mark."""
    sent = ledger["sent"].get(side)
    if sent is None:
        return None
    since, kept = still_held(sent, records), _carried(ledger, side, sent)
    seqs = [seq for number, seq, moved in replaced(records).get(side, ()) if not moved and
            (seq > since if since is not None else number >= kept)]
    if not seqs:
        return None
    return (f"Your order key was replaced at record {seqs[-1]} ({_NEW_KEY}): use the one "
            f"at the end of this mail; the one in your earlier mails no longer counts.")


def keep_carried(ledger: dict, side: str, records: list[dict]) -> None:
    """Keep, with the mark of the journal's last record, the number of the order key a
    side's mail ending there carries (the roster's as the records register it)."""
    number = 0
    for rec in records:
        part = rec.get("players") if rec.get("order") == REGISTER else None
        data = part.get("data") if isinstance(part, dict) else None
        for p in data.get("players", []) if isinstance(data, dict) else ():
            if isinstance(p, dict) and p.get("side") == side:
                number = p.get("key_no") or 0
    kept = ledger.get(CARRIED) if isinstance(ledger.get(CARRIED), dict) else {}
    ledger[CARRIED] = {**kept, side: [*sent_mark(records[-1]), number]}


def _carried(ledger: dict, side: str, sent: object) -> int:
    """The number of the key the side's last mail (sent: its mark) carried, as the ledger
    kept it; 0 (the first key) when it kept none for that mail."""
    kept = ledger.get(CARRIED) if isinstance(ledger.get(CARRIED), dict) else {}
    entry = kept.get(side)
    if isinstance(entry, list) and len(entry) == 3 and entry[:2] == sent and \
            type(entry[2]) is int:
        return entry[2]
    return 0


# What a player reads of where his key is, when the mail he sent carried a former one.
LATEST_HELP = ("Your order key is at the end of the latest report the referee sent you, after "
               "the words 'Order key'. Send your orders again with that line: reply to this "
               "mail, or to that report.")


def former_key_why(table, sides: list[str], text: str) -> str | None:
    """Why a mail from a side's address was not matched when it carries that side's former
    key (text: the mail as read), or None."""
    records = table.records
    if not sides or not any(replaced(records).get(s) for s in sides):
        return None
    game = table.game()
    secret = load_secret(game.journal.path, game.header)
    if secret is None:
        return None
    game_id, found = str(records[0].get("game_id")), compact(text)
    for side in sides:
        for number, seq, moved in reversed(replaced(records).get(side, [])):
            if compact(order_key(secret, game_id, side, number)) in found:
                return (f"{FORMER_KEY} {seq} "
                        f"({_NEW_ADDRESS if moved else _NEW_KEY}); use the one in the latest "
                        f"mail")
    return None
