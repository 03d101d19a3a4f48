"""A handled mail as `inbox` and `tick` print it in JSON, with the stable name of why it was
not applied (`code`, contracts/codes.py) beside the sentence (`reason`): each place that
refuses a mail names its code as it says its reason; a status that says it alone (held,
known, automatic...) gives its own."""

from __future__ import annotations

from ..base.errors import DiceError
from .senders import FORMER, NO_KEY_IN_IT, NOT_THE_KEY, STRANGER, key_shaped

# The code of a mail whose status says why alone.
BY_STATUS = {"stale": "stale", "held": "held_for_dice", "known": "already_handled",
             "done": "already_handled", "automatic": "automatic", "failed": "failed",
             "unreadable": "unreadable"}
# Why a mail matched no player, by the check senders.unmatched says it failed.
UNMATCHED = {STRANGER: "stranger", FORMER: "former_address", NO_KEY_IN_IT: "no_key",
             NOT_THE_KEY: "wrong_key"}


def unmatched_code(why: str) -> str:
    """The code of a mail matched to no player, why the check it failed (senders.unmatched);
    a key of the sender's that is not the one now (a former key, his key of another game:
    formerkeys.py, otherkeys.py) is a wrong key."""
    return UNMATCHED.get(why, "wrong_key")


def key_code(body: str) -> str:
    """The code of a mail from a side's address whose text (body) holds no key of his: a
    wrong key when it holds one of any game's shape, else none."""
    return "wrong_key" if key_shaped(body) else "no_key"


def order_code(exc: BaseException) -> str:
    """The code of a mail whose orders exc refused: its dice (or dice sheet), a game that
    takes no orders now, else an order line."""
    halted = getattr(exc, "halted", None)
    if halted in ("over", "closed", "paused"):
        return f"game_{halted}"
    return "dice" if isinstance(exc, DiceError) else "bad_order"


def code_of(o) -> str | None:
    """The code of a handled mail (an outcome.Outcome, or a direct mail's Handled): its
    status's when that says why alone, else the one its handling named."""
    return BY_STATUS.get(o.status) or getattr(o, "code", None)


def message_json(o, where: str | None = None) -> dict:
    """A handled mail as inbox-result's `messages` (and tick's) hold it; where: its place as
    the pass names it, when not o's own."""
    return {"where": o.where if where is None else where, "message_id": o.message_id,
            "from": o.sender, "status": o.status, "side": o.side, "reason": o.reason,
            "records": o.records, "new": o.new, "code": code_of(o)}


def refuse(out, status: str, code: str, reason: str):
    """out (an outcome.Outcome, or a direct mail's Handled) not applied: its status, its
    code and its reason; out itself."""
    out.status, out.code, out.reason = status, code, reason
    return out
