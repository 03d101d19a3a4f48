"""A side's order keys the moderator replaced (`players --new-key`, or a new address, which
brings a new key): the player's next mail says so near its top, and a mail from his address
that carries his former key is told which record replaced it, so that the older reports
that end with that key do not contradict the answer. No key is named but in the player's
own mail, as ever (after its report, 'Order key:')."""

from __future__ import annotations

from ..base.addresses import address_key
from ..store.players import REGISTER, compact, order_key
from ..store.secrets import load_secret

# Why a side's key changed at a record, as its player reads it.
_NEW_KEY = "the moderator gave your side a new one"
_NEW_ADDRESS = "a new key goes with a new address"
# How the answer to a mail with a former key begins.
FORMER_KEY = "your order key was replaced at record"


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


def key_note(records: list[dict], sent: object, since: int, side: str) -> str | None:
    """The first lines of a player's mail when the moderator gave his side a new key (his
    address as it was) after the record his last mail ended at (since; sent: the ledger's
    mark of that mail, None when he was never mailed, so never mailed a key)."""
    seqs = [seq for _, seq, moved in replaced(records).get(side, ()) if seq > since and
            not moved]
    if not seqs or sent is None:
        return None
    return (f"Your order key was replaced at record {seqs[-1]} ({_NEW_KEY}): use the one "
            f"at the end of this mail; the one in your earlier mails no longer counts.")


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
