"""The reveal of the dice secret, as verify checks it in a journal and in an export alike.

A record that calls itself the reveal (its order, or a SecretRevealed event) must be the
moderator's, one SecretRevealed event holding the secret whose SHA-256 is record 0's
commitment, and nothing else; no record may follow it (its dice were predictable from then
on). An export shows the reveal in full (it is no side's secret), so an export holding one
is held to the same, and every die it names is then recomputed from the secret it reveals.
"""

from __future__ import annotations

import json

from ..base.errors import JournalError
from ..store import dice as dicemod
from .replay import REVEAL


def revealed_secret(raw: bytes, commitment: str) -> bytes | None:
    """The secret published by a reveal record, if the journal holds one that fits."""
    at = raw.find(b'"type":"SecretRevealed"')
    if at < 0:
        return None
    start = raw.rfind(b"\n", 0, at) + 1
    try:
        rec = json.loads(raw[start:raw.find(b"\n", at)])
        shown = bytes.fromhex(rec["events"][0]["secret"])
    except (ValueError, KeyError, IndexError, TypeError, RecursionError):
        return None
    return shown if dicemod.commitment(shown) == commitment else None


def claims_reveal(rec: dict) -> bool:
    """Whether a record calls itself the reveal: by its order or by an event."""
    events = rec.get("events")
    return rec.get("order") == REVEAL or isinstance(events, list) and any(
        isinstance(e, dict) and e.get("type") == "SecretRevealed" for e in events)


def check_reveal(rec: dict, name: str, commitment: str) -> None:
    """A reveal record: the moderator's, one SecretRevealed event with the committed secret."""
    n = rec["seq"]
    events = rec.get("events")
    ok = (rec.get("actor") == "moderator" and isinstance(events, list) and len(events) == 1
          and isinstance(events[0], dict) and events[0].get("type") == "SecretRevealed"
          and not rec.get("dice") and "private_order" not in rec)
    if ok:
        try:
            ok = dicemod.commitment(bytes.fromhex(events[0]["secret"])) == commitment
        except (ValueError, TypeError, KeyError):
            ok = False
    if not ok:
        raise JournalError(f"{name}: record {n} claims to reveal the secret but is not a "
                           f"reveal of the committed secret", record=n)


def after_reveal(name: str, n: int, revealed_at: int) -> JournalError:
    """A record following the reveal: none may (its dice were predictable)."""
    return JournalError(f"{name}: record {n}: follows the reveal of the secret in record "
                        f"{revealed_at}; no order may come after it (its dice were "
                        f"predictable)", record=n)
